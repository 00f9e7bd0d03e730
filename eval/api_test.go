package eval

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

const apiSource = `let month = 720h
pool shared { devices = 128  rate = 2.50 USD/h }
pool free { devices = 4  hours = 10h }
job base on shared {
  hours = month
  factors { S = 0.95  R = 0.90  P = 0.33 }
  ceilings { P = 0.45 }
}
job tuned extends base { factors { P = 0.40 } }
job unpriced on free { factors { S = 1  R = 1  P = 0.5 } }
request heavy { batch_size = 8  input_size = 10MB }
request light { input_size = 1KB }
rules serving {
  small: when input_size <= 500KB -> latency_critical
  else throughput
}
expect classify(serving, heavy) == throughput
expect classify(serving, light) == latency_critical
expect classify(serving, heavy) != latency_critical
`

func loadAPI(t *testing.T) *Scenario {
	t.Helper()
	s, err := LoadWith(Options{FS: fstest.MapFS{}}, "api.gpl", []byte(apiSource))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestScenarioListings(t *testing.T) {
	s := loadAPI(t)
	names := s.Names()
	wantNames := [][2]string{
		{"month", "value"}, {"shared", "pool"}, {"free", "pool"}, {"base", "job"}, {"tuned", "job"},
		{"unpriced", "job"}, {"heavy", "request"}, {"light", "request"}, {"serving", "ruleset"},
	}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}

	var jobs []string
	for _, j := range s.Jobs() {
		jobs = append(jobs, j.Name+" on "+j.Pool+" extends "+j.Extends)
	}
	if diff := cmp.Diff([]string{"base on shared extends ", "tuned on shared extends base", "unpriced on free extends "}, jobs); diff != "" {
		t.Errorf("Jobs (-want +got):\n%s", diff)
	}

	pools := map[string]map[string]string{}
	for _, p := range s.Pools() {
		pools[p.Name] = map[string]string{}
		for k, v := range p.Fields {
			pools[p.Name][k] = v.String()
		}
	}
	wantPools := map[string]map[string]string{
		"shared": {"devices": "128", "rate": "$2.50/h"},
		"free":   {"devices": "4", "hours": "10 h"},
	}
	if diff := cmp.Diff(wantPools, pools); diff != "" {
		t.Errorf("Pools (-want +got):\n%s", diff)
	}

	lets := s.Lets()
	if len(lets) != 1 || lets[0].Name != "month" || lets[0].Value.String() != "720 h" {
		t.Errorf("Lets = %+v", lets)
	}
	if len(s.Files()) != 1 || s.Files()[0].Name != "api.gpl" {
		t.Errorf("Files = %v", s.Files())
	}
}

