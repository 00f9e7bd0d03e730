package goodput

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// approx compares floats to within 1e-12, relative or absolute: a relative
// term is needed because dollar amounts such as 165392.64 are only within a
// few ulps (~3e-11 absolute) of their decimal literals.
var approx = cmpopts.EquateApprox(1e-12, 1e-12)

// reference is the worked example: a 128-device pool for 720 h at 2.50 USD.
func reference() Inputs {
	return Inputs{
		Factors:  [NumFactors]Optional{Some(0.95), Some(0.90), Some(0.33)},
		Ceilings: [NumFactors]Optional{Some(0.98), Some(0.95), Some(0.45)},
		Devices:  128,
		Hours:    720,
		Rate:     Some(2.50),
	}
}

func factors(s, r, p float64) [NumFactors]Optional {
	return [NumFactors]Optional{Some(s), Some(r), Some(p)}
}

func TestSolveReference(t *testing.T) {
	in := reference()
	got, err := Solve(in)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	want := Result{
		Inputs:          in,
		MPG:             0.28215,
		Badput:          0.71785,
		Loss:            [NumFactors]float64{0.05, 0.095, 0.57285},
		OfferedHours:    92160,
		HeldHours:       87552,
		ProductiveHours: 78796.8,
		UsefulHours:     26002.944,
		LossHours:       [NumFactors]float64{4608, 8755.2, 52793.856},
		Cost:            230400,
		BadputCost:      165392.64,
		LossCost:        [NumFactors]float64{11520, 21888, 131984.64},
		HasCost:         true,
		Lever:           [NumFactors]float64{0.29106, 0.297825, 0.38475},
		Gain:            [NumFactors]float64{0.00891, 0.015675, 0.1026},
		GainHours:       [NumFactors]float64{821.1456, 1444.608, 9455.616},
		// cost × gain / lever = cost × (1 − mpg / lever)
		Saving:       [NumFactors]float64{230400 * 0.00891 / 0.29106, 230400 * 0.015675 / 0.297825, 61440},
		BestLever:    Program,
		HasBestLever: true,
		CeilingMPG:   0.41895,
	}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("Solve(reference) mismatch (-want +got):\n%s", diff)
	}

	type derived struct{ CostPerUsefulHour, Headroom, TradeRatio float64 }
	var d derived
	if d.CostPerUsefulHour, err = got.CostPerUsefulHour(); err != nil {
		t.Fatalf("CostPerUsefulHour: %v", err)
	}
	if d.Headroom, err = got.Headroom(); err != nil {
		t.Fatalf("Headroom: %v", err)
	}
	if d.TradeRatio, err = TradeRatio(got, got); err != nil {
		t.Fatalf("TradeRatio: %v", err)
	}
	wantD := derived{
		CostPerUsefulHour: 2.5 / 0.28215, // 8.8605...
		Headroom:          0.41895 / 0.28215,
		TradeRatio:        1,
	}
	if diff := cmp.Diff(wantD, d, approx); diff != "" {
		t.Errorf("derived values mismatch (-want +got):\n%s", diff)
	}
	if math.Abs(d.CostPerUsefulHour-8.8605) > 1e-4 || math.Abs(d.Headroom-1.48485) > 1e-5 {
		t.Errorf("derived = %+v, want about 8.8605 and 1.48485", d)
	}
	if d.CostPerUsefulHour != got.Cost/got.UsefulHours && math.Abs(d.CostPerUsefulHour-got.Cost/got.UsefulHours) > 1e-12 {
		t.Errorf("CostPerUsefulHour %v != Cost/UsefulHours %v", d.CostPerUsefulHour, got.Cost/got.UsefulHours)
	}
}

