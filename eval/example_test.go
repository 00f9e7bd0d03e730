package eval_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// A Go program loads a scenario file and reads a job's results by name.
func ExampleLoadFile() {
	s, err := eval.LoadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		fmt.Println(err)
		return
	}
	job, ok := s.Job("llama2_70b")
	if !ok {
		fmt.Println("no job llama2_70b")
		return
	}
	for _, name := range []string{"mpg", "cost_per_useful_hour", "useful_hours", "cost", "best_lever"} {
		v, err := job.Get(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s = %v\n", name, v)
	}
	mpg, _ := job.Get("mpg")
	fmt.Printf("mpg as a float64: %.5f\n", mpg.Num)
	pass := true
	for _, o := range s.Test() {
		pass = pass && o.Pass
	}
	fmt.Println("every expect passes:", pass)
	// Output:
	// mpg = 0.28215
	// cost_per_useful_hour = $8.8605/h
	// useful_hours = 26,002.944 h
	// cost = $230,400.00
	// best_lever = "program"
	// mpg as a float64: 0.28215
	// every expect passes: true
}

// Eval evaluates an expression against a loaded scenario, as a top-level
// expect would; an error renders like any diagnostic.
func ExampleScenario_Eval() {
	s, err := eval.LoadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, expr := range []string{
		"trade_ratio(llama2_70b, llama2_70b_tuned)",
		"llama2_70b_tuned.cost_per_useful_hour",
		"llama2_70b.cost - llama2_70b.badput_cost",
		"llama2_70b.useful_hours / 128",
		"llama2_70b.mpg > 0.25 ? \"healthy\" : \"look closer\"",
	} {
		v, err := s.Eval("query", expr)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(v)
	}

	_, err = s.Eval("query", "llama2_70b.mpgg")
	var e *eval.Error
	if errors.As(err, &e) {
		e.Diagnostics.RenderAll(os.Stdout, e.Sources, lang.Style{})
	}
	// Output:
	// 1.212121212
	// $7.3099/h
	// $65,007.36
	// 203.148 h
	// "healthy"
	// error: job llama2_70b has no mpgg; did you mean llama2_70b.mpg?
	//   --> query:1:12
	//    |
	//  1 | llama2_70b.mpgg
	//    |            ^^^^
}
