//go:build linux

package safeio

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// state is what a test sees of one name in its directory.
type state struct {
	Kind  string // "file", "link", "dir", "fifo", "chardev"
	Mode  string // permission bits, for a file
	Text  string // a file's contents, a link's destination
	Links uint64 // a file's link count
	UID   uint32
}

// snapshot lists every name in dir with what it is, so a test sees both
// what changed and that no temporary copy was left behind.
func snapshot(t *testing.T, dir string) map[string]state {
	t.Helper()
	got := map[string]state{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		s := state{UID: st.Uid}
		switch m := fi.Mode(); {
		case m&fs.ModeSymlink != 0:
			s.Kind = "link"
			s.Text, _ = os.Readlink(p)
		case m.IsDir():
			s.Kind = "dir"
		case m&fs.ModeNamedPipe != 0:
			s.Kind = "fifo"
		case m&fs.ModeCharDevice != 0:
			s.Kind = "chardev"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			s.Kind, s.Mode, s.Text, s.Links = "file", m.Perm().String(), string(b), uint64(st.Nlink)
		}
		got[e.Name()] = s
	}
	return got
}

func writeFile(t *testing.T, path, text string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("cannot make a named pipe here:", err)
	}
}

// readFIFO reads the named pipe p to its end in a goroutine and sends
// what it read, or what failed, on the channel it returns.
func readFIFO(p string) <-chan string {
	read := make(chan string, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			read <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			read <- "read: " + err.Error()
			return
		}
		read <- string(b)
	}()
	return read
}

// mknull makes, inside the test's own directory, a character device with
// /dev/null's numbers (1, 3): writes to it are discarded.
func mknull(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skip("cannot make a device here (not root?):", err)
	}
}

// wantErr checks err against the wanted reason (nil for none) and that
// its message names the file as given.
func wantErr(t *testing.T, err, reason error, path string) {
	t.Helper()
	switch {
	case reason == nil && err != nil:
		t.Fatalf("error %v, want none", err)
	case reason != nil && !errors.Is(err, reason):
		t.Fatalf("error %v, want one that is %v", err, reason)
	case err != nil && !strings.Contains(err.Error(), path):
		t.Errorf("error %q does not name %s", err, path)
	}
}

func TestRewriteSourceRegularFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "plan.gpl")
	writeFile(t, p, "old", 0o640)
	wantErr(t, RewriteSource(p, []byte("new")), nil, p)
	want := map[string]state{"plan.gpl": {Kind: "file", Mode: "-rw-r-----", Text: "new", Links: 1}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

func TestRewriteSourceNewFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "plan.gpl")
	wantErr(t, RewriteSource(p, []byte("new")), nil, p)
	want := map[string]state{"plan.gpl": {Kind: "file", Mode: "-rw-r--r--", Text: "new", Links: 1}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// A 0444 file is refused even by root, and stays unchanged and 0444.
func TestRewriteSourceReadOnly(t *testing.T) {
	for _, mode := range []fs.FileMode{0o444, 0o400, 0o044} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "plan.gpl")
			writeFile(t, p, "old", mode)
			err := RewriteSource(p, []byte("new"))
			wantErr(t, err, ErrReadOnly, p)
			if want := "rewrite " + p + ": the file is read-only (mode " + mode.String() + ")"; err.Error() != want {
				t.Errorf("message %q, want %q", err, want)
			}
			want := map[string]state{"plan.gpl": {Kind: "file", Mode: mode.String(), Text: "old", Links: 1}}
			if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
				t.Errorf("the directory afterwards (-want +got):\n%s", diff)
			}
		})
	}
}

