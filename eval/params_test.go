package eval

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

const paramSource = `param measured_runtime = 0.90
param gpu_rate = 2.50 USD/h
let peak = 0.45

pool p {
  devices = 128
  rate    = gpu_rate
}

job j on p {
  hours    = 720h
  factors  { scheduling = 0.95  runtime = measured_runtime  program = 0.33 }
  ceilings { program = peak }
  expect mpg ≈ 0.28215 ± 0.000001
}

rules serving {
  small: when batch_size <= 4 -> latency_critical
  else throughput
}
request one { batch_size = 1 }
expect classify(serving, one) == latency_critical
expect j.cost_per_useful_hour < 10 USD/h
`

func loadParams(t testing.TB) *Scenario {
	t.Helper()
	s, err := LoadSource("p.gpl", []byte(paramSource))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseSetting(t *testing.T) {
	s := loadParams(t)
	tests := []struct {
		name, setting string
		param         string
		value         string
		err           string
	}{
		{"count", "measured_runtime=0.85", "measured_runtime", "0.85", ""},
		{"price", "gpu_rate=3.10USD/h", "gpu_rate", "$3.10/h", ""},
		{"an expression of constants", "gpu_rate = 2 * 1.5 USD/h", "gpu_rate", "$3.00/h", ""},
		{"wrong dimension", "measured_runtime=85h", "", "", `error: measured_runtime is a count, but 85h is a duration; write it without a unit: 85
  --> --set:1:18
   |
 1 | measured_runtime=85h
   |                  ^^^
`},
		{"misspelt", "measured_rutime=0.85", "", "", `error: unknown param measured_rutime; did you mean measured_runtime?
  --> --set:1:1
   |
 1 | measured_rutime=0.85
   | ^^^^^^^^^^^^^^^
`},
		{"a let", "peak=0.5", "", "", `error: peak is a let, not a param; declare it with param to set it from outside the file
  --> --set:1:1
   |
 1 | peak=0.5
   | ^^^^
`},
		{"a job", "j=1", "", "", `error: j is a job, not a param; the params are gpu_rate, measured_runtime
  --> --set:1:1
   |
 1 | j=1
   | ^
`},
		{"empty", "gpu_rate=", "", "", `error: the value of gpu_rate is empty; write it after the =, e.g. gpu_rate=1USD/h
  --> --set:1:10
   |
 1 | gpu_rate=
   |          ^
`},
		{"too large", "measured_runtime=1e400", "", "", `error: the value of measured_runtime: number "1e400" is too large: beyond ±1.8e308, the largest number gpl holds
  --> --set:1:18
   |
 1 | measured_runtime=1e400
   |                  ^^^^^
   = hint: check its exponent: no plan needs a quantity this large
`},
		{"a stray =", "measured_runtime=1=2", "", "", `error: the value of measured_runtime: syntax error: unexpected "="
  --> --set:1:19
   |
 1 | measured_runtime=1=2
   |                   ^
`},
		{"not a constant", "gpu_rate=p.rate", "", "", `error: the value of gpu_rate must be a constant, such as 1 USD/h
  --> --set:1:10
   |
 1 | gpu_rate=p.rate
   |          ^^^^^^
`},
		{"no equals sign", "gpu_rate", "", "", `error: --set takes NAME=VALUE, not "gpu_rate"
  --> --set:1:1
   |
 1 | gpu_rate
   | ^^^^^^^^
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name, v, err := s.ParseSetting(tc.setting)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]string{tc.param, tc.value}, []string{name, v.String()}); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			var b strings.Builder
			e.Diagnostics.RenderAll(&b, e.Sources, lang.Style{})
			if diff := cmp.Diff(tc.err, b.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// summary is what an evaluation gives, as text: every param, the job's
// results, and every outcome.
func summary(t testing.TB, s *Scenario) string {
	t.Helper()
	var b strings.Builder
	for _, p := range s.Params() {
		fmt.Fprintf(&b, "%s = %s\n", p.Name, p.Value.Precise(nil))
	}
	j, ok := s.Job("j")
	if !ok {
		t.Fatal("no job j")
	}
	for _, r := range []string{"mpg", "cost", "cost_per_useful_hour", "best_lever"} {
		v, err := j.Get(r)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s = %s\n", r, v.Precise(nil))
	}
	for _, o := range s.Test() {
		fmt.Fprintf(&b, "%s: pass %v got %s\n", o.Expectation.Source, o.Pass, o.Got.Precise(nil))
	}
	return b.String()
}

func TestWith(t *testing.T) {
	s := loadParams(t)
	n, err := s.With(map[string]Value{"measured_runtime": NumberValue(0.85, units.Count)})
	if err != nil {
		t.Fatal(err)
	}
	want := `measured_runtime = 0.85
gpu_rate = 2.5 USD/h
mpg = 0.266475
cost = 230,400 USD
cost_per_useful_hour = 9.381743128 USD/h
best_lever = "program"
expect mpg ≈ 0.28215 ± 0.000001: pass false got 0.266475
expect classify(serving, one) == latency_critical: pass true got latency_critical
expect j.cost_per_useful_hour < 10 USD/h: pass true got 9.381743128 USD/h
`
	if diff := cmp.Diff(want, summary(t, n)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The scenario it was made from is unchanged.
	if got := summary(t, s); !strings.Contains(got, "measured_runtime = 0.9\n") {
		t.Errorf("the original evaluation changed:\n%s", got)
	}
	if _, err := s.With(map[string]Value{"peak": NumberValue(0.5, units.Count)}); err == nil {
		t.Error("With set a let")
	}
	if _, err := s.With(map[string]Value{"gpu_rate": NumberValue(0.5, units.Count)}); err == nil {
		t.Error("With took a count for a price")
	}
}

// TestConcurrentEvaluations evaluates and judges one program from 16
// goroutines at once, each with its own params, and compares every
// result with a serial run; with -race it also proves that evaluations
// share nothing they write.
func TestConcurrentEvaluations(t *testing.T) {
	s := loadParams(t)
	const n = 16
	params := func(i int) map[string]Value {
		return map[string]Value{
			"measured_runtime": NumberValue(0.80+float64(i)/100, units.Count),
			"gpu_rate":         NumberValue(units.FromUnit(2+float64(i)/10, units.USDPerHour), units.Price),
		}
	}
	serial := make([]string, n)
	for i := range n {
		e, err := s.With(params(i))
		if err != nil {
			t.Fatal(err)
		}
		serial[i] = summary(t, e)
	}
	concurrent := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				e, err := s.With(params(i))
				if err != nil {
					t.Error(err)
					return
				}
				concurrent[i] = summary(t, e)
				// Reads of the shared default evaluation race with nothing.
				if _, err := s.Eval("q", "j.mpg * 2"); err != nil {
					t.Error(err)
				}
				s.Check(s.Expectations()[0])
			}
		}()
	}
	wg.Wait()
	if diff := cmp.Diff(serial, concurrent); diff != "" {
		t.Errorf("concurrent evaluations differ from serial ones (-serial +concurrent):\n%s", diff)
	}
}

// BenchmarkWithParam evaluates the compiled default-like scenario again
// with a new param value: a re-evaluation, not a re-load.
func BenchmarkWithParam(b *testing.B) {
	s := loadParams(b)
	v := NumberValue(0.85, units.Count)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.With(map[string]Value{"measured_runtime": v}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWithParamAndTest is BenchmarkWithParam followed by judging
// every expectation.
func BenchmarkWithParamAndTest(b *testing.B) {
	s := loadParams(b)
	v := NumberValue(0.85, units.Count)
	b.ReportAllocs()
	for b.Loop() {
		n, err := s.With(map[string]Value{"measured_runtime": v})
		if err != nil {
			b.Fatal(err)
		}
		n.Test()
	}
}

// A setting of the wrong dimension is hinted with the number as given, in
// the unit the param's default is written in (issue 18: spot_rate=1.5 was
// hinted "e.g. 1 USD/h").
func TestSettingHints(t *testing.T) {
	s, err := LoadSource("h.gpl", []byte("param gpu_rate = 2.50 USD/h\nparam window = 720h\nparam dollars = $1.20/h\n"+
		"param step = 2 * 1s\nparam spot = false\nparam n = 128\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, setting, err string }{
		{"a price without its unit", "gpu_rate=1.5", `error: gpu_rate is a price, but 1.5 is a count; write its unit, e.g. 1.5 USD/h
  --> --set:1:10
   |
 1 | gpu_rate=1.5
   |          ^^^
`},
		{"a negative price without its unit", "gpu_rate=-0.5", `error: gpu_rate is a price, but -0.5 is a count; write its unit, e.g. -0.5 USD/h
  --> --set:1:10
   |
 1 | gpu_rate=-0.5
   |          ^^^^
`},
		{"a price in hours", "gpu_rate=1.5h", `error: gpu_rate is a price, but 1.5h is a duration; write it as, e.g., 1.5 USD/h
  --> --set:1:10
   |
 1 | gpu_rate=1.5h
   |          ^^^^
`},
		{"a duration without its unit", "window=30", `error: window is a duration, but 30 is a count; write its unit, e.g. 30h
  --> --set:1:8
   |
 1 | window=30
   |        ^^
`},
		{"dollars without their unit", "dollars=3", `error: dollars is a price, but 3 is a count; write its unit, e.g. $3/h
  --> --set:1:9
   |
 1 | dollars=3
   |         ^
`},
		{"a duration without a written default", "step=30", `error: step is a duration, but 30 is a count; write its unit, e.g. 30s, 30min or 30h
  --> --set:1:6
   |
 1 | step=30
   |      ^^
`},
		{"an expression of the wrong dimension", "gpu_rate=2 * 3", `error: gpu_rate is a price, but 2 * 3 is a count; write it as, e.g., 1 USD/h
  --> --set:1:10
   |
 1 | gpu_rate=2 * 3
   |          ^^^^^
`},
		{"a bool", "spot=1", `error: spot is a bool, but 1 is a count; write it as, e.g., true
  --> --set:1:6
   |
 1 | spot=1
   |      ^
`},
		{"a count with a unit", "n=2h", `error: n is a count, but 2h is a duration; write it without a unit: 2
  --> --set:1:3
   |
 1 | n=2h
   |   ^^
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := s.ParseSetting(tc.setting)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			var b strings.Builder
			e.Diagnostics.RenderAll(&b, e.Sources, lang.Style{})
			if diff := cmp.Diff(tc.err, b.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
