package htmlreport

import (
	"math"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/report"
)

// This file fills the planning sections from the report model of a
// scenario: groups, compares, sweeps and solves.

// The most a sweep chart draws, and tabulates: a line chart's points, and
// a heatmap's columns and rows. A larger sweep is drawn at evenly spaced
// values of each input, its first and last among them, and the page says
// so; gpl run --format json has every point.
const (
	maxLinePoints = 200
	maxGridSide   = 24
)

// solveSamples is how many values of its input a solve's curve is drawn
// through.
const solveSamples = 41

// planningOf fills the planning sections of f from m.
func planningOf(m *report.File, f *File) error {
	for _, g := range m.Groups {
		f.Groups = append(f.Groups, groupOf(g))
	}
	for _, c := range m.Compares {
		f.Compares = append(f.Compares, compareOf(c))
	}
	for _, sw := range m.Sweeps {
		out, err := sweepOf(m, sw)
		if err != nil {
			return err
		}
		f.Sweeps = append(f.Sweeps, out)
	}
	for _, sv := range m.Solves {
		out, err := solveOf(sv)
		if err != nil {
			return err
		}
		f.Solves = append(f.Solves, out)
	}
	return nil
}

func groupOf(mg report.Group) Group {
	g := mg.Figures
	out := Group{Name: g.Name, Jobs: g.Jobs, HasCost: g.HasCost, Offered: g.OfferedHours, Held: g.HeldHours,
		Productive: g.ProductiveHours, Useful: g.UsefulHours, Cost: g.Cost, CostPerUsefulHour: g.CostPerUsefulHour, MPG: g.MPG,
		Listed: mg.Listed, Currency: mg.Money(0).Dim.Currency()}
	for _, o := range g.Owners {
		out.Owners = append(out.Owners, GroupOwner{Owner: o.Owner, Factors: o.Factors,
			LossHours: o.LossHours, LossCost: o.LossCost, GainHours: o.GainHours, Saving: o.Saving})
	}
	return out
}

func compareOf(mc report.Compare) Compare {
	c := mc.Figures
	out := Compare{Name: c.Name, Best: c.Best, By: c.By, Max: c.Max, Currency: mc.Money(0).Dim.Currency()}
	for _, r := range c.Rows {
		out.Entries = append(out.Entries, CompareEntry{Job: r.Job, CostPerUsefulHour: r.CostPerUsefulHour,
			HasCost: r.HasCost, UsefulHours: r.UsefulHours})
	}
	return out
}

// The outputs a sweep chart may draw: what changes with its inputs.
var (
	mpgQ        = Quantity{"mpg", report.Count}
	ceilingMPGQ = Quantity{"ceiling mpg", report.Count}
	usefulQ     = Quantity{"useful hours", report.Duration}
	costQ       = Quantity{"cost per useful hour", report.Price}
)

// sweepOutput picks what a sweep's chart shows: cost per useful hour when
// it varies the rate (mpg does not move with it), useful hours when it
// varies devices or hours, the ceiling mpg when it varies only ceilings,
// else mpg.
func sweepOutput(axes []report.SweepAxis, hasCost bool) (Quantity, func(r *report.SweepResult) (float64, bool)) {
	kinds := map[string]bool{}
	for _, a := range axes {
		kinds[a.Kind] = true
	}
	switch {
	case kinds["rate"] && hasCost:
		return costQ, func(r *report.SweepResult) (float64, bool) {
			return priceToBase(r.CostPerUsefulHour), r.HasCostPerUsefulHour
		}
	case kinds["devices"] || kinds["hours"]:
		return usefulQ, func(r *report.SweepResult) (float64, bool) { return hoursToBase(r.UsefulHours), true }
	case len(kinds) == 1 && kinds["ceiling"]:
		return ceilingMPGQ, func(r *report.SweepResult) (float64, bool) { return r.CeilingMPG, true }
	}
	return mpgQ, func(r *report.SweepResult) (float64, bool) { return r.MPG, true }
}

// baseResult is the base job's own figures, as a sweep's point has them.
func baseResult(v report.JobView) *report.SweepResult {
	return &report.SweepResult{MPG: v.MPG, CeilingMPG: v.CeilingMPG, UsefulHours: v.Steps[3].Hours,
		CostPerUsefulHour: v.CostPerUsefulHour, HasCostPerUsefulHour: v.HasCostPerUsefulHour}
}

func jobNamed(m *report.File, name string) *report.Job {
	for i := range m.Jobs {
		if m.Jobs[i].Name == name {
			return &m.Jobs[i]
		}
	}
	return nil
}

