package sampling

import (
	"math"
	"math/bits"
	"slices"
	"sync"
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
	Sort(xs)
	s := Summary{N: len(xs), Min: xs[0], Max: xs[len(xs)-1], sorted: xs}
	s.Mean, s.SD = moments(xs)
	s.P5, s.P10, s.P50 = Quantile(xs, 0.05), Quantile(xs, 0.10), Quantile(xs, 0.50)
	s.P90, s.P95 = Quantile(xs, 0.90), Quantile(xs, 0.95)
	return s
}

// moments returns the mean and the standard deviation (n − 1 in the
// denominator) of the sorted samples xs, in two passes: the mean, then the
// deviations from it and their squares, which do not cancel as the sum of
// squares less n times the squared mean would (Chan, Golub and LeVeque's
// corrected two-pass algorithm). The mean's sum is compensated, and the
// deviations are summed in four partial sums, so that no addition waits
// on the one before. Samples all equal have that value for their mean and
// 0 for their deviation, exactly, and the mean is never outside the
// samples' range. A sum that overflows falls back on Welford's recurrence.
func moments(xs []float64) (mean, sd float64) {
	n := len(xs)
	if xs[0] == xs[n-1] {
		return xs[0], 0
	}
	total := sum(xs)
	if math.IsInf(total, 0) || math.IsNaN(total) { // samples near the largest floats, or infinite
		return welford(xs)
	}
	mean = min(max(total/float64(n), xs[0]), xs[n-1])
	// n > 1, as the samples are not all equal. The deviations from the
	// mean as rounded sum to n times its rounding error; taking that out
	// leaves the squares as they would be about the exact mean.
	d, dd := deviations4(xs, mean)
	return mean, math.Sqrt(max(0, dd-d*d/float64(n)) / float64(n-1))
}

// welford returns the mean and standard deviation of xs by Welford's
// recurrence, which does not overflow where a sum would, at the cost of
// a division a sample on the path from one sample to the next.
func welford(xs []float64) (mean, sd float64) {
	var m2 float64
	for i, x := range xs {
		d := x - mean
		mean += d / float64(i+1)
		m2 += d * (x - mean)
	}
	if len(xs) > 1 {
		sd = math.Sqrt(m2 / float64(len(xs)-1))
	}
	return mean, sd
}

// sum returns the sum of xs, compensated (Neumaier's variant of Kahan's
// summation): the rounding error of each addition is kept apart and added
// at the end, so that the sum is as if added in twice the precision.
func sum(xs []float64) float64 {
	var s, c float64
	for _, x := range xs {
		t := s + x
		if math.Abs(s) >= math.Abs(x) {
			c += (s - t) + x
		} else {
			c += (x - t) + s
		}
		s = t
	}
	return s + c
}

// deviations4 returns the sums of the differences of xs from c and of
// their squares, in four partial sums each.
func deviations4(xs []float64, c float64) (devs, squares float64) {
	var s0, s1, s2, s3, q0, q1, q2, q3 float64
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		d0, d1, d2, d3 := xs[i]-c, xs[i+1]-c, xs[i+2]-c, xs[i+3]-c
		s0, s1, s2, s3 = s0+d0, s1+d1, s2+d2, s3+d3
		q0, q1, q2, q3 = q0+d0*d0, q1+d1*d1, q2+d2*d2, q3+d3*d3
	}
	for ; i < len(xs); i++ {
		d := xs[i] - c
		s0, q0 = s0+d, q0+d*d
	}
	return (s0 + s1) + (s2 + s3), (q0 + q1) + (q2 + q3)
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

// Sort's digits: n keys are put into buckets by a digit of log2(n) + 1
// bits or so (at least minDigit, at most maxDigit), so that most buckets
// hold no key or one; a bucket of more than sortInsertion keys is sorted
// by a digit of its own, the others by insertion.
const (
	minDigit      = 4
	maxDigit      = 13
	sortInsertion = 32
)

// sortScratch is what Sort works in: the keys, twice the samples' length,
// and a count of the keys in each bucket at each level of the sort.
type sortScratch struct {
	keys   []uint64
	counts [][]uint32
}

// count returns level's count of n buckets, zeroed.
func (sc *sortScratch) count(level, n int) []uint32 {
	for len(sc.counts) <= level {
		sc.counts = append(sc.counts, nil)
	}
	if cap(sc.counts[level]) < n {
		sc.counts[level] = make([]uint32, n)
	}
	c := sc.counts[level][:n]
	clear(c)
	return c
}

