package eval

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// TestInputErrorMessage checks the sentence a user sees for each kind of
// goodput input error; the engine's own messages name Go values instead.
func TestInputErrorMessage(t *testing.T) {
	tests := []struct {
		name string
		err  goodput.InputError
		want string
	}{
		{"missing factor", goodput.InputError{Input: goodput.InputFactor, Factor: goodput.Runtime, Kind: goodput.MissingFactor},
			"the job has no runtime factor"},
		{"factor not finite", goodput.InputError{Input: goodput.InputFactor, Factor: goodput.Program, Kind: goodput.NotFinite, Value: math.NaN()},
			"program factor is NaN; it must be a finite number"},
		{"factor above 1", goodput.InputError{Input: goodput.InputFactor, Factor: goodput.Scheduling, Kind: goodput.FactorOutOfRange, Value: 1.2, Limit: 1},
			"scheduling factor is 1.2; a factor is a fraction in [0, 1]"},
		{"ceiling below 0", goodput.InputError{Input: goodput.InputCeiling, Factor: goodput.Runtime, Kind: goodput.CeilingOutOfRange, Value: -1},
			"runtime ceiling is -1; a ceiling is a fraction in [0, 1]"},
		{"ceiling below factor", goodput.InputError{Input: goodput.InputCeiling, Factor: goodput.Runtime, Kind: goodput.CeilingBelowFactor, Value: 0.85, Limit: 0.9},
			"runtime ceiling 0.85 is below its factor 0.9"},
		{"negative devices", goodput.InputError{Input: goodput.InputDevices, Kind: goodput.NegativeValue, Value: -8},
			"devices is -8; it must not be negative"},
		{"infinite hours", goodput.InputError{Input: goodput.InputHours, Kind: goodput.NotFinite, Value: math.Inf(1)},
			"hours is +Inf; it must be a finite number"},
		{"negative hours", goodput.InputError{Input: goodput.InputHours, Kind: goodput.NegativeValue, Value: -92160},
			"hours is -92,160 h; it must not be negative"},
		{"factor of many digits", goodput.InputError{Input: goodput.InputFactor, Factor: goodput.Program, Kind: goodput.FactorOutOfRange, Value: 1.0864197530864197, Limit: 1},
			"program factor is 1.086419753; a factor is a fraction in [0, 1]"},
		{"offered hours overflow", goodput.InputError{Input: goodput.InputHours, Kind: goodput.Overflow, Value: 1e200, Limit: 1e108},
			"hours 1e+200 h makes the offered device-hours overflow; with these devices it must be at most 1e+108 h"},
		{"cost overflow", goodput.InputError{Input: goodput.InputRate, Kind: goodput.Overflow, Value: 1e100, Limit: 1e8},
			"rate $1e+100 per device-hour makes the cost overflow; with these offered device-hours it must be at most $100,000,000.00 per device-hour"},
		{"unknown kind", goodput.InputError{Input: goodput.InputRate, Kind: 42, Value: 3},
			"rate is $3.00 per device-hour: ErrorKind(42)"},
	}
	var got, want []string
	for _, tt := range tests {
		e := tt.err
		got = append(got, tt.name+": "+inputErrorMessage(&e))
		want = append(want, tt.name+": "+tt.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inputErrorMessage mismatch (-want +got):\n%s", diff)
	}
}
