package main

import (
	"bytes"
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// unifiedDiff returns the unified diff, with three lines of context, that
// turns a into b, or "" when they are equal. Lines are compared whole; a
// last line without a newline is marked as diff(1) marks it.
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
		line := ""
		switch op.kind {
		case '+':
			line = b[op.b]
		default:
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
// empty range starts at the line before it.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits after each newline, keeping it.
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
// '+' inserts b[b]. a and b are the positions in each side where it applies.
type diffOp struct {
	kind byte
	a, b int
}

// maxDiffEdits bounds the work of the line diff: past this many changed
// lines, after the common head and tail are set aside, the middle is shown
// removed and added whole, which is still a correct diff.
const maxDiffEdits = 2000

// diffLines computes an edit script from a to b: the common head and tail,
// and between them a shortest script by Myers' O(ND) algorithm.
func diffLines(a, b []string) []diffOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []diffOp
	for i := range head {
		ops = append(ops, diffOp{' ', i, i})
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	mid, ok := myers(ma, mb)
	if !ok {
		mid = mid[:0]
		for i := range ma {
			mid = append(mid, diffOp{'-', i, 0})
		}
		for j := range mb {
			mid = append(mid, diffOp{'+', len(ma), j})
		}
	}
	for _, op := range mid {
		ops = append(ops, diffOp{op.kind, op.a + head, op.b + head})
	}
	for i := range tail {
		ops = append(ops, diffOp{' ', len(a) - tail + i, len(b) - tail + i})
	}
	return ops
}

// myers returns a shortest edit script from a to b, or false when it
// needs more than maxDiffEdits edits.
func myers(a, b []string) ([]diffOp, bool) {
	n, m := len(a), len(b)
	limit := min(n+m, maxDiffEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	// trace[d] holds v[-d..d] as it was when step d began.
	var trace [][]int
	found := n == 0 && m == 0
	for d := 0; d <= limit && !found; d++ {
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	if !found {
		return nil, false
	}
	var ops []diffOp
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		at := func(k int) int { return trace[d][k+d] }
		k := x - y
		var pk int
		if k == -d || k != d && at(k-1) < at(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px, py := 0, 0
		if d > 0 {
			px = at(pk)
			py = px - pk
		}
		for x > px && y > py {
			x--
			y--
			ops = append(ops, diffOp{' ', x, y})
		}
		if d > 0 {
			if x == px {
				ops = append(ops, diffOp{'+', px, py})
			} else {
				ops = append(ops, diffOp{'-', px, py})
			}
		}
		x, y = px, py
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return ops, true
}
