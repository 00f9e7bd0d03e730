package repl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

// newTestRepl is a script-mode REPL writing into out and errOut.
func newTestRepl(out, errOut *bytes.Buffer) *repl {
	return newRepl(Config{Stdout: out, Stderr: errOut, Getenv: func(string) string { return "" }}, false)
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
	r := newTestRepl(&out, &errOut)
	step := func(input string) {
		r.run(newScriptSource(strings.NewReader(input)))
	}
	step(":load " + file + "\njob k extends j { factors { P = 1 } }\nj.cost_per_useful_hour\n")
	write("3 USD/h")
	step(":reload\nj.cost_per_useful_hour\nk.cost_per_useful_hour\n:reload\n")
	want := "loaded " + file + ": 2 declarations\n" +
		"job k extends j\n  mpg                     1\n  loss                    scheduling 0, runtime 0, program 0\n" +
		"  best_lever              none: no ceiling raises mpg\n  cost_per_useful_hour    $1.00/h\n" +
		// cost × 0.01 / (F + 0.01): $20 × 0.01 / 1.01
		"  point_value.scheduling  $0.20\n  point_value.runtime     $0.20\n  point_value.program     $0.20\n" +
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
	r := newTestRepl(&out, &errOut)
	if err := r.load("llama2_70b_shared_pool_128", false, true); err != nil {
		t.Fatal(err)
	}
	r.run(newScriptSource(strings.NewReader("param measured_runtime = 0.9\nparam gpu_rate = 2 USD/h\n" +
		"sweep program_sweep over llama2_70b {\n  vary program from 0.30 to 0.50 step 0.05\n}\n" +
		"sweep by_param over llama2_70b {\n  vary measured_runtime in [0.9, 0.95]\n}\n" +
		"solve runtime_needed over llama2_70b {\n  find runtime such that mpg >= 0.29\n}\n" +
		"group training { llama2_70b, llama2_70b_tuned }\n" +
		"compare tuning { llama2_70b, llama2_70b_tuned }\n")))
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
		{"ex", -1, result{"", []string{"exp", "expect", "extends"}, ""}},
		{"tr", -1, result{"", []string{"trade_ratio", "training", "triangular", "true"}, ""}},
		{"llama2_70b.mp * 2", 13, result{"llama2_70b.", []string{"mpg"}, " * 2"}},
		{":ex", -1, result{"", []string{":explain "}, ""}},
		{":", -1, result{"", []string{":help ", ":load ", ":reload ", ":list ", ":show ", ":type ", ":explain ", ":set ", ":samples ", ":drop ", ":save ", ":quit "}, ""}},
		{":set ", -1, result{":set ", []string{"gpu_rate ", "measured_runtime "}, ""}},
		{":set me", -1, result{":set ", []string{"measured_runtime "}, ""}},
		{":set measured_runtime 0.8 + mea", -1, result{":set measured_runtime 0.8 + ", []string{"measured_runtime"}, ""}},
		{":drop ll", -1, result{":drop ", []string{"llama2_70b ", "llama2_70b_tuned "}, ""}},
		{":explain llama2_70b.gain.s", -1, result{":explain llama2_70b.", []string{"gain.scheduling"}, ""}},
		{":show sh", -1, result{":show ", []string{"shared_h100"}, ""}},
		{"program_sweep.", -1, result{"program_sweep.", []string{"points", "min(", "max(", "argmin(", "argmax(", "at(", "first("}, ""}},
		{"program_sweep.ar", -1, result{"program_sweep.", []string{"argmin(", "argmax("}, ""}},
		{"program_sweep.at(program = 0.40).cost", -1, result{"program_sweep.at(program = 0.40).", []string{"cost", "cost_per_useful_hour"}, ""}},
		{"by_param.argmax(mpg).meas", -1, result{"by_param.argmax(mpg).", []string{"measured_runtime"}, ""}},
		{"program_sweep.max(mpg).", -1, result{"program_sweep.max(mpg).", nil, ""}},
		{"runtime_needed.ru", -1, result{"runtime_needed.", []string{"runtime"}, ""}},
		{"training.owner", -1, result{"training.", nil, ""}},
		{"training.co", -1, result{"training.", []string{"cost", "cost_per_useful_hour"}, ""}},
		{"tuning.", -1, result{"tuning.", []string{"best", "ratio("}, ""}},
		{"sw", -1, result{"", []string{"sweep"}, ""}},
		{"owner_s", -1, result{"", []string{"owner_saving"}, ""}},
		{":explain program_sweep.fi", -1, result{":explain program_sweep.", []string{"first("}, ""}},
		{":drop tu", -1, result{":drop ", []string{"tuning "}, ""}},
		{":load ../../../../scenarios/ll", -1, result{":load ../../../../scenarios/", []string{"llama2_70b_shared_pool_128.gpl", "llama3_405b_pretraining.gpl", "llama3_405b_uncertain.gpl"}, ""}},
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
