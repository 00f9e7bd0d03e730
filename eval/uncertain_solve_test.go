package eval

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// uncertainJob is a job with two uncertain inputs, and a solve over it
// whose condition is the line given.
func uncertainJob(find string) string {
	return `param mtbf = 2.5h to 4h
pool p { devices = 768  rate = 2.50 USD/h }
job pretrain on p {
  hours = 720h
  factors { S = 0.95  R = runtime_goodput(mtbf, 1min, 10min)  P = 0.38 to 0.43 }
}
solve need over pretrain {
  ` + find + `
}
`
}

// TestSolveOverJobStatistic checks a solve over a job on a statistic of
// its result against the sampling of the file itself: the job written
// with the answer in place of the searched input has, over the same
// streams, the statistic the solve reports there, and it meets the
// target to the bisection's precision.
func TestSolveOverJobStatistic(t *testing.T) {
	cases := []struct {
		find, field, stat string
		target            float64
	}{
		{"find S in [0.5, 1] such that mpg.p10 >= 0.30", "S", "mpg.p10", 0.30},
		{"find S in [0.5, 1] such that mpg.mean >= 0.30", "S", "mpg.mean", 0.30},
		{"find P in [0.1, 0.9] such that mpg.p90 >= 0.30", "P", "mpg.p90", 0.30},
	}
	for _, c := range cases {
		s, err := LoadSource("solve.gpl", []byte(uncertainJob(c.find)))
		if err != nil {
			t.Fatalf("%s: %v", c.find, err)
		}
		sv := s.Solves()
		if len(sv) != 1 {
			t.Fatalf("%s: %d answers", c.find, len(sv))
		}
		x, got := sv[0].Value.Num, sv[0].Result.Num
		if math.Abs(got-c.target) > 1e-6 {
			t.Errorf("%s: %s = %v at the answer, want %v", c.find, c.stat, got, c.target)
		}
		// The same job with the answer written in: its statistic over the
		// file's samples is the solve's.
		src := uncertainJob(c.find)
		src = src[:strings.Index(src, "solve need")]
		if c.field == "S" {
			src = strings.Replace(src, "S = 0.95", fmt.Sprintf("S = %v", x), 1)
		} else {
			src = strings.Replace(src, "P = 0.38 to 0.43", fmt.Sprintf("P = %v", x), 1)
		}
		want, err := LoadSource("fixed.gpl", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", c.find, err)
		}
		v, err := want.Eval("<expr>", "pretrain."+c.stat)
		if err != nil {
			t.Fatalf("%s: %v", c.find, err)
		}
		if c.field == "S" {
			// S is the same in every sample either way: the same numbers.
			if d := cmp.Diff(v.Num, got); d != "" {
				t.Errorf("%s: the file's own %s at the answer differs (-file +solve):\n%s", c.find, c.stat, d)
			}
		} else if math.Abs(v.Num-got) > 1e-12 {
			// P was a distribution: written plain, its stream is gone, and
			// the other inputs' samples are the same.
			t.Errorf("%s: the file's %s at the answer is %v, the solve's %v", c.find, c.stat, v.Num, got)
		}
	}
}

// TestSolveOverCertainJobStatistic: a job that reads no distribution is
// the same in every sample, so a statistic of its result is the result
// (its sd 0), and the solve's answer is the plain solve's.
func TestSolveOverCertainJobStatistic(t *testing.T) {
	plain := strings.NewReplacer("runtime_goodput(mtbf, 1min, 10min)", "0.85", "0.38 to 0.43", "0.40", "param mtbf = 2.5h to 4h\n", "")
	answer := func(find string) (float64, float64) {
		s, err := LoadSource("certain.gpl", []byte(plain.Replace(uncertainJob(find))))
		if err != nil {
			t.Fatalf("%s: %v", find, err)
		}
		sv := s.Solves()
		if len(sv) != 1 {
			t.Fatalf("%s: %d answers", find, len(sv))
		}
		return sv[0].Value.Num, sv[0].Result.Num
	}
	type ans struct{ X, Got float64 }
	var got, want []ans
	for _, st := range []string{"p10", "p50", "mean", "min", "max", "p95"} {
		x, v := answer("find S in [0.5, 1] such that mpg." + st + " >= 0.30")
		got = append(got, ans{x, v})
		x, v = answer("find S in [0.5, 1] such that mpg >= 0.30")
		want = append(want, ans{x, v})
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("statistics of a certain job (-plain +statistic):\n%s", d)
	}
}

