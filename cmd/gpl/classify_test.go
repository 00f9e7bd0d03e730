package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gpl-lang/gpl/stdlib/priority/kapsltest"

	"github.com/google/go-cmp/cmp"
)

// kapslClass is the shared reference's class; nil pointers are absent
// fields.
func kapslClass(p, batch uint64, sla, input, flops *uint64) string {
	c, _ := kapsltest.DeterminePriority(kapsltest.Metadata{Priority: uint8(p), SLADeadline: sla, BatchSize: batch, InputSize: input, Flops: flops})
	return c
}

// requestStream generates n JSON lines around kapsl's boundaries and the
// class each should get.
func requestStream(n int, seed uint64) (string, []string) {
	rng := rand.New(rand.NewPCG(seed, 1))
	pick := func(xs ...uint64) uint64 { return xs[rng.IntN(len(xs))] }
	opt := func(xs ...uint64) *uint64 {
		if rng.IntN(4) == 0 {
			return nil
		}
		v := pick(xs...)
		return &v
	}
	var b strings.Builder
	want := make([]string, n)
	for i := range n {
		p := pick(0, 1, 2, 255)
		batch := pick(0, 1, 4, 5, 8, 32)
		sla := opt(0, 249, 250, 10_000)
		input := opt(0, 500_000, 500_001, 400_000, 2_000_000, 10_000_000)
		flops := opt(999_999_999, 1_000_000_000, 1_000_000_001, 10_000_000_000)
		fmt.Fprintf(&b, `{"priority":%d,"batch_size":%d`, p, batch)
		for _, f := range []struct {
			key string
			v   *uint64
		}{{"sla_deadline", sla}, {"input_size_bytes", input}, {"estimated_flops", flops}} {
			if f.v != nil {
				fmt.Fprintf(&b, `,"%s":%d`, f.key, *f.v)
			}
		}
		b.WriteString("}\n")
		want[i] = kapslClass(p, batch, sla, input, flops)
	}
	return b.String(), want
}

func classifyRun(t testing.TB, stdin string, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := runMain(append([]string{"classify"}, args...), strings.NewReader(stdin), &out, &errb, func(string) string { return "" })
	return out.String(), errb.String(), code
}

func TestClassifyAgreesWithDeterminePriority(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	in, want := requestStream(n, 42)
	out, stderr, code := classifyRun(t, in, "--rules", "kapsl")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("classes differ (-want +got):\n%s", diff)
	}
}

// acceptanceInput is issue 11's acceptance case: 10 lines, 2 of them
// blank, one with a string where a number belongs, one with trailing
// garbage.
const acceptanceInput = `{"priority":0}
{"batch_size":9,"input_size_bytes":10000000,"estimated_flops":10000000000}

{"batch_size":"4"}
{"sla_deadline":100}
   
{"priority":1} x
{"batch_size":2}
{"priority":3,"batch_size":64}
{"input_size_bytes":1000}
`

