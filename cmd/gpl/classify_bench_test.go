package main

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// compressedRequests returns 100,000 request lines and their gzip and
// zstd forms.
func compressedRequests(tb testing.TB) (plain, gz, zst []byte) {
	in, _ := requestStream(100_000, 7)
	var g bytes.Buffer
	gw := gzip.NewWriter(&g)
	gw.Write([]byte(in))
	gw.Close()
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return []byte(in), g.Bytes(), zw.EncodeAll([]byte(in), nil)
}

// BenchmarkDecompress measures the decompressors alone, in uncompressed
// bytes per second: klauspost's gzip against the standard library's, and
// klauspost's zstd.
func BenchmarkDecompress(b *testing.B) {
	plain, gz, zst := compressedRequests(b)
	open := map[string]func() io.Reader{
		"gzip=klauspost": func() io.Reader { r, _ := gzip.NewReader(bytes.NewReader(gz)); return r },
		"gzip=stdlib":    func() io.Reader { r, _ := stdgzip.NewReader(bytes.NewReader(gz)); return r },
		"zstd=klauspost": func() io.Reader {
			r, _ := zstd.NewReader(bytes.NewReader(zst), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
			return r
		},
	}
	for _, name := range []string{"gzip=klauspost", "gzip=stdlib", "zstd=klauspost"} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(plain)))
			b.ReportAllocs()
			for b.Loop() {
				if n, err := io.Copy(io.Discard, open[name]()); err != nil || n != int64(len(plain)) {
					b.Fatalf("%d bytes, %v", n, err)
				}
			}
		})
	}
}

// BenchmarkClassifyCompressed measures gpl classify end to end on the same
// lines plain, gzip- and zstd-compressed, in lines per second.
func BenchmarkClassifyCompressed(b *testing.B) {
	plain, gz, zst := compressedRequests(b)
	for _, c := range []struct {
		name string
		data []byte
	}{{"plain", plain}, {"gzip", gz}, {"zstd", zst}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out, errb bytes.Buffer
				if code := runMain([]string{"classify", "--rules", "kapsl"}, bytes.NewReader(c.data), &out, &errb, func(string) string { return "" }); code != 0 {
					b.Fatal(errb.String())
				}
			}
			b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

// BenchmarkClassifyJSONL measures --format jsonl end to end in process.
func BenchmarkClassifyJSONL(b *testing.B) {
	in, _ := requestStream(100_000, 7)
	b.ReportAllocs()
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := runMain([]string{"classify", "--rules", "kapsl", "--format", "jsonl"}, strings.NewReader(in), &out, &errb, func(string) string { return "" }); code != 0 {
			b.Fatal(errb.String())
		}
	}
	b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "lines/s")
}
