//go:build unix

package srcfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/testdata/pipewatch"
)

// unreadPipe makes a named pipe at path and fails the test if anything
// opens it to read before the test ends; opened, it reads as empty.
func unreadPipe(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := pipewatch.Start(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		opened, err := w.Stop()
		if err != nil {
			t.Error(err)
		}
		if opened {
			t.Errorf("%s was opened for reading", path)
		}
	})
}

// TestReadFile reads and refuses each kind of file, made in the test's
// directory: a refusal is told from what stat says, nothing of the file
// read, and a named pipe is never opened.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(at("plan.gpl"), []byte("let a = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unreadPipe(t, at("pipe.gpl"))
	if err := syscall.Mknod(at("zero.gpl"), syscall.S_IFCHR|0o644, 1<<8|5); err != nil {
		t.Fatal(err) // the tests run as root
	}
	if err := syscall.Mknod(at("null.gpl"), syscall.S_IFCHR|0o644, 1<<8|3); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(at("dir.gpl"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("zero.gpl", at("link.gpl")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(at("big.gpl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(MaxSize + 1); err != nil { // sparse: only its size is looked at
		t.Fatal(err)
	}
	big.Close()

	for _, tc := range []struct {
		name, want string
		is         error
	}{
		{"plan.gpl", "", nil},
		{"pipe.gpl", "cannot read $/pipe.gpl: it is a named pipe, not a regular file", ErrNotRegular},
		{"zero.gpl", "cannot read $/zero.gpl: it is a character device, not a regular file", ErrNotRegular},
		{"null.gpl", "cannot read $/null.gpl: it is a character device, not a regular file", ErrNotRegular},
		{"link.gpl", "cannot read $/link.gpl: it is a character device, not a regular file", ErrNotRegular},
		{"dir.gpl", "cannot read $/dir.gpl: it is a directory, not a regular file", ErrNotRegular},
		{"big.gpl", "cannot read $/big.gpl: it is 67108865 bytes, over the limit of 64 MiB", ErrTooLarge},
		{"missing.gpl", "cannot read $/missing.gpl: no such file", fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadFile(at(tc.name), MaxSize)
			got := ""
			if err != nil {
				got = strings.ReplaceAll(err.Error(), dir, "$")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) is false", err, tc.is)
			}
			if tc.is == nil && string(b) != "let a = 1\n" {
				t.Errorf("read %q", b)
			}
		})
	}
}

// TestReadBounded checks that a read stops one byte past the limit,
// whatever the size said: a stream, and a file over a smaller limit.
func TestReadBounded(t *testing.T) {
	_, err := ReadStream(strings.NewReader("12345"), "standard input", 4)
	if diff := cmp.Diff("cannot read standard input: it holds more than the limit of 4 bytes", errText(err)); diff != "" {
		t.Errorf("ReadStream over the limit (-want +got):\n%s", diff)
	}
	b, err := ReadStream(strings.NewReader("1234"), "standard input", 4)
	if err != nil || string(b) != "1234" {
		t.Errorf("ReadStream at the limit: %q, %v", b, err)
	}
	p := filepath.Join(t.TempDir(), "five.gpl")
	if err := os.WriteFile(p, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(p, 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file of 5 bytes under a limit of 4: %v", err)
	}
}

// TestReadFS refuses in an fs.FS what ReadFile refuses on the OS.
func TestReadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"plan.gpl":  {Data: []byte("let a = 1\n")},
		"pipe.gpl":  {Mode: fs.ModeNamedPipe},
		"tty.gpl":   {Mode: fs.ModeDevice | fs.ModeCharDevice},
		"sock.gpl":  {Mode: fs.ModeSocket},
		"dir/a.gpl": {Data: []byte("let b = 2\n")},
	}
	var got []string
	for _, name := range []string{"plan.gpl", "pipe.gpl", "tty.gpl", "sock.gpl", "dir", "nowhere.gpl"} {
		_, err := ReadFS(fsys, name, MaxSize)
		got = append(got, name+": "+errText(err))
	}
	want := []string{
		"plan.gpl: ",
		"pipe.gpl: cannot read pipe.gpl: it is a named pipe, not a regular file",
		"tty.gpl: cannot read tty.gpl: it is a character device, not a regular file",
		"sock.gpl: cannot read sock.gpl: it is a socket, not a regular file",
		"dir: cannot read dir: it is a directory, not a regular file",
		"nowhere.gpl: cannot read nowhere.gpl: no such file",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadFS (-want +got):\n%s", diff)
	}
}

// TestKind names every type of file the way every refusal does.
func TestKind(t *testing.T) {
	var got []string
	for _, m := range []fs.FileMode{0, fs.ModeDir, fs.ModeNamedPipe, fs.ModeSocket, fs.ModeDevice | fs.ModeCharDevice, fs.ModeDevice, fs.ModeSymlink, fs.ModeIrregular} {
		got = append(got, Kind(m))
	}
	want := []string{"a regular file", "a directory", "a named pipe", "a socket", "a character device", "a block device", "a symbolic link", "a special file"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Kind (-want +got):\n%s", diff)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
