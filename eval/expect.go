package eval

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// Expectations lists the file's expects in source order.
func (s *Scenario) Expectations() []*Expectation { return s.p.Expects }

// withinFraction is the relative tolerance of within: v percent when the
// % sign follows the expression (within tol %), else v itself, a count such
// as the percent literal 1% (0.01).
func withinFraction(e *Expectation, v float64) float64 {
	if e.Syntax.Approx.Percent {
		return v / 100
	}
	return v
}

// got is the value the expectation tests: x, or its own job's result.
func (s *Scenario) got(e *Expectation, out *sink) (Value, bool) {
	if e.X != nil {
		return s.run(e.X, out)
	}
	if !s.force(e.Job) {
		return Value{}, false
	}
	return s.jobResultAt(e.Job, e.Own, e.Syntax.X, out)
}

// Outcome is the result of checking one expectation.
type Outcome struct {
	Expectation *Expectation
	// Pass is true when the expectation holds.
	Pass bool
	// Err is true when the expectation could not be evaluated (a runtime
	// error); Diagnostic then says why.
	Err bool
	// Got and Want are the compared values; Tolerance is the allowed
	// difference for ≈, in base units.
	Got, Want Value
	Tolerance float64
	// Diagnostic explains a failure or error; nil on a pass.
	Diagnostic *lang.Diagnostic
	// Samples and Seed are the sampling the statistics the expectation
	// reads were computed over (language §23: --samples, --seed), 0 for
	// an expectation that reads no statistic of an uncertain value.
	Samples int
	Seed    uint64
}

// Check evaluates one expectation.
func (s *Scenario) Check(e *Expectation) Outcome {
	o := Outcome{Expectation: e}
	if s.unc != nil && readsStatistic(e) {
		o.Samples, o.Seed = s.unc.n, s.unc.seed
	}
	var out sink // an expect's error belongs to its outcome
	fail := func() Outcome {
		o.Err = true
		if n := len(out.diags); n > 0 {
			o.Diagnostic = out.diags[n-1]
		}
		if o.Diagnostic == nil {
			o.Diagnostic = s.unevaluated(e)
		}
		return o
	}
	got, ok := s.got(e, &out)
	if !ok {
		return fail()
	}
	o.Got = got
	switch e.Mode {
	case check.ModeBool:
		o.Want = Value{Type: BoolType, Bool: true}
		o.Pass = got.Bool
	case check.ModeCompare:
		want, ok := s.run(e.Want, &out)
		if !ok {
			return fail()
		}
		o.Want = want
		o.Pass = compareValues(got, e.Op, want)
	case check.ModeApprox:
		want, ok := s.run(e.Want, &out)
		if !ok {
			return fail()
		}
		o.Want = want
		switch {
		case e.Tol != nil:
			t, ok := s.run(e.Tol, &out)
			if !ok {
				return fail()
			}
			if t.Num < 0 {
				pos, end := e.Tol.Node.Span()
				out.runtimeErrorAt(pos, end, "the tolerance after ± is negative; write it without a minus sign")
				return fail()
			}
			o.Tolerance = t.Num
		case e.Within != nil:
			p, ok := s.run(e.Within, &out)
			if !ok {
				return fail()
			}
			if p.Num < 0 {
				pos, end := e.Within.Node.Span()
				out.runtimeErrorAt(pos, end, "within takes a percentage of at least 0%")
				return fail()
			}
			o.Tolerance = math.Abs(want.Num) * withinFraction(e, p.Num)
		case e.Written > 0:
			o.Tolerance = e.Written
		default:
			o.Tolerance = 1e-9 * math.Abs(want.Num)
		}
		// Compare at 15 significant digits so that a written tolerance is
		// not lost to the last bit of a conversion.
		o.Pass = units.Clean(math.Abs(got.Num-want.Num)) <= units.Clean(o.Tolerance)
	}
	if !o.Pass {
		o.Diagnostic = s.failure(e, o)
	}
	return o
}

// Test checks every expectation in source order.
func (s *Scenario) Test() []Outcome {
	out := make([]Outcome, len(s.p.Expects))
	for i, e := range s.p.Expects {
		out[i] = s.Check(e)
	}
	return out
}

