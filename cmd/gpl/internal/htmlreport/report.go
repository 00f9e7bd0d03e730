// Package htmlreport writes gpl report's page: one self-contained HTML
// file per run, with every chart as inline SVG whose marks carry their
// values, each chart's data as a table beneath it, CSS inline, no script
// and nothing loaded from anywhere. It also draws the one-line waterfall
// bar that gpl run prints per job.
//
// The page is built from small structs (File, Job, Ruleset, Group,
// Compare, Sweep, Solve) so that each section can be tested on made-up
// data; FromScenario fills them from an evaluated scenario.
package htmlreport

import (
	"bytes"
	"io"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// Report is the whole page: one section per file.
type Report struct {
	Files []File
}

// File is what the page shows of one scenario file.
type File struct {
	Name string
	// Settings are the --set NAME=VALUE the file was evaluated with.
	Settings []string
	Jobs     []Job
	Groups   []Group
	Compares []Compare
	Sweeps   []Sweep
	Solves   []Solve
	Rulesets []Ruleset
	// Stream names the --requests file the rulesets' stream counts come
	// from, or is "".
	Stream       string
	Expectations []Expectation
}

// Ruleset is a ruleset with the class it gives each declared request, and
// how often each rule gave the class.
type Ruleset struct {
	Name string
	// Rules lists the rules in order, "else" last.
	Rules   []RuleCount
	Samples []Sample
	// StreamLines counts the request lines read from the stream, Unusable
	// those that could not be classified.
	StreamLines, Unusable int
}

// RuleCount is one rule and the requests it gave the class to: among the
// file's classify calls (Tested) and in the request stream (Streamed).
type RuleCount struct {
	Name, Class      string
	Tested, Streamed int
}

// Sample is a declared request and the class the ruleset gives it.
type Sample struct {
	Request, Class, Rule string
}

// Expectation is one expect and its outcome.
type Expectation struct {
	Name string
	// Status is "pass", "fail" or "error".
	Status    string
	Got, Want string
	// Diagnostic is the failure's rendered text, as gpl test prints it.
	Diagnostic string
}

// ownerOf names who owns a factor of a job. Until owners can be declared
// it is the factor's own name (scheduling, runtime, program).
func ownerOf(j *eval.Job, f goodput.Factor) string { return j.Owner(f) }

// FromScenario fills a File from an evaluated scenario. requests, when not
// nil, is a JSON Lines request stream opened anew for each call, whose
// rule counts the rulesets show.
func FromScenario(s *eval.Scenario, settings []string, stream string, requests func() (io.ReadCloser, error)) (File, error) {
	f := File{Settings: settings, Stream: stream}
	if fs := s.Files(); len(fs) > 0 {
		f.Name = fs[0].Name
	}
	for _, j := range s.Jobs() {
		job := Job{Name: j.Name, Pool: j.Pool, Extends: j.Extends, Inputs: j.Inputs, Result: j.Result}
		for k := range goodput.NumFactors {
			job.Owners[k] = ownerOf(j, goodput.Factor(k))
		}
		f.Jobs = append(f.Jobs, job)
	}
	if err := planningOf(s, &f); err != nil {
		return f, err
	}
	var sets []*priority.Ruleset
	for _, name := range s.Rulesets() {
		rs, _ := s.Ruleset(name)
		sets = append(sets, rs)
		f.Rulesets = append(f.Rulesets, rulesetOf(s, name, rs))
	}
	if requests != nil && len(sets) > 0 {
		r, err := requests()
		if err != nil {
			return f, err
		}
		defer r.Close()
		if err := countStream(f.Rulesets, sets, r); err != nil {
			return f, err
		}
	}
	for _, o := range s.Test() {
		e := Expectation{Name: o.Expectation.Name(), Status: o.Status()}
		if !o.Err {
			e.Got, e.Want = o.Got.Precise(nil), o.Want.Precise(nil)
		}
		if o.Diagnostic != nil {
			var b bytes.Buffer
			o.Diagnostic.Render(&b, s.Sources(), lang.Style{})
			e.Diagnostic = strings.TrimRight(b.String(), "\n")
		}
		f.Expectations = append(f.Expectations, e)
	}
	return f, nil
}

func rulesetOf(s *eval.Scenario, name string, rs *priority.Ruleset) Ruleset {
	out := Ruleset{Name: name}
	names, fired, _ := s.RuleCoverage(name, nil)
	rules := rs.Rules()
	for i, n := range names {
		class := rs.Otherwise()
		if i < len(rules) {
			class = rules[i].Class
		}
		rc := RuleCount{Name: n, Class: string(class)}
		if i < len(fired) {
			rc.Tested = fired[i]
		}
		out.Rules = append(out.Rules, rc)
	}
	for _, q := range s.Requests() {
		class, rule := rs.Classify(&q.Request)
		out.Samples = append(out.Samples, Sample{Request: q.Name, Class: string(class), Rule: rs.RuleName(rule)})
	}
	return out
}

// countStream classifies every line of a request stream with every
// ruleset, counting per rule; unusable lines are counted, not fatal.
func countStream(out []Ruleset, sets []*priority.Ruleset, r io.Reader) error {
	sr := priority.NewStreamReader(r)
	for sr.Next() {
		for i, rs := range sets {
			out[i].StreamLines++
			if sr.LineErr() != nil {
				out[i].Unusable++
				continue
			}
			_, rule := rs.Classify(sr.Request())
			if rule < 0 {
				rule = len(out[i].Rules) - 1
			}
			out[i].Rules[rule].Streamed++
		}
	}
	return sr.IOErr()
}
