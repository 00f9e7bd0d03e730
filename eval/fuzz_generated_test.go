package eval

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/format"
)

// genProgram builds a random valid program from seed: pools, jobs on them
// and extending each other, params and lets, owners, a ruleset and
// requests, groups, a compare and a sweep, and expects written so that
// they hold (each compares a result with itself or with a bound it cannot
// cross). It returns the text and how many expects it wrote.
func genProgram(seed uint64) (string, int) {
	rng := rand.New(rand.NewPCG(seed, seed>>32|1))
	var b strings.Builder
	expects := 0
	expect := func(format string, args ...any) {
		fmt.Fprintf(&b, "expect "+format+"\n", args...)
		expects++
	}
	frac := func(lo float64) float64 { return lo + (1-lo)*float64(rng.IntN(1000))/1000 }

	fmt.Fprintf(&b, "param rate = %d.%02d USD/h\n", 1+rng.IntN(4), rng.IntN(100))
	fmt.Fprintf(&b, "let peak = %.3f\n", frac(0.5))
	if rng.IntN(2) == 0 {
		b.WriteString("owners { scheduling = \"capacity\"  runtime = \"infra\"  program = \"models\" }\n")
	}
	pools := 1 + rng.IntN(3)
	for i := range pools {
		fmt.Fprintf(&b, "pool p%d {\n  devices = %d\n  rate    = rate\n", i, 1+rng.IntN(4096))
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "  hours   = %dh\n", 1+rng.IntN(2000))
		}
		b.WriteString("}\n")
	}
	jobs := 1 + rng.IntN(5)
	for i := range jobs {
		if i > 0 && rng.IntN(3) == 0 {
			parent := rng.IntN(i)
			fmt.Fprintf(&b, "job j%d extends j%d", i, parent)
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, " on p%d", rng.IntN(pools))
			}
			fmt.Fprintf(&b, " {\n  factors { program = %.3f }\n", 0.01+frac(0)*0.48)
		} else {
			fmt.Fprintf(&b, "job j%d on p%d {\n  hours    = %dh\n", i, rng.IntN(pools), 1+rng.IntN(1000))
			s, r, p := frac(0.5), frac(0.5), 0.01+frac(0)*0.48
			fmt.Fprintf(&b, "  factors  { S = %.3f  R = %.3f  P = %.3f }\n", s, r, p)
			fmt.Fprintf(&b, "  ceilings { S = 1  R = 1  P = peak }\n")
		}
		b.WriteString("  expect mpg == S * R * P\n  expect useful_hours <= offered_hours\n  expect badput_cost >= 0\n}\n")
		expects += 3
		expect("j%d.mpg <= j%d.ceiling_mpg", i, i)
	}
	b.WriteString("rules serving {\n  quick: when sla_deadline < 250ms -> latency_critical\n  small: when batch_size <= 4 -> latency_critical\n  else throughput\n}\n")
	for i := range 1 + rng.IntN(3) {
		fmt.Fprintf(&b, "request r%d { batch_size = %d  sla_deadline = %dms }\n", i, 1+rng.IntN(16), rng.IntN(1000))
		expect("classify(serving, r%d) == classify(serving, r%d)", i, i)
	}
	if jobs > 1 {
		fmt.Fprintf(&b, "group all { j0, j%d }\n", jobs-1)
		expect("all.jobs == 2")
		expect("all.useful_hours <= all.offered_hours")
		fmt.Fprintf(&b, "compare cmp { j0, j%d }\n", jobs-1)
		expect("cmp.ratio(j0) == 1")
	}
	fmt.Fprintf(&b, "sweep sw over j0 {\n  vary devices in [%d, %d]\n}\n", 1+rng.IntN(8), 9+rng.IntN(8))
	expect("sw.points == 2")
	expect("sw.max(useful_hours) >= sw.min(useful_hours)")
	return b.String(), expects
}

// FuzzGenerated loads random valid programs: each must load without a
// diagnostic, every expect it wrote must pass, and gpl fmt's layout of it
// must load to the same outcomes.
func FuzzGenerated(f *testing.F) {
	for _, seed := range []uint64{0, 1, 2, 42, 1 << 40, 12345678901} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		src, n := genProgram(seed)
		outcomes := func(name string, text []byte) []bool {
			s, err := LoadSource(name, text)
			if err != nil {
				var b strings.Builder
				if e, ok := err.(*Error); ok {
					e.Diagnostics.RenderAll(&b, s.Sources(), lang.Style{})
				}
				t.Fatalf("a generated program does not load:\n%s\n%s", text, b.String())
			}
			var got []bool
			for _, o := range s.Test() {
				if !o.Pass {
					var b strings.Builder
					o.Diagnostic.Render(&b, s.Sources(), lang.Style{})
					t.Fatalf("a generated expect fails:\n%s\n%s", text, b.String())
				}
				got = append(got, o.Pass)
			}
			return got
		}
		first := outcomes("gen.gpl", []byte(src))
		if len(first) != n {
			t.Fatalf("%d outcomes, %d expects written:\n%s", len(first), n, src)
		}
		formatted, ferr := format.FormatSource("gen.gpl", []byte(src))
		if ferr != nil {
			t.Fatalf("gpl fmt refuses a generated program: %v\n%s", ferr, src)
		}
		if again := outcomes("fmt.gpl", formatted); len(again) != n {
			t.Fatalf("after gpl fmt, %d outcomes, want %d:\n%s", len(again), n, formatted)
		}
	})
}

func TestGeneratedProgramsLoad(t *testing.T) {
	for seed := range uint64(200) {
		src, n := genProgram(seed)
		s, err := LoadSource("gen.gpl", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		passed := 0
		for _, o := range s.Test() {
			if o.Pass {
				passed++
			}
		}
		if passed != n {
			t.Fatalf("seed %d: %d of %d expects pass\n%s", seed, passed, n, src)
		}
	}
}
