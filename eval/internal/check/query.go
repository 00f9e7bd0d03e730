package check

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file checks and answers what an expression asks of a planning
// declaration: a group's figures (training.cost), a compare's best and
// ratio(JOB), a sweep's points and queries, a solve's answer. A sweep's
// queries stream over its points; none keeps them.

// SweepMethods are the queries a sweep answers.
var SweepMethods = []string{"min", "max", "argmin", "argmax", "at", "first"}

// planningName resolves NAME.FIELD where NAME is a planning declaration.
func (cp *exprChecker) planningName(n *lang.Name, d *Decl, rest string) (value.Type, ast.Node) {
	path := n.Path()
	if !cp.p.dependOn(d, n, cp.diags) {
		cp.ok = false
		return value.Type{}, nil
	}
	add := func(t value.Type, pl planRef) (value.Type, ast.Node) {
		return t, cp.addRef(&Ref{Kind: RefPlan, Decl: d, Field: rest, Text: path, Node: n, Type: t, Plan: pl})
	}
	switch d.Kind {
	case DeclGroup:
		if rest == "" {
			return cp.errorf(n, "%s is a group; name one of its figures, e.g. %s.cost", d.Name.Name, d.Name.Name)
		}
		if Contains(GroupPoolResults, rest) {
			return cp.poolRef(n, d, PoolResultRef{Def: results.PoolByName()[rest]}, path)
		}
		fig, ok := GroupFigures()[rest]
		if !ok {
			return cp.unknownField(n, d, rest, GroupFigureNames())
		}
		return add(InCurrency(fig.Type, d.Plan.Currency), GroupRef{fig})
	case DeclCompare:
		if rest == "best" {
			return add(value.StringType, BestRef{})
		}
		if rest == "" {
			return cp.errorf(n, "%s is a compare; ask it %s.best or %s.ratio(JOB)", d.Name.Name, d.Name.Name, d.Name.Name)
		}
		return cp.unknownField(n, d, rest, []string{"best", "ratio(JOB)"})
	case DeclSweep:
		if rest == "points" {
			return add(value.CountType, SweepPointsRef{})
		}
		if rest == "" {
			of := "mpg"
			if d.OverFile() && len(d.Plan.Shows) > 0 {
				of = d.Plan.Shows[0].Name
			}
			return cp.errorf(n, "%s is a sweep; ask it %s.points, or a query such as %s.max(%s)", d.Name.Name, d.Name.Name, d.Name.Name, of)
		}
		if Contains(SweepMethods, rest) {
			return cp.errorf(n, "%s is a query; write %s(…)", rest, path)
		}
		return cp.unknownField(n, d, rest, append([]string{"points"}, SweepMethods...))
	}
	// a solve: its answer is a point
	if rest == "" {
		return cp.errorf(n, "%s is a solve; name a field of its answer, e.g. %s.%s", d.Name.Name, d.Name.Name, SolveInputName(d))
	}
	f, t, ok := cp.resolvePointField(n, n.Parts[1:], SolveParams(d), "the answer of solve "+d.Name.Name, d.OverFile())
	if !ok {
		return value.Type{}, nil
	}
	return add(t, SolveRef{f})
}

// SolveInputName is the name of the input a solve searches; "mpg" for
// a solve without a find line.
func SolveInputName(d *Decl) string {
	if d.Plan.Find == nil {
		return "mpg"
	}
	return d.Plan.Find.In.Name
}

// SolveParams is the param a solve searches, if it does.
func SolveParams(d *Decl) []*Decl {
	if fp := d.Plan.Find; fp != nil && fp.In.Kind == InParam {
		return []*Decl{fp.In.Param}
	}
	return nil
}

// SweepParams are the params a sweep varies.
func SweepParams(d *Decl) []*Decl {
	var out []*Decl
	for _, ax := range d.Plan.Axes {
		if ax.In.Kind == InParam {
			out = append(out, ax.In.Param)
		}
	}
	return out
}

// SweepPointsRef reads NAME.points.
type SweepPointsRef struct{}

// SolveRef reads a field of a solve's answer.
type SolveRef struct {
	// Field is the answer's field read.
	Field PointField
}

// pointName resolves a bare result name inside NAME.first(…): the result
// at the point being tried.
func (cp *exprChecker) pointName(n *lang.Name, def *results.Def) (value.Type, ast.Node) {
	return def.Type, cp.addRef(&Ref{Kind: RefPlan, Decl: cp.sc.point, Field: def.Name, Text: n.Path(), Node: n, Type: def.Type, Plan: PointScopeRef{def}})
}

// PointStatRef is a statistic of a result at a sweep's point over a
// job (show mpg.p10): the job solved in every sample at the point.
type PointStatRef struct {
	Def  *results.Def
	Stat string  // a name of Stats: "p10"
	Q    float64 // its quantile
}

func (PointStatRef) isPlanRef() {}

// PointScopeRef is a result at the point a condition is tried on; it has
// a value only there (runAt).
type PointScopeRef struct {
	// Def is the result read.
	Def *results.Def
}

