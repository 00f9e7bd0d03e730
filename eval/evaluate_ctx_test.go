package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// planSource is the default scenario with a gpu_rate param, two sweeps
// and two solves: a sweep over the file varying the param (walked as the
// file loads, to warn of points that cannot be evaluated), one over the
// job of 10,000 points, a solve over the job and one over the file.
func planSource(tb testing.TB) []byte {
	tb.Helper()
	src, err := os.ReadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		tb.Fatal(err)
	}
	return append(src, `
param gpu_rate = 2.50 USD/h

pool spare {
  devices = 64
  rate    = gpu_rate
}

job side on spare {
  hours = 100h
  factors { scheduling = 0.9  runtime = measured_runtime  program = 0.3 }
}

sweep rates over file {
  vary measured_runtime from 0.5 to 0.99 step 0.01
  show side.cost_per_useful_hour
}

sweep grid over llama2_70b {
  vary runtime from 0.01 to 1 step 0.01
  vary devices from 1 to 100 step 1
}

solve need over llama2_70b { find runtime such that mpg >= 0.30 }

solve cheap over file {
  find measured_runtime in [0.5, 0.99] such that side.cost_per_useful_hour <= 15 USD/h
}
`...)
}

// withBest adds a let that reads every point of the sweep grid: 10,000
// engine runs in each evaluation of the file (and, as the let is part of
// the model, at each point of rates and each value cheap tries).
const withBest = "\nlet best = grid.max(useful_hours)\n"

