package eval

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang/units"
)

func loadGolden(t *testing.T, name string) *Scenario {
	t.Helper()
	s, err := Load(repoFS, "testdata/lang/"+name)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

// approx compares floats to 1e-9, as the engine's products round.
var approx = cmpopts.EquateApprox(0, 1e-9)

// TestSolveRuns: every solve of the golden file, and some with wide
// ranges, takes at most maxSolveRuns engine runs, and finds its answer.
func TestSolveRuns(t *testing.T) {
	s := loadGolden(t, "planning_solve.gpl")
	wide, err := LoadSource("wide.gpl", []byte(`
pool p { devices = 128  rate = 2.50 USD/h }
job j on p {
  hours   = 720h
  factors { S = 0.95  R = 0.90  P = 0.33 }
}
solve huge_hours over j { find hours in [0h, 1e12h] such that useful_hours >= 30000h }
solve tiny_rate over j { find rate in [0 USD/h, 1e9 USD/h] such that cost_per_useful_hour <= 5 USD/h }
solve many_devices over j { find devices in [1, 1e12] such that useful_hours >= 1e9h }
`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	want := map[string]bool{}
	for _, sc := range []*Scenario{s, wide} {
		for _, d := range sc.p.Order {
			if d.Kind != check.DeclSolve {
				continue
			}
			pv := sc.of(d).plan
			got[d.Name.Name] = pv.answer != nil && pv.runs <= maxSolveRuns && pv.runs > 2
			want[d.Name.Name] = true
			if pv.runs > maxSolveRuns {
				t.Errorf("%s took %d runs", d.Name.Name, pv.runs)
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("solves answered within %d runs (-want +got):\n%s", maxSolveRuns, diff)
	}
	v, err := wide.Eval("q", "many_devices.devices")
	if err != nil {
		t.Fatal(err)
	}
	// 1e9 h / (720 h × 0.28215) = 4,922,519.5…: rounded up.
	if diff := cmp.Diff(4922520.0, v.Num); diff != "" {
		t.Errorf("many_devices.devices (-want +got):\n%s", diff)
	}
}

// TestCompares is the table gpl run prints for a compare.
func TestCompares(t *testing.T) {
	s := loadGolden(t, "planning_compare.gpl")
	got := s.Compares()[0]
	want := Compare{Name: "tuning", By: "cost_per_useful_hour", Best: "llama2_70b_tuned", Currency: "USD", Rows: []CompareRow{
		{Job: "llama2_70b", MPG: 0.28215, UsefulHours: 26002.944, Cost: 230400, HasCost: true,
			CostPerUsefulHour: 2.5 / 0.28215, TradeRatio: 1},
		{Job: "llama2_70b_tuned", MPG: 0.342, UsefulHours: 31518.72, Cost: 230400, HasCost: true,
			CostPerUsefulHour: 2.5 / 0.342, TradeRatio: 0.342 / 0.28215, CostPerUsefulHourChange: 2.5/0.342 - 2.5/0.28215},
	}}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("Compares()[0] (-want +got):\n%s", diff)
	}
}

// TestGroups is a group's sums and its rollup by owner, largest saving
// first.
func TestGroups(t *testing.T) {
	s := loadGolden(t, "planning_groups.gpl")
	got := s.Groups()[0]
	want := Group{Name: "training", Jobs: []string{"llama2_70b", "mixtral_sft"}, HasCost: true, Currency: "USD",
		OfferedHours: 93696, HeldHours: 89057.28, ProductiveHours: 80226.816, UsefulHours: 26431.9488,
		Cost: 234240, BadputCost: 165392.64 + 2767.488, CostPerUsefulHour: 234240 / 26431.9488, MPG: 26431.9488 / 93696, HasIdleCost: true,
		Owners: []OwnerRow{
			{Owner: "program", Factors: []string{"program"}, LossHours: 52796.16 + 998.7072, LossCost: 134487.168, GainHours: 9455.616 + 143.0016, Saving: 62400},
			{Owner: "runtime", Factors: []string{"runtime"}, LossHours: 8755.2 + 75.264, LossCost: 21888 + 188.16, GainHours: 1444.608, Saving: 12126.315789473685},
			{Owner: "scheduling", Factors: []string{"scheduling"}, LossHours: 4608 + 30.72, LossCost: 11520 + 76.8, GainHours: 821.1456, Saving: 7053.061224489797},
		},
		// point_value.F summed: cost × 0.01 / (F + 0.01), on $230,400 and
		// mixtral_sft's 32 × 48 h × $2.50 = $3,840.
		Listed: []Result{
			{Name: "point_value.scheduling", Value: NumberValue(230400*0.01/0.96+3840*0.01/0.99, units.Money)},
			{Name: "point_value.runtime", Value: NumberValue(230400*0.01/0.91+3840*0.01/0.96, units.Money)},
			{Name: "point_value.program", Value: NumberValue(230400*0.01/0.34+3840*0.01/0.31, units.Money)},
		}}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("Groups()[0] (-want +got):\n%s", diff)
	}
}

// TestSweepPoints: the points in order, from + i × step, the last being
// "to" itself; a factor above its ceiling is marked.
func TestSweepPoints(t *testing.T) {
	s := loadGolden(t, "planning_sweep.gpl")
	type row struct {
		Program float64
		MPG     float64
		Above   []string
		Lever   string
	}
	var got []row
	err := s.SweepPoints("program_sweep", func(p SweepPoint) bool {
		got = append(got, row{p.Inputs[0].Num, p.MPG, p.AboveCeiling, p.BestLever})
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []row{
		{0.30, 0.2565, nil, "program"},
		{0.30 + 0.05, 0.29925, nil, "program"},
		{0.30 + 2*0.05, 0.342, nil, "program"},
		{0.30 + 3*0.05, 0.38475, nil, "runtime"},
		{0.50, 0.4275, []string{"program"}, "runtime"},
	}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("program_sweep points (-want +got):\n%s", diff)
	}
	// The steps are computed, not accumulated: exactly these numbers.
	var exact []float64
	s.SweepPoints("program_sweep", func(p SweepPoint) bool { exact = append(exact, p.Inputs[0].Num); return true })
	if diff := cmp.Diff([]float64{0.30, 0.30 + 0.05, 0.30 + 2*0.05, 0.30 + 3*0.05, 0.50}, exact); diff != "" {
		t.Errorf("program_sweep values (-want +got):\n%s", diff)
	}
}

// TestAxisCount: "to" is a point when (to − from) / step is whole within
// 1e-9, and only then.
func TestAxisCount(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want float64
	}{
		{"whole", "vary program from 0.30 to 0.50 step 0.05", 5},
		{"whole after rounding", "vary program from 0.1 to 0.7 step 0.1", 7},
		{"not whole", "vary devices from 100 to 250 step 100", 2},
		{"one", "vary devices from 128 to 128 step 1", 1},
		{"hours", "vary hours from 24h to 720h step 24h", 30},
		{"grid", "vary runtime in [0.9, 0.95]\n  vary devices from 1 to 10 step 1", 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "pool p { devices = 128  rate = 2.50 USD/h }\njob j on p {\n  hours = 720h\n  factors { S = 0.95  R = 0.90  P = 0.33 }\n}\nsweep s over j {\n  " + tt.src + "\n}\n"
			sc, err := LoadSource("axis.gpl", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			v, err := sc.Eval("q", "s.points")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, v.Num); diff != "" {
				t.Errorf("points (-want +got):\n%s", diff)
			}
		})
	}
}

// TestQueryErrors are the errors of queries that find no point.
func TestQueryErrors(t *testing.T) {
	s := loadGolden(t, "planning_sweep.gpl")
	tests := []struct{ expr, want string }{
		{"program_sweep.at(program = 0.41).mpg", "no point of sweep program_sweep has program = 0.41"},
		{"program_sweep.first(mpg > 0.9).program", "no point of sweep program_sweep meets mpg > 0.9"},
		{"program_sweep.argmax(mpg)", "argmax gives a point; name one of its results or inputs, e.g. program_sweep.argmax(…).program"},
		{"program_sweep.at(devices = 1).mpg", "sweep program_sweep does not vary devices; it varies program"},
		{"program_sweep.average(mpg)", "sweep program_sweep has no query average; it answers min, max, argmin, argmax, at, first"},
		{"program_sweep.median(mpg)", "sweep program_sweep has no query median; did you mean min?"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := s.Eval("q", tt.expr)
			var e *Error
			got := ""
			if err != nil {
				got = err.Error()
				if errors.As(err, &e) {
					got = e.Diagnostics[0].Summary
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
