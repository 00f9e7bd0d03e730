//go:build unix

package eval

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"io/fs"

	"github.com/google/go-cmp/cmp"
)

// TestLoadRefusesSpecialFiles loads, as the file named on the command
// line, each kind of file that is not source, made in the test's
// directory: each is refused from what stat says, with a hint, before
// any of it is read (a named pipe is never opened, a device never read,
// a file over 64 MiB refused from its size).
func TestLoadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	unreadPipe(t, at("pipe.gpl"))
	for name, dev := range map[string]int{"zero.gpl": 1<<8 | 5, "null.gpl": 1<<8 | 3} {
		if err := syscall.Mknod(at(name), syscall.S_IFCHR|0o644, dev); err != nil {
			t.Fatal(err) // the tests run as root
		}
	}
	if err := os.Mkdir(at("plans"), 0o755); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(at("big.gpl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(64<<20 + 1); err != nil { // sparse
		t.Fatal(err)
	}
	big.Close()

	const special = "   = hint: gpl reads source only from a regular file, which it can read whole (a pipe or a device could block or never end); save the text to a file and name that\n"
	for _, tc := range []struct{ file, want string }{
		{"pipe.gpl", "error: cannot read $/pipe.gpl: it is a named pipe, not a regular file\n" + special},
		{"zero.gpl", "error: cannot read $/zero.gpl: it is a character device, not a regular file\n" + special},
		{"null.gpl", "error: cannot read $/null.gpl: it is a character device, not a regular file\n" + special},
		{"plans", "error: cannot read $/plans: it is a directory, not a regular file\n   = hint: name a .gpl file; gpl check and gpl test read every .gpl file under a directory\n"},
		{"big.gpl", "error: cannot read $/big.gpl: it is 67108865 bytes, over the limit of 64 MiB\n   = hint: split it into files that import one another\n"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, _ := loadOutput(t, Options{}, at(tc.file))
			got = strings.ReplaceAll(got, dir, "$")
			// Notes of a diagnostic placed nowhere print as "  = ".
			want := strings.ReplaceAll(tc.want, "   = ", "  = ")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("LoadFile (-want +got):\n%s", diff)
			}
		})
	}

	// Through an fs.FS, the same rule.
	fsys := fstest.MapFS{"pipe.gpl": {Mode: fs.ModeNamedPipe}}
	got, _ := loadOutput(t, Options{FS: fsys}, "pipe.gpl")
	want := "error: cannot read pipe.gpl: it is a named pipe, not a regular file\n" + strings.ReplaceAll(special, "   = ", "  = ")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load from an fs.FS (-want +got):\n%s", diff)
	}
}
