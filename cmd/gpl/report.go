package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

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
	for _, p := range r.s.Pools() {
		var parts []string
		for _, k := range []string{"devices", "hours", "rate"} {
			if v, ok := p.Fields[k]; ok {
				parts = append(parts, k+" "+v.String())
			}
		}
		fmt.Fprintf(w, "\npool %s: %s\n", p.Name, strings.Join(parts, ", "))
	}
	for _, j := range r.s.Jobs() {
		writeJob(w, j)
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
			fmt.Fprintf(w, ", %d errors", errs)
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

func writeJob(w io.Writer, j *eval.Job) {
	head := "job " + j.Name
	if j.Extends != "" {
		head += " extends " + j.Extends
	}
	if j.Pool != "" {
		head += " (pool " + j.Pool + ")"
	}
	fmt.Fprintf(w, "\n%s\n", head)
	fmt.Fprintf(w, "  %s devices × %s", get(j, "devices"), get(j, "hours"))
	if j.Inputs.Rate.Set {
		fmt.Fprintf(w, " at %s per device-hour", get(j, "rate"))
	}
	fmt.Fprintln(w)
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
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  mpg\t%s\tuseful fraction of offered device-hours (badput %s)\n", fix(j.Result.MPG), fix(j.Result.Badput))
	fmt.Fprintf(tw, "  ceiling_mpg\t%s\tevery factor at its ceiling (headroom %s×)\n", fix(j.Result.CeilingMPG), headroom(j))
	fmt.Fprintf(tw, "  offered_hours\t%s\tdevice-hours offered\n", get(j, "offered_hours"))
	fmt.Fprintf(tw, "  useful_hours\t%s\tdevice-hours of useful work\n", get(j, "useful_hours"))
	if j.Result.HasCost {
		fmt.Fprintf(tw, "  cost\t%s\n", get(j, "cost"))
		fmt.Fprintf(tw, "  badput_cost\t%s\tspent on hours that did no useful work\n", get(j, "badput_cost"))
		fmt.Fprintf(tw, "  cost_per_useful_hour\t%s\n", get(j, "cost_per_useful_hour"))
	}
	best := "none: no ceiling raises mpg"
	if j.Result.HasBestLever {
		f := j.Result.BestLever
		best = fmt.Sprintf("%s (+%s mpg, to %s)", f, fix(j.Result.Gain[f]), fix(j.Result.Lever[f]))
	}
	fmt.Fprintf(tw, "  best_lever\t%s\n", best)
	tw.Flush()
	writeWaterfall(w, j)
}

// fix prints a fraction with six significant digits.
func fix(v float64) string {
	s := fmt.Sprintf("%.6g", lang.Clean(v))
	if strings.Contains(s, ".") && !strings.Contains(s, "e") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func headroom(j *eval.Job) string {
	h, err := j.Result.Headroom()
	if err != nil {
		return "undefined"
	}
	return fix(h)
}

// JSON shapes: every number carries its unit in its key.
type jsonReport struct {
	File         string            `json:"file"`
	Values       map[string]any    `json:"values,omitempty"`
	Pools        []jsonPool        `json:"pools"`
	Jobs         []jsonJob         `json:"jobs"`
	Expectations []jsonExpectation `json:"expectations"`
	jsonPlanning                   // groups, compares, sweeps, solves: report_planning.go
}

type jsonPool struct {
	Name    string   `json:"name"`
	Devices *float64 `json:"devices,omitempty"`
	Hours   *float64 `json:"hours_h,omitempty"`
	Rate    *float64 `json:"rate_usd_per_device_hour,omitempty"`
}

type jsonFactors struct {
	Scheduling float64 `json:"scheduling"`
	Runtime    float64 `json:"runtime"`
	Program    float64 `json:"program"`
}

type jsonJob struct {
	Name              string      `json:"name"`
	Pool              string      `json:"pool,omitempty"`
	Extends           string      `json:"extends,omitempty"`
	Devices           float64     `json:"devices"`
	Hours             float64     `json:"hours_h"`
	Rate              *float64    `json:"rate_usd_per_device_hour,omitempty"`
	Factors           jsonFactors `json:"factors"`
	Ceilings          jsonFactors `json:"ceilings"`
	MPG               float64     `json:"mpg"`
	Badput            float64     `json:"badput"`
	Loss              jsonFactors `json:"loss"`
	OfferedHours      float64     `json:"offered_device_hours"`
	UsefulHours       float64     `json:"useful_device_hours"`
	Cost              *float64    `json:"cost_usd,omitempty"`
	BadputCost        *float64    `json:"badput_cost_usd,omitempty"`
	CostPerUsefulHour *float64    `json:"cost_per_useful_hour_usd,omitempty"`
	Lever             jsonFactors `json:"lever"`
	Gain              jsonFactors `json:"gain"`
	BestLever         string      `json:"best_lever"`
	CeilingMPG        float64     `json:"ceiling_mpg"`
	Headroom          *float64    `json:"headroom,omitempty"`
	// The waterfall and the owner table (report_waterfall.go).
	Waterfall *jsonWaterfall `json:"waterfall"`
	Owners    []jsonOwner    `json:"owners"`
}

type jsonExpectation struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Got    string `json:"got,omitempty"`
	Want   string `json:"want,omitempty"`
}

// Every number in the JSON report is rounded so that it shows no float
// noise: products and quotients with lang.Clean (15 significant digits),
// and the fractions computed as differences (badput, losses, gains) with
// lang.CleanFraction (15 decimals), since a difference keeps the absolute
// error of its operands: gain.scheduling is 0.00891, not
// 0.00891000000000003.

func ptr(v float64) *float64 { c := lang.Clean(v); return &c }

func triple(a [goodput.NumFactors]float64) jsonFactors {
	return jsonFactors{lang.Clean(a[0]), lang.Clean(a[1]), lang.Clean(a[2])}
}

// differences is triple for fractions computed by subtraction.
func differences(a [goodput.NumFactors]float64) jsonFactors {
	return jsonFactors{lang.CleanFraction(a[0]), lang.CleanFraction(a[1]), lang.CleanFraction(a[2])}
}

func ceilings(in goodput.Inputs) jsonFactors {
	var a [goodput.NumFactors]float64
	for i := range a {
		a[i] = in.Factors[i].Value
		if in.Ceilings[i].Set {
			a[i] = in.Ceilings[i].Value
		}
	}
	return triple(a)
}

func toJSON(r *report) jsonReport {
	out := jsonReport{File: r.file, Pools: []jsonPool{}, Jobs: []jsonJob{}, Expectations: []jsonExpectation{}, jsonPlanning: toJSONPlanning(r.s)}
	if lets := r.s.Lets(); len(lets) > 0 {
		out.Values = map[string]any{}
		for _, l := range lets {
			if l.Value.Type.Kind == eval.Number && l.Value.Type.Dim == lang.Count {
				out.Values[l.Name] = lang.Clean(l.Value.Num)
			} else {
				out.Values[l.Name] = l.Value.String()
			}
		}
	}
	for _, p := range r.s.Pools() {
		jp := jsonPool{Name: p.Name}
		if v, ok := p.Fields["devices"]; ok {
			jp.Devices = ptr(v.Num)
		}
		if v, ok := p.Fields["hours"]; ok {
			jp.Hours = ptr(lang.ToUnit(v.Num, lang.Units["h"]))
		}
		if v, ok := p.Fields["rate"]; ok {
			jp.Rate = ptr(lang.ToUnit(v.Num, lang.Units["USD/h"]))
		}
		out.Pools = append(out.Pools, jp)
	}
	for _, j := range r.s.Jobs() {
		res := j.Result
		jj := jsonJob{
			Name: j.Name, Pool: j.Pool, Extends: j.Extends,
			Devices: lang.Clean(j.Inputs.Devices), Hours: lang.Clean(j.Inputs.Hours),
			Factors:  triple([goodput.NumFactors]float64{j.Inputs.Factors[0].Value, j.Inputs.Factors[1].Value, j.Inputs.Factors[2].Value}),
			Ceilings: ceilings(j.Inputs),
			MPG:      lang.Clean(res.MPG), Badput: lang.CleanFraction(res.Badput), Loss: differences(res.Loss),
			OfferedHours: lang.Clean(res.OfferedHours), UsefulHours: lang.Clean(res.UsefulHours),
			Lever: triple(res.Lever), Gain: differences(res.Gain), CeilingMPG: lang.Clean(res.CeilingMPG),
		}
		if j.Inputs.Rate.Set {
			jj.Rate = ptr(j.Inputs.Rate.Value)
			jj.Cost, jj.BadputCost = ptr(res.Cost), ptr(res.BadputCost)
			if v, err := res.CostPerUsefulHour(); err == nil {
				jj.CostPerUsefulHour = ptr(v)
			}
		}
		if res.HasBestLever {
			jj.BestLever = res.BestLever.String()
		}
		if h, err := res.Headroom(); err == nil {
			jj.Headroom = ptr(h)
		}
		jj.Waterfall, jj.Owners = waterfallJSON(j)
		out.Jobs = append(out.Jobs, jj)
	}
	for _, o := range r.outcomes {
		je := jsonExpectation{Name: o.Expectation.Name, Status: status(o)}
		if !o.Err {
			je.Got, je.Want = o.Got.Precise(nil), o.Want.Precise(nil)
		}
		out.Expectations = append(out.Expectations, je)
	}
	return out
}

func status(o eval.Outcome) string {
	switch {
	case o.Err:
		return "error"
	case o.Pass:
		return "pass"
	}
	return "fail"
}

// writeJSON prints one report object, or an array for several files.
func writeJSON(w io.Writer, rs []*report) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if len(rs) == 1 {
		enc.Encode(toJSON(rs[0]))
		return
	}
	all := make([]jsonReport, len(rs))
	for i, r := range rs {
		all[i] = toJSON(r)
	}
	enc.Encode(all)
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
