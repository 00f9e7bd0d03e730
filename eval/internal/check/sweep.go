package check

import (
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is the sweep's check (language.md §15, §21): its vary lines,
// each an axis of the grid, and its show columns. Over a job, a point is
// one run of the goodput engine over the job's inputs with the varied
// ones replaced; only a varied param re-evaluates the file, and only when
// its value changes. Over the file, a point is one evaluation of the
// file with the varied params replaced.

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

// Setter sets one input in goodput.Inputs, its place there and its
// engine unit (hours, USD per device-hour) chosen once, so that a loop
// over points does no lookup per point; small enough to pass in
// registers. Input.Apply is its one-off use. Params have none (a point
// re-evaluates the file for them).
type Setter struct {
	kind   inputKind
	factor goodput.Factor
	unit   float64 // the engine unit in base units: hours, USD per device-hour
}

// Setter is the input's Setter.
func (in Input) Setter() Setter {
	st := Setter{kind: in.Kind, factor: in.Factor, unit: 1}
	switch in.Kind {
	case InHours:
		st.unit = units.Hour.Factor
	case InRate:
		st.unit = units.USDPerHour.Factor
	}
	return st
}

// SetsFactor reports whether the input is a factor or a ceiling, which
// may leave a ceiling below its factor.
func (st Setter) SetsFactor() bool { return st.kind == InFactor || st.kind == InCeiling }

// Set sets the input to v (base units) in x.
func (st Setter) Set(x *goodput.Inputs, v float64) {
	switch st.kind {
	case InFactor:
		x.Factors[st.factor] = goodput.Some(v)
	case InCeiling:
		x.Ceilings[st.factor] = goodput.Some(v)
	case InDevices:
		x.Devices = v
	case InHours:
		x.Hours = units.Clean(v / st.unit) // units.ToUnit
	case InRate:
		x.Rate = goodput.Some(units.Clean(v / st.unit))
	}
}

// SetRows sets the input to v (base units) in every row of rows: in
// their Base, its column, if it had one, dropped.
func (st Setter) SetRows(rows *goodput.Rows, v float64) {
	st.Set(&rows.Base, v)
	switch st.kind {
	case InFactor:
		rows.Factors[st.factor] = nil
	case InCeiling:
		rows.Ceilings[st.factor] = nil
	case InDevices:
		rows.Devices = nil
	case InHours:
		rows.Hours = nil
	case InRate:
		rows.Rate = nil
	}
}

func (p *Program) checkSweep(d *Decl) bool {
	sw := d.Plan.sweep
	file := sw.OverFile()
	var ok bool
	if file {
		ok = p.overFile(d, sw.Job)
	} else {
		ok = p.overJob(d, sw.Job)
	}
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
		in = p.priceInput(d, in)
		if file && !p.fileInput(d, in, v.Input) {
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
			if BoundDistribution(v.From, &p.Diags) || BoundDistribution(v.To, &p.Diags) || BoundDistribution(v.Step, &p.Diags) {
				ok = false
				d.Plan.Axes = append(d.Plan.Axes, ax)
				continue
			}
			ax.From = p.inputValue(v.From, in, "from")
			ax.To = p.inputValue(v.To, in, "to")
			ax.Step = p.inputValue(v.Step, in, "step")
			ok = ax.From != nil && ax.To != nil && ax.Step != nil && ok
		}
		d.Plan.Axes = append(d.Plan.Axes, ax)
	}
	return p.checkShows(d) && ok
}

// fileInput reports whether a what-if over the whole file may vary or
// search in: a param; a job's own input is an error at ids.
func (p *Program) fileInput(d *Decl, in Input, ids []*lang.Ident) bool {
	if in.Kind == InParam {
		return true
	}
	noun := DeclKinds[d.Kind].Noun
	p.errorAt(ids[0].Start(), ids[len(ids)-1].End(),
		fmt.Sprintf("%s %s is over the whole file, which has no %s of its own: over file, only a param can vary", noun, d.Name.Name, in.Name)).Notes =
		[]string{fmt.Sprintf("to vary a job's %s, write %s %s over JOB; to vary it across the file, declare a param and use it where %s is set", in.Name, noun, d.Name.Name, in.Name)}
	return false
}

// checkShows compiles a sweep's show columns: over a job, bare result
// names are the point's (mpg, cost, saving.program); over the file, a
// column reads any name as the file has it at the point
// (pretrain.runtime, fleet.mpg). A sweep over the file needs one, since
// the whole file has no columns of its own.
func (p *Program) checkShows(d *Decl) bool {
	sw := d.Plan.sweep
	sc := scope{point: d}
	if sw.OverFile() {
		sc = scope{}
		if len(sw.Shows) == 0 && !d.Partial {
			p.errorAt(d.Name.Start(), d.Name.End(), fmt.Sprintf("sweep %s is over the whole file but has no show line; name what each point's row shows, e.g. show %s",
				d.Name.Name, p.showExample())).Notes = []string{"a show column is any expression, read in the file at each point: a job's, a group's or a pool's result, a let"}
			return false
		}
	}
	ok := true
	for _, sh := range sw.Shows {
		for _, e := range sh.Columns {
			c := p.compile(e, sc, &p.Diags)
			if c == nil {
				ok = false
				continue
			}
			pos, end := e.Span()
			d.Plan.Shows = append(d.Plan.Shows, &ShowColumn{Name: p.sourceAt(pos, end), Expr: c})
		}
	}
	return ok
}

// showExample is a show column for the file's message: its first group's
// mpg, else its first job's, else a param's name.
func (p *Program) showExample() string {
	for _, kind := range []declKind{DeclGroup, DeclJob} {
		for _, x := range p.Order {
			if x.Kind == kind {
				return x.Name.Name + ".mpg"
			}
		}
	}
	return "JOB.mpg"
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
		var notes []string
		if want, _ := in.Type.Dim.Currency(); want != "" && in.Type.Kind == value.Number && c.Type.Kind == value.Number {
			if got, ok := c.Type.Dim.Currency(); ok && got != want {
				msg = fmt.Sprintf("%s is %s, but %s is %s", in.Name, currencyPhrase(in.Type.Dim), what, currencyPhrase(c.Type.Dim))
				notes = []string{"hint: " + ConversionHint(want, got)}
			}
		}
		if lit, ok := Unparen(e).(*lang.NumberLit); ok && lit.UnitOf() == nil && in.Type.Kind == value.Number {
			msg = fmt.Sprintf("%s is %s; write its unit, e.g. %s", in.Name, in.Type.Dim.Phrase(), ExampleUnit(lit.Digits(), in.Type.Dim))
		}
		p.Diags = append(p.Diags, &lang.Diagnostic{Severity: lang.Error, Summary: msg, Pos: pos, End: end, Notes: notes})
		return nil
	}
	return c
}

// priceInput is in with, for the rate of a sweep's or solve's job, the
// job's currency: a job priced in EUR varies its rate in EUR.
func (p *Program) priceInput(d *Decl, in Input) Input {
	if in.Kind == InRate && d.Plan != nil && d.Plan.Job != nil {
		in.Type = InCurrency(in.Type, p.JobCurrency(d.Plan.Job))
	}
	return in
}

// MaxPoints is the cap on a sweep's points.
func (p *Program) MaxPoints() int {
	if p.Options.MaxPoints > 0 {
		return p.Options.MaxPoints
	}
	return DefaultMaxPoints
}
