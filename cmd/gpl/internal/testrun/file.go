package testrun

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/srcfile"
	"github.com/gpl-lang/gpl/lang/units"
)

// caseStatus is a test case's result.
type caseStatus uint8

const (
	statusPass  caseStatus = iota
	statusFail             // an expectation does not hold, or a golden file differs
	statusError            // the expectation could not be evaluated (a runtime error)
)

func (s caseStatus) String() string {
	return [...]string{"pass", "fail", "error"}[s]
}

// testCase is one expect, or one golden comparison, and how it went.
type testCase struct {
	name         string // "file:line: source text", or "X.gpl: golden"
	file         string
	line, column int
	source       string
	status       caseStatus
	diag         *lang.Diagnostic // why it failed or errored
	golden       string           // the golden file compared, for a golden case
	diff         string           // a failing golden comparison's unified diff
	firstDiff    int              // the golden file's first differing line
	// got, want and tolerance print the compared values in the unit the
	// expect was written in; tolerance only for ≈.
	got, want, tolerance string
	// op is the expect's operator (≈, ==, <, …; "" for a condition);
	// gotNum, wantNum and tolNum are the numbers of got, want and
	// tolerance in unit, the unit they are written in ("" for a count).
	op                      string
	gotNum, wantNum, tolNum *float64
	unit                    string
	duration                time.Duration
	warning                 bool // a warning that --strict fails
	// samples and seed are the sampling of the statistics the expect
	// reads (--samples, --seed); 0 for one that reads none.
	samples int
	seed    uint64
}

// fileResult is everything gpl test found in one file.
type fileResult struct {
	path     string
	sources  lang.Sources
	loadErr  error            // the file did not load: parse, check or runtime errors
	loadExit int              // cli.ExitCheck or cli.ExitRuntime when loadErr is set
	diags    lang.Diagnostics // the load error's diagnostics, or the warnings of a file that loaded
	cases    []testCase
	notes    []string       // -update: what was rewritten, or why not
	writeErr error          // -update: a rewrite that failed (exit 3)
	coverage []ruleCoverage // --cover: how often each rule fired, per ruleset
	duration time.Duration
}

// failed reports whether anything in the file failed or errored.
func (r *fileResult) failed() bool {
	if r.loadErr != nil {
		return true
	}
	for _, c := range r.cases {
		if c.status != statusPass {
			return true
		}
	}
	return false
}

// evaluation is a file's result with the scenario and outcomes behind it,
// which -update needs.
type evaluation struct {
	result   *fileResult
	s        *eval.Scenario
	outcomes []eval.Outcome // every expect's outcome, in source order
}

// testFile evaluates a file, updates it when asked, and returns its result.
func testFile(path string, o *options) *fileResult {
	start := time.Now()
	ev := evaluateFile(path, o)
	if o.update && ev.result.loadErr == nil {
		notes, changed, err := updateExpects(ev, o)
		if err != nil {
			notes = append(notes, fmt.Sprintf("cannot update %s: %v", path, err))
		}
		if changed {
			ev = evaluateFile(path, o)
		}
		golden, gerr := updateGolden(ev, o)
		ev.result.notes, ev.result.writeErr = append(notes, golden...), errors.Join(err, gerr)
	}
	ev.result.duration = time.Since(start)
	return ev.result
}

