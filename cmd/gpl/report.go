package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/htmlreport"
	"github.com/gpl-lang/gpl/eval"
	model "github.com/gpl-lang/gpl/eval/report"
)

// report is everything gpl run prints about one file: the report model
// of its scenario, whose jobs are built one at a time as they print.
type report struct {
	s *eval.Scenario
	f *model.File
	// bar prints a one-line waterfall bar under each job's devices ×
	// hours line (gpl run), in block characters when utf8, else ASCII.
	bar, utf8 bool
	// allRows prints every row of a sweep, however many (gpl run --all);
	// else a sweep of more than sweepTextRows points prints its first and
	// last rows and its extremes.
	allRows bool
}

func buildReport(s *eval.Scenario) *report {
	return &report{s: s, f: model.Outline(s).Judge()}
}

// writeText prints the readable report: values, pools, then per job its
// factors, losses, levers, device-hours and costs, then the expectations.
func writeText(w io.Writer, r *report) {
	f := r.f
	fmt.Fprintf(w, "scenario %s\n", f.File)
	if len(f.Lets) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, l := range f.Lets {
			kw := "let"
			if l.Param {
				kw = "param"
			}
			fmt.Fprintf(tw, "%s %s\t= %s\n", kw, l.Name, l.Value)
		}
		tw.Flush()
	}
	writeUncertainty(w, f.Uncertainty) // report_uncertain.go
	for _, p := range f.Pools {
		writePool(w, p) // report_pools.go
	}
	for j := range f.AllJobs() {
		writeJobBar(w, j, r.bar, r.utf8)
	}
	writePlanning(w, f.Planning, r.allRows) // report_planning.go
	writeRulesets(w, f)
	pass, fail, errs := 0, 0, 0
	for _, e := range f.Expectations {
		switch e.Status {
		case "error":
			errs++
		case "pass":
			pass++
		default:
			fail++
		}
	}
	if len(f.Expectations) > 0 {
		fmt.Fprintf(w, "\nexpectations: %d passed, %d failed", pass, fail)
		if errs > 0 {
			fmt.Fprintf(w, ", %s", model.Number(float64(errs)).Of("error", "errors"))
		}
		fmt.Fprintln(w)
	}
}

// count is a job's count fig in words by say, or "—" when it has none.
func count(fig model.Figure, say func(float64) string) string {
	if !fig.OK || fig.Value.Type.Kind != eval.Number {
		return "—"
	}
	return say(fig.Value.Num)
}

func devicesText(n float64) string { return model.Number(n).Of("device", "devices") }

// rateText words a price (in the currency c per second) as a
// device-hour's rate.
func rateText(v float64, c string) string { return model.Amount{Base: v, Dim: model.PriceIn(c)}.Rate() }

// writeJob prints a job's report without the terminal bar (the REPL's).
func writeJob(w io.Writer, j *eval.Job) { writeJobBar(w, model.JobOf(j), false, false) }

