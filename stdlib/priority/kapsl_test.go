package priority

import (
	"github.com/gpl-lang/gpl/stdlib/priority/kapsltest"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	latencyCritical Class = "latency_critical"
	throughput      Class = "throughput"
)

// kapslRules returns kapsl's determine_priority rules as IR.
func kapslRules() []Rule {
	field := func(f Field) NumExpr { return FieldRef{f} }
	num := func(v float64) NumExpr { return Const{v} }
	return []Rule{
		{Label: "override", When: Compare{EQ, field(Priority), num(0)}, Class: latencyCritical},
		{Label: "sla", When: Compare{LT, field(SLADeadline), num(250)}, Class: latencyCritical},
		{Label: "light", When: Or{
			Compare{LE, field(InputSize), num(500_000)},
			Compare{LE, field(Flops), num(1_000_000_000)},
		}, Class: latencyCritical},
		{Label: "combined", When: Compare{LE, Arith{Mul, field(InputSize), field(BatchSize)}, num(2_000_000)}, Class: latencyCritical},
		{Label: "small_batch", When: Compare{LE, field(BatchSize), num(4)}, Class: latencyCritical},
	}
}

func mustKapsl(t testing.TB) *Ruleset {
	t.Helper()
	rs, err := Compile(kapslRules(), throughput)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// toMeta is a request as kapsl holds it, for the reference.
func toMeta(r Request) kapsltest.Metadata {
	m := kapsltest.Metadata{Priority: uint8(r.Values[Priority]), BatchSize: uint64(r.Values[BatchSize])}
	opt := func(f Field) *uint64 {
		if !r.Present.Has(f) {
			return nil
		}
		v := uint64(r.Values[f])
		return &v
	}
	m.SLADeadline, m.InputSize, m.Flops = opt(SLADeadline), opt(InputSize), opt(Flops)
	return m
}

// kapslReference classifies r with the shared reference.
func kapslReference(r Request) Class {
	c, _ := kapsltest.DeterminePriority(toMeta(r))
	return Class(c)
}

// genRequests returns n requests mixing kapsl's boundary values, random
// values and absent fields, deterministically.
func genRequests(n int, seed uint64) []Request {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	const top = MaxExact - 1
	pick := func(boundary []float64, max float64) float64 {
		switch rng.IntN(4) {
		case 0, 1:
			return boundary[rng.IntN(len(boundary))]
		case 2:
			return float64(rng.Uint64N(uint64(max) + 1))
		default: // small-ish, log-uniform
			return math.Floor(math.Min(max, math.Exp2(rng.Float64()*54)))
		}
	}
	prios := []float64{0, 1, 2, 254, 255}
	slas := []float64{0, 1, 249, 250, 251, 10_000, top}
	batches := []float64{0, 1, 2, 3, 4, 5, 8, 16, 32, 1 << 32, top}
	inputs := []float64{0, 1, 499_999, 500_000, 500_001, 666_666, 666_667, 1_000_000, 1_000_001,
		2_000_000, 2_000_001, 10_000_000, 1 << 32, 1 << 33, top}
	flops := []float64{0, 999_999_999, 1_000_000_000, 1_000_000_001, 10_000_000_000, top}
	reqs := make([]Request, n)
	for i := range reqs {
		r := NewRequest()
		r.Set(Priority, pick(prios, MaxPriority))
		r.Set(BatchSize, pick(batches, top))
		if rng.IntN(4) != 0 {
			r.Set(SLADeadline, pick(slas, top))
		}
		if rng.IntN(5) != 0 {
			r.Set(InputSize, pick(inputs, top))
			if rng.IntN(4) == 0 { // aim at the product boundary
				b := []float64{1, 2, 3, 4, 5}[rng.IntN(5)]
				r.Set(BatchSize, b)
				r.Set(InputSize, math.Floor(2_000_000/b)+float64(rng.IntN(3))-1)
			}
		}
		if rng.IntN(4) != 0 {
			r.Set(Flops, pick(flops, top))
		}
		reqs[i] = r
	}
	return reqs
}

// A classifyBench is a set of requests and the order a benchmark visits
// them in: request order[i%len(order)] at its i-th call.
type classifyBench struct {
	Name  string
	Reqs  []Request
	Order []uint32 // its length a power of two
}

// classifyBenches returns the three sets the Classify benchmarks run on:
//
//   - cache: 1,024 requests (48 KB, in the data caches), visited in a
//     random order 65,536 calls long. Which rule decides changes from one
//     call to the next as in a server's traffic, and no branch predictor
//     holds a sequence that long.
//   - cache-cyclic: the same 1,024 requests in order, again and again.
//     The outcomes repeat every 1,024 calls, a sequence short enough for
//     the processor's branch predictor to learn: the figure is that of
//     traffic that repeats itself, the best case for code whose branches
//     are each its own, like the hand-written function's.
//   - distinct: 1,048,576 requests (48 MB) read once each per pass, in
//     order: memory-bound.
//
// Every set is indexed through its order, so that each loop pays the same
// load for it.
func classifyBenches() []classifyBench {
	identity := func(n int) []uint32 {
		o := make([]uint32, n)
		for i := range o {
			o[i] = uint32(i)
		}
		return o
	}
	cache := genRequests(1024, 11)
	rng := rand.New(rand.NewPCG(12, 13))
	random := make([]uint32, 1<<16)
	for i := range random {
		random[i] = uint32(rng.IntN(len(cache)))
	}
	return []classifyBench{
		{"cache", cache, random},
		{"cache-cyclic", cache, identity(len(cache))},
		{"distinct", genRequests(1<<20, 11), identity(1 << 20)},
	}
}

func TestKapslEquivalence(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	rs := mustKapsl(t)
	perRule := make(map[int]int)
	for i, r := range genRequests(n, 1) {
		if err := r.Validate(); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		class, rule := rs.Classify(&r)
		wc, wantRule := kapsltest.DeterminePriority(toMeta(r))
		wantClass := Class(wc)
		if class != wantClass || rule != wantRule {
			t.Fatalf("request %d %+v: Classify = %s, %s; kapsl = %s, %s",
				i, r, class, rs.RuleName(rule), wantClass, rs.RuleName(wantRule))
		}
		if hand := kapslReference(r); hand != class {
			t.Fatalf("request %d %+v: Classify = %s; hand-written = %s", i, r, class, hand)
		}
		perRule[rule]++
	}
	for rule := -1; rule < len(kapslRules()); rule++ {
		if perRule[rule] < n/100 {
			t.Errorf("only %d of %d requests decided by %s", perRule[rule], n, rs.RuleName(rule))
		}
	}
}

// TestKapslBoundaries checks each threshold on both sides.
func TestKapslBoundaries(t *testing.T) {
	rs := mustKapsl(t)
	// heavy is decided by no rule; each case changes it a little.
	heavy := func() Request {
		r := NewRequest()
		r.Set(Priority, 1)
		r.Set(SLADeadline, 10_000)
		r.Set(BatchSize, 8)
		r.Set(InputSize, 10_000_000)
		r.Set(Flops, 10_000_000_000)
		return r
	}
	tests := []struct {
		name string
		edit func(*Request)
		want string
	}{
		{"heavy", func(*Request) {}, "else"},
		{"priority 0", func(r *Request) { r.Set(Priority, 0) }, "override"},
		{"priority 255", func(r *Request) { r.Set(Priority, 255) }, "else"},
		{"sla 249", func(r *Request) { r.Set(SLADeadline, 249) }, "sla"},
		{"sla 250", func(r *Request) { r.Set(SLADeadline, 250) }, "else"},
		{"sla absent", func(r *Request) { r.Unset(SLADeadline) }, "else"},
		{"input 500000", func(r *Request) { r.Set(InputSize, 500_000) }, "light"},
		{"input 500001", func(r *Request) { r.Set(InputSize, 500_001) }, "else"},
		{"flops 1e9", func(r *Request) { r.Set(Flops, 1e9) }, "light"},
		{"flops 1e9+1", func(r *Request) { r.Set(Flops, 1e9+1) }, "else"},
		{"flops absent", func(r *Request) { r.Unset(Flops) }, "else"},
		{"product 2000000", func(r *Request) { r.Set(InputSize, 1_000_000); r.Set(BatchSize, 2) }, "combined"},
		{"product 2000001", func(r *Request) { r.Set(InputSize, 666_667); r.Set(BatchSize, 3) }, "small_batch"},
		{"input absent", func(r *Request) { r.Unset(InputSize); r.Set(BatchSize, 2) }, "small_batch"},
		{"batch 0", func(r *Request) { r.Set(BatchSize, 0) }, "combined"},
		{"batch 4", func(r *Request) { r.Unset(InputSize); r.Set(BatchSize, 4) }, "small_batch"},
		{"batch 5", func(r *Request) { r.Unset(InputSize); r.Set(BatchSize, 5) }, "else"},
		{"huge product", func(r *Request) { r.Set(InputSize, MaxExact-1); r.Set(BatchSize, MaxExact-1) }, "else"},
		{"product wraps in u64", func(r *Request) { r.Set(InputSize, 1<<32); r.Set(BatchSize, 1<<32) }, "else"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := heavy()
			tt.edit(&r)
			_, rule := rs.Classify(&r)
			if got := rs.RuleName(rule); got != tt.want {
				t.Errorf("rule = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestKapslCrateCases runs kapsl-scheduler's own determine_priority tests.
func TestKapslCrateCases(t *testing.T) {
	rs := mustKapsl(t)
	type result struct {
		Class Class
		Rule  string
	}
	meta := func(prio, sla, batch, input, flops float64) Request {
		r := NewRequest()
		r.Set(Priority, prio)
		if sla >= 0 {
			r.Set(SLADeadline, sla)
		}
		r.Set(BatchSize, batch)
		r.Set(InputSize, input)
		r.Set(Flops, flops)
		return r
	}
	const none = -1
	tests := []struct {
		name string
		req  Request
		want result
	}{
		{"priority_override_wins", meta(0, 10_000, 32, 10_000_000, 1e10), result{latencyCritical, "override"}},
		{"sla_deadline_triggers_latency", meta(1, 200, 16, 10_000_000, 1e10), result{latencyCritical, "sla"}},
		{"light_workload_by_input_size", meta(1, none, 16, 500_000, 1e10), result{latencyCritical, "light"}},
		{"light_workload_by_flops", meta(1, none, 16, 10_000_000, 1e9), result{latencyCritical, "light"}},
		{"light_workload_by_combined_size", meta(1, none, 4, 500_000, 1e10), result{latencyCritical, "light"}},
		{"small_batch_triggers_latency", meta(1, none, 4, 10_000_000, 1e10), result{latencyCritical, "small_batch"}},
		{"heavy_workload_defaults_to_throughput", meta(1, none, 8, 10_000_000, 1e10), result{throughput, "else"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			class, rule := rs.Classify(&tt.req)
			got := result{class, rs.RuleName(rule)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Classify mismatch (-want +got):\n%s", diff)
			}
			if hand := kapslReference(tt.req); hand != tt.want.Class {
				t.Errorf("hand-written = %s, want %s", hand, tt.want.Class)
			}
		})
	}
}
