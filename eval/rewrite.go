package eval

// How gpl test -update rewrites a failing expect's wanted literal so that
// it holds; cmd/gpl's test runner calls Outcome.Rewrite rather than
// re-deriving it from the syntax.
//
// The rewrite rule for numbers: the new literal keeps the unit it was
// written in ("$" stays a prefix, "USD/h" a suffix, an exponent stays an
// exponent) and, for ≈, the number of decimals it was written with
// (≈ 0.29 becomes ≈ 0.28, not ≈ 0.28215). When the value rounded to that
// precision would still not pass, because an explicit "± T" or
// "within P%" is tighter than the written precision, decimals are added
// one at a time until it passes. For == the value is written as reports
// print it (ten significant digits), with more digits only when those are
// needed for == to hold.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
)

// Rewrite is a new text for the bytes [Pos.Offset, End.Offset) of a file:
// the wanted value of one expect.
type Rewrite struct {
	Pos, End lang.Position
	Text     string
}

// Rewrite works out the wanted literal that makes a failing ≈ or ==
// expect hold with the value got, written as its old literal was (see the
// rule above). It refuses, with the reason as the error, a != or a bound,
// a condition, a wanted value that is an expression, and an outcome that
// passed or could not be evaluated.
func (o Outcome) Rewrite() (Rewrite, error) {
	e := o.Expectation
	switch {
	case o.Err:
		return Rewrite{}, errors.New("the expectation could not be evaluated")
	case o.Pass:
		return Rewrite{}, errors.New("the expectation holds")
	}
	var want lang.Expr
	switch e.Mode {
	case check.ModeBool:
		return Rewrite{}, errors.New("a condition has no wanted value to rewrite")
	case check.ModeApprox:
		want = e.Syntax.Approx.Want
	case check.ModeCompare:
		switch e.Op {
		case "==":
			want = check.Unparen(e.Syntax.X).(*lang.Binary).R
		case "!=":
			return Rewrite{}, errors.New("!= fails only when the value got is the one written; edit it by hand")
		default:
			return Rewrite{}, fmt.Errorf("only the wanted value of ≈ and == is rewritten, not a bound of %s", e.Op)
		}
	}
	want = check.Unparen(want)
	pos, end := want.Span()
	text, err := o.newWantText(want)
	if err != nil {
		return Rewrite{}, err
	}
	return Rewrite{Pos: pos, End: end, Text: text}, nil
}

func (o Outcome) newWantText(want lang.Expr) (string, error) {
	got := o.Got
	switch w := want.(type) {
	case *lang.StringLit:
		if got.Type.Kind == String {
			return strconv.Quote(got.Str), nil
		}
	case *lang.BoolLit:
		if got.Type.Kind == Bool {
			return strconv.FormatBool(got.Bool), nil
		}
	case *lang.Name:
		if got.Type.Kind == Class && len(w.Parts) == 1 {
			return got.Str, nil
		}
	}
	lit := check.NumberLit(want)
	if lit == nil || got.Type.Kind != Number {
		return "", errors.New("the wanted value is an expression, not a literal")
	}
	form := formOf(lit)
	if o.Expectation.Mode == check.ModeCompare {
		text, ok := form.exact(got.Num)
		if !ok {
			return "", fmt.Errorf("no literal in %s reproduces %s", form.unitName(), got.Precise(lit.UnitOf()))
		}
		return text, nil
	}
	holds, err := o.approxHolds(form)
	if err != nil {
		return "", err
	}
	text, ok := form.approx(got.Num, holds)
	if !ok {
		return "", fmt.Errorf("no literal in %s comes within the tolerance of %s", form.unitName(), got.Precise(lit.UnitOf()))
	}
	return text, nil
}

// approxPass is the ≈ test the judge makes: compared at 15 significant
// digits, so that a written tolerance is not lost to the last bit of a
// conversion.
func approxPass(got, want, tol float64) bool {
	return lang.Clean(math.Abs(got-want)) <= lang.Clean(tol)
}

// approxHolds returns the ≈ check Check would make of a candidate wanted
// value: base is its value in base units, decimals its written precision.
func (o Outcome) approxHolds(f numberForm) (func(base float64, decimals int) bool, error) {
	e, got := o.Expectation, o.Got.Num
	switch {
	case e.Tol != nil:
		tol := o.Tolerance
		return func(base float64, _ int) bool { return approxPass(got, base, tol) }, nil
	case e.Within != nil:
		pct, ok := o.WithinPercent()
		if !ok {
			return nil, errors.New("the percentage after within is an expression")
		}
		return func(base float64, _ int) bool { return approxPass(got, base, math.Abs(base)*pct/100) }, nil
	}
	return func(base float64, decimals int) bool {
		half := 0.5 * math.Pow(10, -float64(decimals))
		if f.unit != nil {
			half = lang.FromUnit(half, *f.unit)
		}
		return approxPass(got, base, half)
	}, nil
}

// numberForm is how a number literal was written: the text around its
// numeral ("$", " USD/h"), its exponent ("e3") and its decimals.
type numberForm struct {
	prefix, suffix string
	exp            string // "e3" as written, or ""
	expValue       int
	frac           int // digits after the point in the mantissa
	unit           *lang.Unit
}

func formOf(lit *lang.NumberLit) numberForm {
	f := numberForm{unit: lit.UnitOf()}
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

func (f numberForm) unitName() string {
	if f.unit == nil {
		return "a bare number"
	}
	return f.unit.Symbol
}

// inUnit converts a value in base units to the written unit.
func (f numberForm) inUnit(base float64) float64 {
	if f.unit == nil {
		return base
	}
	return lang.ToUnit(base, *f.unit)
}

// literal assembles a candidate from a mantissa numeral (without sign) and
// the sign of the value; it returns the text, its value in base units and
// its written decimals.
func (f numberForm) literal(numeral string, negative bool, exp string) (string, float64, int, bool) {
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
	if f.unit != nil {
		base = lang.FromUnit(v, *f.unit)
	}
	lit := lang.NumberLit{Text: digits}
	return sign + f.prefix + digits + f.suffix, base, lit.Decimals(), true
}

// approx writes got at the written precision, adding decimals until holds.
func (f numberForm) approx(got float64, holds func(base float64, decimals int) bool) (string, bool) {
	v := f.inUnit(got)
	m := v / math.Pow10(f.expValue)
	for d := f.frac; d <= f.frac+20; d++ {
		text, base, decimals, ok := f.literal(strconv.FormatFloat(math.Abs(m), 'f', d, 64), m < 0, f.exp)
		if ok && holds(base, decimals) {
			return text, true
		}
	}
	return f.exact(got)
}

// exact writes got so that == holds: ten significant digits, more if
// needed. An exponent as written is kept when the mantissa prints plainly.
func (f numberForm) exact(got float64) (string, bool) {
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
			if ok && lang.Clean(base) == lang.Clean(got) {
				return text, true
			}
		}
	}
	return "", false
}

// significant lists numerals for a: as lang.Numeral prints it (ten
// significant digits, no thousands separators, which gpl source has not),
// then with 11 to 17 significant digits.
func significant(a float64) []string {
	out := []string{lang.Numeral(a)}
	for k := 11; k <= 17; k++ {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(a, 'g', k, 64), 64)
		out = append(out, strconv.FormatFloat(r, 'f', -1, 64))
	}
	return out
}
