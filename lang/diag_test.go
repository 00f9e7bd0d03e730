package lang

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// at is a position on a line and column of file a.gpl.
func at(line, col int) Position { return Position{Filename: "a.gpl", Line: line, Column: col} }

const llamaSource = `let peak_mfu = 0.45

pool shared_h100 { devices = 128  rate = 2.50 USD/h }

job llama2_70b on shared_h100 {
	hours    = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = peak_mfu }
  expect mpg ≈ 0.29
  expect mpg ≈ 0.29 ± x
  expect cost ≈ $230400
}
`

func TestRender(t *testing.T) {
	srcs := Sources{
		"a.gpl":     []byte(llamaSource),
		"std/b.gpl": []byte("line one\nrules kapsl {\n"),
	}
	tests := []struct {
		name  string
		diag  Diagnostic
		style Style
		want  string
	}{
		{
			name: "the expectation failure of language.md section 9",
			diag: Diagnostic{
				Summary: "expectation failed", Pos: at(9, 10), End: at(9, 13),
				Label: "got 0.28215, want 0.29 ± 0.005 (off by 0.00785)",
				Notes: []string{"with S = 0.95, R = 0.9, P = 0.33"},
			},
			want: `error: expectation failed
  --> a.gpl:9:10
   |
 9 |   expect mpg ≈ 0.29
   |          ^^^ got 0.28215, want 0.29 ± 0.005 (off by 0.00785)
   = with S = 0.95, R = 0.9, P = 0.33
`,
		},
		{
			name: "caret after a multi-byte character",
			diag: Diagnostic{Summary: "unknown name x", Pos: at(10, 23), End: at(10, 24)},
			want: `error: unknown name x
   --> a.gpl:10:23
    |
 10 |   expect mpg ≈ 0.29 ± x
    |                       ^
`,
		},
		{
			name: "carets under every character of a range after a multi-byte one",
			diag: Diagnostic{Summary: "tolerance", Pos: at(10, 16), End: at(10, 24), Label: "here"},
			want: `error: tolerance
   --> a.gpl:10:16
    |
 10 |   expect mpg ≈ 0.29 ± x
    |                ^^^^^^^^ here
`,
		},
		{
			name: "first column and a one-digit line",
			diag: Diagnostic{Summary: "declared twice", Pos: at(1, 5), End: at(1, 13), Label: "declared again here"},
			want: `error: declared twice
  --> a.gpl:1:5
   |
 1 | let peak_mfu = 0.45
   |     ^^^^^^^^ declared again here
`,
		},
		{
			name: "an empty range gets one caret",
			diag: Diagnostic{Summary: "syntax error", Pos: at(1, 20), End: at(1, 20)},
			want: `error: syntax error
  --> a.gpl:1:20
   |
 1 | let peak_mfu = 0.45
   |                    ^
`,
		},
		{
			name: "a tab in the source line is shown as a space",
			diag: Diagnostic{Summary: "hours", Pos: at(6, 13), End: at(6, 17)},
			want: `error: hours
  --> a.gpl:6:13
   |
 6 |  hours    = 720h
   |             ^^^^
`,
		},
		{
			name: "a range over several lines underlines to the end of the first",
			diag: Diagnostic{Summary: "job", Pos: at(5, 1), End: at(12, 2)},
			want: `error: job
  --> a.gpl:5:1
   |
 5 | job llama2_70b on shared_h100 {
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
`,
		},
		{
			name: "related place on a later line widens the gutter",
			diag: Diagnostic{
				Summary: "runtime ceiling 0.85 is below its factor 0.9", Pos: at(8, 43), End: at(8, 47),
				Related: []Related{{Pos: at(10, 10), End: at(10, 13), Label: "read here"}},
			},
			want: `error: runtime ceiling 0.85 is below its factor 0.9
   --> a.gpl:8:43
    |
  8 |   ceilings { scheduling = 0.98  runtime = 0.95  program = peak_mfu }
    |                                           ^^^^
    |
 10 |   expect mpg ≈ 0.29 ± x
    |          ^^^ read here
`,
		},
		{
			name: "related place in another file",
			diag: Diagnostic{
				Summary: "kapsl is declared twice", Pos: at(11, 10), End: at(11, 14), Label: "declared again here",
				Related: []Related{{Pos: Position{Filename: "std/b.gpl", Line: 2, Column: 7}, End: Position{Filename: "std/b.gpl", Line: 2, Column: 12}, Label: "first declared here"}},
			},
			want: `error: kapsl is declared twice
   --> a.gpl:11:10
    |
 11 |   expect cost ≈ $230400
    |          ^^^^ declared again here
   :: std/b.gpl:2:7
  2 | rules kapsl {
    |       ^^^^^ first declared here
`,
		},
		{
			name: "several notes",
			diag: Diagnostic{
				Summary: "expectation failed", Pos: at(11, 10), End: at(11, 14),
				Label: "got $230,000.00", Notes: []string{"with rate = $2.50/h", "in job llama2_70b"},
			},
			want: `error: expectation failed
   --> a.gpl:11:10
    |
 11 |   expect cost ≈ $230400
    |          ^^^^ got $230,000.00
    = with rate = $2.50/h
    = in job llama2_70b
`,
		},
		{
			name: "warning",
			diag: Diagnostic{Severity: Warning, Summary: "rule small can never fire", Pos: at(3, 1), End: at(3, 5), Label: "never fires"},
			want: `warning: rule small can never fire
  --> a.gpl:3:1
   |
 3 | pool shared_h100 { devices = 128  rate = 2.50 USD/h }
   | ^^^^ never fires
`,
		},
		{
			name: "without a position",
			diag: Diagnostic{Summary: "cannot read x.gpl: no such file", Notes: []string{"run gpl scenarios for the bundled ones"}},
			want: `error: cannot read x.gpl: no such file
  = run gpl scenarios for the bundled ones
`,
		},
		{
			name: "source not available",
			diag: Diagnostic{Summary: "expectation failed", Pos: Position{Filename: "gone.gpl", Line: 3, Column: 2}, Label: "got 1, want 2"},
			want: `error: expectation failed
  --> gone.gpl:3:2
   |
   | got 1, want 2
`,
		},
		{
			name: "line past the end of the source",
			diag: Diagnostic{Summary: "end", Pos: at(40, 1)},
			want: `error: end
   --> a.gpl:40:1
    |
`,
		},
		{
			name:  "colour",
			style: Style{Color: true},
			diag:  Diagnostic{Summary: "unknown name x", Pos: at(1, 5), End: at(1, 6), Label: "here", Notes: []string{"note"}},
			want: "\x1b[1;31merror:\x1b[0m \x1b[1munknown name x\x1b[0m\n" +
				"  \x1b[1;34m-->\x1b[0m a.gpl:1:5\n" +
				"   \x1b[1;34m|\x1b[0m\n" +
				"\x1b[1;34m 1\x1b[0m \x1b[1;34m|\x1b[0m let peak_mfu = 0.45\n" +
				"   \x1b[1;34m|\x1b[0m     \x1b[1;31m^\x1b[0m \x1b[1;31mhere\x1b[0m\n" +
				"   \x1b[1;34m= \x1b[0mnote\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			tt.diag.Render(&b, srcs, tt.style)
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("Render (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRenderAll(t *testing.T) {
	src := "let a = 1 +\nlet b = c\n"
	_, diags := Parse("t.gpl", []byte(src))
	diags = append(diags, &Diagnostic{Severity: Warning, Summary: "b is unused", Pos: Position{Filename: "t.gpl", Line: 2, Column: 5}, End: Position{Filename: "t.gpl", Line: 2, Column: 6}})
	var b strings.Builder
	diags.RenderAll(&b, Sources{"t.gpl": []byte(src)}, Style{})
	want := `error: syntax error: expected an expression after "+", found end of statement
  --> t.gpl:1:12
   |
 1 | let a = 1 +
   |            ^

warning: b is unused
  --> t.gpl:2:5
   |
 2 | let b = c
   |     ^
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("RenderAll (-want +got):\n%s", diff)
	}
}

func TestDiagnostics(t *testing.T) {
	d1 := &Diagnostic{Severity: Warning, Summary: "w", Pos: Position{Filename: "b.gpl", Line: 1, Column: 1}}
	d2 := &Diagnostic{Summary: "e2", Pos: Position{Filename: "a.gpl", Line: 2, Column: 9}}
	d3 := &Diagnostic{Summary: "e1", Pos: Position{Filename: "a.gpl", Line: 2, Column: 3}}
	d4 := &Diagnostic{Summary: "e0", Pos: Position{Filename: "a.gpl", Line: 1, Column: 30}}
	ds := Diagnostics{d1, d2, d3, d4}
	ds.Sort()
	var order []string
	for _, d := range ds {
		order = append(order, d.Summary)
	}
	if diff := cmp.Diff([]string{"e0", "e1", "e2", "w"}, order); diff != "" {
		t.Errorf("Sort (-want +got):\n%s", diff)
	}
	if got, want := ds.Error(), "a.gpl:1:30: e0\na.gpl:2:3: e1\na.gpl:2:9: e2\nb.gpl:1:1: w"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !ds.HasErrors() || ds.Err() == nil {
		t.Error("errors not reported")
	}
	var target Diagnostics
	if !errors.As(ds.Err(), &target) || len(target) != 4 {
		t.Errorf("Err() = %v, want the diagnostics", ds.Err())
	}
	warnings := Diagnostics{d1}
	if warnings.HasErrors() || warnings.Err() != nil {
		t.Error("warnings alone count as errors")
	}
	if got := (&Diagnostic{Summary: "no place"}).Error(); got != "no place" {
		t.Errorf("Error() without a position = %q", got)
	}
	if Error.String() != "error" || Warning.String() != "warning" {
		t.Errorf("severities print as %q, %q", Error, Warning)
	}
}

// TestClipLine checks the window a long line is cut to around its caret.
func TestClipLine(t *testing.T) {
	long := strings.Repeat("abcdefghij", 30) // 300 columns
	type clip struct {
		Line   string
		Col, N int
	}
	for _, tt := range []struct {
		line   string
		col, n int
		want   clip
	}{
		{"let x = 1", 5, 1, clip{"let x = 1", 5, 1}},
		{long, 1, 3, clip{long[:120] + "…", 1, 3}},
		{long, 151, 2, clip{"…" + long[110:230] + "…", 42, 2}},
		{long, 299, 5, clip{"…" + long[180:], 120, 2}},
		{long, 100, 500, clip{"…" + long[59:179] + "…", 42, 80}},
		{strings.Repeat("µ", 200), 101, 1, clip{"…" + strings.Repeat("µ", 120) + "…", 42, 1}},
	} {
		line, col, n := clipLine(tt.line, tt.col, tt.n)
		if diff := cmp.Diff(tt.want, clip{line, col, n}); diff != "" {
			t.Errorf("clipLine(%d chars, %d, %d) (-want +got):\n%s", len([]rune(tt.line)), tt.col, tt.n, diff)
		}
	}
}
