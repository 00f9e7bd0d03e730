package htmlreport

import (
	"testing"

	"github.com/gpl-lang/gpl/eval/report"
)

// TestHistogram: every sample falls in one of the bins, the greatest in
// the last, and the table lists each bin.
func TestHistogram(t *testing.T) {
	xs := []float64{1, 1.5, 2, 2, 3, 4, 5}
	c := Histogram("h", "x", Quantity{"x", report.Count}, xs, "")
	total := 0
	for _, r := range c.Table.Rows {
		n := 0
		for _, ch := range r[1] {
			n = n*10 + int(ch-'0')
		}
		total += n
	}
	if total != len(xs) || len(c.Table.Rows) != histogramBins {
		t.Errorf("%d samples in %d bins, want %d in %d", total, len(c.Table.Rows), len(xs), histogramBins)
	}
	if last := c.Table.Rows[histogramBins-1][1]; last != "1" {
		t.Errorf("last bin holds %s, want the greatest sample", last)
	}
}

// TestTornadoChart: a bar per input, and its data beneath.
func TestTornadoChart(t *testing.T) {
	c := TornadoChart("t", "j.mpg", Quantity{"mpg", report.Count}, []report.TornadoBar{{Input: "mfu: 0.38 to 0.43", P5: 0.30, P95: 0.35}, {Input: "mtbf: 2.5h to 4h", P5: 0.31, P95: 0.33}})
	if len(c.Table.Rows) != 2 || c.Table.Rows[0][0] != "mfu: 0.38 to 0.43" || len(c.Marks) != 2 {
		t.Errorf("rows %v, %d marks", c.Table.Rows, len(c.Marks))
	}
}
