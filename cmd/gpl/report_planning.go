package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	model "github.com/gpl-lang/gpl/eval/report"
)

// The text report's planning part: groups with their tables by owner,
// compares, sweeps (one row per point) and solves.

func hoursText(h float64) string { return model.Hours(h).Readable() }

// writePlanning writes the groups, compares, sweeps and solves of p.
func writePlanning(w io.Writer, p model.Planning, allRows bool) {
	for _, g := range p.Groups {
		writeGroup(w, g)
	}
	for _, c := range p.Compares {
		writeCompare(w, c)
	}
	for _, sw := range p.Sweeps {
		writeSweep(w, sw, allRows)
	}
	for _, s := range p.Solves {
		sv := s.Figures
		line := fmt.Sprintf("\nsolve %s over %s: %s = %s gives %s (%s there)", sv.Name, s.OverWhat(), sv.Input, sv.Value, sv.Condition, sv.Result)
		if sv.AboveCeiling {
			line += ", above the job's ceiling"
		}
		if len(sv.Above) > 0 {
			line += ", with " + strings.Join(sv.Above, ", ") + " above its ceiling there"
		}
		fmt.Fprintln(w, line)
		if s.Border != nil {
			fmt.Fprintf(w, "  the answer borders values where the %s cannot be evaluated: %s\n", s.Over, s.Border.Text)
		}
	}
}

func writeGroup(w io.Writer, mg model.Group) {
	g := mg.Figures
	fmt.Fprintf(w, "\ngroup %s: %s\n", g.Name, strings.Join(g.Jobs, ", "))
	fmt.Fprintf(w, "  offered %s → held %s → productive %s → useful %s (mpg %s)\n",
		hoursText(g.OfferedHours), hoursText(g.HeldHours), hoursText(g.ProductiveHours), hoursText(g.UsefulHours), fix(g.MPG))
	if g.HasCost {
		fmt.Fprintf(w, "  cost %s, badput_cost %s, cost_per_useful_hour %s\n", mg.Money(g.Cost), mg.Money(g.BadputCost), mg.Price(g.CostPerUsefulHour))
	}
	for _, m := range mg.Listed {
		fmt.Fprintf(w, "  %s %s\n", m.Name, m.Figure.Readable())
	}
	if g.IdleHours != 0 {
		line := "  idle " + hoursText(g.IdleHours) + " in its reservations"
		if g.HasIdleCost {
			line += ", idle_cost " + mg.Money(g.IdleCost).String()
		}
		fmt.Fprintln(w, line)
	}
	writeGroupMonths(w, mg)
	// Owners and factors are names, left-aligned; the figures right-aligned.
	rows := [][]string{{"owner", "factors", "loss_hours", "gain_hours"}}
	if g.HasCost {
		rows[0] = []string{"owner", "factors", "loss_hours", "loss_cost", "gain_hours", "saving"}
	}
	for _, o := range g.Owners {
		if g.HasCost {
			rows = append(rows, []string{o.Owner, strings.Join(o.Factors, " "), hoursText(o.LossHours), mg.Money(o.LossCost).String(), hoursText(o.GainHours), mg.Money(o.Saving).String()})
		} else {
			rows = append(rows, []string{o.Owner, strings.Join(o.Factors, " "), hoursText(o.LossHours), hoursText(o.GainHours)})
		}
	}
	writeTable(w, rows, 2)
}

func writeCompare(w io.Writer, mc model.Compare) {
	c := mc.Figures
	order := "lowest"
	if c.Max {
		order = "highest"
	}
	fmt.Fprintf(w, "\ncompare %s: best %s (%s %s)\n", c.Name, c.Best, order, c.By)
	rows := [][]string{{"job", "mpg", "useful_hours", "cost", "cost_per_useful_hour", "trade_ratio", "change"}}
	for i, r := range c.Rows {
		cost, cpuh, change := "—", "—", "—"
		if r.HasCost {
			cost, cpuh = mc.Money(r.Cost).String(), mc.Price(r.CostPerUsefulHour).String()
			if i > 0 {
				change = mc.Price(r.CostPerUsefulHourChange).String()
				if r.CostPerUsefulHourChange >= 0 {
					change = "+" + change
				}
			}
		}
		rows = append(rows, []string{r.Job, fix(r.MPG), hoursText(r.UsefulHours), cost, cpuh, fix(r.TradeRatio) + "×", change})
	}
	writeTable(w, rows, 1)
}

