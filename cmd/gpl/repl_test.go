package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

// runRepl runs gpl repl in-process on a script.
func runRepl(t *testing.T, script string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = runMain(append([]string{"repl"}, args...), strings.NewReader(script), &out, &errOut, func(string) string { return "" })
	return out.String(), errOut.String(), code
}

const section4 = `import "std/kapsl"
let peak_mfu = 0.45
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

const section4Out = `imported "std/kapsl": rules kapsl
peak_mfu = 0.45
pool shared_h100: devices 128, rate $2.50/h
job llama2_70b on shared_h100
  mpg                   0.28215
  loss                  scheduling 0.05, runtime 0.095, program 0.57285
  best_lever            program (+0.1026 mpg)
  cost_per_useful_hour  $8.8605/h
  expectations: 1 passed, 0 failed
job llama2_70b_tuned extends llama2_70b
  mpg                   0.342
  loss                  scheduling 0.05, runtime 0.095, program 0.513
  best_lever            program (+0.04275 mpg)
  cost_per_useful_hour  $7.3099/h
pass: got 1.212121212
`

func TestReplScript(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		script     string
		wantOut    string
		wantErr    string
		wantCode   int
		wantErrHas []string // when the exact stderr is not the point
	}{
		{
			name:    "piped expression on a loaded file",
			args:    []string{"--load", "../../scenarios/llama2_70b_shared_pool_128.gpl"},
			script:  "llama2_70b.mpg\n",
			wantOut: "0.28215\n",
		},
		{
			name:    "bundled scenario by name, as an argument",
			args:    []string{"llama2_70b_shared_pool_128"},
			script:  "llama2_70b_tuned.cost_per_useful_hour\nllama2_70b.best_lever\n",
			wantOut: "$7.3099/h\n\"program\"\n",
		},
		{
			name:    "section 4 line by line",
			script:  section4,
			wantOut: section4Out,
		},
		{
			name:    "expressions with units, over several lines",
			script:  section4 + "llama2_70b.useful_hours\nllama2_70b.cost +\n  llama2_70b_tuned.cost\n(llama2_70b.mpg\n * 2)\n",
			wantOut: section4Out + "26002.944 h\n$460,800.00\n0.5643\n",
		},
		{
			name:     "an error points at the typed line and the session goes on",
			script:   "let a = 2\n\nlet b = a + c\na * 3\n",
			wantOut:  "a = 2\n6\n",
			wantCode: exitRuntime,
			wantErr: `error: unknown name c; did you mean a?
  --> <stdin>:3:13
   |
 3 | let b = a + c
   |             ^
`,
		},
		{
			name:     "an expression error",
			script:   "let peak = 1\npeak +\n  nope\n",
			wantOut:  "peak = 1\n",
			wantCode: exitRuntime,
			wantErr: `error: unknown name nope
  --> <stdin>:3:3
   |
 3 |   nope
   |   ^^^^
`,
		},
		{
			name:     "a syntax error",
			script:   "let x = 1 2\nx\n",
			wantOut:  "",
			wantCode: exitRuntime,
			wantErrHas: []string{
				"--> <stdin>:1:11",
				" 1 | let x = 1 2\n   |           ^",
				"unknown name x",
			},
		},
		{
			name: "a declaration replaces the earlier one, and what depends on it is shown",
			script: section4 + "let peak_mfu = 0.5\n" +
				"job llama2_70b_tuned extends llama2_70b { factors { P = 0.45 } }\n",
			wantOut: section4Out + "peak_mfu = 0.5 (was 0.45)\n" +
				"  also llama2_70b: ceiling_mpg 0.41895 → 0.4655\n" +
				"  also llama2_70b_tuned: ceiling_mpg 0.41895 → 0.4655\n" +
				"job llama2_70b_tuned extends llama2_70b\n" +
				"  mpg                   0.38475 (was 0.342)\n" +
				"  loss                  scheduling 0.05, runtime 0.095, program 0.47025\n" +
				"  best_lever            program (+0.04275 mpg)\n" +
				"  cost_per_useful_hour  $6.4977/h\n",
			wantCode:   exitOK,
			wantErrHas: []string{"error: expectation failed", "--> <stdin>:16:8", "got 1.363636364, want 1.212 ± 0.0005"},
		},
		{
			name:     "a declaration that breaks another is rolled back",
			script:   section4 + "let peak_mfu = 0.2\npeak_mfu\n",
			wantOut:  section4Out + "0.45\n",
			wantCode: exitRuntime,
			wantErr: `error: program ceiling 0.2 is below its factor 0.33
   --> <stdin>:10:59
    |
 10 |   ceilings { scheduling = 0.98  runtime = 0.95  program = peak_mfu }
    |                                                           ^^^^^^^^
    |
  9 |   factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
    |                                                           ^^^^ the factor is set here
