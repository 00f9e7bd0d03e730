package testrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// The output formats of gpl test.
//
// text: the rendered diagnostic of every failure and error on standard
// error (coloured on a terminal), then the summary line on standard output.
// With -v, standard output also lists every test case, in the files'
// order, as "--- PASS: NAME", "--- FAIL: NAME" or "--- ERROR: NAME".
//
// tap: TAP version 13 on standard output, a test point per case with a
// YAML block for a failure, the plan at the end, then "# SUMMARY".
//
// json: one JSON document on standard output, {"cases": [...],
// "coverage": ..., "summary": {...}}; the summary line also goes to
// standard error.
//
// jsonl: the same case objects, one per line (JSON Lines), on standard
// output as files finish; the summary line goes to standard error.
//
// With --cover, the rule coverage is printed just before the summary line,
// on the same stream (as "# " comments in TAP).

// testWriter prints a run's results in the chosen format as files finish.
type testWriter struct {
	e     *Env
	o     *options
	style lang.Style // of diagnostics on standard error, with the text format
	notes io.Writer  // where -update's notes go: the text and TAP streams are standard output
	tapN  int        // test points written
	cases []jsonCase // with json, every case, written at the end
}

func newTestWriter(e *Env, o *options) *testWriter {
	w := &testWriter{e: e, o: o, notes: e.Stdout}
	switch o.format {
	case "text":
		w.style = cli.StyleFor(e.Stderr, e.Getenv)
	case "tap":
		fmt.Fprintln(e.Stdout, "TAP version 13")
	case "json", "jsonl":
		w.notes = e.Stderr // keep standard output JSON
	}
	return w
}

// file writes one file's results as soon as they are ready.
func (w *testWriter) file(r *fileResult) {
	for _, n := range r.notes {
		if w.o.format == "tap" {
			n = "# " + n
		}
		fmt.Fprintln(w.notes, n)
	}
	if w.o.github {
		w.annotate(r)
	}
	switch w.o.format {
	case "text":
		w.text(r)
	case "tap":
		w.tap(r)
	case "json", "jsonl":
		w.json(r)
	}
}

