package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stmtView summarises a statement: its kind, name and span.
func stmtView(s Stmt) string {
	name := ""
	switch s := s.(type) {
	case *Import:
		name = s.Path
	case *Let:
		name = s.Name.Name + " = " + treeShape(s.Value)
	case *Pool:
		name = s.Name.Name
	case *Job:
		name = s.Name.Name
	case *Rules:
		name = s.Name.Name
	case *Request:
		name = s.Name.Name
	case *Expect:
		name = treeShape(s.X)
	}
	return fmt.Sprintf("%T %s %s", s, name, spanOf(s))
}

func stmtViews(f *File) []string {
	var out []string
	for _, s := range f.Stmts {
		out = append(out, stmtView(s))
	}
	return out
}

const section4 = `import "std/kapsl"                 # bundled library file; or a path relative to this file

let peak_mfu = 0.45                # a named value; any expression

pool shared_h100 {
  devices = 128                    # count
  rate    = 2.50 USD/h             # price of one offered device-hour (optional)
}

job llama2_70b on shared_h100 {
  hours    = 720h                  # wall time the pool is offered to the job
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = peak_mfu }
  expect mpg ≈ 0.282               # names inside a job block are the job's results
}

job llama2_70b_tuned extends llama2_70b {
  factors { program = 0.40 }       # only what changes; the rest is inherited
}

expect trade_ratio(llama2_70b, llama2_70b_tuned) ≈ 1.212
`

func TestParseSection4(t *testing.T) {
	f, diags := Parse("s4.gpl", []byte(section4))
	if diags != nil {
		t.Fatal(diags)
	}
	want := []string{
		`*lang.Import "std/kapsl" 1:1-1:19`,
		`*lang.Let peak_mfu = 0.45 3:1-3:20`,
		`*lang.Pool shared_h100 5:1-8:2`,
		`*lang.Job llama2_70b 10:1-15:2`,
		`*lang.Job llama2_70b_tuned 17:1-19:2`,
		`*lang.Expect trade_ratio(llama2_70b, llama2_70b_tuned) 21:1-21:57`,
	}
	if diff := cmp.Diff(want, stmtViews(f)); diff != "" {
		t.Errorf("statements (-want +got):\n%s", diff)
	}

	job := f.Stmts[3].(*Job)
	var items []string
	for _, it := range job.Items {
		switch it := it.(type) {
		case *Field:
			items = append(items, fmt.Sprintf("field %s = %s %s", it.Name.Name, treeShape(it.Value), spanOf(it)))
		case *FactorBlock:
			s := it.Kind()
			for _, f := range it.Fields {
				s += fmt.Sprintf(" %s=%s", f.Name.Name, treeShape(f.Value))
			}
			items = append(items, s+" "+spanOf(it))
		case *Expect:
			items = append(items, fmt.Sprintf("expect %s %s %s %s", treeShape(it.X), "≈", treeShape(it.Approx.Want), spanOf(it)))
		}
	}
	wantItems := []string{
		"field hours = 720h 11:3-11:18",
		"factors scheduling=0.95 runtime=0.90 program=0.33 12:3-12:65",
		"ceilings scheduling=0.98 runtime=0.95 program=peak_mfu 13:3-13:69",
		"expect mpg ≈ 0.282 14:3-14:21",
	}
	if diff := cmp.Diff(wantItems, items); diff != "" {
		t.Errorf("job items (-want +got):\n%s", diff)
	}
	if job.On == nil || job.On.Name != "shared_h100" || job.Extends != nil {
		t.Errorf("job llama2_70b: On %v, Extends %v", job.On, job.Extends)
	}
	tuned := f.Stmts[4].(*Job)
	if tuned.Extends == nil || tuned.Extends.Name != "llama2_70b" || tuned.On != nil {
		t.Errorf("job llama2_70b_tuned: On %v, Extends %v", tuned.On, tuned.Extends)
	}
	if f.Name != "s4.gpl" || string(f.Src) != section4 {
		t.Errorf("File keeps name %q and %d bytes of source", f.Name, len(f.Src))
	}
}

