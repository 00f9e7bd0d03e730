package eval_test

import (
	"fmt"
	"os"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// The README's Go examples, as written there: TestDocExamples
// (cmd/gpl/docs_test.go) checks that each README block of Go is in one of
// these functions line for line, and these examples run them.

// inRepositoryRoot runs f in the repository's root, where the README's
// paths start (examples run after the package's tests, one at a time).
func inRepositoryRoot(f func() error) {
	wd, err := os.Getwd()
	if err == nil {
		err = os.Chdir("..")
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Chdir(wd)
	if err := f(); err != nil {
		fmt.Println(err)
	}
}

// The README's two blocks of "Embedding": load the default scenario, read
// results, then evaluate it again with another value of its param.
func ExampleScenario_WithSettings() {
	inRepositoryRoot(func() error {
		s, err := eval.LoadFile("scenarios/llama2_70b_shared_pool_128.gpl")
		if err != nil {
			return err // an *eval.Error with every diagnostic
		}
		job, _ := s.Job("llama2_70b")
		mpg, _ := job.Get("mpg")
		v, _ := s.Value("llama2_70b.cost_per_useful_hour")
		fmt.Println(mpg, v) // 0.28215 $8.8605/h

		other, err := s.WithSettings("measured_runtime=0.85") // as --set reads it
		if err != nil {
			return err
		}
		mpg, _ = other.Value("llama2_70b.mpg")
		fmt.Println(mpg) // 0.266475

		name, r, err := s.ParseSetting("measured_runtime=0.85") // the same in two steps
		if err != nil {
			return err
		}
		other, err = s.With(map[string]eval.Value{name: r})

		// Beyond the README: the two ways agree.
		if err != nil {
			return err
		}
		again, _ := other.Value("llama2_70b.mpg")
		fmt.Println(again)
		return nil
	})
	// Output:
	// 0.28215 $8.8605/h
	// 0.266475
	// 0.266475
}

// The README's block of "Classifying requests from Go".
func ExampleScenario_Ruleset_readme() {
	inRepositoryRoot(func() error {
		s, err := eval.LoadSource("serving.gpl", []byte(`import "std/kapsl"`+"\n"))
		if err != nil {
			return err
		}
		kapsl, _ := s.Ruleset("kapsl")

		req := priority.NewRequest() // priority 1, batch_size 1, the rest absent
		req.Set(priority.BatchSize, 8)
		req.Set(priority.InputSize, 10_000_000) // bytes
		req.Set(priority.Flops, 10e9)
		req.Set(priority.SLADeadline, 200) // milliseconds
		if err := req.Validate(); err != nil {
			return err
		}
		class, rule := kapsl.Classify(&req)      // 0 allocations
		fmt.Println(class, kapsl.RuleName(rule)) // latency_critical sla
		return nil
	})
	// Output:
	// latency_critical sla
}
