package htmlreport

import (
	"math"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/report"
)

// Chart is one figure as the page draws it: an SVG whose marks carry
// their values, and the same data as a table beneath it.
type Chart struct {
	// ID is the figure's anchor on the page.
	ID string
	// Title names what the chart shows; XLabel and YLabel name its axes
	// with their units.
	Title, XLabel, YLabel string
	Width, Height         float64
	// Areas are drawn first, beneath everything: a colour scale's
	// swatches, the region where a solve's condition holds.
	Areas  []Area
	Marks  []Mark
	Lines  []Line
	Labels []Label
	// Keys is the legend: which class of mark means what.
	Keys []Key
	// Path is a polyline through the points of a line chart, as SVG
	// "x,y x,y" pairs; empty for other charts.
	Path  string
	Table Table
	// Note, when set, is a sentence printed beneath the chart.
	Note string
	// Failed, when it has rows, lists the points of a sweep or the values
	// of a solve that cannot be evaluated, with why, beneath the data.
	Failed Table
}

// Mark is one mark that stands for a value: a bar, a cell, a point.
type Mark struct {
	// Shape is "rect" or "circle".
	Shape string
	// Class says what the mark is ("bar offered", "loss", "cell", "point
	// base") and colours it through the page's CSS.
	Class      string
	X, Y, W, H float64 // rect; for a circle X, Y is the centre and W the radius
	// Name is what the value is of, Value the number in the axis's unit as
	// the data-value attribute gives it, and Text the readable value the
	// mark's <title> shows.
	Name, Value, Text string
	// Fill, when set, overrides the class's colour (heatmap cells).
	Fill string
}

// Area is a filled rectangle that stands for no value of its own: a
// swatch of a colour scale, a band behind the plot. Fill, when set,
// overrides the class's colour.
type Area struct {
	Class      string
	X, Y, W, H float64
	Fill       string
}

// Key is one entry of a chart's legend: a swatch of a mark's class and
// what it means.
type Key struct {
	Class, Text string
	X, Y        float64
}

// legend places keys in a row at the top right of the plot.
func (c *Chart) legend(keys ...[2]string) {
	x := c.Width - marginRight
	for i := len(keys) - 1; i >= 0; i-- {
		x -= float64(len([]rune(keys[i][1])))*6.5 + 22
		c.Keys = append([]Key{{Class: keys[i][0], Text: keys[i][1], X: x, Y: marginTop - 14}}, c.Keys...)
	}
}

// Line is an axis, a grid line, a tick, a target or a ceiling.
type Line struct {
	Class          string
	X1, Y1, X2, Y2 float64
}

// Label is a piece of text on the chart.
type Label struct {
	Class  string
	X, Y   float64
	Anchor string // start, middle or end
	Rotate bool   // vertical, for the y axis's label
	Text   string
}

// Table is a chart's data as the page prints it beneath the chart: a
// list, one row per entry, or with Grid a grid, each row headed by its
// first cell (a heatmap's rows × columns).
type Table struct {
	Caption string
	Head    []string
	Rows    [][]string
	// Marked is the index of the row of the best entry, or -1; in a grid,
	// the row of the marked cell, MarkedCol its column.
	Marked    int
	Grid      bool
	MarkedCol int
}

// Chart geometry, in CSS pixels.
const (
	chartWidth   = 640
	chartHeight  = 320
	marginLeft   = 88
	marginRight  = 24
	marginTop    = 44
	marginBottom = 72
)

// plotArea is the rectangle inside the axes.
type plotArea struct{ left, top, right, bottom float64 }

func newArea(w, h float64) plotArea {
	return plotArea{left: marginLeft, top: marginTop, right: w - marginRight, bottom: h - marginBottom}
}

// tickTexts are the labels of a scale's ticks.
func tickTexts(s scale) []string {
	var out []string
	for _, t := range s.ticks() {
		out = append(out, tickText(t))
	}
	return out
}