func TestSolve(t *testing.T) {
	tests := []struct {
		name string
		in   Inputs
		want Result
	}{
		{
			name: "no ceilings, no rate",
			in:   Inputs{Factors: factors(0.5, 0.5, 0.5), Devices: 4, Hours: 10},
			want: Result{
				MPG: 0.125, Badput: 0.875,
				Loss:         [NumFactors]float64{0.5, 0.25, 0.125},
				OfferedHours: 40, HeldHours: 20, ProductiveHours: 10, UsefulHours: 5,
				LossHours:  [NumFactors]float64{20, 10, 5},
				Lever:      [NumFactors]float64{0.125, 0.125, 0.125},
				CeilingMPG: 0.125,
			},
		},
		{
			name: "ceilings equal to factors give exactly zero gain",
			in: Inputs{
				Factors:  factors(0.95, 0.9, 0.33),
				Ceilings: factors(0.95, 0.9, 0.33),
				Devices:  1, Hours: 1,
			},
			want: Result{
				MPG: 0.95 * 0.9 * 0.33, Badput: 1 - 0.95*0.9*0.33,
				Loss:         [NumFactors]float64{1 - 0.95, 0.95 * (1 - 0.9), 0.95 * 0.9 * (1 - 0.33)},
				OfferedHours: 1, HeldHours: 0.95, ProductiveHours: 0.95 * 0.9, UsefulHours: 0.95 * 0.9 * 0.33,
				LossHours:  [NumFactors]float64{1 - 0.95, 0.95 * (1 - 0.9), 0.95 * 0.9 * (1 - 0.33)},
				Lever:      [NumFactors]float64{0.95 * 0.9 * 0.33, 0.95 * 0.9 * 0.33, 0.95 * 0.9 * 0.33},
				CeilingMPG: 0.95 * 0.9 * 0.33,
			},
		},
		{
			name: "tie between S and R resolves to S",
			in: Inputs{
				Factors:  factors(0.5, 0.5, 0.5),
				Ceilings: factors(1, 1, 0.5),
				Devices:  2, Hours: 3, Rate: Some(0),
			},
			want: Result{
				MPG: 0.125, Badput: 0.875,
				Loss:         [NumFactors]float64{0.5, 0.25, 0.125},
				OfferedHours: 6, HeldHours: 3, ProductiveHours: 1.5, UsefulHours: 0.75, HasCost: true,
				LossHours: [NumFactors]float64{3, 1.5, 0.75},
				Lever:     [NumFactors]float64{0.25, 0.25, 0.125},
				Gain:      [NumFactors]float64{0.125, 0.125, 0},
				GainHours: [NumFactors]float64{0.75, 0.75, 0},
				BestLever: Scheduling, HasBestLever: true,
				CeilingMPG: 0.5,
			},
		},
		{
			name: "tie between R and P resolves to R",
			in: Inputs{
				Factors:  factors(0.5, 0.5, 0.5),
				Ceilings: [NumFactors]Optional{{}, Some(1), Some(1)},
				Devices:  1, Hours: 1,
			},
			want: Result{
				MPG: 0.125, Badput: 0.875,
				Loss:         [NumFactors]float64{0.5, 0.25, 0.125},
				OfferedHours: 1, HeldHours: 0.5, ProductiveHours: 0.25, UsefulHours: 0.125,
				LossHours: [NumFactors]float64{0.5, 0.25, 0.125},
				Lever:     [NumFactors]float64{0.125, 0.25, 0.25},
				Gain:      [NumFactors]float64{0, 0.125, 0.125},
				GainHours: [NumFactors]float64{0, 0.125, 0.125},
				BestLever: Runtime, HasBestLever: true,
				CeilingMPG: 0.5,
			},
		},
		{
			name: "only a runtime ceiling",
			in: Inputs{
				Factors:  factors(1, 0.5, 1),
				Ceilings: [NumFactors]Optional{{}, Some(0.75), {}},
				Devices:  8, Hours: 2, Rate: Some(3),
			},
			want: Result{
				MPG: 0.5, Badput: 0.5,
				Loss:         [NumFactors]float64{0, 0.5, 0},
				OfferedHours: 16, HeldHours: 16, ProductiveHours: 8, UsefulHours: 8,
				LossHours: [NumFactors]float64{0, 8, 0},
				Cost:      48, BadputCost: 24, HasCost: true,
				LossCost:  [NumFactors]float64{0, 24, 0},
				Lever:     [NumFactors]float64{0.5, 0.75, 0.5},
				Gain:      [NumFactors]float64{0, 0.25, 0},
				GainHours: [NumFactors]float64{0, 4, 0},
				Saving:    [NumFactors]float64{0, 16, 0}, // 48 × (1 − 0.5/0.75)
				BestLever: Runtime, HasBestLever: true,
				CeilingMPG: 0.75,
			},
		},
		{
			name: "zero mpg, every lever 0: savings are 0",
			in: Inputs{
				Factors:  factors(0.9, 0, 0.5),
				Ceilings: [NumFactors]Optional{Some(1), {}, Some(1)},
				Devices:  10, Hours: 10, Rate: Some(1),
			},
			want: Result{
				MPG: 0, Badput: 1,
				Loss:         [NumFactors]float64{0.1, 0.9, 0},
				OfferedHours: 100, HeldHours: 90,
				LossHours: [NumFactors]float64{10, 90, 0},
				Cost:      100, BadputCost: 100, HasCost: true,
				LossCost:   [NumFactors]float64{10, 90, 0},
				CeilingMPG: 0,
			},
		},
		{
			name: "zero mpg, a program ceiling saves the whole cost",
			in: Inputs{
				Factors:  factors(0.5, 0.5, 0),
				Ceilings: [NumFactors]Optional{{}, {}, Some(1)},
				Devices:  5, Hours: 2, Rate: Some(2),
			},
			want: Result{
				MPG: 0, Badput: 1,
				Loss:         [NumFactors]float64{0.5, 0.25, 0.25},
				OfferedHours: 10, HeldHours: 5, ProductiveHours: 2.5,
				LossHours: [NumFactors]float64{5, 2.5, 2.5},
				Cost:      20, BadputCost: 20, HasCost: true,
				LossCost:  [NumFactors]float64{10, 5, 5},
				Lever:     [NumFactors]float64{0, 0, 0.25},
				Gain:      [NumFactors]float64{0, 0, 0.25},
				GainHours: [NumFactors]float64{0, 0, 2.5},
				Saving:    [NumFactors]float64{0, 0, 20},
				BestLever: Program, HasBestLever: true,
				CeilingMPG: 0.25,
			},
		},
		{
			name: "empty pool",
			in:   Inputs{Factors: factors(1, 1, 1), Rate: Some(5)},
			want: Result{MPG: 1, HasCost: true, Lever: [NumFactors]float64{1, 1, 1}, CeilingMPG: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Solve(tt.in)
			if err != nil {
				t.Fatalf("Solve: %v", err)
			}
			tt.want.Inputs = tt.in
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("Solve mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExactZeroGain checks that a ceiling equal to its factor gives a gain of
// exactly 0 (not merely approximately), for factors whose products round.
func TestExactZeroGain(t *testing.T) {
	for _, f := range [][3]float64{{0.95, 0.9, 0.33}, {0.1, 0.2, 0.3}, {0.7, 0.3, 0.9}, {1.0 / 3, 2.0 / 3, 0.999}} {
		in := Inputs{Factors: factors(f[0], f[1], f[2]), Ceilings: factors(f[0], f[1], f[2])}
		r, err := Solve(in)
		if err != nil {
			t.Fatalf("Solve(%v): %v", f, err)
		}
		if r.Gain != ([NumFactors]float64{}) || r.HasBestLever || r.CeilingMPG != r.MPG {
			t.Errorf("Solve(%v): Gain = %v, HasBestLever = %v, CeilingMPG-MPG = %g; want exact zeros",
				f, r.Gain, r.HasBestLever, r.CeilingMPG-r.MPG)
		}
	}
}

func TestLossesSumToOne(t *testing.T) {
	tests := []struct {
		name    string
		s, r, p float64
	}{
		{"reference", 0.95, 0.90, 0.33},
		{"perfect", 1, 1, 1},
		{"nothing scheduled", 0, 0.5, 0.5},
		{"thirds", 1.0 / 3, 2.0 / 3, 1.0 / 3},
		{"small", 0.01, 0.02, 0.03},
		{"near one", 0.999999, 0.999998, 0.999997},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Solve(Inputs{Factors: factors(tt.s, tt.r, tt.p), Devices: 1, Hours: 1})
			if err != nil {
				t.Fatalf("Solve: %v", err)
			}
			sum := r.Loss[Scheduling] + r.Loss[Runtime] + r.Loss[Program] + r.MPG
			if math.Abs(sum-1) > 1e-15 {
				t.Errorf("losses %v + mpg %v = %v, want 1", r.Loss, r.MPG, sum)
			}
			if got := r.MPG + r.Badput; math.Abs(got-1) > 1e-15 {
				t.Errorf("mpg + badput = %v, want 1", got)
			}
		})
	}
}

func TestUnsetRateIsIgnored(t *testing.T) {
	in := reference()
	in.Rate = Optional{Value: math.NaN()} // unset: the value is never read
	r, err := Solve(in)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if r.HasCost || r.Cost != 0 || r.BadputCost != 0 {
		t.Errorf("HasCost, Cost, BadputCost = %v, %v, %v; want false, 0, 0", r.HasCost, r.Cost, r.BadputCost)
	}
	_, err = r.CostPerUsefulHour()
	if !errors.Is(err, ErrNoRate) {
		t.Errorf("CostPerUsefulHour error = %v, want ErrNoRate", err)
	}
}

func TestTradeRatio(t *testing.T) {
	a, err := Solve(Inputs{Factors: factors(0.9, 0.8, 0.25)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Solve(Inputs{Factors: factors(0.9, 0.8, 0.5)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := TradeRatio(a, b)
	if err != nil || math.Abs(got-2) > 1e-12 {
		t.Errorf("TradeRatio(a, b) = %v, %v; want 2, nil", got, err)
	}
}

func TestFactorNames(t *testing.T) {
	type names struct{ String, Short string }
	got := map[Factor]names{}
	for f := Factor(0); f < NumFactors; f++ {
		got[f] = names{f.String(), f.Short()}
	}
	want := map[Factor]names{
		Scheduling: {"scheduling", "S"},
		Runtime:    {"runtime", "R"},
		Program:    {"program", "P"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
	if s := Factor(7).String(); s != "Factor(7)" {
		t.Errorf("Factor(7).String() = %q", s)
	}
	if s := Factor(-1).Short(); s != "Factor(-1)" {
		t.Errorf("Factor(-1).Short() = %q", s)
	}
}

func TestParseFactor(t *testing.T) {
	type parsed struct {
		F  Factor
		OK bool
	}
	tests := []struct {
		name string
		want parsed
	}{
		{"scheduling", parsed{Scheduling, true}},
		{"runtime", parsed{Runtime, true}},
		{"program", parsed{Program, true}},
		{"S", parsed{Scheduling, true}},
		{"R", parsed{Runtime, true}},
		{"P", parsed{Program, true}},
		{"", parsed{}},
		{"s", parsed{}},
		{"Program", parsed{}},
		{"mpg", parsed{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := ParseFactor(tt.name)
			if diff := cmp.Diff(tt.want, parsed{f, ok}); diff != "" {
				t.Errorf("ParseFactor(%q) mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestNoNonFinite checks that no output of Solve is Inf or NaN over a grid
// of edge values.
func TestNoNonFinite(t *testing.T) {
	vals := []float64{0, math.SmallestNonzeroFloat64, 1e-300, 0.5, 1}
	sizes := []float64{0, 1e-300, 1, 1e150, math.MaxFloat64}
	for _, s := range vals {
		for _, p := range vals {
			for _, d := range sizes {
				in := Inputs{Factors: factors(s, 0.5, p), Ceilings: factors(1, 1, 1), Devices: d, Hours: 1, Rate: Some(1)}
				r, err := Solve(in)
				if err != nil {
					t.Fatalf("Solve(%+v): %v", in, err)
				}
				outputs := []float64{r.MPG, r.Badput, r.OfferedHours, r.HeldHours, r.ProductiveHours,
					r.UsefulHours, r.Cost, r.BadputCost, r.CeilingMPG}
				for f := range NumFactors {
					outputs = append(outputs, r.Loss[f], r.LossHours[f], r.LossCost[f],
						r.Lever[f], r.Gain[f], r.GainHours[f], r.Saving[f])
				}
				for _, v := range outputs {
					if !finite(v) || v < 0 {
						t.Fatalf("Solve(%+v) has output %v", in, v)
					}
				}
				for _, f := range []func() (float64, error){r.CostPerUsefulHour, r.Headroom} {
					if v, err := f(); !finite(v) || (err == nil && v < 0) {
						t.Fatalf("derived value %v, %v", v, err)
					}
				}
			}
		}
	}
}

func BenchmarkSolve(b *testing.B) {
	in := reference()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Solve(in); err != nil {
			b.Fatal(err)
		}
	}
}
