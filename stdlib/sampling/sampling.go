// Package sampling is the engine of uncertain values: probability
// distributions given by their parameters (normal, lognormal, uniform,
// triangular, beta, logit-normal, and a 90% interval that picks one of
// them), seeded streams of samples drawn from them, and the statistics of
// a vector of samples (quantiles, mean, standard deviation).
//
// It knows nothing of the language: a value is a float64 in whatever unit
// the caller holds it, and a stream is named by a seed and a key that the
// caller chooses. The same seed, key, distribution and count give the
// same samples, bit for bit, on every run and machine: each stream has a
// generator of its own (PCG from math/rand/v2, seeded by the seed and a
// hash of the key), never a shared one.
package sampling

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
)

// Z90 is the standard normal quantile at 0.95: a 90% interval of a normal
// distribution is its mean ± Z90 standard deviations.
const Z90 = 1.6448536269514722

// Kind is a family of distributions.
type Kind uint8

// The families.
const (
	Normal      Kind = iota // A mean, B standard deviation
	LogNormal               // A median (e^μ), B sigma of the logarithm
	Uniform                 // A low, B high
	Triangular              // A low, B mode, C high
	Beta                    // A α, B β
	LogitNormal             // A μ of the logit, B σ of the logit
)

var kindNames = [...]string{"normal", "lognormal", "uniform", "triangular", "beta", "logit-normal"}

// String names the family: "lognormal".
func (k Kind) String() string { return kindNames[k] }

// Dist is one distribution: its family and parameters (see Kind).
type Dist struct {
	Kind    Kind
	A, B, C float64
}

// ArgError is a distribution's bad parameter: which one (0-based) and
// why, worded for the user.
type ArgError struct {
	Arg int
	Msg string
}

func (e *ArgError) Error() string { return e.Msg }

func bad(i int, format string, a ...any) error { return &ArgError{i, fmt.Sprintf(format, a...)} }

func finite(xs ...float64) int {
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return i
		}
	}
	return -1
}

// NewNormal is the normal distribution of mean and sd (> 0).
func NewNormal(mean, sd float64) (Dist, error) {
	if i := finite(mean, sd); i >= 0 {
		return Dist{}, bad(i, "normal: the argument is not a finite number")
	}
	if !(sd > 0) {
		return Dist{}, bad(1, "normal: the standard deviation is %g; it must be above 0", sd)
	}
	return Dist{Kind: Normal, A: mean, B: sd}, nil
}

// NewLogNormal is the lognormal distribution of median (> 0) and sigma
// (> 0), the standard deviation of the logarithm.
func NewLogNormal(median, sigma float64) (Dist, error) {
	if i := finite(median, sigma); i >= 0 {
		return Dist{}, bad(i, "lognormal: the argument is not a finite number")
	}
	if !(median > 0) {
		return Dist{}, bad(0, "lognormal: the median is %g; it must be above 0", median)
	}
	if !(sigma > 0) {
		return Dist{}, bad(1, "lognormal: sigma is %g; it must be above 0", sigma)
	}
	return Dist{Kind: LogNormal, A: median, B: sigma}, nil
}

// NewUniform is the uniform distribution on [lo, hi), lo < hi.
func NewUniform(lo, hi float64) (Dist, error) {
	if i := finite(lo, hi); i >= 0 {
		return Dist{}, bad(i, "uniform: the argument is not a finite number")
	}
	if !(hi > lo) {
		return Dist{}, bad(1, "uniform: the upper end %g is not above the lower end %g", hi, lo)
	}
	return Dist{Kind: Uniform, A: lo, B: hi}, nil
}

// NewTriangular is the triangular distribution on [lo, hi] peaking at
// mode, lo ≤ mode ≤ hi, lo < hi.
func NewTriangular(lo, mode, hi float64) (Dist, error) {
	if i := finite(lo, mode, hi); i >= 0 {
		return Dist{}, bad(i, "triangular: the argument is not a finite number")
	}
	if !(hi > lo) {
		return Dist{}, bad(2, "triangular: the upper end %g is not above the lower end %g", hi, lo)
	}
	if mode < lo || mode > hi {
		return Dist{}, bad(1, "triangular: the mode %g is outside [%g, %g]", mode, lo, hi)
	}
	return Dist{Kind: Triangular, A: lo, B: mode, C: hi}, nil
}

