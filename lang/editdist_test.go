package lang

import (
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"kapsl", "kapsl", 0},
		{"servng", "serving", 1},   // an insertion
		{"servinng", "serving", 1}, // a deletion
		{"kapsk", "kapsl", 1},      // a substitution
		{"kitten", "sitting", 3},   // two substitutions and an insertion
		{"ab", "ba", 1},            // a transposition of neighbours is one edit
		{"flaw", "lawn", 2},        // a deletion and an insertion
		{"priority", "sla_deadline", 11},
	} {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := EditDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

// TestEditDistanceLong checks strings past the stack-buffer size and
// outside ASCII against the same cases.
func TestEditDistanceLong(t *testing.T) {
	long := strings.Repeat("a", 70)
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{long, long + "b", 1},
		{long + "xy", long + "yx", 1},
		{"größe", "grösse", 2},
		{"µs", "us", 1},
	} {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