func TestClassifyOutputs(t *testing.T) {
	in := `{"priority":1,"batch_size":8,"input_size_bytes":10000000,"estimated_flops":10000000000}
{"priority":0}
{"batch_size":3,"sla_deadline":null}
`
	acceptErr := "error: stdin:3:1: blank line: expected a JSON object\n" +
		"error: stdin:4:15: batch_size must be a number, not a string\n" +
		"error: stdin:6:1: blank line: expected a JSON object\n" +
		"error: stdin:7:16: trailing garbage after the JSON object\n"
	tests := []struct {
		name       string
		stdin      string
		args       []string
		wantOut    string
		wantErr    string
		wantStatus int
	}{
		{"text", in, []string{"--rules", "kapsl"}, "throughput\nlatency_critical\nlatency_critical\n", "", 0},
		{"jsonl", in, []string{"--rules", "kapsl", "--format", "jsonl"},
			`{"priority":1,"batch_size":8,"input_size_bytes":10000000,"estimated_flops":10000000000,"class":"throughput","rule":"else"}
{"priority":0,"class":"latency_critical","rule":"override"}
{"batch_size":3,"sla_deadline":null,"class":"latency_critical","rule":"small"}
`, "", 0},
		{"jsonl line numbers", in, []string{"--rules", "kapsl", "--format", "jsonl", "--line-numbers"},
			`{"priority":1,"batch_size":8,"input_size_bytes":10000000,"estimated_flops":10000000000,"line":1,"class":"throughput","rule":"else"}
{"priority":0,"line":2,"class":"latency_critical","rule":"override"}
{"batch_size":3,"sla_deadline":null,"line":3,"class":"latency_critical","rule":"small"}
`, "", 0},
		{"text line numbers", in, []string{"--rules", "kapsl", "--line-numbers"},
			"1\tthroughput\n2\tlatency_critical\n3\tlatency_critical\n", "", 0},
		{"summary", in, []string{"--rules", "kapsl", "--summary"},
			"          requests      3       \n" +
				"             class  count  share\n" +
				"  latency_critical      2  66.7%\n" +
				"        throughput      1  33.3%\n" +
				"              rule  count  share\n" +
				"          override      1  33.3%\n" +
				"               sla      0   0.0%\n" +
				"             light      0   0.0%\n" +
				"          combined      0   0.0%\n" +
				"             small      1  33.3%\n" +
				"              else      1  33.3%\n", "", 0},
		{"bad line stops", "{\"priority\":0}\n{\"priority\":-1}\n{\"priority\":0}\n", []string{"--rules", "kapsl"},
			"latency_critical\n",
			"error: stdin:2:13: priority: -1 is negative: values must be non-negative integers\n  (stopped at line 2; --keep-going reports unusable lines and goes on)\n", 3},
		{"blank line stops", "{\"priority\":0}\n\n{\"priority\":0}\n", []string{"--rules", "kapsl"},
			"latency_critical\n",
			"error: stdin:2:1: blank line: expected a JSON object\n  (stopped at line 2; --keep-going reports unusable lines and goes on)\n", 3},
		{"keep going: a placeholder for every unusable line", acceptanceInput, []string{"--rules", "kapsl", "--keep-going"},
			"latency_critical\nthroughput\nerror\nerror\nlatency_critical\nerror\nerror\nlatency_critical\nthroughput\nlatency_critical\n",
			acceptErr + "gpl classify: 4 of 10 lines unusable; each has a placeholder in the output\n", 0},
		{"keep going, jsonl placeholders", acceptanceInput, []string{"--rules", "kapsl", "--keep-going", "--format", "jsonl"},
			`{"priority":0,"class":"latency_critical","rule":"override"}
{"batch_size":9,"input_size_bytes":10000000,"estimated_flops":10000000000,"class":"throughput","rule":"else"}
{"line":3,"column":1,"error":"blank line: expected a JSON object"}
{"line":4,"column":15,"error":"batch_size must be a number, not a string"}
{"sla_deadline":100,"class":"latency_critical","rule":"sla"}
{"line":6,"column":1,"error":"blank line: expected a JSON object"}
{"line":7,"column":16,"error":"trailing garbage after the JSON object"}
{"batch_size":2,"class":"latency_critical","rule":"small"}
{"priority":3,"batch_size":64,"class":"throughput","rule":"else"}
{"input_size_bytes":1000,"class":"latency_critical","rule":"light"}
`, acceptErr + "gpl classify: 4 of 10 lines unusable; each has a placeholder in the output\n", 0},
		{"keep going, text line numbers", acceptanceInput, []string{"--rules", "kapsl", "--keep-going", "--line-numbers"},
			"1\tlatency_critical\n2\tthroughput\n3\terror\n4\terror\n5\tlatency_critical\n6\terror\n7\terror\n8\tlatency_critical\n9\tthroughput\n10\tlatency_critical\n",
			acceptErr + "gpl classify: 4 of 10 lines unusable; each has a placeholder in the output\n", 0},
		{"keep going summary counts unusable lines by reason", acceptanceInput, []string{"--rules", "kapsl", "--keep-going", "--summary"},
			"          requests      6       \n" +
				"          unusable      4       \n" +
				"             class  count  share\n" +
				"  latency_critical      4  66.7%\n" +
				"        throughput      2  33.3%\n" +
				"              rule  count  share\n" +
				"          override      1  16.7%\n" +
				"               sla      1  16.7%\n" +
				"             light      1  16.7%\n" +
				"          combined      0   0.0%\n" +
				"             small      1  16.7%\n" +
				"              else      2  33.3%\n" +
				"     unusable line  count       \n" +
				"        blank line      2       \n" +
				"  trailing garbage      1       \n" +
				"      not a number      1       \n",
			acceptErr + "gpl classify: 4 of 10 lines unusable; each has a placeholder in the output\n", 0},
		{"summary json", acceptanceInput, []string{"--rules", "kapsl", "--keep-going", "--summary", "--format", "json"},
			`{
  "lines": 10,
  "requests": 6,
  "unusable": 4,
  "ignored_keys": 0,
  "lines_with_ignored_keys": 0,
  "classes": [
    {
      "class": "latency_critical",
      "count": 4,
      "share": 0.6666666666666666
    },
    {
      "class": "throughput",
      "count": 2,
      "share": 0.3333333333333333
    }
  ],
  "rules": [
    {
      "class": "latency_critical",
      "rule": "override",
      "count": 1,
      "share": 0.16666666666666666
    },
    {
      "class": "latency_critical",
      "rule": "sla",
      "count": 1,
      "share": 0.16666666666666666
    },
    {
      "class": "latency_critical",
      "rule": "light",
      "count": 1,
      "share": 0.16666666666666666
    },
    {
      "class": "latency_critical",
      "rule": "combined",
      "count": 0,
      "share": 0
    },
    {
      "class": "latency_critical",
      "rule": "small",
      "count": 1,
      "share": 0.16666666666666666
    },
    {
      "class": "throughput",
      "rule": "else",
      "count": 2,
      "share": 0.3333333333333333
    }
  ],
  "unusable_by_reason": [
    {
      "reason": "blank line",
      "count": 2
    },
    {
      "reason": "trailing garbage",
      "count": 1
    },
    {
      "reason": "not a number",
      "count": 1
    }
  ]
}
`, acceptErr + "gpl classify: 4 of 10 lines unusable; each has a placeholder in the output\n", 0},
		{"summary jsonl, stopped", "{\"priority\":0}\n[]\n", []string{"--rules", "kapsl", "--summary", "--format", "jsonl"},
			`{"lines":2,"requests":1,"unusable":1,"ignored_keys":0,"lines_with_ignored_keys":0,"classes":[{"class":"latency_critical","count":1,"share":1},{"class":"throughput","count":0,"share":0}],"rules":[{"class":"latency_critical","rule":"override","count":1,"share":1},{"class":"latency_critical","rule":"sla","count":0,"share":0},{"class":"latency_critical","rule":"light","count":0,"share":0},{"class":"latency_critical","rule":"combined","count":0,"share":0},{"class":"latency_critical","rule":"small","count":0,"share":0},{"class":"throughput","rule":"else","count":0,"share":0}],"unusable_by_reason":[{"reason":"not an object","count":1}]}
`, "error: stdin:2:1: expected a JSON object, found an array\n  (stopped at line 2; --keep-going reports unusable lines and goes on)\n", 3},
		{"empty input", "", []string{"--rules", "kapsl"}, "", "", 0},
		{"no final newline", `{"priority":0}`, []string{"--rules", "kapsl"}, "latency_critical\n", "", 0},
		{"too large", "{\"estimated_flops\":9007199254740992}\n", []string{"--rules", "kapsl"}, "",
			"error: stdin:1:20: estimated_flops: 9007199254740992 is too large: numbers must be below 2^53\n  (stopped at line 1; --keep-going reports unusable lines and goes on)\n", 3},
		{"unknown ruleset", "", []string{"--rules", "kapls"}, "",
			"gpl classify: no ruleset kapls; did you mean kapsl?\n  the bundled library declares one ruleset: kapsl\n", 2},
		{"unknown ruleset, nothing near", "", []string{"--rules", "nope"}, "",
			"gpl classify: no ruleset nope\n  the bundled library declares one ruleset: kapsl\n", 2},
		{"a file given to --rules", "", []string{"--rules", "plan/rules.gpl"}, "",
			"gpl classify: no ruleset plan/rules.gpl\n  the bundled library declares one ruleset: kapsl\n  --rules names a ruleset; a file of rulesets is an argument: gpl classify --rules NAME plan/rules.gpl [REQUESTS…]\n", 2},
		{"json format needs summary", "", []string{"--rules", "kapsl", "--format", "json"}, "",
			"gpl classify: --format json is for --summary; per-line results in JSON are --format jsonl\n", 1},
		{"bad format", "", []string{"--rules", "kapsl", "--format", "csv"}, "",
			"gpl: --format must be one of text, jsonl, json, not \"csv\"\n", 1},
		{"missing request file", "", []string{"--rules", "kapsl", "nosuch.jsonl"}, "",
			"gpl classify: nosuch.jsonl: no such file or directory\n", 1},
		{"two ruleset files", "", []string{"--rules", "kapsl", "a.gpl", "b.gpl"}, "",
			"gpl classify: two ruleset files, a.gpl and b.gpl; give one (a request file ending in .gpl needs --rules-file for the ruleset)\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := classifyRun(t, tc.stdin, tc.args...)
			if code != tc.wantStatus {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.wantStatus, stderr)
			}
			if diff := cmp.Diff(tc.wantOut, out); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantErr, stderr); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClassifyNoRulesFlag(t *testing.T) {
	_, stderr, code := classifyRun(t, "")
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	first, _, _ := strings.Cut(stderr, "\n")
	if diff := cmp.Diff("gpl classify: --rules NAME is required", first); diff != "" {
		t.Errorf("first line of stderr (-want +got):\n%s", diff)
	}
}

// BenchmarkClassifyStream measures gpl classify end to end in process,
// from JSON lines to class lines, and reports lines per second.
func BenchmarkClassifyStream(b *testing.B) {
	in, _ := requestStream(100_000, 7)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for range b.N {
		var out, errb bytes.Buffer
		if code := runMain([]string{"classify", "--rules", "kapsl"}, strings.NewReader(in), &out, &errb, func(string) string { return "" }); code != 0 {
			b.Fatal(errb.String())
		}
	}
	b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "lines/s")
}

// TestClassifyUnlabelledRules checks the rule names of --format jsonl for
// a ruleset whose rules have no labels: "rule N", and "else".
func TestClassifyUnlabelledRules(t *testing.T) {
	file := t.TempDir() + "/serving.gpl"
	src := "rules serving {\n  when priority == 0 -> latency_critical\n  when batch_size <= 4 -> latency_critical\n  else throughput\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	in := "{\"priority\":0}\n{\"batch_size\":2}\n{\"batch_size\":64}\n"
	out, stderr, code := classifyRun(t, in, "--rules", "serving", "--format", "jsonl", file)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	want := `{"priority":0,"class":"latency_critical","rule":"rule 1"}
{"batch_size":2,"class":"latency_critical","rule":"rule 2"}
{"batch_size":64,"class":"throughput","rule":"else"}
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
}
