package priority

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func fref(f Field) NumExpr   { return FieldRef{f} }
func cnum(v float64) NumExpr { return Const{v} }

func cmpc(f Field, op CmpOp, v float64) Cond { return Compare{op, FieldRef{f}, Const{v}} }

// holds compiles c as a one-rule ruleset and reports whether it matches r.
func holds(t *testing.T, c Cond, r Request) bool {
	t.Helper()
	rs, err := Compile([]Rule{{When: c, Class: "yes"}}, "no")
	if err != nil {
		t.Fatalf("Compile(%s): %v", c, err)
	}
	class, _ := rs.Classify(&r)
	return class == "yes"
}

func TestAbsentSemantics(t *testing.T) {
	noSLA := NewRequest() // sla_deadline, input_size and flops absent
	withSLA := NewRequest()
	withSLA.Set(SLADeadline, 100)
	zeroBatch := NewRequest()
	zeroBatch.Set(BatchSize, 0)
	zeroBatch.Set(Flops, 10)
	tests := []struct {
		name string
		cond Cond
		req  Request
		want bool
	}{
		{"comparison with absent field is false", cmpc(SLADeadline, LT, 250), noSLA, false},
		{"its negation is true", Not{cmpc(SLADeadline, LT, 250)}, noSLA, true},
		{"opposite comparison is false too", cmpc(SLADeadline, GE, 250), noSLA, false},
		{"!= with absent field is false", cmpc(SLADeadline, NE, 5), noSLA, false},
		{"not == with absent field is true", Not{cmpc(SLADeadline, EQ, 5)}, noSLA, true},
		{"constant on the left", Compare{GT, cnum(250), fref(SLADeadline)}, noSLA, false},
		{"present value compares", cmpc(SLADeadline, LT, 250), withSLA, true},
		{"has absent", Has{SLADeadline}, noSLA, false},
		{"has present", Has{SLADeadline}, withSLA, true},
		{"has required", Has{Priority}, noSLA, true},
		{"arithmetic with absent operand is absent", Compare{GT, Arith{Add, fref(SLADeadline), cnum(1)}, cnum(-1)}, noSLA, false},
		{"negation of absent is absent", Compare{LE, Neg{fref(SLADeadline)}, cnum(0)}, noSLA, false},
		{"product with absent operand", Compare{GE, Arith{Mul, fref(InputSize), fref(BatchSize)}, cnum(0)}, noSLA, false},
		{"field compared with absent field", Compare{LE, fref(Priority), fref(SLADeadline)}, noSLA, false},
		{"division by zero is absent", Compare{GE, Arith{Div, fref(Flops), fref(BatchSize)}, cnum(0)}, zeroBatch, false},
		{"not of division by zero", Not{Compare{GE, Arith{Div, fref(Flops), fref(BatchSize)}, cnum(0)}}, zeroBatch, true},
		{"constant division by zero", Compare{NE, Arith{Div, cnum(1), cnum(0)}, cnum(0)}, noSLA, false},
		{"division by nonzero", Compare{EQ, Arith{Div, fref(Flops), cnum(4)}, cnum(2.5)}, zeroBatch, true},
		{"or with absent side", Or{cmpc(SLADeadline, LT, 250), cmpc(BatchSize, LE, 4)}, noSLA, true},
		{"and with absent side", And{Not{Has{SLADeadline}}, cmpc(Priority, EQ, 1)}, noSLA, true},
		{"constant comparison", Compare{LT, cnum(1), cnum(2)}, noSLA, true},
		{"bool false", Bool{false}, noSLA, false},
		{"pointer nodes", &And{&Compare{LE, &FieldRef{BatchSize}, &Const{4}}, &Not{&Bool{false}}}, noSLA, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := holds(t, tt.cond, tt.req); got != tt.want {
				t.Errorf("%s = %v, want %v", tt.cond, got, tt.want)
			}
			if got := evalCond(tt.cond, &tt.req); got != tt.want {
				t.Errorf("reference evaluator: %s = %v, want %v", tt.cond, got, tt.want)
			}
		})
	}
}

