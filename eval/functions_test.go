package eval

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

// TestPlanningFunctionValues evaluates the power operator and the planning
// functions: each value, printed readably, and its type.
func TestPlanningFunctionValues(t *testing.T) {
	s, err := LoadSource("f.gpl", []byte("let peak = 989 TFLOP/s\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]string{
		"-2 ^ 2":                    "-4 (count)",
		"2 ^ 3 ^ 2":                 "512 (count)",
		"(2h) ^ 2 / 1h":             "4 h (duration)",
		"(10min) ^ -1 * 1h":         "6 (count)",
		"sqrt(2 * 5min * 24h)":      "2 h (duration)",
		"sqrt(9 * 1h * 1h)":         "3 h (duration)",
		"exp(0)":                    "1 (count)",
		"log(1)":                    "0 (count)",
		"ceil(40% * 7)":             "3 (count)",
		"floor(-0.5)":               "-1 (count)",
		"peak":                      "989 TFLOP/s (compute rate)",
		"young_interval(5min, 24h)": "2 h (duration)",
		"daly_interval(1h, 20min)":  "20 min (duration)",
		"fleet_mtbf(10000, 20000h, 1250, 10000h)": "1.6 h (duration)",
		"runtime_goodput(5760s, 60s, 300s) > 0.8": "true (bool)",
		"mfu(1e6 / 1s, 70e9, 1024, peak) > 0.41":  "true (bool)",
	}
	got := map[string]string{}
	for src := range tests {
		v, err := s.Eval("x", src)
		if err != nil {
			got[src] = "error: " + err.Error()
			continue
		}
		got[src] = v.String() + " (" + v.Type.String() + ")"
	}
	if diff := cmp.Diff(tests, got); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
}

// TestPlanningFunctionErrors checks each error of the power operator and
// the planning functions, rendered with its caret, and whether it is found
// at check time or while computing.
func TestPlanningFunctionErrors(t *testing.T) {
	tests := []struct {
		name, src string
		runtime   bool
		want      string
	}{
		{"odd exponent under sqrt", "sqrt(5min)", false, `
error: sqrt halves each exponent of its argument's dimension, but this is a duration (s), an odd power; take the root of a square, such as 2 * 5min * 24h
  --> x:1:6
   |
 1 | sqrt(5min)
   |      ^^^^
`},
		{"sqrt of a negative count", "sqrt(1 - 2)", true, `
error: sqrt of a negative number, -1
  --> x:1:6
   |
 1 | sqrt(1 - 2)
   |      ^^^^^
`},
		{"log of 0", "1 + log(0)", true, `
error: log of 0: log needs a number above 0
  --> x:1:9
   |
 1 | 1 + log(0)
   |         ^
`},
		{"exp of a duration", "exp(1h)", false, `
error: exp needs a count; a duration depends on its unit, so divide by one first (e.g. x / 1h)
  --> x:1:5
   |
 1 | exp(1h)
   |     ^^
`},
		{"fractional exponent of a duration", "(1h) ^ 0.5", false, `
error: the base is a duration, so the exponent must be a constant whole number, such as 2
  --> x:1:8
   |
 1 | (1h) ^ 0.5
   |        ^^^
`},
		{"exponent with a unit", "2 ^ 1h", false, `
error: an exponent is a count; this is a duration
  --> x:1:5
   |
 1 | 2 ^ 1h
   |     ^^
`},
		{"MTBF of the wrong dimension", "young_interval(5min, 24 * 1e9 FLOP)", false, `
error: young_interval's argument 2, the MTBF, must be a duration, not compute
  --> x:1:22
   |
 1 | young_interval(5min, 24 * 1e9 FLOP)
   |                      ^^^^^^^^^^^^^
`},
		{"too few arguments", "daly_interval(5min)", false, `
error: daly_interval takes two arguments; write daly_interval(checkpoint_cost, mtbf)
  --> x:1:1
   |
 1 | daly_interval(5min)
   | ^^^^^^^^^^^^^^^^^^^
`},
		{"odd fleet_mtbf arguments", "fleet_mtbf(3, 1h, 2)", false, `
error: fleet_mtbf takes pairs of a count and an MTBF; write fleet_mtbf(count₁, mtbf₁, count₂, mtbf₂, …)
  --> x:1:1
   |
 1 | fleet_mtbf(3, 1h, 2)
   | ^^^^^^^^^^^^^^^^^^^^
`},
		{"non-positive MTBF", "young_interval(5min, 1h - 2h)", true, `
error: the MTBF of young_interval is -1 h; it must be above 0
  --> x:1:22
   |
 1 | young_interval(5min, 1h - 2h)
   |                      ^^^^^^^
`},
		{"negative part count", "fleet_mtbf(3, 1h, -1, 2h)", true, `
error: the count of part 2 of fleet_mtbf is -1; it must not be negative
  --> x:1:19
   |
 1 | fleet_mtbf(3, 1h, -1, 2h)
   |                   ^^
`},
		{"no failing part", "fleet_mtbf(0, 1h)", true, `
error: fleet_mtbf: no part has a count above 0, so the system never fails
  --> x:1:1
   |
 1 | fleet_mtbf(0, 1h)
   | ^^^^^^^^^^^^^^^^^
`},
		{"runtime goodput below 0", "runtime_goodput(20min, 5min, 10min)", true, `
error: runtime_goodput would be -0.207, below 0: failures come faster than the job keeps progress; checkpoint faster, restart faster or raise the MTBF
  --> x:1:1
   |
 1 | runtime_goodput(20min, 5min, 10min)
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
`},
		{"zero devices in mfu", "mfu(1e6 / 1s, 70e9, 0, 989 TFLOP/s)", true, `
error: the device count of mfu is 0; it must be above 0
  --> x:1:21
   |
 1 | mfu(1e6 / 1s, 70e9, 0, 989 TFLOP/s)
   |                     ^
`},
		{"misspelt function", "sqr(4)", false, `
error: unknown function sqr; did you mean sqrt?
  --> x:1:1
   |
 1 | sqr(4)
   | ^^^
`},
	}
	s, err := LoadSource("f.gpl", []byte("let a = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Eval("x", tt.src)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Eval(%q) = %v, want an *Error", tt.src, err)
			}
			var b strings.Builder
			e.Diagnostics.RenderAll(&b, e.Sources, lang.Style{})
			if diff := cmp.Diff(strings.TrimPrefix(tt.want, "\n"), b.String()); diff != "" {
				t.Errorf("error of %q (-want +got):\n%s", tt.src, diff)
			}
			if e.Runtime != tt.runtime {
				t.Errorf("Runtime = %v, want %v", e.Runtime, tt.runtime)
			}
		})
	}
}
