package eval

import (
	"fmt"

	"github.com/gpl-lang/gpl/lang"
)

// This file is the sweep (language.md §15): its check, the evaluation of
// its axes, and the walk over its points that every query and the table
// stream through. A point is one run of the goodput engine over the job's
// inputs with the varied ones replaced; only a varied param re-evaluates
// the file, and only when its value changes.

// DefaultMaxPoints is the most points a sweep may have unless
// Options.MaxPoints says otherwise.
const DefaultMaxPoints = 1_000_000

// axisPlan is a checked vary line.
type axisPlan struct {
	vary           *lang.Vary
	in             input
	from, to, step *compiled
	values         []*compiled
}

func (p *program) checkSweep(d *decl) bool {
	sw := d.plan.sweep
	ok := p.overJob(d, sw.Job)
	if len(sw.Varies) == 0 {
		if !d.partial { // else its vary lines had syntax errors, told already
			p.errorAt(d.name.Start(), d.name.End(), "sweep "+d.name.Name+" has no vary line; add one, e.g. vary program from 0.30 to 0.50 step 0.05")
		}
		return false
	}
	seen := map[string]*lang.Vary{}
	for _, v := range sw.Varies {
		in, iok := p.resolveInput(v.Input, "vary")
		if !iok {
			ok = false
			continue
		}
		if prev := seen[in.name]; prev != nil {
			p.diags = append(p.diags, &lang.Diagnostic{
				Severity: lang.Error, Summary: in.name + " is varied twice",
				Pos: v.Input[0].Start(), End: v.Input[len(v.Input)-1].End(), Label: "varied again here",
				Related: []lang.Related{{Pos: prev.Input[0].Start(), End: prev.Input[len(prev.Input)-1].End(), Label: "first varied here"}},
			})
			ok = false
			continue
		}
		seen[in.name] = v
		ax := &axisPlan{vary: v, in: in}
		if v.In {
			if len(v.Values) == 0 {
				p.errorAt(v.Start(), v.End(), "vary "+in.name+" in [] lists no values")
				ok = false
			}
			for _, x := range v.Values {
				c := p.inputValue(x, in, "a value of "+in.name)
				ok = c != nil && ok
				ax.values = append(ax.values, c)
			}
		} else {
			ax.from = p.inputValue(v.From, in, "from")
			ax.to = p.inputValue(v.To, in, "to")
			ax.step = p.inputValue(v.Step, in, "step")
			ok = ax.from != nil && ax.to != nil && ax.step != nil && ok
		}
		d.plan.axes = append(d.plan.axes, ax)
	}
	return ok
}

// inputValue compiles a value given for an input and checks its
// dimension; nil when it has errors, already reported.
func (p *program) inputValue(e lang.Expr, in input, what string) *compiled {
	c := p.compile(e, scope{}, &p.diags)
	if c == nil {
		return nil
	}
	if c.typ != in.typ {
		pos, end := e.Span()
		msg := fmt.Sprintf("%s is %s, but %s is %s", in.name, in.typ.Phrase(), what, c.typ.Phrase())
		if lit, ok := unparen(e).(*lang.NumberLit); ok && lit.UnitOf() == nil && in.typ.Kind == Number {
			msg = fmt.Sprintf("%s is %s; write its unit, e.g. %s", in.name, in.typ.Dim.Phrase(), exampleUnit(lit.Digits(), in.typ.Dim))
		}
		p.errorAt(pos, end, msg)
		return nil
	}
	return c
}

// maxPoints is the cap on a sweep's points.
func (p *program) maxPoints() int {
	if p.opts.MaxPoints > 0 {
		return p.opts.MaxPoints
	}
	return DefaultMaxPoints
}
