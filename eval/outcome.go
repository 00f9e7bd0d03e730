package eval

import (
	"math"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// unevaluated explains an expectation that could not be evaluated although
// running it reported nothing: it reads a declaration that has errors (a
// job whose pool is broken, a let that divides by zero), whose own
// diagnostics the load already reported. The caret is under the first such
// reference, and each declaration is pointed at. It never returns nil:
// when no broken declaration is found, it says so at the expect.
func (s *Scenario) unevaluated(e *Expectation) *lang.Diagnostic {
	var (
		broken []*check.Decl
		at     lang.Expr
	)
	seen := map[*check.Decl]bool{}
	if e.X == nil && s.of(e.Job).state != check.Done {
		seen[e.Job] = true
		broken = append(broken, e.Job)
		at = e.Syntax.X
	}
	for _, c := range []*check.Compiled{e.X, e.Want, e.Tol, e.Within} {
		if c == nil {
			continue
		}
		for _, r := range c.Refs {
			for _, d := range []*check.Decl{r.Decl, r.Second} {
				if d == nil || s.of(d).state == check.Done || seen[d] {
					continue
				}
				seen[d] = true
				broken = append(broken, d)
				if at == nil {
					at = r.Node
				}
			}
		}
	}
	if len(broken) == 0 {
		return &lang.Diagnostic{Severity: lang.Error, Summary: "the expectation could not be evaluated",
			Pos: e.Syntax.Start(), End: e.Syntax.End()}
	}
	pos, end := at.Span()
	names := make([]string, len(broken))
	d := &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end}
	for i, b := range broken {
		names[i] = b.Name.Name
		d.Related = append(d.Related, lang.Related{Pos: b.Name.Start(), End: b.Name.End(),
			Label: "declared here"})
	}
	if len(names) == 1 {
		d.Summary = "not evaluated: it reads " + names[0] + ", which has errors"
	} else {
		d.Summary = "not evaluated: it reads " + joinAnd(names) + ", which have errors"
	}
	return d
}

// joinAnd lists names as a sentence does: "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Status names the outcome as reports do: "pass", "fail", or "error" when
// the expectation could not be evaluated.
func (o Outcome) Status() string {
	switch {
	case o.Err:
		return "error"
	case o.Pass:
		return "pass"
	}
	return "fail"
}

// String is the outcome in one line, as a test runner lists it: the
// expectation's name and its status, and for a failure or an error what
// the diagnostic says ("plan.gpl:10: expect mpg ≈ 0.29: fail: expectation
// failed: got 0.28215, want 0.29 ± 0.005 (off by 0.00785)").
func (o Outcome) String() string {
	s := o.Status()
	if o.Expectation != nil {
		s = o.Expectation.Name() + ": " + s
	}
	if d := o.Diagnostic; d != nil && !o.Pass {
		s += ": " + d.Summary
		if d.Label != "" {
			s += ": " + d.Label
		}
	}
	return s
}

// WithinPercent is the percentage of "≈ X within P%", and whether the
// expect has one; it is known once the outcome is, since P may be an
// expression.
func (o Outcome) WithinPercent() (float64, bool) {
	e := o.Expectation
	if e == nil || e.Within == nil {
		return 0, false
	}
	if lit := check.NumberLit(e.Syntax.Approx.Within); lit != nil && lit.UnitOf() == nil {
		return math.Abs(lit.Amount()), true
	}
	if o.Want.Num == 0 {
		return 0, false
	}
	return units.Clean(o.Tolerance / math.Abs(o.Want.Num) * 100), true
}
