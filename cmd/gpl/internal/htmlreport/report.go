// Package htmlreport writes gpl report's page: one self-contained HTML
// file per run, with every chart as inline SVG whose marks carry their
// values, each chart's data as a table beneath it, CSS inline, no script
// and nothing loaded from anywhere. It also draws the one-line waterfall
// bar that gpl run prints per job.
//
// The page is built from small structs (File, Job, Ruleset, Group,
// Compare, Sweep, Solve) so that each section can be tested on made-up
// data; FromScenario fills them from the report model (package eval/report)
// of an evaluated scenario.
package htmlreport

import (
	"io"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
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
	Pools    []Pool
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
	// Uncertain is an uncertain file's charts (uncertain.go); nil for a
	// file without a distribution.
	Uncertain *Uncertain
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
	// Outcome is eval's, whose diagnostic gpl report also prints on
	// standard error.
	Outcome eval.Outcome
}

// FromScenario fills a File from an evaluated scenario's report. requests,
// when not nil, is a JSON Lines request stream opened anew for each call,
// whose rule counts the rulesets show.
func FromScenario(s *eval.Scenario, settings []string, stream string, requests func() (io.ReadCloser, error)) (File, error) {
	m := report.Build(s)
	f := File{Name: m.File, Settings: settings, Stream: stream}
	for _, p := range m.Pools {
		if pv, ok := poolOf(p); ok {
			f.Pools = append(f.Pools, pv)
		}
	}
	for _, j := range m.Jobs {
		job := Job{Name: j.Name, View: j.View, Listed: j.Listed}
		if j.Pool != nil {
			job.Pool = *j.Pool
		}
		if j.Extends != nil {
			job.Extends = *j.Extends
		}
		f.Jobs = append(f.Jobs, job)
	}
	if err := planningOf(m, &f); err != nil {
		return f, err
	}
	f.Uncertain = uncertainOf(m)
	for _, rs := range m.Rulesets {
		f.Rulesets = append(f.Rulesets, rulesetOf(rs, m.Requests))
	}
	if requests != nil && len(m.Rulesets) > 0 {
		r, err := requests()
		if err != nil {
			return f, err
		}
		defer r.Close()
		fired, lines, unusable, err := m.StreamCounts(r)
		for i := range f.Rulesets {
			out := &f.Rulesets[i]
			out.StreamLines, out.Unusable = lines, unusable
			for k := range out.Rules {
				if k < len(fired[i]) {
					out.Rules[k].Streamed = fired[i][k]
				}
			}
		}
		if err != nil {
			return f, err
		}
	}
	for _, x := range m.Expectations {
		e := Expectation{Name: x.Name, Status: x.Status, Outcome: x.Outcome}
		if !x.Outcome.Err {
			e.Got, e.Want = x.Outcome.Got.Precise(nil), x.Outcome.Want.Precise(nil)
		}
		e.Diagnostic = m.Rendered(x)
		f.Expectations = append(f.Expectations, e)
	}
	return f, nil
}

func rulesetOf(rs report.Ruleset, requests []report.Request) Ruleset {
	out := Ruleset{Name: rs.Name}
	for _, r := range rs.Tested {
		out.Rules = append(out.Rules, RuleCount{Name: r.Name, Class: r.Class, Tested: r.Fired})
	}
	for _, q := range requests {
		hit := q.Classes[rs.Name]
		out.Samples = append(out.Samples, Sample{Request: q.Name, Class: hit.Class, Rule: hit.Rule})
	}
	return out
}
