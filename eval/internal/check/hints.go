package check

import (
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file words the hints of the check pass for a number written
// without its unit: the unit the reader meant, never one that changes the
// number's magnitude.

// usualUnits are the units a field or result is usually written in, by
// its name: what "write its unit" suggests for it.
var usualUnits = map[string]string{
	"hours":        "h",
	"rate":         "USD/h",
	"sla_deadline": "ms",
	"input_size":   "B",
	"flops":        "FLOP",
}

// usualUnit is the unit a named operand of dimension d is written in: its
// field's or result's usual unit, h for every *_hours result, else the
// dimension's base unit.
func usualUnit(e lang.Expr, d units.Dim) (units.Unit, bool) {
	if n, ok := Unparen(e).(*lang.Name); ok {
		last := n.Parts[len(n.Parts)-1].Name
		if u, ok := units.Lookup(usualUnits[last]); ok && u.Dim == d {
			return u, true
		}
		if d == units.Duration && (strings.HasSuffix(n.Path(), "_hours") || strings.Contains(n.Path(), "_hours.")) {
			return units.Hour, true
		}
	}
	switch d {
	case units.Duration:
		return units.Second, true
	case units.Data:
		return units.Byte, true
	case units.Compute:
		return units.FLOP, true
	case units.ComputeRate:
		return units.FLOPPerSecond, true
	case units.Money:
		return units.USD, true
	case units.Price:
		return units.USDPerHour, true
	}
	return units.Unit{}, false
}

// unitHint writes how to give digits, a bare number compared or combined
// with other (of dimension d), its unit: "1000000000FLOP (1GFLOP)",
// "500h", "30s, 30min or 30h" when nothing says which duration is meant.
func unitHint(other lang.Expr, digits string, d units.Dim) string {
	u, ok := usualUnit(other, d)
	if d == units.Duration && u.Symbol == "s" {
		// Nothing says which duration is meant.
		return digits + "s, " + digits + "min or " + digits + "h"
	}
	if !ok {
		return digits + " " + d.BaseUnit()
	}
	sep := ""
	if u.Symbol == "USD" || u.Symbol == "USD/h" {
		sep = " "
	}
	hint := digits + sep + u.Symbol
	v, err := strconv.ParseFloat(strings.ReplaceAll(digits, "_", ""), 64)
	if err != nil || v == 0 {
		return hint
	}
	base := units.FromUnit(v, u)
	if ru, ok := units.ReadableUnit(base, d); ok && ru.Symbol != u.Symbol && d != units.Money && d != units.Price {
		// A literal to write: no space, no thousands separators.
		hint += " (" + units.Numeral(units.ToUnit(base, ru)) + ru.Symbol + ")"
	}
	return hint
}

// isBareZero reports a literal 0 without a unit: 0 is 0 in every unit, so
// it takes the dimension of whatever it meets.
func isBareZero(e lang.Expr) bool {
	lit, ok := Unparen(e).(*lang.NumberLit)
	return ok && lit.UnitOf() == nil && lit.IsZero() // Base is Amount without a unit
}

// SetExample writes x, the value a --set gives param d, in d's dimension:
// the number as given, with the unit d's default is written in ("1.5
// USD/h" for spot_rate=1.5 when the default is 1.15 USD/h, "30h" for
// window=30 when it is 720h), else the usual unit of the dimension; bare
// for a count. ok is false unless x is a number as written, perhaps
// negated: a hint keeps the number the user gave, never another.
func SetExample(d *Decl, x lang.Expr) (example string, ok bool) {
	sign := ""
	x = Unparen(x)
	if u, neg := x.(*lang.Unary); neg && u.Op == "-" {
		sign, x = "-", Unparen(u.X)
	}
	lit, isLit := x.(*lang.NumberLit)
	if !isLit || d.Type.Kind != value.Number {
		return "", false
	}
	digits, dim := sign+lit.Digits(), d.Type.Dim
	if dim == units.Count {
		return digits, true
	}
	if let := d.letStmt(); let != nil {
		if def, isDef := Unparen(let.Value).(*lang.NumberLit); isDef && def.Dim() == dim {
			if strings.HasPrefix(def.Text, "$") {
				if strings.HasSuffix(def.Text, "/h") {
					return sign + "$" + lit.Digits() + "/h", true
				}
				return sign + "$" + lit.Digits(), true
			}
			return digits + def.Text[len(def.Digits()):], true
		}
	}
	return unitHint(&lang.Name{Parts: []*lang.Ident{d.Name}}, digits, dim), true
}
