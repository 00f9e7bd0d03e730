package priority_test

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/stdlib/priority"
)

// Example builds kapsl's determine_priority rules in Go and classifies
// requests, one built directly and others read from JSON Lines.
func Example() {
	field := func(f priority.Field) priority.NumExpr { return priority.FieldRef{Field: f} }
	num := func(v float64) priority.NumExpr { return priority.Const{Value: v} }
	lessEq := func(l, r priority.NumExpr) priority.Cond { return priority.Compare{Op: priority.LE, L: l, R: r} }
	const lc = "latency_critical"
	rules := []priority.Rule{
		{Label: "override", Class: lc, When: priority.Compare{Op: priority.EQ, L: field(priority.Priority), R: num(0)}},
		{Label: "sla", Class: lc, When: priority.Compare{Op: priority.LT, L: field(priority.SLADeadline), R: num(250)}},
		{Label: "light", Class: lc, When: priority.Or{
			L: lessEq(field(priority.InputSize), num(500_000)),
			R: lessEq(field(priority.Flops), num(1e9)),
		}},
		{Label: "combined", Class: lc, When: lessEq(
			priority.Arith{Op: priority.Mul, L: field(priority.InputSize), R: field(priority.BatchSize)}, num(2e6))},
		{Label: "small_batch", Class: lc, When: lessEq(field(priority.BatchSize), num(4))},
	}
	rs, err := priority.Compile(rules, "throughput")
	if err != nil {
		panic(err)
	}

	r := priority.NewRequest()
	r.Set(priority.BatchSize, 8)
	r.Set(priority.InputSize, 10_000_000) // bytes
	r.Set(priority.Flops, 10_000_000_000) // FLOPs
	class, rule := rs.Classify(&r)
	fmt.Println(class, rs.RuleName(rule))

	r.Set(priority.SLADeadline, 200) // milliseconds
	class, rule = rs.Classify(&r)
	fmt.Println(class, rs.RuleName(rule))

	fmt.Println("shadowed:", rs.Shadowed())

	s := priority.NewStreamReader(strings.NewReader(
		`{"priority":1,"sla_deadline":200,"batch_size":16,"input_size_bytes":10000000,"estimated_flops":10000000000}
{"batch_size":2,"input_size_bytes":1000000}
{"batch_size":-1}
`))
	for s.Next() {
		if err := s.Err(); err != nil {
			fmt.Println(err)
			continue
		}
		class, rule := rs.Classify(s.Request())
		fmt.Printf("%s\n", priority.AppendJSONL(nil, s.Line(), class, rs.RuleName(rule)))
	}
	// Output:
	// throughput else
	// latency_critical sla
	// shadowed: []
	// {"priority":1,"sla_deadline":200,"batch_size":16,"input_size_bytes":10000000,"estimated_flops":10000000000,"class":"latency_critical","rule":"sla"}
	// {"batch_size":2,"input_size_bytes":1000000,"class":"latency_critical","rule":"combined"}
	// line 3, column 15: batch_size: -1 is negative: values must be non-negative integers
}
