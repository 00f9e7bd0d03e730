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
	// Currency is the code of the currency of its money ("" for USD).
	Currency string
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
			lossCost, saving = report.Cash(o.LossCost, g.Currency).String(), report.Cash(o.Saving, g.Currency).String()
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
		out = append(out, [2]string{"cost", report.Cash(g.Cost, g.Currency).String()},
			[2]string{"cost per useful hour", report.PriceOf(g.CostPerUsefulHour, g.Currency).String()})
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
	// Currency is the code of the currency of its jobs' money ("" for
	// USD).
	Currency string
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
	price := Quantity{"cost per useful hour", report.PriceOf(0, cmp.Currency).Dim}
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
	c.Note = strings.TrimSpace(sw.Note + " " + c.Note)
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
	Curve [][]float64
	// Op is the condition's comparison of the output with Target: >=, >,
	// <=, < or ==.
	Op     string
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

// opSigns are the comparisons as a reader writes them.
var opSigns = map[string]string{">=": "≥", ">": ">", "<=": "≤", "<": "<", "==": "="}

// SolveChart draws the curve with the target and the answer on it. The
// target is a line of its own across the plot, labelled with the
// condition ("target: useful hours ≥ 30,000 h"), the side of it where
// the condition holds shaded; the answer is the open circle on the curve,
// with a line down to the input axis and its value beside it. The table
// has the answer among the curve's rows, highlighted.
func SolveChart(sv Solve) Chart {
	var base []float64
	if sv.Found {
		base = sv.Answer
	}
	title := "Solve " + sv.Name + ": " + sv.Input.Name + " for " + sv.Output.Name + " " + formatValue(sv.Output, sv.Target)
	p := linePlot("solve-"+sv.Name, title, sv.Input, sv.Output, sv.Curve, base, sv.Refs, []float64{sv.Target})
	c, a := p.Chart, p.area
	for i := range c.Marks {
		if c.Marks[i].Class == "point base" {
			c.Marks[i].Class = "point answer"
		}
	}
	// The target, and where its condition holds.
	y := p.sy.at(inAxisUnit(sv.Output, p.yref, sv.Target))
	switch sv.Op {
	case ">=", ">":
		c.Areas = append(c.Areas, Area{Class: "target-zone", X: a.left, Y: a.top, W: a.right - a.left, H: y - a.top})
	case "<=", "<":
		c.Areas = append(c.Areas, Area{Class: "target-zone", X: a.left, Y: y, W: a.right - a.left, H: a.bottom - y})
	}
	c.Lines = append(c.Lines, Line{Class: "target", X1: a.left, Y1: y, X2: a.right, Y2: y})
	op := opSigns[sv.Op]
	if op == "" {
		op = sv.Op
	}
	// The label goes at the end away from the answer, above the line.
	lx, anchor := a.right-4, "end"
	if sv.Found && p.sx.at(inAxisUnit(sv.Input, p.xref, sv.Answer[0])) > (a.left+a.right)/2 {
		lx, anchor = a.left+4, "start"
	}
	c.Labels = append(c.Labels, Label{Class: "target-label", X: lx, Y: y - 6, Anchor: anchor,
		Text: "target: " + sv.Output.Name + " " + op + " " + formatValue(sv.Output, sv.Target)})
	if sv.Found {
		x, ay := p.sx.at(inAxisUnit(sv.Input, p.xref, sv.Answer[0])), p.sy.at(inAxisUnit(sv.Output, p.yref, sv.Answer[1]))
		c.Lines = append(c.Lines, Line{Class: "answer-line", X1: x, Y1: ay, X2: x, Y2: a.bottom})
		lx, anchor := x+5, "start"
		if x > (a.left+a.right)/2 {
			lx, anchor = x-5, "end"
		}
		c.Labels = append(c.Labels, Label{Class: "answer-label", X: lx, Y: a.bottom - 8, Anchor: anchor,
			Text: "answer: " + sv.Input.Name + " " + formatValue(sv.Input, sv.Answer[0])})
		// The answer among the curve's rows, in input order.
		row := []string{formatValue(sv.Input, sv.Answer[0]), formatValue(sv.Output, sv.Answer[1])}
		at := len(c.Table.Rows)
		for k, q := range p.rows {
			if same(q[0], sv.Answer[0]) {
				at = -1
				c.Table.Marked = k
				break
			}
			if q[0] > sv.Answer[0] {
				at = k
				break
			}
		}
		if at >= 0 {
			c.Table.Rows = append(c.Table.Rows[:at], append([][]string{row}, c.Table.Rows[at:]...)...)
			c.Table.Marked = at
		}
	}
	c.Table.Head = []string{sv.Input.Name, sv.Output.Name}
	c.Note = sv.Note
	c.failed("Values of solve "+sv.Name+" where the file cannot be evaluated", "value", sv.Failed)
	return c
}

