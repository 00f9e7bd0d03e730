package main

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// The line diff of package main, the only one: gpl test shows a golden
// file's changes with it, gpl fmt -d a file's.

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// maxDiffEdits bounds the work and memory of the line diff: past this many
// changed lines, after the common head and tail are set aside, the middle
// is shown removed and added whole, which is still a correct diff.
const maxDiffEdits = 2000

// unifiedDiff returns the unified diff, with three lines of context, that
// turns a into b, or "" when they are equal: the "---" and "+++" lines
// naming the two sides, then the hunks as diff -u prints them. Lines are
// compared whole; a last line without a newline is marked as diff(1)
// marks it.
func unifiedDiff(aName, bName string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	al, bl := splitLines(a), splitLines(b)
	ops := diffLines(al, bl)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	for i := 0; i < len(ops); {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start, end := max(0, i-diffContext), i
		for j := i; j < len(ops); {
			if ops[j].kind != ' ' {
				j++
				end = j
				continue
			}
			r := j
			for r < len(ops) && ops[r].kind == ' ' {
				r++
			}
			if r == len(ops) || r-j > 2*diffContext {
				break
			}
			j = r
		}
		stop := min(len(ops), end+diffContext)
		writeHunk(&out, ops[start:stop], al, bl)
		i = stop
	}
	return out.String()
}

func writeHunk(out *strings.Builder, ops []diffOp, a, b []string) {
	na, nb := 0, 0
	for _, op := range ops {
		if op.kind != '+' {
			na++
		}
		if op.kind != '-' {
			nb++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(ops[0].a, na), hunkRange(ops[0].b, nb))
	for _, op := range ops {
		var line string
		if op.kind == '+' {
			line = b[op.b]
		} else {
			line = a[op.a]
		}
		out.WriteByte(op.kind)
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange prints a hunk's start line and length as diff -u does: an
// empty range starts at the line before it, and a length of one is left
// out.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits after each newline, keeping it; a last line without
// one is kept as it is.
func splitLines(s []byte) []string {
	var out []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, string(s))
			break
		}
		out = append(out, string(s[:i+1]))
		s = s[i+1:]
	}
	return out
}

// diffOp is one line of an edit script: ' ' keeps a[a], '-' deletes a[a],
// '+' inserts b[b]. a and b count the lines of each side before the one
// it applies to.
type diffOp struct {
	kind byte
	a, b int
}

// diffLines computes an edit script from a to b: the common head and tail,
// and between them a shortest script by Myers' O(ND) algorithm, or, past
// maxDiffEdits, the middle removed and added whole.
func diffLines(a, b []string) []diffOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	mid, ok := myers(ma, mb)
	if !ok {
		mid = replaceAll(len(ma), len(mb))
	}
	ops := make([]diffOp, 0, head+len(mid)+tail)
	for i := range head {
		ops = append(ops, diffOp{' ', i, i})
	}
	for _, op := range mid {
		ops = append(ops, diffOp{op.kind, op.a + head, op.b + head})
	}
	for i := range tail {
		ops = append(ops, diffOp{' ', len(a) - tail + i, len(b) - tail + i})
	}
	return ops
}

// replaceAll is the edit script that deletes all n lines of a and inserts
// all m lines of b.
func replaceAll(n, m int) []diffOp {
	ops := make([]diffOp, 0, n+m)
	for i := range n {
		ops = append(ops, diffOp{'-', i, 0})
	}
	for j := range m {
		ops = append(ops, diffOp{'+', n, j})
	}
	return ops
}

// myers returns a shortest edit script from a to b, by the greedy
// algorithm of E. Myers, "An O(ND) Difference Algorithm and Its
// Variations" (1986), or false when it needs more than maxDiffEdits edits.
// Its memory is bounded by the cap, not by the length of the input: the
// frontier has 2·maxDiffEdits+3 entries, and the frontiers kept for the
// walk back at most maxDiffEdits² int32s (16 MB).
func myers(a, b []string) ([]diffOp, bool) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(n, m), true
	}
	if n+m > math.MaxInt32 {
		return nil, false
	}
	limit := min(n+m, maxDiffEdits)
	off := limit + 1
	v := make([]int32, 2*limit+3) // v[off+k]: the furthest x reached on diagonal k = x-y
	// trace[d*d : d*d+2*d+1] holds v[-d..d] as it was when step d began.
	var trace []int32
	for d := 0; d <= limit; d++ {
		trace = append(trace, v[off-d:off+d+1]...)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = int32(x)
			if x >= n && y >= m {
				return walkBack(trace, d, n, m), true
			}
		}
	}
	return nil, false
}

// walkBack follows the frontiers myers kept, from (n, m) after step last
// back to (0, 0), and returns the edit script in order: last edits and
// (n+m-last)/2 kept lines.
func walkBack(trace []int32, last, n, m int) []diffOp {
	ops := make([]diffOp, (n+m+last)/2)
	i := len(ops) // ops[i:] is filled, from the end
	x, y := n, m
	for d := last; d >= 0; d-- {
		v := trace[d*d : d*d+2*d+1] // v[k+d]: the frontier on diagonal k
		k := x - y
		px, py := 0, 0
		if d > 0 {
			pk := k - 1
			if k == -d || k != d && v[k-1+d] < v[k+1+d] {
				pk = k + 1
			}
			px = int(v[pk+d])
			py = px - pk
		}
		for x > px && y > py {
			x--
			y--
			i--
			ops[i] = diffOp{' ', x, y}
		}
		if d > 0 {
			i--
			if x == px {
				ops[i] = diffOp{'+', px, py}
			} else {
				ops[i] = diffOp{'-', px, py}
			}
		}
		x, y = px, py
	}
	return ops
}
