package lang

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Severity says whether a Diagnostic stops the file from running.
type Severity int

// Severities.
const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Stage says when a diagnostic arose: while reading and checking the text
// (a syntax error, an unknown name, a dimension, an input out of range), or
// while computing a value (a division by zero, an mpg of 0 used as a
// divisor). The command line exits 2 for the first and 3 for the second.
type Stage int

// Stages.
const (
	Checking Stage = iota
	Running
)

// Diagnostic is one problem found in a file, with the source range it is
// about. Label is printed after the caret; Notes follow on lines of their
// own ("= with S = 0.95"); Related points at a second place (a rule that
// shadows another).
type Diagnostic struct {
	Severity Severity
	Stage    Stage
	Summary  string
	Pos, End Position // subject range; End is exclusive
	Label    string
	Notes    []string
	Related  []Related
	// Code names the kind of mistake in a word that stays the same from
	// release to release ("unit_as_word", "unknown_name"), for an editor
	// to show and a tool to match; "" when the diagnostic has none.
	Code string
	// Fixes are the edits that make the change the hint suggests (write
	// 720h, the name meant, == for =), applied together; none when what
	// was meant is not clear.
	Fixes []Fix
}

// Fix replaces the source text from Pos up to End (exclusive) with Text.
type Fix struct {
	Pos, End Position
	Text     string
}

// Related is a secondary place a Diagnostic refers to.
type Related struct {
	Pos, End Position
	Label    string
}

func (d *Diagnostic) Error() string {
	if d.Pos.Filename == "" && d.Pos.Line == 0 {
		return d.Summary
	}
	return fmt.Sprintf("%s:%d:%d: %s", d.Pos.Filename, d.Pos.Line, d.Pos.Column, d.Summary)
}

// Diagnostics is a list of problems, in source order once sorted.
type Diagnostics []*Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns the diagnostics as an error when any is an error, else nil.
func (ds Diagnostics) Err() error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}

func (ds Diagnostics) Error() string {
	var s []string
	for _, d := range ds {
		s = append(s, d.Error())
	}
	return strings.Join(s, "\n")
}

// Sort orders diagnostics by file, then position.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// Sources maps a file name to its text, for rendering source lines.
type Sources map[string][]byte

// Style chooses colours for rendering; the zero Style prints plain text.
type Style struct {
	Color bool
}

