package eval

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkLoadDefaultScenario parses, checks and evaluates the default
// scenario from memory and runs its expects: the whole of gpl test on one
// file, without reading the disk.
func BenchmarkLoadDefaultScenario(b *testing.B) {
	const name = "scenarios/llama2_70b_shared_pool_128.gpl"
	src, err := os.ReadFile("../" + name)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		s, err := LoadSource(name, src)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range s.Test() {
			if !o.Pass {
				b.Fatalf("%s failed", o.Expectation.Name())
			}
		}
	}
}

// jobsSource is a pool and n jobs, each with its hours, factors, a
// ceiling and an expect: the shape of a large generated plan.
func jobsSource(n int) []byte {
	var b strings.Builder
	b.WriteString("pool p {\n  devices = 256\n  rate = 2.50 USD/h\n}\n\n")
	for i := range n {
		fmt.Fprintf(&b, "job j%d on p {\n  hours = 720h\n  factors { S = 0.95  R = 0.90  P = 0.33 }\n  ceilings { P = 0.45 }\n  expect mpg ≈ 0.282\n}\n\n", i)
	}
	return []byte(b.String())
}

// BenchmarkLoadJobs loads files of 1,000 and 10,000 jobs; live-B/job is
// the heap one loaded scenario holds per job, which must not grow with
// the file.
func BenchmarkLoadJobs(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			src := jobsSource(n)
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := LoadSource("jobs.gpl", src); err != nil {
					b.Fatal(err)
				}
			}
			live, spans := heapBytes(func() any {
				s, _ := LoadSource("jobs.gpl", src)
				return s
			})
			b.ReportMetric(float64(live)/float64(n), "live-B/job")
			b.ReportMetric(float64(spans)/float64(n), "spans-B/job")
		})
	}
}

// heapBytes is the heap that what make returns keeps alive, in bytes, and
// the bytes of the spans that hold it: more when the live objects are
// spread over spans that short-lived ones shared (lang.Slab).
func heapBytes(make func() any) (live, spans uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x := make()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(x)
	return after.HeapAlloc - before.HeapAlloc, after.HeapInuse - before.HeapInuse
}

// benchmarkGrowth loads source(n) for n = 1,000 and 10,000, as a file that
// loads (or, with failing, one that must not), and reports the time per
// item as ns/unit: a figure that must not grow with n.
func benchmarkGrowth(b *testing.B, unit string, failing bool, source func(n int) []byte) {
	for _, n := range []int{1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			src := source(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := LoadSource("growth.gpl", src); (err != nil) != failing {
					b.Fatalf("load: %v", err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/"+unit)
		})
	}
}

// BenchmarkLoadExtendsChain loads chains of jobs, each extending the one
// before; ns/job must not grow with the chain (the owners of a job were
// once found by walking its whole chain: quadratic).
func BenchmarkLoadExtendsChain(b *testing.B) {
	benchmarkGrowth(b, "job", false, func(n int) []byte {
		var sb strings.Builder
		sb.WriteString("pool p { devices = 8  rate = 2.50 USD/h }\n")
		sb.WriteString("job j0 on p { hours = 720h  factors { S = 0.95  R = 0.9  P = 0.33 }  owners { program = \"ml\" } }\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&sb, "job j%d extends j%d { hours = 720h }\n", i, i-1)
		}
		return []byte(sb.String())
	})
}

// BenchmarkUnknownNames checks files of n lets and n expects that each
// misspell one; ns/name must not grow with n (every "did you mean" once
// scanned every declared name: quadratic).
func BenchmarkUnknownNames(b *testing.B) {
	benchmarkGrowth(b, "name", true, func(n int) []byte {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "let value%06d = %d\n", i, i)
		}
		for i := range n {
			fmt.Fprintf(&sb, "expect valeu%06d > 0\n", i)
		}
		return []byte(sb.String())
	})
}

// BenchmarkUnknownTargets checks files of n jobs that each extend a job
// that does not exist; ns/job must not grow with n (the candidates of
// every "did you mean" were once gathered and sorted anew: n² log n).
func BenchmarkUnknownTargets(b *testing.B) {
	benchmarkGrowth(b, "job", true, func(n int) []byte {
		var sb strings.Builder
		sb.WriteString("pool p { devices = 8  rate = 2.50 USD/h }\n")
		for i := range n {
			fmt.Fprintf(&sb, "job j%d extends nope%d { hours = 720h }\n", i, i)
		}
		return []byte(sb.String())
	})
}
