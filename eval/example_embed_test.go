package eval_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"time"

	"github.com/gpl-lang/gpl/eval"
)

// millionPoints is the default scenario with a sweep of 1,000,000 points
// that a let reads: evaluating the whole file runs the engine a million
// times (a fifth of a second or more), evaluating the job once.
func millionPoints() (*eval.Scenario, error) {
	src, err := os.ReadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		return nil, err
	}
	src = append(src, `
sweep grid over llama2_70b {
  vary runtime from 0.001 to 1 step 0.001
  vary devices from 1 to 1000 step 1
}
let best = grid.max(useful_hours)
`...)
	return eval.LoadSource("plan.gpl", src)
}

// A what-if service (docs/embedding.md): the file is loaded and the query
// prepared once; each request sets a param from a typed value, evaluates
// only the job it reads under a 1 ms deadline, and reads the figure in
// the unit it wants. The sweep of a million points is never walked for
// it; a request that needs the whole file stops at the deadline.
func ExampleScenario_Evaluate() {
	s, err := millionPoints()
	if err != nil {
		fmt.Println(err)
		return
	}
	cost, err := s.QueryIn("llama2_70b.cost_per_useful_hour", "USD/h")
	if err != nil {
		fmt.Println(err)
		return
	}
	whatIf := func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), time.Millisecond)
		defer cancel()
		runtime, err := strconv.ParseFloat(r.FormValue("runtime"), 64)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		n, err := s.Evaluate(ctx, eval.Settings{"measured_runtime": eval.Count(runtime)}, eval.Only("llama2_70b"))
		if errors.Is(err, eval.ErrCanceled) {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		v, err := cost.Float(n)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		fmt.Fprintf(w, "%.4f USD/h\n", v)
	}

	// Beyond the dozen lines: two requests, answered in process. A
	// machine so loaded that a request waited past its deadline before it
	// ran answers 503; the example asks again then.
	for _, runtime := range []string{"0.90", "0.85"} {
		for range 5 {
			rec := httptest.NewRecorder()
			whatIf(rec, httptest.NewRequest("GET", "/?runtime="+runtime, nil))
			if rec.Code != http.StatusServiceUnavailable {
				fmt.Print(rec.Code, " ", rec.Body.String())
				break
			}
		}
	}
	// The whole file, which walks the sweep, under the same deadline.
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err = s.Evaluate(ctx, nil)
	fmt.Println(errors.Is(err, eval.ErrCanceled), errors.Is(err, context.DeadlineExceeded))
	// Output:
	// 200 8.8605 USD/h
	// 200 9.3817 USD/h
	// true true
}

// A budget bounds the work rather than the time: the whole file needs a
// million engine runs, more than the 1,000 allowed.
func ExampleMaxEngineRuns() {
	s, err := millionPoints()
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = s.Evaluate(context.Background(), nil, eval.MaxEngineRuns(1000))
	var stop *eval.StopError
	if errors.As(err, &stop) {
		fmt.Println(errors.Is(err, eval.ErrBudget), stop.Budget, stop.EngineRuns)
	}
	// Output:
	// true engine runs 1000
}

// A prepared query reads a result of any evaluation of its file; Quantity
// makes a setting from a number and a unit, with no text to format.
func ExampleScenario_Query() {
	s, err := eval.LoadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		fmt.Println(err)
		return
	}
	mpg, err := s.Query("llama2_70b.mpg")
	if err != nil {
		fmt.Println(err)
		return
	}
	hours, err := s.QueryIn("llama2_70b.useful_hours", "h")
	if err != nil {
		fmt.Println(err)
		return
	}
	n, err := s.Evaluate(context.Background(), eval.Settings{"measured_runtime": eval.MustQuantity(85, "%")})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := mpg.Read(n)
	h, _ := hours.Float(n)
	fmt.Println(v, h)
	// Output:
	// 0.266475 24558.336
}
