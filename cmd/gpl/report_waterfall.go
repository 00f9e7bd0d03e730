package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file prints a job's waterfall (offered → held → productive →
// useful device-hours, and their cost) and the table of its factors by
// owner, in text and in JSON.

// waterfallStep is one step of the waterfall: a name, the factor that
// leads to it from the step before (none for offered), device-hours.
type waterfallStep struct {
	name   string
	factor goodput.Factor
	first  bool
	hours  float64
}

func waterfallSteps(j *eval.Job) []waterfallStep {
	r := j.Result
	return []waterfallStep{
		{"offered", 0, true, r.OfferedHours},
		{"held", goodput.Scheduling, false, r.HeldHours},
		{"productive", goodput.Runtime, false, r.ProductiveHours},
		{"useful", goodput.Program, false, r.UsefulHours},
	}
}

// byOwner lists the factors in the order the owner table shows them: by
// saving, largest first (by gain_hours without a rate); ties keep the
// order S, R, P.
func byOwner(j *eval.Job) []goodput.Factor {
	fs := []goodput.Factor{goodput.Scheduling, goodput.Runtime, goodput.Program}
	key := j.Result.GainHours
	if j.Result.HasCost {
		key = j.Result.Saving
	}
	sort.SliceStable(fs, func(a, b int) bool { return lang.Clean(key[fs[a]]) > lang.Clean(key[fs[b]]) })
	return fs
}

// deviceHours prints device-hours in hours whatever their size, so the
// steps of a waterfall read in one unit: "92160 h", "0 h".
func deviceHours(h float64) string { return lang.FormatNumber(lang.Clean(h)) + " h" }

func usd(v float64) string { return lang.Format(v, lang.Money) }

// writeWaterfall prints the waterfall and the owner table of a job.
func writeWaterfall(w io.Writer, j *eval.Job) {
	r := j.Result
	rows := [][]string{{"waterfall", "device-hours", "cost"}}
	for _, st := range waterfallSteps(j) {
		step := st.name
		if !st.first {
			step = fmt.Sprintf("%s (× %s %s)", st.name, st.factor.Short(), fix(j.Inputs.Factors[st.factor].Value))
		}
		money := "—"
		if r.HasCost {
			money = usd(st.hours * j.Inputs.Rate.Value)
		}
		rows = append(rows, []string{step, deviceHours(st.hours), money})
	}
	writeTable(w, rows, 1)
	sortedBy := "gain_hours (no rate, so no money)"
	if r.HasCost {
		sortedBy = "saving"
	}
	rows = [][]string{{"owner", "factor", "loss_hours", "loss_cost", "gain_hours", "saving"}}
	for _, f := range byOwner(j) {
		lossCost, saving := "—", "—"
		if r.HasCost {
			lossCost, saving = usd(r.LossCost[f]), usd(r.Saving[f])
		}
		rows = append(rows, []string{j.Owner(f), f.String(), deviceHours(r.LossHours[f]), lossCost, deviceHours(r.GainHours[f]), saving})
	}
	fmt.Fprintf(w, "  by owner, sorted by %s\n", sortedBy)
	writeTable(w, rows, 2)
}

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

// jsonWaterfall is the waterfall in JSON: device-hours at each step, and
// their cost when the job has a rate.
type jsonWaterfall struct {
	OfferedHours    float64  `json:"offered_hours_h"`
	HeldHours       float64  `json:"held_hours_h"`
	ProductiveHours float64  `json:"productive_hours_h"`
	UsefulHours     float64  `json:"useful_hours_h"`
	OfferedCost     *float64 `json:"offered_cost_usd,omitempty"`
	HeldCost        *float64 `json:"held_cost_usd,omitempty"`
	ProductiveCost  *float64 `json:"productive_cost_usd,omitempty"`
	UsefulCost      *float64 `json:"useful_cost_usd,omitempty"`
}

// jsonOwner is one row of the owner table in JSON.
type jsonOwner struct {
	Owner     string   `json:"owner"`
	Factor    string   `json:"factor"`
	LossHours float64  `json:"loss_hours_h"`
	LossCost  *float64 `json:"loss_cost_usd,omitempty"`
	GainHours float64  `json:"gain_hours_h"`
	Saving    *float64 `json:"saving_usd,omitempty"`
}

func waterfallJSON(j *eval.Job) (*jsonWaterfall, []jsonOwner) {
	r := j.Result
	w := &jsonWaterfall{
		OfferedHours: lang.Clean(r.OfferedHours), HeldHours: lang.Clean(r.HeldHours),
		ProductiveHours: lang.Clean(r.ProductiveHours), UsefulHours: lang.Clean(r.UsefulHours),
	}
	if r.HasCost {
		rate := j.Inputs.Rate.Value
		w.OfferedCost, w.HeldCost = finite(r.OfferedHours*rate), finite(r.HeldHours*rate)
		w.ProductiveCost, w.UsefulCost = finite(r.ProductiveHours*rate), finite(r.UsefulHours*rate)
	}
	owners := []jsonOwner{}
	for _, f := range byOwner(j) {
		o := jsonOwner{Owner: j.Owner(f), Factor: f.String(),
			LossHours: lang.Clean(r.LossHours[f]),
			// A gain is a difference of fractions; its float noise is
			// cleaned before it is scaled (821.1456, not 821.145600000003).
			GainHours: lang.Clean(r.OfferedHours * lang.CleanFraction(r.Gain[f]))}
		if r.HasCost {
			o.LossCost, o.Saving = finite(r.LossCost[f]), finite(r.Saving[f])
		}
		owners = append(owners, o)
	}
	return w, owners
}