// query checks NAME.METHOD(…)[.FIELD].
func (cp *exprChecker) query(q *lang.Query) (value.Type, ast.Node) {
	if q.Method.Name == "p" && len(q.Field) == 0 {
		if _, plan := cp.p.Decls[q.Target.Parts[0].Name]; !plan || len(q.Target.Parts) > 1 || cp.p.Decls[q.Target.Parts[0].Name].Kind != DeclSweep {
			return cp.quantile(q) // uncertain.go
		}
	}
	if len(q.Target.Parts) != 1 {
		return cp.errorf(q.Target, "only a sweep or a compare answers queries such as %s(…)", q.Method.Name)
	}
	d, ok := cp.p.Decls[q.Target.Parts[0].Name]
	if !ok {
		return cp.unknownName(q.Target)
	}
	if !cp.p.dependOn(d, q.Target, cp.diags) {
		cp.ok = false
		return value.Type{}, nil
	}
	switch d.Kind {
	case DeclPool, DeclGroup:
		if q.Method.Name == "month" {
			return cp.monthQuery(q, d) // capacity.go
		}
		return cp.errorf(q, "%s %s answers one query, month: %s.month(2027-03).idle_cost", DeclKinds[d.Kind].Noun, d.Name.Name, d.Name.Name)
	case DeclSweep:
		return cp.sweepQuery(q, d)
	case DeclCompare:
		if q.Method.Name != "ratio" {
			msg := fmt.Sprintf("compare %s has no query %s; it answers ratio(JOB)", d.Name.Name, q.Method.Name)
			cp.errorAt(q.Method.Start(), q.Method.End(), msg)
			return value.Type{}, nil
		}
		return cp.ratioQuery(q, d)
	}
	return cp.errorf(q.Target, "%s is a %s; only a sweep (%s) or a compare (ratio) answers queries",
		d.Name.Name, DeclKinds[d.Kind].Noun, strings.Join(SweepMethods, ", "))
}

func (cp *exprChecker) ratioQuery(q *lang.Query, d *Decl) (value.Type, ast.Node) {
	if len(q.Args) != 1 || q.Args[0].Input != nil {
		return cp.errorf(q, "ratio takes one job of the compare: %s.ratio(JOB)", d.Name.Name)
	}
	if q.Field != nil {
		return cp.errorf(q, "ratio gives a number; it has no field %s", q.FieldName())
	}
	nm, ok := Unparen(q.Args[0].Value).(*lang.Name)
	var job *Decl
	if ok && len(nm.Parts) == 1 {
		for _, m := range d.Plan.Members {
			if m.Name.Name == nm.Parts[0].Name {
				job = m
			}
		}
	}
	if job == nil {
		var names []string
		for _, m := range d.Plan.Members {
			names = append(names, m.Name.Name)
		}
		return cp.errorf(q.Args[0].Value, "ratio takes one of the jobs compare %s lists: %s", d.Name.Name, Listed(names))
	}
	return value.CountType, cp.addRef(&Ref{Kind: RefPlan, Decl: d, Text: "ratio", Node: q, Type: value.CountType, Plan: RatioRef{job}})
}

// SweepQuery is a checked query of a sweep.
type SweepQuery struct {
	// Method is the query's method: min, max, argmin, argmax, at,
	// first and the others.
	Method string
	Result *results.Def // min, max, argmin, argmax over a job
	// Of is what min, max, argmin and argmax read over the whole file:
	// a number the file computes at each point (fleet.mpg).
	Of *Compiled
	// At are the arguments of at(…), one per axis named.
	At   []AtArg
	Cond *Compiled // first
	// Field is the point's field the query reads after the call
	// ([.FIELD]).
	Field PointField
	What  string // the query as written, for messages
}

// AtArg is INPUT = VALUE in at(…): the axis and the value.
type AtArg struct {
	// Axis is the index of the axis in the sweep's Axes.
	Axis int
	// Value is the value of the axis's input at the point.
	Value *Compiled
}