note: nothing was declared; the session is as it was
`,
		},
		{
			name:     "a failing expect",
			script:   section4 + "expect llama2_70b.mpg > 0.5\n",
			wantOut:  section4Out,
			wantCode: exitRuntime,
			wantErr: `error: expectation failed
   --> <stdin>:17:8
    |
 17 | expect llama2_70b.mpg > 0.5
    |        ^^^^^^^^^^^^^^ got 0.28215, want > 0.5
    = with llama2_70b.S = 0.95, llama2_70b.R = 0.9, llama2_70b.P = 0.33
`,
		},
		{
			name:     "an incomplete statement at the end of the input",
			script:   "pool p {\n  devices = 1\n",
			wantCode: exitRuntime,
			wantErrHas: []string{
				"syntax error: unexpected end of statement",
				"--> <stdin>:2:14",
			},
		},
		{
			name:     "a blank line ends an incomplete statement",
			script:   "let x =\n\nlet x = 3\n",
			wantOut:  "x = 3\n",
			wantCode: exitRuntime,
			wantErrHas: []string{
				"--> <stdin>:1:8",
			},
		},
		{
			name:    "several statements on a line; comments",
			script:  "# a comment alone\nlet a = 1; let b = a * 2 # two\nb\n",
			wantOut: "a = 1\nb = 2\n2\n",
		},
		{
			name:    "rules, requests and classify",
			script:  "import \"std/kapsl\"\nrequest heavy { priority = 1  batch_size = 8  input_size = 10MB  flops = 10GFLOP }\nclassify(kapsl, heavy)\nrules mine {\n  tiny: when batch_size <= 1 -> latency_critical\n  else throughput\n}\n",
			wantOut: "imported \"std/kapsl\": rules kapsl\nrequest heavy: priority 1, batch_size 8, input_size 10 MB, flops 10 GFLOP\nthroughput\nrules mine: 1 rule, else throughput\n",
		},
		{
			name:    ":type",
			args:    []string{"--load", "llama2_70b_shared_pool_128"},
			script:  ":type llama2_70b.cost_per_useful_hour\n:type llama2_70b.mpg\n:type llama2_70b.hours\n:type llama2_70b.best_lever\n:type llama2_70b.cost / llama2_70b.offered_hours\n:type llama2_70b.cost * llama2_70b.hours\n",
			wantOut: "price (USD/h)\ncount (a bare number)\nduration (s; also ms, min, h, d)\nstring\nprice (USD/h)\ns·USD (a compound of the base units, which no unit names)\n",
		},
		{
			name:     ":type of a wrong expression points into the command",
			args:     []string{"--load", "llama2_70b_shared_pool_128"},
			script:   ":type  llama2_70b.cost + llama2_70b.hours\n",
			wantCode: exitRuntime,
			wantErrHas: []string{
				"--> <stdin>:1:8",
				" 1 | :type  llama2_70b.cost + llama2_70b.hours\n   |        ^",
			},
		},
		{
			name:    ":explain",
			args:    []string{"--load", "llama2_70b_shared_pool_128"},
			script:  ":explain llama2_70b.mpg\n:explain llama2_70b.cost_per_useful_hour\n:explain llama2_70b_tuned.P\n",
			wantOut: "mpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215\nmpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215\ncost_per_useful_hour = rate / mpg = $2.50/h / 0.28215 = $8.8605/h\nP = 0.4, the program factor, set in job llama2_70b_tuned\n",
		},
		{
			name:     ":explain errors",
			args:     []string{"--load", "llama2_70b_shared_pool_128"},
			script:   ":explain llama2_70b\n:explain llama2_70b.mpgg\n:explain peak_mfu.x\n:explain llama2_70x.mpg\n",
			wantCode: exitRuntime,
			wantErr: "error: usage: :explain JOB.RESULT, e.g. :explain llama2_70b.mpg\n" +
				"error: job llama2_70b has no result mpgg; did you mean llama2_70b.mpg?\n" +
				"error: peak_mfu is not a job; :explain works on job results\n" +
				"error: llama2_70x is not declared; did you mean llama2_70b?\n",
		},
		{
			name:    ":list",
			args:    []string{"--load", "llama2_70b_shared_pool_128"},
			script:  "import \"std/kapsl\"\n:list\n",
			wantOut: "imported \"std/kapsl\": rules kapsl\nlet    peak_mfu\npool   shared_h100\njob    llama2_70b\njob    llama2_70b_tuned\nrules  kapsl  (imported)\n",
		},
		{
			name:    ":show",
			script:  "let a = 1   # one\npool p {\ndevices = 128\n}\n:show a\n:show p\n",
			wantOut: "a = 1\npool p: devices 128\nlet a = 1 # one\n\na = 1\npool p {\n  devices = 128\n}\n\npool p: devices 128\n",
		},
		{
			name:     "unknown command",
			script:   ":lod x\n:frob\n",
			wantCode: exitRuntime,
			wantErr:  "error: unknown command :lod; did you mean :load?\nerror: unknown command :frob; :help lists the commands\n",
		},
		{
			name:    ":quit stops reading",
			script:  "let a = 1\n:quit\nlet b = nope\n",
			wantOut: "a = 1\n",
		},
		{
			name:     "a load that fails exits at once",
			args:     []string{"--load", "nosuch.gpl"},
			script:   "1\n",
			wantCode: exitCheck,
			wantErr:  "error: cannot read nosuch.gpl: no such file or bundled scenario\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runRepl(t, tt.script, tt.args...)
			if diff := cmp.Diff(tt.wantOut, out); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if tt.wantErrHas == nil {
				if diff := cmp.Diff(tt.wantErr, errOut); diff != "" {
					t.Errorf("stderr (-want +got):\n%s", diff)
				}
			}
			for _, s := range tt.wantErrHas {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d", code, tt.wantCode)
			}
		})
	}
}

// :save writes the session so that gpl run gives the same results, and
// :load reads it back.
func TestReplSaveRun(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "s.gpl")
	out, errOut, code := runRepl(t, section4+":save "+saved+"\n")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if !strings.HasSuffix(out, "saved "+saved+": 4 declarations\n") {
		t.Errorf("stdout does not end with the saved line:\n%s", out)
	}
	got, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	// The statements as typed, a blank line between them, laid out as gpl
	// fmt does.
	typed := strings.NewReplacer("\nlet", "\n\nlet", "\npool", "\n\npool", "\njob", "\n\njob", "\nexpect trade", "\n\nexpect trade").Replace(section4)
	want, err := lang.FormatSource("want.gpl", []byte(typed))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("saved file (-want +got):\n%s", diff)
	}
	var runOut, runErr bytes.Buffer
	if code := runMain([]string{"run", saved}, nil, &runOut, &runErr, func(string) string { return "" }); code != 0 {
		t.Fatalf("gpl run exit %d:\n%s", code, runErr.String())
	}
	for _, s := range []string{"mpg                   0.28215", "cost_per_useful_hour  $8.8605/h", "expectations: 2 passed, 0 failed"} {
		if !strings.Contains(runOut.String(), s) {
			t.Errorf("gpl run output lacks %q:\n%s", s, runOut.String())
		}
	}
	out, errOut, code = runRepl(t, ":load "+saved+"\nllama2_70b_tuned.mpg\n")
	if diff := cmp.Diff("loaded "+saved+": 4 declarations; expectations: 2 passed, 0 failed\n0.342\n", out); diff != "" || code != 0 {
		t.Errorf("exit %d; stdout (-want +got):\n%s\nstderr:\n%s", code, diff, errOut)
	}
}

// :reload reads the file again and keeps what was typed since on top.
func TestReplReload(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.gpl")
	write := func(rate string) {
		src := "pool p { devices = 2  rate = " + rate + " }\njob j on p {\n  hours = 10h\n  factors { S = 1  R = 1  P = 0.5 }\n}\n"
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("1 USD/h")
	var out, errOut bytes.Buffer
	r := newRepl(&env{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}, false)
	step := func(input string) {
		r.run(newScriptSource(strings.NewReader(input)))
	}
	step(":load " + file + "\njob k extends j { factors { P = 1 } }\nj.cost_per_useful_hour\n")
	write("3 USD/h")
	step(":reload\nj.cost_per_useful_hour\nk.cost_per_useful_hour\n:reload\n")
	want := "loaded " + file + ": 2 declarations\n" +
		"job k extends j\n  mpg                   1\n  loss                  scheduling 0, runtime 0, program 0\n" +
		"  best_lever            none: no ceiling raises mpg\n  cost_per_useful_hour  $1.00/h\n" +
		"$2.00/h\n" +
		"loaded " + file + ": 3 declarations, 1 statement typed since kept\n" +
		"$6.00/h\n$3.00/h\n" +
		"loaded " + file + ": 3 declarations, 1 statement typed since kept\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s\nstderr:\n%s", diff, errOut.String())
	}
}

func TestIncomplete(t *testing.T) {
	tests := []struct {
		text         string
		more, braces bool
	}{
		{"let x = 1", false, false},
		{"let x =", true, false},
		{"let x = # soon", true, false},
		{"let x = 1 +", true, false},
		{"pool p {", true, true},
		{"pool p {\n  devices = 1\n}", false, false},
		{"job j on p", true, false},
		{"llama2_70b.mpg *", true, false},
		{"trade_ratio(a,", true, true},
		{"llama2_70b.", true, false},
		{"1 2", false, false},
		{"let x = 1 2", false, false},
		{"job j on p let y = 1", false, false},
		{"# only a comment", false, false},
		{"}", false, false},
	}
	for _, tt := range tests {
		more, braces := incomplete(tt.text)
		if more != tt.more || braces != tt.braces {
			t.Errorf("incomplete(%q) = %v, %v; want %v, %v", tt.text, more, braces, tt.more, tt.braces)
		}
	}
}

func TestHistoryEntry(t *testing.T) {
	tests := []struct {
		lines []string
		want  string
	}{
		{[]string{"llama2_70b.mpg  # mpg  "}, "llama2_70b.mpg  # mpg"},
		{[]string{"pool p {  # the pool", "  devices = 128", "  rate = 2.5 USD/h", "}"}, "pool p { devices = 128 rate = 2.5 USD/h }"},
		{[]string{"request r {", `  name = "a # b"`, "}"}, `request r { name = "a # b" }`},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, historyEntry(tt.lines)); diff != "" {
			t.Errorf("historyEntry(%q) (-want +got):\n%s", tt.lines, diff)
		}
	}
}

func TestComplete(t *testing.T) {
	var out, errOut bytes.Buffer
	r := newRepl(&env{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}, false)
	if err := r.load("llama2_70b_shared_pool_128", false, true); err != nil {
		t.Fatal(err)
	}
	type result struct {
		Head  string
		Items []string
		Tail  string
	}
	tests := []struct {
		line string
		pos  int
		want result
	}{
		{"llama2_70b.cost", -1, result{"llama2_70b.", []string{"cost", "cost_per_useful_hour"}, ""}},
		{"llama2_70b.loss.p", -1, result{"llama2_70b.", []string{"loss.program"}, ""}},
		{"2 * llama2_70b_tuned.he", -1, result{"2 * llama2_70b_tuned.", []string{"headroom", "held_hours"}, ""}},
		{"llama2_70b.saving.p", -1, result{"llama2_70b.", []string{"saving.program"}, ""}},
		{"llama2_70b.owner.", -1, result{"llama2_70b.", []string{"owner.program", "owner.runtime", "owner.scheduling"}, ""}},
		{"shared_h100.", -1, result{"shared_h100.", []string{"devices", "hours", "rate"}, ""}},
		{"peak_mfu.", -1, result{"peak_mfu.", nil, ""}},
		{"llama", -1, result{"", []string{"llama2_70b", "llama2_70b_tuned"}, ""}},
		{"let x = pe", -1, result{"let x = ", []string{"peak_mfu"}, ""}},
		{"ex", -1, result{"", []string{"expect", "extends"}, ""}},
		{"tr", -1, result{"", []string{"trade_ratio", "true"}, ""}},
		{"llama2_70b.mp * 2", 13, result{"llama2_70b.", []string{"mpg"}, " * 2"}},
		{":ex", -1, result{"", []string{":explain "}, ""}},
		{":", -1, result{"", []string{":help ", ":load ", ":reload ", ":list ", ":show ", ":type ", ":explain ", ":save ", ":quit "}, ""}},
		{":explain llama2_70b.gain.s", -1, result{":explain llama2_70b.", []string{"gain.scheduling"}, ""}},
		{":show sh", -1, result{":show ", []string{"shared_h100"}, ""}},
		{":load ../../scenarios/ll", -1, result{":load ../../scenarios/", []string{"llama2_70b_shared_pool_128.gpl"}, ""}},
	}
	for _, tt := range tests {
		pos := tt.pos
		if pos < 0 {
			pos = len([]rune(tt.line))
		}
		var got result
		got.Head, got.Items, got.Tail = r.complete(tt.line, pos)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("complete(%q, %d) (-want +got):\n%s", tt.line, pos, diff)
		}
	}
}

func TestSplitEntries(t *testing.T) {
	src := "# header\n# more\n\n# about a\nlet a = 1   # trailing\n\n# about p\npool p {\n  devices = 1\n}\nlet b = 2; let c = 3\nexpect  a ==  1\n"
	f, diags := lang.Parse("f.gpl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	type got struct {
		Key, Kind, Text string
		Line, Column    int
	}
	var entries []got
	for _, e := range splitEntries([]byte(src), f.Stmts, lang.Position{Filename: "f.gpl", Line: 1, Column: 1}, true) {
		entries = append(entries, got{e.key, e.kind, e.text, e.from.Line, e.from.Column})
	}
	want := []got{
		{"", "comment", "# header\n# more", 1, 1},
		{"a", "let", "# about a\nlet a = 1   # trailing", 4, 1},
		{"p", "pool", "# about p\npool p {\n  devices = 1\n}", 7, 1},
		{"b", "let", "let b = 2", 11, 1},
		{"c", "let", "let c = 3", 11, 12},
		{"expect a == 1", "expect", "expect  a ==  1", 12, 1},
	}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("splitEntries (-want +got):\n%s", diff)
	}
}
