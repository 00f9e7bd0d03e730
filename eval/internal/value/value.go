// Package value holds the values and types of gpl, which every phase
// shares: the check pass gives each expression a Type (a Kind and, for a
// number, a dimension), the evaluator computes Values of those types. It
// knows the language's dimensions and units (package lang), nothing of
// declarations or programs; package eval names its types in the embedding
// API.
package value

import (
	"fmt"
	"strconv"

	"github.com/gpl-lang/gpl/lang/units"
)

// Kind is the kind of a value.
type Kind uint8

// Kinds of values.
const (
	Invalid Kind = iota
	Number       // a quantity: a float64 in its dimension's base unit
	Bool
	String
	Class // a priority class, such as latency_critical
)

// Type is a value's kind and, for numbers, its dimension.
type Type struct {
	Kind Kind
	Dim  units.Dim
}

// Type constructors.
var (
	CountType  = Type{Kind: Number, Dim: units.Count}
	BoolType   = Type{Kind: Bool}
	StringType = Type{Kind: String}
	ClassType  = Type{Kind: Class}
)

// NumType is the type of a quantity of dimension d.
func NumType(d units.Dim) Type { return Type{Kind: Number, Dim: d} }

// String describes the type in a planner's words: "duration", "count",
// "bool", "string", "class".
func (t Type) String() string {
	switch t.Kind {
	case Number:
		return t.Dim.String()
	case Bool:
		return "bool"
	case String:
		return "string"
	case Class:
		return "class"
	}
	return "invalid"
}

// Phrase names the type as a sentence uses it, with its article where it
// takes one: a number's dimension as units.Dim.Phrase says ("a duration",
// "data", "money"), else "a bool", "a string", "a class".
func (t Type) Phrase() string {
	if t.Kind == Number {
		return t.Dim.Phrase()
	}
	return "a " + t.String()
}

// Value is an evaluated value. Numbers are held in their dimension's base
// unit: seconds, bytes, FLOPs, USD, USD per second for a price. That is the
// one convention of the API: Num is always in the base unit, whatever unit
// the source wrote, and In gives the number in any unit of its dimension,
// as a report prints it (useful hours in h, a price in USD/h).
type Value struct {
	Type Type
	Num  float64
	Str  string // a String's or a Class's text
	Bool bool
}

// In returns the number in unit, one of the language's unit symbols ("h",
// "USD/h", "GiB", "%", …; "" for a count): useful_hours.In("h") is
// 26002.944 where Num is 93,610,598.4 seconds. A value that is not a
// number, an unknown unit, or one of another dimension is an error.
func (v Value) In(unit string) (float64, error) {
	if v.Type.Kind != Number {
		return 0, fmt.Errorf("%s is %s, not a number", v, v.Type.Phrase())
	}
	if unit == "" {
		if v.Type.Dim != units.Count {
			return 0, fmt.Errorf("%s is %s: name its unit", v, v.Type.Phrase())
		}
		return v.Num, nil
	}
	u, ok := units.Lookup(unit)
	if !ok {
		return 0, fmt.Errorf("unknown unit %q", unit)
	}
	if u.Dim != v.Type.Dim {
		return 0, fmt.Errorf("%s is %s, and %s measures %s", v, v.Type.Phrase(), unit, u.Dim.Phrase())
	}
	return units.ToUnit(v.Num, u), nil
}

// NumberValue makes a quantity of dimension d from v in base units.
func NumberValue(v float64, d units.Dim) Value { return Value{Type: NumType(d), Num: v} }

// String prints the value readably, with its unit: 0.28215, 720 h,
// $8.86/h, "program", latency_critical.
func (v Value) String() string {
	switch v.Type.Kind {
	case Number:
		return units.Format(v.Num, v.Type.Dim)
	case Bool:
		return strconv.FormatBool(v.Bool)
	case String:
		return strconv.Quote(v.Str)
	case Class:
		return v.Str
	}
	return "<invalid>"
}

// Precise prints a number with up to ten significant digits in the unit u
// when given (the unit an expectation was written in), else in a readable
// unit; other kinds print as String does.
func (v Value) Precise(u *units.Unit) string {
	return v.precise(u, units.FormatNumber, units.FormatIn)
}

// Plain prints as Precise does but without thousands separators (92160 h,
// not 92,160 h), for outputs that programs read: JSON, TAP.
func (v Value) Plain(u *units.Unit) string {
	return v.precise(u, units.Numeral, units.NumeralIn)
}

func (v Value) precise(u *units.Unit, number func(float64) string, in func(float64, units.Unit) string) string {
	if v.Type.Kind != Number {
		return v.String()
	}
	if u != nil && u.Dim == v.Type.Dim {
		return in(v.Num, *u)
	}
	if v.Type.Dim == units.Count {
		return number(v.Num)
	}
	if ru, ok := units.ReadableUnit(v.Num, v.Type.Dim); ok {
		return in(v.Num, ru)
	}
	return number(v.Num) + " " + v.Type.Dim.BaseUnit()
}

// FromGo turns what an expr program returned into a value of type t.
func FromGo(x any, t Type) (Value, bool) {
	switch x := x.(type) {
	case float64:
		return Value{Type: t, Num: x}, t.Kind == Number
	case int:
		return Value{Type: t, Num: float64(x)}, t.Kind == Number
	case bool:
		return Value{Type: t, Bool: x}, t.Kind == Bool
	case string:
		return Value{Type: t, Str: x}, t.Kind == String || t.Kind == Class
	}
	return Value{}, false
}
