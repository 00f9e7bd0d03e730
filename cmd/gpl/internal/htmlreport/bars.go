package htmlreport

import "math"

// barGroup is one category on a bar chart's horizontal axis: its label, an
// optional second line, and its bars side by side (or stacked).
type barGroup struct {
	// Note and Note2 are printed on the lines below the category.
	Category, Note, Note2 string
	Best                  bool
	Bars                  []bar
}

// bar is one bar from Low to High, in base units of the chart's quantity.
type bar struct {
	Class, Name string
	Low, High   float64
	// Stack draws the bar in the previous bar's slot (a waterfall's loss
	// above its step).
	Stack bool
	// Show prints the bar's value inside its top.
	Show bool
}

// barChart lays out grouped bars over a value axis that starts at 0.
func barChart(id, title, xLabel string, q Quantity, groups []barGroup) Chart {
	c := Chart{ID: id, Title: title, XLabel: xLabel, Width: chartWidth, Height: chartHeight}
	maxV, minV := 0.0, 0.0
	for _, g := range groups {
		for _, b := range g.Bars {
			maxV, minV = math.Max(maxV, b.High), math.Min(minV, b.Low)
		}
	}
	ref := math.Max(math.Abs(maxV), math.Abs(minV))
	c.YLabel = axisTitle(q, ref)
	a := newArea(c.Width, c.Height)
	s := niceScale(inAxisUnit(q, ref, minV), inAxisUnit(q, ref, maxV), true, a.bottom, a.top)
	a.fitTicks(tickTexts(s))
	c.chartTitle()
	c.valueAxis(a, s)
	slotW := (a.right - a.left) / float64(max(len(groups), 1))
	for i, g := range groups {
		slots := 0
		for _, b := range g.Bars {
			if !b.Stack {
				slots++
			}
		}
		barW := math.Min(slotW*0.7/float64(max(slots, 1)), 72)
		x0 := a.left + slotW*float64(i) + (slotW-barW*float64(slots))/2
		k := -1
		for _, b := range g.Bars {
			if !b.Stack {
				k++
			}
			lo, hi := inAxisUnit(q, ref, b.Low), inAxisUnit(q, ref, b.High)
			y1, y2 := s.at(hi), s.at(lo)
			c.Marks = append(c.Marks, Mark{Shape: "rect", Class: b.Class,
				X: x0 + barW*float64(k), Y: math.Min(y1, y2), W: barW, H: math.Abs(y2 - y1),
				Name: b.Name, Value: attrNumber(hi - lo), Text: b.Name + ": " + formatValue(q, b.High-b.Low)})
			if text := tickText(hi - lo); b.Show && math.Abs(y2-y1) > 20 && float64(len(text))*6.8 < barW-4 {
				c.Labels = append(c.Labels, Label{Class: "bar-value", X: x0 + barW*(float64(k)+0.5), Y: math.Min(y1, y2) + 15,
					Anchor: "middle", Text: text})
			}
		}
		cx := a.left + slotW*(float64(i)+0.5)
		cat := g.Category
		if g.Best {
			cat = "★ " + cat
		}
		c.Labels = append(c.Labels, Label{Class: "category", X: cx, Y: a.bottom + 16, Anchor: "middle", Text: cat})
		if g.Note != "" {
			c.Labels = append(c.Labels, Label{Class: "note", X: cx, Y: a.bottom + 30, Anchor: "middle", Text: g.Note})
		}
		if g.Note2 != "" {
			c.Labels = append(c.Labels, Label{Class: "note", X: cx, Y: a.bottom + 43, Anchor: "middle", Text: g.Note2})
		}
	}
	c.baseAxis(a, s.at(0))
	return c
}