func TestJobResults(t *testing.T) {
	s := loadAPI(t)
	j, ok := s.Job("tuned")
	if !ok {
		t.Fatal("no job tuned")
	}
	got := map[string]string{}
	for _, name := range ResultNames() {
		v, err := j.Get(name)
		if err != nil {
			got[name] = "error: " + err.Error()
			continue
		}
		got[name] = v.String()
	}
	want := map[string]string{
		"mpg": "0.342", "badput": "0.658",
		"offered_hours": "92,160 h", "useful_hours": "31,518.72 h",
		"cost": "$230,400.00", "badput_cost": "$151,603.20", "cost_per_useful_hour": "$7.3099/h",
		"best_lever": `"program"`, "ceiling_mpg": "0.38475", "headroom": "1.125",
		"devices": "128", "hours": "720 h", "rate": "$2.50/h",
		"scheduling": "0.95", "runtime": "0.9", "program": "0.4",
		"ceiling.scheduling": "0.95", "ceiling.runtime": "0.9", "ceiling.program": "0.45",
		"loss.scheduling": "0.05", "loss.runtime": "0.095", "loss.program": "0.513",
		"lever.scheduling": "0.342", "lever.runtime": "0.342", "lever.program": "0.38475",
		"gain.scheduling": "0", "gain.runtime": "0", "gain.program": "0.04275",
		"held_hours": "87,552 h", "productive_hours": "78,796.8 h",
		"loss_hours.scheduling": "4,608 h", "loss_hours.runtime": "8,755.2 h", "loss_hours.program": "47,278.08 h",
		"loss_cost.scheduling": "$11,520.00", "loss_cost.runtime": "$21,888.00", "loss_cost.program": "$118,195.20",
		"gain_hours.scheduling": "0 s", "gain_hours.runtime": "0 s", "gain_hours.program": "3,939.84 h",
		"saving.scheduling": "$0.00", "saving.runtime": "$0.00", "saving.program": "$25,600.00",
		"owner.scheduling": `"scheduling"`, "owner.runtime": `"runtime"`, "owner.program": `"program"`,
		// cost × 0.01 / (F + 0.01): $230,400 × 0.01 / 0.96, / 0.91, / 0.41
		"point_value.scheduling": "$2,400.00", "point_value.runtime": "$2,531.87", "point_value.program": "$5,619.51",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results of tuned (-want +got):\n%s", diff)
	}
	if j.Inputs.Devices != 128 || j.Inputs.Hours != 720 || j.Inputs.Rate.Value != 2.5 {
		t.Errorf("inputs in engine units: %+v", j.Inputs)
	}

	u, _ := s.Job("unpriced")
	_, err := u.Get("cost")
	if err == nil || err.Error() != "job unpriced has no rate, so cost is undefined; set rate in the job or its pool" {
		t.Errorf("cost of a job without a rate: %v", err)
	}
	_, err = u.Get("speed")
	if err == nil || err.Error() != "job unpriced has no result speed" {
		t.Errorf("unknown result: %v", err)
	}
	if _, ok := s.Job("heavy"); ok {
		t.Error("Job(heavy) found a request")
	}
	if _, ok := s.Job("nothing"); ok {
		t.Error("Job(nothing) found something")
	}
}