// writeJobBar prints a job's report; with bar, a one-line waterfall bar
// follows its devices × hours line, in block characters when utf8.
func writeJobBar(w io.Writer, j model.Job, bar, utf8 bool) {
	v, fig := &j.View, &j.Figures
	head := "job " + j.Name
	if j.Extends != nil {
		head += " extends " + *j.Extends
	}
	if j.Pool != nil {
		head += " (pool " + *j.Pool + ")"
	}
	fmt.Fprintf(w, "\n%s\n", head)
	fmt.Fprintf(w, "  %s × %s", count(fig.Devices, devicesText), fig.Hours.Readable())
	if v.HasRate {
		fmt.Fprintf(w, " at %s", count(fig.Rate, func(r float64) string { return rateText(r, v.Currency) }))
	}
	if j.From != nil {
		fmt.Fprintf(w, ", from %s to %s", *j.From, *j.To)
	}
	fmt.Fprintln(w)
	if bar {
		htmlreport.WaterfallBar(w, v, utf8)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  factor\tvalue\tceiling\tloss\tlever\tgain\t")
	for _, f := range v.Factors {
		ceil := "—"
		if f.HasCeiling {
			ceil = fix(f.Ceiling)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t\n", f.Name, fix(f.Value), ceil, fix(f.Loss), fix(f.Lever), fix(f.Gain))
	}
	tw.Flush()
	// Every value cell ends in a tab, with or without a note after it, so
	// that the values form one column; trimmed drops the padding a line
	// without a note would end in.
	tw, flush := trimmed(w)
	fmt.Fprintf(tw, "  mpg\t%s\tuseful fraction of offered device-hours (badput %s)\n", fix(v.MPG), fix(v.Badput))
	fmt.Fprintf(tw, "  ceiling_mpg\t%s\tevery factor at its ceiling (%s)\n", fix(v.CeilingMPG), headroom(v))
	fmt.Fprintf(tw, "  offered_hours\t%s\tdevice-hours offered\n", fig.OfferedHours.Readable())
	fmt.Fprintf(tw, "  useful_hours\t%s\tdevice-hours of useful work\n", fig.UsefulHours.Readable())
	if v.HasCost {
		fmt.Fprintf(tw, "  cost\t%s\t\n", fig.Cost.Readable())
		fmt.Fprintf(tw, "  badput_cost\t%s\tspent on hours that did no useful work\n", fig.BadputCost.Readable())
		fmt.Fprintf(tw, "  cost_per_useful_hour\t%s\t\n", fig.CostPerUsefulHour.Readable())
	}
	for _, m := range j.Listed {
		fmt.Fprintf(tw, "  %s\t%s\t\n", m.Name, m.Figure.Readable())
	}
	best := "none: no ceiling raises mpg"
	if v.HasBestLever {
		f := v.Factors[v.BestLever]
		best = fmt.Sprintf("%s (+%s mpg, to %s)", f.Name, fix(f.Gain), fix(f.Lever))
	}
	fmt.Fprintf(tw, "  best_lever\t%s\n", best) // last, so it widens no column
	flush()
	writeWaterfall(w, v)
}

// trimmed is a tabwriter (cells padded with spaces, two between columns)
// whose lines lose their trailing spaces when flush writes them to w.
func trimmed(w io.Writer) (*tabwriter.Writer, func()) {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	return tw, func() {
		tw.Flush()
		lines := strings.Split(b.String(), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		io.WriteString(w, strings.Join(lines, "\n"))
		b.Reset()
	}
}

// fix prints a fraction at a report's precision: five significant
// figures (Amount.Readable); --format json keeps every digit.
func fix(v float64) string { return model.Number(v).Readable() }

// headroom says how many times the mpg the ceilings allow: "headroom
// 1.25×", or why there is no such ratio.
func headroom(v *model.JobView) string {
	switch {
	case v.ZeroMPG:
		return "no headroom ratio: mpg is 0"
	case !v.HasHeadroom:
		return "headroom too large to represent"
	}
	return "headroom " + fix(v.Headroom) + "×"
}

// writeRules lists each ruleset of s with its rules and how it classifies
// every declared request.
func writeRules(w io.Writer, s *eval.Scenario) { writeRulesets(w, model.Outline(s)) }

// writeRulesets lists each ruleset's rules and how it classifies every
// declared request of f.
func writeRulesets(w io.Writer, f *model.File) {
	for _, rs := range f.Rulesets {
		var rules []string
		for _, r := range rs.Rules {
			rules = append(rules, r.Name)
		}
		fmt.Fprintf(w, "\nrules %s: %s, else %s\n", rs.Name, strings.Join(rules, ", "), rs.Else)
		if len(f.Requests) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, q := range f.Requests {
			hit := q.Classes[rs.Name]
			fmt.Fprintf(tw, "  request %s\t→ %s\t(%s)\n", q.Name, hit.Class, hit.Ref)
		}
		tw.Flush()
	}
}
