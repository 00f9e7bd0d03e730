package eval

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file checks and answers what an expression asks of a planning
// declaration: a group's figures (training.cost), a compare's best and
// ratio(JOB), a sweep's points and queries, a solve's answer. A sweep's
// queries stream over its points; none keeps them.

// sweepMethods are the queries a sweep answers.
var sweepMethods = []string{"min", "max", "argmin", "argmax", "at", "first"}

// planningName resolves NAME.FIELD where NAME is a planning declaration.
func (cp *exprChecker) planningName(n *lang.Name, d *decl, rest string) (Type, ast.Node) {
	path := n.Path()
	if !cp.p.dependOn(d, n, cp.diags) {
		cp.ok = false
		return Type{}, nil
	}
	add := func(t Type, pl planRef) (Type, ast.Node) {
		return t, cp.addRef(&ref{kind: refPlan, d: d, field: rest, text: path, node: n, typ: t, plan: pl})
	}
	switch d.kind {
	case declGroup:
		if rest == "" {
			return cp.errorf(n, "%s is a group; name one of its figures, e.g. %s.cost", d.name.Name, d.name.Name)
		}
		fig, ok := groupFigures[rest]
		if !ok {
			return cp.unknownField(n, d, rest, groupFigureNames)
		}
		return add(fig.typ, groupRef{fig})
	case declCompare:
		if rest == "best" {
			return add(StringType, bestRef{})
		}
		if rest == "" {
			return cp.errorf(n, "%s is a compare; ask it %s.best or %s.ratio(JOB)", d.name.Name, d.name.Name, d.name.Name)
		}
		return cp.unknownField(n, d, rest, []string{"best", "ratio(JOB)"})
	case declSweep:
		if rest == "points" {
			return add(CountType, sweepPointsRef{})
		}
		if rest == "" {
			return cp.errorf(n, "%s is a sweep; ask it %s.points, or a query such as %s.max(mpg)", d.name.Name, d.name.Name, d.name.Name)
		}
		if contains(sweepMethods, rest) {
			return cp.errorf(n, "%s is a query; write %s(…)", rest, path)
		}
		return cp.unknownField(n, d, rest, append([]string{"points"}, sweepMethods...))
	}
	// a solve: its answer is a point
	if rest == "" {
		return cp.errorf(n, "%s is a solve; name a field of its answer, e.g. %s.%s", d.name.Name, d.name.Name, solveInputName(d))
	}
	f, t, ok := cp.resolvePointField(n, n.Parts[1:], solveParams(d), "the answer of solve "+d.name.Name)
	if !ok {
		return Type{}, nil
	}
	return add(t, solveRef{f})
}

func solveInputName(d *decl) string {
	if d.plan.find == nil {
		return "mpg"
	}
	return d.plan.find.in.name
}

// solveParams is the param a solve searches, if it does.
func solveParams(d *decl) []*decl {
	if fp := d.plan.find; fp != nil && fp.in.kind == inParam {
		return []*decl{fp.in.param}
	}
	return nil
}

// sweepParams are the params a sweep varies.
func sweepParams(d *decl) []*decl {
	var out []*decl
	for _, ax := range d.plan.axes {
		if ax.in.kind == inParam {
			out = append(out, ax.in.param)
		}
	}
	return out
}

// sweepPointsRef reads NAME.points.
type sweepPointsRef struct{}

// solveRef reads a field of a solve's answer.
type solveRef struct{ f pointField }

// pointName resolves a bare result name inside NAME.first(…): the result
// at the point being tried.
func (cp *exprChecker) pointName(n *lang.Name, def *resultDef) (Type, ast.Node) {
	return def.typ, cp.addRef(&ref{kind: refPlan, d: cp.sc.point, field: def.name, text: n.Path(), node: n, typ: def.typ, plan: pointScopeRef{def}})
}

// pointScopeRef is a result at the point a condition is tried on; it has
// a value only there (runAt).
type pointScopeRef struct{ def *resultDef }

