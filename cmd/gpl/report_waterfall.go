package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	model "github.com/gpl-lang/gpl/eval/report"
)

// This file prints a job's waterfall (offered → held → productive →
// useful device-hours, and their cost) and the table of its factors by
// owner.

// writeWaterfall prints the waterfall and the owner table of a job.
func writeWaterfall(w io.Writer, v *model.JobView) {
	rows := [][]string{{"waterfall", "device-hours", "cost"}}
	for _, st := range v.Steps {
		step := st.Name
		if st.HasFactor {
			f := v.Factors[st.Factor]
			step = fmt.Sprintf("%s (× %s %s)", st.Name, f.Short, fix(f.Value))
		}
		money := "—"
		if v.HasCost {
			money = v.Money(st.Cost).String()
		}
		rows = append(rows, []string{step, deviceHours(st.Hours), money})
	}
	writeTable(w, rows, 1)
	sortedBy := "gain_hours (no rate, so no money)"
	if v.HasCost {
		sortedBy = "saving"
	}
	rows = [][]string{{"owner", "factor", "loss_hours", "loss_cost", "gain_hours", "saving"}}
	for _, fi := range v.ByOwner {
		f := v.Factors[fi]
		lossCost, saving := "—", "—"
		if v.HasCost {
			lossCost, saving = v.Money(f.LossCost).String(), v.Money(f.Saving).String()
		}
		rows = append(rows, []string{f.Owner, f.Name, deviceHours(f.LossHours), lossCost, deviceHours(f.GainHours), saving})
	}
	fmt.Fprintf(w, "  by owner, sorted by %s\n", sortedBy)
	writeTable(w, rows, 2)
}

// deviceHours prints device-hours in hours whatever their size, so that
// the steps of a waterfall read in one unit: "92160 h", "0 h".
func deviceHours(h float64) string { return model.Hours(h).Readable() }

// writeTable prints rows indented under a job, two spaces between
// columns; the columns from right on are right-aligned (numbers), the
// others left-aligned.
func writeTable(w io.Writer, rows [][]string, right int) {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		b.WriteString("  ")
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i >= right {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
