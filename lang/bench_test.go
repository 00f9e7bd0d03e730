package lang

import (
	"os"
	"testing"
)

func readDefaultScenario(b *testing.B) []byte {
	b.Helper()
	src, err := os.ReadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkLexDefaultScenario splits the default scenario into tokens.
func BenchmarkLexDefaultScenario(b *testing.B) {
	src := readDefaultScenario(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, d := tokenize("s.gpl", src); d != nil {
			b.Fatal(d)
		}
	}
}

// BenchmarkParseDefaultScenario parses the default scenario into its
// syntax tree.
func BenchmarkParseDefaultScenario(b *testing.B) {
	src := readDefaultScenario(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, diags := Parse("s.gpl", src); diags != nil {
			b.Fatal(diags)
		}
	}
}
