package htmlreport

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/report"
)

// The planning sections: groups, compares, sweeps and solves. Each is a
// small struct a caller fills from eval, and a function that draws it.

// Group is jobs taken together: their summed device-hours and money, and
// what each team owning factors in them loses and could win back.
type Group struct {
	Name string
	Jobs []string
	// HasCost is false when some job has no rate; then the money is 0.
	HasCost bool
	// Offered, Held, Productive and Useful are the summed device-hours;
	// Cost is USD and CostPerUsefulHour USD per useful device-hour.
	Offered, Held, Productive, Useful float64
	Cost, CostPerUsefulHour           float64
	MPG                               float64
	// Owners are the teams, each with the factors it owns.
	Owners []GroupOwner
	// Listed are the group's listed results (report.Group.Listed).
	Listed []report.Metric
}

// GroupOwner is one team's losses and levers across a group's jobs:
// device-hours and USD.
type GroupOwner struct {
	Owner                                  string
	Factors                                []string
	LossHours, LossCost, GainHours, Saving float64
}

// byGroupSaving orders a group's owners by saving, largest first (by the
// device-hours won back when the group has no price), keeping the order
// given between equals.
func byGroupSaving(g Group) []GroupOwner {
	rows := append([]GroupOwner(nil), g.Owners...)
	sort.SliceStable(rows, func(a, b int) bool {
		if g.HasCost {
			return rows[a].Saving > rows[b].Saving
		}
		return rows[a].GainHours > rows[b].GainHours
	})
	return rows
}

// GroupChart draws a group's losses and levers by owner, sorted by
// saving, the best lever (the first owner whose lever wins anything back)
// marked.
func GroupChart(g Group) Chart {
	rows := byGroupSaving(g)
	best := -1
	for i, o := range rows {
		if o.GainHours > 0 {
			best = i
			break
		}
	}
	var groups []barGroup
	for i, o := range rows {
		groups = append(groups, barGroup{Category: o.Owner, Note: strings.Join(o.Factors, ", "), Best: i == best,
			Bars: []bar{
				{Class: "bar loss", Name: "lost to " + o.Owner, High: hoursToBase(o.LossHours)},
				{Class: "bar gain", Name: "won back by " + o.Owner + "'s lever", High: hoursToBase(o.GainHours)},
			}})
	}
	title := "Losses and levers of group " + g.Name + " (" + strings.Join(g.Jobs, ", ") + "), by owner"
	c := barChart("levers-group-"+g.Name, title, "owner (factors), largest saving first; ★ best lever", DeviceHours, groups)
	c.legend([2]string{"bar loss", "lost"}, [2]string{"bar gain", "won back at the ceilings"})
	c.Table = Table{Caption: "Losses and levers of group " + g.Name, Marked: best,
		Head: []string{"owner", "factors", "lost", "cost of the loss", "won back", "saving"}}
	for _, o := range rows {
		lossCost, saving := "—", "—"
		if g.HasCost {
			lossCost, saving = report.USD(o.LossCost).String(), report.USD(o.Saving).String()
		}
		c.Table.Rows = append(c.Table.Rows, []string{o.Owner, strings.Join(o.Factors, ", "),
			formatValue(DeviceHours, hoursToBase(o.LossHours)), lossCost,
			formatValue(DeviceHours, hoursToBase(o.GainHours)), saving})
	}
	return c
}

