package eval_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
)

const explainPlanningSrc = explainSrc + `
param measured = 0.90
job measured_job extends llama2_70b {
  factors { runtime = measured }
}
sweep grid over llama2_70b {
  vary runtime in [0.90, 0.95]
  vary devices in [128, 256]
}
sweep by_param over measured_job {
  vary measured in [0.90, 0.93]
}
solve devices_needed over llama2_70b {
  find devices in [1, 1024] such that useful_hours >= 30000h
}
solve p_needed over llama2_70b {
  find program such that cost_per_useful_hour <= 8 USD/h
}
group both { llama2_70b, tuned }
group free_jobs { bare, idle }
compare by_work by max useful_hours { tuned, llama2_70b }
`

func TestExplainPlanning(t *testing.T) {
	s, err := eval.LoadSource("planning.gpl", []byte(explainPlanningSrc))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text, want string
	}{
		{"grid.at(devices = 256, runtime = 0.95).useful_hours",
			"grid.at(devices = 256, runtime = 0.95) is the point runtime = 0.95, devices = 256 of sweep grid, job llama2_70b with those inputs\n" +
				"  offered_hours = devices × hours = 256 × 720 h = 184,320 h\n" +
				"  mpg = S × R × P = 0.95 × 0.95 × 0.33 = 0.297825\n" +
				"  useful_hours = offered_hours × mpg = 184,320 h × 0.297825 = 54,895.104 h"},
		{"grid.argmin(useful_hours).devices",
			"grid.argmin(useful_hours) is the point runtime = 0.9, devices = 128, the first with the least useful_hours of the 4 points of sweep grid\n" +
				"  devices = 128, the value sweep grid gives it here"},
		// The least is the first point walked: its results, not the last
		// point's, which the walk went on to compute.
		{"grid.argmin(useful_hours).useful_hours",
			"grid.argmin(useful_hours) is the point runtime = 0.9, devices = 128, the first with the least useful_hours of the 4 points of sweep grid\n" +
				"  offered_hours = devices × hours = 128 × 720 h = 92,160 h\n" +
				"  mpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215\n" +
				"  useful_hours = offered_hours × mpg = 92,160 h × 0.28215 = 26,002.944 h"},
		{"grid.first(mpg > 0.29).hours",
			"grid.first(mpg > 0.29) is the point runtime = 0.95, devices = 128, the first of sweep grid, in sweep order, where mpg > 0.29 holds\n" +
				"  hours = 720 h, wall time the pool is offered to the job, set in job llama2_70b"},
		{"by_param.argmax(mpg).measured",
			"by_param.argmax(mpg) is the point measured = 0.93, the first with the most mpg of the 2 points of sweep by_param\n" +
				"  measured = 0.93, the value sweep by_param gives the param here"},
		{"by_param.argmax(mpg).mpg",
			"by_param.argmax(mpg) is the point measured = 0.93, the first with the most mpg of the 2 points of sweep by_param\n" +
				"  mpg = S × R × P = 0.95 × 0.93 × 0.33 = 0.291555"},
		// 2.50 / (0.95 × 0.90 × P) <= 8 from P = 2.50 / 6.84 = 0.365497.
		{"p_needed.program",
			"p_needed.program = 0.365497076: the least program between 0 and 1 at which cost_per_useful_hour <= 8 USD/h holds (cost_per_useful_hour = $8.00/h there), found by bisection in 56 engine runs"},
		{"devices_needed.cost",
			"at the answer of solve devices_needed, devices = 148:\n" +
				"  offered_hours = devices × hours = 148 × 720 h = 106,560 h\n" +
				"  cost = offered_hours × rate = 106,560 h × $2.50/h = $266,400.00"},
		{"both.cost_per_useful_hour",
			"both.cost = llama2_70b.cost + tuned.cost = $230,400.00 + $230,400.00 = $460,800.00\n" +
				"both.useful_hours = llama2_70b.useful_hours + tuned.useful_hours = 26,002.944 h + 31,518.72 h = 57,521.664 h\n" +
				"both.cost_per_useful_hour = both.cost / both.useful_hours = $460,800.00 / 57,521.664 h = $8.0109/h"},
		{"free_jobs.loss_hours.R", "free_jobs.loss_hours.R = bare.loss_hours.R + idle.loss_hours.R = 40 h + 0 s = 40 h"},
		{`owner_loss_cost(both, "runtime")`,
			`owner_loss_cost(both, "runtime") = llama2_70b.loss_cost.runtime + tuned.loss_cost.runtime = $21,888.00 + $21,888.00 = $43,776.00, the factors "runtime" owns in group both`},
		{"by_work.best", `by_work.best = "tuned", the job with the highest useful_hours (ties: the first listed): tuned 31,518.72 h, llama2_70b 26,002.944 h`},
		{"by_work.ratio(llama2_70b)", "by_work.ratio(llama2_70b) = llama2_70b.mpg / tuned.mpg = 0.28215 / 0.342 = 0.825, the trade ratio against the first job listed"},
	}
	for _, tt := range tests {
		got, ok, err := s.ExplainPlanning(tt.text)
		if err != nil || !ok {
			t.Errorf("ExplainPlanning(%q): ok %v, err %v", tt.text, ok, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ExplainPlanning(%q) (-want +got):\n%s", tt.text, diff)
		}
	}

	// Not a planning answer: the caller explains it.
	for _, text := range []string{"llama2_70b.mpg", "grid.points + 1", "peak_mfu"} {
		if got, ok, err := s.ExplainPlanning(text); ok || err != nil {
			t.Errorf("ExplainPlanning(%q) = %q, %v, %v; want not ok", text, got, ok, err)
		}
	}
	// Errors: what names no point, what is undefined there.
	errs := []struct{ text, want string }{
		{"grid.at(runtime = 0.91).mpg", "no point of sweep grid has runtime = 0.91"},
		{"free_jobs.cost", "job bare of group free_jobs has no rate, so the group's cost is undefined"},
	}
	for _, tt := range errs {
		_, ok, err := s.ExplainPlanning(tt.text)
		if !ok || err == nil || err.Error() != tt.want {
			t.Errorf("ExplainPlanning(%q): ok %v, err %v; want %q", tt.text, ok, err, tt.want)
		}
	}
}