// kept lists which of n values a chart draws: all when n ≤ most, else
// most values evenly spaced, the first and the last among them.
func kept(n, most int) []bool {
	keep := make([]bool, n)
	if n <= most {
		for i := range keep {
			keep[i] = true
		}
		return keep
	}
	for k := range most {
		keep[int(math.Round(float64(k)*float64(n-1)/float64(most-1)))] = true
	}
	return keep
}

func countKept(keep []bool) int {
	n := 0
	for _, k := range keep {
		if k {
			n++
		}
	}
	return n
}

func sweepOf(m *report.File, sw report.Sweep) (Sweep, error) {
	axes, err := sw.Axes()
	if err != nil {
		return Sweep{}, err
	}
	if sw.Columns != nil {
		return shownSweepOf(sw, axes)
	}
	job := jobNamed(m, sw.Job)
	hasCost := job != nil && job.View.HasCost
	outQ, outOf := sweepOutput(axes, hasCost)
	out := Sweep{Name: sw.Name, Output: outQ}
	for i, a := range axes {
		out.Inputs = append(out.Inputs, Quantity{a.Input, a.Dim})
		if a.HasCeiling && len(axes) <= 2 {
			out.Refs = append(out.Refs, Ref{Axis: i, At: a.Ceiling, Label: a.Input + " ceiling " + number(a.Ceiling)})
		}
	}
	if len(axes) == 1 && outQ == mpgQ && job != nil {
		out.Refs = append(out.Refs, Ref{Axis: -1, At: job.View.CeilingMPG,
			Label: "ceiling mpg " + number(job.View.CeilingMPG)})
	}
	if job != nil {
		if v, ok := outOf(baseResult(job.View)); ok {
			for _, a := range axes {
				out.Base = append(out.Base, a.Base)
			}
			out.Base = append(out.Base, v)
		}
	}
	if len(axes) > 2 {
		return out, nil // SweepChart says why it cannot draw it
	}
	// Which values of each axis are drawn.
	keeps := make([][]bool, len(axes))
	most := maxLinePoints
	if len(axes) == 2 {
		most = maxGridSide
	}
	drawn := 1
	for i, a := range axes {
		keeps[i] = kept(a.N, most)
		drawn *= countKept(keeps[i])
	}
	idx := make([]int, len(axes))
	var skipped int
	err = sw.Results(func(_ []float64, r *report.SweepResult) bool {
		keep := true
		for i := range axes {
			keep = keep && keeps[i][idx[i]]
		}
		for i := len(idx) - 1; i >= 0; i-- { // the next point's indices
			idx[i]++
			if idx[i] < axes[i].N {
				break
			}
			idx[i] = 0
		}
		if !keep || r == nil { // a point that cannot be evaluated: the walk below lists it
			return true
		}
		v, ok := outOf(r)
		if !ok {
			skipped++
			return true
		}
		out.Points = append(out.Points, append(append([]float64(nil), r.Values...), v))
		return true
	})
	if err != nil {
		return out, err
	}
	if drawn < sw.Points {
		out.Note = "The sweep has " + count(sw.Points) + " points; drawn and tabulated here are " + count(drawn) +
			", at evenly spaced values of each input (the first and last among them). gpl run --format json lists them all."
	}
	if skipped > 0 {
		out.Note += " " + count(skipped) + " points without a " + outQ.Name + " (a zero mpg) are left out."
	}
	if sw.Failed > 0 {
		out.Failed, err = failedPoints(sw)
	}
	return out, err
}

// failedPoints lists the sweep's points that cannot be evaluated, each
// with why, in sweep order.
func failedPoints(sw report.Sweep) ([][2]string, error) {
	var out [][2]string
	err := sw.Each(func(p report.SweepPoint) bool {
		if p.Failure != nil {
			out = append(out, [2]string{describe(sw.Inputs, p.Inputs), p.Failure.Text})
		}
		return true
	})
	return out, err
}

// describe writes a point's inputs: "mtbf = 5 min, devices = 128".
func describe(names []string, vals []report.Amount) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(names[i] + " = " + v.String())
	}
	return b.String()
}

