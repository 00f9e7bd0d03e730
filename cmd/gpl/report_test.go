package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
)

func loadReport(t *testing.T, src string) *report {
	t.Helper()
	s, err := eval.LoadSource("plan.gpl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return buildReport(s)
}

// TestJSONReportNumbers pins every fraction of the JSON report: the ones
// computed as differences (badput, losses, gains) carry float noise at the
// 17th decimal, 0.00891000000000003 for the default scenario's
// gain.scheduling, which the report must not show.
func TestJSONReportNumbers(t *testing.T) {
	r := loadReport(t, `
pool shared_h100 { devices = 128  rate = 2.50 USD/h }
job llama2_70b on shared_h100 {
  hours    = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = 0.45 }
}
job reserved on shared_h100 {
  hours    = 336h
  factors  { scheduling = 0.97  runtime = 0.92  program = 0.38 }
  ceilings { scheduling = 0.99  runtime = 0.96  program = 0.45 }
}
`)
	type fractions struct {
		MPG, Badput, CeilingMPG   float64
		Loss, Lever, Gain         jsonFactors
		OfferedHours, UsefulHours float64
	}
	var got []fractions
	for j := range toJSON(r, nil).AllJobs() {
		got = append(got, fractions{j.MPG, j.Badput, j.CeilingMPG, j.Loss, j.Lever, j.Gain, j.OfferedHours, j.UsefulHours})
	}
	want := []fractions{
		{
			MPG: 0.28215, Badput: 0.71785, CeilingMPG: 0.41895,
			Loss:         jsonFactors{0.05, 0.095, 0.57285},
			Lever:        jsonFactors{0.29106, 0.297825, 0.38475},
			Gain:         jsonFactors{0.00891, 0.015675, 0.1026},
			OfferedHours: 92160, UsefulHours: 26002.944,
		},
		{
			MPG: 0.339112, Badput: 0.660888, CeilingMPG: 0.42768,
			Loss:         jsonFactors{0.03, 0.0776, 0.553288},
			Lever:        jsonFactors{0.346104, 0.353856, 0.40158},
			Gain:         jsonFactors{0.006992, 0.014744, 0.062468},
			OfferedHours: 43008, UsefulHours: 14584.528896,
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON figures (-want +got):\n%s", diff)
	}
}

// TestRulesReport pins how the text report names the rule that classified
// each request: by label, by number when the rule has none, or else.
func TestRulesReport(t *testing.T) {
	r := loadReport(t, `
rules serving {
  override: when priority == 0 -> latency_critical
  when batch_size <= 4         -> latency_critical
  else throughput
}
request urgent { priority = 0 }
request small  { batch_size = 2 }
request heavy  { batch_size = 64 }
`)
	var b strings.Builder
	writeRules(&b, r.s)
	want := `
rules serving: override, rule 2, else throughput
  request urgent  → latency_critical  (rule override)
  request small   → latency_critical  (rule 2)
  request heavy   → throughput        (else)
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("rules report (-want +got):\n%s", diff)
	}
}

// TestJobReportWords pins the words of a job's text report: one device in
// the singular, a rate per device-hour, thousands separators in hours, the
// values of every result line in one column, and no headroom ratio when
// the mpg is 0, said as such.
func TestJobReportWords(t *testing.T) {
	r := loadReport(t, `
pool one { devices = 1  rate = 1250 USD/h }
job idle on one {
  hours    = 2000h
  factors  { scheduling = 0  runtime = 0.9  program = 0.5 }
  ceilings { scheduling = 0.5 }
}
`)
	j, ok := r.s.Job("idle")
	if !ok {
		t.Fatal("no job idle")
	}
	var b strings.Builder
	writeJob(&b, j)
	got := b.String()
	got, _, _ = strings.Cut(got, "  waterfall") // the waterfall has its own tests
	want := `
job idle (pool one)
  1 device × 2,000 h at $1,250.00 per device-hour
        factor  value  ceiling  loss  lever   gain
    scheduling      0      0.5     1  0.225  0.225
       runtime    0.9        —     0      0      0
       program    0.5        —     0      0      0
  mpg                     0              useful fraction of offered device-hours (badput 1)
  ceiling_mpg             0.225          every factor at its ceiling (no headroom ratio: mpg is 0)
  offered_hours           2,000 h        device-hours offered
  useful_hours            0 h            device-hours of useful work
  cost                    $2,500,000.00
  badput_cost             $2,500,000.00  spent on hours that did no useful work
  cost_per_useful_hour    —
  point_value.scheduling  $2,500,000.00
  point_value.runtime     $27,472.53
  point_value.program     $49,019.61
  best_lever              scheduling (+0.225 mpg, to 0.225)
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("job report (-want +got):\n%s", diff)
	}
}
