package lang

import "testing"

// TestNumberLitIsZero checks IsZero against Amount, on numerals a literal
// can hold and on a few it cannot.
func TestNumberLitIsZero(t *testing.T) {
	for _, s := range []string{"0", "0.0", "00", "0_0", ".0", "0.", "1", "0.5", "5.", ".5", "1_000", "0e5", "1e-400", "0.0000000000000000001", "1.2.3", "", "_", "."} {
		n := &NumberLit{Text: s}
		if n.IsZero() != (n.Amount() == 0) {
			t.Errorf("%q: IsZero %v, Amount %v", s, n.IsZero(), n.Amount())
		}
	}
}