// NewBeta is the beta distribution of shape α (> 0) and β (> 0).
func NewBeta(alpha, beta float64) (Dist, error) {
	if i := finite(alpha, beta); i >= 0 {
		return Dist{}, bad(i, "beta: the argument is not a finite number")
	}
	if !(alpha > 0) {
		return Dist{}, bad(0, "beta: α is %g; it must be above 0", alpha)
	}
	if !(beta > 0) {
		return Dist{}, bad(1, "beta: β is %g; it must be above 0", beta)
	}
	return Dist{Kind: Beta, A: alpha, B: beta}, nil
}

// Interval is the distribution whose 5th and 95th percentiles are lo and
// hi (lo < hi): logit-normal when fraction is set and both are strictly
// between 0 and 1 (so that every sample stays a fraction), lognormal
// when both are above 0, normal otherwise.
func Interval(lo, hi float64, fraction bool) (Dist, error) {
	if i := finite(lo, hi); i >= 0 {
		return Dist{}, bad(i, "to: the end is not a finite number")
	}
	if !(hi > lo) {
		return Dist{}, bad(1, "the upper end of A to B is not above the lower end")
	}
	switch {
	case fraction && lo > 0 && hi < 1:
		a, b := logit(lo), logit(hi)
		return Dist{Kind: LogitNormal, A: (a + b) / 2, B: (b - a) / (2 * Z90)}, nil
	case lo > 0:
		return Dist{Kind: LogNormal, A: math.Sqrt(lo * hi), B: math.Log(hi/lo) / (2 * Z90)}, nil
	}
	return Dist{Kind: Normal, A: (lo + hi) / 2, B: (hi - lo) / (2 * Z90)}, nil
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }

// Median is the distribution's median (for beta, an approximation good
// to a few parts in a thousand for α, β ≥ 1).
func (d Dist) Median() float64 {
	switch d.Kind {
	case Normal, LogNormal:
		return d.A
	case Uniform:
		return (d.A + d.B) / 2
	case Triangular:
		lo, m, hi := d.A, d.B, d.C
		if m-lo >= (hi-lo)/2 {
			return lo + math.Sqrt((hi-lo)*(m-lo)/2)
		}
		return hi - math.Sqrt((hi-lo)*(hi-m)/2)
	case Beta:
		a, b := d.A, d.B
		if a >= 1 && b >= 1 {
			return (a - 1.0/3) / (a + b - 2.0/3)
		}
		return a / (a + b)
	case LogitNormal:
		return 1 / (1 + math.Exp(-d.A))
	}
	return math.NaN()
}

// Draw is one sample of d from r.
func (d Dist) Draw(r *rand.Rand) float64 {
	switch d.Kind {
	case Normal:
		return d.A + d.B*r.NormFloat64()
	case LogNormal:
		return d.A * math.Exp(d.B*r.NormFloat64())
	case Uniform:
		return d.A + (d.B-d.A)*r.Float64()
	case Triangular:
		u := r.Float64()
		lo, m, hi := d.A, d.B, d.C
		if u < (m-lo)/(hi-lo) {
			return lo + math.Sqrt(u*(hi-lo)*(m-lo))
		}
		return hi - math.Sqrt((1-u)*(hi-lo)*(hi-m))
	case Beta:
		x := gamma(r, d.A)
		y := gamma(r, d.B)
		return x / (x + y)
	case LogitNormal:
		return 1 / (1 + math.Exp(-(d.A + d.B*r.NormFloat64())))
	}
	return math.NaN()
}

// gamma is a sample of the gamma distribution of shape k and scale 1
// (Marsaglia and Tsang 2000; a shape below 1 by boosting it by one).
func gamma(r *rand.Rand, k float64) float64 {
	if k < 1 {
		u := r.Float64()
		return gamma(r, k+1) * math.Pow(u, 1/k)
	}
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// NewRand is the generator of the stream named key under seed: a PCG
// seeded by seed and the FNV-1a hash of key, its own.
func NewRand(seed uint64, key string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(key))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// Samples are n samples of d from the stream named key under seed.
func Samples(seed uint64, key string, d Dist, n int) []float64 {
	r := NewRand(seed, key)
	out := make([]float64, n)
	for i := range out {
		out[i] = d.Draw(r)
	}
	return out
}