// scratch is Sort's sortScratch, reused from call to call: a sampling
// sorts one vector per quantity, hundreds of them.
var scratch = sync.Pool{New: func() any { return new(sortScratch) }}

// Sort sorts xs in increasing order, as slices.Sort does for numbers
// that are not NaN (−0 before +0). It sorts the floats' bits, as keys
// that order as the floats do, most significant digit first: one pass
// counts the keys by the top bits of their distance from the least key,
// into two to four times as many buckets as there are keys, up to 8,192
// (whose counts fit in a first-level cache), and one moves them into
// their buckets. A bucket of more than sortInsertion keys is sorted the
// same way over its own range, and one insertion sort then orders the
// short buckets, moving keys only within their own. Each level narrows a
// bucket's range at least 128-fold, so no key goes through more than ten
// levels, whatever the samples: the time is linear in them. Short
// vectors, and any with a NaN, go to slices.Sort.
func Sort(xs []float64) {
	if len(xs) < 256 || len(xs) > math.MaxUint32 {
		slices.Sort(xs)
		return
	}
	sc := scratch.Get().(*sortScratch)
	defer scratch.Put(sc)
	if cap(sc.keys) < 2*len(xs) {
		sc.keys = make([]uint64, 2*len(xs))
	}
	keys := sc.keys[:2*len(xs)]
	a, b := keys[:len(xs)], keys[len(xs):]
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for i, x := range xs {
		if x != x {
			slices.Sort(xs)
			return
		}
		// The bits of a float, flipped so that they order as the
		// floats do: every bit of a negative one, the sign of a
		// positive one.
		k := math.Float64bits(x)
		if k>>63 == 1 {
			k = ^k
		} else {
			k |= 1 << 63
		}
		a[i] = k
		lo, hi = min(lo, k), max(hi, k)
	}
	sortKeys(a, b, lo, hi, sc, 0)
	for i, k := range a {
		if k>>63 == 1 {
			k &^= 1 << 63
		} else {
			k = ^k
		}
		xs[i] = math.Float64frombits(k)
	}
}

// sortKeys sorts a, whose least key is lo and greatest hi, using b (as
// long as a) to move them in and sc's count at level to count them.
func sortKeys(a, b []uint64, lo, hi uint64, sc *sortScratch, level int) {
	if lo == hi {
		return
	}
	span := bits.Len64(hi - lo)
	digit := min(span, max(minDigit, min(maxDigit, bits.Len(uint(len(a)))+1)))
	shift := span - digit
	c := sc.count(level, 1<<digit)
	for _, k := range a {
		c[(k-lo)>>shift]++
	}
	var sum, most uint32
	for d, n := range c {
		c[d] = sum
		sum += n
		most = max(most, n)
	}
	for _, k := range a {
		d := (k - lo) >> shift
		b[c[d]] = k
		c[d]++
	}
	// c[d] is now the end of bucket d in b, and the start of bucket d+1.
	// A long bucket is sorted on its own; then one insertion sort over all
	// of b puts the short ones in order: every key of a bucket is below
	// every key of the next, so it moves no key out of its bucket, nor
	// any of a sorted one.
	if most > sortInsertion && shift > 0 {
		start := uint32(0)
		for _, end := range c {
			if end-start > sortInsertion {
				bucket := b[start:end]
				blo, bhi := keyRange(bucket)
				sortKeys(bucket, a[start:end], blo, bhi, sc, level+1)
			}
			start = end
		}
	}
	if shift > 0 {
		insertionSort(b)
	}
	copy(a, b)
}

// keyRange returns the least and the greatest of ks, which is not empty.
func keyRange(ks []uint64) (lo, hi uint64) {
	lo, hi = ks[0], ks[0]
	for _, k := range ks[1:] {
		lo, hi = min(lo, k), max(hi, k)
	}
	return lo, hi
}

// insertionSort sorts ks in a time of its length times how far its keys
// are from their places: Sort's buckets, each key at most sortInsertion
// places from its own.
func insertionSort(ks []uint64) {
	for i := 1; i < len(ks); i++ {
		k, j := ks[i], i
		for ; j > 0 && ks[j-1] > k; j-- {
			ks[j] = ks[j-1]
		}
		ks[j] = k
	}
}
