package goodput

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestSolveErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	with := func(edit func(*Inputs)) Inputs {
		in := reference()
		edit(&in)
		return in
	}
	tests := []struct {
		name    string
		in      Inputs
		want    InputErrors
		message string
	}{
		{
			name:    "missing runtime factor",
			in:      with(func(in *Inputs) { in.Factors[Runtime] = Optional{} }),
			want:    InputErrors{{Input: InputFactor, Factor: Runtime, Kind: MissingFactor}},
			message: "goodput: Inputs.Factors[Runtime] is not set",
		},
		{
			name: "no factors at all reports each of them",
			in:   Inputs{},
			want: InputErrors{
				{Input: InputFactor, Factor: Scheduling, Kind: MissingFactor},
				{Input: InputFactor, Factor: Runtime, Kind: MissingFactor},
				{Input: InputFactor, Factor: Program, Kind: MissingFactor},
			},
			message: "goodput: Inputs.Factors[Scheduling] is not set; " +
				"goodput: Inputs.Factors[Runtime] is not set; " +
				"goodput: Inputs.Factors[Program] is not set",
		},
		{
			name:    "program factor above 1",
			in:      with(func(in *Inputs) { in.Factors[Program] = Some(1.2); in.Ceilings[Program] = Optional{} }),
			want:    InputErrors{{Input: InputFactor, Factor: Program, Kind: FactorOutOfRange, Value: 1.2, Limit: 1}},
			message: "goodput: Inputs.Factors[Program] is 1.2, above 1",
		},
		{
			name:    "an invalid factor is not compared with its ceiling",
			in:      with(func(in *Inputs) { in.Factors[Program] = Some(1.2) }),
			want:    InputErrors{{Input: InputFactor, Factor: Program, Kind: FactorOutOfRange, Value: 1.2, Limit: 1}},
			message: "goodput: Inputs.Factors[Program] is 1.2, above 1",
		},
		{
			name:    "scheduling factor below 0",
			in:      with(func(in *Inputs) { in.Factors[Scheduling] = Some(-0.1) }),
			want:    InputErrors{{Input: InputFactor, Factor: Scheduling, Kind: FactorOutOfRange, Value: -0.1}},
			message: "goodput: Inputs.Factors[Scheduling] is -0.1, below 0",
		},
		{
			name:    "NaN runtime factor",
			in:      with(func(in *Inputs) { in.Factors[Runtime] = Some(nan) }),
			want:    InputErrors{{Input: InputFactor, Factor: Runtime, Kind: NotFinite, Value: nan}},
			message: "goodput: Inputs.Factors[Runtime] is NaN, not a finite number",
		},
		{
			name: "a factor above 1 does not hide a ceiling below another factor",
			in: with(func(in *Inputs) {
				in.Factors[Scheduling] = Some(1.2)
				in.Ceilings[Runtime] = Some(0.85)
			}),
			want: InputErrors{
				{Input: InputFactor, Factor: Scheduling, Kind: FactorOutOfRange, Value: 1.2, Limit: 1},
				{Input: InputCeiling, Factor: Runtime, Kind: CeilingBelowFactor, Value: 0.85, Limit: 0.9},
			},
			message: "goodput: Inputs.Factors[Scheduling] is 1.2, above 1; " +
				"goodput: Inputs.Ceilings[Runtime] is 0.85, below its factor 0.9",
		},
		{
			name: "factor errors come before ceiling errors",
			in: with(func(in *Inputs) {
				in.Ceilings[Scheduling] = Some(2)
				in.Factors[Program] = Optional{}
			}),
			want: InputErrors{
				{Input: InputFactor, Factor: Program, Kind: MissingFactor},
				{Input: InputCeiling, Factor: Scheduling, Kind: CeilingOutOfRange, Value: 2, Limit: 1},
			},
			message: "goodput: Inputs.Factors[Program] is not set; goodput: Inputs.Ceilings[Scheduling] is 2, above 1",
		},
		{
			name:    "program ceiling below factor",
			in:      with(func(in *Inputs) { in.Ceilings[Program] = Some(0.3) }),
			want:    InputErrors{{Input: InputCeiling, Factor: Program, Kind: CeilingBelowFactor, Value: 0.3, Limit: 0.33}},
			message: "goodput: Inputs.Ceilings[Program] is 0.3, below its factor 0.33",
		},
		{
			name:    "runtime ceiling above 1",
			in:      with(func(in *Inputs) { in.Ceilings[Runtime] = Some(1.5) }),
			want:    InputErrors{{Input: InputCeiling, Factor: Runtime, Kind: CeilingOutOfRange, Value: 1.5, Limit: 1}},
			message: "goodput: Inputs.Ceilings[Runtime] is 1.5, above 1",
		},
		{
			name:    "scheduling ceiling below 0",
			in:      with(func(in *Inputs) { in.Ceilings[Scheduling] = Some(-1) }),
			want:    InputErrors{{Input: InputCeiling, Factor: Scheduling, Kind: CeilingOutOfRange, Value: -1}},
			message: "goodput: Inputs.Ceilings[Scheduling] is -1, below 0",
		},
		{
			name:    "infinite scheduling ceiling",
			in:      with(func(in *Inputs) { in.Ceilings[Scheduling] = Some(inf) }),
			want:    InputErrors{{Input: InputCeiling, Factor: Scheduling, Kind: NotFinite, Value: inf}},
			message: "goodput: Inputs.Ceilings[Scheduling] is +Inf, not a finite number",
		},
		{
			name: "two bad ceilings give two errors, in the order S, R, P",
			in: with(func(in *Inputs) {
				in.Ceilings[Program] = Some(nan)
				in.Ceilings[Runtime] = Some(0.1)
			}),
			want: InputErrors{
				{Input: InputCeiling, Factor: Runtime, Kind: CeilingBelowFactor, Value: 0.1, Limit: 0.9},
				{Input: InputCeiling, Factor: Program, Kind: NotFinite, Value: nan},
			},
			message: "goodput: Inputs.Ceilings[Runtime] is 0.1, below its factor 0.9; " +
				"goodput: Inputs.Ceilings[Program] is NaN, not a finite number",
		},
		{
			name: "negative devices and hours",
			in:   with(func(in *Inputs) { in.Devices = -1; in.Hours = -2 }),
			want: InputErrors{
				{Input: InputDevices, Kind: NegativeValue, Value: -1},
				{Input: InputHours, Kind: NegativeValue, Value: -2},
			},
			message: "goodput: Inputs.Devices is -1, below 0; goodput: Inputs.Hours is -2, below 0",
		},
		{
			name:    "NaN devices",
			in:      with(func(in *Inputs) { in.Devices = nan }),
			want:    InputErrors{{Input: InputDevices, Kind: NotFinite, Value: nan}},
			message: "goodput: Inputs.Devices is NaN, not a finite number",
		},
		{
			name:    "negative hours",
			in:      with(func(in *Inputs) { in.Hours = -720 }),
			want:    InputErrors{{Input: InputHours, Kind: NegativeValue, Value: -720}},
			message: "goodput: Inputs.Hours is -720, below 0",
		},
		{
			name:    "infinite hours",
			in:      with(func(in *Inputs) { in.Hours = math.Inf(-1) }),
			want:    InputErrors{{Input: InputHours, Kind: NotFinite, Value: math.Inf(-1)}},
			message: "goodput: Inputs.Hours is -Inf, not a finite number",
		},
		{
			name:    "offered hours overflow, and the cost is not checked",
			in:      with(func(in *Inputs) { in.Devices = 1e200; in.Hours = 1e200 }),
			want:    InputErrors{{Input: InputHours, Kind: Overflow, Value: 1e200, Limit: math.MaxFloat64 / 1e200}},
			message: "goodput: Inputs.Hours is 1e+200: Devices × Hours overflows a float64 unless it is at most 1.797693134862316e+108",
		},
		{
			name:    "invalid devices: neither product is checked",
			in:      with(func(in *Inputs) { in.Devices = nan; in.Hours = 1e200; in.Rate = Some(1e300) }),
			want:    InputErrors{{Input: InputDevices, Kind: NotFinite, Value: nan}},
			message: "goodput: Inputs.Devices is NaN, not a finite number",
		},
		{
			name:    "negative rate",
			in:      with(func(in *Inputs) { in.Rate = Some(-2.5) }),
			want:    InputErrors{{Input: InputRate, Kind: NegativeValue, Value: -2.5}},
			message: "goodput: Inputs.Rate is -2.5, below 0",
		},
		{
			name:    "NaN rate",
			in:      with(func(in *Inputs) { in.Rate = Some(nan) }),
			want:    InputErrors{{Input: InputRate, Kind: NotFinite, Value: nan}},
			message: "goodput: Inputs.Rate is NaN, not a finite number",
		},
		{
			name:    "cost overflow",
			in:      with(func(in *Inputs) { in.Devices = 1e150; in.Hours = 1e150; in.Rate = Some(1e100) }),
			want:    InputErrors{{Input: InputRate, Kind: Overflow, Value: 1e100, Limit: math.MaxFloat64 / 1e300}},
			message: "goodput: Inputs.Rate is 1e+100: Devices × Hours × Rate overflows a float64 unless it is at most 1.797693134862316e+08",
		},
		{
			name: "every input wrong at once",
			in: Inputs{
				Factors:  [NumFactors]Optional{{}, Some(1.5), Some(nan)},
				Ceilings: [NumFactors]Optional{Some(0.5), Some(0.2), Some(-1)},
				Devices:  -1,
				Hours:    inf,
				Rate:     Some(-3),
			},
			want: InputErrors{
				{Input: InputFactor, Factor: Scheduling, Kind: MissingFactor},
				{Input: InputFactor, Factor: Runtime, Kind: FactorOutOfRange, Value: 1.5, Limit: 1},
				{Input: InputFactor, Factor: Program, Kind: NotFinite, Value: nan},
				{Input: InputCeiling, Factor: Program, Kind: CeilingOutOfRange, Value: -1},
				{Input: InputDevices, Kind: NegativeValue, Value: -1},
				{Input: InputHours, Kind: NotFinite, Value: inf},
				{Input: InputRate, Kind: NegativeValue, Value: -3},
			},
			message: "goodput: Inputs.Factors[Scheduling] is not set; " +
				"goodput: Inputs.Factors[Runtime] is 1.5, above 1; " +
				"goodput: Inputs.Factors[Program] is NaN, not a finite number; " +
				"goodput: Inputs.Ceilings[Program] is -1, below 0; " +
				"goodput: Inputs.Devices is -1, below 0; " +
				"goodput: Inputs.Hours is +Inf, not a finite number; " +
				"goodput: Inputs.Rate is -3, below 0",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Solve(tt.in)
			if diff := cmp.Diff(Result{}, got); diff != "" {
				t.Errorf("Solve returned a non-zero Result on error (-want +got):\n%s", diff)
			}
			var errs InputErrors
			if !errors.As(err, &errs) {
				t.Fatalf("Solve error = %v (%T), want InputErrors", err, err)
			}
			if diff := cmp.Diff(tt.want, errs, cmpopts.EquateNaNs(), approx); diff != "" {
				t.Errorf("InputErrors mismatch (-want +got):\n%s", diff)
			}
			var first *InputError
			if !errors.As(err, &first) || first != errs[0] {
				t.Errorf("errors.As(*InputError) = %v, want the first error %v", first, errs[0])
			}
			if msg := err.Error(); msg != tt.message {
				t.Errorf("message = %q, want %q", msg, tt.message)
			}
		})
	}
}

