package lang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang/units"
)

// TestPowerAndPercent checks how ^ groups and how a percentage reads.
func TestPowerAndPercent(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"power before product", "2 * 3 ^ 2", "(* 2 (^ 3 2))"},
		{"power before product on the left", "3 ^ 2 * 2", "(* (^ 3 2) 2)"},
		{"powers associate right", "2 ^ 3 ^ 2", "(^ 2 (^ 3 2))"},
		{"power before unary minus", "-2 ^ 2", "(- (^ 2 2))"},
		{"negative exponent", "2 ^ -1", "(^ 2 (- 1))"},
		{"negative exponent of a power", "2 ^ -3 ^ 2", "(^ 2 (- (^ 3 2)))"},
		{"parenthesised base", "(2h) ^ 2", "(^ [2h] 2)"},
		{"power of a call", "sqrt(x) ^ 2 / 1h", "(/ (^ sqrt(x) 2) 1h)"},
		{"percent literal", "40% * x", "(* 40% x)"},
		{"percent with a space", "0.5 % + 1", "(+ 0.5 % 1)"},
		{"compute rate", "989 TFLOP/s * 1h", "(* 989 TFLOP/s 1h)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, diags := ParseExpr("t.gpl", tt.src)
			if diags != nil {
				t.Fatalf("ParseExpr(%q): %v", tt.src, diags)
			}
			if diff := cmp.Diff(tt.want, treeShape(x)); diff != "" {
				t.Errorf("shape of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

// TestPercentAndRateValues checks the values literals convert to.
func TestPercentAndRateValues(t *testing.T) {
	type lit struct {
		Base float64
		Dim  units.Dim
	}
	got := map[string]lit{}
	for _, src := range []string{"40%", "0.5%", "100 %", "989 TFLOP/s", "1 PFLOP/s", "2 GFLOP/s", "7 FLOP/s"} {
		x, diags := ParseExpr("t.gpl", src)
		if diags != nil {
			t.Fatalf("ParseExpr(%q): %v", src, diags)
		}
		n := x.(*NumberLit)
		got[src] = lit{n.Base(), n.Dim()}
	}
	want := map[string]lit{
		"40%": {0.4, units.Count}, "0.5%": {0.005, units.Count}, "100 %": {1, units.Count},
		"989 TFLOP/s": {989e12, units.ComputeRate}, "1 PFLOP/s": {1e15, units.ComputeRate},
		"2 GFLOP/s": {2e9, units.ComputeRate}, "7 FLOP/s": {7, units.ComputeRate},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("literal values (-want +got):\n%s", diff)
	}
}

// TestFormatComputeRate checks that reports print compute rates in the
// largest unit that keeps the number at least 1.
func TestFormatComputeRate(t *testing.T) {
	got := map[float64]string{}
	for _, v := range []float64{989e12, 2e15, 5e9, 12, 0} {
		got[v] = units.Format(v, units.ComputeRate)
	}
	want := map[float64]string{
		989e12: "989 TFLOP/s", 2e15: "2 PFLOP/s", 5e9: "5 GFLOP/s", 12: "12 FLOP/s", 0: "0 FLOP/s",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Format(v, ComputeRate) (-want +got):\n%s", diff)
	}
	if got, want := units.ComputeRate.String(), "compute rate"; got != want {
		t.Errorf("ComputeRate.String() = %q, want %q", got, want)
	}
	if got, want := units.FormatIn(0.412, units.Of("%")), "41.2%"; got != want {
		t.Errorf("FormatIn(0.412, %%) = %q, want %q", got, want)
	}
}
