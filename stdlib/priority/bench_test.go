package priority

import (
	"bytes"
	"io"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// genStream returns n JSON lines of request metadata in kapsl's keys, most
// with all five keys like kapsl's example, some with keys missing or null.
func genStream(n int, seed uint64) []byte {
	var buf []byte
	for i, r := range genRequests(n, seed) {
		buf = append(buf, '{')
		first := true
		for f := Field(0); f < NumFields; f++ {
			v, ok := r.Get(f)
			if !ok && i%7 != 0 {
				continue
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = append(buf, '"')
			buf = append(buf, f.JSONKey()...)
			buf = append(buf, `":`...)
			if ok {
				buf = strconv.AppendUint(buf, uint64(v), 10)
			} else {
				buf = append(buf, "null"...)
			}
		}
		buf = append(buf, "}\n"...)
	}
	return buf
}

// BenchmarkClassify runs the kapsl rules four ways side by side: the
// Ruleset's table (ruleset), one closure per rule as Compile made them
// before the table (closures), and plain Go (handwritten, inlined into the
// loop; handwritten-call, the same called), on each set of
// classifyBenches. call-floor is a call that reads the request and
// classifies nothing: what any classifier that is not inlined pays. Each
// loop calls its classifier by name: one loop taking the classifier as a
// function would make the inlined one a call.
func BenchmarkClassify(b *testing.B) {
	rs := mustKapsl(b)
	tests := closureTests(rs)
	for _, set := range classifyBenches() {
		reqs, order := set.Reqs, set.Order
		mask := len(order) - 1
		b.Run(set.Name+"/ruleset", func(b *testing.B) {
			b.ReportAllocs()
			var s int
			for i := 0; b.Loop(); i++ {
				_, rule := rs.Classify(&reqs[order[i&mask]])
				s += rule
			}
			sink = s
		})
		b.Run(set.Name+"/closures", func(b *testing.B) {
			b.ReportAllocs()
			var s int
			for i := 0; b.Loop(); i++ {
				s += classifyClosures(tests, &reqs[order[i&mask]])
			}
			sink = s
		})
		b.Run(set.Name+"/handwritten", func(b *testing.B) {
			b.ReportAllocs()
			var s int
			for i := 0; b.Loop(); i++ {
				s += handWrittenKapslRule(&reqs[order[i&mask]])
			}
			sink = s
		})
		b.Run(set.Name+"/handwritten-call", func(b *testing.B) {
			b.ReportAllocs()
			var s int
			for i := 0; b.Loop(); i++ {
				s += handWrittenKapslRuleCall(&reqs[order[i&mask]])
			}
			sink = s
		})
		b.Run(set.Name+"/call-floor", func(b *testing.B) {
			b.ReportAllocs()
			var s int
			for i := 0; b.Loop(); i++ {
				s += callFloor(&reqs[order[i&mask]])
			}
			sink = s
		})
	}
}

// handWrittenKapslRuleCall is handWrittenKapslRule as a call, not
// inlined into its caller's loop, as Ruleset.Classify is a call: the
// part of the gap between the two that is the call itself.
//
//go:noinline
func handWrittenKapslRuleCall(r *Request) int { return handWrittenKapslRule(r) }

// callFloor reads the request's presence and decides nothing: the cost of
// the call and the request's load alone, beside which the classifiers
// that are calls can be read.
//
//go:noinline
func callFloor(r *Request) int { return int(r.Present) }

// BenchmarkClassifyRules measures Classify on rulesets of 16, 256 and
// 4,096 generated rules (manyRules), over 4,096 requests: the time a
// request takes grows with the rules it has to try before one holds.
func BenchmarkClassifyRules(b *testing.B) {
	reqs := genRequests(4096, 5)
	for _, n := range []int{16, 256, 4096} {
		rs, err := Compile(manyRules(n, 3), "else")
		if err != nil {
			b.Fatal(err)
		}
		b.Run("rules="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			var s int
			for i := 0; b.Loop(); i++ {
				_, rule := rs.Classify(&reqs[i&4095])
				s += rule
			}
			sink = s
		})
	}
}

// closureTests compiles each rule of rs to a closure, as Compile did
// before the table: the reference the table is tested and measured
// against.
func closureTests(rs *Ruleset) []condFn {
	tests := make([]condFn, len(rs.conds))
	for i, c := range rs.conds {
		tests[i] = genCond(c).fn()
	}
	return tests
}

// classifyClosures returns the index of the first closure that holds for
// r, or -1: Classify as it was.
func classifyClosures(tests []condFn, r *Request) int {
	for i, t := range tests {
		if t(r) {
			return i
		}
	}
	return -1
}

var sink int

// repeatReader reads buf n times.
type repeatReader struct {
	buf []byte
	off int
	n   int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.off == len(r.buf) {
		if r.n <= 1 {
			return 0, io.EOF
		}
		r.n--
		r.off = 0
	}
	k := copy(p, r.buf[r.off:])
	r.off += k
	return k, nil
}

// handWrittenKapslRule is kapsl's rules as plain Go, returning the rule
// as Classify does: what BenchmarkClassify measures the table against.
func handWrittenKapslRule(r *Request) int {
	switch {
	case r.Values[Priority] == 0:
		return 0
	case r.Present&(1<<SLADeadline) != 0 && r.Values[SLADeadline] < 250:
		return 1
	case r.Present&(1<<InputSize) != 0 && r.Values[InputSize] <= 500_000,
		r.Present&(1<<Flops) != 0 && r.Values[Flops] <= 1_000_000_000:
		return 2
	case r.Present&(1<<InputSize) != 0 && r.Values[InputSize]*r.Values[BatchSize] <= 2_000_000:
		return 3
	case r.Values[BatchSize] <= 4:
		return 4
	}
	return -1
}

// BenchmarkStreamReader reads 1,000,000 lines (a 100,000-line buffer, ten
// times) per operation.
func BenchmarkStreamReader(b *testing.B) {
	data := genStream(100_000, 12)
	const repeats = 10
	lines := 100_000 * repeats
	b.SetBytes(int64(len(data) * repeats))
	b.ReportAllocs()
	for b.Loop() {
		s := NewStreamReader(&repeatReader{buf: data, n: repeats})
		n := 0
		for s.Next() {
			if s.Err() != nil {
				b.Fatal(s.Err())
			}
			n++
		}
		if n != lines {
			b.Fatalf("read %d lines, want %d", n, lines)
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkPipeline reads, classifies and writes back 100,000 lines per
// operation, as a --format jsonl run does.
func BenchmarkPipeline(b *testing.B) {
	data := genStream(100_000, 13)
	rs := mustKapsl(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var out []byte
	for b.Loop() {
		s := NewStreamReader(bytes.NewReader(data))
		for s.Next() {
			class, rule := rs.Classify(s.Request())
			out = AppendJSONL(out[:0], s.Line(), class, rs.RuleName(rule))
		}
	}
	b.ReportMetric(100_000*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkBytesStreamReader reads 1,000,000 lines in place, as from a
// mapped file, per operation.
func BenchmarkBytesStreamReader(b *testing.B) {
	data := bytes.Repeat(genStream(100_000, 12), 10)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewBytesStreamReader(data)
		n := 0
		for s.Next() {
			if s.Err() != nil {
				b.Fatal(s.Err())
			}
			n++
		}
		if n != 1_000_000 {
			b.Fatalf("read %d lines, want 1,000,000", n)
		}
	}
	b.ReportMetric(1e6*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// TestClassifyBenches checks the benchmark sets are what their names
// say: each order a power of two long and in range, the cyclic and
// distinct ones every request in turn, the random one 64 times longer
// than its requests and visiting each of them.
func TestClassifyBenches(t *testing.T) {
	type shape struct {
		Name         string
		Reqs, Order  int
		InTurn, Seen bool
	}
	var got []shape
	for _, s := range classifyBenches() {
		inTurn, seen := true, make([]bool, len(s.Reqs))
		for i, o := range s.Order {
			if int(o) >= len(s.Reqs) {
				t.Fatalf("%s: order[%d] = %d, beyond %d requests", s.Name, i, o, len(s.Reqs))
			}
			inTurn = inTurn && int(o) == i%len(s.Reqs)
			seen[o] = true
		}
		all := true
		for _, v := range seen {
			all = all && v
		}
		got = append(got, shape{s.Name, len(s.Reqs), len(s.Order), inTurn, all})
	}
	want := []shape{
		{"cache", 1024, 1 << 16, false, true},
		{"cache-cyclic", 1024, 1024, true, true},
		{"distinct", 1 << 20, 1 << 20, true, true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("benchmark sets (-want +got):\n%s", d)
	}
}
