package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
			want: "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{name: "lines past the context are left out", a: lines("1", "2", "3", "4", "5", "6", "7", "8", "9"), b: lines("1", "2", "3", "4", "five", "6", "7", "8", "9"),
			want: "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{name: "insert at start", a: lines("1", "2"), b: lines("0", "1", "2"),
			want: "@@ -1,2 +1,3 @@\n+0\n 1\n 2\n"},
		{name: "delete at end", a: lines("1", "2", "3"), b: lines("1", "2"),
			want: "@@ -1,3 +1,2 @@\n 1\n 2\n-3\n"},
		{name: "from empty", a: "", b: lines("1"),
			want: "@@ -0,0 +1 @@\n+1\n"},
		{name: "to empty", a: lines("a", "b"), b: "",
			want: "@@ -1,2 +0,0 @@\n-a\n-b\n"},
		{name: "no newline at end", a: "1\n2", b: "1\n2\n",
			want: "@@ -1,2 +1,2 @@\n 1\n-2\n\\ No newline at end of file\n+2\n"},
		{name: "two hunks", a: lines("a", "1", "2", "3", "4", "5", "6", "7", "8", "b"), b: lines("A", "1", "2", "3", "4", "5", "6", "7", "8", "B"),
			want: "@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -7,4 +7,4 @@\n 6\n 7\n 8\n-b\n+B\n"},
		{name: "seven unchanged lines part hunks", a: lines("1", "2", "3", "4", "5", "6", "7", "8", "9", "10"), b: lines("one", "2", "3", "4", "5", "6", "7", "8", "9", "ten"),
			want: "@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+ten\n"},
		{name: "six unchanged lines share a hunk", a: lines("a", "1", "2", "3", "4", "5", "6", "b"), b: lines("A", "1", "2", "3", "4", "5", "6", "B"),
			want: "@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n 6\n-b\n+B\n"},
		{name: "five unchanged lines share a hunk", a: lines("1", "2", "3", "4", "5", "6", "7"), b: lines("one", "2", "3", "4", "5", "6", "seven"),
			want: "@@ -1,7 +1,7 @@\n-1\n+one\n 2\n 3\n 4\n 5\n 6\n-7\n+seven\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unifiedDiff("a", "b", []byte(tt.a), []byte(tt.b))
			want := tt.want
			if want != "" {
				want = "--- a\n+++ b\n" + want
			}
			if diff := cmp.Diff(want, got); diff != "" {
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

// TestUnifiedDiffApplies checks on random texts, some without a final
// newline, that applying the printed diff to the old text gives the new
// one.
func TestUnifiedDiffApplies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for i := range 500 {
		a := diffTestLines(r)
		b := diffTestMutate(r, a)
		d := unifiedDiff("a", "b", []byte(strings.Join(a, "")), []byte(strings.Join(b, "")))
		got, err := diffTestApply(a, d)
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, d)
		}
		if diff := cmp.Diff(strings.Join(b, ""), got); diff != "" {
			t.Fatalf("case %d: the diff does not apply (-want +got):\n%s\ndiff:\n%s", i, diff, d)
		}
	}
}

func BenchmarkUnifiedDiff(b *testing.B) {
	var before, after strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&before, "line %d\n", i)
		switch {
		case i%50 == 0:
			fmt.Fprintf(&after, "changed %d\n", i)
		case i%70 == 0:
		default:
			fmt.Fprintf(&after, "line %d\n", i)
		}
	}
	x, y := []byte(before.String()), []byte(after.String())
	b.ReportAllocs()
	for b.Loop() {
		unifiedDiff("a", "b", x, y)
	}
}

func diffTestLines(r *rand.Rand) []string {
	n := r.IntN(30)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = strconv.Itoa(r.IntN(6)) + "\n"
	}
	if n > 0 && r.IntN(4) == 0 {
		lines[n-1] = strings.TrimSuffix(lines[n-1], "\n")
	}
	return lines
}

func diffTestMutate(r *rand.Rand, a []string) []string {
	b := append([]string(nil), a...)
	for range r.IntN(6) {
		switch i := r.IntN(len(b) + 1); r.IntN(3) {
		case 0:
			b = append(b[:i], append([]string{"new" + strconv.Itoa(r.IntN(3)) + "\n"}, b[i:]...)...)
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

// diffTestApply applies a unified diff, checking every context and
// removed line against a.
func diffTestApply(a []string, d string) (string, error) {
	if d == "" {
		return strings.Join(a, ""), nil
	}
	lines := strings.SplitAfter(d, "\n")
	var out []string
	next := 0 // the first line of a not yet copied
	for i := 2; i < len(lines) && lines[i] != ""; {
		start, err := diffTestHunkStart(lines[i])
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

// diffTestHunkStart reads where a hunk starts in the old text, 0-based,
// from its header "@@ -START[,LEN] +… @@".
func diffTestHunkStart(header string) (int, error) {
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
