package eval

import (
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/lang"
)

// findPlan is a checked find line.
type findPlan struct {
	in      input
	lo, hi  *compiled // nil: [0, 1] for a factor or ceiling
	result  *resultDef
	op      string
	target  *compiled
	cond    lang.Expr
	resultN *lang.Name
}

func (p *program) checkSolve(d *decl) bool {
	sv := d.plan.solve
	f := sv.Find
	ok := p.overJob(d, sv.Job)
	in, iok := p.resolveInput(f.Input, "find")
	if !iok {
		return false
	}
	fp := &findPlan{in: in, cond: f.Cond}
	d.plan.find = fp
	switch {
	case f.Lo != nil:
		fp.lo = p.inputValue(f.Lo, in, "the range's start")
		fp.hi = p.inputValue(f.Hi, in, "the range's end")
		ok = fp.lo != nil && fp.hi != nil && ok
	case in.kind != inFactor && in.kind != inCeiling:
		p.errorAt(f.Input[0].Start(), f.Input[len(f.Input)-1].End(),
			fmt.Sprintf("find %s needs a range: find %s in [LOW, HIGH] such that …", in.name, in.name)).Notes =
			[]string{"only a factor or a ceiling has a range of its own, [0, 1]"}
		ok = false
	}
	return p.solveCondition(fp) && ok
}

// solveCondition checks that a find's condition compares one job result
// with a target: RESULT OP TARGET.
func (p *program) solveCondition(fp *findPlan) bool {
	bad := func() bool {
		pos, end := fp.cond.Span()
		p.errorAt(pos, end, "a solve's condition compares one result of the job with a target, e.g. mpg >= 0.30").Notes =
			[]string{"write RESULT < TARGET, <=, > or >=; the target may be any expression of the result's dimension"}
		return false
	}
	b, ok := unparen(fp.cond).(*lang.Binary)
	if !ok {
		return bad()
	}
	switch b.Op {
	case "<", "<=", ">", ">=":
	default:
		return bad()
	}
	n, ok := unparen(b.L).(*lang.Name)
	if !ok {
		return bad()
	}
	def, ok := resultDefs[n.Path()]
	if !ok {
		msg := "the job has no result " + n.Path()
		if sug := suggest.Closest(n.Path(), ResultNames()); sug != "" {
			msg += "; did you mean " + sug + "?"
		}
		p.errorAt(n.Start(), n.End(), msg)
		return false
	}
	if def.typ.Kind != Number {
		p.errorAt(n.Start(), n.End(), fmt.Sprintf("%s is %s; a solve needs a numeric result", n.Path(), def.typ.Phrase()))
		return false
	}
	fp.result, fp.op, fp.resultN = def, b.Op, n
	fp.target = p.inputValue(b.R, input{name: n.Path(), typ: def.typ}, "the target")
	return fp.target != nil
}
