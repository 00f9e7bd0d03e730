package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/rogpeppe/go-internal/diff"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
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
	duration             time.Duration
}

// fileResult is everything gpl test found in one file.
type fileResult struct {
	path     string
	sources  lang.Sources
	loadErr  error            // the file did not load: parse, check or runtime errors
	loadExit int              // exitCheck or exitRuntime when loadErr is set
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
func testFile(path string, o *testOptions) *fileResult {
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
		golden, gerr := updateGolden(ev)
		ev.result.notes, ev.result.writeErr = append(notes, golden...), errors.Join(err, gerr)
	}
	ev.result.duration = time.Since(start)
	return ev.result
}

// evaluateFile loads path and checks the expects written in it that -run
// selects, then compares its golden file when there is one. The expects of
// imported files belong to those files' own tests.
func evaluateFile(path string, o *testOptions) *evaluation {
	r := &fileResult{path: path}
	s, err := eval.LoadWith(eval.Options{AllowImports: o.allowImports}, path, nil)
	s, err, serr := applySettings(s, err, o.sets)
	r.sources = s.Sources
	if serr != nil {
		var le *eval.Error
		errors.As(serr, &le)
		r.loadErr, r.loadExit = serr, exitCheck
		if le != nil {
			r.diags = le.Diagnostics
			r.sources = le.Sources
		} else {
			r.diags = lang.Diagnostics{{Severity: lang.Error, Summary: serr.Error()}}
		}
		return &evaluation{result: r, s: s}
	}
	if err != nil {
		r.loadErr, r.loadExit = err, loadExit(err)
		var le *eval.Error
		if errors.As(err, &le) {
			r.diags = le.Diagnostics
		} else {
			r.diags = lang.Diagnostics{{Severity: lang.Error, Summary: err.Error()}}
		}
		return &evaluation{result: r, s: s}
	}
	for _, d := range s.Diagnostics() {
		if d.Severity == lang.Warning {
			r.diags = append(r.diags, d)
		}
	}
	ev := &evaluation{result: r, s: s}
	cov := newCoverageTracker(s, o.cover)
	for _, ex := range s.Expectations() {
		selected := ex.File == path && (o.run == nil || o.run.MatchString(ex.Name))
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

func caseOf(out eval.Outcome, d time.Duration) testCase {
	ex := out.Expectation
	c := testCase{name: ex.Name, file: ex.File, line: ex.Line, column: ex.Column, source: ex.Source, duration: d}
	switch {
	case out.Err:
		c.status = statusError
		c.diag = out.Diagnostic
		if c.diag == nil {
			n := ex.Node()
			c.diag = &lang.Diagnostic{Severity: lang.Error, Summary: "the expectation could not be evaluated", Pos: n.Pos, End: n.EndPos}
		}
		return c
	case out.Pass:
		c.status = statusPass
	default:
		c.status = statusFail
		c.diag = out.Diagnostic
	}
	u := writtenUnit(ex)
	c.got, c.want = out.Got.Precise(u), out.Want.Precise(u)
	if ex.Node().Approx != nil {
		c.tolerance = eval.NumberValue(out.Tolerance, out.Want.Type.Dim).Precise(u)
	}
	return c
}

// wantedExpr is the wanted side of an expect: what follows ≈, or the right
// operand of a comparison; nil for a plain condition.
func wantedExpr(n *lang.Expect) (want lang.Expr, op string) {
	if n.Approx != nil {
		return n.Approx.Want, "≈"
	}
	if b, ok := unparenExpr(n.X).(*lang.Binary); ok {
		switch b.Op {
		case "==", "!=", "<", "<=", ">", ">=":
			return b.R, b.Op
		}
	}
	return nil, ""
}

// writtenUnit is the unit the wanted value was written in, if a literal.
func writtenUnit(ex *eval.Expectation) *lang.Unit {
	want, _ := wantedExpr(ex.Node())
	if lit, _ := numberLiteral(unparenExpr(want)); lit != nil {
		return lit.Unit
	}
	return nil
}

func unparenExpr(x lang.Expr) lang.Expr {
	for {
		p, ok := x.(*lang.Paren)
		if !ok {
			return x
		}
		x = p.X
	}
}

// numberLiteral returns the literal a wanted value is, possibly negated.
func numberLiteral(x lang.Expr) (lit *lang.NumberLit, negated bool) {
	switch n := x.(type) {
	case *lang.NumberLit:
		return n, false
	case *lang.Unary:
		if l, ok := n.X.(*lang.NumberLit); ok && n.Op == "-" {
			return l, true
		}
	}
	return nil, false
}

// goldenPath is X.golden for X.gpl.
func goldenPath(path string) string {
	return strings.TrimSuffix(path, ".gpl") + ".golden"
}

// goldenName is the golden comparison's test name.
func goldenName(path string) string { return path + ": golden" }

// goldenReport is what gpl run prints for the file when run in its own
// directory, so that a golden file does not depend on where gpl test is
// run from.
func goldenReport(ev *evaluation) []byte {
	var b bytes.Buffer
	writeText(&b, &report{file: filepath.Base(ev.result.path), s: ev.s, outcomes: ev.outcomes})
	return b.Bytes()
}

// compareGolden compares X.golden, when it exists and -run selects it,
// with the file's text report.
func compareGolden(ev *evaluation, o *testOptions) (testCase, bool) {
	path := ev.result.path
	gp := goldenPath(path)
	name := goldenName(path)
	if o.run != nil && !o.run.MatchString(name) {
		return testCase{}, false
	}
	want, err := os.ReadFile(gp)
	if err != nil {
		return testCase{}, false
	}
	start := time.Now()
	got := goldenReport(ev)
	c := testCase{name: name, file: path, golden: gp}
	if diff := string(diff.Diff(gp, want, path+" (gpl run)", got)); diff != "" {
		c.status = statusFail
		c.diff = diff
		c.firstDiff = firstDifferentLine(want, got)
		c.diag = &lang.Diagnostic{Severity: lang.Error,
			Summary: fmt.Sprintf("the text report of %s differs from %s", filepath.Base(path), gp),
			Notes:   []string{"gpl test -update rewrites " + gp + " with the report"}}
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
