package reliability

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Times in seconds.
const (
	second = 1.0
	minute = 60 * second
	hour   = 60 * minute
)

// tolerance is the relative error allowed between a computed value and the
// expected one written below to 12 or more significant digits: well above
// float64 rounding (~1e-16 per operation), well below any error of formula.
const tolerance = 1e-11

var approx = cmpopts.EquateApprox(tolerance, 0)

// call is one function call, for table tests.
type call func() (float64, error)

func TestValues(t *testing.T) {
	tests := []struct {
		name string
		call call
		want float64 // in the unit below
		unit float64 // seconds per unit of want; 1 for counts
	}{
		{"young_interval(5min, 24h) is 120 min",
			func() (float64, error) { return YoungInterval(5*minute, 24*hour) }, 120, minute},
		{"young_interval(60s, 5760s)",
			func() (float64, error) { return YoungInterval(60, 5760) }, 831.384387633061, second},
		{"daly_interval(5min, 24h)",
			func() (float64, error) { return DalyInterval(5*minute, 24*hour) }, 116.689814814815, minute},
		{"daly_interval(5min, 6h)",
			func() (float64, error) { return DalyInterval(5*minute, 6*hour) }, 56.7129629629630, minute},
		{"daly_interval(5min, 15min)",
			func() (float64, error) { return DalyInterval(5*minute, 15*minute) }, 9.14091998639581, minute},
		{"daly_interval is M when δ = 2M",
			func() (float64, error) { return DalyInterval(10*minute, 5*minute) }, 5, minute},
		{"daly_interval is M when δ > 2M",
			func() (float64, error) { return DalyInterval(1*hour, 5*minute) }, 5, minute},
		{"runtime_goodput(5760s, 60s, 300s) at Young's interval",
			func() (float64, error) { return RuntimeGoodputYoung(5760, 60, 300) }, 0.803579099369260, 1},
		{"runtime_goodput(5760s, 60s, 300s, 831.384387633061s) is the same",
			func() (float64, error) { return RuntimeGoodput(5760, 60, 300, 831.384387633061) }, 0.803579099369260, 1},
		{"runtime_goodput with an interval of one MTBF",
			// 1 − 60/5760 − (2880 + 0)/5760 = 1 − 1/96 − 1/2
			func() (float64, error) { return RuntimeGoodput(5760, 60, 0, 5760) }, 0.5 - 1.0/96, 1},
		{"runtime_goodput exactly 0 is allowed",
			// 1 − 1/2 − (2/2 + 0)/2 = 0
			func() (float64, error) { return RuntimeGoodput(2, 1, 0, 2) }, 0, 1},
		{"fleet_mtbf(10000 at 20000h, 1250 at 10000h) is 1.6 h",
			func() (float64, error) {
				return FleetMTBF(Part{Count: 10000, MTBF: 20000 * hour}, Part{Count: 1250, MTBF: 10000 * hour})
			}, 1.6, hour},
		{"fleet_mtbf ignores parts with count 0",
			func() (float64, error) { return FleetMTBF(Part{Count: 0, MTBF: 1}, Part{Count: 4, MTBF: 8 * hour}) }, 2, hour},
		{"fleet_mtbf of one part",
			func() (float64, error) { return FleetMTBF(Part{Count: 1, MTBF: 3 * hour}) }, 3, hour},
		{"mfu(1e6 tokens/s, 70e9 params, 1024 devices, 989 TFLOP/s)",
			func() (float64, error) { return MFU(1e6, 70e9, 1024, 989e12) }, 0.414718149646107, 1},
		{"mfu with no throughput is 0",
			func() (float64, error) { return MFU(0, 70e9, 1024, 989e12) }, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.call()
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got/tt.unit, approx); diff != "" {
				t.Errorf("value mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPublishedValues checks the values language.md section 17 states
// (rounded to the precision it prints) and those Daly (2006) publishes
// (117, 57 and 9.1 minutes), from the same computation.
func TestPublishedValues(t *testing.T) {
	round := func(v float64, digits int) float64 {
		p := math.Pow(10, float64(digits))
		return math.Round(v*p) / p
	}
	type check struct {
		Name      string
		Rounded   float64 // to the digits the design states
		Published float64 // to the digits the paper prints; 0 when not in the paper
	}
	daly := func(mtbf float64) float64 {
		v, err := DalyInterval(5*minute, mtbf)
		if err != nil {
			t.Fatalf("DalyInterval: %v", err)
		}
		return v / minute
	}
	must := func(v float64, err error) float64 {
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	d24, d6, d15 := daly(24*hour), daly(6*hour), daly(15*minute)
	tau := must(YoungInterval(60, 5760))
	got := []check{
		{"young_interval(5min, 24h) min", round(must(YoungInterval(5*minute, 24*hour))/minute, 2), 0},
		{"daly_interval(5min, 24h) min", round(d24, 2), round(d24, 0)},
		{"daly_interval(5min, 6h) min", round(d6, 2), round(d6, 0)},
		{"daly_interval(5min, 15min) min", round(d15, 2), round(d15, 1)},
		{"tau for runtime_goodput s", round(tau, 2), 0},
		{"runtime_goodput(5760s, 60s, 300s)", round(must(RuntimeGoodputYoung(5760, 60, 300)), 5), 0},
		{"fleet_mtbf h", round(must(FleetMTBF(Part{10000, 20000 * hour}, Part{1250, 10000 * hour}))/hour, 2), 0},
		{"mfu", round(must(MFU(1e6, 70e9, 1024, 989e12)), 5), 0},
	}
	want := []check{
		{"young_interval(5min, 24h) min", 120, 0},
		{"daly_interval(5min, 24h) min", 116.69, 117},
		{"daly_interval(5min, 6h) min", 56.71, 57},
		{"daly_interval(5min, 15min) min", 9.14, 9.1},
		{"tau for runtime_goodput s", 831.38, 0},
		{"runtime_goodput(5760s, 60s, 300s)", 0.80358, 0},
		{"fleet_mtbf h", 1.6, 0},
		{"mfu", 0.41472, 0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("published values mismatch (-want +got):\n%s", diff)
	}
}

func TestErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name    string
		call    call
		want    Error
		message string
	}{
		{"young: zero delta", func() (float64, error) { return YoungInterval(0, hour) },
			Error{Func: FuncYoungInterval, Arg: ArgDelta, Kind: NotPositive},
			"reliability: YoungInterval: delta is 0, not above 0"},
		{"young: negative mtbf", func() (float64, error) { return YoungInterval(minute, -hour) },
			Error{Func: FuncYoungInterval, Arg: ArgMTBF, Kind: NotPositive, Value: -hour},
			"reliability: YoungInterval: mtbf is -3600, not above 0"},
		{"young: NaN delta", func() (float64, error) { return YoungInterval(nan, hour) },
			Error{Func: FuncYoungInterval, Arg: ArgDelta, Kind: NotFinite, Value: nan},
			"reliability: YoungInterval: delta is NaN, not a finite number"},
		{"young: infinite mtbf", func() (float64, error) { return YoungInterval(minute, inf) },
			Error{Func: FuncYoungInterval, Arg: ArgMTBF, Kind: NotFinite, Value: inf},
			"reliability: YoungInterval: mtbf is +Inf, not a finite number"},
		{"young: delta is checked before mtbf", func() (float64, error) { return YoungInterval(-1, 0) },
			Error{Func: FuncYoungInterval, Arg: ArgDelta, Kind: NotPositive, Value: -1},
			"reliability: YoungInterval: delta is -1, not above 0"},
		{"young: overflow", func() (float64, error) { return YoungInterval(1e300, 1e300) },
			Error{Func: FuncYoungInterval, Arg: ArgNone, Kind: Overflow, Value: inf},
			"reliability: YoungInterval: the result is +Inf, too large for a float64"},
		{"daly: zero mtbf", func() (float64, error) { return DalyInterval(minute, 0) },
			Error{Func: FuncDalyInterval, Arg: ArgMTBF, Kind: NotPositive},
			"reliability: DalyInterval: mtbf is 0, not above 0"},
		{"daly: infinite delta", func() (float64, error) { return DalyInterval(math.Inf(-1), hour) },
			Error{Func: FuncDalyInterval, Arg: ArgDelta, Kind: NotFinite, Value: math.Inf(-1)},
			"reliability: DalyInterval: delta is -Inf, not a finite number"},
		{"daly: overflow", func() (float64, error) { return DalyInterval(1e300, 1e301) },
			Error{Func: FuncDalyInterval, Arg: ArgNone, Kind: Overflow, Value: inf},
			"reliability: DalyInterval: the result is +Inf, too large for a float64"},
		{"runtime goodput: zero mtbf", func() (float64, error) { return RuntimeGoodput(0, 60, 300, 800) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgMTBF, Kind: NotPositive},
			"reliability: RuntimeGoodput: mtbf is 0, not above 0"},
		{"runtime goodput: negative delta", func() (float64, error) { return RuntimeGoodput(5760, -60, 300, 800) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgDelta, Kind: NotPositive, Value: -60},
			"reliability: RuntimeGoodput: delta is -60, not above 0"},
		{"runtime goodput: negative restart", func() (float64, error) { return RuntimeGoodput(5760, 60, -1, 800) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgRestart, Kind: Negative, Value: -1},
			"reliability: RuntimeGoodput: restart is -1, below 0"},
		{"runtime goodput: NaN restart", func() (float64, error) { return RuntimeGoodput(5760, 60, nan, 800) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgRestart, Kind: NotFinite, Value: nan},
			"reliability: RuntimeGoodput: restart is NaN, not a finite number"},
		{"runtime goodput: zero interval", func() (float64, error) { return RuntimeGoodput(5760, 60, 300, 0) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgTau, Kind: NotPositive},
			"reliability: RuntimeGoodput: tau is 0, not above 0"},
		{"runtime goodput: infinite interval", func() (float64, error) { return RuntimeGoodput(5760, 60, 300, inf) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgTau, Kind: NotFinite, Value: inf},
			"reliability: RuntimeGoodput: tau is +Inf, not a finite number"},
		{"runtime goodput: below 0",
			// 1 − 60/600 − (600/2 + 700)/1000 = 1 − 0.1 − 1 = −0.1
			func() (float64, error) { return RuntimeGoodput(1000, 60, 700, 600) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgNone, Kind: NegativeGoodput, Value: 1 - 0.1 - 1.0},
			"reliability: RuntimeGoodput: the goodput would be -0.1, below 0: failures come faster than checkpointed progress"},
		{"runtime goodput young: restart longer than the MTBF",
			func() (float64, error) { return RuntimeGoodputYoung(5760, 60, 6000) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgNone, Kind: NegativeGoodput,
				Value: 1 - 60/831.384387633061 - (831.384387633061/2+6000)/5760},
			"reliability: RuntimeGoodput: the goodput would be -0.186, below 0: failures come faster than checkpointed progress"},
		{"runtime goodput young: zero delta", func() (float64, error) { return RuntimeGoodputYoung(5760, 0, 300) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgDelta, Kind: NotPositive},
			"reliability: RuntimeGoodput: delta is 0, not above 0"},
		{"runtime goodput young: infinite mtbf", func() (float64, error) { return RuntimeGoodputYoung(inf, 60, 300) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgMTBF, Kind: NotFinite, Value: inf},
			"reliability: RuntimeGoodput: mtbf is +Inf, not a finite number"},
		{"runtime goodput young: negative restart", func() (float64, error) { return RuntimeGoodputYoung(5760, 60, -300) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgRestart, Kind: Negative, Value: -300},
			"reliability: RuntimeGoodput: restart is -300, below 0"},
		{"runtime goodput young: interval overflows", func() (float64, error) { return RuntimeGoodputYoung(1e300, 1e300, 0) },
			Error{Func: FuncRuntimeGoodput, Arg: ArgNone, Kind: Overflow, Value: inf},
			"reliability: RuntimeGoodput: the result is +Inf, too large for a float64"},
		{"fleet: no parts", func() (float64, error) { return FleetMTBF() },
			Error{Func: FuncFleetMTBF, Arg: ArgNone, Kind: NoFailures},
			"reliability: FleetMTBF: no part has a count above 0, so the system never fails"},
		{"fleet: every count 0", func() (float64, error) { return FleetMTBF(Part{0, hour}, Part{0, 2 * hour}) },
			Error{Func: FuncFleetMTBF, Arg: ArgNone, Kind: NoFailures},
			"reliability: FleetMTBF: no part has a count above 0, so the system never fails"},
		{"fleet: negative count of the second part", func() (float64, error) { return FleetMTBF(Part{1, hour}, Part{-2, hour}) },
			Error{Func: FuncFleetMTBF, Arg: ArgCount, Part: 1, Kind: Negative, Value: -2},
			"reliability: FleetMTBF: parts[1].Count is -2, below 0"},
		{"fleet: NaN count", func() (float64, error) { return FleetMTBF(Part{nan, hour}) },
			Error{Func: FuncFleetMTBF, Arg: ArgCount, Kind: NotFinite, Value: nan},
			"reliability: FleetMTBF: parts[0].Count is NaN, not a finite number"},
		{"fleet: zero MTBF of the third part", func() (float64, error) { return FleetMTBF(Part{1, hour}, Part{1, hour}, Part{1, 0}) },
			Error{Func: FuncFleetMTBF, Arg: ArgPartMTBF, Part: 2, Kind: NotPositive},
			"reliability: FleetMTBF: parts[2].MTBF is 0, not above 0"},
		{"fleet: infinite MTBF", func() (float64, error) { return FleetMTBF(Part{1, inf}) },
			Error{Func: FuncFleetMTBF, Arg: ArgPartMTBF, Kind: NotFinite, Value: inf},
			"reliability: FleetMTBF: parts[0].MTBF is +Inf, not a finite number"},
		{"fleet: overflow", func() (float64, error) { return FleetMTBF(Part{1e-300, 1e10}) },
			Error{Func: FuncFleetMTBF, Arg: ArgNone, Kind: Overflow, Value: inf},
			"reliability: FleetMTBF: the result is +Inf, too large for a float64"},
		{"fleet: a failure rate that underflows to 0 is an overflow, not no failures",
			func() (float64, error) { return FleetMTBF(Part{0, hour}, Part{1e-300, 1e300}) },
			Error{Func: FuncFleetMTBF, Arg: ArgNone, Kind: Overflow, Value: inf},
			"reliability: FleetMTBF: the result is +Inf, too large for a float64"},
		{"mfu: negative throughput", func() (float64, error) { return MFU(-1, 70e9, 1024, 989e12) },
			Error{Func: FuncMFU, Arg: ArgTokensPerSecond, Kind: Negative, Value: -1},
			"reliability: MFU: tokensPerSecond is -1, below 0"},
		{"mfu: NaN params", func() (float64, error) { return MFU(1e6, nan, 1024, 989e12) },
			Error{Func: FuncMFU, Arg: ArgParams, Kind: NotFinite, Value: nan},
			"reliability: MFU: params is NaN, not a finite number"},
		{"mfu: negative params", func() (float64, error) { return MFU(1e6, -7, 1024, 989e12) },
			Error{Func: FuncMFU, Arg: ArgParams, Kind: Negative, Value: -7},
			"reliability: MFU: params is -7, below 0"},
		{"mfu: zero devices", func() (float64, error) { return MFU(1e6, 70e9, 0, 989e12) },
			Error{Func: FuncMFU, Arg: ArgDevices, Kind: NotPositive},
			"reliability: MFU: devices is 0, not above 0"},
		{"mfu: zero peak", func() (float64, error) { return MFU(1e6, 70e9, 1024, 0) },
			Error{Func: FuncMFU, Arg: ArgPeak, Kind: NotPositive},
			"reliability: MFU: peakFLOPPerSecond is 0, not above 0"},
		{"mfu: infinite peak", func() (float64, error) { return MFU(1e6, 70e9, 1024, inf) },
			Error{Func: FuncMFU, Arg: ArgPeak, Kind: NotFinite, Value: inf},
			"reliability: MFU: peakFLOPPerSecond is +Inf, not a finite number"},
		{"mfu: overflow", func() (float64, error) { return MFU(1e300, 1e300, 1, 1) },
			Error{Func: FuncMFU, Arg: ArgNone, Kind: Overflow, Value: inf},
			"reliability: MFU: the result is +Inf, too large for a float64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.call()
			if got != 0 {
				t.Errorf("value = %v, want 0 with an error", got)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error = %v (%T), want *Error", err, err)
			}
			if diff := cmp.Diff(tt.want, *e, cmpopts.EquateNaNs(), cmpopts.EquateApprox(tolerance, 0)); diff != "" {
				t.Errorf("Error mismatch (-want +got):\n%s", diff)
			}
			if msg := err.Error(); msg != tt.message {
				t.Errorf("message = %q, want %q", msg, tt.message)
			}
		})
	}
}

func TestEnumStrings(t *testing.T) {
	var got []string
	for f := FuncYoungInterval; f <= FuncMFU+1; f++ {
		got = append(got, f.String())
	}
	for a := ArgNone; a <= ArgPeak+1; a++ {
		got = append(got, a.String())
	}
	for k := NotFinite; k <= Overflow+1; k++ {
		got = append(got, k.String())
	}
	got = append(got, Func(-1).String(), Arg(-1).String(), ErrorKind(-1).String(),
		(&Error{Func: FuncMFU, Arg: ArgParams, Kind: 42, Value: 3}).Error())
	want := []string{
		"YoungInterval", "DalyInterval", "RuntimeGoodput", "FleetMTBF", "MFU", "Func(5)",
		"the result", "delta", "mtbf", "restart", "tau", "Count", "MTBF",
		"tokensPerSecond", "params", "devices", "peakFLOPPerSecond", "Arg(11)",
		"NotFinite", "NotPositive", "Negative", "NegativeGoodput", "NoFailures", "Overflow", "ErrorKind(6)",
		"Func(-1)", "Arg(-1)", "ErrorKind(-1)",
		"reliability: MFU: params is 3: ErrorKind(42)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
}

var sink float64

func BenchmarkYoungInterval(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		v, err := YoungInterval(5*minute, 24*hour)
		if err != nil {
			b.Fatal(err)
		}
		sink = v
	}
}

func BenchmarkDalyInterval(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		v, err := DalyInterval(5*minute, 24*hour)
		if err != nil {
			b.Fatal(err)
		}
		sink = v
	}
}

func BenchmarkRuntimeGoodput(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		v, err := RuntimeGoodput(5760, 60, 300, 831.38)
		if err != nil {
			b.Fatal(err)
		}
		sink = v
	}
}

func BenchmarkRuntimeGoodputYoung(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		v, err := RuntimeGoodputYoung(5760, 60, 300)
		if err != nil {
			b.Fatal(err)
		}
		sink = v
	}
}

func BenchmarkFleetMTBF(b *testing.B) {
	parts := []Part{{10000, 20000 * hour}, {1250, 10000 * hour}}
	b.ReportAllocs()
	for b.Loop() {
		v, err := FleetMTBF(parts...)
		if err != nil {
			b.Fatal(err)
		}
		sink = v
	}
}

func BenchmarkMFU(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		v, err := MFU(1e6, 70e9, 1024, 989e12)
		if err != nil {
			b.Fatal(err)
		}
		sink = v
	}
}