// plot is a line chart with the geometry its marks were placed by, for
// what a caller draws on it.
type plot struct {
	Chart
	area       plotArea
	sx, sy     scale
	xref, yref float64
	rows       [][]float64 // the rows drawn, in input order
}

// lineChart draws rows of (x, y) as points joined by a line, with the
// base row's point marked and the references drawn across.
func lineChart(id, title string, xq, yq Quantity, rows [][]float64, baseRow []float64, refs []Ref) Chart {
	return linePlot(id, title, xq, yq, rows, baseRow, refs, nil).Chart
}

// linePlot is lineChart, the output's scale also covering alsoY (base
// units).
func linePlot(id, title string, xq, yq Quantity, rows [][]float64, baseRow []float64, refs []Ref, alsoY []float64) plot {
	c := Chart{ID: id, Title: title, Width: chartWidth, Height: chartHeight}
	pts := append([][]float64(nil), rows...)
	sort.SliceStable(pts, func(a, b int) bool { return pts[a][0] < pts[b][0] })
	xs, ys := []float64{}, append([]float64(nil), alsoY...)
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
	var yTicks []string
	for _, t := range niceScale(ylo, yhi, false, 0, 1).ticks() {
		yTicks = append(yTicks, tickText(t))
	}
	a.fitTicks(yTicks)
	sx := niceScale(xlo, xhi, false, a.left, a.right)
	sy := niceScale(ylo, yhi, false, a.bottom, a.top)
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
	return plot{Chart: c, area: a, sx: sx, sy: sy, xref: xref, yref: yref, rows: pts}
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

// Heatmap geometry: the colour scale's gap from the grid, its width and
// how many swatches it is drawn with, its ticks' length and their labels'
// gap; the room a cell's label keeps from the cell's sides.
const (
	scaleGap    = 18
	scaleWidth  = 14
	scaleSteps  = 40
	scaleTick   = 4
	scaleLabel  = 3
	cellPadding = 6
)

// heatmap draws a two-input sweep as a grid of cells shaded by the output,
// with a colour scale whose ticks give the output's values. Each cell
// shows its value when every cell's fits (rounded to 3 significant digits
// when only that fits), or none does. The table beneath is the same grid:
// a row per value of the second input, as drawn (the highest first), a
// column per value of the first.
func heatmap(sw Sweep) Chart {
	xq, yq, oq := sw.Inputs[0], sw.Inputs[1], sw.Output
	title := "Sweep " + sw.Name + ": " + oq.Name + " by " + xq.Name + " and " + yq.Name
	c := Chart{ID: "sweep-" + sw.Name, Title: title, Width: chartWidth, Height: chartHeight + 40}
	xv, yv := distinct(sw.Points, 0), distinct(sw.Points, 1)
	xref, yref := maxAbs(xv), maxAbs(yv)
	c.XLabel, c.YLabel = axisTitle(xq, xref), axisTitle(yq, yref)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range sw.Points {
		lo, hi = math.Min(lo, p[2]), math.Max(hi, p[2])
	}
	ref := math.Max(math.Abs(lo), math.Abs(hi))
	var xTicks, yTicks []string
	for _, x := range xv {
		xTicks = append(xTicks, tickText(inAxisUnit(xq, xref, x)))
	}
	for _, y := range yv {
		yTicks = append(yTicks, tickText(inAxisUnit(yq, yref, y)))
	}
	a := newArea(c.Width, c.Height)
	scale := scaleTicks(oq, ref, lo, hi)
	var scaleTexts []string
	for _, t := range scale {
		scaleTexts = append(scaleTexts, tickText(t))
	}
	a.right -= scaleGap + scaleWidth + scaleTick + scaleLabel + widest(scaleTexts, noteSize)
	a.fitTicks(yTicks)
	cw := (a.right - a.left) / float64(max(len(xv), 1))
	ch := (a.bottom - a.top) / float64(max(len(yv), 1))
	c.chartTitle()
	c.Lines = append(c.Lines, Line{Class: "axis", X1: a.left, Y1: a.top, X2: a.left, Y2: a.bottom})
	c.baseAxis(a, a.bottom)
	c.Labels[len(c.Labels)-1].Y = c.Height - 26 // the legend's line goes beneath
	c.yAxisLabel(a, yTicks)
	xEvery, yEvery := labelEvery(len(xv), cw, widest(xTicks, tickSize)+8), labelEvery(len(yv), ch, 16)
	for i, text := range xTicks {
		if i%xEvery == 0 {
			c.Labels = append(c.Labels, Label{Class: "tick", X: a.left + cw*(float64(i)+0.5), Y: a.bottom + 18, Anchor: "middle", Text: text})
		}
	}
	for j, text := range yTicks {
		if j%yEvery == 0 {
			c.Labels = append(c.Labels, Label{Class: "tick", X: a.left - 6, Y: a.bottom - ch*(float64(j)+0.5) + 4, Anchor: "end", Text: text})
		}
	}
	shadeOf := func(v float64) float64 {
		if hi > lo {
			return (v - lo) / (hi - lo)
		}
		return 0
	}
	texts, rounded := cellTexts(sw.Points, oq, ref, cw, ch)
	onGrid := false
	grid := make([][]string, len(yv))
	for j := range grid {
		grid[j] = make([]string, len(xv))
		for i := range grid[j] {
			grid[j][i] = "—"
		}
	}
	marked := [2]int{-1, -1}
	for k, p := range sw.Points {
		i, j := indexOf(xv, p[0]), indexOf(yv, p[1])
		grid[j][i] = formatValue(oq, p[2])
		class := "cell"
		if sw.Base != nil && same(p[0], sw.Base[0]) && same(p[1], sw.Base[1]) {
			class, onGrid, marked = "cell base", true, [2]int{j, i}
		}
		t := shadeOf(p[2])
		at := xq.Name + " " + formatValue(xq, p[0]) + ", " + yq.Name + " " + formatValue(yq, p[1])
		m := Mark{Shape: "rect", Class: class, X: a.left + cw*float64(i), Y: a.bottom - ch*float64(j+1), W: cw, H: ch,
			Name: at, Value: attrNumber(inAxisUnit(oq, ref, p[2])), Text: at + ": " + oq.Name + " " + formatValue(oq, p[2]), Fill: shade(t)}
		c.Marks = append(c.Marks, m)
		if texts != nil {
			ink := "cell-value"
			if t > 0.5 { // the deep half of shade's ramp: white ink
				ink = "cell-value dark"
			}
			c.Labels = append(c.Labels, Label{Class: ink, X: m.X + cw/2, Y: m.Y + ch/2 + 4, Anchor: "middle", Text: texts[k]})
		}
	}
	if sw.Base != nil && !onGrid && len(sw.Base) == 3 {
		// The base job's point between the cells: a circle where it falls.
		x := a.left + cw*(position(xv, sw.Base[0])+0.5)
		y := a.bottom - ch*(position(yv, sw.Base[1])+0.5)
		at := xq.Name + " " + formatValue(xq, sw.Base[0]) + ", " + yq.Name + " " + formatValue(yq, sw.Base[1])
		c.Marks = append(c.Marks, Mark{Shape: "circle", Class: "point base", X: x, Y: y, W: 7,
			Name: at, Value: attrNumber(inAxisUnit(oq, ref, sw.Base[2])), Text: "base job: " + at + ": " + oq.Name + " " + formatValue(oq, sw.Base[2])})
	}
	var across []string
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
			if texts == nil {
				c.Labels = append(c.Labels, Label{Class: "ref-label", X: a.right - 4, Y: y - 5, Anchor: "end", Text: r.Label})
			} else {
				across = append(across, r.Label) // over the cells' labels it would hide some: in the legend
			}
		}
	}
	if len(across) > 0 {
		c.Labels = append(c.Labels, Label{Class: "ref-label", X: a.left, Y: c.Height - 8, Anchor: "start",
			Text: "dashed across: " + strings.Join(across, ", ")})
	}
	c.colourScale(a, oq, ref, lo, hi, scale)
	if rounded {
		c.Note = "Each cell's value is rounded to 3 significant digits; the table below has each in full."
	}
	c.Table = Table{Caption: title + " (rows: " + yq.Name + ", columns: " + xq.Name + ")",
		Head: []string{yq.Name + " \\ " + xq.Name}, Grid: true, Marked: -1, MarkedCol: -1}
	for _, text := range xv {
		c.Table.Head = append(c.Table.Head, formatValue(xq, text))
	}
	for j := len(yv) - 1; j >= 0; j-- { // as drawn: the highest value on top
		c.Table.Rows = append(c.Table.Rows, append([]string{formatValue(yq, yv[j])}, grid[j]...))
		if marked[0] == j {
			c.Table.Marked, c.Table.MarkedCol = len(c.Table.Rows)-1, marked[1]+1
		}
	}
	return c
}