// evalNum and evalCond are a direct reference interpreter of the IR.
func evalNum(e NumExpr, r *Request) (float64, bool) {
	switch x := e.(type) {
	case FieldRef:
		return r.Values[x.Field], r.Present.Has(x.Field)
	case *FieldRef:
		return evalNum(*x, r)
	case Const:
		return x.Value, true
	case *Const:
		return x.Value, true
	case Neg:
		v, ok := evalNum(x.X, r)
		return -v, ok
	case Arith:
		a, ok1 := evalNum(x.L, r)
		b, ok2 := evalNum(x.R, r)
		if !ok1 || !ok2 {
			return 0, false
		}
		return arith(x.Op, a, b)
	}
	panic("evalNum: unexpected type")
}

func evalCond(c Cond, r *Request) bool {
	switch x := c.(type) {
	case Compare:
		a, ok1 := evalNum(x.L, r)
		b, ok2 := evalNum(x.R, r)
		return ok1 && ok2 && x.Op.eval(a, b)
	case *Compare:
		return evalCond(*x, r)
	case And:
		return evalCond(x.L, r) && evalCond(x.R, r)
	case *And:
		return evalCond(*x, r)
	case Or:
		return evalCond(x.L, r) || evalCond(x.R, r)
	case Not:
		return !evalCond(x.X, r)
	case *Not:
		return evalCond(*x, r)
	case Has:
		return r.Present.Has(x.Field)
	case Bool:
		return x.Value
	case *Bool:
		return x.Value
	}
	panic("evalCond: unexpected type")
}

// randCond builds a random condition favouring the shapes Compile
// specialises.
func randCond(rng *rand.Rand, depth int) Cond {
	k := rng.IntN(10)
	if depth <= 0 {
		k = rng.IntN(6)
	}
	switch k {
	case 0, 1, 2:
		return Compare{CmpOp(rng.IntN(6)), randNum(rng, depth-1), randNum(rng, depth-1)}
	case 3:
		l, r := fref(Field(rng.IntN(NumFields))), cnum(randConst(rng))
		if rng.IntN(2) == 0 {
			l, r = r, l
		}
		return Compare{CmpOp(rng.IntN(6)), l, r}
	case 4:
		return Has{Field(rng.IntN(NumFields))}
	case 5:
		return Bool{rng.IntN(2) == 0}
	case 6, 7:
		return And{randCond(rng, depth-1), randCond(rng, depth-1)}
	case 8:
		return Or{randCond(rng, depth-1), randCond(rng, depth-1)}
	default:
		return Not{randCond(rng, depth-1)}
	}
}

func randNum(rng *rand.Rand, depth int) NumExpr {
	k := rng.IntN(8)
	if depth <= 0 {
		k = rng.IntN(3)
	}
	switch k {
	case 0, 1:
		return fref(Field(rng.IntN(NumFields)))
	case 2:
		return cnum(randConst(rng))
	case 3:
		return Arith{Mul, fref(Field(rng.IntN(NumFields))), fref(Field(rng.IntN(NumFields)))}
	case 4:
		return Neg{randNum(rng, depth-1)}
	default:
		return Arith{ArithOp(rng.IntN(4)), randNum(rng, depth-1), randNum(rng, depth-1)}
	}
}

var smallValues = []float64{0, 1, 2, 3, 4, 5, 250, 255, 500_000, 1e9, MaxExact - 1}

func randConst(rng *rand.Rand) float64 {
	v := smallValues[rng.IntN(len(smallValues))]
	switch rng.IntN(5) {
	case 0:
		return v + 0.5
	case 1:
		return -v
	case 2:
		return math.Nextafter(v, math.Inf(1))
	}
	return v
}

func randRequest(rng *rand.Rand) Request {
	r := NewRequest()
	for f := Field(0); f < NumFields; f++ {
		if f.Optional() && rng.IntN(3) == 0 {
			continue
		}
		v := smallValues[rng.IntN(len(smallValues))]
		if f == Priority {
			v = math.Min(v, MaxPriority)
		}
		r.Set(f, v)
	}
	return r
}