func TestDivisionErrors(t *testing.T) {
	solve := func(in Inputs) Result {
		t.Helper()
		r, err := Solve(in)
		if err != nil {
			t.Fatalf("Solve: %v", err)
		}
		return r
	}
	zero := solve(Inputs{
		Factors:  factors(0.5, 0.5, 0),
		Ceilings: [NumFactors]Optional{{}, {}, Some(1)},
		Devices:  1, Hours: 1, Rate: Some(1),
	})
	ref := solve(reference())
	noRate := reference()
	noRate.Rate = Optional{}
	unpriced := solve(noRate)
	one := solve(Inputs{Factors: factors(1, 1, 1)})
	tiny := solve(Inputs{Factors: factors(1e-200, 1e-100, 1e-10), Ceilings: factors(1, 1, 1), Rate: Some(1e10)})
	tests := []struct {
		name    string
		call    func() (float64, error)
		want    *DivisionError
		message string
	}{
		{"cost per useful hour, no rate", unpriced.CostPerUsefulHour,
			&DivisionError{Quantity: QuantityCostPerUsefulHour, MPG: 0.28215, Reason: ErrNoRate},
			"goodput: CostPerUsefulHour is undefined: Inputs.Rate is not set"},
		{"cost per useful hour, zero mpg", zero.CostPerUsefulHour,
			&DivisionError{Quantity: QuantityCostPerUsefulHour, Numerator: 1, Reason: ErrZeroMPG},
			"goodput: CostPerUsefulHour is undefined: MPG is 0"},
		{"headroom, zero mpg", zero.Headroom,
			&DivisionError{Quantity: QuantityHeadroom, Numerator: 0.25, Reason: ErrZeroMPG},
			"goodput: Headroom is undefined: MPG is 0"},
		{"trade ratio, zero baseline", func() (float64, error) { return TradeRatio(zero, ref) },
			&DivisionError{Quantity: QuantityTradeRatio, Numerator: 0.28215, Reason: ErrZeroMPG},
			"goodput: TradeRatio is undefined: a.MPG is 0"},
		{"cost per useful hour overflows", tiny.CostPerUsefulHour,
			&DivisionError{Quantity: QuantityCostPerUsefulHour, Numerator: 1e10, MPG: 1e-310, Reason: ErrOverflow},
			"goodput: CostPerUsefulHour is undefined: 1e+10 / MPG 1e-310 overflows a float64"},
		{"headroom overflows", tiny.Headroom,
			&DivisionError{Quantity: QuantityHeadroom, Numerator: 1, MPG: 1e-310, Reason: ErrOverflow},
			"goodput: Headroom is undefined: 1 / MPG 1e-310 overflows a float64"},
		{"trade ratio overflows", func() (float64, error) { return TradeRatio(tiny, one) },
			&DivisionError{Quantity: QuantityTradeRatio, Numerator: 1, MPG: 1e-310, Reason: ErrOverflow},
			"goodput: TradeRatio is undefined: 1 / a.MPG 1e-310 overflows a float64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.call()
			if got != 0 {
				t.Errorf("value = %v, want 0", got)
			}
			var de *DivisionError
			if !errors.As(err, &de) {
				t.Fatalf("error = %v (%T), want *DivisionError", err, err)
			}
			if diff := cmp.Diff(*tt.want, *de, cmpopts.EquateErrors(), approx); diff != "" {
				t.Errorf("DivisionError mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, tt.want.Reason) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.want.Reason)
			}
			if err.Error() != tt.message {
				t.Errorf("message = %q, want %q", err.Error(), tt.message)
			}
		})
	}

	// A zero-mpg result is a valid second argument.
	if got, err := TradeRatio(ref, zero); err != nil || got != 0 {
		t.Errorf("TradeRatio(ref, zero) = %v, %v; want 0, nil", got, err)
	}
}

