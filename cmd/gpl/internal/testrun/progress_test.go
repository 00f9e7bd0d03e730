package testrun

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFileProgressDraws checks what gpl test's bar writes around two
// results written to the same terminal: drawn at 0 of 2, taken off
// before each result and drawn again below it, and taken off at the end.
func TestFileProgressDraws(t *testing.T) {
	var term bytes.Buffer
	p := startFileProgress(&term, 2, 0)
	emit := p.write(func(r *fileResult) { fmt.Fprintf(&term, "<%s>\n", r.path) })
	emit(&fileResult{path: "a.gpl"})
	emit(&fileResult{path: "b.gpl"})
	p.finish()
	clear := "\r" + strings.Repeat(" ", 52) + "\r"
	want := "\rtesting   0% |                              | (0/2) " + clear +
		"<a.gpl>\n" + clear + "\rtesting  50% |" + strings.Repeat("█", 15) + strings.Repeat(" ", 15) + "| (1/2) " + clear +
		"<b.gpl>\n" + clear + "\rtesting 100% |" + strings.Repeat("█", 30) + "| (2/2) " + clear
	if diff := cmp.Diff(want, term.String()); diff != "" {
		t.Errorf("terminal (-want +got):\n%s", diff)
	}
}
