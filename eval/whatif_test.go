package eval

import (
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang/units"
)

// whatIfSource is language.md §21's example without its expects, and a
// job whose runtime goes above its ceiling at a short checkpoint.
const whatIfSource = `param ckpt_cost = 1min
pool p { devices = 2048  rate = 2 USD/h }
job pretrain on p {
  devices = 1024
  hours   = 720h
  factors { S = 0.95  R = runtime_goodput(4h, ckpt_cost, 10min)  P = 0.40 }
}
job finetune on p {
  devices = 256
  hours   = 240h
  factors  { S = 0.97  R = runtime_goodput(8h, ckpt_cost, 5min)  P = 0.33 }
  ceilings { R = 0.93 }
}
group fleet { pretrain, finetune }
sweep storage over file {
  vary ckpt_cost in [10s, 30s, 1min, 2min, 4h]
  show pretrain.runtime, fleet.cost_per_useful_hour
}
solve max_ckpt over file {
  find ckpt_cost in [1s, 10min] such that fleet.mpg >= 0.32
}
`

func loadWhatIf(t *testing.T) *Scenario {
	t.Helper()
	s, err := LoadSource("whatif.gpl", []byte(whatIfSource))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// row is a sweep point as the tests compare it.
type row struct {
	Input   string
	Columns []string
	Failure string
	Above   []string
}

// TestSweepOverFile: each point is the file evaluated with the param
// replaced, as Scenario.With makes it; a factor above its ceiling there
// is allowed and marked; a point where the file cannot be evaluated is a
// row saying why, and where.
func TestSweepOverFile(t *testing.T) {
	s := loadWhatIf(t)
	var got []row
	err := s.SweepPoints("storage", func(p SweepPoint) bool {
		r := row{Input: p.Inputs[0].String(), Above: p.AboveCeiling}
		if p.Failure != nil {
			r.Failure = p.Failure.Error()
		}
		for _, c := range p.Columns {
			r.Columns = append(r.Columns, c.Name+" "+c.Value.String())
		}
		got = append(got, r)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	// At 4 h, runtime_goodput(4h, 4h, 10min) = 1 − 4h/τ − (τ/2 + 10min)/4h
	// with τ = √(2 × 4h × 4h) = 5.657 h: 1 − 0.7071 − 0.7488 = −0.456.
	fail := "runtime_goodput would be -0.456, below 0: failures come faster than the job keeps progress; checkpoint faster, restart faster or raise the MTBF (whatif.gpl:6:27)"
	want := []row{
		{Input: "10 s", Columns: []string{"pretrain.runtime 0.9210655337", "fleet.cost_per_useful_hour $5.767/h"}, Above: []string{"finetune.runtime"}},
		{Input: "30 s", Columns: []string{"pretrain.runtime 0.8937836109", "fleet.cost_per_useful_hour $5.939/h"}, Above: []string{"finetune.runtime"}},
		{Input: "1 min", Columns: []string{"pretrain.runtime 0.8670462404", "fleet.cost_per_useful_hour $6.1179/h"}},
		{Input: "2 min", Columns: []string{"pretrain.runtime 0.8292338885", "fleet.cost_per_useful_hour $6.39/h"}},
		{Input: "4 h", Columns: []string{"pretrain.runtime —", "fleet.cost_per_useful_hour —"}, Failure: fail},
	}
	for i := range got { // a failed point's columns hold no value
		if got[i].Failure != "" {
			for j, c := range got[i].Columns {
				got[i].Columns[j] = c[:len(c)-len(" "+Value{}.String())] + " —"
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("points (-want +got):\n%s", diff)
	}
	sw := s.Sweeps()[0]
	if diff := cmp.Diff(Sweep{Name: "storage", OverFile: true, Inputs: []string{"ckpt_cost"},
		Columns: []string{"pretrain.runtime", "fleet.cost_per_useful_hour"}, Points: 5, Failed: 1}, sw); diff != "" {
		t.Errorf("Sweeps()[0] (-want +got):\n%s", diff)
	}

	// A point is the file as --set would make it.
	w, err := s.With(map[string]Value{"ckpt_cost": NumberValue(120, units.Duration)})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"fleet.mpg", "pretrain.runtime", "fleet.cost_per_useful_hour"} {
		at, err := s.Eval("q", "storage.at(ckpt_cost = 2min)."+e)
		if err != nil {
			t.Fatal(err)
		}
		direct, err := w.Value(e)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(direct, at); diff != "" {
			t.Errorf("%s at 2 min: the sweep's point and With differ (-With +point):\n%s", e, diff)
		}
	}
}

// TestSolveOverFile: the answer and the result there, as the text and JSON
// print them; an answer next to values where the job cannot be evaluated
// says so.
func TestSolveOverFile(t *testing.T) {
	s := loadWhatIf(t)
	type solve struct {
		Name, Input, Value, Subject, Result string
		Above                               []string
	}
	var got []solve
	for _, sv := range s.Solves() {
		got = append(got, solve{sv.Name, sv.Input, sv.Value.String(), sv.Subject, sv.Result.String(), sv.Above})
		if sv.Border != nil {
			t.Errorf("%s borders a failure: %v", sv.Name, sv.Border)
		}
	}
	want := []solve{{"max_ckpt", "ckpt_cost", "1.45347686 min", "fleet.mpg", "0.32", nil}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Solves() (-want +got):\n%s", diff)
	}

	b, err := LoadSource("border.gpl", []byte(`param mtbf = 4h
pool p { devices = 128  rate = 2 USD/h }
job j on p {
  hours   = 720h
  factors { S = 0.95  R = runtime_goodput(mtbf, 1min, 10min)  P = 0.40 }
}
group g { j }
solve any over file { find mtbf in [10min, 1000h] such that j.runtime >= 0 }
`))
	if err != nil {
		t.Fatal(err)
	}
	border := b.Solves()[0].Border
	if border == nil {
		t.Fatal("no border")
	}
	// R = 1 − 2√(δ/2M) − r/M is 0 at √(1/M) = (√(30 + 600) − √30) / 600:
	// M = 15.5826 min, where the job's runtime_goodput reaches 0.
	if diff := cmp.Diff("runtime_goodput would be -1.11e-16, below 0: failures come faster than the job keeps progress; checkpoint faster, restart faster or raise the MTBF (border.gpl:5:27)", border.Error()); diff != "" {
		t.Errorf("border (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("15.58257569 min", b.Solves()[0].Value.String()); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
}

// TestOwnerPointValue: owner_point_value adds up point_value.F of the
// factors a team owns, whichever they are, across the group's jobs.
func TestOwnerPointValue(t *testing.T) {
	s, err := LoadSource("owners.gpl", []byte(`owners { scheduling = "infra"  runtime = "infra"  program = "model" }
pool p { devices = 128  rate = 2.50 USD/h }
job a on p {
  hours   = 720h
  factors { S = 0.95  R = 0.90  P = 0.33 }
}
job b on p {
  hours   = 100h
  factors { S = 0.99  R = 0.89  P = 0.40 }
  owners  { runtime = "model" }
}
group g { a, b }
`))
	if err != nil {
		t.Fatal(err)
	}
	// cost × 0.01 / (F + 0.01): a costs $230,400, b $32,000.
	want := map[string]float64{
		"infra": 230400*0.01/0.96 + 230400*0.01/0.91 + 32000*0.01/1.00,
		"model": 230400*0.01/0.34 + 32000*0.01/0.90 + 32000*0.01/0.41,
	}
	got := map[string]float64{}
	for team := range want {
		v, err := s.Eval("q", `owner_point_value(g, "`+team+`")`)
		if err != nil {
			t.Fatal(err)
		}
		got[team] = v.Num
	}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("owner_point_value (-want +got):\n%s", diff)
	}
	_, err = s.Eval("q", `owner_point_value(g, "inra")`)
	var e *Error
	if !errors.As(err, &e) || e.Diagnostics[0].Summary != `no factor of a job in group g is owned by "inra"; did you mean "infra"?` {
		t.Errorf("a team that owns nothing: %v", err)
	}
}

// TestShowOverJob: a show line over a job chooses the table's columns,
// bare result names being the point's; one undefined there has Err.
func TestShowOverJob(t *testing.T) {
	s, err := LoadSource("show.gpl", []byte(`pool p { devices = 128  rate = 2.50 USD/h }
job j on p {
  hours    = 720h
  factors  { S = 0.95  R = 0.90  P = 0.33 }
  ceilings { P = 0.45 }
}
sweep s over j {
  vary program in [0, 0.40]
  show cost, saving.program, best_lever, cost_per_useful_hour
}
`))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	err = s.SweepPoints("s", func(p SweepPoint) bool {
		r := []string{p.Inputs[0].String()}
		for _, c := range p.Columns {
			if c.Err != nil {
				r = append(r, c.Name+": "+c.Err.Error())
				continue
			}
			r = append(r, c.Name+" "+c.Value.String())
		}
		got = append(got, r)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	// saving.program = cost × (1 − mpg / lever.program): at P = 0.40,
	// $230,400 × (1 − 0.40 / 0.45) = $25,600; at P = 0 the mpg is 0, so
	// the saving is the whole cost and the price per useful hour undefined.
	want := [][]string{
		{"0", "cost $230,400.00", "saving.program $230,400.00", `best_lever "program"`, "cost_per_useful_hour: cost_per_useful_hour is undefined: its mpg is 0"},
		{"0.4", "cost $230,400.00", "saving.program $25,600.00", `best_lever "program"`, "cost_per_useful_hour $7.3099/h"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestConcurrentWhatIfs walks a sweep over the file and searches a solve
// over it from 8 goroutines at once: the points share the file's plain
// numbers and nothing they write (with -race).
func TestConcurrentWhatIfs(t *testing.T) {
	s := loadWhatIf(t)
	const q = "storage.first(fleet.mpg < 0.33).ckpt_cost + storage.at(ckpt_cost = 10s).fleet.useful_hours / 1000h * 1s"
	want, err := s.Eval("q", q)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]Value, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				v, err := s.Eval("q", q)
				if err != nil {
					t.Error(err)
					return
				}
				got[i] = v
				if len(s.Solves()) != 1 {
					t.Error("no solve")
				}
			}
		}()
	}
	wg.Wait()
	for i, v := range got {
		if diff := cmp.Diff(want, v); diff != "" {
			t.Errorf("goroutine %d (-serial +concurrent):\n%s", i, diff)
		}
	}
}
