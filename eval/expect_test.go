package eval

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

// section9Failure is the diagnostic printed in language.md section 9.
const section9Failure = `error: expectation failed
  --> scenarios/llama.gpl:9:10
   |
 9 |   expect mpg ≈ 0.29
   |          ^^^ got 0.28215, want 0.29 ± 0.005 (off by 0.00785)
   = with S = 0.95, R = 0.9, P = 0.33
`

// TestSection9Failure puts the failing expect of language.md section 9 on
// line 9 of scenarios/llama.gpl, in the job of section 4, and checks that
// its outcome renders exactly as the design shows it.
func TestSection9Failure(t *testing.T) {
	src := `let peak_mfu = 0.45
pool shared_h100 {
  devices = 128
  rate    = 2.50 USD/h
}
job llama2_70b on shared_h100 {
  hours    = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  expect mpg ≈ 0.29
  ceilings { scheduling = 0.98  runtime = 0.95  program = peak_mfu }
}
`
	fsys := fstest.MapFS{"scenarios/llama.gpl": {Data: []byte(src)}}
	s, err := Load(fsys, "scenarios/llama.gpl")
	if err != nil {
		t.Fatal(err)
	}
	outcomes := s.Test()
	if len(outcomes) != 1 {
		t.Fatalf("%d outcomes, want 1", len(outcomes))
	}
	o := outcomes[0]
	if o.Pass || o.Err || o.Diagnostic == nil {
		t.Fatalf("outcome: pass %v, err %v, diagnostic %v", o.Pass, o.Err, o.Diagnostic)
	}
	var b strings.Builder
	o.Diagnostic.Render(&b, s.Sources(), lang.Style{})
	if diff := cmp.Diff(section9Failure, b.String()); diff != "" {
		t.Errorf("rendered failure (-want +got):\n%s", diff)
	}
	e := o.Expectation
	gotName := []any{e.Name(), e.File(), e.Line(), e.Column(), e.Source}
	wantName := []any{"scenarios/llama.gpl:9: expect mpg ≈ 0.29", "scenarios/llama.gpl", 9, 3, "expect mpg ≈ 0.29"}
	if diff := cmp.Diff(wantName, gotName); diff != "" {
		t.Errorf("expectation name (-want +got):\n%s", diff)
	}
	if o.Got.Num != 0.95*0.90*0.33 || o.Want.Num != 0.29 || o.Tolerance != 0.005 {
		t.Errorf("got %v, want %v, tolerance %v", o.Got.Num, o.Want.Num, o.Tolerance)
	}
}

// scenarioHeader is the job of language.md section 4, with room for the
// expects under test on line 11 onwards.
const scenarioHeader = `let peak_mfu = 0.45
pool shared_h100 { devices = 128  rate = 2.50 USD/h }
job llama2_70b on shared_h100 {
  hours    = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = peak_mfu }
}
job llama2_70b_tuned extends llama2_70b { factors { program = 0.40 } }
request heavy { priority = 1  batch_size = 8  input_size = 10MB  flops = 10GFLOP }
rules serving { small: when batch_size <= 4 -> latency_critical  else throughput }
`

