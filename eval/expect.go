package eval

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/lang"
)

type expectSite struct {
	node *lang.Expect
	job  *decl // set for an expect inside a job block
}

type expectMode uint8

const (
	modeBool    expectMode = iota // expect COND
	modeCompare                   // expect X OP Y
	modeApprox                    // expect X ≈ Y [± T | within P%]
)

// Expectation is one compiled expect: one test case.
type Expectation struct {
	// Source is the expect's text, as written.
	Source string

	node    *lang.Expect
	job     *decl
	mode    expectMode
	op      string
	x, want *compiled
	// own, when x is nil, is the result of the expect's job that x reads:
	// expect mpg ≈ 0.282 in a job, the most common expect of all. It is
	// read directly, and the file keeps no compiled expression and
	// reference per job for it.
	own      string
	tol      *compiled // ± T
	within   *compiled // within P%
	wantUnit *lang.Unit
	written  float64 // half a unit in the last written place, base units; 0 when not from a literal
}

// Name is "file:line: source text", the test's name.
func (e *Expectation) Name() string {
	return e.File() + ":" + strconv.Itoa(e.Line()) + ": " + e.Source
}

// File, Line and Column place the expect. A file holds an expectation per
// job, so they are worked out when asked rather than kept.
func (e *Expectation) File() string { return e.node.Start().Filename }
func (e *Expectation) Line() int    { return e.node.Start().Line }
func (e *Expectation) Column() int  { return e.node.Start().Column }

// Node returns the expect's syntax, for tools that rewrite it.
func (e *Expectation) Node() *lang.Expect { return e.node }

// Expectations lists the file's expects in source order.
func (s *Scenario) Expectations() []*Expectation { return s.p.expects }

// compileExpect checks and compiles one expect (the judge pass runs it);
// nil when it has errors, reported into diags.
func (p *program) compileExpect(site expectSite, diags *lang.Diagnostics) *Expectation {
	n := site.node
	e := p.expectSlab.Put(Expectation{node: n, job: site.job, Source: expectText(p.fileNamed[n.Start().Filename], n)})
	sc := scope{job: site.job}
	switch {
	case n.Approx != nil:
		e.mode = modeApprox
		e.x = p.compile(n.X, sc, diags)
		e.want = p.compile(n.Approx.Want, sc, diags)
		if n.Approx.Abs != nil {
			e.tol = p.compile(n.Approx.Abs, sc, diags)
		}
		if n.Approx.Within != nil {
			e.within = p.compile(n.Approx.Within, sc, diags)
		}
		if e.x == nil || e.want == nil || n.Approx.Abs != nil && e.tol == nil || n.Approx.Within != nil && e.within == nil {
			return nil
		}
		if !p.checkApproxTypes(e, diags) {
			return nil
		}
		if r := ownResult(e.x, n.X, site.job); r != nil {
			e.own, e.x = r.field, nil
		}
		if lit := numberLit(n.Approx.Want); lit != nil {
			e.wantUnit = lit.UnitOf()
			half := 0.5 * math.Pow(10, -float64(lit.Decimals()))
			if lit.UnitOf() != nil {
				half = lang.FromUnit(half, *lit.UnitOf())
			}
			e.written = half
		}
	default:
		if b, ok := unparen(n.X).(*lang.Binary); ok && comparisons[b.Op] {
			e.mode, e.op = modeCompare, b.Op
			// Check the comparison as a whole for its type errors, then
			// compile its sides, whose values a failure reports.
			if c, _ := p.checkExpr(n.X, sc, diags); c == nil {
				return nil
			}
			var quiet lang.Diagnostics
			e.x = p.compile(b.L, sc, &quiet)
			e.want = p.compile(b.R, sc, &quiet)
			if e.x == nil || e.want == nil {
				*diags = append(*diags, quiet...)
				return nil
			}
			if lit := numberLit(b.R); lit != nil {
				e.wantUnit = lit.UnitOf()
			}
			return e
		}
		e.x = p.compile(n.X, sc, diags)
		if e.x == nil {
			return nil
		}
		if e.x.typ.Kind != Bool {
			pos, end := n.X.Span()
			*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end, Summary: fmt.Sprintf("an expect needs a condition, but this is a %s; compare it with == or ≈", e.x.typ)})
			return nil
		}
	}
	return e
}

