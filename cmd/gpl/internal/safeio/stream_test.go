//go:build linux

package safeio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// errHalfway is the failure of a report that could not be made to the end.
var errHalfway = errors.New("sweep s: column c at P = 0.5: undefined")

// halfReport writes n lines of a report of 2n, then fails with errHalfway.
func halfReport(n int) func(io.Writer) error {
	return func(w io.Writer) error {
		for i := range n {
			if _, err := fmt.Fprintf(w, "row %d\n", i); err != nil {
				return err
			}
		}
		return errHalfway
	}
}

// A report made as it is written replaces a regular file, or creates a
// missing one, when it is complete, over many buffers' worth.
func TestWriteReportFromRegularFile(t *testing.T) {
	dir := t.TempDir()
	old, fresh := filepath.Join(dir, "old.csv"), filepath.Join(dir, "new.csv")
	writeFile(t, old, "an older report", 0o600)
	var want strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&want, "row %d\n", i)
	}
	rows := func(w io.Writer) error {
		_, err := io.WriteString(w, want.String())
		return err
	}
	wantErr(t, WriteReportFrom(old, rows), nil, old)
	wantErr(t, WriteReportFrom(fresh, rows), nil, fresh)
	wantDir := map[string]state{
		"old.csv": {Kind: "file", Mode: "-rw-------", Text: want.String(), Links: 1},
		"new.csv": {Kind: "file", Mode: "-rw-r--r--", Text: want.String(), Links: 1},
	}
	if diff := cmp.Diff(wantDir, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// A report that fails after part of it is written leaves an existing
// file exactly as it was (a hard-linked one too), creates no missing one
// and leaves no temporary copy; the report's own error comes back as it
// is, not as a write's.
func TestWriteReportFromFailingReport(t *testing.T) {
	dir := t.TempDir()
	old, linked, fresh := filepath.Join(dir, "old.csv"), filepath.Join(dir, "linked.csv"), filepath.Join(dir, "new.csv")
	writeFile(t, old, "the earlier table\n", 0o640)
	if err := os.Link(old, linked); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{old, linked, fresh} {
		err := WriteReportFrom(p, halfReport(20000)) // 200 KB, past the buffer
		var we *Error
		if diff := cmp.Diff([2]any{true, false}, [2]any{errors.Is(err, errHalfway), errors.As(err, &we)}); diff != "" {
			t.Errorf("%s: error %v: is errHalfway, is an *Error (-want +got):\n%s", filepath.Base(p), err, diff)
		}
	}
	want := map[string]state{
		"old.csv":    {Kind: "file", Mode: "-rw-r-----", Text: "the earlier table\n", Links: 2},
		"linked.csv": {Kind: "file", Mode: "-rw-r-----", Text: "the earlier table\n", Links: 2},
	}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// A hard-linked file gets a complete streamed report in place, both names
// seeing it.
func TestWriteReportFromHardLink(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	writeFile(t, a, "an old table, longer than the new one\n", 0o600)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	wantErr(t, WriteReportFrom(b, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }), nil, b)
	want := map[string]state{
		"a.csv": {Kind: "file", Mode: "-rw-------", Text: "new\n", Links: 2},
		"b.csv": {Kind: "file", Mode: "-rw-------", Text: "new\n", Links: 2},
	}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// A named pipe gets the report as it is made, and what was written
// before a failure stays written: a pipe cannot take it back.
func TestWriteReportFromFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "table.csv")
	mkfifo(t, p)
	read := readFIFO(p)
	err := WriteReportFrom(p, halfReport(2))
	if diff := cmp.Diff([2]any{"row 0\nrow 1\n", errHalfway.Error()}, [2]any{<-read, errString(err)}); diff != "" {
		t.Errorf("read from the pipe, error (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]state{"table.csv": {Kind: "fifo"}}, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// A write that fails at the destination is an *Error naming it, and the
// temporary copy is gone.
func TestWriteReportFromRefused(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.csv")
	writeFile(t, ro, "old", 0o444)
	called := false
	err := WriteReportFrom(ro, func(io.Writer) error { called = true; return nil })
	wantErr(t, err, ErrReadOnly, ro)
	if called {
		t.Error("the report was made for a destination refused before it")
	}
	want := map[string]state{"ro.csv": {Kind: "file", Mode: "-r--r--r--", Text: "old", Links: 1}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}
