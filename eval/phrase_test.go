package eval

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDimensionWording pins how messages name a dimension: with an article
// for a duration, a price or a count, without one for data, compute and
// money, which are mass nouns ("a data" is not English).
func TestDimensionWording(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"a data field without its unit", "request r { input_size = 500 }",
			"input_size is data; write its unit, e.g. 500B"},
		{"a compute field without its unit", "request r { flops = 7 }",
			"flops is compute; write its unit, e.g. 7FLOP"},
		{"a duration field without its unit", "pool p { devices = 8  hours = 720 }",
			"hours is a duration; write its unit, e.g. 720h"},
		{"data where a duration goes", "pool p { devices = 8  hours = 10MB }",
			"hours is a duration, but 10MB is data"},
		{"money where a price goes", "pool p { devices = 8  rate = $5 }",
			"rate is a price, but $5 is money: write $5/h"},
		{"a string where a duration goes", `pool p { devices = 8  hours = "long" }`,
			"hours is a duration, but this is a string"},
		{"a rule condition that is data", "rules k { when 1MB -> a  else b }",
			"a rule's condition must be true or false; this is data"},
		{"a rule condition that is a count", "rules k { when batch_size -> a  else b }",
			"a rule's condition must be true or false; this is a count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadSource("plan.gpl", []byte(tt.src+"\n"))
			var e *Error
			if !errors.As(err, &e) || len(e.Diagnostics) != 1 {
				t.Fatalf("LoadSource: %v; want one error", err)
			}
			if diff := cmp.Diff(tt.want, e.Diagnostics[0].Summary); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
