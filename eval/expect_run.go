package eval

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpl-lang/gpl/lang"
)

// Expectations lists the file's expects in source order.
func (s *Scenario) Expectations() []*Expectation { return s.p.expects }

// withinFraction is the relative tolerance of within: v percent when the
// % sign follows the expression (within tol %), else v itself, a count such
// as the percent literal 1% (0.01).
func withinFraction(e *Expectation, v float64) float64 {
	if e.node.Approx.Percent {
		return v / 100
	}
	return v
}

// got is the value the expectation tests: x, or its own job's result.
func (s *Scenario) got(e *Expectation, out *sink) (Value, bool) {
	if e.x != nil {
		return s.run(e.x, out)
	}
	if !s.force(e.job) {
		return Value{}, false
	}
	return s.jobResultAt(e.job, e.own, e.node.X, out)
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
}

// Check evaluates one expectation.
func (s *Scenario) Check(e *Expectation) Outcome {
	o := Outcome{Expectation: e}
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
	switch e.mode {
	case modeBool:
		o.Want = Value{Type: BoolType, Bool: true}
		o.Pass = got.Bool
	case modeCompare:
		want, ok := s.run(e.want, &out)
		if !ok {
			return fail()
		}
		o.Want = want
		o.Pass = compareValues(got, e.op, want)
	case modeApprox:
		want, ok := s.run(e.want, &out)
		if !ok {
			return fail()
		}
		o.Want = want
		switch {
		case e.tol != nil:
			t, ok := s.run(e.tol, &out)
			if !ok {
				return fail()
			}
			if t.Num < 0 {
				pos, end := e.tol.node.Span()
				out.runtimeErrorAt(pos, end, "the tolerance after ± is negative; write it without a minus sign")
				return fail()
			}
			o.Tolerance = t.Num
		case e.within != nil:
			p, ok := s.run(e.within, &out)
			if !ok {
				return fail()
			}
			if p.Num < 0 {
				pos, end := e.within.node.Span()
				out.runtimeErrorAt(pos, end, "within takes a percentage of at least 0%")
				return fail()
			}
			o.Tolerance = math.Abs(want.Num) * withinFraction(e, p.Num)
		case e.written > 0:
			o.Tolerance = e.written
		default:
			o.Tolerance = 1e-9 * math.Abs(want.Num)
		}
		// Compare at 15 significant digits so that a written tolerance is
		// not lost to the last bit of a conversion.
		o.Pass = lang.Clean(math.Abs(got.Num-want.Num)) <= lang.Clean(o.Tolerance)
	}
	if !o.Pass {
		o.Diagnostic = s.failure(e, o)
	}
	return o
}

// Test checks every expectation in source order.
func (s *Scenario) Test() []Outcome {
	out := make([]Outcome, len(s.p.expects))
	for i, e := range s.p.expects {
		out[i] = s.Check(e)
	}
	return out
}

func compareValues(a Value, op string, b Value) bool {
	switch a.Type.Kind {
	case Number:
		x, y := lang.Clean(a.Num), lang.Clean(b.Num)
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
	subject := e.node.X
	if e.mode == modeCompare {
		subject = unparen(e.node.X).(*lang.Binary).L
	}
	pos, end := subject.Span()
	d := &lang.Diagnostic{Severity: lang.Error, Summary: "expectation failed", Pos: pos, End: end}
	u := e.wantUnit
	switch e.mode {
	case modeBool:
		d.Label = "got false, want true"
	case modeCompare:
		want := o.Want.Precise(u)
		if e.op != "==" {
			want = e.op + " " + want
		}
		d.Label = fmt.Sprintf("got %s, want %s", o.Got.Precise(u), want)
	case modeApprox:
		diff := math.Abs(o.Got.Num - o.Want.Num)
		tol := "± " + NumberValue(o.Tolerance, o.Want.Type.Dim).Precise(u)
		if e.within != nil {
			p, _ := s.run(e.within, &sink{})
			tol = "within " + lang.FormatNumber(lang.Clean(withinFraction(e, p.Num)*100)) + "% (" + tol + ")"
		}
		d.Label = fmt.Sprintf("got %s, want %s %s (off by %s)", o.Got.Precise(u), o.Want.Precise(u), tol,
			NumberValue(diff, o.Want.Type.Dim).Precise(u))
	}
	if with := s.readNames(e); len(with) > 0 {
		d.Notes = []string{"with " + strings.Join(with, ", ")}
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
	var expand func(d *decl, prefix, field string, depth int)
	expand = func(d *decl, prefix, field string, depth int) {
		def := resultDefs[field]
		if len(def.inputs) == 0 || depth == 2 {
			if v, err := s.jobResult(d, field); err == nil {
				add(prefix+def.name, v.Precise(nil))
			}
			return
		}
		for _, in := range def.inputs {
			expand(d, prefix, in, depth+1)
		}
	}
	if e.x == nil && s.of(e.job).state == done {
		expand(e.job, "", e.own, 0)
	}
	for _, c := range []*compiled{e.x, e.want, e.tol, e.within} {
		if c == nil {
			continue
		}
		for _, r := range c.refs {
			if r.d != nil && s.of(r.d).state != done || r.d2 != nil && s.of(r.d2).state != done {
				continue
			}
			switch r.kind {
			case refJob:
				prefix := ""
				if r.d != e.job {
					prefix = r.d.name.Name + "."
				}
				expand(r.d, prefix, r.field, 0)
			case refTrade:
				for _, d := range []*decl{r.d, r.d2} {
					if v, err := s.jobResult(d, "mpg"); err == nil {
						add(d.name.Name+".mpg", v.Precise(nil))
					}
				}
			case refClassify:
			default:
				if v, ok := s.refValue(r, &sink{}); ok {
					add(r.text, v.Precise(nil))
				}
			}
		}
	}
	return out
}
