package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteFileAtomicCases writes "new" to write in a directory set up by setup
// and checks the error, what the directory holds afterwards and what each
// file in it holds: no temporary file may be left behind.
func TestWriteFileAtomicCases(t *testing.T) {
	type entry struct {
		Type, Mode, Text string // Text is a link's destination for a link
	}
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string)
		write   string
		wantErr string // a substring of the error; "" for none
		want    map[string]entry
	}{
		{
			name:  "a new file gets 0644",
			setup: func(t *testing.T, dir string) {},
			write: "plan.gpl",
			want:  map[string]entry{"plan.gpl": {"file", "-rw-r--r--", "new"}},
		},
		{
			name:  "an existing file keeps its mode",
			setup: func(t *testing.T, dir string) { writeTestFile(t, dir, "plan.gpl", 0o600) },
			write: "plan.gpl",
			want:  map[string]entry{"plan.gpl": {"file", "-rw-------", "new"}},
		},
		{
			name: "a link's target is written, the link kept",
			setup: func(t *testing.T, dir string) {
				os.Mkdir(filepath.Join(dir, "sub"), 0o755)
				writeTestFile(t, dir, "sub/plan.gpl", 0o640)
				symlinkTest(t, "sub/plan.gpl", filepath.Join(dir, "link.gpl"))
			},
			write: "link.gpl",
			want: map[string]entry{
				"link.gpl":     {"link", "", "sub/plan.gpl"},
				"sub":          {"dir", "", ""},
				"sub/plan.gpl": {"file", "-rw-r-----", "new"},
			},
		},
		{
			name: "a link to a link",
			setup: func(t *testing.T, dir string) {
				writeTestFile(t, dir, "plan.gpl", 0o640)
				symlinkTest(t, "plan.gpl", filepath.Join(dir, "one.gpl"))
				symlinkTest(t, "one.gpl", filepath.Join(dir, "two.gpl"))
			},
			write: "two.gpl",
			want: map[string]entry{
				"one.gpl":  {"link", "", "plan.gpl"},
				"plan.gpl": {"file", "-rw-r-----", "new"},
				"two.gpl":  {"link", "", "one.gpl"},
			},
		},
		{
			name:  "a dangling link's target is created",
			setup: func(t *testing.T, dir string) { symlinkTest(t, "plan.gpl", filepath.Join(dir, "link.gpl")) },
			write: "link.gpl",
			want: map[string]entry{
				"link.gpl": {"link", "", "plan.gpl"},
				"plan.gpl": {"file", "-rw-r--r--", "new"},
			},
		},
		{
			name: "a loop of links fails",
			setup: func(t *testing.T, dir string) {
				symlinkTest(t, "b.gpl", filepath.Join(dir, "a.gpl"))
				symlinkTest(t, "a.gpl", filepath.Join(dir, "b.gpl"))
			},
			write:   "a.gpl",
			wantErr: "too many levels of symbolic links",
			want: map[string]entry{
				"a.gpl": {"link", "", "b.gpl"},
				"b.gpl": {"link", "", "a.gpl"},
			},
		},
		{
			name:    "a directory is refused and no temporary file left",
			setup:   func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "plan.gpl"), 0o755) },
			write:   "plan.gpl",
			wantErr: "plan.gpl: not a regular file (a directory)",
			want:    map[string]entry{"plan.gpl": {"dir", "", ""}},
		},
		{
			name:    "a read-only file is refused and stays read-only",
			setup:   func(t *testing.T, dir string) { writeTestFile(t, dir, "plan.gpl", 0o444) },
			write:   "plan.gpl",
			wantErr: "plan.gpl: the file is read-only (mode -r--r--r--)",
			want:    map[string]entry{"plan.gpl": {"file", "-r--r--r--", "old"}},
		},
		{
			name:    "a missing directory",
			setup:   func(t *testing.T, dir string) {},
			write:   "nowhere/plan.gpl",
			wantErr: "nowhere",
			want:    map[string]entry{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			err := writeFileAtomic(filepath.Join(dir, tt.write), []byte("new"))
			switch {
			case err == nil && tt.wantErr != "":
				t.Errorf("no error, want one with %q", tt.wantErr)
			case err != nil && (tt.wantErr == "" || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %q, want one with %q", err, tt.wantErr)
			}
			got := map[string]entry{}
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || p == dir {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				rel = filepath.ToSlash(rel)
				fi, err := os.Lstat(p)
				if err != nil {
					return err
				}
				switch {
				case fi.Mode()&os.ModeSymlink != 0:
					dest, _ := os.Readlink(p)
					got[rel] = entry{"link", "", filepath.ToSlash(dest)}
				case fi.IsDir():
					got[rel] = entry{"dir", "", ""}
				default:
					b, _ := os.ReadFile(p)
					got[rel] = entry{"file", fi.Mode().Perm().String(), string(b)}
				}
				return nil
			})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("the directory afterwards (-want +got):\n%s", diff)
			}
		})
	}
}

func writeTestFile(t *testing.T, dir, name string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("old"), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func symlinkTest(t *testing.T, dest, link string) {
	t.Helper()
	if err := os.Symlink(dest, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}