// A 0444 file of another user is refused too, though root's access(2)
// would allow the write.
func TestRewriteSourceReadOnlyOtherOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "plan.gpl")
	writeFile(t, p, "old", 0o444)
	if err := os.Chown(p, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	wantErr(t, RewriteSource(p, []byte("new")), ErrReadOnly, p)
	want := map[string]state{"plan.gpl": {Kind: "file", Mode: "-r--r--r--", Text: "old", Links: 1, UID: 4242}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// Both names of a hard-linked file see the new text, and stay one file.
func TestRewriteSourceHardLink(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.gpl"), filepath.Join(dir, "b.gpl")
	writeFile(t, a, "old text, longer than the new", 0o600)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(a)
	wantErr(t, RewriteSource(b, []byte("new")), nil, b)
	want := map[string]state{
		"a.gpl": {Kind: "file", Mode: "-rw-------", Text: "new", Links: 2},
		"b.gpl": {Kind: "file", Mode: "-rw-------", Text: "new", Links: 2},
	}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
	after, _ := os.Stat(a)
	if !os.SameFile(before, after) {
		t.Error("a.gpl is a new file, want the same inode")
	}
}

// A link's target is rewritten and the link kept.
func TestRewriteSourceSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "sub", "plan.gpl"), "old", 0o640)
	link := filepath.Join(dir, "link.gpl")
	if err := os.Symlink("sub/plan.gpl", link); err != nil {
		t.Fatal(err)
	}
	wantErr(t, RewriteSource(link, []byte("new")), nil, link)
	want := map[string]state{"link.gpl": {Kind: "link", Text: "sub/plan.gpl"}, "sub": {Kind: "dir"}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
	want = map[string]state{"plan.gpl": {Kind: "file", Mode: "-rw-r-----", Text: "new", Links: 1}}
	if diff := cmp.Diff(want, snapshot(t, filepath.Join(dir, "sub"))); diff != "" {
		t.Errorf("sub afterwards (-want +got):\n%s", diff)
	}
}

