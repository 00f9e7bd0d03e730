package main

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// TestBundledRulesets checks that the rulesets written out at build time
// are the bundled library's, as loading it gives them: run go generate
// ./cmd/gpl after changing the library.
func TestBundledRulesets(t *testing.T) {
	s, err := eval.LoadLibrary(eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range bundledRulesets {
		names = append(names, b.name)
	}
	if diff := cmp.Diff(s.Rulesets(), names); diff != "" {
		t.Fatalf("bundled rulesets (-library +bundled_rules.go; run go generate ./cmd/gpl):\n%s", diff)
	}
	for _, b := range bundledRulesets {
		want, _ := s.Ruleset(b.name)
		got, ok := bundledRuleset(b.name)
		if !ok {
			t.Fatalf("%s does not compile", b.name)
		}
		if diff := cmp.Diff(want.Rules(), got.Rules()); diff != "" {
			t.Errorf("%s: rules (-library +bundled_rules.go; run go generate ./cmd/gpl):\n%s", b.name, diff)
		}
		if diff := cmp.Diff(want.Otherwise(), got.Otherwise()); diff != "" {
			t.Errorf("%s: else class (-library +bundled_rules.go; run go generate ./cmd/gpl):\n%s", b.name, diff)
		}
	}
	if _, ok := bundledRuleset("no_such_rules"); ok {
		t.Error("bundledRuleset found a ruleset the library does not declare")
	}
}

// TestBundledGo checks each bundled ruleset's generated Go: the file in
// internal/bundledgo is what priority.WriteGo writes of the ruleset (run
// go generate ./cmd/gpl when it is not), and its Classify gives the class
// and rule Ruleset.Classify gives, on requests whose values sit on and
// beside the rules' constants, with the optional fields present or not.
func TestBundledGo(t *testing.T) {
	for _, b := range bundledRulesets {
		rs, ok := bundledRuleset(b.name)
		if !ok {
			t.Fatalf("%s does not compile", b.name)
		}
		pkg := strings.ToLower(b.name)
		var want bytes.Buffer
		if err := priority.WriteGo(&want, rs, priority.GoOptions{Package: pkg, Source: "std/" + b.name}); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("internal", "bundledgo", pkg, pkg+".go"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), string(got)); diff != "" {
			t.Errorf("%s: generated Go (-WriteGo +internal/bundledgo; run go generate ./cmd/gpl):\n%s", b.name, diff)
		}
		if bundledGo(b.name) == nil {
			t.Fatalf("%s: no generated Classify", b.name)
		}
		values := boundaryValues(rs)
		rng := rand.New(rand.NewPCG(1, 2))
		mismatches := 0
		for range 200_000 {
			r := priority.NewRequest()
			for f := priority.Field(0); f < priority.NumFields; f++ {
				if f != priority.Priority && f != priority.BatchSize && rng.IntN(4) == 0 {
					continue // absent
				}
				v := values[rng.IntN(len(values))]
				if f == priority.Priority {
					v = math.Min(v, priority.MaxPriority)
				}
				r.Set(f, v)
			}
			wantClass, wantRule := rs.Classify(&r)
			gotClass, gotRule := b.classify(&r)
			if diff := cmp.Diff([2]any{wantClass, wantRule}, [2]any{gotClass, gotRule}); diff != "" && mismatches < 5 {
				mismatches++
				t.Errorf("%s: %+v: (-Ruleset.Classify +generated):\n%s", b.name, r, diff)
			}
		}
	}
}

// boundaryValues returns the rules' constants, their neighbours and a
// few others: the values a request is classified differently on either
// side of, all valid field values.
func boundaryValues(rs *priority.Ruleset) []float64 {
	vs := []float64{0, 1, 2, priority.MaxExact - 1}
	var walkNum func(priority.NumExpr)
	walkNum = func(e priority.NumExpr) {
		switch x := e.(type) {
		case priority.Const:
			for _, v := range []float64{x.Value - 1, x.Value, x.Value + 1, x.Value / 2, math.Sqrt(x.Value)} {
				if v = math.Floor(v); v >= 0 && v < priority.MaxExact {
					vs = append(vs, v)
				}
			}
		case priority.Neg:
			walkNum(x.X)
		case priority.Arith:
			walkNum(x.L)
			walkNum(x.R)
		}
	}
	var walk func(priority.Cond)
	walk = func(c priority.Cond) {
		switch x := c.(type) {
		case priority.Compare:
			walkNum(x.L)
			walkNum(x.R)
		case priority.And:
			walk(x.L)
			walk(x.R)
		case priority.Or:
			walk(x.L)
			walk(x.R)
		case priority.Not:
			walk(x.X)
		}
	}
	for _, r := range rs.Rules() {
		walk(r.When)
	}
	return vs
}