func loadPlan(tb testing.TB, extra ...string) *Scenario {
	tb.Helper()
	src := planSource(tb)
	for _, e := range extra {
		src = append(src, e...)
	}
	s, err := LoadSource("plan.gpl", src)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// Only evaluates the job asked for and what it reads: no point of a sweep
// is walked (a budget of one point holds), and its figures are those of
// the whole evaluation. What was not asked for is computed on first read.
func TestEvaluateOnly(t *testing.T) {
	s := loadPlan(t, withBest)
	set := Settings{"measured_runtime": Count(0.85)}
	whole, err := s.Evaluate(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	part, err := s.Evaluate(context.Background(), set, Only("llama2_70b"), MaxPoints(1), MaxEngineRuns(2))
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, path := range []string{"llama2_70b.mpg", "llama2_70b.cost_per_useful_hour", "side.mpg", "need.runtime", "best"} {
		w, err := whole.Value(path)
		if err != nil {
			t.Fatal(err)
		}
		g, err := part.Value(path) // the last three computed on first read
		if err != nil {
			t.Fatal(err)
		}
		want, got = append(want, path+" "+w.String()), append(got, path+" "+g.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-whole +only):\n%s", diff)
	}
	if _, ok := part.Job("side"); !ok {
		t.Error("job side of the partial scenario was not computed on first read")
	}
	if _, err := s.Evaluate(context.Background(), nil, Only("llama2_7b")); err == nil || err.Error() != `Only("llama2_7b"): the file declares no llama2_7b; did you mean llama2_70b?` {
		t.Errorf("Only of an unknown name: %v", err)
	}
}

// The reads of a partial scenario, which compute on first read, are safe
// for concurrent use (run with -race).
func TestEvaluateOnlyConcurrentReads(t *testing.T) {
	s := loadPlan(t)
	part, err := s.Evaluate(context.Background(), nil, Only("llama2_70b"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.Query("side.useful_hours")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := q.Read(part); err != nil {
				t.Error(err)
			}
			if _, err := part.Value("need.runtime"); err != nil {
				t.Error(err)
			}
			part.Jobs()
			part.Pools()
		}()
	}
	wg.Wait()
}

// A budget stops the evaluation at the work it allows, with a typed error
// that says how much was done.
func TestEvaluateBudget(t *testing.T) {
	s := loadPlan(t)
	_, err := s.Evaluate(context.Background(), nil, MaxPoints(30))
	var se *StopError
	if !errors.Is(err, ErrBudget) || !errors.As(err, &se) || errors.Is(err, ErrCanceled) {
		t.Fatalf("got %v, want an ErrBudget", err)
	}
	if se.Points != 30 || se.Budget != "points" || se.Limit != 30 {
		t.Errorf("stopped after %d points (budget %q %d), want at 30 points", se.Points, se.Budget, se.Limit)
	}
	_, err = s.Evaluate(context.Background(), nil, MaxEngineRuns(5))
	if !errors.As(err, &se) || se.Budget != "engine runs" || se.EngineRuns != 5 {
		t.Errorf("got %v, want a stop at 5 engine runs", err)
	}
	if want := "evaluation budget exceeded: more than 5 engine runs (after 5 engine runs, 1 points, 0 samples)"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	// Enough budget: the evaluation is whole.
	if _, err := s.Evaluate(context.Background(), nil, MaxPoints(1e6), MaxEngineRuns(1e7)); err != nil {
		t.Error(err)
	}
}

// A context cancelled before, or during, the evaluation stops it: the
// work done after the cancellation is at most one engine run, counted by
// the evaluation itself (no clock is read).
func TestEvaluateCancel(t *testing.T) {
	s := loadPlan(t, withBest)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Evaluate(ctx, nil)
	var se *StopError
	if !errors.Is(err, ErrCanceled) || !errors.Is(err, context.Canceled) || !errors.As(err, &se) || se.EngineRuns != 0 {
		t.Fatalf("an evaluation under a cancelled context: %v", err)
	}
	for _, tc := range []struct {
		name   string
		only   []string
		cancel int64 // the engine run at which the context is cancelled
	}{
		{"a solve over a job", []string{"need"}, 3},
		{"a solve over the file", []string{"cheap"}, 6},
		{"a sweep's walk", []string{"best"}, 500},
		{"the whole file", nil, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ctl := &control{ctx: ctx, done: ctx.Done(), onRun: func(n int64) {
				if n == tc.cancel {
					cancel()
				}
			}}
			_, err := s.evaluateUnder(ctl, nil, tc.only)
			var se *StopError
			if !errors.As(err, &se) || !errors.Is(err, ErrCanceled) {
				t.Fatalf("got %v, want ErrCanceled", err)
			}
			if after := se.EngineRuns - tc.cancel; after < 0 || after > 1 {
				t.Errorf("%d engine runs after the cancellation, want at most 1", after)
			}
		})
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if _, err := s.Evaluate(ctx, nil); !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrCanceled) {
		t.Errorf("a passed deadline: %v", err)
	}
}

// A scenario read after its Evaluate returned is not stopped by the
// context, which may be done by then: the solve's answer point, kept
// with the scenario, is read after the cancellation.
func TestEvaluateDetached(t *testing.T) {
	s := loadPlan(t)
	ctx, cancel := context.WithCancel(context.Background())
	n, err := s.Evaluate(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := n.Value("cheap.side.mpg"); err != nil {
		t.Error(err)
	}
	if _, err := n.Value("rates.max(side.mpg)"); err != nil {
		t.Error(err)
	}
}

func TestQuery(t *testing.T) {
	s := loadPlan(t)
	q, err := s.Query("llama2_70b.cost_per_useful_hour")
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.Evaluate(context.Background(), Settings{"measured_runtime": Count(0.85)}, Only("llama2_70b"))
	if err != nil {
		t.Fatal(err)
	}
	type read struct {
		Text string
		Err  string
	}
	var got []read
	add := func(v any, err error) {
		r := read{Text: ""}
		switch x := v.(type) {
		case Value:
			r.Text = x.String()
		case float64:
			r.Text = fmt.Sprintf("%.4f", x)
		}
		if err != nil {
			r.Text, r.Err = "", err.Error()
			if len(r.Err) > 80 {
				r.Err = r.Err[:80] + "…"
			}
		}
		got = append(got, r)
	}
	add(q.Read(s))
	add(q.Read(n))
	qh, err := s.QueryIn("llama2_70b.cost_per_useful_hour", "USD/h")
	if err != nil {
		t.Fatal(err)
	}
	add(qh.Float(n))
	other, _ := LoadSource("other.gpl", []byte("let x = 1\n"))
	add(q.Read(other))
	_, err = s.QueryIn("llama2_70b.cost_per_useful_hour", "h")
	add(nil, err)
	_, err = s.QueryIn("llama2_70b.best_lever", "")
	add(nil, err)
	_, err = s.Query("llama2_70b.nope")
	add(nil, err)
	want := []read{
		{Text: "$8.8605/h"},
		{Text: "$9.3817/h"},
		{Text: "9.3817"},
		{Err: `query "llama2_70b.cost_per_useful_hour" was prepared on another file`},
		{Err: "llama2_70b.cost_per_useful_hour is a price, and h measures a duration"},
		{Err: "llama2_70b.best_lever is a string, not a number"},
		{Err: "<query>:1:12: job llama2_70b has no nope; it has badput, badput_cost, best_lever…"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestQuantity(t *testing.T) {
	var got []string
	for _, c := range []struct {
		v    float64
		unit string
	}{{3.10, "USD/h"}, {40, "min"}, {85, "%"}, {0.9, ""}, {2, "GiB"}, {1, "furlong"}} {
		v, err := Quantity(c.v, c.unit)
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		got = append(got, v.String()+" "+v.Type.Phrase())
	}
	want := []string{"$3.10/h a price", "40 min a duration", "0.85 a count", "0.9 a count", "2.147483648 GB data", `unknown unit "furlong"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A typed setting is the one --set text gives.
	s := loadPlan(t)
	_, byText, err := s.ParseSetting("gpu_rate=3.10 USD/h")
	if err != nil {
		t.Fatal(err)
	}
	if typed := MustQuantity(3.10, "USD/h"); typed != byText {
		t.Errorf("Quantity(3.10, USD/h) = %#v, --set text gives %#v", typed, byText)
	}
}

// BenchmarkQueryRead reads a prepared query of a job's result.
func BenchmarkQueryRead(b *testing.B) {
	s := loadPlan(b)
	q, err := s.Query("llama2_70b.cost_per_useful_hour")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := q.Read(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQueryReadLet reads a prepared query of a let.
func BenchmarkQueryReadLet(b *testing.B) {
	s := loadPlan(b)
	q, err := s.Query("peak_mfu")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := q.Read(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValueText is what a prepared query saves: Value parses and
// checks its text on every call.
func BenchmarkValueText(b *testing.B) {
	s := loadPlan(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Value("llama2_70b.cost_per_useful_hour"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateOnlyJob evaluates one job of the two-sweep, two-solve
// plan with a param set, and reads one result through a prepared query.
func BenchmarkEvaluateOnlyJob(b *testing.B) {
	s := loadPlan(b)
	q, err := s.Query("llama2_70b.cost_per_useful_hour")
	if err != nil {
		b.Fatal(err)
	}
	set := Settings{"measured_runtime": Count(0.85)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		n, err := s.Evaluate(ctx, set, Only("llama2_70b"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := q.Read(n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWithPlan is the whole evaluation of the same plan that With
// makes: what Only saves.
func BenchmarkWithPlan(b *testing.B) {
	s := loadPlan(b)
	set := Settings{"measured_runtime": Count(0.85)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.With(set); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCancelSolve measures how long a solve over the file runs on
// after its context is cancelled (at its third engine run): ns/stop is
// the time from the cancel to Evaluate's return.
func BenchmarkCancelSolve(b *testing.B) {
	s := loadPlan(b)
	var total time.Duration
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		var at time.Time
		ctl := &control{ctx: ctx, done: ctx.Done(), onRun: func(n int64) {
			if n == 3 {
				at = time.Now()
				cancel()
			}
		}}
		if _, err := s.evaluateUnder(ctl, nil, []string{"cheap"}); !errors.Is(err, ErrCanceled) {
			b.Fatal(err)
		}
		total += time.Since(at)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns/stop")
}

// The hook a sampling loop calls counts samples against the budget and
// stops the evaluation past it.
func TestSampleHook(t *testing.T) {
	s := &Scenario{ctl: &control{ctx: context.Background(), maxSamples: 10}}
	s.countSamples(6)
	s.checkStop()
	defer func() {
		st, ok := recover().(stopSignal)
		if !ok || !errors.Is(st.err, ErrBudget) || st.err.Budget != "samples" || st.err.Samples != 6 {
			t.Errorf("got %v, want a stop at the samples budget after 6", st.err)
		}
	}()
	s.countSamples(6)
	t.Error("no stop past the budget")
}

// A query that walks a sweep is bounded by ReadContext as Evaluate is.
func TestQueryReadContext(t *testing.T) {
	s := loadPlan(t)
	q, err := s.Query("grid.max(useful_hours)")
	if err != nil {
		t.Fatal(err)
	}
	_, err = q.ReadContext(context.Background(), s, MaxPoints(100))
	var se *StopError
	if !errors.As(err, &se) || se.Points != 100 {
		t.Fatalf("got %v, want a stop at 100 points", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := q.ReadContext(ctx, s); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
	v, err := q.ReadContext(context.Background(), s)
	w, _ := s.Value("grid.max(useful_hours)")
	if err != nil || v != w {
		t.Errorf("unbounded: %v, %v; want %v", v, err, w)
	}
}

// BenchmarkQueryReadNew reads a prepared query of a job's result from
// one of two scenarios in turn, so that no read is of the scenario read
// last: the job's result is worked out again each time.
func BenchmarkQueryReadNew(b *testing.B) {
	s := loadPlan(b)
	n, err := s.With(Settings{"measured_runtime": Count(0.85)})
	if err != nil {
		b.Fatal(err)
	}
	q, err := s.Query("llama2_70b.cost_per_useful_hour")
	if err != nil {
		b.Fatal(err)
	}
	scs := [2]*Scenario{s, n}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := q.Read(scs[i&1]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkEvaluateOnlyJobSizes is BenchmarkEvaluateOnlyJob on the plan
// with 10, 100 and 1,000 more jobs, which Only does not compute: what
// grows is the evaluation's tables, one entry a declaration.
func BenchmarkEvaluateOnlyJobSizes(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var extra strings.Builder
			for i := range n {
				fmt.Fprintf(&extra, "\njob extra_%d on spare {\n  devices = 1\n  hours = 10h\n  factors { scheduling = 0.9  runtime = 0.9  program = 0.3 }\n}\n", i)
			}
			s := loadPlan(b, extra.String())
			set := Settings{"measured_runtime": Count(0.85)}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Evaluate(context.Background(), set, Only("llama2_70b")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkQueryReadOnly reads a prepared query of a job's result from
// two evaluations with Only in turn: the job's kept result, read in
// place.
func BenchmarkQueryReadOnly(b *testing.B) {
	s := loadPlan(b)
	q, err := s.Query("llama2_70b.cost_per_useful_hour")
	if err != nil {
		b.Fatal(err)
	}
	var scs [2]*Scenario
	for i, rt := range []float64{0.85, 0.9} {
		if scs[i], err = s.Evaluate(context.Background(), Settings{"measured_runtime": Count(rt)}, Only("llama2_70b")); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := q.Read(scs[i&1]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
