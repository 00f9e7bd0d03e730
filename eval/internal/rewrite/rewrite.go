// Package rewrite is the rule by which gpl test -update writes a new
// wanted number literal for a failing expect: input, the literal as
// written (FormOf) and the value got; output, the new literal's text
// (Form.Approx for ≈, Form.Exact for ==).
//
// The rule: the new literal keeps the unit it was
// written in ("$" stays a prefix, "USD/h" a suffix, an exponent stays an
// exponent) and, for ≈, the number of decimals it was written with
// (≈ 0.29 becomes ≈ 0.28, not ≈ 0.28215). When the value rounded to that
// precision would still not pass, because an explicit "± T" or
// "within P%" is tighter than the written precision, decimals are added
// one at a time until it passes. For == the value is written as reports
// print it (ten significant digits), with more digits only when those are
// needed for == to hold.
package rewrite

import (
	"math"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// Form is how a number literal was written: the text around its
// numeral ("$", " USD/h"), its exponent ("e3") and its decimals, and
// its unit (nil for a bare number).
type Form struct {
	prefix, suffix string
	exp            string // "e3" as written, or ""
	expValue       int
	frac           int // digits after the point in the mantissa
	Unit           *units.Unit
}

// FormOf reads how lit is written.
func FormOf(lit *lang.NumberLit) Form {
	f := Form{Unit: lit.UnitOf()}
	if i := strings.Index(lit.Text, lit.Digits()); i >= 0 {
		f.prefix, f.suffix = lit.Text[:i], lit.Text[i+len(lit.Digits()):]
	}
	mant := strings.ReplaceAll(lit.Digits(), "_", "")
	if j := strings.IndexAny(mant, "eE"); j >= 0 {
		f.exp = mant[j:]
		f.expValue, _ = strconv.Atoi(strings.TrimPrefix(mant[j+1:], "+"))
		mant = mant[:j]
	}
	if k := strings.IndexByte(mant, '.'); k >= 0 {
		f.frac = len(mant) - k - 1
	}
	return f
}

// UnitName names the unit the literal was written in, for messages.
func (f Form) UnitName() string {
	if f.Unit == nil {
		return "a bare number"
	}
	return f.Unit.Symbol
}

// inUnit converts a value in base units to the written unit.
func (f Form) inUnit(base float64) float64 {
	if f.Unit == nil {
		return base
	}
	return units.ToUnit(base, *f.Unit)
}

// literal assembles a candidate from a mantissa numeral (without sign) and
// the sign of the value; it returns the text, its value in base units and
// its written decimals.
func (f Form) literal(numeral string, negative bool, exp string) (string, float64, int, bool) {
	digits := numeral + exp
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		return "", 0, 0, false
	}
	sign := ""
	if negative && v != 0 {
		sign, v = "-", -v
	}
	base := v
	if f.Unit != nil {
		base = units.FromUnit(v, *f.Unit)
	}
	lit := lang.NumberLit{Text: digits}
	return sign + f.prefix + digits + f.suffix, base, lit.Decimals(), true
}

// Approx writes got at the written precision, adding decimals until holds.
func (f Form) Approx(got float64, holds func(base float64, decimals int) bool) (string, bool) {
	v := f.inUnit(got)
	m := v / math.Pow10(f.expValue)
	for d := f.frac; d <= f.frac+20; d++ {
		text, base, decimals, ok := f.literal(strconv.FormatFloat(math.Abs(m), 'f', d, 64), m < 0, f.exp)
		if ok && holds(base, decimals) {
			return text, true
		}
	}
	return f.Exact(got)
}

// Exact writes got so that == holds: ten significant digits, more if
// needed. An exponent as written is kept when the mantissa prints plainly.
func (f Form) Exact(got float64) (string, bool) {
	v := f.inUnit(got)
	type mantissa struct {
		m   float64
		exp string
	}
	forms := []mantissa{{v / math.Pow10(f.expValue), f.exp}}
	if f.exp != "" {
		forms = append(forms, mantissa{v, ""})
	}
	for _, fm := range forms {
		for _, numeral := range significant(math.Abs(fm.m)) {
			if fm.exp != "" && strings.ContainsAny(numeral, "eE") {
				continue
			}
			text, base, _, ok := f.literal(numeral, fm.m < 0, fm.exp)
			if ok && units.Clean(base) == units.Clean(got) {
				return text, true
			}
		}
	}
	return "", false
}

// significant lists numerals for a: as units.Numeral prints it (ten
// significant digits, no thousands separators, which gpl source has not),
// then with 11 to 17 significant digits.
func significant(a float64) []string {
	out := []string{units.Numeral(a)}
	for k := 11; k <= 17; k++ {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(a, 'g', k, 64), 64)
		out = append(out, strconv.FormatFloat(r, 'f', -1, 64))
	}
	return out
}