func (s Style) paint(code, text string) string {
	if !s.Color || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// Render writes the diagnostic as text:
//
//	error: expectation failed
//	  --> scenarios/llama.gpl:9:10
//	   |
//	 9 |   expect mpg ≈ 0.29
//	   |          ^^^ got 0.28215, want 0.29 ± 0.005 (off by 0.00785)
//	   = with S = 0.95, R = 0.9, P = 0.33
func (d *Diagnostic) Render(w io.Writer, src Sources, st Style) {
	sevColor := "1;31"
	if d.Severity == Warning {
		sevColor = "1;33"
	}
	fmt.Fprintf(w, "%s%s\n", st.paint(sevColor, d.Severity.String()+":"), " "+st.paint("1", d.Summary))
	if d.Pos.Line == 0 {
		for _, n := range d.Notes {
			fmt.Fprintf(w, "  = %s\n", n)
		}
		return
	}
	width := len(strconv.Itoa(maxLine(d)))
	gutter := strings.Repeat(" ", width+1)
	fmt.Fprintf(w, "%s%s %s:%d:%d\n", gutter, st.paint("1;34", "-->"), d.Pos.Filename, d.Pos.Line, d.Pos.Column)
	fmt.Fprintf(w, "%s %s\n", gutter, st.paint("1;34", "|"))
	renderSnippet(w, src, d.Pos, d.End, d.Label, width, st, sevColor)
	for _, r := range d.Related {
		if r.Pos.Filename != d.Pos.Filename {
			fmt.Fprintf(w, "%s%s %s:%d:%d\n", gutter, st.paint("1;34", "::"), r.Pos.Filename, r.Pos.Line, r.Pos.Column)
		} else {
			fmt.Fprintf(w, "%s %s\n", gutter, st.paint("1;34", "|"))
		}
		renderSnippet(w, src, r.Pos, r.End, r.Label, width, st, "1;34")
	}
	for _, n := range d.Notes {
		fmt.Fprintf(w, "%s %s\n", gutter, st.paint("1;34", "= ")+n)
	}
}

func maxLine(d *Diagnostic) int {
	m := d.Pos.Line
	for _, r := range d.Related {
		m = max(m, r.Pos.Line)
	}
	return m
}

func renderSnippet(w io.Writer, src Sources, pos, end Position, label string, width int, st Style, color string) {
	gutter := strings.Repeat(" ", width+1)
	line, ok := sourceLine(src[pos.Filename], pos)
	if !ok {
		if label != "" {
			fmt.Fprintf(w, "%s %s %s\n", gutter, st.paint("1;34", "|"), label)
		}
		return
	}
	line = strings.ReplaceAll(line, "\t", " ")
	n := 1
	if end.Line == pos.Line && end.Column > pos.Column {
		n = end.Column - pos.Column
	} else if end.Line > pos.Line {
		n = max(1, utf8.RuneCountInString(line)-pos.Column+1)
	}
	line, col, n := clipLine(line, pos.Column, n)
	fmt.Fprintf(w, "%s %s %s\n", st.paint("1;34", fmt.Sprintf("%*d", width+1, pos.Line)), st.paint("1;34", "|"), line)
	carets := strings.Repeat(" ", max(0, col-1)) + st.paint(color, strings.Repeat("^", n))
	if label != "" {
		carets += " " + st.paint(color, label)
	}
	fmt.Fprintf(w, "%s %s %s\n", gutter, st.paint("1;34", "|"), carets)
}

// snippetColumns is the most of one source line a diagnostic shows: a
// longer line (a generated file's, a one-line list of a million items) is
// cut to a window around the caret, marked with "…" where it is cut.
const snippetColumns = 120

// clipLine cuts line to at most snippetColumns around column col (1-based,
// in characters), returning the line to show, the caret's column in it
// and the carets' width n, cut to what is shown.
func clipLine(line string, col, n int) (string, int, int) {
	if utf8.RuneCountInString(line) <= snippetColumns {
		return line, col, n
	}
	rs := []rune(line)
	from := max(0, min(col-1-snippetColumns/3, len(rs)-snippetColumns))
	to := min(len(rs), from+snippetColumns)
	n = max(1, min(n, to-(col-1))) // carets stop where the shown part does
	shown, shownCol := string(rs[from:to]), col-from
	if from > 0 {
		shown, shownCol = "…"+shown, shownCol+1
	}
	if to < len(rs) {
		shown += "…"
	}
	return shown, shownCol, n
}

// sourceLine returns the line of src that holds pos, without its line
// break ("\n", "\r\n" or a lone "\r", as the scanner reads them) or a
// leading byte order mark. The line is found from the position's byte
// offset, so rendering a diagnostic costs the length of its line, not of
// the text before it; a position without an offset is found by counting
// lines.
func sourceLine(src []byte, pos Position) (string, bool) {
	n := pos.Line
	if src == nil || n < 1 {
		return "", false
	}
	start := 0
	if off := pos.Offset; off > 0 && off <= len(src) || off == 0 && n == 1 {
		if off > 0 && off < len(src) && src[off] == '\n' && src[off-1] == '\r' {
			off-- // the "\n" of a "\r\n" ends the line its "\r" does
		}
		start = bytes.LastIndexAny(src[:off], "\r\n") + 1
	} else {
		for i := 1; i < n; i++ {
			j := bytes.IndexAny(src[start:], "\r\n")
			if j < 0 {
				return "", false
			}
			start += j + 1
			if src[start-1] == '\r' && start < len(src) && src[start] == '\n' {
				start++
			}
		}
	}
	end := len(src)
	if j := bytes.IndexAny(src[start:], "\r\n"); j >= 0 {
		end = start + j
	}
	line := src[start:end]
	if start == 0 {
		line = bytes.TrimPrefix(line, []byte(bom))
	}
	return string(line), true
}

// RenderAll writes every diagnostic, a blank line between them.
func (ds Diagnostics) RenderAll(w io.Writer, src Sources, st Style) {
	for i, d := range ds {
		if i > 0 {
			fmt.Fprintln(w)
		}
		d.Render(w, src, st)
	}
}
