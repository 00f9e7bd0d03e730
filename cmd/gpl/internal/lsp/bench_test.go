package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gpl-lang/gpl/eval"
)

// benchFile is a scenario of about n lines: blocks of a let, a param, a
// pool and a job with an expect, each 11 lines.
func benchFile(n int) string {
	var b strings.Builder
	for i := 0; i*11 < n; i++ {
		fmt.Fprintf(&b, "let peak_%d = 0.45\nparam runtime_%d = 0.9\npool pool_%d {\n  devices = 128\n  rate    = 2.50 USD/h\n}\n", i, i, i)
		fmt.Fprintf(&b, "job job_%d on pool_%d {\n  hours = 720h\n  factors { scheduling = 0.95  runtime = runtime_%d  program = 0.33 }\n  expect mpg ≈ 0.28215\n}\n", i, i, i)
	}
	return b.String()
}

var benchSizes = []int{200, 2000, 20000}

// BenchmarkDiagnostics is what a change costs: the document checked with
// its expects run, its diagnostics and its inlay hints made.
func BenchmarkDiagnostics(b *testing.B) {
	for _, n := range benchSizes {
		text := benchFile(n)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			s := &Server{docs: map[string]*document{}}
			name := filepath.Join(b.TempDir(), "bench.gpl")
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				a := s.check(name, text)
				if len(s.lspDiagnostics(a)) != 0 {
					b.Fatal("diagnostics")
				}
				if len(a.inlayHints(Range{})) == 0 {
					b.Fatal("no hints")
				}
			}
		})
	}
}

// BenchmarkLoad is the part of BenchmarkDiagnostics that is eval's: the
// load and the expects, for the server's own share by difference.
func BenchmarkLoad(b *testing.B) {
	for _, n := range benchSizes {
		text := benchFile(n)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			name := filepath.Join(b.TempDir(), "bench.gpl")
			b.ReportAllocs()
			for b.Loop() {
				scn, err := eval.LoadSource(name, []byte(text))
				if err != nil {
					b.Fatal(err)
				}
				scn.Test()
			}
		})
	}
}

// benchDoc is a server holding one checked document of n lines.
func benchDoc(b *testing.B, n int) (*Server, string, string) {
	text := benchFile(n)
	s := &Server{docs: map[string]*document{}, init: true}
	name := filepath.Join(b.TempDir(), "bench.gpl")
	uri := pathURI(name)
	s.docs[uri] = &document{uri: uri, name: name, version: 1, text: text}
	a := s.analyze(s.docs[uri])
	a.tokens() // as the first request after a change leaves them
	a.declaredNames()
	return s, uri, text
}

// BenchmarkHover hovers over a job's result in the middle of the file.
func BenchmarkHover(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			s, uri, text := benchDoc(b, n)
			mid := strings.Index(text, fmt.Sprintf("job job_%d ", n/22))
			p := newLines(text).position(mid + 5)
			params, _ := json.Marshal(pos(uri, p.Line, p.Character))
			b.ReportAllocs()
			for b.Loop() {
				h, err := s.hover(params)
				if err != nil || h == nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompletion completes a name's start in the middle of the file.
func BenchmarkCompletion(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			s, uri, text := benchDoc(b, n)
			mid := strings.Index(text, fmt.Sprintf("runtime = runtime_%d ", n/22))
			p := newLines(text).position(mid + len("runtime = runt"))
			params, _ := json.Marshal(pos(uri, p.Line, p.Character))
			b.ReportAllocs()
			for b.Loop() {
				c, err := s.completion(params)
				if err != nil || len(c.(CompletionList).Items) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDocumentMemory reports the live heap one open document holds
// once checked (live-B/doc): its text, its check and its tokens.
func BenchmarkDocumentMemory(b *testing.B) {
	for _, n := range benchSizes {
		text := benchFile(n)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			name := filepath.Join(b.TempDir(), "bench.gpl")
			var live float64
			for b.Loop() {
				s := &Server{docs: map[string]*document{}}
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				a := s.check(name, text)
				a.tokens()
				a.declaredNames()
				runtime.GC()
				runtime.ReadMemStats(&after)
				live = float64(after.HeapAlloc) - float64(before.HeapAlloc)
				runtime.KeepAlive(a)
			}
			b.ReportMetric(live, "live-B/doc")
			b.ReportMetric(live/float64(n), "live-B/line")
		})
	}
}
