package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	model "github.com/gpl-lang/gpl/eval/report"
)

// writeUncertainty prints an uncertain file's headline quantities, each
// as its median and 90% interval over the samples (language.md §23).
func writeUncertainty(w io.Writer, u *model.Uncertainty) {
	if u == nil || len(u.Results) == 0 {
		return
	}
	fmt.Fprintf(w, "\nuncertain: median (90%% interval) over %s samples, seed %d\n", model.Number(float64(u.Samples)), u.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range u.Results {
		fmt.Fprintf(tw, "  %s\t%s\n", r.Name, r.Text)
	}
	tw.Flush()
}