func compareValues(a Value, op string, b Value) bool {
	switch a.Type.Kind {
	case Number:
		x, y := units.Clean(a.Num), units.Clean(b.Num)
		switch op {
		case "==":
			return x == y
		case "!=":
			return x != y
		case "<":
			return x < y
		case "<=":
			return x <= y
		case ">":
			return x > y
		case ">=":
			return x >= y
		}
	case Bool:
		return (a.Bool == b.Bool) == (op == "==")
	default:
		return (a.Str == b.Str) == (op == "==")
	}
	return false
}

// failure builds the diagnostic of a failed expectation: the caret under
// the value checked, got and wanted, the difference, the tolerance, and the
// names it reads.
func (s *Scenario) failure(e *Expectation, o Outcome) *lang.Diagnostic {
	subject := e.Syntax.X
	if e.Mode == check.ModeCompare {
		subject = check.Unparen(e.Syntax.X).(*lang.Binary).L
	}
	pos, end := subject.Span()
	d := &lang.Diagnostic{Severity: lang.Error, Summary: "expectation failed", Pos: pos, End: end}
	u := e.WantUnit
	switch e.Mode {
	case check.ModeBool:
		d.Label = "got false, want true"
	case check.ModeCompare:
		want := o.Want.Precise(u)
		if e.Op != "==" {
			want = e.Op + " " + want
		}
		d.Label = fmt.Sprintf("got %s, want %s", o.Got.Precise(u), want)
	case check.ModeApprox:
		diff := math.Abs(o.Got.Num - o.Want.Num)
		tol := "± " + NumberValue(o.Tolerance, o.Want.Type.Dim).Precise(u)
		if e.Within != nil {
			p, _ := s.run(e.Within, &sink{})
			tol = "within " + units.FormatNumber(units.Clean(withinFraction(e, p.Num)*100)) + "% (" + tol + ")"
		}
		d.Label = fmt.Sprintf("got %s, want %s %s (off by %s)", o.Got.Precise(u), o.Want.Precise(u), tol,
			NumberValue(diff, o.Want.Type.Dim).Precise(u))
	}
	if with := s.readNames(e); len(with) > 0 {
		d.Notes = []string{"with " + strings.Join(with, ", ")}
	}
	if note := s.samplingNote(e); note != "" {
		d.Notes = append(d.Notes, note) // uncertain.go
	}
	return d
}

// readNames lists "name = value" for what an expectation reads; a derived
// job result is shown through its inputs (mpg through S, R and P).
func (s *Scenario) readNames(e *Expectation) []string {
	var out []string
	seen := map[string]bool{}
	add := func(k, v string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k+" = "+v)
		}
	}
	var expand func(d *check.Decl, prefix, field string, depth int)
	expand = func(d *check.Decl, prefix, field string, depth int) {
		def := results.ByName()[field]
		if len(def.Inputs) == 0 || depth == 2 {
			if v, err := s.jobResult(d, field); err == nil {
				add(prefix+def.Name, v.Precise(nil))
			}
			return
		}
		for _, in := range def.Inputs {
			expand(d, prefix, in, depth+1)
		}
	}
	if e.X == nil && s.of(e.Job).state == check.Done {
		expand(e.Job, "", e.Own, 0)
	}
	for _, c := range []*check.Compiled{e.X, e.Want, e.Tol, e.Within} {
		if c == nil {
			continue
		}
		for _, r := range c.Refs {
			if r.Decl != nil && s.of(r.Decl).state != check.Done || r.Second != nil && s.of(r.Second).state != check.Done {
				continue
			}
			switch r.Kind {
			case check.RefJob:
				prefix := ""
				if r.Decl != e.Job {
					prefix = r.Decl.Name.Name + "."
				}
				expand(r.Decl, prefix, r.Field, 0)
			case check.RefTrade:
				for _, d := range []*check.Decl{r.Decl, r.Second} {
					if v, err := s.jobResult(d, "mpg"); err == nil {
						add(d.Name.Name+".mpg", v.Precise(nil))
					}
				}
			case check.RefClassify:
			default:
				if v, ok := s.refValue(r, &sink{}); ok {
					add(r.Text, v.Precise(nil))
				}
			}
		}
	}
	return out
}

// readsStatistic reports whether e reads a statistic of an uncertain
// value (.p10, .mean, probability(…)) in any of its parts.
func readsStatistic(e *Expectation) bool {
	for _, c := range []*check.Compiled{e.X, e.Want, e.Tol, e.Within} {
		if c == nil || c.Const != nil {
			continue
		}
		for _, r := range c.Refs {
			if r.Kind == check.RefStat {
				return true
			}
		}
	}
	return false
}
