package main

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
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
			wantErrHas: []string{"gpl fmt: open nothing.gpl: "},
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

func TestFmtDiff(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"from nothing", "", "a\n", "@@ -0,0 +1 @@\n+a\n"},
		{"to nothing", "a\nb\n", "", "@@ -1,2 +0,0 @@\n-a\n-b\n"},
		{"change in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "one\n2\n3\n4\n5\n6\n7\n8\n9\nten\n",
			"@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+ten\n"},
		{"close changes share a hunk", "1\n2\n3\n4\n5\n6\n7\n", "one\n2\n3\n4\n5\n6\nseven\n",
			"@@ -1,7 +1,7 @@\n-1\n+one\n 2\n 3\n 4\n 5\n 6\n-7\n+seven\n"},
		{"no final newline", "a\nb", "a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			fmtDiff(&b, "x.orig", "x", []byte(tt.a), []byte(tt.b))
			want := tt.want
			if want != "" {
				want = "diff x.orig x\n--- x.orig\n+++ x\n" + want
			}
			if diff := cmp.Diff(want, b.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestFmtDiffApplies checks on random texts that applying the diff to the
// old text gives the new one.
func TestFmtDiffApplies(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := range 500 {
		a := fmtTestLines(r)
		b := fmtTestMutate(r, a)
		var d strings.Builder
		fmtDiff(&d, "a", "b", []byte(strings.Join(a, "")), []byte(strings.Join(b, "")))
		got, err := fmtTestApply(a, d.String())
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, d.String())
		}
		if diff := cmp.Diff(strings.Join(b, ""), got); diff != "" {
			t.Fatalf("case %d: the diff does not apply (-want +got):\n%s\ndiff:\n%s", i, diff, d.String())
		}
	}
}

func fmtTestLines(r *rand.Rand) []string {
	n := r.Intn(30)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = strconv.Itoa(r.Intn(6)) + "\n"
	}
	if n > 0 && r.Intn(4) == 0 {
		lines[n-1] = strings.TrimSuffix(lines[n-1], "\n")
	}
	return lines
}

func fmtTestMutate(r *rand.Rand, a []string) []string {
	b := append([]string(nil), a...)
	for range r.Intn(6) {
		switch i := r.Intn(len(b) + 1); r.Intn(3) {
		case 0:
			b = append(b[:i], append([]string{"new" + strconv.Itoa(r.Intn(3)) + "\n"}, b[i:]...)...)
		case 1:
			if i < len(b) {
				b = append(b[:i], b[i+1:]...)
			}
		case 2:
			if i < len(b) {
				b[i] = "changed\n"
			}
		}
	}
	for i := range b { // only the last line may lack its newline
		if i < len(b)-1 && !strings.HasSuffix(b[i], "\n") {
			b[i] += "\n"
		}
	}
	return b
}

// applyDiff applies a unified diff, checking every context and removed
// line against a.
func fmtTestApply(a []string, d string) (string, error) {
	if d == "" {
		return strings.Join(a, ""), nil
	}
	lines := strings.SplitAfter(d, "\n")
	var out []string
	next := 0 // the first line of a not yet copied
	for i := 3; i < len(lines) && lines[i] != ""; {
		start, err := fmtTestHunkStart(lines[i])
		if err != nil {
			return "", err
		}
		out = append(out, a[next:start]...)
		next = start
		i++
		for ; i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@"); i++ {
			l := lines[i]
			body := l[1:]
			if i+1 < len(lines) && lines[i+1] == "\\ No newline at end of file\n" {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if next >= len(a) || a[next] != body {
					return "", fmt.Errorf("line %d: %q does not match %q", next+1, body, a[min(next, len(a)-1)])
				}
				if l[0] == ' ' {
					out = append(out, body)
				}
				next++
			case '+':
				out = append(out, body)
			default:
				return "", fmt.Errorf("bad diff line %q", l)
			}
		}
	}
	out = append(out, a[next:]...)
	return strings.Join(out, ""), nil
}

// fmtTestHunkStart reads where a hunk starts in the old text, 0-based,
// from its header "@@ -START[,LEN] +… @@".
func fmtTestHunkStart(header string) (int, error) {
	var spec string
	if _, err := fmt.Sscanf(header, "@@ -%s", &spec); err != nil {
		return 0, fmt.Errorf("bad hunk header %q", header)
	}
	first, n, _ := strings.Cut(spec, ",")
	start, err := strconv.Atoi(first)
	if err != nil {
		return 0, fmt.Errorf("bad hunk header %q", header)
	}
	if n == "0" { // an empty range names the line before it
		return start, nil
	}
	return start - 1, nil
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
