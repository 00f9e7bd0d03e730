package main

import (
	"bytes"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// eagainReader fails every other read with EAGAIN, as a non-blocking
// stdin under wasip1 does while its writer is behind.
type eagainReader struct {
	r     io.Reader
	again bool
}

func (e *eagainReader) Read(p []byte) (int, error) {
	if e.again = !e.again; e.again {
		return 0, &wrappedErr{syscall.EAGAIN}
	}
	return e.r.Read(p[:min(len(p), 7)])
}

// wrappedErr is EAGAIN inside a *PathError-like error, as os wraps it.
type wrappedErr struct{ err error }

func (w *wrappedErr) Error() string { return "read /dev/stdin: " + w.err.Error() }
func (w *wrappedErr) Unwrap() error { return w.err }

// TestClassifyStdinEAGAIN checks that reads of stdin failing with EAGAIN
// are tried again: the results are those of a blocking stdin.
func TestClassifyStdinEAGAIN(t *testing.T) {
	in := "{\"priority\":0}\n{\"batch_size\":64}\n{\"batch_size\":2}\n"
	var out, errb bytes.Buffer
	code := runMain([]string{"classify", "--rules", "kapsl"}, &eagainReader{r: strings.NewReader(in)}, &out, &errb, func(string) string { return "" })
	if code != 0 || errb.Len() != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if diff := cmp.Diff("latency_critical\nthroughput\nlatency_critical\n", out.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
}