// scale maps values of a quantity onto a span of pixels.
type scale struct {
	lo, hi     float64 // data range, in the axis's unit
	from, to   float64 // pixels
	step       float64 // tick step
	unitFactor float64 // base units per axis unit
}

func (s scale) at(v float64) float64 {
	if s.hi == s.lo {
		return (s.from + s.to) / 2
	}
	return s.from + (v-s.lo)/(s.hi-s.lo)*(s.to-s.from)
}

// niceStep is a tick step of 1, 2 or 5 times a power of ten giving about
// n ticks over span.
func niceStep(span float64, n int) float64 {
	if span <= 0 || math.IsInf(span, 0) || math.IsNaN(span) {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// niceScale covers lo..hi (axis units) with round ends; withZero keeps 0
// in range, as bars need.
func niceScale(lo, hi float64, withZero bool, from, to float64) scale {
	if withZero {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	if lo == hi {
		if lo == 0 {
			hi = 1
		} else {
			lo, hi = lo-math.Abs(lo)/2, hi+math.Abs(hi)/2
		}
	}
	step := niceStep(hi-lo, 5)
	return scale{lo: math.Floor(lo/step+1e-9) * step, hi: math.Ceil(hi/step-1e-9) * step, from: from, to: to, step: step, unitFactor: 1}
}

// ticks lists the tick values of a scale.
func (s scale) ticks() []float64 {
	var out []float64
	for i := 0; ; i++ {
		v := s.lo + float64(i)*s.step
		if v > s.hi+s.step*1e-9 || i > 50 {
			return out
		}
		out = append(out, report.Number(v).Clean().Base)
	}
}

// Quantity is what an axis measures: a name in the planner's words and a
// dimension. Values of it are in base units (seconds, USD, USD per second),
// as eval hands them out.
type Quantity struct {
	Name string
	Dim  report.Dim
}

// DeviceHours is the quantity of the waterfall's steps and the losses.
var DeviceHours = Quantity{"device-hours", report.Duration}

// hoursToBase turns device-hours, the goodput engine's unit, into seconds.
func hoursToBase(h float64) float64 { return report.Hours(h).Base }

// priceToBase turns USD per device-hour into USD per second.
func priceToBase(p float64) float64 { return report.PerHour(p).Base }

// axisUnit is the unit an axis over values up to max (base units) is
// drawn in: hours for durations up to hours, USD/h for prices; ok is false
// for a count.
func axisUnit(q Quantity, max float64) (report.Unit, bool) {
	return report.Amount{Base: max, Dim: q.Dim}.Unit()
}

// axisTitle is an axis's label with its unit: "device-hours (h)",
// "cost per useful hour (USD/h)", "mpg".
func axisTitle(q Quantity, max float64) string {
	if u, ok := axisUnit(q, max); ok {
		return q.Name + " (" + u.Symbol + ")"
	}
	return q.Name
}

// inAxisUnit converts a value in base units into the axis's unit.
func inAxisUnit(q Quantity, max, v float64) float64 {
	if u, ok := axisUnit(q, max); ok {
		return u.In(v)
	}
	return v
}

// formatValue prints a value at a report's precision (Amount.Readable),
// with thousands separators: "92,160 h", "26,003 h", "$230,400.00",
// "$8.8605/h", "0.28215", "1,024". The marks' data-value attributes keep
// every digit.
func formatValue(q Quantity, v float64) string {
	return report.Amount{Base: v, Dim: q.Dim}.Readable()
}

// count prints a whole number of things: "1,024".
func count(n int) string { return report.Number(float64(n)).String() }

// number prints a count or a fraction to five significant figures, a
// whole number whole: "0.28215", "0.3439", "1,024".
func number(v float64) string { return report.Number(v).Readable() }

// fraction prints a fraction computed as a difference (a loss, a gain)
// without its float noise, to five significant figures: "0.00891".
func fraction(v float64) string { return report.Number(v).CleanFraction().Readable() }

// tickText prints a tick's number in the axis's unit, without the unit,
// which the axis's label carries: "100,000".
func tickText(v float64) string { return number(v) }

// attrNumber is the data-value of a mark: the number in the axis's unit.
func attrNumber(v float64) string { return report.Number(v).Clean().Plain() }

// valueAxis draws the vertical axis of s with its ticks, grid and label.
func (c *Chart) valueAxis(a plotArea, s scale) {
	c.Lines = append(c.Lines, Line{Class: "axis", X1: a.left, Y1: a.top, X2: a.left, Y2: a.bottom})
	var texts []string
	for _, t := range s.ticks() {
		y := s.at(t)
		c.Lines = append(c.Lines, Line{Class: "grid", X1: a.left, Y1: y, X2: a.right, Y2: y})
		c.Labels = append(c.Labels, Label{Class: "tick", X: a.left - 6, Y: y + 4, Anchor: "end", Text: tickText(t)})
		texts = append(texts, tickText(t))
	}
	c.yAxisLabel(a, texts)
}

// yAxisLabel puts the vertical axis's label left of its tick labels.
func (c *Chart) yAxisLabel(a plotArea, ticks []string) {
	x := math.Min(18, a.left-6-widest(ticks, tickSize)-tickGap)
	c.Labels = append(c.Labels, Label{Class: "axis-label", X: x, Y: (a.top + a.bottom) / 2, Anchor: "middle", Rotate: true, Text: c.YLabel})
}

// Font sizes of the chart's text (page.css), and the room the vertical
// axis's label keeps from its tick labels.
const (
	tickSize  = 12
	noteSize  = 11
	tickGap   = 14
	minMargin = 10 // the axis label's centre from the chart's edge
)

// fitTicks widens the area's left margin, when the widest of the value
// axis's tick labels needs it, so that the labels and the rotated axis
// title left of them never overlap, whatever the magnitude: the title's
// glyphs end at x = 21, and a tick label ends 6 px left of the axis.
func (a *plotArea) fitTicks(ticks []string) {
	a.left = math.Max(a.left, widest(ticks, tickSize)+34)
}

// textWidth is an upper estimate of the width in pixels of text at size
// pixels in the page's fonts (DejaVu Sans is the widest: digits 0.636 em,
// separators and spaces 0.318 em).
func textWidth(text string, size float64) float64 {
	w := 0.0
	for _, r := range text {
		switch {
		case r >= '0' && r <= '9', r == '$':
			w += 0.636
		case r == ',' || r == '.' || r == ' ' || r == ':' || r == ';' || r == 'i' || r == 'l' || r == '|':
			w += 0.318
		default:
			w += 0.7
		}
	}
	return w * size
}

// widest is the width of the widest of texts.
func widest(texts []string, size float64) float64 {
	w := 0.0
	for _, t := range texts {
		w = math.Max(w, textWidth(t, size))
	}
	return w
}

// baseAxis draws the horizontal axis line and its label.
func (c *Chart) baseAxis(a plotArea, y float64) {
	c.Lines = append(c.Lines, Line{Class: "axis", X1: a.left, Y1: y, X2: a.right, Y2: y})
	c.Labels = append(c.Labels, Label{Class: "axis-label", X: (a.left + a.right) / 2, Y: c.Height - 8, Anchor: "middle", Text: c.XLabel})
}

// chartTitle puts the title above the plot.
func (c *Chart) chartTitle() {
	c.Labels = append(c.Labels, Label{Class: "title", X: c.Width / 2, Y: 22, Anchor: "middle", Text: c.Title})
}

// coord prints a pixel coordinate with one decimal, trailing zeros
// dropped: 88, 40.5.
func coord(v float64) string {
	s := strconv.FormatFloat(math.Round(v*10)/10, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		return "0"
	}
	return s
}