// TestExpectationFailures checks the label and notes of every kind of
// failed expect: the caret's range, got, want, tolerance and the names read.
// Each want is the rendering from the source line on, without the one-space
// indent every line of it gets under the two-digit gutter of line 11.
func TestExpectationFailures(t *testing.T) {
	tests := []struct {
		name   string
		expect string // line 11 of the file
		want   string
	}{
		{"written precision", "expect llama2_70b.mpg ≈ 0.25", `
11 | expect llama2_70b.mpg ≈ 0.25
   |        ^^^^^^^^^^^^^^ got 0.28215, want 0.25 ± 0.005 (off by 0.03215)
   = with llama2_70b.S = 0.95, llama2_70b.R = 0.9, llama2_70b.P = 0.33`},
		{"absolute tolerance", "expect llama2_70b.mpg ≈ 0.2822 ± 0.00001", `
11 | expect llama2_70b.mpg ≈ 0.2822 ± 0.00001
   |        ^^^^^^^^^^^^^^ got 0.28215, want 0.2822 ± 0.00001 (off by 0.00005)
   = with llama2_70b.S = 0.95, llama2_70b.R = 0.9, llama2_70b.P = 0.33`},
		{"within a percentage, in the written unit", "expect llama2_70b.cost_per_useful_hour ≈ 9 USD/h within 1%", `
11 | expect llama2_70b.cost_per_useful_hour ≈ 9 USD/h within 1%
   |        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ got 8.860535176 USD/h, want 9 USD/h within 1% (± 0.09 USD/h) (off by 0.1394648237 USD/h)
   = with llama2_70b.rate = 2.5 USD/h, llama2_70b.S = 0.95, llama2_70b.R = 0.9, llama2_70b.P = 0.33`},
		{"money with a dollar sign", "expect llama2_70b.cost ≈ $230000", `
11 | expect llama2_70b.cost ≈ $230000
   |        ^^^^^^^^^^^^^^^ got $230,400, want $230,000 ± $0.5 (off by $400)
   = with llama2_70b.devices = 128, llama2_70b.hours = 720 h, llama2_70b.rate = 2.5 USD/h`},
		{"duration in hours", "expect llama2_70b.useful_hours ≈ 26000h", `
11 | expect llama2_70b.useful_hours ≈ 26000h
   |        ^^^^^^^^^^^^^^^^^^^^^^^ got 26,002.944 h, want 26,000 h ± 0.5 h (off by 2.944 h)
   = with llama2_70b.devices = 128, llama2_70b.hours = 720 h, llama2_70b.S = 0.95, llama2_70b.R = 0.9, llama2_70b.P = 0.33`},
		{"greater than", "expect llama2_70b.useful_hours > 30000h", `
11 | expect llama2_70b.useful_hours > 30000h
   |        ^^^^^^^^^^^^^^^^^^^^^^^ got 26,002.944 h, want > 30,000 h
   = with llama2_70b.devices = 128, llama2_70b.hours = 720 h, llama2_70b.S = 0.95, llama2_70b.R = 0.9, llama2_70b.P = 0.33`},
		{"equality of strings", `expect llama2_70b.best_lever == "runtime"`, `
11 | expect llama2_70b.best_lever == "runtime"
   |        ^^^^^^^^^^^^^^^^^^^^^ got "program", want "runtime"
   = with llama2_70b.lever.scheduling = 0.29106, llama2_70b.mpg = 0.28215, llama2_70b.lever.runtime = 0.297825, llama2_70b.lever.program = 0.38475`},
		{"classification", "expect classify(serving, heavy) == latency_critical", `
11 | expect classify(serving, heavy) == latency_critical
   |        ^^^^^^^^^^^^^^^^^^^^^^^^ got throughput, want latency_critical`},
		{"trade ratio", "expect trade_ratio(llama2_70b, llama2_70b_tuned) ≈ 1.3", `
11 | expect trade_ratio(llama2_70b, llama2_70b_tuned) ≈ 1.3
   |        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ got 1.212121212, want 1.3 ± 0.05 (off by 0.08787878788)
   = with llama2_70b.mpg = 0.28215, llama2_70b_tuned.mpg = 0.342`},
		{"bare condition", "expect llama2_70b.mpg > 0.3 and peak_mfu > 0.4", `
11 | expect llama2_70b.mpg > 0.3 and peak_mfu > 0.4
   |        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ got false, want true
   = with llama2_70b.S = 0.95, llama2_70b.R = 0.9, llama2_70b.P = 0.33, peak_mfu = 0.45`},
		{"not equal", "expect heavy.batch_size != 8", `
11 | expect heavy.batch_size != 8
   |        ^^^^^^^^^^^^^^^^ got 8, want != 8
   = with heavy.batch_size = 8`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := scenarioHeader + tt.expect + "\n"
			s, err := LoadWith(Options{FS: fstest.MapFS{}}, "x.gpl", []byte(src))
			if err != nil {
				t.Fatal(renderDiagnostics(s, err.(*Error).Diagnostics))
			}
			outcomes := s.Test()
			if len(outcomes) != 1 || outcomes[0].Pass || outcomes[0].Diagnostic == nil {
				t.Fatalf("outcomes %+v, want one failure", outcomes)
			}
			var b strings.Builder
			outcomes[0].Diagnostic.Render(&b, s.Sources(), lang.Style{})
			snippet := strings.ReplaceAll(tt.want, "\n", "\n ")
			want := "error: expectation failed\n   --> x.gpl:11:8\n    |" + snippet + "\n"
			if diff := cmp.Diff(want, b.String()); diff != "" {
				t.Errorf("rendered failure (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExpectationErrors checks an expect that cannot be evaluated: it is
// an error outcome, not a failure, and its diagnostic says why.
func TestExpectationErrors(t *testing.T) {
	src := `pool p { devices = 8  hours = 10h  rate = 2 USD/h }
job idle on p { factors { S = 1  R = 1  P = 0 } }
expect idle.headroom > 1
expect idle.mpg == 0
`
	s, err := LoadWith(Options{FS: fstest.MapFS{}}, "x.gpl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	outcomes := s.Test()
	if len(outcomes) != 2 {
		t.Fatalf("%d outcomes, want 2", len(outcomes))
	}
	got := []bool{outcomes[0].Pass, outcomes[0].Err, outcomes[1].Pass, outcomes[1].Err}
	if diff := cmp.Diff([]bool{false, true, true, false}, got); diff != "" {
		t.Errorf("pass, err of each outcome (-want +got):\n%s", diff)
	}
	var b strings.Builder
	outcomes[0].Diagnostic.Render(&b, s.Sources(), lang.Style{})
	want := `error: headroom of job idle is undefined: its mpg is 0
  --> x.gpl:3:8
   |
 3 | expect idle.headroom > 1
   |        ^^^^^^^^^^^^^
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("rendered error (-want +got):\n%s", diff)
	}
	// Checking again gives the same outcome: an expect's error is not kept
	// in the scenario's diagnostics.
	if again := s.Check(outcomes[0].Expectation); !again.Err || len(s.Diagnostics()) != 0 {
		t.Errorf("second check: err %v, scenario diagnostics %v", again.Err, s.Diagnostics())
	}
}

// TestZeroWantSharesNothing checks that "≈ 0" taking the dimension of what
// it is compared with changes that expectation only: equal constants are
// shared, and it once gave every bare 0 of the file its dimension, so that
// let zero = 0 printed as $0.00.
func TestZeroWantSharesNothing(t *testing.T) {
	s, err := LoadSource("zero.gpl", []byte(`pool p {
  devices = 8
  rate    = 2.50 USD/h
}
let zero = 0
job j on p {
  hours = 10h
  factors { S = 0.9  R = 0.9  P = 0.3 }
  expect badput_cost ≈ 0 ± 1000 USD
}
`))
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Value("zero")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("0", v.String()); diff != "" {
		t.Errorf("zero (-want +got):\n%s", diff)
	}
	var passed []bool
	for _, o := range s.Test() {
		passed = append(passed, o.Pass)
	}
	if diff := cmp.Diff([]bool{true}, passed); diff != "" {
		t.Errorf("expectations passed (-want +got):\n%s", diff)
	}
}