// evaluateFile loads path and checks the expects written in it that -run
// selects, then compares its golden file when there is one. The expects of
// imported files belong to those files' own tests.
func evaluateFile(path string, o *options) *evaluation {
	r := &fileResult{path: path}
	s, err := eval.LoadWith(o.loadOptions(), path, nil)
	n, serr := s.WithSettings(o.load.Sets...)
	if serr == nil && n != s {
		s, err = n, n.Err()
	}
	r.sources = s.Sources()
	if serr != nil {
		var le *eval.Error
		errors.As(serr, &le)
		r.loadErr, r.loadExit = serr, cli.ExitCheck
		if le != nil {
			r.diags = le.Diagnostics
			r.sources = le.Sources
		} else {
			r.diags = lang.Diagnostics{{Severity: lang.Error, Summary: serr.Error()}}
		}
		return &evaluation{result: r, s: s}
	}
	if err != nil {
		r.loadErr, r.loadExit = err, cli.LoadExit(err)
		var le *eval.Error
		if errors.As(err, &le) {
			r.diags = le.Diagnostics
		} else {
			r.diags = lang.Diagnostics{{Severity: lang.Error, Summary: err.Error()}}
		}
		return &evaluation{result: r, s: s}
	}
	for _, d := range s.Diagnostics() {
		if d.Severity != lang.Warning {
			continue
		}
		if o.strict {
			r.cases = append(r.cases, warningCase(path, d))
		} else {
			r.diags = append(r.diags, d)
		}
	}
	ev := &evaluation{result: r, s: s}
	cov := newCoverageTracker(s, o.cover)
	for _, ex := range s.Expectations() {
		selected := ex.File() == path && (o.run == nil || o.run.MatchString(ex.Name()))
		t := time.Now()
		out := cov.check(ex, selected)
		d := time.Since(t)
		ev.outcomes = append(ev.outcomes, out)
		if !selected {
			continue
		}
		r.cases = append(r.cases, caseOf(out, d))
	}
	r.coverage = cov.result()
	if c, ok := compareGolden(ev, o); ok {
		r.cases = append(r.cases, c)
	}
	return ev
}

// warningCase is a warning as the failing test case --strict makes it,
// named "FILE:LINE: warning: SUMMARY".
func warningCase(path string, d *lang.Diagnostic) testCase {
	file := d.Pos.Filename
	if file == "" {
		file = path
	}
	return testCase{name: fmt.Sprintf("%s:%d: warning: %s", file, d.Pos.Line, d.Summary), file: file,
		line: d.Pos.Line, column: d.Pos.Column, status: statusFail, diag: d, warning: true}
}

func caseOf(out eval.Outcome, d time.Duration) testCase {
	ex := out.Expectation
	c := testCase{name: ex.Name(), file: ex.File(), line: ex.Line(), column: ex.Column(), source: ex.Source, duration: d,
		samples: out.Samples, seed: out.Seed}
	switch {
	case out.Err:
		c.status = statusError
		c.diag = out.Diagnostic
		if c.diag == nil {
			n := ex.Node()
			c.diag = &lang.Diagnostic{Severity: lang.Error, Summary: "the expectation could not be evaluated", Pos: n.Start(), End: n.End()}
		}
		return c
	case out.Pass:
		c.status = statusPass
	default:
		c.status = statusFail
		c.diag = out.Diagnostic
	}
	// got, want and tolerance go into JSON and TAP, which programs read:
	// no thousands separators.
	u := ex.WantedUnit()
	c.got, c.want = out.Got.Plain(u), out.Want.Plain(u)
	c.op = ex.Operator()
	if c.op == "≈" {
		c.tolerance = eval.NumberValue(out.Tolerance, out.Want.Type.Dim).Plain(u)
	}
	if unit, ok := numberUnit(out.Want, u); ok {
		c.unit = unit
		c.wantNum = numberIn(out.Want, unit)
		c.gotNum = numberIn(out.Got, unit)
		if c.op == "≈" {
			c.tolNum = numberIn(eval.NumberValue(out.Tolerance, out.Want.Type.Dim), unit)
		}
	}
	return c
}

// numberUnit is the unit Plain writes a number in: the expect's own when
// it names one of the value's dimension, else a readable one ("" for a
// count); ok is false for a value that is not a number.
func numberUnit(v eval.Value, u *units.Unit) (string, bool) {
	if v.Type.Kind != eval.Number {
		return "", false
	}
	switch {
	case u != nil && u.Dim == v.Type.Dim:
		return u.Symbol, true
	case v.Type.Dim == units.Count:
		return "", true
	}
	if ru, ok := units.ReadableUnit(v.Num, v.Type.Dim); ok {
		return ru.Symbol, true
	}
	return "", false
}