// TestCompiledMatchesInterpreter checks the specialised closures against
// the reference interpreter on random conditions and requests.
func TestCompiledMatchesInterpreter(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	reqs := make([]Request, 200)
	for i := range reqs {
		reqs[i] = randRequest(rng)
	}
	for i := 0; i < 3000; i++ {
		c := randCond(rng, 3)
		rs, err := Compile([]Rule{{When: c, Class: "yes"}}, "no")
		if err != nil {
			t.Fatalf("Compile(%s): %v", c, err)
		}
		for _, r := range reqs {
			class, _ := rs.Classify(&r)
			if got, want := class == "yes", evalCond(c, &r); got != want {
				t.Fatalf("%s on %+v: compiled %v, interpreted %v", c, r, got, want)
			}
		}
	}
}

func TestCompileErrors(t *testing.T) {
	ok := cmpc(BatchSize, LE, 4)
	tests := []struct {
		name      string
		rules     []Rule
		otherwise Class
		want      string
	}{
		{"nil condition", []Rule{{When: nil, Class: "a"}}, "b", "rule 1: missing condition"},
		{"nil operand", []Rule{{Label: "x", When: Compare{LT, nil, cnum(1)}, Class: "a"}}, "b", "rule 1 (x): missing numeric expression"},
		{"nil pointer", []Rule{{When: (*Has)(nil), Class: "a"}}, "b", "rule 1: nil *Has"},
		{"bad field", []Rule{{When: ok, Class: "a"}, {When: Has{7}, Class: "a"}}, "b", "rule 2: Field(7): undefined field"},
		{"bad field in expression", []Rule{{When: Compare{LT, fref(9), cnum(1)}, Class: "a"}}, "b", "rule 1: Field(9): undefined field"},
		{"bad comparison", []Rule{{When: Compare{9, fref(Priority), cnum(1)}, Class: "a"}}, "b", "rule 1: undefined comparison operator CmpOp(9)"},
		{"bad arithmetic", []Rule{{When: Compare{LT, Arith{7, fref(Priority), cnum(1)}, cnum(1)}, Class: "a"}}, "b", "rule 1: undefined arithmetic operator ArithOp(7)"},
		{"NaN", []Rule{{When: cmpc(Priority, LT, math.NaN()), Class: "a"}}, "b", "rule 1: constant NaN is not finite"},
		{"infinity", []Rule{{When: cmpc(Priority, LT, math.Inf(1)), Class: "a"}}, "b", "rule 1: constant +Inf is not finite"},
		{"empty class", []Rule{{When: ok}}, "b", "rule 1: empty class"},
		{"empty else", []Rule{{When: ok, Class: "a"}}, "", "the else class is empty"},
		{"duplicate label", []Rule{{Label: "x", When: ok, Class: "a"}, {Label: "x", When: ok, Class: "a"}}, "b", "rule 2 (x): label also used by rule 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(tt.rules, tt.otherwise)
			if err == nil {
				t.Fatalf("Compile succeeded, want error %q", tt.want)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCompileErrorsAreStructured checks that a caller can tell which rule
// and which field without reading the message.
func TestCompileErrorsAreStructured(t *testing.T) {
	_, err := Compile([]Rule{{When: cmpc(BatchSize, LE, 4), Class: "a"}, {Label: "bad", When: Has{7}, Class: "a"}}, "b")
	var re *RuleError
	var fe *FieldError
	if !errors.As(err, &re) || !errors.As(err, &fe) {
		t.Fatalf("Compile error %#v is not a *RuleError wrapping a *FieldError", err)
	}
	type got struct {
		Rule      int
		Label     string
		Field     Field
		Undefined bool
	}
	if diff := cmp.Diff(got{1, "bad", 7, true}, got{re.Rule, re.Label, fe.Field, errors.Is(err, ErrUndefinedField)}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRulesetAccessors(t *testing.T) {
	rules := []Rule{
		{Label: "first", When: Bool{false}, Class: "a"},
		{When: Has{SLADeadline}, Class: "b"},
	}
	rs, err := Compile(rules, "z")
	if err != nil {
		t.Fatal(err)
	}
	rules[0].Label = "changed" // Compile keeps its own copy
	got := rs.Rules()
	got[1].Class = "changed" // and hands out copies
	names := []string{rs.RuleName(-1), rs.RuleName(0), rs.RuleName(1), rs.RuleName(2)}
	if diff := cmp.Diff([]string{"else", "first", "rule 2", "rule 3"}, names); diff != "" {
		t.Errorf("RuleName mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Rule{{Label: "first", When: Bool{false}, Class: "a"}, {When: Has{SLADeadline}, Class: "b"}},
		rs.Rules()); diff != "" {
		t.Errorf("Rules mismatch (-want +got):\n%s", diff)
	}
	if rs.Otherwise() != "z" {
		t.Errorf("Otherwise = %q", rs.Otherwise())
	}
	r := NewRequest()
	if class, rule := rs.Classify(&r); class != "z" || rule != -1 {
		t.Errorf("Classify = %s, %d; want z, -1", class, rule)
	}
	empty, err := Compile(nil, "only")
	if err != nil {
		t.Fatal(err)
	}
	if class, rule := empty.Classify(&r); class != "only" || rule != -1 {
		t.Errorf("empty ruleset: Classify = %s, %d", class, rule)
	}
}

func TestCondString(t *testing.T) {
	c := And{
		Not{cmpc(SLADeadline, LT, 250)},
		Or{Has{Flops}, Compare{LE, Arith{Mul, fref(InputSize), fref(BatchSize)}, Neg{cnum(2e6)}}},
	}
	want := "And{Not{Compare{sla_deadline < 250}}, Or{Has{flops}, Compare{Arith{input_size * batch_size} <= Neg{2000000}}}}"
	if got := c.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestClassifyAllocsAndConcurrency(t *testing.T) {
	rs := mustKapsl(t)
	reqs := genRequests(1024, 7)
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		rs.Classify(&reqs[i%len(reqs)])
		i++
	})
	if allocs != 0 {
		t.Errorf("Classify allocates %v times per call", allocs)
	}
	var wg sync.WaitGroup
	var bad atomic.Int32
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, r := range reqs {
				if class, _ := rs.Classify(&r); class != kapslReference(r) {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := bad.Load(); n > 0 {
		t.Errorf("concurrent Classify disagreed with the hand-written function %d times", n)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Request)
		want string
	}{
		{"default", func(*Request) {}, ""},
		{"largest", func(r *Request) { r.Set(SLADeadline, MaxExact-1); r.Set(Priority, 255) }, ""},
		{"negative", func(r *Request) { r.Set(BatchSize, -3) }, "batch_size: -3 is negative: values must be non-negative integers"},
		{"fractional", func(r *Request) { r.Set(Flops, 2.5) }, "flops: 2.5 is fractional: values must be integers"},
		{"too large", func(r *Request) { r.Set(InputSize, MaxExact) }, "input_size: 9007199254740992 is too large: numbers must be below 2^53"},
		{"priority range", func(r *Request) { r.Set(Priority, 256) }, "priority: 256 is out of range: priority must be at most 255"},
		{"NaN", func(r *Request) { r.Set(SLADeadline, math.NaN()) }, "sla_deadline: NaN is not a number"},
		{"missing required", func(r *Request) { r.Unset(BatchSize) }, "batch_size: absent, but must always be present"},
		{"absent value ignored", func(r *Request) { r.Values[Flops] = -1 }, ""},
		{"undefined bits", func(r *Request) { r.Present |= 0x80 }, "present-field set 0x85 has bits for undefined fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRequest()
			tt.edit(&r)
			got := ""
			if err := r.Validate(); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Validate mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFields(t *testing.T) {
	var got []string
	for f := Field(0); f < NumFields; f++ {
		g, ok := ParseField(f.String())
		if !ok || g != f {
			t.Errorf("ParseField(%q) = %v, %v", f.String(), g, ok)
		}
		got = append(got, f.String()+"/"+f.JSONKey()+"/"+map[bool]string{true: "optional", false: "required"}[f.Optional()])
	}
	want := []string{"priority/priority/required", "sla_deadline/sla_deadline/optional", "batch_size/batch_size/required",
		"input_size/input_size_bytes/optional", "flops/estimated_flops/optional"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fields mismatch (-want +got):\n%s", diff)
	}
	if _, ok := ParseField("input_size_bytes"); ok {
		t.Error("ParseField accepted a JSON key")
	}
	if s := Field(9).String(); s != "Field(9)" {
		t.Errorf("Field(9).String() = %q", s)
	}
}
