package priority

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestShadowed(t *testing.T) {
	b := func(op CmpOp, v float64) Cond { return cmpc(BatchSize, op, v) }
	sla := func(op CmpOp, v float64) Cond { return cmpc(SLADeadline, op, v) }
	tests := []struct {
		name  string
		conds []Cond
		want  []Shadow
	}{
		{"kapsl rules shadow nothing", nil, nil},
		{"narrower range after wider", []Cond{b(LE, 4), b(LE, 2)}, []Shadow{{1, 0}}},
		{"point after range", []Cond{cmpc(Priority, LE, 3), cmpc(Priority, EQ, 0)}, []Shadow{{1, 0}}},
		{"wider range after narrower", []Cond{b(LE, 2), b(LE, 4)}, nil},
		{"earliest single cover is reported", []Cond{b(GE, 5), b(GE, 6), b(EQ, 7)}, []Shadow{{1, 0}, {2, 0}}},
		{"union of earlier rules", []Cond{b(LE, 4), b(GE, 10), Or{b(LT, 3), b(GT, 12)}}, []Shadow{{2, 1}}},
		{"union needs the last rule", []Cond{b(LT, 5), b(GE, 5), b(NE, 100)}, []Shadow{{2, 1}}},
		{"integers: < 5 and > 4 cover everything", []Cond{b(LT, 5), b(GT, 4), Has{Flops}}, []Shadow{{2, 1}}},
		{"gap is not covered", []Cond{b(LT, 5), b(GT, 5), b(NE, 7)}, nil},
		{"and narrows", []Cond{b(LE, 4), And{b(LE, 2), cmpc(Flops, GT, 5)}}, []Shadow{{1, 0}}},
		{"and on the same field", []Cond{b(LE, 10), And{b(GE, 3), b(LE, 8)}}, []Shadow{{1, 0}}},
		{"or on two fields, each covered", []Cond{b(LE, 4), sla(LT, 250), Or{b(EQ, 1), sla(EQ, 7)}}, []Shadow{{2, 1}}},
		{"or with an uncovered side", []Cond{b(LE, 4), Or{b(EQ, 1), sla(EQ, 7)}}, nil},
		{"earlier or covers", []Cond{Or{cmpc(InputSize, LE, 500_000), cmpc(Flops, LE, 1e9)}, cmpc(Flops, LT, 10)}, []Shadow{{1, 0}}},
		{"earlier and does not cover", []Cond{And{b(LE, 4), cmpc(Priority, EQ, 1)}, b(LE, 2)}, nil},
		{"has after all present values", []Cond{sla(GE, 0), Has{SLADeadline}}, []Shadow{{1, 0}}},
		{"absent sla can reach not(sla >= 250)", []Cond{sla(LT, 250), Not{sla(GE, 250)}}, nil},
		{"absent sla covered by not has", []Cond{sla(LT, 250), Not{Has{SLADeadline}}, Not{sla(GE, 250)}}, []Shadow{{2, 1}}},
		{"complement covers everything", []Cond{sla(LT, 250), Not{sla(LT, 250)}, Bool{true}}, []Shadow{{2, 1}}},
		{"always-true rule shadows the rest", []Cond{cmpc(Priority, LE, 255), cmpc(Flops, GT, 1), Bool{false}}, []Shadow{{1, 0}, {2, -1}}},
		{"true rule", []Cond{Bool{true}, Has{Flops}}, []Shadow{{1, 0}}},
		{"negative is impossible", []Cond{b(LT, 0)}, []Shadow{{0, -1}}},
		{"priority above 255 is impossible", []Cond{cmpc(Priority, GT, 255)}, []Shadow{{0, -1}}},
		{"no integer between", []Cond{And{b(GT, 2), b(LT, 3)}}, []Shadow{{0, -1}}},
		{"fractional equality", []Cond{b(EQ, 2.5)}, []Shadow{{0, -1}}},
		{"at or above 2^53", []Cond{cmpc(Flops, GE, MaxExact)}, []Shadow{{0, -1}}},
		{"empty and", []Cond{And{sla(LT, 250), sla(GT, 300)}}, []Shadow{{0, -1}}},
		{"required field is never absent", []Cond{Not{Has{Priority}}}, []Shadow{{0, -1}}},
		{"field compared with itself", []Cond{Compare{LT, fref(Flops), fref(Flops)}}, []Shadow{{0, -1}}},
		{"division by zero constant", []Cond{Compare{LT, fref(Flops), Arith{Div, cnum(1), cnum(0)}}}, []Shadow{{0, -1}}},
		{"constant on the left", []Cond{Compare{GE, cnum(4), fref(BatchSize)}, b(LT, 3)}, []Shadow{{1, 0}}},
		{"impossible part of an or", []Cond{b(LE, 4), Or{b(LT, 0), b(EQ, 2)}}, []Shadow{{1, 0}}},
		{"not over and (De Morgan)", []Cond{b(LE, 4), sla(LT, 250), Not{And{b(GT, 4), Not{sla(LT, 250)}}}}, []Shadow{{2, 1}}},
		{"arithmetic is not analysed", []Cond{b(LE, 4), Compare{LE, Arith{Mul, fref(BatchSize), cnum(1)}, cnum(2)}}, nil},
		{"products are not analysed", []Cond{
			Compare{LE, Arith{Mul, fref(InputSize), fref(BatchSize)}, cnum(2e6)},
			Compare{LE, Arith{Mul, fref(InputSize), fref(BatchSize)}, cnum(1e6)},
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rules []Rule
			for _, c := range tt.conds {
				rules = append(rules, Rule{When: c, Class: "c"})
			}
			if tt.conds == nil {
				rules = kapslRules()
			}
			rs, err := Compile(rules, "else")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, rs.Shadowed()); diff != "" {
				t.Errorf("Shadowed mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestShadowedSound checks on random single-field rule lists that no
// request ever reaches a rule that Shadowed reports.
func TestShadowedSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	allFields := []Field{BatchSize, SLADeadline, Priority}
	fields := allFields
	leafCond := func() Cond {
		f := fields[rng.IntN(len(fields))]
		switch rng.IntN(8) {
		case 0:
			return Has{f}
		case 1:
			return Bool{rng.IntN(4) == 0}
		}
		v := float64(rng.IntN(9)) - 1
		if rng.IntN(6) == 0 {
			v += 0.5
		}
		return cmpc(f, CmpOp(rng.IntN(6)), v)
	}
	var cond func(int) Cond
	cond = func(depth int) Cond {
		if depth == 0 {
			return leafCond()
		}
		switch rng.IntN(4) {
		case 0:
			return And{cond(depth - 1), cond(depth - 1)}
		case 1:
			return Or{cond(depth - 1), cond(depth - 1)}
		case 2:
			return Not{cond(depth - 1)}
		}
		return leafCond()
	}
	// Every combination of small values and absence of the tested fields;
	// values above 8 behave alike for the constants used.
	var reqs []Request
	vals := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255, MaxExact - 1, -1}
	for _, p := range vals[:11] {
		for _, bs := range vals[:12] {
			for _, s := range vals {
				r := NewRequest()
				r.Set(Priority, p)
				r.Set(BatchSize, bs)
				if s >= 0 {
					r.Set(SLADeadline, s)
				}
				reqs = append(reqs, r)
			}
		}
	}
	reported := 0
	for iter := 0; iter < 4000; iter++ {
		// In odd iterations all rules test one field; the analysis is
		// then exact, and must report every rule that never fires.
		single := iter%2 == 1
		fields = allFields
		if single {
			fields = allFields[iter/2%3 : iter/2%3+1]
		}
		rules := make([]Rule, 1+rng.IntN(5))
		for i := range rules {
			rules[i] = Rule{When: cond(2), Class: "c"}
		}
		rs, err := Compile(rules, "else")
		if err != nil {
			t.Fatal(err)
		}
		fired := make([]bool, len(rules))
		for _, r := range reqs {
			if _, i := rs.Classify(&r); i >= 0 {
				fired[i] = true
			}
		}
		shadowed := make([]bool, len(rules))
		for _, s := range rs.Shadowed() {
			reported++
			shadowed[s.Rule] = true
			if fired[s.Rule] {
				t.Fatalf("rule %d (%s) reported shadowed by %d but fires; rules:\n%v", s.Rule, rules[s.Rule].When, s.By, rules)
			}
			if s.By >= s.Rule {
				t.Fatalf("rule %d reported shadowed by later rule %d", s.Rule, s.By)
			}
		}
		for i := range rules {
			if single && !fired[i] && !shadowed[i] {
				t.Fatalf("rule %d (%s) never fires but is not reported; rules:\n%v", i, rules[i].When, rules)
			}
		}
	}
	if reported < 500 {
		t.Errorf("only %d shadowed rules reported; the test exercises too little", reported)
	}
}

// manyRules returns n rules like those a generator or a long hand-kept
// ruleset has: single-field comparisons over all fields, some or-ed, some
// negated, with constants spread so that later rules are often covered.
func manyRules(n int, seed uint64) []Rule {
	rng := rand.New(rand.NewPCG(seed, 9))
	leaf := func() Cond {
		f := Field(rng.IntN(NumFields))
		if rng.IntN(10) == 0 {
			return Has{f}
		}
		return cmpc(f, CmpOp(rng.IntN(6)), float64(rng.IntN(2000)))
	}
	rules := make([]Rule, n)
	for i := range rules {
		var c Cond = leaf()
		switch rng.IntN(6) {
		case 0:
			c = Or{c, leaf()}
		case 1:
			c = Not{c}
		case 2:
			c = And{c, leaf()}
		}
		rules[i] = Rule{When: c, Class: "c"}
	}
	return rules
}

// TestShadowedAgreesWithCubic holds the quadratic analysis to the answers
// of the first, cubic one on random rule lists of many sizes.
func TestShadowedAgreesWithCubic(t *testing.T) {
	for _, n := range []int{1, 2, 5, 10, 30, 100, 300} {
		for seed := uint64(0); seed < 20; seed++ {
			rs, err := Compile(manyRules(n, seed), "else")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(shadowedCubic(rs), rs.Shadowed()); diff != "" {
				t.Fatalf("%d rules, seed %d (-cubic +quadratic):\n%s", n, seed, diff)
			}
		}
	}
}

// TestShadowedAllocationPerRule checks that allocation grows with the
// number of rules, not with the number of pairs: 1,000 single-field rules
// may allocate at most 20 times per rule.
func TestShadowedAllocationPerRule(t *testing.T) {
	rs, err := Compile(pointRules(1000), "else")
	if err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(2, func() { rs.Shadowed() }); allocs > 20*1000 {
		t.Errorf("Shadowed on 1,000 rules allocated %v times", allocs)
	}
}

// pointRules returns n single-field rules that each match values no
// earlier rule does, "field == k", so that none is shadowed and the
// union of the earlier rules keeps growing: the analysis's worst case.
// Every tenth rule is a range already covered, to be reported.
func pointRules(n int) []Rule {
	rules := make([]Rule, n)
	for i := range rules {
		f := Field(i % NumFields)
		c := cmpc(f, EQ, float64(2*(i/NumFields)))
		if i%10 == 9 {
			c = And{cmpc(f, GE, 0), cmpc(f, LE, 2)}
		}
		rules[i] = Rule{When: c, Class: "c"}
	}
	return rules
}

// TestShadowedPointRulesAgreeWithCubic checks the worst case's answers.
func TestShadowedPointRulesAgreeWithCubic(t *testing.T) {
	rs, err := Compile(pointRules(200), "else")
	if err != nil {
		t.Fatal(err)
	}
	got := rs.Shadowed()
	if diff := cmp.Diff(shadowedCubic(rs), got); diff != "" {
		t.Fatalf("(-cubic +quadratic):\n%s", diff)
	}
	if len(got) == 0 {
		t.Error("no rule reported: the case exercises nothing")
	}
}

// BenchmarkShadowed analyses single-field rule lists of growing length:
// "points" is the worst case, pointRules; "random" is manyRules.
func BenchmarkShadowed(b *testing.B) {
	benchShadowed(b, (*Ruleset).Shadowed, 1000, 10000, 100000)
}

// BenchmarkShadowedCubic is the first analysis, for comparison.
func BenchmarkShadowedCubic(b *testing.B) {
	benchShadowed(b, shadowedCubic, 10, 100, 1000)
}

func benchShadowed(b *testing.B, analyse func(*Ruleset) []Shadow, sizes ...int) {
	for _, kind := range []string{"points", "random"} {
		for _, n := range sizes {
			rules := pointRules(n)
			if kind == "random" {
				rules = manyRules(n, 1)
			}
			rs, err := Compile(rules, "else")
			if err != nil {
				b.Fatal(err)
			}
			b.Run(kind+"/rules="+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					analyse(rs)
				}
			})
		}
	}
}
