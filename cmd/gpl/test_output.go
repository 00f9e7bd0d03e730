package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gpl-lang/gpl/lang"
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
// json: a JSON object per line per case on standard output; the summary
// line goes to standard error.
//
// With --cover, the rule coverage is printed just before the summary line,
// on the same stream (as "# " comments in TAP).

// testWriter prints a run's results in the chosen format as files finish.
type testWriter struct {
	e     *env
	o     *testOptions
	style lang.Style // of diagnostics on standard error, with the text format
	notes io.Writer  // where -update's notes go: the text and TAP streams are standard output
	tapN  int        // test points written
}

func newTestWriter(e *env, o *testOptions) *testWriter {
	w := &testWriter{e: e, o: o, notes: e.stdout}
	switch o.format {
	case "text":
		w.style = styleFor(e.stderr, e.getenv)
	case "tap":
		fmt.Fprintln(e.stdout, "TAP version 13")
	case "json":
		w.notes = e.stderr // keep standard output one object per line
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
	case "json":
		w.json(r)
	}
}

// finish writes the end of the run: with --cover the rule coverage, then
// the summary line, and for TAP the plan before them. Coverage goes where
// the summary goes, just before it: the summary stays the last line.
func (w *testWriter) finish(results []*fileResult, s testSummary) {
	switch w.o.format {
	case "text":
		w.coverage(w.e.stdout, results, "")
		fmt.Fprintln(w.e.stdout, s)
	case "tap":
		fmt.Fprintf(w.e.stdout, "1..%d\n", w.tapN)
		w.coverage(w.e.stdout, results, "# ")
		fmt.Fprintf(w.e.stdout, "# %s\n", s)
	case "json":
		w.coverage(w.e.stderr, results, "")
		fmt.Fprintln(w.e.stderr, s)
	}
}

func (w *testWriter) coverage(out io.Writer, results []*fileResult, prefix string) {
	if w.o.cover {
		writeCoverage(out, results, prefix)
	}
}

func (w *testWriter) text(r *fileResult) {
	if len(r.diags) > 0 {
		if w.o.verbose && r.loadErr != nil {
			fmt.Fprintf(w.e.stdout, "--- ERROR: %s (does not load)\n", r.path)
		}
		r.diags.RenderAll(w.e.stderr, r.sources, w.style)
		fmt.Fprintln(w.e.stderr)
	}
	for i := range r.cases {
		c := &r.cases[i]
		if w.o.verbose {
			fmt.Fprintf(w.e.stdout, "--- %s: %s\n", strings.ToUpper(c.status.String()), c.name)
		}
		if c.status != statusPass {
			r.render(w.e.stderr, c, w.style)
			fmt.Fprintln(w.e.stderr)
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
		fmt.Fprintf(w.e.stdout, "not ok %d - %s\n", w.tapN, tapEscape(r.path))
		writeYAML(w.e.stdout, []yamlField{
			{"message", "does not load"}, {"severity", "error"}, {"file", r.path},
			{"diagnostic", r.loadText()},
		})
		return
	}
	for i := range r.cases {
		c := &r.cases[i]
		w.tapN++
		if c.status == statusPass {
			fmt.Fprintf(w.e.stdout, "ok %d - %s\n", w.tapN, tapEscape(c.name))
			continue
		}
		fmt.Fprintf(w.e.stdout, "not ok %d - %s\n", w.tapN, tapEscape(c.name))
		fields := []yamlField{{"message", caseMessage(c)}, {"severity", c.status.String()}, {"file", c.file}}
		if c.line > 0 {
			fields = append(fields, yamlField{"line", c.line}, yamlField{"column", c.column})
		}
		for _, f := range []yamlField{{"got", c.got}, {"want", c.want}, {"tolerance", c.tolerance}} {
			if f.value != "" {
				fields = append(fields, f)
			}
		}
		fields = append(fields, yamlField{"diagnostic", r.plain(c)})
		writeYAML(w.e.stdout, fields)
	}
}

// caseMessage is a failure's one-line summary.
func caseMessage(c *testCase) string {
	switch {
	case c.golden != "":
		return "golden output differs"
	case c.status == statusError:
		return "runtime error"
	}
	return "expectation failed"
}

// tapEscape keeps a test point's description from reading as a directive.
func tapEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "#", `\#`)
}

type yamlField struct {
	key   string
	value any // string or int
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

// jsonCase is one line of --format json.
type jsonCase struct {
	File      string  `json:"file"`
	Name      string  `json:"name"`
	Line      int     `json:"line,omitempty"`
	Column    int     `json:"column,omitempty"`
	Source    string  `json:"source,omitempty"`
	Status    string  `json:"status"`
	Got       string  `json:"got,omitempty"`
	Want      string  `json:"want,omitempty"`
	Tolerance string  `json:"tolerance,omitempty"`
	Duration  float64 `json:"duration"`
	Message   string  `json:"message,omitempty"`
}

func (w *testWriter) json(r *fileResult) {
	enc := json.NewEncoder(w.e.stdout)
	enc.SetEscapeHTML(false)
	if r.loadErr != nil {
		enc.Encode(jsonCase{File: r.path, Name: r.path, Status: "error", Duration: r.duration.Seconds(), Message: r.loadText()})
		return
	}
	for i := range r.cases {
		c := &r.cases[i]
		jc := jsonCase{File: c.file, Name: c.name, Line: c.line, Column: c.column, Source: c.source,
			Status: c.status.String(), Got: c.got, Want: c.want, Tolerance: c.tolerance, Duration: c.duration.Seconds()}
		if c.status != statusPass {
			jc.Message = r.plain(c)
		}
		enc.Encode(jc)
	}
}

// annotate prints GitHub Actions workflow commands for a file's failures,
// errors and warnings, which the runner shows on the lines they are about.
// They go to standard output with the text format, and to standard error
// with tap and json so as to keep those streams well formed; the runner
// reads workflow commands from both.
func (w *testWriter) annotate(r *fileResult) {
	out := w.e.stdout
	if w.o.format != "text" {
		out = w.e.stderr
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
			writeAnnotation(out, "error", c.golden, c.firstDiff, 1, c.diag.Summary+"\n"+c.diag.Notes[0])
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
