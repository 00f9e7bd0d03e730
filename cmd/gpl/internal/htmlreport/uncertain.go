package htmlreport

import (
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/report"
)

// This file draws an uncertain file's charts (language.md §23): a
// histogram of each uncertain headline result over the samples, and a
// tornado chart of how much of its spread each uncertain input explains.

// maxUncertainCharts is how many uncertain results the page draws; the
// rest are in gpl run --format json.
const maxUncertainCharts = 24

// histogramBins is how many equal bins a histogram has.
const histogramBins = 20

// Uncertain is the page's section of an uncertain file: its sampling, and
// a histogram and a tornado chart per result drawn.
type Uncertain struct {
	Samples int
	Seed    uint64
	Charts  []Chart
	// Omitted counts the results not drawn (over maxUncertainCharts).
	Omitted int
}

// uncertainOf fills the section from the model; nil for a file without a
// distribution.
func uncertainOf(m *report.File) *Uncertain {
	u := m.Uncertainty
	if u == nil || len(u.Results) == 0 {
		return nil
	}
	out := &Uncertain{Samples: u.Samples, Seed: u.Seed}
	for i := range u.Results {
		r := &u.Results[i]
		if i == maxUncertainCharts {
			out.Omitted = len(u.Results) - i
			break
		}
		q := Quantity{r.Name, r.Dim}
		out.Charts = append(out.Charts, Histogram("hist-"+r.Name, r.Name, q, r.Samples(), r.Text))
		if !strings.Contains(r.Name, ".") {
			continue // an input: all of its spread is its own
		}
		if bars := m.Tornado(r.Name); len(bars) > 0 {
			out.Charts = append(out.Charts, TornadoChart("tornado-"+r.Name, r.Name, q, bars))
		}
	}
	return out
}

// Histogram draws sorted samples of quantity q in histogramBins equal
// bins between the least and the greatest, with the bins as its table.
func Histogram(id, name string, q Quantity, sorted []float64, summary string) Chart {
	lo, hi := 0.0, 0.0
	if len(sorted) > 0 {
		lo, hi = sorted[0], sorted[len(sorted)-1]
	}
	width := (hi - lo) / histogramBins
	counts := make([]int, histogramBins)
	for _, x := range sorted {
		k := histogramBins - 1
		if width > 0 {
			k = min(int((x-lo)/width), histogramBins-1)
		}
		counts[k]++
	}
	var groups []barGroup
	for k, n := range counts {
		g := barGroup{Bars: []bar{{Class: "bar", Name: binText(q, lo, width, k), High: float64(n)}}}
		if k%5 == 0 {
			g.Category = formatValue(q, lo+width*float64(k))
		}
		groups = append(groups, g)
	}
	c := barChart(id, "Distribution of "+name+" over "+count(len(sorted))+" samples", name+": "+summary, Quantity{"samples", report.Count}, groups)
	c.Table = Table{Caption: "Distribution of " + name, Marked: -1, Head: []string{"bin of " + name, "samples"}}
	for k, n := range counts {
		c.Table.Rows = append(c.Table.Rows, []string{binText(q, lo, width, k), strconv.Itoa(n)})
	}
	return c
}

func binText(q Quantity, lo, width float64, k int) string {
	return formatValue(q, lo+width*float64(k)) + " – " + formatValue(q, lo+width*float64(k+1))
}

// TornadoChart draws, per uncertain input, the 90% interval of the result
// when only that input varies: the widest bar is the input that explains
// most of the spread.
func TornadoChart(id, name string, q Quantity, bars []report.TornadoBar) Chart {
	var groups []barGroup
	for _, b := range bars {
		groups = append(groups, barGroup{Category: b.Input, Bars: []bar{{Class: "bar", Name: b.Input, Low: b.P5, High: b.P95}}})
	}
	c := barChart(id, "What the spread of "+name+" comes from", "uncertain input (the others at their medians)", q, groups)
	c.Note = "Each bar is the 90% interval of " + name + " when only that input varies; the widest explains most of the spread."
	c.Table = Table{Caption: "Spread of " + name + " by input", Marked: -1, Head: []string{"input", "p5", "p95", "spread"}}
	for _, b := range bars {
		c.Table.Rows = append(c.Table.Rows, []string{b.Input, formatValue(q, b.P5), formatValue(q, b.P95), formatValue(q, b.P95-b.P5)})
	}
	return c
}
