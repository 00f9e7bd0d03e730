package priority

// numErr classifies why a JSON number is not a valid field value.
type numErr uint8

const (
	numOK numErr = iota
	numNegative
	numFractional
	numTooLarge
	numPriorityRange // above MaxPriority; only reported for Priority
)

var pow10 = [...]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16}

// decimalValue returns the exact value of a JSON number literal (which the
// caller has checked against JSON's grammar) if it is an integer in
// [0, 2^53). It works on the decimal digits, so it is exact however long
// the literal or large its exponent: 1e3 and 1.50e1 are integers, 1.5 and
// 1e-400 are fractional, -0 is zero.
func decimalValue[T string | []byte](lit T) (float64, numErr) {
	i, n := 0, len(lit)
	neg := n > 0 && lit[0] == '-'
	if neg {
		i++
	}
	intStart := i
	for i < n && isDigit(lit[i]) {
		i++
	}
	intEnd := i
	fracStart, fracEnd := i, i
	if i < n && lit[i] == '.' {
		i++
		fracStart = i
		for i < n && isDigit(lit[i]) {
			i++
		}
		fracEnd = i
	}
	exp := 0
	if i < n && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		expNeg := false
		if i < n && (lit[i] == '+' || lit[i] == '-') {
			expNeg = lit[i] == '-'
			i++
		}
		for ; i < n && isDigit(lit[i]); i++ {
			if exp < 1e9 { // saturate: beyond this only the sign matters
				exp = exp*10 + int(lit[i]-'0')
			}
		}
		if expNeg {
			exp = -exp
		}
	}
	// The digits d[0..nd) are the integer digits followed by the fraction
	// digits; the value is d × 10^(exp - fraction length).
	intLen, nd := intEnd-intStart, intEnd-intStart+fracEnd-fracStart
	digit := func(k int) byte {
		if k < intLen {
			return lit[intStart+k] - '0'
		}
		return lit[fracStart+k-intLen] - '0'
	}
	first, last := -1, -1
	for k := 0; k < nd; k++ {
		if digit(k) != 0 {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first < 0 {
		return 0, numOK // zero, including -0 and 0.000e5
	}
	if neg {
		return 0, numNegative
	}
	// Significant digits d[first..last], no trailing zeros, times 10^e10.
	e10 := exp - (fracEnd - fracStart) + (nd - 1 - last)
	if e10 < 0 {
		return 0, numFractional
	}
	if last-first+1+e10 > 16 { // at least 10^16 > 2^53
		return 0, numTooLarge
	}
	var v uint64
	for k := first; k <= last; k++ {
		v = v*10 + uint64(digit(k))
	}
	v *= pow10[e10]
	if v >= MaxExact {
		return 0, numTooLarge
	}
	return float64(v), numOK
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scanNumber returns the end of the JSON number starting at b[i], or -1 if
// no valid JSON number starts there.
func scanNumber(b []byte, i int) int {
	n := len(b)
	if i < n && b[i] == '-' {
		i++
	}
	switch {
	case i < n && b[i] == '0':
		i++
	case i < n && '1' <= b[i] && b[i] <= '9':
		for i++; i < n && isDigit(b[i]); i++ {
		}
	default:
		return -1
	}
	if i < n && b[i] == '.' {
		i++
		if i >= n || !isDigit(b[i]) {
			return -1
		}
		for i++; i < n && isDigit(b[i]); i++ {
		}
	}
	if i < n && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < n && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= n || !isDigit(b[i]) {
			return -1
		}
		for i++; i < n && isDigit(b[i]); i++ {
		}
	}
	return i
}

// problem returns the stream Problem for a number that is not a valid
// field value.
func (e numErr) problem() Problem {
	switch e {
	case numNegative:
		return Negative
	case numFractional:
		return Fractional
	case numTooLarge:
		return TooLarge
	case numPriorityRange:
		return PriorityRange
	}
	return NoProblem
}