func TestEnumStrings(t *testing.T) {
	var got []string
	for k := MissingFactor; k <= Overflow+1; k++ {
		got = append(got, k.String())
	}
	for i := InputFactor; i <= InputRate+1; i++ {
		got = append(got, i.String())
	}
	for q := QuantityCostPerUsefulHour; q <= QuantityTradeRatio+1; q++ {
		got = append(got, q.String())
	}
	got = append(got, ErrorKind(-1).String(), Input(-1).String(), Quantity(-1).String())
	want := []string{
		"MissingFactor", "NotFinite", "FactorOutOfRange", "CeilingOutOfRange",
		"CeilingBelowFactor", "NegativeValue", "Overflow", "ErrorKind(7)",
		"Factors", "Ceilings", "Devices", "Hours", "Rate", "Input(5)",
		"CostPerUsefulHour", "Headroom", "TradeRatio", "Quantity(3)",
		"ErrorKind(-1)", "Input(-1)", "Quantity(-1)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
}

// TestMessagesOfMalformedErrors checks that an InputError or DivisionError
// built by hand with values Solve never produces still has a message.
func TestMessagesOfMalformedErrors(t *testing.T) {
	got := []string{
		(&InputError{Input: InputDevices, Kind: 42, Value: 3}).Error(),
		(&InputError{Input: InputCeiling, Factor: 9, Kind: MissingFactor}).Error(),
		(&DivisionError{Quantity: QuantityHeadroom, Reason: errors.New("some reason")}).Error(),
	}
	want := []string{
		"goodput: Inputs.Devices is 3: ErrorKind(42)",
		"goodput: Inputs.Ceilings[Factor(9)] is not set",
		"goodput: Headroom is undefined: some reason",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages mismatch (-want +got):\n%s", diff)
	}
}