// TestSweepOverJobStatistic checks a sweep over a job that shows
// statistics of the point's results against the file sampled with each
// point's value written in: the same numbers, bit for bit, since the
// varied input (S) is the same in every sample either way.
func TestSweepOverJobStatistic(t *testing.T) {
	src := uncertainJob("find S in [0.5, 1] such that mpg.p10 >= 0.30")
	src = src[:strings.Index(src, "solve need")] + `sweep sched over pretrain {
  vary S in [0.90, 0.99]
  show mpg.p10, useful_hours.mean, cost_per_useful_hour.p90, mpg.sd
}
`
	s, err := LoadSource("sweep.gpl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]float64
	err = s.SweepPoints("sched", func(p SweepPoint) bool {
		row := []float64{p.Inputs[0].Num}
		for _, c := range p.Columns {
			if c.Err != nil {
				t.Errorf("%s: %v", c.Name, c.Err)
			}
			row = append(row, c.Value.Num)
		}
		got = append(got, row)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	var want [][]float64
	for _, S := range []float64{0.90, 0.99} {
		fixed := strings.Replace(src[:strings.Index(src, "sweep sched")], "S = 0.95", fmt.Sprintf("S = %v", S), 1)
		f, err := LoadSource("fixed.gpl", []byte(fixed))
		if err != nil {
			t.Fatal(err)
		}
		row := []float64{S}
		for _, e := range []string{"pretrain.mpg.p10", "pretrain.useful_hours.mean", "pretrain.cost_per_useful_hour.p90", "pretrain.mpg.sd"} {
			v, err := f.Eval("<expr>", e)
			if err != nil {
				t.Fatalf("%s: %v", e, err)
			}
			row = append(row, v.Num)
		}
		want = append(want, row)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("sweep points (-file sampled at each point +sweep):\n%s", d)
	}
}

// BenchmarkStatisticOverJob is a solve and a sweep of 10 points over an
// uncertain job whose condition and show line read a statistic (mpg.p10),
// at 1,000, 10,000 and 100,000 samples: each candidate or point solves
// the job in every sample (goodput.SolveRows) and sorts the result's
// samples for the quantile. The file is loaded once; an iteration is the
// solve's search (tries: its candidates), or the sweep's walk, alone.
func BenchmarkStatisticOverJob(b *testing.B) {
	solve := uncertainJob("find S in [0.5, 1] such that mpg.p10 >= 0.30")
	sweep := solve[:strings.Index(solve, "solve need")] + "sweep sched over pretrain {\n  vary S from 0.90 to 0.99 step 0.01\n  show mpg.p10\n}\n"
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("solve/samples=%d", n), func(b *testing.B) {
			s, err := LoadWith(Options{Samples: n}, "solve.gpl", []byte(solve))
			if err != nil {
				b.Fatal(err)
			}
			d := s.p.Decls["need"]
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if !s.evalSolve(d) {
					b.Fatal("no answer")
				}
			}
			b.ReportMetric(float64(s.of(d).plan.runs), "tries")
		})
		b.Run(fmt.Sprintf("sweep/samples=%d", n), func(b *testing.B) {
			s, err := LoadWith(Options{Samples: n}, "sweep.gpl", []byte(sweep))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				points := 0
				if err := s.SweepPoints("sched", func(p SweepPoint) bool { points++; return p.Columns[0].Err == nil }); err != nil || points != 10 {
					b.Fatal(err, points)
				}
			}
		})
	}
}

// TestStatisticOverJobConcurrent reads a sweep's and a solve's
// statistics over a job from several goroutines at once, on one loaded
// file and on its sweep over a param: each reader gets the same numbers.
func TestStatisticOverJobConcurrent(t *testing.T) {
	src := uncertainJob("find S in [0.5, 1] such that mpg.p10 >= 0.30") + `sweep sched over pretrain {
  vary S in [0.90, 0.99]
  vary mtbf in [2h, 3h]
  show mpg.p10, cost_per_useful_hour.p90
}
`
	s, err := LoadWith(Options{Samples: 2000}, "c.gpl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	read := func() []float64 {
		var out []float64
		if err := s.SweepPoints("sched", func(p SweepPoint) bool {
			for _, c := range p.Columns {
				out = append(out, c.Value.Num)
			}
			return true
		}); err != nil {
			t.Error(err)
		}
		c, err := s.SolveCurve("need", 5)
		if err != nil {
			t.Error(err)
		}
		for _, p := range c.Points {
			out = append(out, p[1])
		}
		return out
	}
	want := read()
	got := make([][]float64, 4)
	done := make(chan int)
	for g := range got {
		go func() {
			got[g] = read()
			done <- g
		}()
	}
	for range got {
		<-done
	}
	for g := range got {
		if d := cmp.Diff(want, got[g]); d != "" {
			t.Errorf("reader %d (-first +concurrent):\n%s", g, d)
		}
	}
}
