package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnifiedDiff(t *testing.T) {
	lines := func(n ...string) string { return strings.Join(n, "\n") + "\n" }
	tests := []struct {
		name, a, b, want string
	}{
		{name: "equal", a: "x\ny\n", b: "x\ny\n", want: ""},
		{name: "one line changed", a: lines("1", "2", "3", "4", "5", "6", "7", "8"), b: lines("1", "2", "3", "4", "five", "6", "7", "8"),
			want: "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{name: "insert at start", a: lines("1", "2"), b: lines("0", "1", "2"),
			want: "--- a\n+++ b\n@@ -1,2 +1,3 @@\n+0\n 1\n 2\n"},
		{name: "delete at end", a: lines("1", "2", "3"), b: lines("1", "2"),
			want: "--- a\n+++ b\n@@ -1,3 +1,2 @@\n 1\n 2\n-3\n"},
		{name: "from empty", a: "", b: lines("1"),
			want: "--- a\n+++ b\n@@ -0,0 +1 @@\n+1\n"},
		{name: "no newline at end", a: "1\n2", b: "1\n2\n",
			want: "--- a\n+++ b\n@@ -1,2 +1,2 @@\n 1\n-2\n\\ No newline at end of file\n+2\n"},
		{name: "two hunks", a: lines("a", "1", "2", "3", "4", "5", "6", "7", "8", "b"), b: lines("A", "1", "2", "3", "4", "5", "6", "7", "8", "B"),
			want: "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -7,4 +7,4 @@\n 6\n 7\n 8\n-b\n+B\n"},
		{name: "close changes share a hunk", a: lines("a", "1", "2", "3", "4", "5", "6", "b"), b: lines("A", "1", "2", "3", "4", "5", "6", "B"),
			want: "--- a\n+++ b\n@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n 6\n-b\n+B\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unifiedDiff("a", "b", []byte(tt.a), []byte(tt.b))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDiffLinesProperties checks on random inputs that the edit script
// turns a into b, and that it is as short as GNU diff --minimal's.
func TestDiffLinesProperties(t *testing.T) {
	gnu, _ := exec.LookPath("diff")
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() []string {
		n := rng.IntN(30)
		out := make([]string, n)
		for i := range out {
			out[i] = string(rune('a'+rng.IntN(4))) + "\n"
		}
		return out
	}
	dir := t.TempDir()
	for i := range 300 {
		a, b := random(), random()
		ops := diffLines(a, b)
		var rebuilt []string
		changes := 0
		for _, op := range ops {
			switch op.kind {
			case ' ':
				if a[op.a] != b[op.b] {
					t.Fatalf("case %d: kept line %d %q is %q in b", i, op.a, a[op.a], b[op.b])
				}
				rebuilt = append(rebuilt, a[op.a])
			case '+':
				rebuilt = append(rebuilt, b[op.b])
				changes++
			case '-':
				changes++
			}
		}
		if diff := cmp.Diff(strings.Join(b, ""), strings.Join(rebuilt, "")); diff != "" {
			t.Fatalf("case %d: the script does not rebuild b (-want +got):\n%s", i, diff)
		}
		if gnu == "" || i%10 != 0 {
			continue
		}
		pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.WriteFile(pa, []byte(strings.Join(a, "")), 0o644)
		os.WriteFile(pb, []byte(strings.Join(b, "")), 0o644)
		out, _ := exec.Command(gnu, "--minimal", "-U0", pa, pb).Output()
		want := 0
		for _, line := range strings.Split(string(out), "\n") {
			if (strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-")) && !strings.HasPrefix(line, "+++") && !strings.HasPrefix(line, "---") {
				want++
			}
		}
		if changes != want {
			t.Errorf("case %d: %d changed lines, GNU diff --minimal has %d", i, changes, want)
		}
	}
}

// TestDiffLinesBound checks that past maxDiffEdits the middle is shown
// removed and added whole, still a correct script.
func TestDiffLinesBound(t *testing.T) {
	var a, b []string
	for i := range maxDiffEdits + 10 {
		a = append(a, "a"+strings.Repeat("x", i%7)+"\n")
		b = append(b, "b"+strings.Repeat("y", i%5)+"\n")
	}
	a = append([]string{"same\n"}, a...)
	b = append([]string{"same\n"}, b...)
	counts := map[byte]int{}
	for _, op := range diffLines(a, b) {
		counts[op.kind]++
	}
	want := map[byte]int{' ': 1, '-': maxDiffEdits + 10, '+': maxDiffEdits + 10}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