func (cp *exprChecker) sweepQuery(q *lang.Query, d *Decl) (value.Type, ast.Node) {
	m := q.Method.Name
	sq := &SweepQuery{Method: m}
	if !Contains(SweepMethods, m) {
		msg := fmt.Sprintf("sweep %s has no query %s", d.Name.Name, m)
		if sug := suggest.Closest(m, append([]string(nil), SweepMethods...)); sug != "" {
			msg += "; did you mean " + sug + "?"
		} else {
			msg += "; it answers " + strings.Join(SweepMethods, ", ")
		}
		cp.errorAt(q.Method.Start(), q.Method.End(), msg)
		return value.Type{}, nil
	}
	var t value.Type
	switch m {
	case "min", "max", "argmin", "argmax":
		if len(q.Args) != 1 || q.Args[0].Input != nil {
			return cp.errorf(q, "%s takes one result: %s.%s(mpg)", m, d.Name.Name, m)
		}
		if d.OverFile() {
			c := cp.p.compile(q.Args[0].Value, scope{}, cp.diags)
			if c == nil {
				cp.ok = false
				return value.Type{}, nil
			}
			if c.Type.Kind != value.Number {
				return cp.errorf(q.Args[0].Value, "%s takes a number the file computes at each point, such as a group's mpg; this is %s", m, c.Type.Phrase())
			}
			sq.Of, t = c, c.Type
			break
		}
		nm, ok := Unparen(q.Args[0].Value).(*lang.Name)
		def := (*results.Def)(nil)
		if ok {
			def = results.ByName()[nm.Path()]
		}
		if def == nil || def.Type.Kind != value.Number {
			msg := fmt.Sprintf("%s takes a numeric result of the job, such as mpg or useful_hours", m)
			if ok && def == nil {
				if sug := suggest.Closest(nm.Path(), numericResults()); sug != "" {
					msg = fmt.Sprintf("%s takes a numeric result of the job; did you mean %s?", m, sug)
				}
			}
			return cp.errorf(q.Args[0].Value, "%s", msg)
		}
		sq.Result, t = def, def.Type
	case "at":
		if len(q.Args) == 0 {
			return cp.errorf(q, "at names the point by its inputs: %s.at(INPUT = VALUE, …)", d.Name.Name)
		}
		for _, a := range q.Args {
			if a.Input == nil {
				return cp.errorf(a, "at names the point by its inputs: INPUT = VALUE")
			}
			axis := -1
			for i, ax := range d.Plan.Axes {
				if in, ok := CanonicalInput(a.InputName()); ok && in == ax.In.Name || a.InputName() == ax.In.Name {
					axis = i
				}
			}
			if axis < 0 {
				var names []string
				for _, ax := range d.Plan.Axes {
					names = append(names, ax.In.Name)
				}
				cp.errorAt(a.Input[0].Start(), a.Input[len(a.Input)-1].End(), fmt.Sprintf("sweep %s does not vary %s; it varies %s", d.Name.Name, a.InputName(), strings.Join(names, ", ")))
				return value.Type{}, nil
			}
			c := cp.p.compile(a.Value, scope{}, cp.diags)
			if c == nil {
				cp.ok = false
				return value.Type{}, nil
			}
			if want := d.Plan.Axes[axis].In.Type; c.Type != want {
				return cp.errorf(a.Value, "%s is %s, but this is %s", a.InputName(), want.Phrase(), c.Type.Phrase())
			}
			sq.At = append(sq.At, AtArg{axis, c})
		}
	case "first":
		if len(q.Args) != 1 || q.Args[0].Input != nil {
			return cp.errorf(q, "first takes one condition on a point's results: %s.first(mpg >= 0.3)", d.Name.Name)
		}
		sc := scope{point: d}
		if d.OverFile() {
			sc = scope{} // any name, as the file has it at the point
		}
		c := cp.p.compile(q.Args[0].Value, sc, cp.diags)
		if c == nil {
			cp.ok = false
			return value.Type{}, nil
		}
		if c.Type != value.BoolType {
			return cp.errorf(q.Args[0].Value, "first takes a condition, true or false; this is %s", c.Type.Phrase())
		}
		sq.Cond = c
	}
	switch {
	case (m == "min" || m == "max") && q.Field != nil:
		return cp.errorf(q, "%s gives a number; it has no field %s", m, q.FieldName())
	case m != "min" && m != "max" && q.Field == nil:
		return cp.errorf(q, "%s gives a point; name one of its results or inputs, e.g. %s.%s", m, exprText(q), firstAxisName(d))
	case q.Field != nil:
		f, ft, ok := cp.resolvePointField(q, q.Field, SweepParams(d), "a point of sweep "+d.Name.Name, d.OverFile())
		if !ok {
			return value.Type{}, nil
		}
		sq.Field, t = f, ft
	}
	pos, end := q.Span()
	sq.What = cp.p.sourceAt(pos, end)
	return t, cp.addRef(&Ref{Kind: RefPlan, Decl: d, Text: sq.What, Node: q, Type: t, Plan: sq})
}

// numericResults are the names of the job's numeric results, which min,
// max, argmin and argmax take.
func numericResults() []string {
	var out []string
	for _, name := range results.Names() {
		if results.ByName()[name].Type.Kind == value.Number {
			out = append(out, name)
		}
	}
	return out
}

// CanonicalInput is the canonical name of a job input written as name.
func CanonicalInput(name string) (string, bool) {
	if f, ok := goodput.ParseFactor(name); ok {
		return results.FactorNames[f], true
	}
	if rest, ok := strings.CutPrefix(name, "ceiling."); ok {
		if f, ok := goodput.ParseFactor(rest); ok {
			return "ceiling." + results.FactorNames[f], true
		}
	}
	return "", false
}

func firstAxisName(d *Decl) string {
	if len(d.Plan.Axes) == 0 {
		return "mpg"
	}
	return d.Plan.Axes[0].In.Name
}

func exprText(q *lang.Query) string {
	var b strings.Builder
	b.WriteString(q.Target.Path() + "." + q.Method.Name + "(…)")
	return b.String()
}

// sourceAt is the program's source text between two positions.
func (p *Program) sourceAt(pos, end lang.Position) string {
	src := p.Sources[pos.Filename]
	if pos.Offset <= end.Offset && end.Offset <= len(src) {
		return string(src[pos.Offset:end.Offset])
	}
	return ""
}