// numberIn is v in unit, or nil when v is not a number of its dimension.
func numberIn(v eval.Value, unit string) *float64 {
	x, err := v.In(unit)
	if err != nil {
		return nil
	}
	return &x
}

// goldenPath is X.golden for X.gpl.
func goldenPath(path string) string {
	return strings.TrimSuffix(path, ".gpl") + ".golden"
}

// goldenName is the golden comparison's test name.
func goldenName(path string) string { return path + ": golden" }

// goldenReport is what a golden file holds: the text report gpl run
// prints for the file when run in its own directory (so that it does not
// depend on where gpl test is run from), without the expectation tally,
// which says how the expects went, not what the plan is.
func goldenReport(ev *evaluation, o *options) []byte {
	var b bytes.Buffer
	o.hooks.Report(&b, filepath.Base(ev.result.path), ev.s)
	return b.Bytes()
}

// sameReport reports whether two reports say the same: line by line, with
// each run of spaces read as one, so that a column widened by an
// unrelated figure is no difference.
func sameReport(a, b []byte) bool {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		if strings.Join(strings.Fields(la[i]), " ") != strings.Join(strings.Fields(lb[i]), " ") {
			return false
		}
	}
	return true
}

// compareGolden compares X.golden, when it exists and -run selects it,
// with the file's text report. With -update, a file named as an argument
// whose golden is missing gets a golden case too, which fails so that the
// update writes it.
func compareGolden(ev *evaluation, o *options) (testCase, bool) {
	path := ev.result.path
	gp := goldenPath(path)
	name := goldenName(path)
	if o.run != nil && !o.run.MatchString(name) {
		return testCase{}, false
	}
	start := time.Now()
	// Read as source is (srcfile): a golden that is a pipe or a device is
	// refused, not waited on, and none is read past the size limit.
	want, err := srcfile.ReadFile(gp, srcfile.MaxSize)
	absent := errors.Is(err, fs.ErrNotExist)
	missing := absent && o.update && o.named[path]
	if absent && !missing {
		return testCase{}, false
	}
	c := testCase{name: name, file: path, golden: gp}
	if err != nil && !missing {
		c.status = statusError
		c.diag = &lang.Diagnostic{Severity: lang.Error, Summary: err.Error(), Notes: []string{"a golden file is a regular file of at most " + srcfile.Bytes(srcfile.MaxSize) + ", beside its .gpl file"}}
		c.duration = time.Since(start)
		return c, true
	}
	got := goldenReport(ev, o)
	hint := "gpl test -update rewrites " + gp + " with the report"
	if o.ci != "" {
		hint = "run gpl test -update " + path + " locally and commit " + gp + " (CI refuses -update)"
	}
	switch {
	case missing:
		c.status = statusFail
		c.diag = &lang.Diagnostic{Severity: lang.Error, Summary: gp + " does not exist", Notes: []string{hint}}
	case !sameReport(want, got):
		c.status = statusFail
		c.diff = string(diff.Diff(gp, want, path+" (gpl run)", got))
		c.firstDiff = firstDifferentLine(want, got)
		c.diag = &lang.Diagnostic{Severity: lang.Error,
			Summary: fmt.Sprintf("the text report of %s differs from %s", filepath.Base(path), gp),
			Notes:   []string{hint}}
	}
	c.duration = time.Since(start)
	return c, true
}

// firstDifferentLine is the 1-based line of a where a and b first differ.
func firstDifferentLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '\n' {
			line++
		}
	}
	return line
}

// sampling is how a case that reads a statistic says what it got and
// over which samples: "got 0.3692 over 10,000 samples, seed 1"; "" for
// one that reads none.
func (c *testCase) sampling() string {
	if c.samples == 0 {
		return ""
	}
	return fmt.Sprintf("got %s over %s samples, seed %d", c.got, units.FormatNumber(float64(c.samples)), c.seed)
}
