package eval_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
)

const explainSrc = `
let peak_mfu = 0.45
pool shared_h100 {
  devices = 128
  rate    = 2.50 USD/h
}
job llama2_70b on shared_h100 {
  hours = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = peak_mfu }
}
job tuned extends llama2_70b {
  factors { program = 0.40 }
}
pool free { devices = 8  hours = 10h }
job bare on free {
  factors  { S = 1  R = 0.5  P = 0.5 }
  ceilings { P = 0.5 }
}
job idle on free {
  factors  { S = 0  R = 1  P = 1 }
  ceilings { S = 1 }
}
`

func TestExplain(t *testing.T) {
	s, err := eval.LoadSource("explain.gpl", []byte(explainSrc))
	if err != nil {
		t.Fatal(err)
	}
	const mpg = "mpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215"
	const offered = "offered_hours = devices × hours = 128 × 720 h = 92,160 h"
	tests := []struct {
		name, job, result string
		want              string
		wantErr           string
	}{
		{name: "mpg", job: "llama2_70b", result: "mpg", want: mpg},
		{name: "badput", job: "llama2_70b", result: "badput", want: mpg + "\nbadput = 1 − mpg = 1 − 0.28215 = 0.71785"},
		{name: "loss.scheduling", job: "llama2_70b", result: "loss.scheduling", want: "loss.scheduling = 1 − S = 1 − 0.95 = 0.05"},
		{name: "loss.runtime", job: "llama2_70b", result: "loss.runtime", want: "loss.runtime = S × (1 − R) = 0.95 × (1 − 0.9) = 0.095"},
		{name: "loss alias", job: "llama2_70b", result: "loss.P", want: "loss.program = S × R × (1 − P) = 0.95 × 0.9 × (1 − 0.33) = 0.57285"},
		{name: "offered_hours", job: "llama2_70b", result: "offered_hours", want: offered},
		{name: "useful_hours", job: "llama2_70b", result: "useful_hours", want: offered + "\n" + mpg +
			"\nuseful_hours = offered_hours × mpg = 92,160 h × 0.28215 = 26,002.944 h"},
		{name: "cost", job: "llama2_70b", result: "cost", want: offered +
			"\ncost = offered_hours × rate = 92,160 h × $2.50/h = $230,400.00"},
		{name: "badput_cost", job: "llama2_70b", result: "badput_cost", want: offered +
			"\ncost = offered_hours × rate = 92,160 h × $2.50/h = $230,400.00\n" + mpg +
			"\nbadput = 1 − mpg = 1 − 0.28215 = 0.71785" +
			"\nbadput_cost = cost × badput = $230,400.00 × 0.71785 = $165,392.64"},
		{name: "cost_per_useful_hour", job: "llama2_70b", result: "cost_per_useful_hour", want: mpg +
			"\ncost_per_useful_hour = rate / mpg = $2.50/h / 0.28215 = $8.8605/h"},
		{name: "lever", job: "llama2_70b", result: "lever.runtime", want: mpg +
			"\nlever.runtime = S × ceiling.R × P = 0.95 × 0.95 × 0.33 = 0.297825"},
		{name: "gain", job: "llama2_70b", result: "gain.program", want: mpg +
			"\nlever.program = S × R × ceiling.P = 0.95 × 0.9 × 0.45 = 0.38475" +
			"\ngain.program = lever.program − mpg = 0.38475 − 0.28215 = 0.1026"},
		{name: "best_lever", job: "llama2_70b", result: "best_lever", want: mpg +
			"\nlever.scheduling = ceiling.S × R × P = 0.98 × 0.9 × 0.33 = 0.29106" +
			"\ngain.scheduling = lever.scheduling − mpg = 0.29106 − 0.28215 = 0.00891" +
			"\nlever.runtime = S × ceiling.R × P = 0.95 × 0.95 × 0.33 = 0.297825" +
			"\ngain.runtime = lever.runtime − mpg = 0.297825 − 0.28215 = 0.015675" +
			"\nlever.program = S × R × ceiling.P = 0.95 × 0.9 × 0.45 = 0.38475" +
			"\ngain.program = lever.program − mpg = 0.38475 − 0.28215 = 0.1026" +
			"\nbest_lever = the factor with the largest gain (gain.S 0.00891, gain.R 0.015675, gain.P 0.1026) = \"program\""},
		{name: "ceiling_mpg", job: "llama2_70b", result: "ceiling_mpg", want: "ceiling_mpg = ceiling.S × ceiling.R × ceiling.P = 0.98 × 0.95 × 0.45 = 0.41895"},
		{name: "headroom", job: "llama2_70b", result: "headroom", want: "ceiling_mpg = ceiling.S × ceiling.R × ceiling.P = 0.98 × 0.95 × 0.45 = 0.41895\n" + mpg +
			"\nheadroom = ceiling_mpg / mpg = 0.41895 / 0.28215 = 1.484848485"},
		{name: "own factor", job: "tuned", result: "P", want: "P = 0.4, the program factor, set in job tuned"},
		{name: "inherited factor", job: "tuned", result: "runtime", want: "R = 0.9, the runtime factor, inherited from job llama2_70b"},
		{name: "inherited ceiling", job: "tuned", result: "ceiling.P", want: "ceiling.program = 0.45, the program ceiling, inherited from job llama2_70b"},
		{name: "pool field", job: "tuned", result: "rate", want: "rate = $2.50/h, price of one offered device-hour, from pool shared_h100"},
		{name: "derived from inherited", job: "tuned", result: "mpg", want: "mpg = S × R × P = 0.95 × 0.9 × 0.4 = 0.342"},
		{name: "lever without ceiling", job: "bare", result: "lever.runtime", want: "mpg = S × R × P = 1 × 0.5 × 0.5 = 0.25" +
			"\nlever.runtime = mpg = 0.25 (runtime has no ceiling)"},
		{name: "ceiling_mpg with factors standing in", job: "bare", result: "ceiling_mpg", want: "ceiling_mpg = S × R × ceiling.P = 1 × 0.5 × 0.5 = 0.25"},
		{name: "unset ceiling", job: "bare", result: "ceiling.R", want: "ceiling.runtime = 0.5, the runtime factor R: runtime has no ceiling"},
		{name: "no best lever", job: "bare", result: "best_lever", want: "mpg = S × R × P = 1 × 0.5 × 0.5 = 0.25" +
			"\nlever.scheduling = mpg = 0.25 (scheduling has no ceiling)" +
			"\ngain.scheduling = lever.scheduling − mpg = 0.25 − 0.25 = 0" +
			"\nlever.runtime = mpg = 0.25 (runtime has no ceiling)" +
			"\ngain.runtime = lever.runtime − mpg = 0.25 − 0.25 = 0" +
			"\nlever.program = S × R × ceiling.P = 1 × 0.5 × 0.5 = 0.25" +
			"\ngain.program = lever.program − mpg = 0.25 − 0.25 = 0" +
			"\nbest_lever = no ceiling raises mpg, so no factor (gain.S 0, gain.R 0, gain.P 0) = \"\""},
		{name: "no rate", job: "bare", result: "cost_per_useful_hour",
			wantErr: "job bare has no rate, so cost_per_useful_hour is undefined; set rate in the job or its pool"},
		{name: "zero mpg", job: "idle", result: "headroom",
			wantErr: "headroom of job idle is undefined: its mpg is 0"},
		{name: "unknown result", job: "llama2_70b", result: "mpgg", wantErr: "job llama2_70b has no result mpgg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, ok := s.Job(tt.job)
			if !ok {
				t.Fatalf("no job %s", tt.job)
			}
			got, err := j.Explain(tt.result)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff(tt.wantErr, gotErr); diff != "" {
				t.Errorf("Explain(%q) error (-want +got):\n%s", tt.result, diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Explain(%q) (-want +got):\n%s", tt.result, diff)
			}
		})
	}
}

