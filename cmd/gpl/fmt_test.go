package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	messyGPL     = "let a=1\npool p{devices=8 # n\n}\n"
	formattedGPL = "let a = 1\npool p {\n  devices = 8 # n\n}\n"
	brokenGPL    = "let a = (1\n"
)

// TestFmt runs gpl fmt in a directory holding messy.gpl (not formatted),
// tidy.gpl (formatted) and, in some cases, broken.gpl (a syntax error).
func TestFmt(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		broken     bool
		wantCode   int
		wantStdout string
		wantStderr string   // exact, unless wantErrHas is set
		wantErrHas []string // substrings of stderr
		wantMessy  string   // messy.gpl afterwards; messyGPL when empty
	}{
		{
			name:       "prints the formatted text",
			args:       []string{"messy.gpl", "tidy.gpl"},
			wantStdout: formattedGPL + formattedGPL,
		},
		{
			name:       "-l lists the files that differ",
			args:       []string{"-l", "messy.gpl", "tidy.gpl"},
			wantStdout: "messy.gpl\n",
		},
		{
			name:      "-w rewrites the files that differ",
			args:      []string{"-w", "messy.gpl", "tidy.gpl"},
			wantMessy: formattedGPL,
		},
		{
			name:       "-w -l rewrites and lists",
			args:       []string{"-w", "-l", "messy.gpl", "tidy.gpl"},
			wantStdout: "messy.gpl\n",
			wantMessy:  formattedGPL,
		},
		{
			name: "-d prints a unified diff",
			args: []string{"-d", "messy.gpl", "tidy.gpl"},
			wantStdout: "diff messy.gpl.orig messy.gpl\n--- messy.gpl.orig\n+++ messy.gpl\n" +
				"@@ -1,3 +1,4 @@\n-let a=1\n-pool p{devices=8 # n\n+let a = 1\n+pool p {\n+  devices = 8 # n\n }\n",
		},
		{
			name:       "--check fails and lists what would change",
			args:       []string{"--check", "messy.gpl", "tidy.gpl"},
			wantCode:   exitUnformatted,
			wantStderr: "messy.gpl\n",
		},
		{
			name: "--check passes on formatted files",
			args: []string{"--check", "tidy.gpl"},
		},
		{
			name:       "a directory stands for its .gpl files",
			args:       []string{"-l", "."},
			wantStdout: "messy.gpl\n",
		},
		{
			name:       "- reads standard input",
			args:       []string{"-"},
			stdin:      messyGPL,
			wantStdout: formattedGPL,
		},
		{
			name:       "-l names standard input",
			args:       []string{"-l", "-"},
			stdin:      messyGPL,
			wantStdout: "<stdin>\n",
		},
		{
			name:       "-w cannot rewrite standard input",
			args:       []string{"-w", "-"},
			wantCode:   exitUsage,
			wantStderr: "gpl fmt: -w cannot rewrite standard input\n",
		},
		{
			name:       "a syntax error is reported and the other files formatted",
			args:       []string{"-w", "broken.gpl", "messy.gpl"},
			broken:     true,
			wantCode:   exitCheck,
			wantErrHas: []string{"error: syntax error", "--> broken.gpl:1:", "let a = (1"},
			wantMessy:  formattedGPL,
		},
		{
			name:       "a syntax error outranks --check",
			args:       []string{"--check", "broken.gpl", "messy.gpl"},
			broken:     true,
			wantCode:   exitCheck,
			wantErrHas: []string{"--> broken.gpl:1:", "messy.gpl\n"},
		},
		{
			name:       "a missing file",
			args:       []string{"nothing.gpl"},
			wantCode:   exitCheck,
			wantErrHas: []string{"gpl fmt: cannot read nothing.gpl: no such file\n"},
		},
		{
			name:       "no files",
			args:       nil,
			wantCode:   exitUsage,
			wantErrHas: []string{"usage: gpl fmt"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			fmtTestWrite(t, dir, "messy.gpl", messyGPL)
			fmtTestWrite(t, dir, "tidy.gpl", formattedGPL)
			if tt.broken {
				fmtTestWrite(t, dir, "broken.gpl", brokenGPL)
			}
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			code := runMain(append([]string{"fmt"}, tt.args...), strings.NewReader(tt.stdin), &stdout, &stderr, fmtTestNoEnv)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.String())
			}
			if diff := cmp.Diff(tt.wantStdout, stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if tt.wantErrHas != nil {
				for _, s := range tt.wantErrHas {
					if !strings.Contains(stderr.String(), s) {
						t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
					}
				}
			} else if diff := cmp.Diff(tt.wantStderr, stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			wantMessy := tt.wantMessy
			if wantMessy == "" {
				wantMessy = messyGPL
			}
			if diff := cmp.Diff(wantMessy, fmtTestRead(t, dir, "messy.gpl")); diff != "" {
				t.Errorf("messy.gpl afterwards (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(formattedGPL, fmtTestRead(t, dir, "tidy.gpl")); diff != "" {
				t.Errorf("tidy.gpl afterwards (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFmtWriteKeepsMode checks that -w keeps the file's permissions and
// leaves no temporary file behind, and writes through a symbolic link.
func TestFmtWriteKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := fmtTestWrite(t, dir, "messy.gpl", messyGPL)
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.gpl")
	if err := os.Symlink("messy.gpl", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"fmt", "-w", link}, nil, &stdout, &stderr, fmtTestNoEnv); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o640 {
		t.Errorf("mode %v, want 0640", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced")
	}
	if diff := cmp.Diff(formattedGPL, fmtTestRead(t, dir, "messy.gpl")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestRepositoryFormatted is gpl fmt --check over the bundled scenarios and
// library: they must stay in the canonical layout.
func TestRepositoryFormatted(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := runMain([]string{"fmt", "--check", "../../scenarios", "../../stdlib"}, nil, &stdout, &stderr, fmtTestNoEnv)
	if code != exitOK {
		t.Errorf("gpl fmt --check exited %d; run gpl fmt -w on:\n%s", code, stderr.String())
	}
}

func fmtTestNoEnv(string) string { return "" }

func fmtTestWrite(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func fmtTestRead(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
