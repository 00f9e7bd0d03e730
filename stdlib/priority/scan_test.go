package priority

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScanDigits checks the eight-at-a-time digit scanner against strconv
// for every run length up to 15 digits, each followed by every kind of
// byte that can end a number, at every distance from the end of the line.
func TestScanDigits(t *testing.T) {
	type result struct {
		Value uint64
		End   int
	}
	for k := 1; k <= 15; k++ {
		digits := "987654321098765"[:k]
		want, _ := strconv.ParseUint(digits, 10, 64)
		for _, after := range []string{"", "}", ",", " ", "/", ":", "\xff", "\xfa0", "}" + strings.Repeat("9", 9)} {
			for pad := 0; pad < 10; pad++ {
				line := "x" + digits + after + strings.Repeat("}", pad)
				u, end := scanDigits([]byte(line), 1)
				if diff := cmp.Diff(result{want, 1 + k}, result{u, end}); diff != "" {
					t.Errorf("scanDigits(%q, 1) (-want +got):\n%s", line, diff)
				}
			}
		}
	}
}

// TestParseFastTakesTheUsualLines checks that the usual lines never need
// the encoding/json path, and that the unusual ones are left to it.
func TestParseFastTakesTheUsualLines(t *testing.T) {
	tests := []struct {
		line string
		fast bool
	}{
		{`{"priority":2,"batch_size":51,"input_size_bytes":15871908,"estimated_flops":546294207}`, true},
		{`{"priority":2,"sla_deadline":785,"batch_size":54,"estimated_flops":81448093}`, true},
		{`{}`, true},
		{` { "batch_size" : 8 , "priority" : 0 } `, true},
		{`{"sla_deadline":null,"estimated_flops":123456789012345}`, true},
		{`{"estimated_flops":1234567890123456}`, true}, // 16 digits: checked against 2^53 exactly
		{`{"estimated_flops":9007199254740992}`, false},
		{`{"estimated_flops":1e9}`, true},
		{`{"prio\u0072ity":0}`, false},
		{`{"priority":256}`, false},
		{`{"priority":0,"priority":0}`, false},
		{`{"priority":0}x`, false},
		{``, false},
	}
	for _, tt := range tests {
		var r Request
		if got := parseFast([]byte(tt.line), &r); got != tt.fast {
			t.Errorf("parseFast(%q) = %v, want %v", tt.line, got, tt.fast)
		}
	}
}