// Every result a job offers can be explained, and the last line of the
// explanation ends with the value Get returns.
func TestExplainCoversEveryResult(t *testing.T) {
	s, err := eval.LoadSource("explain.gpl", []byte(explainSrc))
	if err != nil {
		t.Fatal(err)
	}
	j, _ := s.Job("llama2_70b")
	for _, r := range eval.ResultNames() {
		got, err := j.Explain(r)
		if err != nil {
			t.Errorf("Explain(%q): %v", r, err)
			continue
		}
		v, _ := j.Get(r)
		if last := got[strings.LastIndex(got, "\n")+1:]; !strings.Contains(last, " "+v.String()) {
			t.Errorf("Explain(%q) last line %q does not show the value %s", r, last, v)
		}
	}
}

func TestFieldNames(t *testing.T) {
	s, err := eval.LoadSource("explain.gpl", []byte(explainSrc+"\nrequest r { batch_size = 2 }\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string][]string{
		"llama2_70b":  eval.ResultNames(),
		"shared_h100": {"devices", "hours", "rate"},
		"r":           {"batch_size", "flops", "input_size", "priority", "sla_deadline"},
		"peak_mfu":    nil,
		"nosuch":      nil,
	}
	for name, want := range tests {
		if diff := cmp.Diff(want, s.FieldNames(name)); diff != "" {
			t.Errorf("FieldNames(%q) (-want +got):\n%s", name, diff)
		}
	}
}
