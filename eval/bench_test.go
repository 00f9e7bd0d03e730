package eval

import (
	"os"
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
				b.Fatalf("%s failed", o.Expectation.Name)
			}
		}
	}
}