// finish writes the end of the run: with --cover the rule coverage, then
// the summary line, and for TAP the plan before them. Coverage goes where
// the summary goes, just before it: the summary stays the last line. The
// json document, written now, holds both.
func (w *testWriter) finish(results []*fileResult, s testSummary, cov coverageTotal) {
	switch w.o.format {
	case "text":
		w.coverage(w.e.Stdout, results, cov, "")
		fmt.Fprintln(w.e.Stdout, s)
	case "tap":
		fmt.Fprintf(w.e.Stdout, "1..%d\n", w.tapN)
		w.coverage(w.e.Stdout, results, cov, "# ")
		fmt.Fprintf(w.e.Stdout, "# %s\n", s)
	case "json":
		w.coverage(w.e.Stderr, results, cov, "")
		fmt.Fprintln(w.e.Stderr, s)
		doc := jsonDocument{Cases: w.cases, Summary: jsonSummary{Passed: s.passed, Failed: s.failed, Errors: s.errors, Exit: s.exit}}
		if doc.Cases == nil {
			doc.Cases = []jsonCase{}
		}
		if w.o.cover {
			doc.Coverage = coverageJSON(results, cov, w.o.coverMin)
		}
		enc := json.NewEncoder(w.e.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(doc)
	case "jsonl":
		w.coverage(w.e.Stderr, results, cov, "")
		fmt.Fprintln(w.e.Stderr, s)
	}
}

func (w *testWriter) coverage(out io.Writer, results []*fileResult, cov coverageTotal, prefix string) {
	if w.o.cover {
		writeCoverage(out, results, cov, w.o.coverMin, prefix)
	}
}

func (w *testWriter) text(r *fileResult) {
	if len(r.diags) > 0 {
		if w.o.verbose && r.loadErr != nil {
			fmt.Fprintf(w.e.Stdout, "--- ERROR: %s (does not load)\n", r.path)
		}
		r.diags.RenderAll(w.e.Stderr, r.sources, w.style)
		fmt.Fprintln(w.e.Stderr)
	}
	for i := range r.cases {
		c := &r.cases[i]
		if w.o.verbose {
			fmt.Fprintf(w.e.Stdout, "--- %s: %s\n", strings.ToUpper(c.status.String()), c.name)
			if s := c.sampling(); s != "" && c.status == statusPass {
				fmt.Fprintf(w.e.Stdout, "    %s\n", s)
			}
		}
		if c.status != statusPass {
			r.render(w.e.Stderr, c, w.style)
			fmt.Fprintln(w.e.Stderr)
		}
	}
}

// render writes why a case failed: its diagnostic, and a golden diff.
func (r *fileResult) render(w io.Writer, c *testCase, st lang.Style) {
	if c.diag != nil {
		c.diag.Render(w, r.sources, st)
	}
	if c.diff != "" {
		io.WriteString(w, c.diff)
	}
}

// plain is the uncoloured text of why a case failed, for reports.
func (r *fileResult) plain(c *testCase) string {
	var b strings.Builder
	r.render(&b, c, lang.Style{})
	return b.String()
}

// loadText is the uncoloured text of a file's load error.
func (r *fileResult) loadText() string {
	var b strings.Builder
	r.diags.RenderAll(&b, r.sources, lang.Style{})
	return b.String()
}

func (w *testWriter) tap(r *fileResult) {
	if r.loadErr != nil {
		w.tapN++
		fmt.Fprintf(w.e.Stdout, "not ok %d - %s\n", w.tapN, tapEscape(r.path))
		writeYAML(w.e.Stdout, []yamlField{
			{"message", "does not load"}, {"severity", "error"}, {"file", r.path},
			{"diagnostic", r.loadText()},
		})
		return
	}
	for i := range r.cases {
		c := &r.cases[i]
		w.tapN++
		if c.status == statusPass {
			fmt.Fprintf(w.e.Stdout, "ok %d - %s\n", w.tapN, tapEscape(c.name))
			if c.samples > 0 {
				// A statistic's point says what it got and over which
				// samples, which a rerun with other --samples or --seed
				// changes.
				fields := []yamlField{{"got", c.got}}
				if c.gotNum != nil {
					fields = append(fields, yamlField{"got_value", *c.gotNum}, yamlField{"unit", c.unit})
				}
				writeYAML(w.e.Stdout, append(fields, yamlField{"samples", c.samples}, yamlField{"seed", int(c.seed)}))
			}
			continue
		}
		fmt.Fprintf(w.e.Stdout, "not ok %d - %s\n", w.tapN, tapEscape(c.name))
		fields := []yamlField{{"message", caseMessage(c)}, {"severity", c.status.String()}, {"file", c.file}}
		if line, col := c.place(); line > 0 {
			fields = append(fields, yamlField{"line", line}, yamlField{"column", col})
		}
		for _, f := range []yamlField{{"op", c.op}, {"got", c.got}, {"want", c.want}, {"tolerance", c.tolerance}} {
			if f.value != "" {
				fields = append(fields, f)
			}
		}
		for _, f := range []struct {
			key string
			v   *float64
		}{{"got_value", c.gotNum}, {"want_value", c.wantNum}, {"tolerance_value", c.tolNum}} {
			if f.v != nil {
				fields = append(fields, yamlField{f.key, *f.v})
			}
		}
		if c.wantNum != nil {
			fields = append(fields, yamlField{"unit", c.unit})
		}
		if c.samples > 0 {
			fields = append(fields, yamlField{"samples", c.samples}, yamlField{"seed", int(c.seed)})
		}
		fields = append(fields, yamlField{"diagnostic", r.plain(c)})
		writeYAML(w.e.Stdout, fields)
	}
}

// place is the line and column a failing case is reported at: its
// diagnostic's, where the caret of the text format stands, else the
// expect's.
func (c *testCase) place() (line, column int) {
	if c.diag != nil && c.diag.Pos.Line > 0 && c.golden == "" {
		return c.diag.Pos.Line, c.diag.Pos.Column
	}
	return c.line, c.column
}

// caseMessage is a failure's one-line summary: the diagnostic's summary
// and label (got, want, off by), or for a golden case which line differs.
func caseMessage(c *testCase) string {
	switch {
	case c.golden != "" && c.diff == "":
		return c.golden + " does not exist"
	case c.golden != "":
		return fmt.Sprintf("golden output differs from %s at line %d", c.golden, c.firstDiff)
	case c.diag == nil && c.status == statusError:
		return "runtime error"
	case c.diag == nil:
		return "expectation failed"
	}
	msg := c.diag.Summary
	if c.warning {
		msg = "warning: " + msg
	}
	if c.diag.Label != "" {
		msg += ": " + c.diag.Label
	}
	return msg
}

// tapEscape keeps a test point's description from reading as a directive.
func tapEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "#", `\#`)
}