// withinFraction is the relative tolerance of within: v percent when the
// % sign follows the expression (within tol %), else v itself, a count such
// as the percent literal 1% (0.01).
func withinFraction(e *Expectation, v float64) float64 {
	if e.node.Approx.Percent {
		return v / 100
	}
	return v
}

func numberLit(e lang.Expr) *lang.NumberLit {
	switch n := unparen(e).(type) {
	case *lang.NumberLit:
		return n
	case *lang.Unary:
		if n.Op == "-" {
			return numberLit(n.X)
		}
	}
	return nil
}

func (p *program) checkApproxTypes(e *Expectation, diags *lang.Diagnostics) bool {
	n := e.node
	bad := func(x lang.Expr, msg string, args ...any) bool {
		pos, end := x.Span()
		*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end, Summary: fmt.Sprintf(msg, args...)})
		return false
	}
	if e.x.typ.Kind != Number {
		return bad(n.X, "≈ compares numbers; this is a %s", e.x.typ)
	}
	if e.want.typ != e.x.typ && isBareZero(n.Approx.Want) {
		// 0 is 0 in every unit. A constant is shared: this one is new.
		e.want = p.literal(n.Approx.Want, Value{Type: e.x.typ})
	}
	if e.want.typ != e.x.typ {
		if lit := numberLit(n.Approx.Want); lit != nil && lit.UnitOf() == nil {
			return bad(n.Approx.Want, "%s is %s; write its unit, e.g. %s", describe(n.X), e.x.typ.Dim.Phrase(), unitHint(n.X, lit.Digits(), e.x.typ.Dim))
		}
		return bad(n.Approx.Want, "cannot compare a %s with a %s", e.x.typ, e.want.typ)
	}
	if e.tol != nil && e.tol.typ != e.x.typ {
		return bad(n.Approx.Abs, "the tolerance must be a %s like the value, not a %s", e.x.typ, e.tol.typ)
	}
	if e.within != nil && e.within.typ != CountType {
		return bad(n.Approx.Within, "within takes a percentage, a bare number such as 1%%")
	}
	if lit := numberLit(n.Approx.Within); lit != nil && lit.UnitOf() == nil && !n.Approx.Percent {
		return bad(n.Approx.Within, "within takes a percentage; write %s%%", lit.Digits())
	}
	return true
}

// ownResult is the one reference of x when x is nothing but the name of a
// result of the job job, written as such (mpg, not (mpg) or j.mpg); else
// nil.
func ownResult(x *compiled, written lang.Expr, job *decl) *ref {
	if job == nil || x.prog != nil || x.konst != nil || len(x.refs) != 1 {
		return nil
	}
	r := x.refs[0]
	if n, ok := written.(*lang.Name); !ok || len(n.Parts) != 1 || r.node != written || r.kind != refJob || r.d != job || r.d2 != nil || r.plan != nil {
		return nil
	}
	return r
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

// expectText is the expect's source text, without trailing comments: a
// view of the file's own text (lang.File.Text), not a copy.
func expectText(f *lang.File, n *lang.Expect) string {
	if f == nil || n.End().Offset > len(f.Src) {
		return "expect"
	}
	end := n.End().Offset
	for _, x := range []lang.Expr{n.X} {
		_, e := x.Span()
		end = max(end, e.Offset)
	}
	text := f.Text(n.Start().Offset, end)
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		// An expect may end before comment lines that participle counted.
		text = text[:i]
	}
	if i := strings.Index(text, "#"); i >= 0 && !strings.Contains(text[:i], `"`) {
		text = text[:i]
	}
	return strings.TrimSpace(text)
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
