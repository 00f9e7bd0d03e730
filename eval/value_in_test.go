package eval_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
)

// TestValueIn reads results of the default scenario in units: Num is in
// base units (seconds, USD per second), In in the unit named.
func TestValueIn(t *testing.T) {
	s, err := eval.LoadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		t.Fatal(err)
	}
	type in struct {
		Path, Unit string
		Got        float64
		Err        string
	}
	var got []in
	for _, c := range []struct{ path, unit string }{
		{"llama2_70b.useful_hours", "h"},
		{"llama2_70b.useful_hours", "d"},
		{"llama2_70b.cost_per_useful_hour", "USD/h"},
		{"llama2_70b.cost", "USD"},
		{"llama2_70b.mpg", ""},
		{"llama2_70b.mpg", "%"},
		{"llama2_70b.useful_hours", "USD"},
		{"llama2_70b.useful_hours", ""},
		{"llama2_70b.useful_hours", "hours"},
		{"llama2_70b.best_lever", "h"},
	} {
		v, err := s.Value(c.path)
		if err != nil {
			t.Fatal(err)
		}
		x, err := v.In(c.unit)
		r := in{Path: c.path, Unit: c.unit, Got: x}
		if err != nil {
			r.Err = err.Error()
		}
		got = append(got, r)
	}
	want := []in{
		{"llama2_70b.useful_hours", "h", 26002.944, ""},
		{"llama2_70b.useful_hours", "d", 1083.456, ""},
		{"llama2_70b.cost_per_useful_hour", "USD/h", 8.86053517632465, ""},
		{"llama2_70b.cost", "USD", 230400, ""},
		{"llama2_70b.mpg", "", 0.28215, ""},
		{"llama2_70b.mpg", "%", 28.215, ""},
		{"llama2_70b.useful_hours", "USD", 0, "26,002.944 h is a duration, and USD measures money"},
		{"llama2_70b.useful_hours", "", 0, "26,002.944 h is a duration: name its unit"},
		{"llama2_70b.useful_hours", "hours", 0, `unknown unit "hours"`},
		{"llama2_70b.best_lever", "h", 0, `"program" is a string, not a number`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestOutcomeString: an outcome in one line, its name, status and, when it
// failed, what its diagnostic says.
func TestOutcomeString(t *testing.T) {
	s, err := eval.LoadSource("plan.gpl", []byte(`pool p { devices = 8  rate = 2 USD/h }
job j on p {
  hours = 10h
  factors { S = 0.9  R = 0.9  P = 0.5 }
  expect mpg ≈ 0.405
  expect mpg ≈ 0.5
}
job idle on p {
  hours = 10h
  factors { S = 0.9  R = 0.9  P = 0 }
}
expect idle.cost_per_useful_hour < 5 USD/h
`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range s.Test() {
		got = append(got, o.String())
	}
	want := []string{
		"plan.gpl:5: expect mpg ≈ 0.405: pass",
		"plan.gpl:6: expect mpg ≈ 0.5: fail: expectation failed: got 0.405, want 0.5 ± 0.05 (off by 0.095)",
		"plan.gpl:12: expect idle.cost_per_useful_hour < 5 USD/h: error: cost_per_useful_hour of job idle is undefined: its mpg is 0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
