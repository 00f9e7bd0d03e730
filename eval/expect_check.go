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