// A loop of links is an error that changes nothing.
func TestRewriteSourceLinkLoop(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.gpl"), filepath.Join(dir, "b.gpl")
	if err := os.Symlink("b.gpl", a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.gpl", b); err != nil {
		t.Fatal(err)
	}
	err := RewriteSource(a, []byte("new"))
	if err == nil || !strings.Contains(err.Error(), "too many levels of symbolic links") {
		t.Fatalf("error %v, want too many levels of symbolic links", err)
	}
	want := map[string]state{"a.gpl": {Kind: "link", Text: "b.gpl"}, "b.gpl": {Kind: "link", Text: "a.gpl"}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// The owner and group are kept (the tests run as root, who may set them).
func TestRewriteSourceKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "plan.gpl")
	writeFile(t, p, "old", 0o664)
	if err := os.Chown(p, 4242, 4343); err != nil {
		t.Fatal(err)
	}
	wantErr(t, RewriteSource(p, []byte("new")), nil, p)
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if diff := cmp.Diff([2]uint32{4242, 4343}, [2]uint32{st.Uid, st.Gid}); diff != "" {
		t.Errorf("owner and group (-want +got):\n%s", diff)
	}
	want := map[string]state{"plan.gpl": {Kind: "file", Mode: "-rw-rw-r--", Text: "new", Links: 1, UID: 4242}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// Special files are refused as sources: nothing is opened or replaced.
func TestRewriteSourceRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	mkfifo(t, filepath.Join(dir, "fifo.gpl"))
	mknull(t, filepath.Join(dir, "null.gpl"))
	if err := os.Mkdir(filepath.Join(dir, "dir.gpl"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, kind := range map[string]string{"fifo.gpl": "a named pipe", "null.gpl": "a character device", "dir.gpl": "a directory"} {
		p := filepath.Join(dir, name)
		err := RewriteSource(p, []byte("new"))
		wantErr(t, err, ErrNotRegular, p)
		if want := "rewrite " + p + ": not a regular file (" + kind + ")"; err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
	}
	want := map[string]state{"fifo.gpl": {Kind: "fifo"}, "null.gpl": {Kind: "chardev"}, "dir.gpl": {Kind: "dir"}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

func TestRewriteSourceMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "nowhere", "plan.gpl")
	err := RewriteSource(p, []byte("new"))
	wantErr(t, err, fs.ErrNotExist, p)
	if diff := cmp.Diff(map[string]state{}, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// A report to a named pipe is written into the pipe, which stays a pipe.
func TestWriteReportFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.xml")
	mkfifo(t, p)
	read := readFIFO(p)
	wantErr(t, WriteReport(p, []byte("<report/>\n")), nil, p)
	if diff := cmp.Diff("<report/>\n", <-read); diff != "" {
		t.Errorf("read from the pipe (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]state{"report.xml": {Kind: "fifo"}}, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// A report to a copy of /dev/null, made in the test's directory, is
// written to the device, which stays a device.
func TestWriteReportCharDevice(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "null")
	mknull(t, p)
	link := filepath.Join(dir, "report.xml")
	if err := os.Symlink("null", link); err != nil {
		t.Fatal(err)
	}
	wantErr(t, WriteReport(p, []byte("<report/>\n")), nil, p)
	wantErr(t, WriteReport(link, []byte("<report/>\n")), nil, link)
	want := map[string]state{"null": {Kind: "chardev"}, "report.xml": {Kind: "link", Text: "null"}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

func TestWriteReportRegularFile(t *testing.T) {
	dir := t.TempDir()
	old, fresh := filepath.Join(dir, "old.xml"), filepath.Join(dir, "new.xml")
	writeFile(t, old, "an older, longer report", 0o600)
	wantErr(t, WriteReport(old, []byte("<report/>\n")), nil, old)
	wantErr(t, WriteReport(fresh, []byte("<report/>\n")), nil, fresh)
	want := map[string]state{
		"old.xml": {Kind: "file", Mode: "-rw-------", Text: "<report/>\n", Links: 1},
		"new.xml": {Kind: "file", Mode: "-rw-r--r--", Text: "<report/>\n", Links: 1},
	}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

func TestWriteReportRefusesDirectoryAndReadOnly(t *testing.T) {
	dir := t.TempDir()
	d, ro := filepath.Join(dir, "d"), filepath.Join(dir, "ro.xml")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, ro, "old", 0o444)
	wantErr(t, WriteReport(d, []byte("x")), ErrNotRegular, d)
	wantErr(t, WriteReport(ro, []byte("x")), ErrReadOnly, ro)
	want := map[string]state{"d": {Kind: "dir"}, "ro.xml": {Kind: "file", Mode: "-r--r--r--", Text: "old", Links: 1}}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("the directory afterwards (-want +got):\n%s", diff)
	}
}

// A report written through a descriptor lands at the descriptor's offset,
// between what was written before and after: the shell's
// ( echo HEADER; gpl test --junit /dev/stdout; echo TRAILER ) > log.
func TestWriteDescriptorSharesOffset(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "log.txt")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("HEADER\n"); err != nil {
		t.Fatal(err)
	}
	if err := writeDescriptor(int(f.Fd()), bytesOf([]byte("<report/>\n"))); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("TRAILER\n"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("HEADER\n<report/>\nTRAILER\n", string(b)); diff != "" {
		t.Errorf("the log (-want +got):\n%s", diff)
	}
}

func TestDescriptorName(t *testing.T) {
	pid := os.Getpid()
	tests := []struct {
		path string
		fd   int
		ok   bool
	}{
		{"/dev/stdout", 1, true},
		{"/dev/stderr", 2, true},
		{"/dev/fd/7", 7, true},
		{"/dev/fd/7/", 7, true},
		{"/proc/self/fd/1", 1, true},
		{"/proc/" + itoa(pid) + "/fd/3", 3, true},
		{"/proc/" + itoa(pid+1) + "/fd/3", 0, false},
		{"/dev/fd/x", 0, false},
		{"/dev/null", 0, false},
		{"report.xml", 0, false},
	}
	for _, tt := range tests {
		fd, ok := descriptorName(tt.path)
		if diff := cmp.Diff([2]any{tt.fd, tt.ok}, [2]any{fd, ok}); diff != "" {
			t.Errorf("descriptorName(%q) (-want +got):\n%s", tt.path, diff)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// failingWriter accepts limit bytes, then fails every write.
type failingWriter struct {
	got   strings.Builder
	limit int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.got.Len()+len(p) > w.limit {
		return 0, syscall.ENOSPC
	}
	return w.got.WriteString(string(p))
}

func TestWriterRemembersFirstError(t *testing.T) {
	fw := &failingWriter{limit: 5}
	w := NewWriter(fw, "standard output")
	if _, err := io.WriteString(w, "12345"); err != nil {
		t.Fatalf("first write: %v", err)
	}
	if err := w.Err(); err != nil {
		t.Fatalf("Err after a good write: %v", err)
	}
	_, err1 := io.WriteString(w, "6")
	fw.limit = 100 // the stream recovers; the Writer stays failed
	_, err2 := io.WriteString(w, "7")
	got := []string{fw.got.String(), errString(err1), errString(err2), errString(w.Err())}
	want := []string{"12345",
		"write to standard output: no space left on device",
		"write to standard output: no space left on device",
		"write to standard output: no space left on device"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !errors.Is(w.Err(), syscall.ENOSPC) || IsBrokenPipe(w.Err()) {
		t.Errorf("Err() = %v, want ENOSPC and not a broken pipe", w.Err())
	}
}

func TestWriterBrokenPipe(t *testing.T) {
	r, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer pw.Close()
	w := NewWriter(pw, "standard output")
	io.WriteString(w, "x") // the pipe's reader is gone: EPIPE (fd > 2, so no SIGPIPE)
	if !IsBrokenPipe(w.Err()) {
		t.Errorf("Err() = %v, want a broken pipe", w.Err())
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
