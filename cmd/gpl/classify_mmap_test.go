//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClassifyMappedStdin checks a regular file as stdin, which is mapped:
// reading starts at the file's offset, as reading it would, and leaves the
// offset at the end.
func TestClassifyMappedStdin(t *testing.T) {
	in := "{\"priority\":0}\n{\"batch_size\":64}\n{\"batch_size\":2}\n"
	f, err := os.Open(writeFile(t, t.TempDir(), "req.jsonl", []byte(in)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(int64(len("{\"priority\":0}\n")), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runMain([]string{"classify", "--rules", "kapsl", "--line-numbers"}, f, &out, &errb, func(string) string { return "" }); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if diff := cmp.Diff("1\tthroughput\n2\tlatency_critical\n", out.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if at, _ := f.Seek(0, io.SeekCurrent); at != int64(len(in)) {
		t.Errorf("offset after the run = %d, want %d (the end)", at, len(in))
	}
}

// TestMappedFileRelease checks that giving back the pages of a mapped
// file's start changes nothing that is read: they are read again.
func TestMappedFileRelease(t *testing.T) {
	data := []byte(strings.Repeat("0123456789abcdef", 3*os.Getpagesize()/16+5))
	f, err := os.Open(writeFile(t, t.TempDir(), "big", data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(7, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	m, ok := mapFile(f)
	if !ok {
		t.Fatal("mapFile refused a regular file")
	}
	defer m.unmap()
	m.release(2*os.Getpagesize() + 1)
	if m.dropped != 2*os.Getpagesize() {
		t.Errorf("dropped = %d, want %d: whole pages before byte %d of the file", m.dropped, 2*os.Getpagesize(), 7+2*os.Getpagesize()+1)
	}
	if !bytes.Equal(m.data(), data[7:]) {
		t.Error("the mapped input after release differs from the file from offset 7")
	}
	empty, err := os.Open(writeFile(t, t.TempDir(), "empty", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	if _, ok := mapFile(empty); ok {
		t.Error("mapFile mapped an empty file")
	}
}
