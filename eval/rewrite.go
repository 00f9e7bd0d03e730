package eval

// How gpl test -update rewrites a failing expect's wanted literal so that
// it holds; cmd/gpl's test runner calls Outcome.Rewrite rather than
// re-deriving it from the syntax.
//
// The rewrite rule for numbers is package rewrite's (eval/internal/rewrite).

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/rewrite"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// Rewrite is a new text for the bytes [Pos.Offset, End.Offset) of a file:
// the wanted value of one expect.
type Rewrite struct {
	Pos, End lang.Position
	Text     string
}

// Rewrite works out the wanted literal that makes a failing ≈ or ==
// expect hold with the value got, written as its old literal was (see the
// rule of package rewrite). It refuses, with the reason as the error, a != or a bound,
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
	form := rewrite.FormOf(lit)
	if o.Expectation.Mode == check.ModeCompare {
		text, ok := form.Exact(got.Num)
		if !ok {
			return "", fmt.Errorf("no literal in %s reproduces %s", form.UnitName(), got.Precise(lit.UnitOf()))
		}
		return text, nil
	}
	holds, err := o.approxHolds(form)
	if err != nil {
		return "", err
	}
	text, ok := form.Approx(got.Num, holds)
	if !ok {
		return "", fmt.Errorf("no literal in %s comes within the tolerance of %s", form.UnitName(), got.Precise(lit.UnitOf()))
	}
	return text, nil
}

// approxPass is the ≈ test the judge makes: compared at 15 significant
// digits, so that a written tolerance is not lost to the last bit of a
// conversion.
func approxPass(got, want, tol float64) bool {
	return units.Clean(math.Abs(got-want)) <= units.Clean(tol)
}

// approxHolds returns the ≈ check Check would make of a candidate wanted
// value: base is its value in base units, decimals its written precision.
func (o Outcome) approxHolds(f rewrite.Form) (func(base float64, decimals int) bool, error) {
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
		if f.Unit != nil {
			half = units.FromUnit(half, *f.Unit)
		}
		return approxPass(got, base, half)
	}, nil
}
