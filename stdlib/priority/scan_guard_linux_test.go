package priority

import (
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// guardedLine returns a function that copies a line to the very end of a
// mapped page whose next page is mapped with no access, so that a read
// of even one byte past the line faults.
func guardedLine(t *testing.T) func(line string) []byte {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return func(line string) []byte {
		b := mem[page-len(line) : page : page]
		copy(b, line)
		return b
	}
}

// TestScanObjectStaysInTheLine runs the fast scanner, which loads the
// line eight bytes at a time without a bounds check of its own for each
// load, on every prefix of some lines, each ending where an unreadable
// page begins: a load past the end of the line would crash the test. Only
// the prefixes that are whole objects scan, to their end.
func TestScanObjectStaysInTheLine(t *testing.T) {
	at := guardedLine(t)
	lines := []string{
		`{"priority":2,"sla_deadline":120,"batch_size":21,"input_size_bytes":88925,"estimated_flops":1210668974}`,
		`{"input_size_bytes":1234567890123456,"estimated_flops":12345678}`,
		`{"estimated_flops":123456789012345,"batch_size":1}`,
		`{"priority" : 1 , "batch_size" : 4 }`,
	}
	type result struct {
		End int
		OK  bool
	}
	for _, line := range lines {
		var got, want []result
		for n := 0; n <= len(line); n++ {
			var r Request
			end, ok := scanObject(at(line[:n]), &r)
			got = append(got, result{end, ok})
			if n == len(line) {
				want = append(want, result{n, true})
			} else {
				want = append(want, result{})
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("scanObject of the prefixes of %s (-want +got):\n%s", line, diff)
		}
	}
	// Nor does the reader, on a stream ending at the page's end.
	for _, line := range lines {
		sr := NewBytesStreamReader(at(strings.Repeat(line+"\n", 3) + line))
		n := 0
		for sr.Next() {
			if sr.Err() != nil {
				t.Fatalf("line %d of %s: %v", n+1, line, sr.Err())
			}
			n++
		}
		if n != 4 {
			t.Errorf("%s: read %d lines, want 4", line, n)
		}
	}
}
