package sampling

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func near(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Abs(want) {
		t.Errorf("%s = %.6g, want %.6g within %.2g%%", what, got, want, rel*100)
	}
}

// TestIntervalClosedForm: 2.5 h to 4 h is lognormal with median √(2.5×4)
// and σ ln(1.6)/(2 z).
func TestIntervalClosedForm(t *testing.T) {
	d, err := Interval(2.5*3600, 4*3600, false)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != LogNormal {
		t.Fatalf("kind %v, want lognormal", d.Kind)
	}
	near(t, "median h", d.Median()/3600, 3.16227766, 1e-9)
	near(t, "sigma", d.B, 0.142871, 1e-5)

	f, _ := Interval(0.38, 0.43, true)
	if f.Kind != LogitNormal {
		t.Fatalf("kind %v, want logit-normal", f.Kind)
	}
	xs := Samples(1, "f", f, 100000)
	s := Summarize(xs)
	near(t, "p5", s.P5, 0.38, 0.003)
	near(t, "p95", s.P95, 0.43, 0.003)
	if s.Min <= 0 || s.Max >= 1 {
		t.Errorf("logit-normal left (0, 1): %g..%g", s.Min, s.Max)
	}
	n, _ := Interval(-1, 3, false)
	if n.Kind != Normal || n.A != 1 || math.Abs(n.B-2/Z90) > 1e-12 {
		t.Errorf("-1 to 3 = %+v", n)
	}
	if _, err := Interval(3, 3, false); err == nil {
		t.Error("3 to 3: no error")
	}
}

// TestProductOfLognormals is language.md's check: S × R × P with R, P
// lognormal is lognormal.
func TestProductOfLognormals(t *testing.T) {
	r, _ := NewLogNormal(0.88, 0.02)
	p, _ := NewLogNormal(0.33, 0.05)
	rs, ps := Samples(1, "R", r, 10000), Samples(1, "P", p, 10000)
	m := make([]float64, len(rs))
	hits := 0
	for i := range m {
		m[i] = 0.95 * rs[i] * ps[i]
		if m[i] >= 0.29 {
			hits++
		}
	}
	s := Summarize(m)
	near(t, "median", s.P50, 0.27588, 0.005)
	near(t, "p10", s.P10, 0.257483, 0.005)
	near(t, "p90", s.P90, 0.295592, 0.005)
	near(t, "mean", s.Mean, 0.276280, 0.005)
	// probability(mpg >= 0.29) = 0.17699; its Monte Carlo error at
	// 10,000 samples is √(p(1−p)/n) = 0.0038, 2%.
	near(t, "P(>=0.29)", float64(hits)/10000, 0.17699, 0.05)
}

func TestSumOfNormals(t *testing.T) {
	a, _ := NewNormal(10, 3)
	b, _ := NewNormal(5, 4)
	as, bs := Samples(7, "a", a, 20000), Samples(7, "b", b, 20000)
	for i := range as {
		as[i] += bs[i]
	}
	s := Summarize(as)
	near(t, "mean", s.Mean, 15, 0.01)
	near(t, "sd", s.SD, 5, 0.02)
}

func TestUniformTriangularBeta(t *testing.T) {
	u, _ := NewUniform(2, 6)
	s := Summarize(Samples(1, "u", u, 20000))
	near(t, "uniform mean", s.Mean, 4, 0.005)
	near(t, "uniform sd", s.SD, 4/math.Sqrt(12), 0.01)
	tr, _ := NewTriangular(0, 1, 4)
	s = Summarize(Samples(1, "t", tr, 20000))
	near(t, "triangular mean", s.Mean, 5.0/3, 0.01)
	near(t, "triangular median", s.P50, tr.Median(), 0.01)
	b, _ := NewBeta(2, 5)
	s = Summarize(Samples(1, "b", b, 20000))
	near(t, "beta mean", s.Mean, 2.0/7, 0.01)
	near(t, "beta sd", s.SD, math.Sqrt(10.0/(49*8)), 0.02)
	b, _ = NewBeta(0.5, 0.5)
	s = Summarize(Samples(1, "b", b, 20000))
	near(t, "beta(½,½) mean", s.Mean, 0.5, 0.02)
}