// query checks NAME.METHOD(…)[.FIELD].
func (cp *exprChecker) query(q *lang.Query) (Type, ast.Node) {
	if len(q.Target.Parts) != 1 {
		return cp.errorf(q.Target, "only a sweep or a compare answers queries such as %s(…)", q.Method.Name)
	}
	d, ok := cp.p.decls[q.Target.Parts[0].Name]
	if !ok {
		return cp.unknownName(q.Target)
	}
	if !cp.p.dependOn(d, q.Target, cp.diags) {
		cp.ok = false
		return Type{}, nil
	}
	switch d.kind {
	case declSweep:
		return cp.sweepQuery(q, d)
	case declCompare:
		if q.Method.Name != "ratio" {
			msg := fmt.Sprintf("compare %s has no query %s; it answers ratio(JOB)", d.name.Name, q.Method.Name)
			cp.errorAt(q.Method.Start(), q.Method.End(), msg)
			return Type{}, nil
		}
		return cp.ratioQuery(q, d)
	}
	return cp.errorf(q.Target, "%s is a %s; only a sweep (%s) or a compare (ratio) answers queries",
		d.name.Name, declKinds[d.kind].noun, strings.Join(sweepMethods, ", "))
}

func (cp *exprChecker) ratioQuery(q *lang.Query, d *decl) (Type, ast.Node) {
	if len(q.Args) != 1 || q.Args[0].Input != nil {
		return cp.errorf(q, "ratio takes one job of the compare: %s.ratio(JOB)", d.name.Name)
	}
	if q.Field != nil {
		return cp.errorf(q, "ratio gives a number; it has no field %s", q.FieldName())
	}
	nm, ok := unparen(q.Args[0].Value).(*lang.Name)
	var job *decl
	if ok && len(nm.Parts) == 1 {
		for _, m := range d.plan.members {
			if m.name.Name == nm.Parts[0].Name {
				job = m
			}
		}
	}
	if job == nil {
		var names []string
		for _, m := range d.plan.members {
			names = append(names, m.name.Name)
		}
		return cp.errorf(q.Args[0].Value, "ratio takes one of the jobs compare %s lists: %s", d.name.Name, listed(names))
	}
	return CountType, cp.addRef(&ref{kind: refPlan, d: d, text: "ratio", node: q, typ: CountType, plan: ratioRef{job}})
}

// sweepQuery is a checked query of a sweep.
type sweepQuery struct {
	method string
	result *resultDef // min, max, argmin, argmax
	at     []atArg
	cond   *compiled // first
	field  pointField
	what   string // the query as written, for messages
}

// atArg is INPUT = VALUE in at(…): the axis and the value.
type atArg struct {
	axis  int
	value *compiled
}

