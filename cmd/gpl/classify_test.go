package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kapslClass is determine_priority written by hand over kapsl's integers;
// nil pointers are absent fields.
func kapslClass(p, batch uint64, sla, input, flops *uint64) string {
	switch {
	case p == 0,
		sla != nil && *sla < 250,
		input != nil && *input <= 500_000,
		flops != nil && *flops <= 1_000_000_000,
		input != nil && *input <= 2_000_000 && *input*batch <= 2_000_000,
		batch <= 4:
		return "latency_critical"
	}
	return "throughput"
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

func TestClassifyOutputs(t *testing.T) {
	in := `{"priority":1,"batch_size":8,"input_size_bytes":10000000,"estimated_flops":10000000000}
{"priority":0}

{"batch_size":3,"sla_deadline":null}
`
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
			"error: stdin:2:13: priority: -1 is negative: values must be non-negative integers\n  (stopped at line 2; --keep-going reports bad lines and goes on)\n", 3},
		{"keep going reports every bad line", "{\"priority\":0}\n{\"nope\":1}\n{\"batch_size\":1.5}\n{\"priority\":1,\"batch_size\":9}\n", []string{"--rules", "kapsl", "--keep-going"},
			"latency_critical\nthroughput\n",
			"skipped: stdin:2:2: unknown key \"nope\"; known keys are priority, sla_deadline, batch_size, input_size_bytes, estimated_flops\n" +
				"skipped: stdin:3:15: batch_size: 1.5 is fractional: values must be integers\n" +
				"2 line(s) skipped\n", 3},
		{"too large", "{\"estimated_flops\":9007199254740992}\n", []string{"--rules", "kapsl"}, "",
			"error: stdin:1:20: estimated_flops: 9007199254740992 is too large: numbers must be below 2^53\n  (stopped at line 1; --keep-going reports bad lines and goes on)\n", 3},
		{"unknown ruleset", "", []string{"--rules", "nope"}, "", "gpl: no ruleset nope; the file declares [kapsl]\n", 2},
		{"no rules flag", "", nil, "", "", 1},
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
			if tc.wantStatus != 1 {
				if diff := cmp.Diff(tc.wantErr, stderr); diff != "" {
					t.Errorf("stderr (-want +got):\n%s", diff)
				}
			}
		})
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
