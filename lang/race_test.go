//go:build race

package lang

// raceEnabled is true under the race detector, which makes the parser
// many times slower; the tests of very large inputs then use smaller ones
// that still lie far beyond the limits they check.
const raceEnabled = true
