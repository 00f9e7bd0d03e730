package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/google/go-cmp/cmp"
)

// rendered is Parse's diagnostics of src as gpl check prints them.
func rendered(src string) (*File, string) {
	f, ds := Parse("t.gpl", []byte(src))
	var b strings.Builder
	ds.RenderAll(&b, Sources{"t.gpl": []byte(src)}, Style{})
	return f, b.String()
}

// TestSyntaxHints checks each hint as gpl check renders it: the caret under
// the cause, the summary and the hint.
func TestSyntaxHints(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"job without pool", "job t {\n}\n", `
error: syntax error: unexpected "{"; a job needs on POOL or extends JOB
  --> t.gpl:1:7
   |
 1 | job t {
   |       ^
   = hint: write job t on POOL { … } to run it on a pool, or job t extends JOB { … } to vary another job
`},
		{"misspelt factors", "job t on p {\n  factr { S = 0.9 }\n}\n", `
error: syntax error: unexpected "factr"; did you mean factors?
  --> t.gpl:2:3
   |
 2 |   factr { S = 0.9 }
   |   ^^^^^
   = hint: a job's blocks are factors { … } and ceilings { … }
`},
		{"field compared", "pool p {\n  devices == 8\n}\n", `
error: syntax error: unexpected "=="
  --> t.gpl:2:11
   |
 2 |   devices == 8
   |           ^^
   = hint: use = to set a field: devices = …
`},
		{"field with a colon", "request r { batch_size: 8 }\n", `
error: syntax error: unexpected ":"
  --> t.gpl:1:23
   |
 1 | request r { batch_size: 8 }
   |                       ^
   = hint: use = to set a field: batch_size = …
`},
		{"commas between fields", "pool p { devices = 8, hours = 10h, rate = $2/h }\n", `
error: syntax error: unexpected ","
  --> t.gpl:1:21
   |
 1 | pool p { devices = 8, hours = 10h, rate = $2/h }
   |                     ^
   = hint: separate fields with spaces or newlines
`},
		{"commas between rules", "rules r { when a -> b, else c }\n", `
error: syntax error: unexpected ","
  --> t.gpl:1:22
   |
 1 | rules r { when a -> b, else c }
   |                      ^
   = hint: write each rule on a line of its own
`},
		{"expect with =", "expect x = 1\n", `
error: syntax error: unexpected "="
  --> t.gpl:1:10
   |
 1 | expect x = 1
   |          ^
   = hint: an expectation compares: use == for equal, or ≈ for equal within a tolerance
`},
		{"condition with =", "rules r {\n  when priority = 0 -> fast\n  else slow\n}\n", `
error: syntax error: unexpected "="
  --> t.gpl:2:17
   |
 2 |   when priority = 0 -> fast
   |                 ^
   = hint: a condition compares: use == for equal
`},
		{"unterminated string", "import \"std/kapsl\nlet a = 1\n", `
error: syntax error: unterminated string
  --> t.gpl:1:8
   |
 1 | import "std/kapsl
   |        ^
   = hint: end it with " on the same line
`},
		{"unit as a word", "let t = 3 hours\n", `
error: syntax error: "hours" is not a unit
  --> t.gpl:1:9
   |
 1 | let t = 3 hours
   |         ^^^^^^^
   = hint: write 3h
`},
		{"unit in the wrong case", "request r { input_size = 5 gb }\n", `
error: syntax error: "gb" is not a unit
  --> t.gpl:1:26
   |
 1 | request r { input_size = 5 gb }
   |                          ^^^^
   = hint: write 5GB
`},
		{"a unit word misspelt", "let t = 30 minuts\n", `
error: syntax error: "minuts" is not a unit
  --> t.gpl:1:9
   |
 1 | let t = 30 minuts
   |         ^^^^^^^^^
   = hint: write 30min
`},
		{"a counted thing as a unit", "pool p { devices = 3 GPU }\n", `
error: syntax error: "GPU" is not a unit: units measure quantities, and GPUs are counted
  --> t.gpl:1:20
   |
 1 | pool p { devices = 3 GPU }
   |                    ^^^^^
   = hint: write a count, a bare number: 3
`},
		{"an accelerator's model as a unit", "let n = 16 MI300X\n", `
error: syntax error: "MI300X" is not a unit: units measure quantities, and MI300Xs are counted
  --> t.gpl:1:9
   |
 1 | let n = 16 MI300X
   |         ^^^^^^^^^
   = hint: write a count, a bare number: 16
`},
		{"a word that is no unit", "let t = 30 abcd\n", `
error: syntax error: unexpected "abcd"
  --> t.gpl:1:12
   |
 1 | let t = 30 abcd
   |            ^^^^
`},
		{"dollars as a word", "let c = 3 dollars\n", `
error: syntax error: "dollars" is not a unit
  --> t.gpl:1:9
   |
 1 | let c = 3 dollars
   |         ^^^^^^^^^
   = hint: write 3 USD
`},
		{"price per minute", "let r = 10 USD/min\n", `
error: syntax error: 10 USD/min is not a price
  --> t.gpl:1:9
   |
 1 | let r = 10 USD/min
   |         ^^^^^^^^^^
   = hint: prices are per device-hour: 10 USD/min is 600 USD/h
`},
		{"dollar price per second", "let r = 2 * $0.01/s\n", `
error: syntax error: $0.01/s is not a price
  --> t.gpl:1:13
   |
 1 | let r = 2 * $0.01/s
   |             ^^^^^^^
   = hint: prices are per device-hour: $0.01/s is $36/h
`},
		{"price per day", "let r = 10 USD/day\n", `
error: syntax error: 10 USD/day is not a price
  --> t.gpl:1:9
   |
 1 | let r = 10 USD/day
   |         ^^^^^^^^^^
   = hint: prices are per device-hour: 10 USD/day is about 0.416667 USD/h
`},
		{"rule without class", "rules r {\n  when a ->\n  when b -> c\n  else d\n}\n", `
error: syntax error: a rule needs a class after "->"
  --> t.gpl:2:10
   |
 2 |   when a ->
   |          ^^
   = hint: write the class the rule gives: when CONDITION -> CLASS
`},
		{"last rule without class", "rules r {\n  when a ->\n}\n", `
error: syntax error: a rule needs a class after "->"
  --> t.gpl:2:10
   |
 2 |   when a ->
   |          ^^
   = hint: write the class the rule gives: when CONDITION -> CLASS

error: syntax error: unexpected "}"; a ruleset ends with else CLASS
  --> t.gpl:3:1
   |
 3 | }
   | ^
   = hint: add a last line else CLASS: the class when no rule holds
`},
		{"rules without else", "rules r {\n  when a -> b\n}\n", `
error: syntax error: unexpected "}"; a ruleset ends with else CLASS
  --> t.gpl:3:1
   |
 3 | }
   | ^
   = hint: add a last line else CLASS: the class when no rule holds
`},
		{"expression cut at the end of its line", "job j on p {\n  expect mpg >\n}\n", `
error: syntax error: expected an expression after ">", found end of line
  --> t.gpl:2:15
   |
 2 |   expect mpg >
   |               ^
`},
		{"block not closed", "pool p {\n  devices = 8\nlet a = 1\n", `
error: syntax error: unexpected end of statement, expected "}"
  --> t.gpl:2:14
   |
 2 |   devices = 8
   |              ^
   = hint: close the block of pool p with "}"
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := rendered(tt.src)
			if diff := cmp.Diff(strings.TrimPrefix(tt.want, "\n"), got); diff != "" {
				t.Errorf("Parse(%q) diagnostics (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

// TestNoHint checks inputs the hint rules must leave alone: valid ones
// that look like a mistake, and mistakes a rule must not claim.
func TestNoHint(t *testing.T) {
	valid := []string{
		"let d = 1h\nlet r = 10 USD / d\n",      // a price computed from a duration, spaced
		"let r = 10 USD/h\nlet s = $2/h\n",      // prices as written
		"let m = min(1, 2)\nlet x = 10 USD / 2", // min the function; money divided by a count
		"job j on p {\n  factors { S = max(0.9, 0.8) }\n}\n",
		"expect a == 1\nlet b = 3h",
	}
	for _, src := range valid {
		if _, ds := Parse("t.gpl", []byte(src)); ds != nil {
			t.Errorf("Parse(%q): %v", src, ds)
		}
	}
	plain := []struct{ src, want string }{
		{"let a = 1, 2\n", `syntax error: unexpected ","`},
		{"let a = 3 apples\n", `syntax error: unexpected "apples"`},
		{"job t on p {\n  blocks { S = 0.9 }\n}\n", `syntax error: unexpected "blocks", expected "}"`},
		{"let a = max(1,, 2)\n", `syntax error: expected an argument, found ","`},
	}
	for _, tt := range plain {
		_, ds := Parse("t.gpl", []byte(tt.src))
		if len(ds) != 1 || ds[0].Summary != tt.want || len(ds[0].Notes) != 0 {
			t.Errorf("Parse(%q) = %v; want one diagnostic %q without a hint", tt.src, ds, tt.want)
		}
	}
}

// items summarises a job's or pool's items by name, value and span.
func items(s Stmt) []string {
	var out []string
	field := func(prefix string, f *Field) string {
		return fmt.Sprintf("%s%s = %s %s", prefix, f.Name.Name, treeShape(f.Value), spanOf(f))
	}
	switch s := s.(type) {
	case *Pool:
		for _, f := range s.Fields {
			out = append(out, field("", f))
		}
	case *Job:
		for _, it := range s.Items {
			switch it := it.(type) {
			case *Field:
				out = append(out, field("", it))
			case *FactorBlock:
				for _, f := range it.Fields {
					out = append(out, field(it.Kind()+".", f))
				}
			case *Expect:
				out = append(out, "expect "+treeShape(it.X)+" "+spanOf(it))
			}
		}
	case *Rules:
		for _, r := range s.Rules {
			out = append(out, "when "+treeShape(r.When)+" -> "+r.Class.Name+" "+spanOf(r))
		}
		out = append(out, "else "+s.Else.Name)
	}
	return out
}

// TestRecoveryWithinBlock checks what a statement with a broken block item
// keeps: every other item, at its own position, and one diagnostic per
// mistake.
func TestRecoveryWithinBlock(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		diags []diagView
		items []string
	}{
		{
			name: "commas: the block read without them",
			src:  "job t on p {\n  factors { S = 0.9, R = 0.8, P = 0.3 }\n  hours = 10h\n}",
			diags: []diagView{
				{`syntax error: unexpected ","`, "2:20", "2:21"},
			},
			items: []string{
				"factors.S = 0.9 2:13-2:20", "factors.R = 0.8 2:22-2:29", "factors.P = 0.3 2:31-2:38",
				"hours = 10h 3:3-3:14",
			},
		},
		{
			name: "== read as =",
			src:  "job t on p {\n  hours == 10h\n  factors { S = 0.9 }\n}",
			diags: []diagView{
				{`syntax error: unexpected "=="`, "2:9", "2:11"},
			},
			items: []string{"hours = 10h 2:3-2:15", "factors.S = 0.9 3:13-3:20"},
		},
		{
			name: "two broken lines, two diagnostics; the lines between kept",
			src:  "job t on p {\n  hours = 10h 5\n  rate = $2/h\n  expect mpg >\n  factors { S = 0.9  R = @ P = 0.3 }\n  expect mpg > 0.2\n}",
			diags: []diagView{
				{`syntax error: unexpected "5", expected "}"`, "2:15", "2:16"},
				{`syntax error: expected an expression after ">", found end of line`, "4:15", "4:15"},
				{`unexpected character "@"`, "5:26", "5:27"},
			},
			items: []string{
				"rate = $2/h 3:3-3:14",
				"factors.S = 0.9 5:13-5:20",
				"factors.P = 0.3 5:28-5:35",
				"expect (> mpg 0.2) 6:3-6:19",
			},
		},
		{
			name: "a broken nested block left out whole",
			src:  "job t on p {\n  blocks {\n    S = 0.9\n  }\n  hours = 10h\n}",
			diags: []diagView{
				{`syntax error: unexpected "blocks", expected "}"`, "2:3", "2:9"},
			},
			items: []string{"hours = 10h 5:3-5:14"},
		},
		{
			name: "a rule without class left out; the next rule kept",
			src:  "rules r {\n  when a ->\n  when b -> c\n  else d\n}",
			diags: []diagView{
				{`syntax error: a rule needs a class after "->"`, "2:10", "2:12"},
			},
			items: []string{"when b -> c 3:3-3:14", "else d"},
		},
		{
			name: "a one-line pool",
			src:  "pool p { devices = 8 8  hours = 10h }",
			diags: []diagView{
				{`syntax error: unexpected "8", expected "}"`, "1:22", "1:23"},
			},
			items: []string{"hours = 10h 1:25-1:36"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ds := Parse("t.gpl", []byte(tt.src))
			if diff := cmp.Diff(tt.diags, viewDiags(ds)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if len(f.Stmts) != 1 {
				t.Fatalf("%d statements, want the one kept", len(f.Stmts))
			}
			if diff := cmp.Diff(tt.items, items(f.Stmts[0])); diff != "" {
				t.Errorf("items kept (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRecoveryGivesUp checks statements that cannot be repaired: they are
// dropped after their first diagnostic, with no second one that follows
// from the first, and the next statement is still read.
func TestRecoveryGivesUp(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []diagView
	}{
		{"outside any block", "let a = 3 apples 4\nlet b = 1",
			[]diagView{{`syntax error: unexpected "apples"`, "1:11", "1:17"}}},
		{"a ruleset without else", "rules r {\n  when a -> b\n}\nlet b = 1",
			[]diagView{{`syntax error: unexpected "}"; a ruleset ends with else CLASS`, "3:1", "3:2"}}},
		{"two blocks not closed", "job t on p {\n  factors { S = 0.9\nlet b = 1",
			[]diagView{{`syntax error: unexpected end of statement, expected "}"`, "2:20", "2:20"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ds := Parse("t.gpl", []byte(tt.src))
			if diff := cmp.Diff(tt.want, viewDiags(ds)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"*lang.Let b = 1"}, stmtKinds(f)); diff != "" {
				t.Errorf("statements (-want +got):\n%s", diff)
			}
		})
	}
}

func stmtKinds(f *File) []string {
	var out []string
	for _, s := range f.Stmts {
		v := stmtView(s)
		out = append(out, v[:strings.LastIndexByte(v, ' ')])
	}
	return out
}

// TestRecoveryBounded checks that a block of many broken lines costs a
// bounded number of re-readings: maxRepairs diagnostics and one more, then
// the statement is given up.
func TestRecoveryBounded(t *testing.T) {
	src := "pool p {\n" + strings.Repeat("  devices = 8 8\n", 500) + "}\nlet b = 1\n"
	f, ds := Parse("t.gpl", []byte(src))
	if len(ds) != maxRepairs+1 {
		t.Fatalf("%d diagnostics, want %d", len(ds), maxRepairs+1)
	}
	// The last says that reading stopped, and why the rest is not told.
	want := []string{"note: gpl stops reading this statement after 65 syntax errors; fix these to see the rest"}
	if diff := cmp.Diff(want, ds[maxRepairs].Notes[len(ds[maxRepairs].Notes)-1:]); diff != "" {
		t.Errorf("the last diagnostic's note (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"*lang.Let b = 1"}, stmtKinds(f)); diff != "" {
		t.Errorf("statements (-want +got):\n%s", diff)
	}
}

// TestRepetitionLimitWording checks that participle's bound on one
// repetition (a list of more than a million items, too costly to build in
// a test) is told in gpl's words, at participle's position.
func TestRepetitionLimitWording(t *testing.T) {
	pos := Position{Filename: "t.gpl", Offset: 20, Line: 2, Column: 5}
	err := participle.Errorf(pos, "too many iterations of %s (> %d)", `("," Expr)*`, participle.MaxIterations)
	h := explainSyntax(err, nil, "")
	got := []string{h.diag.Pos.String(), h.diag.Summary}
	got = append(got, h.diag.Notes...)
	want := []string{"t.gpl:2:5", "more than 1,000,000 items in one list or block (the limit on repetitions)",
		"hint: split it into several statements, or into files that import one another"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLostNames checks that the names of statements that did not parse at
// all are kept, and only those.
func TestLostNames(t *testing.T) {
	src := "job j onn p {\n  hours = 1h\n}\nlet x = (\nlet y = 1\npool q {\n  devices = 8 8\n}\n"
	f, ds := Parse("t.gpl", []byte(src))
	if len(ds) == 0 {
		t.Fatal("no syntax errors")
	}
	if diff := cmp.Diff(map[string]bool{"j": true, "x": true}, f.Lost); diff != "" {
		t.Errorf("lost (-want +got):\n%s", diff)
	}
}