// cellTexts are the labels of a heatmap's cells, in the order of points:
// each value as the text report prints it when every one fits its cell,
// else each rounded to 3 significant digits when every one of those fits
// (rounded is true), else nil: a grid with some cells labelled would read
// as though the others had no value.
func cellTexts(points [][]float64, q Quantity, ref, cw, ch float64) (texts []string, rounded bool) {
	if ch < 16 {
		return nil, false
	}
	for _, round := range []bool{false, true} {
		texts = texts[:0]
		fits := true
		for _, p := range points {
			v := inAxisUnit(q, ref, p[2])
			if round {
				v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
			}
			t := tickText(v)
			fits = fits && textWidth(t, noteSize) <= cw-cellPadding
			texts = append(texts, t)
		}
		if fits {
			return texts, round
		}
	}
	return nil, false
}

// scaleTicks are the values a heatmap's colour scale labels, in the
// output's axis unit: the round values within lo..hi (base units), or lo
// and hi themselves when fewer than two round values fall within.
func scaleTicks(q Quantity, ref, lo, hi float64) []float64 {
	ulo, uhi := inAxisUnit(q, ref, lo), inAxisUnit(q, ref, hi)
	if uhi == ulo {
		return []float64{ulo}
	}
	var ticks []float64
	for _, t := range niceScale(ulo, uhi, false, 0, 1).ticks() {
		if t >= ulo-1e-9*math.Abs(ulo) && t <= uhi+1e-9*math.Abs(uhi) {
			ticks = append(ticks, t)
		}
	}
	if len(ticks) < 2 {
		return []float64{ulo, uhi}
	}
	return ticks
}

