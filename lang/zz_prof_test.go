package lang

import (
	"os"
	"testing"
)

func TestZZParseBig(t *testing.T) {
	name := os.Getenv("MEMFILE")
	if name == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(name)
	f, d := Parse(name, src)
	if len(d) > 0 || f == nil {
		t.Fatal(d)
	}
}

func TestZZFmtBig(t *testing.T) {
	name := os.Getenv("MEMFILE")
	if name == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(name)
	out, err := FormatSource(name, src)
	if err != nil || len(out) == 0 {
		t.Fatal(err)
	}
}