// sixDigits prints a fraction to six significant digits, as the text
// report prints a group's mpg: 0.282103.
func sixDigits(v float64) string {
	s := strconv.FormatFloat(report.Number(v).Clean().Base, 'g', 6, 64)
	if strings.Contains(s, ".") && !strings.Contains(s, "e") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// GroupFacts are a group's headline figures, printed as the text report
// prints them.
func GroupFacts(g Group) [][2]string {
	h := func(v float64) string { return formatValue(DeviceHours, hoursToBase(v)) }
	out := [][2]string{
		{"jobs", strings.Join(g.Jobs, ", ")},
		{"device-hours", h(g.Offered) + " offered → " + h(g.Held) + " held → " + h(g.Productive) + " productive → " + h(g.Useful) + " useful"},
		{"mpg", sixDigits(g.MPG)},
	}
	if g.HasCost {
		out = append(out, [2]string{"cost", report.USD(g.Cost).String()},
			[2]string{"cost per useful hour", report.PerHour(g.CostPerUsefulHour).String()})
	}
	return listed(out, g.Listed)
}

// CompareEntry is one job of a compare.
type CompareEntry struct {
	Job string
	// CostPerUsefulHour is in USD per device-hour; HasCost is false for a
	// job without a rate. UsefulHours is in device-hours.
	CostPerUsefulHour float64
	HasCost           bool
	UsefulHours       float64
}

// Compare is jobs set side by side.
type Compare struct {
	Name    string
	Entries []CompareEntry
	// Best is the job the compare itself picks, by its result By, the
	// highest when Max, else the lowest; "" when not known.
	Best, By string
	Max      bool
}

// verdict is the compare's own pick, for the charts' notes.
func (cmp Compare) verdict() string {
	if cmp.Best == "" {
		return ""
	}
	order := "lowest"
	if cmp.Max {
		order = "highest"
	}
	return "compare " + cmp.Name + " picks " + cmp.Best + " (" + order + " " + cmp.By + ")."
}

// CompareCharts draws a compare as two bar charts, cost per useful hour
// (lowest marked best) and useful hours (highest marked best).
func CompareCharts(cmp Compare) []Chart {
	cheapest, most := -1, -1
	for i, e := range cmp.Entries {
		if e.HasCost && (cheapest < 0 || e.CostPerUsefulHour < cmp.Entries[cheapest].CostPerUsefulHour) {
			cheapest = i
		}
		if most < 0 || e.UsefulHours > cmp.Entries[most].UsefulHours {
			most = i
		}
	}
	price := Quantity{"cost per useful hour", report.Price}
	var cost, useful []barGroup
	for i, e := range cmp.Entries {
		if e.HasCost {
			cost = append(cost, barGroup{Category: e.Job, Best: i == cheapest,
				Bars: []bar{{Class: "bar cost", Name: e.Job, High: priceToBase(e.CostPerUsefulHour)}}})
		}
		useful = append(useful, barGroup{Category: e.Job, Best: i == most,
			Bars: []bar{{Class: "bar useful", Name: e.Job, High: hoursToBase(e.UsefulHours)}}})
	}
	var out []Chart
	table := func(c *Chart, best int, cell func(CompareEntry) string) {
		c.Table = Table{Caption: c.Title, Head: []string{"job", c.YLabel}, Marked: -1}
		for i, e := range cmp.Entries {
			c.Table.Rows = append(c.Table.Rows, []string{e.Job, cell(e)})
			if i == best {
				c.Table.Marked = i
			}
		}
	}
	if len(cost) > 0 {
		c := barChart("compare-"+cmp.Name+"-cost", "Cost per useful hour, compare "+cmp.Name, "job; ★ cheapest", price, cost)
		c.Note = cmp.verdict()
		table(&c, cheapest, func(e CompareEntry) string {
			if !e.HasCost {
				return "—"
			}
			return formatValue(price, priceToBase(e.CostPerUsefulHour))
		})
		out = append(out, c)
	}
	c := barChart("compare-"+cmp.Name+"-useful", "Useful hours, compare "+cmp.Name, "job; ★ most useful hours", DeviceHours, useful)
	c.Note = cmp.verdict()
	table(&c, most, func(e CompareEntry) string { return formatValue(DeviceHours, hoursToBase(e.UsefulHours)) })
	return append(out, c)
}

// Ref is a reference line on a sweep or solve chart: a ceiling or a
// target. Axis is the index of the input it is drawn across (0 for x, 1
// for y on a heatmap), or -1 for the output.
type Ref struct {
	Axis  int
	At    float64 // base units
	Label string
}

// Sweep is a job evaluated over a grid of one or two varied inputs.
type Sweep struct {
	Name string
	// Inputs are the varied quantities, one or two; Output the result
	// drawn.
	Inputs []Quantity
	Output Quantity
	// Points holds one row per evaluated point: a value for each input,
	// then the output, all in base units.
	Points [][]float64
	// Base is the row of the base job's own point, or nil.
	Base []float64
	// Refs are the ceilings to mark.
	Refs []Ref
	// Note, when set, is printed beneath the chart: that only some of the
	// sweep's points are drawn, say.
	Note string
	// Failed are the points that cannot be evaluated: each its inputs,
	// as "mtbf = 5 min", and why.
	Failed [][2]string
}

// SweepChart draws a sweep: a line chart for one input, a heatmap for two;
// the points that cannot be evaluated are a table of their own.
func SweepChart(sw Sweep) (Chart, error) {
	var c Chart
	switch len(sw.Inputs) {
	case 1:
		c = lineChart("sweep-"+sw.Name, "Sweep "+sw.Name+": "+sw.Output.Name+" by "+sw.Inputs[0].Name,
			sw.Inputs[0], sw.Output, sw.Points, sw.Base, sw.Refs)
	case 2:
		c = heatmap(sw)
	default:
		return Chart{}, fmt.Errorf("sweep %s varies %d inputs; a chart draws one or two", sw.Name, len(sw.Inputs))
	}
	c.Note = sw.Note
	c.failed("Points of sweep "+sw.Name+" that cannot be evaluated", "point", sw.Failed)
	return c, nil
}

// failed sets the chart's table of the points (or values) that cannot
// be evaluated, each with why.
func (c *Chart) failed(caption, what string, rows [][2]string) {
	if len(rows) == 0 {
		return
	}
	c.Failed = Table{Caption: caption, Head: []string{what, "why it cannot be evaluated"}, Marked: -1}
	for _, r := range rows {
		c.Failed.Rows = append(c.Failed.Rows, []string{r[0], r[1]})
	}
}

// Solve is a search for the input value that makes an output reach a
// target: the curve searched, the target and the answer.
type Solve struct {
	Name          string
	Input, Output Quantity
	// Curve holds (input, output) rows, base units, in input order.
	Curve  [][]float64
	Target float64
	// Answer is the (input, output) row found; Found is false when no
	// input reaches the target.
	Answer []float64
	Found  bool
	// Refs are lines besides the target: the job's ceiling for a factor.
	Refs []Ref
	// Note, when set, is printed beneath the chart.
	Note string
	// Failed are the values sampled where the file cannot be evaluated:
	// each the value, as "ckpt_cost = 10 min", and why.
	Failed [][2]string
}

// SolveChart draws the curve with the target line and the answer on it.
func SolveChart(sv Solve) Chart {
	var base []float64
	if sv.Found {
		base = sv.Answer
	}
	refs := append(append([]Ref(nil), sv.Refs...), Ref{Axis: -1, At: sv.Target, Label: "target " + formatValue(sv.Output, sv.Target)})
	c := lineChart("solve-"+sv.Name, "Solve "+sv.Name+": "+sv.Input.Name+" for "+sv.Output.Name+" "+formatValue(sv.Output, sv.Target),
		sv.Input, sv.Output, sv.Curve, base, refs)
	for i := range c.Marks {
		if c.Marks[i].Class == "point base" {
			c.Marks[i].Class = "point answer"
		}
	}
	c.Note = sv.Note
	c.failed("Values of solve "+sv.Name+" where the file cannot be evaluated", "value", sv.Failed)
	return c
}

// lineChart draws rows of (x, y) as points joined by a line, with the
// base row's point marked and the references drawn across.
func lineChart(id, title string, xq, yq Quantity, rows [][]float64, baseRow []float64, refs []Ref) Chart {
	c := Chart{ID: id, Title: title, Width: chartWidth, Height: chartHeight}
	pts := append([][]float64(nil), rows...)
	sort.SliceStable(pts, func(a, b int) bool { return pts[a][0] < pts[b][0] })
	xs, ys := []float64{}, []float64{}
	for _, p := range pts {
		xs, ys = append(xs, p[0]), append(ys, p[1])
	}
	for _, r := range refs {
		if r.Axis == 0 {
			xs = append(xs, r.At)
		} else {
			ys = append(ys, r.At)
		}
	}
	if baseRow != nil {
		xs, ys = append(xs, baseRow[0]), append(ys, baseRow[1])
	}
	xref, yref := maxAbs(xs), maxAbs(ys)
	c.XLabel, c.YLabel = axisTitle(xq, xref), axisTitle(yq, yref)
	a := newArea(c.Width, c.Height)
	xlo, xhi := span(xs, xq, xref)
	ylo, yhi := span(ys, yq, yref)
	sy := niceScale(ylo, yhi, false, a.bottom, a.top)
	a.fitTicks(tickTexts(sy))
	sx := niceScale(xlo, xhi, false, a.left, a.right)
	c.chartTitle()
	c.valueAxis(a, sy)
	c.baseAxis(a, a.bottom)
	for _, t := range sx.ticks() {
		x := sx.at(t)
		c.Lines = append(c.Lines, Line{Class: "tick", X1: x, Y1: a.bottom, X2: x, Y2: a.bottom + 5})
		c.Labels = append(c.Labels, Label{Class: "tick", X: x, Y: a.bottom + 18, Anchor: "middle", Text: tickText(t)})
	}
	for _, r := range refs {
		if r.Axis == 0 {
			x := sx.at(inAxisUnit(xq, xref, r.At))
			c.Lines = append(c.Lines, Line{Class: "ref", X1: x, Y1: a.top, X2: x, Y2: a.bottom})
			lx, anchor := x+4, "start"
			if x > (a.left+a.right)/2 {
				lx, anchor = x-4, "end" // keep the label inside the plot
			}
			c.Labels = append(c.Labels, Label{Class: "ref-label", X: lx, Y: a.top + 12, Anchor: anchor, Text: r.Label})
		} else {
			y := sy.at(inAxisUnit(yq, yref, r.At))
			c.Lines = append(c.Lines, Line{Class: "ref", X1: a.left, Y1: y, X2: a.right, Y2: y})
			// The label goes at the end away from the base point, so the
			// point does not hide it.
			lx, anchor := a.right-4, "end"
			if baseRow != nil && sx.at(inAxisUnit(xq, xref, baseRow[0])) > (a.left+a.right)/2 {
				lx, anchor = a.left+4, "start"
			}
			c.Labels = append(c.Labels, Label{Class: "ref-label", X: lx, Y: y - 5, Anchor: anchor, Text: r.Label})
		}
	}
	path := ""
	for i, p := range pts {
		x, y := sx.at(inAxisUnit(xq, xref, p[0])), sy.at(inAxisUnit(yq, yref, p[1]))
		if i > 0 {
			path += " "
		}
		path += coord(x) + "," + coord(y)
		c.Marks = append(c.Marks, pointMark("point", xq, yq, xref, yref, x, y, p))
	}
	c.Path = path
	if baseRow != nil {
		x, y := sx.at(inAxisUnit(xq, xref, baseRow[0])), sy.at(inAxisUnit(yq, yref, baseRow[1]))
		c.Marks = append(c.Marks, pointMark("point base", xq, yq, xref, yref, x, y, baseRow))
	}
	c.Table = Table{Caption: title, Head: []string{xq.Name, yq.Name}, Marked: -1}
	for i, p := range pts {
		c.Table.Rows = append(c.Table.Rows, []string{formatValue(xq, p[0]), formatValue(yq, p[1])})
		if baseRow != nil && same(p[0], baseRow[0]) && same(p[1], baseRow[1]) {
			c.Table.Marked = i
		}
	}
	return c
}

func pointMark(class string, xq, yq Quantity, xref, yref, x, y float64, p []float64) Mark {
	r := 4.0
	if class != "point" {
		r = 7
	}
	return Mark{Shape: "circle", Class: class, X: x, Y: y, W: r,
		Name:  xq.Name + " " + formatValue(xq, p[0]),
		Value: attrNumber(inAxisUnit(yq, yref, p[1])),
		Text:  xq.Name + " " + formatValue(xq, p[0]) + ": " + yq.Name + " " + formatValue(yq, p[1])}
}

func maxAbs(vs []float64) float64 {
	m := 0.0
	for _, v := range vs {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// span is the range of values in the axis's unit.
func span(vs []float64, q Quantity, ref float64) (float64, float64) {
	if len(vs) == 0 {
		return 0, 1
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		u := inAxisUnit(q, ref, v)
		lo, hi = math.Min(lo, u), math.Max(hi, u)
	}
	return lo, hi
}

// heatmap draws a two-input sweep as a grid of cells shaded by the output.
func heatmap(sw Sweep) Chart {
	title := "Sweep " + sw.Name + ": " + sw.Output.Name + " by " + sw.Inputs[0].Name + " and " + sw.Inputs[1].Name
	c := Chart{ID: "sweep-" + sw.Name, Title: title, Width: chartWidth, Height: chartHeight + 40}
	xv, yv := distinct(sw.Points, 0), distinct(sw.Points, 1)
	c.XLabel = axisTitle(sw.Inputs[0], maxAbs(xv))
	c.YLabel = axisTitle(sw.Inputs[1], maxAbs(yv))
	a := newArea(c.Width, c.Height)
	outs := make([]float64, len(sw.Points))
	for i, p := range sw.Points {
		outs[i] = p[2]
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range outs {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	var yTexts []string
	for _, y := range yv {
		yTexts = append(yTexts, tickText(inAxisUnit(sw.Inputs[1], maxAbs(yv), y)))
	}
	a.fitTicks(yTexts)
	cw := (a.right - a.left) / float64(max(len(xv), 1))
	ch := (a.bottom - a.top) / float64(max(len(yv), 1))
	c.chartTitle()
	c.Lines = append(c.Lines, Line{Class: "axis", X1: a.left, Y1: a.top, X2: a.left, Y2: a.bottom})
	c.baseAxis(a, a.bottom)
	c.Labels = append(c.Labels, Label{Class: "axis-label", X: 18, Y: (a.top + a.bottom) / 2, Anchor: "middle", Rotate: true, Text: c.YLabel})
	xEvery, yEvery := labelEvery(len(xv), cw, 48), labelEvery(len(yv), ch, 16)
	for i, x := range xv {
		if i%xEvery != 0 {
			continue
		}
		c.Labels = append(c.Labels, Label{Class: "tick", X: a.left + cw*(float64(i)+0.5), Y: a.bottom + 18, Anchor: "middle",
			Text: tickText(inAxisUnit(sw.Inputs[0], maxAbs(xv), x))})
	}
	for j, y := range yv {
		if j%yEvery != 0 {
			continue
		}
		c.Labels = append(c.Labels, Label{Class: "tick", X: a.left - 6, Y: a.bottom - ch*(float64(j)+0.5) + 4, Anchor: "end",
			Text: tickText(inAxisUnit(sw.Inputs[1], maxAbs(yv), y))})
	}
	ref := math.Max(math.Abs(lo), math.Abs(hi))
	onGrid := false
	for _, p := range sw.Points {
		i, j := indexOf(xv, p[0]), indexOf(yv, p[1])
		class := "cell"
		if sw.Base != nil && same(p[0], sw.Base[0]) && same(p[1], sw.Base[1]) {
			class, onGrid = "cell base", true
		}
		t := 0.0
		if hi > lo {
			t = (p[2] - lo) / (hi - lo)
		}
		text := sw.Inputs[0].Name + " " + formatValue(sw.Inputs[0], p[0]) + ", " + sw.Inputs[1].Name + " " +
			formatValue(sw.Inputs[1], p[1]) + ": " + sw.Output.Name + " " + formatValue(sw.Output, p[2])
		m := Mark{Shape: "rect", Class: class, X: a.left + cw*float64(i), Y: a.bottom - ch*float64(j+1), W: cw, H: ch,
			Name:  sw.Inputs[0].Name + " " + formatValue(sw.Inputs[0], p[0]) + ", " + sw.Inputs[1].Name + " " + formatValue(sw.Inputs[1], p[1]),
			Value: attrNumber(inAxisUnit(sw.Output, ref, p[2])), Text: text, Fill: shade(t)}
		c.Marks = append(c.Marks, m)
		ink := "cell-value"
		if t > 0.5 { // the deep half of shade's ramp: white ink
			ink = "cell-value dark"
		}
		if text := tickText(inAxisUnit(sw.Output, ref, p[2])); float64(len(text))*6.5 < cw-4 && ch >= 16 {
			c.Labels = append(c.Labels, Label{Class: ink, X: m.X + cw/2, Y: m.Y + ch/2 + 4, Anchor: "middle", Text: text})
		}
	}
	if sw.Base != nil && !onGrid && len(sw.Base) == 3 {
		// The base job's point between the cells: a circle where it falls.
		x := a.left + cw*(position(xv, sw.Base[0])+0.5)
		y := a.bottom - ch*(position(yv, sw.Base[1])+0.5)
		text := "base job: " + sw.Inputs[0].Name + " " + formatValue(sw.Inputs[0], sw.Base[0]) + ", " + sw.Inputs[1].Name + " " +
			formatValue(sw.Inputs[1], sw.Base[1]) + ": " + sw.Output.Name + " " + formatValue(sw.Output, sw.Base[2])
		c.Marks = append(c.Marks, Mark{Shape: "circle", Class: "point base", X: x, Y: y, W: 7,
			Name:  sw.Inputs[0].Name + " " + formatValue(sw.Inputs[0], sw.Base[0]) + ", " + sw.Inputs[1].Name + " " + formatValue(sw.Inputs[1], sw.Base[1]),
			Value: attrNumber(inAxisUnit(sw.Output, ref, sw.Base[2])), Text: text})
	}
	for _, r := range sw.Refs {
		switch r.Axis {
		case 0:
			x := a.left + cw*(position(xv, r.At)+0.5)
			c.Lines = append(c.Lines, Line{Class: "ref", X1: x, Y1: a.top, X2: x, Y2: a.bottom})
			lx, anchor := x+4, "start"
			if x > (a.left+a.right)/2 {
				lx, anchor = x-4, "end" // keep the label inside the chart
			}
			c.Labels = append(c.Labels, Label{Class: "ref-label", X: lx, Y: a.top - 4, Anchor: anchor, Text: r.Label})
		case 1:
			y := a.bottom - ch*(position(yv, r.At)+0.5)
			c.Lines = append(c.Lines, Line{Class: "ref", X1: a.left, Y1: y, X2: a.right, Y2: y})
			c.Labels = append(c.Labels, Label{Class: "ref-label", X: a.right - 4, Y: y - 5, Anchor: "end", Text: r.Label})
		}
	}
	unit := ""
	if u, ok := axisUnit(sw.Output, ref); ok {
		unit = " (" + u.Symbol + ")"
	}
	c.Labels = append(c.Labels, Label{Class: "note", X: a.right, Y: c.Height - 12, Anchor: "end",
		Text: "cells: " + sw.Output.Name + unit + ", darker is more"})
	c.Table = Table{Caption: title, Head: []string{sw.Inputs[0].Name, sw.Inputs[1].Name, sw.Output.Name}, Marked: -1}
	for k, p := range sw.Points {
		c.Table.Rows = append(c.Table.Rows, []string{formatValue(sw.Inputs[0], p[0]), formatValue(sw.Inputs[1], p[1]), formatValue(sw.Output, p[2])})
		if sw.Base != nil && same(p[0], sw.Base[0]) && same(p[1], sw.Base[1]) {
			c.Table.Marked = k
		}
	}
	return c
}

// distinct lists the distinct values of one column, ascending.
func distinct(rows [][]float64, col int) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, r := range rows {
		if !seen[r[col]] {
			seen[r[col]] = true
			out = append(out, r[col])
		}
	}
	sort.Float64s(out)
	return out
}

// same says whether two inputs' values are one: equal to 12 significant
// digits, as from + 2 × step and the value written may differ in the last
// bits.
func same(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// labelEvery is how many values apart the axis labels of cells size
// pixels wide (or high) must be to keep need pixels each.
func labelEvery(n int, size, need float64) int {
	if size <= 0 || n == 0 {
		return 1
	}
	return max(1, int(math.Ceil(need/size)))
}

func indexOf(vs []float64, v float64) int {
	return sort.SearchFloat64s(vs, v)
}

// position is where v falls among the sorted cell values, in cells, by
// linear interpolation between neighbours (a ceiling between two columns).
func position(vs []float64, v float64) float64 {
	if len(vs) < 2 {
		return 0
	}
	i := sort.SearchFloat64s(vs, v)
	switch {
	case i == 0:
		return 0
	case i >= len(vs):
		return float64(len(vs) - 1)
	}
	return float64(i-1) + (v-vs[i-1])/(vs[i]-vs[i-1])
}

// shade is the colour of a cell at t in [0, 1], from pale to deep blue,
// in two halves so that every cell's value reads at 4.5:1 or more: up to
// 0.5 from #eef3fa to #7b9cc7 (dark ink, 5.6:1 at least), above it from
// #4271ae to #08306b (white ink, 5.0:1 at least). Darker is more.
func shade(t float64) string {
	from, to := [3]int{0xee, 0xf3, 0xfa}, [3]int{0x7b, 0x9c, 0xc7}
	u := t * 2
	if t > 0.5 {
		from, to, u = [3]int{0x42, 0x71, 0xae}, [3]int{0x08, 0x30, 0x6b}, (t-0.5)*2
	}
	lerp := func(i int) string { return hex2(from[i] + int(math.Round(u*float64(to[i]-from[i])))) }
	return "#" + lerp(0) + lerp(1) + lerp(2)
}

func hex2(v int) string {
	s := strconv.FormatInt(int64(v), 16)
	if len(s) < 2 {
		s = "0" + s
	}
	return s
}
