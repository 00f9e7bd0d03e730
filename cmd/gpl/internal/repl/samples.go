package repl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// cmdSamples is :samples N, which evaluates the session again over N
// samples (language.md §23), or :samples alone, which says how many.
func (r *repl) cmdSamples(arg string, _ lang.Position) {
	n, seed := r.s.se.SamplingOptions()
	if arg == "" {
		fmt.Fprintf(r.stdout, "%s samples, seed %d\n", units.FormatNumber(float64(n)), seed)
		return
	}
	v, err := strconv.Atoi(strings.ReplaceAll(arg, "_", ""))
	if err != nil || v < 1 || v > 10_000_000 {
		r.errorf("usage: :samples N, a whole number from 1 to 10,000,000; %q is not one", arg)
		return
	}
	r.s.se.SetSampling(v, seed)
	fmt.Fprintf(r.stdout, "%s samples, seed %d\n", units.FormatNumber(float64(v)), seed)
}
