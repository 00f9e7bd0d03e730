package eval_test

import (
	"fmt"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// A Go program classifies requests with a ruleset written in gpl, here the
// kapsl scheduler's own rules from std/kapsl. Requests carry kapsl's units:
// milliseconds, bytes and FLOPs.
func ExampleScenario_Ruleset() {
	s, err := eval.LoadSource("serving.gpl", []byte(`import "std/kapsl"`+"\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	kapsl, ok := s.Ruleset("kapsl")
	if !ok {
		fmt.Println("no ruleset kapsl")
		return
	}

	heavy := priority.NewRequest() // priority 1, batch_size 1, the rest absent
	heavy.Set(priority.BatchSize, 8)
	heavy.Set(priority.InputSize, 10_000_000) // bytes
	heavy.Set(priority.Flops, 10e9)

	urgent := heavy
	urgent.Set(priority.SLADeadline, 200) // milliseconds

	for _, req := range []struct {
		name string
		r    priority.Request
	}{{"heavy", heavy}, {"urgent", urgent}} {
		if err := req.r.Validate(); err != nil {
			fmt.Println(err)
			return
		}
		class, rule := kapsl.Classify(&req.r)
		fmt.Printf("%s: %s, by %s\n", req.name, class, kapsl.RuleName(rule))
	}
	// Output:
	// heavy: throughput, by else
	// urgent: latency_critical, by sla
}
