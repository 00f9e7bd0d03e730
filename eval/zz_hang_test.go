package eval

import (
	"os"
	"testing"
	"time"
)

func TestHang(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("HANG"))
	start := time.Now()
	_, err := LoadWith(Options{FS: repoFS}, "testdata/fuzz.gpl", src)
	t.Logf("load %v: %v", time.Since(start), err != nil)
}
