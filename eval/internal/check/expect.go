package check

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

type expectSite struct {
	node *lang.Expect
	job  *Decl // set for an expect inside a job block
}

type expectMode uint8

const (
	ModeBool    expectMode = iota // expect COND
	ModeCompare                   // expect X OP Y
	ModeApprox                    // expect X ≈ Y [± T | within P%]
)

// Expectation is one compiled expect: one test case.
type Expectation struct {
	// Source is the expect's text, as written.
	Source string

	// Syntax is the expect statement.
	Syntax *lang.Expect
	// Job is the job whose block holds the expect; nil for one at
	// the top level.
	Job *Decl
	// Mode says which form of expect it is: a condition, a
	// comparison or an approximate comparison.
	Mode expectMode
	// Op is a comparison's operator (==, !=, <, <=, >, >=); ""
	// otherwise.
	Op string
	// X is the value tested (nil when Own names the job result it reads)
	// and Want the value wanted; Want is nil for a plain condition.
	X, Want *Compiled
	// Own, when x is nil, is the result of the expect's job that x reads:
	// expect mpg ≈ 0.282 in a job, the most common expect of all. It is
	// read directly, and the file keeps no compiled expression and
	// reference per job for it.
	Own    string
	Tol    *Compiled // ± T
	Within *Compiled // within P%
	// WantUnit is the unit of a wanted number literal (WantedUnit);
	// nil otherwise.
	WantUnit *units.Unit
	Written  float64 // half a unit in the last written place, base units; 0 when not from a literal
}

// Name is "file:line: source text", the test's name.
func (e *Expectation) Name() string {
	return e.File() + ":" + strconv.Itoa(e.Line()) + ": " + e.Source
}

// File, Line and Column place the expect. A file holds an expectation per
// job, so they are worked out when asked rather than kept.
func (e *Expectation) File() string { return e.Syntax.Start().Filename }
func (e *Expectation) Line() int    { return e.Syntax.Start().Line }
func (e *Expectation) Column() int  { return e.Syntax.Start().Column }

// Node returns the expect's syntax, for tools that rewrite it.
func (e *Expectation) Node() *lang.Expect { return e.Syntax }

// CompileExpect checks and compiles one expect (the judge pass runs it);
// nil when it has errors, reported into diags.
func (p *Program) CompileExpect(site expectSite, diags *lang.Diagnostics) *Expectation {
	n := site.node
	e := p.expectSlab.Put(Expectation{Syntax: n, Job: site.job, Source: expectText(p.FileNamed[n.Start().Filename], n)})
	sc := scope{job: site.job}
	switch {
	case n.Approx != nil:
		e.Mode = ModeApprox
		e.X = p.compile(n.X, sc, diags)
		e.Want = p.compile(n.Approx.Want, sc, diags)
		if n.Approx.Abs != nil {
			e.Tol = p.compile(n.Approx.Abs, sc, diags)
		}
		if n.Approx.Within != nil {
			e.Within = p.compile(n.Approx.Within, sc, diags)
		}
		if e.X == nil || e.Want == nil || n.Approx.Abs != nil && e.Tol == nil || n.Approx.Within != nil && e.Within == nil {
			return nil
		}
		if !p.checkApproxTypes(e, diags) {
			return nil
		}
		if e.X.running != nil && e.X.running.Uncertain {
			p.uncertainApprox(n.X, diags) // uncertain.go
			return nil
		}
		if r := ownResult(e.X, n.X, site.job); r != nil {
			e.Own, e.X = r.Field, nil
		}
		if lit := NumberLit(n.Approx.Want); lit != nil {
			e.WantUnit = lit.UnitOf()
			half := 0.5 * math.Pow(10, -float64(lit.Decimals()))
			if lit.UnitOf() != nil {
				half = units.FromUnit(half, *lit.UnitOf())
			}
			e.Written = half
		}
	default:
		if b, ok := Unparen(n.X).(*lang.Binary); ok && comparisons[b.Op] {
			e.Mode, e.Op = ModeCompare, b.Op
			// Check the comparison as a whole for its type errors, then
			// compile its sides, whose values a failure reports.
			if c, _ := p.checkExpr(n.X, sc, diags); c == nil {
				return nil
			}
			var quiet lang.Diagnostics
			e.X = p.compile(b.L, sc, &quiet)
			e.Want = p.compile(b.R, sc, &quiet)
			if e.X == nil || e.Want == nil {
				*diags = append(*diags, quiet...)
				return nil
			}
			if lit := NumberLit(b.R); lit != nil {
				e.WantUnit = lit.UnitOf()
			}
			return e
		}
		e.X = p.compile(n.X, sc, diags)
		if e.X == nil {
			return nil
		}
		if e.X.Type.Kind != value.Bool {
			pos, end := n.X.Span()
			*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end, Summary: fmt.Sprintf("an expect needs a condition, but this is a %s; compare it with == or ≈", e.X.Type)})
			return nil
		}
	}
	return e
}

