package eval

import (
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang/units"
)

// The values and types of gpl are package value's (eval/internal/value),
// which every phase shares; these are their names in the embedding API.

// Kind is the kind of a value.
type Kind = value.Kind

// Kinds of values.
const (
	Invalid = value.Invalid
	Number  = value.Number // a quantity: a float64 in its dimension's base unit
	Bool    = value.Bool
	String  = value.String
	Class   = value.Class // a priority class, such as latency_critical
)

// Type is a value's kind and, for numbers, its dimension.
type Type = value.Type

// Type constructors.
var (
	CountType  = value.CountType
	BoolType   = value.BoolType
	StringType = value.StringType
	ClassType  = value.ClassType
)

// Value is an evaluated value. Numbers are held in their dimension's base
// unit: seconds, bytes, FLOPs, USD, USD per second for a price.
type Value = value.Value

// NumberValue makes a quantity of dimension d from v in base units.
func NumberValue(v float64, d units.Dim) Value { return value.NumberValue(v, d) }
