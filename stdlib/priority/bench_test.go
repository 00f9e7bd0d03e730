package priority

import (
	"bytes"
	"io"
	"strconv"
	"testing"
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

func BenchmarkClassify(b *testing.B) {
	reqs := genRequests(1024, 11)
	rs := mustKapsl(b)
	b.Run("ruleset", func(b *testing.B) {
		b.ReportAllocs()
		var n int
		for i := 0; b.Loop(); i++ {
			_, rule := rs.Classify(&reqs[i&1023])
			n += rule
		}
		sink = n
	})
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		var n int
		for i := 0; b.Loop(); i++ {
			if handWrittenKapsl(reqs[i&1023]) == throughput {
				n++
			}
		}
		sink = n
	})
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

// handWrittenKapsl is kapsl's rules as plain Go over Request: the speed
// Classify is measured against, not a reference for correctness (that is
// kapsltest.DeterminePriority).
func handWrittenKapsl(r Request) Class {
	switch {
	case r.Values[Priority] == 0,
		r.Present.Has(SLADeadline) && r.Values[SLADeadline] < 250,
		r.Present.Has(InputSize) && r.Values[InputSize] <= 500_000,
		r.Present.Has(Flops) && r.Values[Flops] <= 1_000_000_000,
		r.Present.Has(InputSize) && r.Values[InputSize]*r.Values[BatchSize] <= 2_000_000,
		r.Values[BatchSize] <= 4:
		return latencyCritical
	}
	return throughput
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