func TestStreamsAreSeeded(t *testing.T) {
	d, _ := NewNormal(0, 1)
	a, b := Samples(1, "x", d, 100), Samples(1, "x", d, 100)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("sample %d differs: %v, %v", i, a[i], b[i])
		}
	}
	if c := Samples(2, "x", d, 1); c[0] == a[0] {
		t.Error("seed 2 gave seed 1's first sample")
	}
	if c := Samples(1, "y", d, 1); c[0] == a[0] {
		t.Error("key y gave key x's first sample")
	}
}

func TestBadArguments(t *testing.T) {
	for name, err := range map[string]error{
		"normal sd":      func() error { _, e := NewNormal(1, 0); return e }(),
		"lognormal":      func() error { _, e := NewLogNormal(-1, 1); return e }(),
		"uniform":        func() error { _, e := NewUniform(2, 1); return e }(),
		"triangular":     func() error { _, e := NewTriangular(0, 5, 4); return e }(),
		"beta":           func() error { _, e := NewBeta(0, 1); return e }(),
		"interval equal": func() error { _, e := Interval(1, 1, false); return e }(),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	for q, want := range map[float64]float64{0: 1, 0.25: 2, 0.5: 3, 0.9: 4.6, 1: 5} {
		if got := Quantile(xs, q); math.Abs(got-want) > 1e-12 {
			t.Errorf("Quantile(%v) = %v, want %v", q, got, want)
		}
	}
}

func BenchmarkSamples(b *testing.B) {
	d, _ := Interval(2.5*3600, 4*3600, false)
	for b.Loop() {
		Samples(1, "mtbf", d, 10000)
	}
}

// TestSortAsSlicesSort holds the radix sort to slices.Sort's order on
// vectors of every sign and size, with repeats and both zeros.
func TestSortAsSlicesSort(t *testing.T) {
	r := NewRand(7, "sort")
	for _, n := range []int{0, 1, 255, 256, 1000, 10000, 100000} {
		xs := make([]float64, n)
		for i := range xs {
			switch i % 7 {
			case 0:
				xs[i] = r.NormFloat64() * 1e6
			case 1:
				xs[i] = -r.Float64()
			case 2:
				xs[i] = float64(i % 5)
			case 3:
				xs[i] = math.Copysign(0, -1)
			default:
				xs[i] = math.Exp(r.NormFloat64() * 30)
			}
		}
		want := slices.Clone(xs)
		slices.Sort(want)
		Sort(xs)
		for i := range xs {
			if xs[i] != want[i] {
				t.Fatalf("n=%d: at %d got %v, want %v", n, i, xs[i], want[i])
			}
		}
	}
	// Keys that share some digits or all of them, and buckets that must
	// be sorted by their next digit, level after level.
	for name, gen := range map[string]func(i int) float64{
		"an outlier": func(i int) float64 {
			if i == 0 {
				return math.MaxFloat64
			}
			return math.Float64frombits(math.Float64bits(0.3) + uint64(i*7919%3001))
		},
		"two clusters far apart": func(i int) float64 {
			return math.Float64frombits(math.Float64bits(0.3)+uint64(i*104729%2999)) * (1 + float64(i%2)*1e300)
		},
		"few values, many times": func(i int) float64 { return float64(i%3) - 1 },
		"infinities and zeros": func(i int) float64 {
			return []float64{math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), 1}[i%5]
		},
		"one value":     func(int) float64 { return 0.3 },
		"low bits only": func(i int) float64 { return math.Float64frombits(math.Float64bits(0.3) + uint64(i*7919%1000)) },
		"high bits only": func(i int) float64 {
			return math.Float64frombits(math.Float64bits(0.3) + uint64(i%5)<<55)
		},
	} {
		xs := make([]float64, 3000)
		for i := range xs {
			xs[i] = gen(i)
		}
		want := slices.Clone(xs)
		slices.Sort(want)
		Sort(xs)
		if diff := cmp.Diff(want, xs); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// TestMoments holds Summarize's mean and standard deviation to the same
// computed exactly (math/big, 256 bits), beside Welford's recurrence, on
// samples whose deviations are small against their values, spread over
// many orders of magnitude, of both signs around 0, and near the largest
// floats; and to the exact answer on samples all equal.
func TestMoments(t *testing.T) {
	r := NewRand(3, "moments")
	gens := []struct {
		name string
		g    func() float64
	}{
		{"1e9 plus a normal", func() float64 { return 1e9 + r.NormFloat64() }},
		{"lognormal, 30 e-folds", func() float64 { return math.Exp(r.NormFloat64() * 30) }},
		{"a fraction", func() float64 { return 0.28 + 0.01*r.NormFloat64() }},
		{"both signs about 0", func() float64 { return r.NormFloat64() }},
		{"near the largest", func() float64 { return math.MaxFloat64 * (0.5 + r.Float64()/2) }},
	}
	for _, gen := range gens {
		name, g := gen.name, gen.g
		for _, n := range []int{2, 7, 10000} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = g()
			}
			mean, sd := exactMoments(xs)
			s := Summarize(xs)
			wm, wsd := welford(xs)
			tol := 1e-14
			if err := math.Abs(s.Mean-mean) / math.Max(math.Abs(mean), sd); err > tol {
				t.Errorf("%s, n=%d: mean %v, exactly %v (error %.2g of the larger of mean and sd; Welford's %.2g)",
					name, n, s.Mean, mean, err, math.Abs(wm-mean)/math.Max(math.Abs(mean), sd))
			}
			if name == "near the largest" {
				// The squared deviations overflow, in Welford's
				// recurrence too, which the sum's overflow falls back on.
				if s.SD != wsd || s.Mean != wm {
					t.Errorf("%s, n=%d: %v, %v; Welford's %v, %v", name, n, s.Mean, s.SD, wm, wsd)
				}
			} else if err := math.Abs(s.SD-sd) / sd; err > tol {
				t.Errorf("%s, n=%d: sd %v, exactly %v (error %.2g; Welford's %.2g)", name, n, s.SD, sd, err, math.Abs(wsd-sd)/sd)
			}
			if s.Mean < s.Min || s.Mean > s.Max {
				t.Errorf("%s, n=%d: mean %v outside %v..%v", name, n, s.Mean, s.Min, s.Max)
			}
		}
	}
	type moments struct{ Mean, SD float64 }
	var got, want []moments
	for _, v := range []float64{0.1, -3, 1e300, 0} {
		xs := make([]float64, 1000)
		for i := range xs {
			xs[i] = v
		}
		s := Summarize(xs)
		got = append(got, moments{s.Mean, s.SD})
		want = append(want, moments{v, 0})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("samples all equal (-want +got):\n%s", diff)
	}
}

