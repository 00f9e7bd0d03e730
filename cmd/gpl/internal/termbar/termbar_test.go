package termbar

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestCountBar checks a count bar's draws: at zero at once, over the
// line before with a clear, throttled but for the whole, and not again
// once whole.
func TestCountBar(t *testing.T) {
	var w bytes.Buffer
	b := New(&w, 4, Options{Description: "d", Width: 4, Throttle: time.Hour, Count: true})
	b.Add(1) // throttled
	b.Add(3) // whole: drawn
	b.Add(1) // not again
	b.Exit()
	b.Clear()
	clear := "\r" + strings.Repeat(" ", 20) + "\r"
	want := "\rd   0% |    | (0/4) " + clear + "\rd 100% |████| (4/4) " + clear
	if diff := cmp.Diff(want, w.String()); diff != "" {
		t.Errorf("drawn (-want +got):\n%s", diff)
	}
}

// TestBytesBar checks a byte bar's counts and description.
func TestBytesBar(t *testing.T) {
	var w bytes.Buffer
	b := New(&w, 2_000_000, Options{Description: "reading", Width: 10, Bytes: true})
	b.Describe("7 lines")
	b.Set(1_000_000)
	got := w.String()
	for _, s := range []string{"reading   0% |", "(0 B/2.0 MB,", "7 lines  50% |█████     | (1.0 MB/2.0 MB, "} {
		if !strings.Contains(got, s) {
			t.Errorf("drawn %q; want %q in it", got, s)
		}
	}
}
