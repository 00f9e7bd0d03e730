package check

import (
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/value"
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

// AxisPlan is a checked vary line.
type AxisPlan struct {
	// Vary is the vary line.
	Vary *lang.Vary
	// In is the input the line varies.
	In Input
	// From, To and Step give a range of values; nil for a list.
	From, To, Step *Compiled
	// Values are a list's values; nil for a range.
	Values []*Compiled
}

func (p *Program) checkSweep(d *Decl) bool {
	sw := d.Plan.sweep
	ok := p.overJob(d, sw.Job)
	if len(sw.Varies) == 0 {
		if !d.Partial { // else its vary lines had syntax errors, told already
			p.errorAt(d.Name.Start(), d.Name.End(), "sweep "+d.Name.Name+" has no vary line; add one, e.g. vary program from 0.30 to 0.50 step 0.05")
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
		if prev := seen[in.Name]; prev != nil {
			p.Diags = append(p.Diags, &lang.Diagnostic{
				Severity: lang.Error, Summary: in.Name + " is varied twice",
				Pos: v.Input[0].Start(), End: v.Input[len(v.Input)-1].End(), Label: "varied again here",
				Related: []lang.Related{{Pos: prev.Input[0].Start(), End: prev.Input[len(prev.Input)-1].End(), Label: "first varied here"}},
			})
			ok = false
			continue
		}
		seen[in.Name] = v
		ax := &AxisPlan{Vary: v, In: in}
		if v.In {
			if len(v.Values) == 0 {
				p.errorAt(v.Start(), v.End(), "vary "+in.Name+" in [] lists no values")
				ok = false
			}
			for _, x := range v.Values {
				c := p.inputValue(x, in, "a value of "+in.Name)
				ok = c != nil && ok
				ax.Values = append(ax.Values, c)
			}
		} else {
			ax.From = p.inputValue(v.From, in, "from")
			ax.To = p.inputValue(v.To, in, "to")
			ax.Step = p.inputValue(v.Step, in, "step")
			ok = ax.From != nil && ax.To != nil && ax.Step != nil && ok
		}
		d.Plan.Axes = append(d.Plan.Axes, ax)
	}
	return ok
}

// inputValue compiles a value given for an input and checks its
// dimension; nil when it has errors, already reported.
func (p *Program) inputValue(e lang.Expr, in Input, what string) *Compiled {
	c := p.compile(e, scope{}, &p.Diags)
	if c == nil {
		return nil
	}
	if c.Type != in.Type {
		pos, end := e.Span()
		msg := fmt.Sprintf("%s is %s, but %s is %s", in.Name, in.Type.Phrase(), what, c.Type.Phrase())
		if lit, ok := Unparen(e).(*lang.NumberLit); ok && lit.UnitOf() == nil && in.Type.Kind == value.Number {
			msg = fmt.Sprintf("%s is %s; write its unit, e.g. %s", in.Name, in.Type.Dim.Phrase(), ExampleUnit(lit.Digits(), in.Type.Dim))
		}
		p.errorAt(pos, end, msg)
		return nil
	}
	return c
}

// MaxPoints is the cap on a sweep's points.
func (p *Program) MaxPoints() int {
	if p.Options.MaxPoints > 0 {
		return p.Options.MaxPoints
	}
	return DefaultMaxPoints
}