func TestParseStatements(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"empty file", "", nil},
		{"only comments", "# a\n\n# b\n", nil},
		{"semicolons", "let a = 1; let b = 2;expect a < b",
			[]string{"*lang.Let a = 1 1:1-1:10", "*lang.Let b = 2 1:12-1:21", "*lang.Expect (< a b) 1:22-1:34"}},
		{"one-line blocks", "pool p { devices = 8  hours = 10h }\nrequest r { batch_size = 8; flops = 1GFLOP }",
			[]string{"*lang.Pool p 1:1-1:36", "*lang.Request r 2:1-2:45"}},
		{"expression continued on the next line", "let a = 1 +\n  2\nlet b = a",
			[]string{"*lang.Let a = (+ 1 2) 1:1-2:4", "*lang.Let b = a 3:1-3:10"}},
		{"empty blocks", "pool p {}\nrequest r {\n}",
			[]string{"*lang.Pool p 1:1-1:10", "*lang.Request r 2:1-3:2"}},
		{"rules with and without labels", "rules r {\n  a: when x < 1 -> fast\n  when y -> slow\n  else fast\n}",
			[]string{"*lang.Rules r 1:1-5:2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := Parse("t.gpl", []byte(tt.src))
			if diags != nil {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(tt.want, stmtViews(f)); diff != "" {
				t.Errorf("statements (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseExpectForms(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"expect mpg ≈ 0.282", "mpg ≈ 0.282"},
		{"expect mpg ~= 0.282", "mpg ≈ 0.282"},
		{"expect mpg ≈ 0.2822 ± 0.0001", "mpg ≈ 0.2822 ± 0.0001"},
		{"expect mpg ≈ 0.2822 +- 0.0001", "mpg ≈ 0.2822 ± 0.0001"},
		{"expect cost_per_useful_hour ≈ 8.86 USD/h within 1%", "cost_per_useful_hour ≈ 8.86 USD/h within 1%"},
		{"expect x ≈ 2 within tol %", "x ≈ 2 within tol"},
		{`expect best_lever == "program"`, `(== best_lever "program")`},
		{"expect useful_hours > 25000", "(> useful_hours 25000)"},
		{"expect classify(kapsl, heavy) == throughput", "(== classify(kapsl, heavy) throughput)"},
		{"expect not (a or b)", "(not [(or a b)])"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f, diags := Parse("t.gpl", []byte(tt.src))
			if diags != nil {
				t.Fatal(diags)
			}
			e := f.Stmts[0].(*Expect)
			got := treeShape(e.X)
			if a := e.Approx; a != nil {
				got += " ≈ " + treeShape(a.Want)
				if a.Abs != nil {
					got += " ± " + treeShape(a.Abs)
				}
				if a.Within != nil {
					got += " within " + treeShape(a.Within)
				}
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestParseRecovery checks that a syntax error costs one statement, or
// inside a block, only the block item that holds it: every broken
// statement is reported with the exact range of the offending token, in
// source order, and the statements between them still parse, as do the
// other items of a block with a broken one (the pool, the job and the
// ruleset below) and a block whose closing brace is missing before the
// next statement.
func TestParseRecovery(t *testing.T) {
	src := `let a = 1 +
let b = 2
pool p {
  devices = 128 128
}
job j on p {
  hours = 720h
  factors { S = 0.9 R = }
}
rules r {
  when x < -> fast
  else slow
}
let c = (2
expect c ≈ 2 within
request q { batch_size = 8 }
let d = 3 @ 4
expect b == 2
job k extends {
}
pool unclosed {
  devices = 8

let e = "≈" + )
let f = 1
`
	f, diags := Parse("t.gpl", []byte(src))
	wantDiags := []diagView{
		{`syntax error: expected an expression after "+", found end of statement`, "1:12", "1:12"},
		{`syntax error: unexpected "128", expected "}"`, "4:17", "4:20"},
		{`syntax error: unexpected "}"`, "8:25", "8:26"},
		{`syntax error: expected an expression after "<", found "->"`, "11:12", "11:14"},
		{`syntax error: expected ")", found end of statement`, "14:11", "14:11"},
		{`syntax error: unexpected end of statement`, "15:20", "15:20"},
		{`unexpected character "@"`, "17:11", "17:12"},
		{`syntax error: unexpected "{", expected a name`, "19:15", "19:16"},
		{`syntax error: unexpected end of statement, expected "}"`, "22:14", "22:14"},
		{`syntax error: expected an expression after "+", found ")"`, "24:15", "24:16"},
	}
	if diff := cmp.Diff(wantDiags, viewDiags(diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	wantStmts := []string{
		"*lang.Let b = 2 2:1-2:10",
		"*lang.Pool p 3:1-5:2",
		"*lang.Job j 6:1-9:2",
		"*lang.Rules r 10:1-13:2",
		"*lang.Request q 16:1-16:29",
		"*lang.Expect (== b 2) 18:1-18:14",
		"*lang.Pool unclosed 21:1-22:14",
		"*lang.Let f = 1 25:1-25:10",
	}
	if diff := cmp.Diff(wantStmts, stmtViews(f)); diff != "" {
		t.Errorf("statements that parsed (-want +got):\n%s", diff)
	}
	for _, d := range diags {
		if d.Pos.Filename != "t.gpl" || d.Severity != Error {
			t.Errorf("diagnostic %v: file %q, severity %v", d, d.Pos.Filename, d.Severity)
		}
	}
}

func TestGrammar(t *testing.T) {
	g := Grammar()
	for _, want := range []string{`"pool"`, `"job"`, `"rules"`, `"expect"`, `"within"`} {
		if !strings.Contains(g, want) {
			t.Errorf("Grammar() lacks %s:\n%s", want, g)
		}
	}
}

// TestStatementWordAsName checks that a declaration named like a planning
// statement (whose words are not reserved) is read as one statement, both
// when the file parses and when a syntax error elsewhere makes the parser
// divide it again (FuzzParse found "sweep sweep over A{}" split in two).
func TestStatementWordAsName(t *testing.T) {
	src := "sweep sweep over j { vary program in [0.3] }\ngroup group { j }\n"
	for _, tail := range []string{"", "let broken = (\n"} {
		f, _ := Parse("w.gpl", []byte(src+tail))
		var got []string
		for _, s := range f.Stmts {
			got = append(got, fmt.Sprintf("%T", s))
		}
		if diff := cmp.Diff([]string{"*lang.Sweep", "*lang.Group"}, got); diff != "" {
			t.Errorf("with %q after: (-want +got):\n%s", tail, diff)
		}
	}
}
