package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

func TestDiagnosticCode(t *testing.T) {
	cases := map[string]string{
		"cycle: a reads b, which reads a":                            "cycle",
		"cycle: j extends itself through k":                          "extends_cycle",
		"cannot add a duration with data":                            "dimension_mismatch",
		"unknown function mx; did you mean max?":                     "unknown_function",
		"scheduling factor is 1.2; a factor is a fraction in [0, 1]": "factor_out_of_range",
		"runtime ceiling 0.85 is below its factor 0.9":               "ceiling_below_factor",
		"round takes one argument":                                   "argument_count",
		"syntax error: unexpected token \"}\"":                       "syntax_error",
		"something new":                                              "check_error",
	}
	got := map[string]string{}
	for s := range cases {
		got[s] = DiagnosticCode(&lang.Diagnostic{Summary: s})
	}
	if diff := cmp.Diff(cases, got); diff != "" {
		t.Errorf("codes (-want +got):\n%s", diff)
	}
	if c := DiagnosticCode(&lang.Diagnostic{Summary: "division by zero", Code: "own"}); c != "own" {
		t.Errorf("a diagnostic's own code: %q", c)
	}
	if c := DiagnosticCode(&lang.Diagnostic{Summary: "x", Stage: lang.Running}); c != "runtime_error" {
		t.Errorf("a runtime diagnostic: %q", c)
	}
}
