package sampling

import (
	"math"
	"slices"
)

// Summary is the statistics of a vector of samples, in the samples' unit.
type Summary struct {
	N                      int
	Mean, SD               float64 // SD with n − 1 in the denominator
	Min, Max               float64
	P5, P10, P50, P90, P95 float64
	sorted                 []float64 // kept for Quantile; nil when dropped
}

// Summarize computes the statistics of xs, which it sorts in place and
// keeps for Quantile (Drop lets them go). xs must not be empty.
func Summarize(xs []float64) Summary {
	slices.Sort(xs)
	s := Summary{N: len(xs), Min: xs[0], Max: xs[len(xs)-1], sorted: xs}
	// Mean and variance by Welford's recurrence: one pass, no
	// cancellation.
	var mean, m2 float64
	for i, x := range xs {
		d := x - mean
		mean += d / float64(i+1)
		m2 += d * (x - mean)
	}
	s.Mean = mean
	if len(xs) > 1 {
		s.SD = math.Sqrt(m2 / float64(len(xs)-1))
	}
	s.P5, s.P10, s.P50 = Quantile(xs, 0.05), Quantile(xs, 0.10), Quantile(xs, 0.50)
	s.P90, s.P95 = Quantile(xs, 0.90), Quantile(xs, 0.95)
	return s
}

// Quantile is the q-quantile (0 ≤ q ≤ 1) of the sorted samples xs, by
// linear interpolation between the order statistics around q(n − 1)
// (Hyndman and Fan's type 7, R's and NumPy's default).
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	h := q * float64(len(xs)-1)
	i := int(math.Floor(h))
	if i >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	if i < 0 {
		return xs[0]
	}
	return xs[i] + (h-float64(i))*(xs[i+1]-xs[i])
}

// Q is the q-quantile of the summarised samples; NaN when they were
// dropped.
func (s *Summary) Q(q float64) float64 {
	if s.sorted == nil {
		return math.NaN()
	}
	return Quantile(s.sorted, q)
}

// Drop lets the samples go, keeping the statistics.
func (s *Summary) Drop() { s.sorted = nil }

// Sorted are the samples, sorted; nil when dropped. Not to be modified.
func (s *Summary) Sorted() []float64 { return s.sorted }
