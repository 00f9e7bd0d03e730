package testrun

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang/units"
)

// gpl test --cover: which priority rules the tests of each file made fire.
//
// A file's coverage counts every classification made while testing it:
// those computed while loading it (a let or field that calls classify) and
// those of the expects gpl test ran for it. The expects of imported files
// (which belong to those files' own tests) and expects -run leaves out are
// checked as usual but not counted. Every ruleset the file can classify
// with is listed, its own and its imports', the else branch counting as
// one rule.

// ruleCoverage is how often each rule of one ruleset gave the class while
// one file, or several together, was tested.
type ruleCoverage struct {
	ruleset  string
	declared string   // the file that declares the ruleset
	rules    []string // the rules' names, "else" last
	lines    []int    // the line each rule is written on, else last
	counts   []int
	files    int // the tested files counted, for a total over several
}

// fired is how many of the rules fired at least once.
func (c *ruleCoverage) fired() int {
	n := 0
	for _, k := range c.counts {
		if k > 0 {
			n++
		}
	}
	return n
}

// coverageTracker checks a file's expects and, with --cover, keeps the
// selected ones, whose classify calls the file's rule coverage counts.
type coverageTracker struct {
	s        *eval.Scenario
	enabled  bool
	selected []*eval.Expectation
}

func newCoverageTracker(s *eval.Scenario, enabled bool) *coverageTracker {
	return &coverageTracker{s: s, enabled: enabled, selected: []*eval.Expectation{}}
}

// check checks an expectation; counted says whether it is one of the
// file's selected test cases, whose rule firings count.
func (t *coverageTracker) check(ex *eval.Expectation, counted bool) eval.Outcome {
	if t.enabled && counted {
		t.selected = append(t.selected, ex)
	}
	return t.s.Check(ex)
}

// result is the file's coverage, one entry per ruleset in source order.
func (t *coverageTracker) result() []ruleCoverage {
	if !t.enabled {
		return nil
	}
	var out []ruleCoverage
	for _, name := range t.s.Rulesets() {
		rules, counts, _ := t.s.RuleCoverage(name, t.selected)
		declared, lines := t.s.RulesetLines(name)
		out = append(out, ruleCoverage{ruleset: name, declared: declared, rules: rules, lines: lines, counts: counts, files: 1})
	}
	return out
}

// coverageTotal is the coverage of a run: every ruleset tested, once,
// with its counts summed over the files that use it, in order of first
// use.
type coverageTotal struct {
	rulesets     []*ruleCoverage
	fired, rules int
}

// percent is the share of rules that fired, over every ruleset; 100 when
// there is no rule.
func (t coverageTotal) percent() float64 {
	if t.rules == 0 {
		return 100
	}
	return 100 * float64(t.fired) / float64(t.rules)
}

func totalCoverage(results []*fileResult) coverageTotal {
	type key struct{ declared, ruleset string }
	totals := map[key]*ruleCoverage{}
	var out coverageTotal
	for _, r := range results {
		for i := range r.coverage {
			c := &r.coverage[i]
			k := key{c.declared, c.ruleset}
			t := totals[k]
			if t == nil {
				t = &ruleCoverage{ruleset: c.ruleset, declared: c.declared, rules: c.rules, lines: c.lines, counts: make([]int, len(c.counts))}
				totals[k] = t
				out.rulesets = append(out.rulesets, t)
			}
			for j, n := range c.counts {
				t.counts[j] += n
			}
			t.files++
		}
	}
	for _, t := range out.rulesets {
		out.fired += t.fired()
		out.rules += len(t.counts)
	}
	return out
}

// writeCoverage prints the coverage of each file's rulesets, then, for a
// ruleset several files use, the total over them:
//
//	coverage: plans/serving.gpl rules kapsl (std/kapsl.gpl): 5/6 rules fired
//	  override ×1 · sla ×1 · light ×2 · combined ×1 · small ×0 · else ×1
//	  never fired: std/kapsl.gpl:11: small
//	coverage: rules kapsl (std/kapsl.gpl) in 3 files: 6/6 rules fired
//	  override ×2 · sla ×1 · light ×4 · combined ×1 · small ×1 · else ×3
//
// and, with --cover-min, the share over every ruleset against it. Each
// line starts with prefix ("# " for TAP).
func writeCoverage(w io.Writer, results []*fileResult, total coverageTotal, coverMin float64, prefix string) {
	for _, r := range results {
		for i := range r.coverage {
			writeRuleCoverage(w, prefix, r.path+" ", &r.coverage[i], r.path)
		}
	}
	for _, t := range total.rulesets {
		if t.files > 1 {
			writeRuleCoverage(w, prefix, "", t, "")
		}
	}
	if coverMin < 0 {
		return
	}
	verdict := "at least"
	if total.percent() < coverMin {
		verdict = "below"
	}
	fmt.Fprintf(w, "%scoverage: %d/%s fired (%s%%), %s --cover-min %s%%\n", prefix, total.fired, units.CountOf(float64(total.rules), "rule", "rules"),
		units.FormatNumber(math.Floor(total.percent()*10)/10), verdict, units.FormatNumber(coverMin))
}

// writeRuleCoverage prints one ruleset's block: the header, the count of
// every rule, and where each rule that never fired is written (unless none
// fired, which the header says). subject is
// the tested file followed by a space, or "" for a total; the declaring
// file is named when it is not the tested one.
func writeRuleCoverage(w io.Writer, prefix, subject string, c *ruleCoverage, tested string) {
	head := "rules " + c.ruleset
	if c.declared != tested {
		head += " (" + c.declared + ")"
	}
	if c.files > 1 {
		head += fmt.Sprintf(" in %d files", c.files)
	}
	fmt.Fprintf(w, "%scoverage: %s%s: %d/%s fired\n", prefix, subject, head, c.fired(), units.CountOf(float64(len(c.counts)), "rule", "rules"))
	counts := make([]string, len(c.counts))
	for i, n := range c.counts {
		counts[i] = c.rules[i] + " ×" + strconv.Itoa(n)
	}
	fmt.Fprintf(w, "%s  %s\n", prefix, strings.Join(counts, " · "))
	if c.fired() == 0 {
		return // the header says it all; a list of every rule is noise
	}
	for i, n := range c.counts {
		if n == 0 {
			fmt.Fprintf(w, "%s  never fired: %s:%d: %s\n", prefix, c.declared, c.lines[i], c.rules[i])
		}
	}
}
