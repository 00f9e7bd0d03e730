//go:build unix

package pipewatch

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mkfifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUnopened(t *testing.T) {
	w, err := Start(mkfifo(t))
	if err != nil {
		t.Fatal(err)
	}
	opened, err := w.Stop()
	if err != nil || opened {
		t.Errorf("Stop() = %v, %v; want false, nil", opened, err)
	}
	if opened, err := w.Stop(); err != nil || opened {
		t.Errorf("Stop() again = %v, %v; want false, nil", opened, err)
	}
}

// A reader opens the pipe, reads it as empty, and the watch saw it.
func TestOpened(t *testing.T) {
	p := mkfifo(t)
	w, err := Start(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("", string(b)); diff != "" {
		t.Errorf("read from the watched pipe (-want +got):\n%s", diff)
	}
	opened, err := w.Stop()
	if err != nil || !opened {
		t.Errorf("Stop() = %v, %v; want true, nil", opened, err)
	}
}

func TestNotAPipe(t *testing.T) {
	p := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Start(p); err == nil {
		t.Errorf("Start on a regular file: no error")
	}
}
