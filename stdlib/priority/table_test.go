package priority

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTableMatchesClosures checks the table Classify runs against the
// closures Compile made before it (one per rule, first match wins) and
// against the reference interpreter, on random rulesets and requests.
func TestTableMatchesClosures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	reqs := genRequests(2000, 3)
	for range 300 {
		reqs = append(reqs, randRequest(rng))
	}
	for n := range 3000 {
		rules := make([]Rule, 1+rng.IntN(6))
		for i := range rules {
			rules[i] = Rule{When: randCond(rng, 1+rng.IntN(4)), Class: Class("c" + string(rune('a'+i)))}
		}
		rs, err := Compile(rules, "else")
		if err != nil {
			t.Fatalf("Compile: %v", err)
		}
		tests := closureTests(rs)
		for _, r := range reqs {
			_, got := rs.Classify(&r)
			want := -1
			for i, rule := range rules {
				if evalCond(rule.When, &r) {
					want = i
					break
				}
			}
			if old := classifyClosures(tests, &r); got != old || got != want {
				t.Fatalf("ruleset %d %v on %+v: table rule %d, closures %d, interpreter %d", n, rules, r, got, old, want)
			}
		}
	}
}

// TestTablePlainSizes checks plain tables of many sizes against the
// closures.
func TestTablePlainSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	reqs := genRequests(3000, 4)
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 40} {
		for range 20 {
			rules := make([]Rule, n)
			for i := range rules {
				c := cmpc(Field(rng.IntN(NumFields)), CmpOp(rng.IntN(4)), smallValues[rng.IntN(len(smallValues))])
				if rng.IntN(3) == 0 {
					c = Compare{CmpOp(rng.IntN(4)), Arith{Mul, fref(InputSize), fref(BatchSize)}, cnum(2e6)}
				}
				rules[i] = Rule{When: c, Class: "c"}
			}
			rs, err := Compile(rules, "else")
			if err != nil {
				t.Fatal(err)
			}
			if rs.plain == nil || len(rs.terms) != n {
				t.Fatalf("%d rules: plain %v, %d terms; want a plain table of %d", n, rs.plain != nil, len(rs.terms), n)
			}
			tests := closureTests(rs)
			for _, r := range reqs {
				if _, got := rs.Classify(&r); got != classifyClosures(tests, &r) {
					t.Fatalf("%v on %+v: table rule %d, closures %d", rules, r, got, classifyClosures(tests, &r))
				}
			}
		}
	}
}

// TestTableKapsl checks the kapsl rules' table on a million generated
// requests against the closures and the hand-written function, and that
// the table calls no closure: it is six terms.
func TestTableKapsl(t *testing.T) {
	rs := mustKapsl(t)
	tests := closureTests(rs)
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	for i, r := range genRequests(n, 17) {
		_, got := rs.Classify(&r)
		if old, hand := classifyClosures(tests, &r), handWrittenKapslRule(&r); got != old || got != hand {
			t.Fatalf("request %d %+v: table rule %d, closures %d, hand-written %d", i, r, got, old, hand)
		}
	}
	type shape struct {
		Rule       int32
		A, B       uint8
		Need, Want FieldSet
		Flags      uint8
		Lo, Hi     float64
	}
	var got []shape
	for _, t := range rs.terms {
		got = append(got, shape{t.rule, t.a, t.b, t.need, t.want, t.flags, t.lo, t.hi})
	}
	inf := math.Inf(1)
	want := []shape{
		{0, uint8(Priority), oneSlot, 1 << Priority, 1 << Priority, termLast, 0, 0},
		{1, uint8(SLADeadline), oneSlot, 1 << SLADeadline, 1 << SLADeadline, termLast, -inf, math.Nextafter(250, -inf)},
		{2, uint8(InputSize), oneSlot, 1 << InputSize, 1 << InputSize, termLast, -inf, 500_000},
		{2, uint8(Flops), oneSlot, 1 << Flops, 1 << Flops, termLast, -inf, 1e9},
		{3, uint8(InputSize), uint8(BatchSize), 1<<InputSize | 1<<BatchSize, 1<<InputSize | 1<<BatchSize, termLast, -inf, 2e6},
		{4, uint8(BatchSize), oneSlot, 1 << BatchSize, 1 << BatchSize, termLast, -inf, 4},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kapsl's table (-want +got):\n%s", diff)
	}
	if len(rs.fns) != 0 {
		t.Errorf("kapsl's table calls %d closures, want none", len(rs.fns))
	}
}

