package eval

import (
	"os"
	"testing"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// millionPointSweep is the default scenario with a sweep of 1,000 × 1,000
// points over its job.
func millionPointSweep(b *testing.B) *Scenario {
	b.Helper()
	src, err := os.ReadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		b.Fatal(err)
	}
	src = append(src, `
sweep grid over llama2_70b {
  vary runtime from 0.001 to 1 step 0.001
  vary devices from 1 to 1000 step 1
}
`...)
	s, err := LoadSource("million.gpl", src)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkSweepMillionPoints answers max(useful_hours) and
// argmax(useful_hours).devices over a sweep of 1,000,000 points (two vary
// lines of 1,000) of the default job: one goodput engine run per point,
// streamed, nothing kept.
func BenchmarkSweepMillionPoints(b *testing.B) {
	s := millionPointSweep(b)
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		v, err := s.Eval("q", "grid.argmax(useful_hours).devices")
		if err != nil {
			b.Fatal(err)
		}
		if v.Num != 1000 {
			b.Fatalf("argmax devices = %v, want 1000", v.Num)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/point")
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ns/point")
}

// BenchmarkSweepMillionPointsPlainLoop is what BenchmarkSweepMillionPoints
// measures against: the same million points of the default job written
// by hand as a plain Go loop over goodput.Solve. Each point sets the two
// varied inputs (from + i × step, as a sweep computes them) in one
// goodput.Inputs, raises the runtime ceiling to the runtime where it is
// below it (as a sweep does, or Solve rejects the point), runs the engine
// and reads useful hours for the argmax. `-bench SweepMillionPoints` runs
// both, so the ratio is measured in one run.
func BenchmarkSweepMillionPointsPlainLoop(b *testing.B) {
	s := millionPointSweep(b)
	job := s.p.Decls["llama2_70b"]
	if !s.force(job) {
		b.Fatal("job failed")
	}
	base := s.of(job).job.in
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		in := base
		best, bestDevices := -1.0, 0.0
		for i := range 1000 {
			r := 0.001 + float64(i)*0.001
			if i == 999 {
				r = 1
			}
			in.Factors[goodput.Runtime] = goodput.Some(r)
			in.Ceilings[goodput.Runtime] = base.Ceilings[goodput.Runtime]
			if c := in.Ceilings[goodput.Runtime]; c.Set && r > c.Value {
				in.Ceilings[goodput.Runtime] = in.Factors[goodput.Runtime]
			}
			for j := range 1000 {
				in.Devices = 1 + float64(j)
				res, err := goodput.Solve(in)
				if err != nil {
					b.Fatal(err)
				}
				if res.UsefulHours > best {
					best, bestDevices = res.UsefulHours, in.Devices
				}
			}
		}
		if bestDevices != 1000 {
			b.Fatalf("argmax devices = %v, want 1000", bestDevices)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/point")
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ns/point")
}

// BenchmarkSolve finds the runtime a target mpg needs: bisection on the
// engine.
func BenchmarkSolve(b *testing.B) {
	src, err := os.ReadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		b.Fatal(err)
	}
	src = append(src, "\nsolve need over llama2_70b { find runtime such that mpg >= 0.30 }\n"...)
	s, err := LoadSource("solve.gpl", src)
	if err != nil {
		b.Fatal(err)
	}
	d := s.p.Decls["need"]
	// The solve warns (its answer is above the job's runtime ceiling):
	// the warnings of earlier iterations are dropped, so that the list
	// does not grow with b.N.
	diags := len(s.ev.diags)
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		s.ev.diags = s.ev.diags[:diags]
		s.of(d).state = check.Unvisited
		if !s.force(d) {
			b.Fatal("solve failed")
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkSweepOverFile answers max(fleet.mpg) over a sweep of 10,000
// points over the whole file of language.md §21's example (a param, a
// pool, two jobs, a group, and the default scenario it imports): each
// point one evaluation of the file with the param replaced, streamed,
// nothing kept.
func BenchmarkSweepOverFile(b *testing.B) {
	src, err := os.ReadFile("../testdata/lang/language_md_21_whatifs.gpl")
	if err != nil {
		b.Fatal(err)
	}
	src = append(src, `
sweep many over file {
  vary ckpt_cost from 0.1s to 1000s step 0.1s
  show fleet.mpg
}
`...)
	s, err := LoadWith(Options{FS: repoFS, AllowImports: []string{"scenarios"}}, "testdata/lang/language_md_21_whatifs.gpl", src)
	if err != nil {
		b.Fatal(err)
	}
	if v, _ := s.Eval("q", "many.points"); v.Num != 10000 {
		b.Fatalf("%v points, want 10,000", v.Num)
	}
	b.ReportAllocs()
	for b.Loop() {
		v, err := s.Eval("q", "many.max(fleet.mpg)")
		if err != nil {
			b.Fatal(err)
		}
		if v.Num < 0.35 {
			b.Fatalf("max fleet.mpg = %v", v.Num)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/point")
}