func TestScenarioValueAndEval(t *testing.T) {
	s := loadAPI(t)
	tests := []struct {
		expr string
		want string
		typ  string
	}{
		{"month", "720 h", "duration"},
		{"base.mpg", "0.28215", "count"},
		{"base.loss.P", "0.57285", "count"},
		{"shared.rate * base.offered_hours", "$230,400.00", "money"},
		{"tuned.cost / tuned.useful_hours", "$7.3099/h", "price"},
		{"heavy.input_size * heavy.batch_size", "80 MB", "data"},
		{"trade_ratio(base, tuned) > 1", "true", "bool"},
		{"classify(serving, light)", "latency_critical", "class"},
		{`tuned.best_lever + ""`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			v, err := s.Eval("q", tt.expr)
			typ, terr := s.TypeOf("q", tt.expr)
			if tt.want == "" {
				if err == nil || terr == nil {
					t.Errorf("Eval(%q) = %v, TypeOf = %v; want errors", tt.expr, v, typ)
				}
				return
			}
			if err != nil || terr != nil {
				t.Fatalf("Eval: %v; TypeOf: %v", err, terr)
			}
			if diff := cmp.Diff([2]string{tt.want, tt.typ}, [2]string{v.String(), typ.String()}); diff != "" {
				t.Errorf("value, type (-want +got):\n%s", diff)
			}
		})
	}

	v, err := s.Value("base.useful_hours")
	days := units.Of("d")
	if err != nil || v.Precise(nil) != "26,002.944 h" || v.Precise(&days) != "1,083.456 d" {
		t.Errorf("Value(base.useful_hours) = %v, %v, %v", v.Precise(nil), v.Precise(&days), err)
	}
	if v.Plain(nil) != "26002.944 h" || v.Plain(&days) != "1083.456 d" {
		t.Errorf("Plain(base.useful_hours) = %v, %v", v.Plain(nil), v.Plain(&days))
	}
	if _, err := s.Value("base.nothing"); err == nil || !strings.HasPrefix(err.Error(), "base.nothing: ") {
		t.Errorf("Value of an unknown result: %v", err)
	}

	// An error from Eval is an *Error with a rendered position in the
	// expression's own source, and it leaves the scenario's diagnostics
	// as they were.
	_, err = s.Eval("query", "base.mpg / (tuned.mpg - tuned.mpg)")
	var e *Error
	if !errors.As(err, &e) || !e.Runtime {
		t.Fatalf("Eval of a division by zero: %v", err)
	}
	var b strings.Builder
	e.Diagnostics.RenderAll(&b, e.Sources, lang.Style{})
	want := `error: division by zero
  --> query:1:12
   |
 1 | base.mpg / (tuned.mpg - tuned.mpg)
   |            ^^^^^^^^^^^^^^^^^^^^^^^
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("rendered Eval error (-want +got):\n%s", diff)
	}
	if len(s.Diagnostics()) != 0 {
		t.Errorf("Eval left diagnostics in the scenario: %v", s.Diagnostics())
	}
	_, err = s.Eval("query", "1 +")
	if !errors.As(err, &e) || e.Runtime || len(e.Diagnostics) != 1 {
		t.Errorf("Eval of a syntax error: %v", err)
	}
}

func TestRulesetAndCoverage(t *testing.T) {
	s := loadAPI(t)
	rs, ok := s.Ruleset("serving")
	if !ok {
		t.Fatal("no ruleset serving")
	}
	req := priority.NewRequest()
	req.Set(priority.InputSize, 400_000)
	if class, rule := rs.Classify(&req); class != "latency_critical" || rule != 0 {
		t.Errorf("Classify(400 KB) = %s, rule %d", class, rule)
	}
	if _, ok := s.Ruleset("heavy"); ok {
		t.Error("Ruleset(heavy) found a request")
	}

	names, counts, ok := s.RuleCoverage("serving", nil)
	if !ok {
		t.Fatal("no coverage for serving")
	}
	// Each classify call in a let or an expect counts once, however often
	// the expects are checked.
	s.Test()
	if diff := cmp.Diff([]string{"small", "else"}, names); diff != "" {
		t.Errorf("rule names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 2}, counts); diff != "" {
		t.Errorf("coverage (-want +got):\n%s", diff)
	}
	if _, again, _ := s.RuleCoverage("serving", nil); !cmp.Equal(counts, again) {
		t.Errorf("coverage changed after Test: %v, then %v", counts, again)
	}
	if _, _, ok := s.RuleCoverage("base", nil); ok {
		t.Error("RuleCoverage(base) found a job")
	}
}

func TestLoadErrors(t *testing.T) {
	_, err := LoadFile("../testdata/does-not-exist.gpl")
	var e *Error
	if !errors.As(err, &e) || len(e.Diagnostics) != 1 || e.Runtime {
		t.Fatalf("LoadFile of a missing file: %v", err)
	}
	if got, want := err.Error(), "cannot read ../testdata/does-not-exist.gpl: no such file"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	_, err = Load(fstest.MapFS{}, "missing.gpl")
	if err == nil || err.Error() != "cannot read missing.gpl: no such file" {
		t.Errorf("Load of a missing file: %v", err)
	}

	// Imports resolve inside the fs.FS, relative to the importing file.
	fsys := fstest.MapFS{
		"plans/main.gpl":         {Data: []byte("import \"shared/pools.gpl\"\nimport \"std/kapsl\"\nexpect p.devices == 8\n")},
		"plans/shared/pools.gpl": {Data: []byte("pool p { devices = 8 }\n")},
	}
	s, err := Load(fsys, "plans/main.gpl")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range s.Files() {
		files = append(files, f.Name)
	}
	if diff := cmp.Diff([]string{"plans/main.gpl", "plans/shared/pools.gpl", "std/kapsl.gpl"}, files); diff != "" {
		t.Errorf("files read (-want +got):\n%s", diff)
	}
	if _, ok := s.Ruleset("kapsl"); !ok {
		t.Error("std/kapsl did not declare kapsl")
	}
}