// TestTableNegations checks the normal form of negated and combined
// terms on the requests where absence matters, exactly.
func TestTableNegations(t *testing.T) {
	slaLow := cmpc(SLADeadline, LT, 250)
	prod := Compare{LE, Arith{Mul, fref(InputSize), fref(BatchSize)}, cnum(2e6)}
	conds := []Cond{
		Not{slaLow},
		Not{Compare{NE, fref(SLADeadline), cnum(250)}},
		Not{prod},
		Not{Has{SLADeadline}},
		Not{And{slaLow, Has{Flops}}},
		And{Or{slaLow, Has{Flops}}, Or{Not{prod}, cmpc(Priority, EQ, 0)}},
		Or{Compare{LT, fref(SLADeadline), fref(Flops)}, Not{Compare{GT, Neg{fref(InputSize)}, cnum(-10)}}},
	}
	// Six ands of ors: 64 conjunctions, beyond maxTerms, so one closure.
	var big Cond = Or{slaLow, Has{Flops}}
	for range 5 {
		big = And{big, Or{Not{prod}, cmpc(SLADeadline, GE, 0)}}
	}
	conds = append(conds, big)
	var reqs []Request
	for _, sla := range []float64{-1, 0, 249, 250, 251} {
		for _, in := range []float64{-1, 5, 2e6, 3e6} {
			for _, fl := range []float64{-1, 0, 300} {
				r := NewRequest()
				if sla >= 0 {
					r.Set(SLADeadline, sla)
				}
				if in >= 0 {
					r.Set(InputSize, in)
				}
				if fl >= 0 {
					r.Set(Flops, fl)
				}
				reqs = append(reqs, r)
			}
		}
	}
	for _, c := range conds {
		rs, err := Compile([]Rule{{When: c, Class: "yes"}}, "no")
		if err != nil {
			t.Fatal(err)
		}
		var got, want []bool
		for _, r := range reqs {
			class, _ := rs.Classify(&r)
			got = append(got, class == "yes")
			want = append(want, evalCond(c, &r))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-interpreter +table):\n%s", c, diff)
		}
		wantFns := 0 // two fields compared and arithmetic call closures
		switch c {
		case big:
			wantFns = 1
		case conds[6]:
			wantFns = 2
		}
		if len(rs.fns) != wantFns {
			t.Errorf("%s: %d closures in the table, want %d", c, len(rs.fns), wantFns)
		}
	}
}

// oddRequest returns a request that Validate may reject: any field absent
// or present, with a value that may be negative, fractional, huge,
// infinite, NaN or -0. Classify does not validate, and must give every
// way of running the rules the same answer on such requests too.
func oddRequest(rng *rand.Rand) Request {
	odd := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), -1, 0.5, 1e300, MaxExact}
	var r Request
	for f := Field(0); f < NumFields; f++ {
		v := smallValues[rng.IntN(len(smallValues))]
		switch rng.IntN(4) {
		case 0:
			v = odd[rng.IntN(len(odd))]
		case 1:
			v = randConst(rng)
		}
		r.Values[f] = v
		if rng.IntN(4) != 0 {
			r.Present |= 1 << f
		}
	}
	if rng.IntN(8) == 0 {
		r.Present |= 1 << (NumFields + rng.IntN(3)) // bits of no field
	}
	return r
}

// plainLeaf returns a condition whose table term is plain: a field or a
// product compared with a constant (not !=), has(f), !has(f), true.
func plainLeaf(rng *rand.Rand) Cond {
	f := Field(rng.IntN(NumFields))
	op := CmpOp(rng.IntN(5)) // < <= > >= ==, not !=
	switch rng.IntN(8) {
	case 0:
		return Has{f}
	case 1:
		return Not{Has{f}}
	case 2:
		return Bool{Value: true}
	case 3:
		return Compare{op, Arith{Mul, fref(f), fref(Field(rng.IntN(NumFields)))}, cnum(randConst(rng))}
	case 4:
		return Compare{op, cnum(randConst(rng)), fref(f)}
	}
	return cmpc(f, op, randConst(rng))
}

// TestClassifyDifferential holds Classify, and for a plain table both of
// its ways of running the rules, to a first-match reference evaluation
// (evalCond, rule by rule) on random rulesets, plain and not, and random
// requests, valid and odd.
func TestClassifyDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	reqs := make([]Request, 2000)
	for i := range reqs {
		if i%2 == 0 {
			reqs[i] = randRequest(rng)
		} else {
			reqs[i] = oddRequest(rng)
		}
	}
	reqs = append(reqs, genRequests(2000, 23)...)
	plains := 0
	for k := range 600 {
		rules := make([]Rule, 1+rng.IntN(40))
		plain := k%2 == 0
		for i := range rules {
			var c Cond
			if plain {
				c = plainLeaf(rng)
			} else {
				c = randCond(rng, rng.IntN(4))
			}
			rules[i] = Rule{When: c, Class: Class("c" + strconv.Itoa(i%3))}
		}
		rs, err := Compile(rules, "else")
		if err != nil {
			t.Fatalf("Compile(%v): %v", rules, err)
		}
		if plain && rs.plain == nil {
			t.Fatalf("rules of plain leaves %v: the table is not plain", rules)
		}
		if rs.plain != nil {
			plains++
		}
		for j := range reqs {
			r := &reqs[j]
			want := -1
			for i, rule := range rules {
				if evalCond(rule.When, r) {
					want = i
					break
				}
			}
			class, got := rs.Classify(r)
			wantClass := rs.Otherwise()
			if want >= 0 {
				wantClass = rules[want].Class
			}
			if got != want || class != wantClass {
				t.Fatalf("rules %v on %+v: Classify %q, rule %d; reference %q, rule %d", rules, *r, class, got, wantClass, want)
			}
			if rs.plain != nil {
				if tab := rs.classifyTable(r); tab != want {
					t.Fatalf("rules %v on %+v: the general table gives rule %d, reference %d", rules, *r, tab, want)
				}
			}
		}
	}
	if plains < 300 {
		t.Errorf("only %d of 600 rulesets were plain tables", plains)
	}
}
