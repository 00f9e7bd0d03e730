package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
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