// sweepTextRows is the most rows the text prints of a sweep without
// --all; a larger sweep prints its first and last sweepEndRows rows and
// its extremes (JSON and gpl table always give every row).
const (
	sweepTextRows = 1000
	sweepEndRows  = 5
)

// sweepLine is one printed row of a sweep: its mark, its cells and, at
// a point that cannot be evaluated, why.
type sweepLine struct {
	mark   string
	cells  []string
	failed string
}

// sweepExtreme is the lowest or highest value of one column over a
// sweep's points, and the row it is in.
type sweepExtreme struct {
	set      bool
	lo, hi   float64
	low, top sweepLine
}

// writeSweep writes one row per point as the sweep streams them, so that
// a large sweep's table is not held in memory. It goes over the points
// twice, the first time only to size the columns to their widest cell and
// to learn whether any point is marked: a point costs one engine run. A
// sweep of more than sweepTextRows points, unless all, prints its first
// and last rows, then the rows where each numeric column is lowest and
// highest, and says how to get every row.
func writeSweep(w io.Writer, sw model.Sweep, all bool) {
	heads := append([]string(nil), sw.Inputs...)
	if sw.Columns != nil {
		heads = append(heads, sw.Columns...)
	} else {
		heads = append(heads, "mpg", "useful_hours", "cost_per_useful_hour", "best_lever")
	}
	widths := make([]int, len(heads))
	for i, h := range heads {
		widths[i] = utf8.RuneCountInString(h)
	}
	brief := !all && sw.Points > sweepTextRows
	var first, last []sweepLine // brief: the first rows, and the last in a ring
	var nums []sweepNumber      // brief: the numbers of the point, for the extremes
	extremes := make([]sweepExtreme, len(heads)-len(sw.Inputs))
	marked, failed, n := false, 0, 0
	cells := make([]string, 0, len(heads))
	err := sw.Each(func(p model.SweepPoint) bool {
		cells = sweepCells(cells[:0], sw, p)
		for i, c := range cells {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
		marked = marked || len(p.AboveCeiling) > 0
		if p.Failure != nil {
			failed++
		}
		if brief {
			line := sweepLineOf(p, cells)
			switch {
			case n < sweepEndRows:
				first = append(first, line)
			case len(last) < sweepEndRows:
				last = append(last, line)
			default:
				last[(n-sweepEndRows)%sweepEndRows] = line
			}
			nums = sweepNumbers(nums[:0], sw, p)
			for i, v := range nums {
				if x := &extremes[i]; v.ok && (!x.set || v.v < x.lo) {
					x.lo, x.low = v.v, line
				}
				if x := &extremes[i]; v.ok && (!x.set || v.v > x.hi) {
					x.hi, x.top, x.set = v.v, line, true
				}
			}
		}
		n++
		return true
	})
	legend := ""
	if failed > 0 {
		legend = ", " + model.Number(float64(failed)).String() + " of them cannot be evaluated"
	}
	if marked {
		legend += " (* a factor above its ceiling)"
	}
	fmt.Fprintf(w, "\nsweep %s over %s: %s%s\n", sw.Name, sw.OverWhat(), model.Number(float64(sw.Points)).Of("point", "points"), legend)
	if err != nil {
		fmt.Fprintf(w, "  (no table: %v)\n", err)
		return
	}
	var b strings.Builder
	row := func(mark string, cells []string) string {
		b.Reset()
		b.WriteString(mark)
		for i, c := range cells {
			b.WriteString("  ")
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)))
			b.WriteString(c)
		}
		return b.String()
	}
	print := func(l sweepLine) {
		line := row(l.mark, l.cells)
		if l.failed != "" {
			line += "  cannot be evaluated: " + l.failed
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, row(" ", heads))
	if brief {
		for _, l := range first {
			print(l)
		}
		fmt.Fprintf(w, "   … %s …\n", model.Number(float64(n-len(first)-len(last))).Of("row more", "rows more"))
		k := 0
		if len(last) == sweepEndRows {
			k = (n - sweepEndRows) % sweepEndRows // the oldest of the ring
		}
		for i := range last {
			print(last[(k+i)%len(last)])
		}
		fmt.Fprintln(w, "  extremes:")
		for i, x := range extremes {
			if !x.set {
				continue
			}
			col := heads[len(sw.Inputs)+i]
			fmt.Fprintf(w, "  lowest %s:\n", col)
			print(x.low)
			fmt.Fprintf(w, "  highest %s:\n", col)
			print(x.top)
		}
		fmt.Fprintf(w, "  every row: gpl run --all, --format json, or gpl table FILE %s\n", sw.Name)
		return
	}
	err = sw.Each(func(p model.SweepPoint) bool {
		cells = sweepCells(cells[:0], sw, p)
		line := row(sweepMark(p), cells)
		if p.Failure != nil {
			line += "  cannot be evaluated: " + p.Failure.Text
		}
		_, err := fmt.Fprintln(w, line)
		return err == nil
	})
	if err != nil {
		fmt.Fprintf(w, "  (the table stops: %v)\n", err)
	}
}

