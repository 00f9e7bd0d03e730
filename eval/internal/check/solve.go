package check

import (
	"fmt"
	"slices"

	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
)

// FindPlan is a checked find line.
type FindPlan struct {
	// In is the input the solve searches.
	In Input
	// Lo and Hi bound the search; nil: [0, 1] for a factor or
	// ceiling.
	Lo, Hi *Compiled // nil: [0, 1] for a factor or ceiling
	// Result is the job result compared with Target; nil for a solve
	// over the whole file, which compares Of.
	Result *results.Def
	// Stat, when not "", is the statistic of Result over the job's
	// samples that is compared (mpg.p10: "p10"; language §23), StatQ its
	// quantile (Stats); a job that reads no distribution has one value
	// in every sample.
	Stat  string
	StatQ float64
	// Of is what a solve over the whole file compares with Target: any
	// numeric expression, read in the file at each value tried
	// (fleet.mpg); nil over a job.
	Of *Compiled
	// Subject is what is compared, as messages and reports name it: the
	// result's name, or Of as written.
	Subject string
	// Op is the operator comparing Result with Target, as written.
	Op string
	// Target is the value Result is compared with.
	Target *Compiled
	// Cond is the condition a find tests; nil for a comparison.
	Cond    lang.Expr
	resultN *lang.Name
}

// SampledResults are the results of a job a solve over it can take a
// statistic of: those the engine computes over every sample at once.
var SampledResults = []string{"mpg", "offered_hours", "useful_hours", "cost", "cost_per_useful_hour"}

func (p *Program) checkSolve(d *Decl) bool {
	sv := d.Plan.Solve
	f := sv.Find
	file := sv.OverFile()
	var ok bool
	if file {
		ok = p.overFile(d, sv.Job)
	} else {
		ok = p.overJob(d, sv.Job)
	}
	in, iok := p.resolveInput(f.Input, "find")
	if !iok || file && !p.fileInput(d, in, f.Input) {
		return false
	}
	in = p.priceInput(d, in)
	fp := &FindPlan{In: in, Cond: f.Cond}
	d.Plan.Find = fp
	switch {
	case f.Lo != nil:
		fp.Lo = p.inputValue(f.Lo, in, "the range's start")
		fp.Hi = p.inputValue(f.Hi, in, "the range's end")
		ok = fp.Lo != nil && fp.Hi != nil && ok
	case in.Kind != InFactor && in.Kind != InCeiling:
		p.errorAt(f.Input[0].Start(), f.Input[len(f.Input)-1].End(),
			fmt.Sprintf("find %s needs a range: find %s in [LOW, HIGH] such that …", in.Name, in.Name)).Notes =
			[]string{"only a factor or a ceiling has a range of its own, [0, 1]"}
		ok = false
	}
	if file {
		return p.fileCondition(fp) && ok
	}
	return p.solveCondition(fp) && ok
}

// fileCondition checks the condition of a solve over the whole file:
// EXPR OP TARGET, where EXPR is any numeric expression read in the file
// at each value tried (fleet.mpg >= 0.32) and TARGET one of its
// dimension.
func (p *Program) fileCondition(fp *FindPlan) bool {
	b, ok := Unparen(fp.Cond).(*lang.Binary)
	if ok {
		switch b.Op {
		case "<", "<=", ">", ">=":
		default:
			ok = false
		}
	}
	if !ok {
		pos, end := fp.Cond.Span()
		p.errorAt(pos, end, "a solve's condition compares a figure of the file with a target, e.g. fleet.mpg >= 0.30").Notes =
			[]string{"write EXPR < TARGET, <=, > or >=: EXPR is any number the file computes (a job's, a group's or a pool's result, a let), the target any expression of its dimension"}
		return false
	}
	c := p.compile(b.L, scope{}, &p.Diags)
	if c == nil {
		return false
	}
	if c.Type.Kind != value.Number {
		pos, end := b.L.Span()
		p.errorAt(pos, end, fmt.Sprintf("%s is %s; a solve compares a number with its target", p.sourceAt(pos, end), c.Type.Phrase()))
		return false
	}
	pos, end := b.L.Span()
	fp.Of, fp.Op, fp.Subject = c, b.Op, p.sourceAt(pos, end)
	fp.Target = p.inputValue(b.R, Input{Name: fp.Subject, Type: c.Type}, "the target")
	return fp.Target != nil
}

// solveCondition checks that a find's condition compares one job result
// with a target: RESULT OP TARGET.
func (p *Program) solveCondition(fp *FindPlan) bool {
	bad := func() bool {
		pos, end := fp.Cond.Span()
		p.errorAt(pos, end, "a solve's condition compares one result of the job with a target, e.g. mpg >= 0.30").Notes =
			[]string{"write RESULT < TARGET, <=, > or >=; the target may be any expression of the result's dimension"}
		return false
	}
	b, ok := Unparen(fp.Cond).(*lang.Binary)
	if !ok {
		return bad()
	}
	switch b.Op {
	case "<", "<=", ">", ">=":
	default:
		return bad()
	}
	n, ok := Unparen(b.L).(*lang.Name)
	if !ok {
		return bad()
	}
	def, ok := results.ByName()[n.Path()]
	last := n.Parts[len(n.Parts)-1].Name
	if q, stat := Stats[last]; !ok && stat && len(n.Parts) > 1 {
		inner := (&lang.Name{Parts: n.Parts[:len(n.Parts)-1]}).Path()
		if rd, result := results.ByName()[inner]; result {
			// A statistic of the job's result over its samples
			// (language §23): each candidate solves the job in every
			// sample, the varied input the same in all.
			if !slices.Contains(SampledResults, rd.Name) {
				p.errorAt(n.Start(), n.End(), fmt.Sprintf("a solve over a job takes a statistic of mpg, offered_hours, useful_hours, cost or cost_per_useful_hour, not of %s", inner)).Notes =
					[]string{"hint: to compare another quantity's statistic, solve over file: find a param the job reads such that JOB." + n.Path() + " " + b.Op + " TARGET"}
				return false
			}
			def, ok, fp.Stat, fp.StatQ = rd, true, last, q
		}
	}
	if !ok {
		msg := "the job has no result " + n.Path()
		if sug := suggest.Closest(n.Path(), results.Names()); sug != "" {
			msg += "; did you mean " + sug + "?"
		}
		p.errorAt(n.Start(), n.End(), msg)
		return false
	}
	if def.Type.Kind != value.Number {
		p.errorAt(n.Start(), n.End(), fmt.Sprintf("%s is %s; a solve needs a numeric result", n.Path(), def.Type.Phrase()))
		return false
	}
	fp.Result, fp.Op, fp.resultN, fp.Subject = def, b.Op, n, n.Path()
	fp.Target = p.inputValue(b.R, Input{Name: n.Path(), Type: def.Type}, "the target")
	return fp.Target != nil
}