// shownSweepOf draws a sweep with a show line (over the whole file, or
// over a job) by its first numeric column: the varied inputs against it,
// at most maxLinePoints points, or maxGridSide values a side.
func shownSweepOf(sw report.Sweep, axes []report.SweepAxis) (Sweep, error) {
	out := Sweep{Name: sw.Name}
	for _, a := range axes {
		out.Inputs = append(out.Inputs, Quantity{a.Input, a.Dim})
	}
	keeps := make([][]bool, len(axes))
	most := maxLinePoints
	if len(axes) == 2 {
		most = maxGridSide
	}
	drawn := 1
	for i, a := range axes {
		keeps[i] = kept(a.N, most)
		drawn *= countKept(keeps[i])
	}
	col, skipped := -1, 0
	idx := make([]int, len(axes))
	err := sw.Each(func(p report.SweepPoint) bool {
		keep := len(axes) <= 2
		for i := range axes {
			keep = keep && keeps[i][idx[i]]
		}
		for i := len(idx) - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < axes[i].N {
				break
			}
			idx[i] = 0
		}
		if p.Failure != nil {
			out.Failed = append(out.Failed, [2]string{describe(sw.Inputs, p.Inputs), p.Failure.Text})
			return true
		}
		if col < 0 {
			for i, c := range p.Columns {
				if a, ok := c.Figure.Amount(); ok {
					col, out.Output = i, Quantity{c.Name, a.Dim}
					break
				}
			}
		}
		if !keep || col < 0 {
			return true
		}
		a, ok := p.Columns[col].Figure.Amount()
		if !ok {
			skipped++
			return true
		}
		row := make([]float64, 0, len(axes)+1)
		for _, v := range p.Inputs {
			row = append(row, v.Base)
		}
		out.Points = append(out.Points, append(row, a.Base))
		return true
	})
	if err != nil {
		return out, err
	}
	base, err := sw.BaseColumns()
	if err != nil {
		return out, err
	}
	if col >= 0 {
		if a, ok := base[col].Figure.Amount(); ok {
			// The file's own point, drawn as a sweep over a job draws its
			// job's: its params' values, and the column there.
			for _, ax := range axes {
				out.Base = append(out.Base, ax.Base)
			}
			out.Base = append(out.Base, a.Base)
		}
	}
	if col < 0 {
		out.Output = Quantity{Name: sw.Columns[0]}
		out.Note = "No point has a number in any of the sweep's columns (" + strings.Join(sw.Columns, ", ") + ") to draw."
	}
	if drawn < sw.Points && len(axes) <= 2 {
		out.Note = "The sweep has " + count(sw.Points) + " points; drawn and tabulated here are " + count(drawn) +
			", at evenly spaced values of each input (the first and last among them). gpl run --format json lists them all."
	}
	if len(sw.Columns) > 1 && col >= 0 {
		out.Note += " Drawn is its first numeric column, " + out.Output.Name + "; gpl run prints every column (" + strings.Join(sw.Columns, ", ") + ")."
	}
	if skipped > 0 {
		out.Note += " " + count(skipped) + " points without a " + out.Output.Name + " are left out."
	}
	out.Note = strings.TrimSpace(out.Note)
	return out, nil
}

func solveOf(ms report.Solve) (Solve, error) {
	sv := ms.Figures
	c, err := ms.Curve(solveSamples)
	if err != nil {
		return Solve{}, err
	}
	name := resultName(c.Result)
	if sv.OverFile {
		name = c.Result // an expression as written: fleet.mpg
	}
	out := Solve{Name: sv.Name, Input: Quantity{c.Input, c.InputDim}, Output: Quantity{name, c.ResultDim},
		Op: c.Op, Target: c.Target, Answer: []float64{sv.Value.Num, sv.Result.Num}, Found: true}
	for _, p := range c.Points {
		out.Curve = append(out.Curve, []float64{p[0], p[1]})
	}
	if c.HasCeiling {
		out.Refs = append(out.Refs, Ref{Axis: 0, At: c.Ceiling, Label: c.Input + " ceiling " + number(c.Ceiling)})
	}
	// As the text report words it, with thousands separators.
	out.Note = "solve " + sv.Name + " over " + ms.OverWhat() + ": " + c.Input + " = " + report.Readable(sv.Value) +
		" gives " + sv.Condition + " (" + report.Readable(sv.Result) + " there)"
	if sv.AboveCeiling {
		out.Note += ", above the job's ceiling"
	}
	if len(sv.Above) > 0 {
		out.Note += ", with " + strings.Join(sv.Above, ", ") + " above its ceiling there"
	}
	out.Note += ". The curve is the result at " + strconv.Itoa(len(c.Points)) + " values across the range searched."
	if ms.Border != nil {
		out.Note += " The answer borders values where the file cannot be evaluated: " + ms.Border.Text + "."
	}
	for _, f := range c.Failed {
		out.Failed = append(out.Failed, [2]string{c.Input + " = " + f.X.String(), f.Failure.Text})
	}
	return out, nil
}

// resultName is a result's name in the page's words: useful_hours is
// "useful hours".
func resultName(n string) string {
	b := []byte(n)
	for i, c := range b {
		if c == '_' {
			b[i] = ' '
		}
	}
	return string(b)
}