// sweepMark is the mark of a point's row: * when a factor is above its
// ceiling.
func sweepMark(p model.SweepPoint) string {
	if len(p.AboveCeiling) > 0 {
		return "*"
	}
	return " "
}

// sweepLineOf keeps the row of p, whose cells are cells.
func sweepLineOf(p model.SweepPoint, cells []string) sweepLine {
	l := sweepLine{mark: sweepMark(p), cells: append([]string(nil), cells...)}
	if p.Failure != nil {
		l.failed = p.Failure.Text
	}
	return l
}

// sweepNumber is one output column's value at a point, ok when it is a
// defined number.
type sweepNumber struct {
	v  float64
	ok bool
}

// sweepNumbers appends to out the output columns' values at p, in their
// order, for finding the extremes: the show columns' numbers, or mpg,
// useful hours and cost per useful hour (best_lever is text); none at a
// point that cannot be evaluated.
func sweepNumbers(out []sweepNumber, sw model.Sweep, p model.SweepPoint) []sweepNumber {
	switch {
	case p.Failure != nil:
		return out
	case sw.Columns != nil:
		for _, c := range p.Columns {
			a, ok := c.Figure.Amount()
			out = append(out, sweepNumber{a.Base, ok})
		}
		return out
	}
	return append(out, sweepNumber{p.MPG, true}, sweepNumber{p.UsefulHours, true}, sweepNumber{p.CostPerUsefulHour, p.HasCostPerUsefulHour})
}

// sweepCells appends the cells of p's row to cells: the varied inputs,
// then its show columns ("—" where undefined), or else mpg, useful_hours,
// cost_per_useful_hour and best_lever; only the inputs at a point that
// cannot be evaluated.
func sweepCells(cells []string, sw model.Sweep, p model.SweepPoint) []string {
	for _, v := range p.Inputs {
		cells = append(cells, v.Readable())
	}
	switch {
	case p.Failure != nil:
		return cells
	case sw.Columns != nil:
		for _, c := range p.Columns {
			cells = append(cells, c.Figure.Readable())
		}
		return cells
	}
	cpuh := "—"
	if p.HasCostPerUsefulHour {
		cpuh = sw.Price(p.CostPerUsefulHour).String()
	}
	lever := p.BestLever
	if lever == "" {
		lever = "—"
	}
	return append(cells, fix(p.MPG), hoursText(p.UsefulHours), cpuh, lever)
}
