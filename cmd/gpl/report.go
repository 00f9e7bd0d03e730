package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/htmlreport"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// report is everything gpl run prints about one file.
type report struct {
	file     string
	s        *eval.Scenario
	outcomes []eval.Outcome
	// bar prints a one-line waterfall bar under each job's devices ×
	// hours line (gpl run), in block characters when utf8, else ASCII.
	bar, utf8 bool
}

func buildReport(s *eval.Scenario) *report {
	name := ""
	if fs := s.Files(); len(fs) > 0 {
		name = fs[0].Name
	}
	return &report{file: name, s: s, outcomes: s.Test()}
}

var factors = []goodput.Factor{goodput.Scheduling, goodput.Runtime, goodput.Program}

// writeText prints the readable report: values, pools, then per job its
// factors, losses, levers, device-hours and costs, then the expectations.
func writeText(w io.Writer, r *report) {
	fmt.Fprintf(w, "scenario %s\n", r.file)
	if lets := r.s.Lets(); len(lets) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, l := range lets {
			kw := "let"
			if l.Param {
				kw = "param"
			}
			fmt.Fprintf(tw, "%s %s\t= %s\n", kw, l.Name, l.Value)
		}
		tw.Flush()
	}
	for p := range r.s.AllPools() {
		var parts []string
		for _, k := range []string{"devices", "hours", "rate"} {
			if v, ok := p.Fields[k]; ok {
				parts = append(parts, k+" "+v.String())
			}
		}
		fmt.Fprintf(w, "\npool %s: %s\n", p.Name, strings.Join(parts, ", "))
	}
	for j := range r.s.AllJobs() {
		writeJobBar(w, j, r.bar, r.utf8)
	}
	writePlanning(w, r.s) // report_planning.go
	writeRules(w, r.s)
	pass, fail, errs := 0, 0, 0
	for _, o := range r.outcomes {
		switch {
		case o.Err:
			errs++
		case o.Pass:
			pass++
		default:
			fail++
		}
	}
	if len(r.outcomes) > 0 {
		fmt.Fprintf(w, "\nexpectations: %d passed, %d failed", pass, fail)
		if errs > 0 {
			fmt.Fprintf(w, ", %s", lang.CountOf(float64(errs), "error", "errors"))
		}
		fmt.Fprintln(w)
	}
}

func get(j *eval.Job, name string) string {
	v, err := j.Get(name)
	if err != nil {
		return "—"
	}
	return v.String()
}

// figure is a job's number name in words by say, or "—" when it has none.
func figure(j *eval.Job, name string, say func(float64) string) string {
	v, err := j.Get(name)
	if err != nil || v.Type.Kind != eval.Number {
		return "—"
	}
	return say(v.Num)
}

func devicesText(n float64) string { return lang.CountOf(n, "device", "devices") }

// writeJob prints a job's report without the terminal bar (the REPL's).
func writeJob(w io.Writer, j *eval.Job) { writeJobBar(w, j, false, false) }

// writeJobBar prints a job's report; with bar, a one-line waterfall bar
// follows its devices × hours line, in block characters when utf8.
func writeJobBar(w io.Writer, j *eval.Job, bar, utf8 bool) {
	head := "job " + j.Name
	if j.Extends != "" {
		head += " extends " + j.Extends
	}
	if j.Pool != "" {
		head += " (pool " + j.Pool + ")"
	}
	fmt.Fprintf(w, "\n%s\n", head)
	fmt.Fprintf(w, "  %s × %s", figure(j, "devices", devicesText), get(j, "hours"))
	if j.Inputs.Rate.Set {
		fmt.Fprintf(w, " at %s", figure(j, "rate", lang.FormatRate))
	}
	fmt.Fprintln(w)
	if bar {
		htmlreport.WaterfallBar(w, j.Result, utf8)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  factor\tvalue\tceiling\tloss\tlever\tgain\t")
	for _, f := range factors {
		ceil := "—"
		if c := j.Inputs.Ceilings[f]; c.Set {
			ceil = fix(c.Value)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t\n", f, fix(j.Inputs.Factors[f].Value), ceil,
			fix(j.Result.Loss[f]), fix(j.Result.Lever[f]), fix(j.Result.Gain[f]))
	}
	tw.Flush()
	// Every value cell ends in a tab, with or without a note after it, so
	// that the values form one column; trimmed drops the padding a line
	// without a note would end in.
	tw, flush := trimmed(w)
	fmt.Fprintf(tw, "  mpg\t%s\tuseful fraction of offered device-hours (badput %s)\n", fix(j.Result.MPG), fix(j.Result.Badput))
	fmt.Fprintf(tw, "  ceiling_mpg\t%s\tevery factor at its ceiling (%s)\n", fix(j.Result.CeilingMPG), headroom(j))
	fmt.Fprintf(tw, "  offered_hours\t%s\tdevice-hours offered\n", get(j, "offered_hours"))
	fmt.Fprintf(tw, "  useful_hours\t%s\tdevice-hours of useful work\n", get(j, "useful_hours"))
	if j.Result.HasCost {
		fmt.Fprintf(tw, "  cost\t%s\t\n", get(j, "cost"))
		fmt.Fprintf(tw, "  badput_cost\t%s\tspent on hours that did no useful work\n", get(j, "badput_cost"))
		fmt.Fprintf(tw, "  cost_per_useful_hour\t%s\t\n", get(j, "cost_per_useful_hour"))
	}
	best := "none: no ceiling raises mpg"
	if j.Result.HasBestLever {
		f := j.Result.BestLever
		best = fmt.Sprintf("%s (+%s mpg, to %s)", f, fix(j.Result.Gain[f]), fix(j.Result.Lever[f]))
	}
	fmt.Fprintf(tw, "  best_lever\t%s\n", best) // last, so it widens no column
	flush()
	writeWaterfall(w, j)
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

// fix prints a fraction with six significant digits.
func fix(v float64) string {
	s := fmt.Sprintf("%.6g", lang.Clean(v))
	if strings.Contains(s, ".") && !strings.Contains(s, "e") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// headroom says how many times the mpg the ceilings allow: "headroom
// 1.25×", or why there is no such ratio.
func headroom(j *eval.Job) string {
	h, err := j.Result.Headroom()
	switch {
	case errors.Is(err, goodput.ErrZeroMPG):
		return "no headroom ratio: mpg is 0"
	case err != nil:
		return "headroom too large to represent"
	}
	return "headroom " + fix(h) + "×"
}

// writeRules lists each ruleset's rules and how it classifies every
// declared request.
func writeRules(w io.Writer, s *eval.Scenario) {
	reqs := s.Requests()
	for _, name := range s.Rulesets() {
		rs, _ := s.Ruleset(name)
		var rules []string
		for i := range rs.Rules() {
			rules = append(rules, rs.RuleName(i))
		}
		fmt.Fprintf(w, "\nrules %s: %s, else %s\n", name, strings.Join(rules, ", "), rs.Otherwise())
		if len(reqs) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, q := range reqs {
			class, rule := rs.Classify(&q.Request)
			fmt.Fprintf(tw, "  request %s\t→ %s\t(%s)\n", q.Name, class, ruleRef(rs, rule))
		}
		tw.Flush()
	}
}

// ruleRef names the rule that gave a class: "rule small" by its label,
// "rule 2" by its number when it has none, "else" when no rule matched.
func ruleRef(rs *priority.Ruleset, i int) string {
	n := rs.RuleName(i) // the label, "rule N" or "else"
	if i < 0 || rs.Rules()[i].Label == "" {
		return n
	}
	return "rule " + n
}
