package cli

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// intRange is a whole-number flag that refuses a value outside
// [min, max]: the flag package reports the refusal as a usage error
// (exit 1), with the range, where a plain int flag would take 0 or -1
// and a verb would quietly read it as "the default".
type intRange struct {
	v        *int
	min, max int
}

func (f *intRange) String() string {
	if f == nil || f.v == nil {
		return "0"
	}
	return strconv.Itoa(*f.v)
}

// Set reads a whole number within the range.
func (f *intRange) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("not a whole number; %s", rangeText(f.min, f.max))
	}
	if n < f.min || n > f.max {
		return fmt.Errorf("out of range; %s", rangeText(f.min, f.max))
	}
	*f.v = n
	return nil
}

// rangeText says what a flag takes: "N ≥ 1", "N from 1 to 1073741824".
func rangeText(min, max int) string {
	if max >= math.MaxInt32 {
		return fmt.Sprintf("N ≥ %d", min)
	}
	return fmt.Sprintf("N from %d to %d", min, max)
}

// IntFlag adds a whole-number flag taking values from min to max to fs,
// its usage ending with the range ("…; N ≥ 1"); a value outside it is a
// usage error. usage may name the value with `N`, as flag's usages do.
func IntFlag(fs *flag.FlagSet, name string, value, min, max int, usage string) *int {
	v := value
	r := rangeText(min, max)
	if !strings.Contains(usage, "`") {
		r = "`N`" + strings.TrimPrefix(r, "N") // the placeholder -h shows: -max-points N
	}
	fs.Var(&intRange{v: &v, min: min, max: max}, name, usage+" ("+r+")")
	return &v
}