func (cp *exprChecker) sweepQuery(q *lang.Query, d *decl) (Type, ast.Node) {
	m := q.Method.Name
	sq := &sweepQuery{method: m}
	if !contains(sweepMethods, m) {
		msg := fmt.Sprintf("sweep %s has no query %s", d.name.Name, m)
		if sug := suggest.Closest(m, append([]string(nil), sweepMethods...)); sug != "" {
			msg += "; did you mean " + sug + "?"
		} else {
			msg += "; it answers " + strings.Join(sweepMethods, ", ")
		}
		cp.errorAt(q.Method.Start(), q.Method.End(), msg)
		return Type{}, nil
	}
	var t Type
	switch m {
	case "min", "max", "argmin", "argmax":
		if len(q.Args) != 1 || q.Args[0].Input != nil {
			return cp.errorf(q, "%s takes one result: %s.%s(mpg)", m, d.name.Name, m)
		}
		nm, ok := unparen(q.Args[0].Value).(*lang.Name)
		def := (*resultDef)(nil)
		if ok {
			def = resultDefs[nm.Path()]
		}
		if def == nil || def.typ.Kind != Number {
			return cp.errorf(q.Args[0].Value, "%s takes a numeric result of the job, such as mpg or useful_hours", m)
		}
		sq.result, t = def, def.typ
	case "at":
		if len(q.Args) == 0 {
			return cp.errorf(q, "at names the point by its inputs: %s.at(INPUT = VALUE, …)", d.name.Name)
		}
		for _, a := range q.Args {
			if a.Input == nil {
				return cp.errorf(a, "at names the point by its inputs: INPUT = VALUE")
			}
			axis := -1
			for i, ax := range d.plan.axes {
				if in, ok := canonicalInput(a.InputName()); ok && in == ax.in.name || a.InputName() == ax.in.name {
					axis = i
				}
			}
			if axis < 0 {
				var names []string
				for _, ax := range d.plan.axes {
					names = append(names, ax.in.name)
				}
				cp.errorAt(a.Input[0].Start(), a.Input[len(a.Input)-1].End(), fmt.Sprintf("sweep %s does not vary %s; it varies %s", d.name.Name, a.InputName(), strings.Join(names, ", ")))
				return Type{}, nil
			}
			c := cp.p.compile(a.Value, scope{}, cp.diags)
			if c == nil {
				cp.ok = false
				return Type{}, nil
			}
			if want := d.plan.axes[axis].in.typ; c.typ != want {
				return cp.errorf(a.Value, "%s is %s, but this is %s", a.InputName(), want.Phrase(), c.typ.Phrase())
			}
			sq.at = append(sq.at, atArg{axis, c})
		}
	case "first":
		if len(q.Args) != 1 || q.Args[0].Input != nil {
			return cp.errorf(q, "first takes one condition on a point's results: %s.first(mpg >= 0.3)", d.name.Name)
		}
		c := cp.p.compile(q.Args[0].Value, scope{point: d}, cp.diags)
		if c == nil {
			cp.ok = false
			return Type{}, nil
		}
		if c.typ != BoolType {
			return cp.errorf(q.Args[0].Value, "first takes a condition, true or false; this is %s", c.typ.Phrase())
		}
		sq.cond = c
	}
	switch {
	case (m == "min" || m == "max") && q.Field != nil:
		return cp.errorf(q, "%s gives a number; it has no field %s", m, q.FieldName())
	case m != "min" && m != "max" && q.Field == nil:
		return cp.errorf(q, "%s gives a point; name one of its results or inputs, e.g. %s.%s", m, exprText(q), firstAxisName(d))
	case q.Field != nil:
		f, ft, ok := cp.resolvePointField(q, q.Field, sweepParams(d), "a point of sweep "+d.name.Name)
		if !ok {
			return Type{}, nil
		}
		sq.field, t = f, ft
	}
	pos, end := q.Span()
	sq.what = cp.p.sourceAt(pos, end)
	return t, cp.addRef(&ref{kind: refPlan, d: d, text: sq.what, node: q, typ: t, plan: sq})
}

// canonicalInput is the canonical name of a job input written as name.
func canonicalInput(name string) (string, bool) {
	if f, ok := goodput.ParseFactor(name); ok {
		return factorNames[f], true
	}
	if rest, ok := strings.CutPrefix(name, "ceiling."); ok {
		if f, ok := goodput.ParseFactor(rest); ok {
			return "ceiling." + factorNames[f], true
		}
	}
	return "", false
}

func firstAxisName(d *decl) string {
	if len(d.plan.axes) == 0 {
		return "mpg"
	}
	return d.plan.axes[0].in.name
}

func exprText(q *lang.Query) string {
	var b strings.Builder
	b.WriteString(q.Target.Path() + "." + q.Method.Name + "(…)")
	return b.String()
}

// sourceAt is the program's source text between two positions.
func (p *program) sourceAt(pos, end lang.Position) string {
	src := p.sources[pos.Filename]
	if pos.Offset <= end.Offset && end.Offset <= len(src) {
		return string(src[pos.Offset:end.Offset])
	}
	return ""
}