// exactMoments returns the mean and standard deviation of xs computed in
// 256-bit floats and rounded once.
func exactMoments(xs []float64) (mean, sd float64) {
	const prec = 256
	sum := new(big.Float).SetPrec(prec)
	for _, x := range xs {
		sum.Add(sum, new(big.Float).SetPrec(prec).SetFloat64(x))
	}
	m := new(big.Float).SetPrec(prec).Quo(sum, new(big.Float).SetPrec(prec).SetInt64(int64(len(xs))))
	ss := new(big.Float).SetPrec(prec)
	for _, x := range xs {
		d := new(big.Float).SetPrec(prec).SetFloat64(x)
		d.Sub(d, m)
		ss.Add(ss, d.Mul(d, d))
	}
	v := ss.Quo(ss, new(big.Float).SetPrec(prec).SetInt64(int64(len(xs)-1)))
	mean, _ = m.Float64()
	vf, _ := v.Sqrt(v).Float64()
	return mean, vf
}

// BenchmarkSummarize summarises a fraction's samples, as every uncertain
// result is, at three sizes; each run sorts a fresh copy.
func BenchmarkSummarize(b *testing.B) {
	benchFraction(b, func(xs []float64) { Summarize(xs) })
}

// BenchmarkSort sorts a fraction's samples (logit-normal, 0.25 to 0.30),
// as Summarize does, at three sizes: linear in the samples.
func BenchmarkSort(b *testing.B) { benchFraction(b, Sort) }

// benchFraction runs f on a fresh copy of 1,000, 10,000 and 100,000
// samples of a fraction (logit-normal, 0.25 to 0.30), one sub-benchmark
// a size.
func benchFraction(b *testing.B, f func([]float64)) {
	d, _ := Interval(0.25, 0.30, true)
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			xs := Samples(1, "x", d, n)
			ys := make([]float64, n)
			for b.Loop() {
				copy(ys, xs)
				f(ys)
			}
		})
	}
}