// colourScale draws the scale of a heatmap's shades right of the grid: a
// bar of swatches from lo (at the bottom) to hi, the ticks (in the
// output's axis unit) labelled, and what the colour stands for beneath.
func (c *Chart) colourScale(a plotArea, q Quantity, ref, lo, hi float64, ticks []float64) {
	x := a.right + scaleGap
	h := a.bottom - a.top
	for k := range scaleSteps {
		t := (float64(k) + 0.5) / scaleSteps
		if hi == lo {
			t = 0
		}
		c.Areas = append(c.Areas, Area{Class: "swatch", X: x, Y: a.bottom - h*float64(k+1)/scaleSteps, W: scaleWidth, H: h / scaleSteps, Fill: shade(t)})
	}
	c.Areas = append(c.Areas, Area{Class: "scale-frame", X: x, Y: a.top, W: scaleWidth, H: h})
	ulo, uhi := inAxisUnit(q, ref, lo), inAxisUnit(q, ref, hi)
	for _, t := range ticks {
		y := a.bottom
		if uhi > ulo {
			y = a.bottom - h*(t-ulo)/(uhi-ulo)
		}
		c.Lines = append(c.Lines, Line{Class: "scale-tick", X1: x + scaleWidth, Y1: y, X2: x + scaleWidth + scaleTick, Y2: y})
		c.Labels = append(c.Labels, Label{Class: "scale-label", X: x + scaleWidth + scaleTick + scaleLabel, Y: y + 4, Anchor: "start", Text: tickText(t)})
	}
	unit := ""
	if u, ok := axisUnit(q, ref); ok {
		unit = " (" + u.Symbol + ")"
	}
	c.Labels = append(c.Labels, Label{Class: "note", X: c.Width - marginRight, Y: c.Height - 8, Anchor: "end",
		Text: "colour: " + q.Name + unit + ", darker is more"})
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
