package eval

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// uncertainDefault is the default scenario with two of its inputs made
// uncertain (the measured runtime 0.88 to 0.92, the program 0.31 to
// 0.35) and its expects, which pin plain values, left out.
func uncertainDefault(b testing.TB) []byte {
	src, err := os.ReadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		b.Fatal(err)
	}
	s := regexp.MustCompile(`(?m)^\s*expect .*$`).ReplaceAllString(string(src), "")
	s = strings.Replace(s, "param measured_runtime = 0.90", "param measured_runtime = 0.88 to 0.92", 1)
	s = strings.Replace(s, "program    = 0.33 ", "program    = 0.31 to 0.35 ", 1)
	return []byte(s)
}

// BenchmarkUncertainDefaultScenario loads the default scenario with two
// uncertain inputs and 10,000 samples: parse, check, the base evaluation
// and the samples of every headline result (the pool's and 2 jobs' mpg,
// useful hours and cost per useful hour, and the param). The plain load of the same
// file is BenchmarkLoadDefaultScenario's (about 0.3 ms).
func BenchmarkUncertainDefaultScenario(b *testing.B) {
	src := uncertainDefault(b)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		s, err := LoadSource("u.gpl", src)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Uncertain()) == 0 {
			b.Fatal("not sampled")
		}
	}
}

// uncertainFleet is a pool and n jobs reading three uncertain params
// (an MTBF, an MFU and a scheduling share), a correlated fleet.
func uncertainFleet(n int) []byte {
	var b strings.Builder
	b.WriteString("param mtbf = 2.5h to 4h\nparam mfu = 0.38 to 0.43\nparam sched = 0.93 to 0.97\n\npool p {\n  devices = 100000\n  rate = 2.50 USD/h\n}\n\n")
	for i := range n {
		fmt.Fprintf(&b, "job j%d on p {\n  devices = %d\n  hours = 720h\n  factors { S = sched  R = runtime_goodput(mtbf, 1min, %dmin)  P = mfu }\n}\n\n", i, 8+i%64, 5+i%10)
	}
	return []byte(b.String())
}

// BenchmarkUncertainFleet loads fleets of jobs with three uncertain
// params over some samples: every job's and the pool's mpg, useful hours
// and cost per useful hour summarised. heap-MB is the heap in use after
// the load, with the sorted samples the summaries keep.
func BenchmarkUncertainFleet(b *testing.B) {
	for _, c := range []struct{ jobs, samples int }{
		{10, 10000}, {30, 10000}, {100, 10000},
		{100, 1000}, {100, 3000}, {1000, 1000}, {1000, 10000},
	} {
		b.Run(fmt.Sprintf("jobs=%d/samples=%d", c.jobs, c.samples), func(b *testing.B) {
			src := uncertainFleet(c.jobs)
			var s *Scenario
			done := reportCPU(b)
			for b.Loop() {
				var err error
				s, err = LoadWith(Options{Samples: c.samples}, "fleet.gpl", src)
				if err != nil {
					b.Fatal(err)
				}
			}
			done()
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			b.ReportMetric(float64(m.HeapInuse)/1e6, "heap-MB")
			if got := len(s.Uncertain()); got != 3*c.jobs+6 {
				b.Fatalf("%d uncertain results", got)
			}
		})
	}
}

// reportCPU reports, when the returned function is called, the CPU time
// the process spent per iteration (cpu-ms/op): on a machine shared with
// other work the wall time of a benchmark says more about the others.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
	}
}