type yamlField struct {
	key   string
	value any // string, int or float64
}

// writeYAML writes a TAP YAML block: scalars as JSON strings (which YAML
// reads as double-quoted scalars) and multi-line text as literal blocks.
func writeYAML(w io.Writer, fields []yamlField) {
	var b bytes.Buffer
	b.WriteString("  ---\n")
	for _, f := range fields {
		switch v := f.value.(type) {
		case int:
			fmt.Fprintf(&b, "  %s: %d\n", f.key, v)
		case float64:
			fmt.Fprintf(&b, "  %s: %s\n", f.key, strconv.FormatFloat(v, 'g', -1, 64))
		case string:
			if strings.Contains(v, "\n") {
				fmt.Fprintf(&b, "  %s: |\n", f.key)
				for _, line := range strings.SplitAfter(strings.TrimRight(v, "\n"), "\n") {
					b.WriteString("    " + line)
				}
				b.WriteString("\n")
				continue
			}
			fmt.Fprintf(&b, "  %s: %s\n", f.key, jsonString(v))
		}
	}
	b.WriteString("  ...\n")
	w.Write(b.Bytes())
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonCase is one test case: a line of --format jsonl, an element of the
// cases of --format json.
type jsonCase struct {
	File      string `json:"file"`
	Name      string `json:"name"`
	Line      int    `json:"line,omitempty"`
	Column    int    `json:"column,omitempty"`
	Source    string `json:"source,omitempty"`
	Status    string `json:"status"`
	Got       string `json:"got,omitempty"`
	Want      string `json:"want,omitempty"`
	Tolerance string `json:"tolerance,omitempty"`
	// Op is the expect's operator; GotValue, WantValue and ToleranceValue
	// are the numbers of got, want and tolerance in Unit, the unit they
	// are written in ("" for a count), when they are numbers.
	Op             string   `json:"op,omitempty"`
	GotValue       *float64 `json:"got_value,omitempty"`
	WantValue      *float64 `json:"want_value,omitempty"`
	ToleranceValue *float64 `json:"tolerance_value,omitempty"`
	Unit           *string  `json:"unit,omitempty"`
	// Samples and Seed are the sampling of the statistics the expect
	// reads (--samples, --seed), absent for one that reads none.
	Samples  int     `json:"samples,omitempty"`
	Seed     uint64  `json:"seed,omitempty"`
	Duration float64 `json:"duration"`
	Summary  string  `json:"summary,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// jsonDocument is the whole of --format json.
type jsonDocument struct {
	Cases    []jsonCase    `json:"cases"`
	Coverage *jsonCoverage `json:"coverage,omitempty"`
	Summary  jsonSummary   `json:"summary"`
}

type jsonSummary struct {
	Passed int `json:"passed"`
	Failed int `json:"failed"`
	Errors int `json:"errors"`
	Exit   int `json:"exit"`
}

// jsonCoverage is --cover in the json document: the share of rules fired
// over every ruleset, each ruleset's total, and each file's own counts.
type jsonCoverage struct {
	Fired    int                `json:"fired"`
	Rules    int                `json:"rules"`
	Percent  float64            `json:"percent"`
	CoverMin *float64           `json:"cover_min"`
	Rulesets []jsonRuleCoverage `json:"rulesets"`
	Files    []jsonFileCoverage `json:"files"`
}

type jsonFileCoverage struct {
	File     string             `json:"file"`
	Rulesets []jsonRuleCoverage `json:"rulesets"`
}

type jsonRuleCoverage struct {
	Ruleset string         `json:"ruleset"`
	File    string         `json:"file"` // where it is declared
	Files   int            `json:"files"`
	Fired   int            `json:"fired"`
	Rules   []jsonRuleHits `json:"rules"`
}

type jsonRuleHits struct {
	Name  string `json:"name"`
	Line  int    `json:"line"`
	Count int    `json:"count"`
}

func ruleCoverageJSON(c *ruleCoverage) jsonRuleCoverage {
	out := jsonRuleCoverage{Ruleset: c.ruleset, File: c.declared, Files: c.files, Fired: c.fired(), Rules: []jsonRuleHits{}}
	for i, n := range c.counts {
		out.Rules = append(out.Rules, jsonRuleHits{Name: c.rules[i], Line: c.lines[i], Count: n})
	}
	return out
}

func coverageJSON(results []*fileResult, total coverageTotal, coverMin float64) *jsonCoverage {
	out := &jsonCoverage{Fired: total.fired, Rules: total.rules, Percent: units.Clean(total.percent()),
		Rulesets: []jsonRuleCoverage{}, Files: []jsonFileCoverage{}}
	if coverMin >= 0 {
		out.CoverMin = &coverMin
	}
	for _, t := range total.rulesets {
		out.Rulesets = append(out.Rulesets, ruleCoverageJSON(t))
	}
	for _, r := range results {
		if r.loadErr != nil {
			continue
		}
		f := jsonFileCoverage{File: r.path, Rulesets: []jsonRuleCoverage{}}
		for i := range r.coverage {
			f.Rulesets = append(f.Rulesets, ruleCoverageJSON(&r.coverage[i]))
		}
		out.Files = append(out.Files, f)
	}
	return out
}

// json writes a file's cases as lines (jsonl), or keeps them for the
// document (json).
func (w *testWriter) json(r *fileResult) {
	var cases []jsonCase
	if r.loadErr != nil {
		cases = append(cases, jsonCase{File: r.path, Name: r.path, Status: "error", Duration: r.duration.Seconds(),
			Summary: "does not load", Message: r.loadText()})
	}
	for i := range r.cases {
		c := &r.cases[i]
		line, col := c.place()
		jc := jsonCase{File: c.file, Name: c.name, Line: line, Column: col, Source: c.source,
			Status: c.status.String(), Got: c.got, Want: c.want, Tolerance: c.tolerance, Op: c.op,
			GotValue: c.gotNum, WantValue: c.wantNum, ToleranceValue: c.tolNum, Duration: c.duration.Seconds(),
			Samples: c.samples, Seed: c.seed}
		if c.wantNum != nil {
			jc.Unit = &c.unit
		}
		if c.status != statusPass {
			jc.Summary = caseMessage(c)
			jc.Message = r.plain(c)
		}
		cases = append(cases, jc)
	}
	if w.o.format == "json" {
		w.cases = append(w.cases, cases...)
		return
	}
	enc := json.NewEncoder(w.e.Stdout)
	enc.SetEscapeHTML(false)
	for _, c := range cases {
		enc.Encode(c)
	}
}

// annotate prints GitHub Actions workflow commands for a file's failures,
// errors and warnings, which the runner shows on the lines they are about.
// They go to standard output with the text format, and to standard error
// with tap and json so as to keep those streams well formed; the runner
// reads workflow commands from both.
func (w *testWriter) annotate(r *fileResult) {
	out := w.e.Stdout
	if w.o.format != "text" {
		out = w.e.Stderr
	}
	for _, d := range r.diags {
		kind := "error"
		if d.Severity == lang.Warning {
			kind = "warning"
		}
		file := d.Pos.Filename
		if file == "" {
			file = r.path
		}
		writeAnnotation(out, kind, file, d.Pos.Line, d.Pos.Column, diagMessage(d))
	}
	for i := range r.cases {
		c := &r.cases[i]
		switch {
		case c.status == statusPass:
		case c.golden != "":
			writeAnnotation(out, "error", c.golden, max(c.firstDiff, 1), 1, c.diag.Summary+"\n"+c.diag.Notes[0])
		case c.diag != nil:
			writeAnnotation(out, "error", c.diag.Pos.Filename, c.diag.Pos.Line, c.diag.Pos.Column, diagMessage(c.diag))
		}
	}
}

// diagMessage is a diagnostic on a few lines: summary and label, then notes.
func diagMessage(d *lang.Diagnostic) string {
	msg := d.Summary
	if d.Label != "" {
		msg += ": " + d.Label
	}
	for _, n := range d.Notes {
		msg += "\n" + n
	}
	return msg
}

// writeAnnotation prints ::KIND file=F,line=L,col=C::MESSAGE, escaped as
// the workflow command syntax requires.
func writeAnnotation(w io.Writer, kind, file string, line, col int, msg string) {
	props := "file=" + escapeProperty(file)
	if line > 0 {
		props += fmt.Sprintf(",line=%d,col=%d", line, max(col, 1))
	}
	fmt.Fprintf(w, "::%s %s::%s\n", kind, props, escapeData(msg))
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