// NumberLit is e when it is a number literal, or the negation of one,
// in parentheses or not; nil otherwise.
func NumberLit(e lang.Expr) *lang.NumberLit {
	switch n := Unparen(e).(type) {
	case *lang.NumberLit:
		return n
	case *lang.Unary:
		if n.Op == "-" {
			return NumberLit(n.X)
		}
	}
	return nil
}

func (p *Program) checkApproxTypes(e *Expectation, diags *lang.Diagnostics) bool {
	n := e.Syntax
	bad := func(x lang.Expr, msg string, args ...any) bool {
		pos, end := x.Span()
		*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end, Summary: fmt.Sprintf(msg, args...)})
		return false
	}
	if e.X.Type.Kind != value.Number {
		return bad(n.X, "≈ compares numbers; this is a %s", e.X.Type)
	}
	if e.Want.Type != e.X.Type && isBareZero(n.Approx.Want) {
		// 0 is 0 in every unit. A constant is shared: this one is new.
		e.Want = p.literal(n.Approx.Want, value.Value{Type: e.X.Type})
	}
	if e.Want.Type != e.X.Type {
		if lit := NumberLit(n.Approx.Want); lit != nil && lit.UnitOf() == nil {
			return bad(n.Approx.Want, "%s is %s; write its unit, e.g. %s", describe(n.X), e.X.Type.Dim.Phrase(), unitHint(n.X, lit.Digits(), e.X.Type.Dim))
		}
		return bad(n.Approx.Want, "cannot compare a %s with a %s", e.X.Type, e.Want.Type)
	}
	if e.Tol != nil && e.Tol.Type != e.X.Type {
		return bad(n.Approx.Abs, "the tolerance must be a %s like the value, not a %s", e.X.Type, e.Tol.Type)
	}
	if e.Within != nil && e.Within.Type != value.CountType {
		return bad(n.Approx.Within, "within takes a percentage, a bare number such as 1%%")
	}
	if lit := NumberLit(n.Approx.Within); lit != nil && lit.UnitOf() == nil && !n.Approx.Percent {
		return bad(n.Approx.Within, "within takes a percentage; write %s%%", lit.Digits())
	}
	return true
}

// ownResult is the one reference of x when x is nothing but the name of a
// result of the job job, written as such (mpg, not (mpg) or j.mpg); else
// nil.
func ownResult(x *Compiled, written lang.Expr, job *Decl) *Ref {
	if job == nil || x.Prog != nil || x.Const != nil || len(x.Refs) != 1 {
		return nil
	}
	r := x.Refs[0]
	if n, ok := written.(*lang.Name); !ok || len(n.Parts) != 1 || r.Node != written || r.Kind != RefJob || r.Decl != job || r.Second != nil || r.Plan != nil {
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

// The judge's rules, offered to tools: which operator an expect uses, the
// unit its wanted value was written in, its within percentage.

// Operator is the expect's operator: "≈" for an approximate comparison,
// "==", "!=", "<", "<=", ">" or ">=" for a comparison, and "" for a plain
// condition.
func (e *Expectation) Operator() string {
	switch e.Mode {
	case ModeApprox:
		return "≈"
	case ModeCompare:
		return e.Op
	}
	return ""
}

// WantedUnit is the unit the wanted value was written in when it is a
// number literal with a unit (the 0.29 of "≈ 0.29" has none, the $5 of
// "< $5" is in $); nil otherwise. Reports print got and want in it.
func (e *Expectation) WantedUnit() *units.Unit { return e.WantUnit }
