package repl

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchmarkDeclare measures one let typed into a script session that
// already holds n, through the line loop: reading, parsing, declaring and
// printing its value. With eval.Session the cost must not grow with n.
func benchmarkDeclare(b *testing.B, n int) {
	r := newRepl(Config{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}, false)
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, "let v%d = %d\n", i, i)
	}
	if r.run(newScriptSource(strings.NewReader(sb.String()))) != 0 {
		b.Fatal("the session did not load")
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		line := fmt.Sprintf("let w%d = v%d + 1\n", i, i%n)
		r.run(newScriptSource(strings.NewReader(line)))
		i++
	}
	if r.failed {
		b.Fatal("a declaration failed")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/line")
}

func BenchmarkDeclareAfter500(b *testing.B)  { benchmarkDeclare(b, 500) }
func BenchmarkDeclareAfter2000(b *testing.B) { benchmarkDeclare(b, 2000) }
