package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpl-lang/gpl/lang"
)

func init() {
	register("fmt", "rewrite files in the canonical layout, comments kept (-w, -l, -d, --check)", cmdFmt)
}

// exitUnformatted is gpl fmt --check's exit code when a file would change.
const exitUnformatted = 1

// fmtMode is what gpl fmt does with a file once it is formatted.
type fmtMode struct {
	write, list, diff, check bool
}

func cmdFmt(e *env) int {
	fset := flag.NewFlagSet("gpl fmt", flag.ContinueOnError)
	var m fmtMode
	fset.BoolVar(&m.write, "w", false, "write the result back to each file whose formatting differs")
	fset.BoolVar(&m.list, "l", false, "list the files whose formatting differs")
	fset.BoolVar(&m.diff, "d", false, "print a unified diff of the changes instead of the result")
	fset.BoolVar(&m.check, "check", false, "exit 1 if any file's formatting differs, listing those files on standard error")
	fset.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl fmt [-w] [-l] [-d] [--check] FILE|DIR...")
		fmt.Fprintln(e.stderr, "Prints each file in the canonical layout; a directory stands for every .gpl file under it; - is standard input.")
		fset.PrintDefaults()
	}
	args, code, ok := parseFlags(fset, e)
	if !ok {
		return code
	}
	if len(args) == 0 {
		fset.Usage()
		return exitUsage
	}
	files, err := fmtPaths(args)
	if err != nil {
		fmt.Fprintln(e.stderr, "gpl fmt:", err)
		return exitCheck
	}
	if m.write && slices.Contains(files, "-") {
		fmt.Fprintln(e.stderr, "gpl fmt: -w cannot rewrite standard input")
		return exitUsage
	}
	r := &fmtRun{env: e, mode: m, style: styleFor(e.stderr, e.getenv)}
	worst, differs := exitOK, false
	for _, path := range files {
		changed, err := r.file(path)
		if err != nil {
			worst = exitCheck
		}
		differs = differs || changed
	}
	if worst == exitOK && m.check && differs {
		return exitUnformatted
	}
	return worst
}

// fmtRun is one gpl fmt command at work.
type fmtRun struct {
	env     *env
	mode    fmtMode
	style   lang.Style
	errored bool // an error has been written: the next is set off by a blank line
}

// file formats one file and does what the mode asks with the result. It
// reports whether the formatting differs from the file; errors have been
// written to standard error.
func (r *fmtRun) file(path string) (bool, error) {
	e, m := r.env, r.mode
	name := path
	var src []byte
	var err error
	if path == "-" {
		name = "<stdin>"
		src, err = io.ReadAll(e.stdin)
	} else {
		src, err = os.ReadFile(path)
	}
	if err != nil {
		r.fail(func() { fmt.Fprintln(e.stderr, "gpl fmt:", err) })
		return false, err
	}
	out, err := lang.FormatSource(name, src)
	if err != nil {
		var ds lang.Diagnostics
		if errors.As(err, &ds) {
			r.fail(func() { ds.RenderAll(e.stderr, lang.Sources{name: src}, r.style) })
		} else {
			r.fail(func() { fmt.Fprintln(e.stderr, "gpl fmt:", err) })
		}
		return false, err
	}
	changed := !bytes.Equal(src, out)
	if !m.write && !m.list && !m.diff && !m.check {
		e.stdout.Write(out)
	}
	if !changed {
		return false, nil
	}
	if m.list {
		fmt.Fprintln(e.stdout, name)
	}
	if m.check {
		fmt.Fprintln(e.stderr, name)
	}
	if m.diff {
		fmtDiff(e.stdout, name+".orig", name, src, out)
	}
	if m.write {
		if err := fmtReplaceFile(path, out); err != nil {
			r.fail(func() { fmt.Fprintln(e.stderr, "gpl fmt:", err) })
			return true, err
		}
	}
	return true, nil
}

// fail writes an error, a blank line before it if one came before.
func (r *fmtRun) fail(write func()) {
	if r.errored {
		io.WriteString(r.env.stderr, "\n")
	}
	r.errored = true
	write()
}

// fmtPaths replaces each directory by the .gpl files under it, in
// lexical order, skipping directories whose names start with "." or "_".
func fmtPaths(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if a == "-" || err != nil || !fi.IsDir() {
			files = append(files, a) // a missing file is reported when read
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			base := d.Name()
			if d.IsDir() {
				if p != a && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(base, ".gpl") && !strings.HasPrefix(base, ".") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// fmtReplaceFile replaces the file at path (or the file a symlink there
// points to) with data, keeping its permissions: it writes a temporary file
// in the same directory and renames it over the original, so a reader sees
// the old text or the new, never a mix.
func fmtReplaceFile(path string, data []byte) (err error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(fi.Mode().Perm()); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// fmtDiffContext is the number of unchanged lines shown around each change.
const fmtDiffContext = 3

// fmtMaxDiffEdits bounds the work of the line diff: past this many changed
// lines (after the common head and tail are set aside) it reports the
// middle as removed and added whole, which is still a correct diff.
const fmtMaxDiffEdits = 2000

// fmtEdit is one line of a diff: op is ' ' (kept), '-' (removed) or '+'
// (added); a and b count the lines of each side before this one.
type fmtEdit struct {
	op   byte
	a, b int
	line string
}

// fmtDiff writes the differences between before and after in the
// unified format, as diff -u does; nothing when they are equal.
func fmtDiff(w io.Writer, oldName, newName string, before, after []byte) {
	es := fmtDiffLines(fmtLines(before), fmtLines(after))
	var b strings.Builder
	for i := 0; i < len(es); {
		if es[i].op == ' ' {
			i++
			continue
		}
		start, j := max(0, i-fmtDiffContext), i
		for j < len(es) {
			if es[j].op != ' ' {
				j++
				continue
			}
			k := j
			for k < len(es) && es[k].op == ' ' {
				k++
			}
			if k == len(es) || k-j > 2*fmtDiffContext {
				break
			}
			j = k
		}
		end := min(len(es), j+fmtDiffContext)
		fmtHunk(&b, es[start:end])
		i = end
	}
	if b.Len() == 0 {
		return
	}
	fmt.Fprintf(w, "diff %s %s\n--- %s\n+++ %s\n%s", oldName, newName, oldName, newName, b.String())
}

func fmtHunk(b *strings.Builder, h []fmtEdit) {
	na, nb := 0, 0
	for _, e := range h {
		if e.op != '+' {
			na++
		}
		if e.op != '-' {
			nb++
		}
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", fmtHunkRange(h[0].a, na), fmtHunkRange(h[0].b, nb))
	for _, e := range h {
		b.WriteByte(e.op)
		b.WriteString(e.line)
		if !strings.HasSuffix(e.line, "\n") {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// fmtHunkRange is START,LEN with a 1-based start; an empty range names the
// line before it, and a length of one is left out, as GNU diff does.
func fmtHunkRange(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprint(before + 1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// fmtLines cuts text after each newline; a last line without one is kept.
func fmtLines(s []byte) []string {
	var lines []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		lines = append(lines, string(s[:i]))
		s = s[i:]
	}
	return lines
}

// fmtDiffLines is a shortest edit script from a to b: the common head and
// tail, then Myers' O(ND) algorithm on what lies between.
func fmtDiffLines(a, b []string) []fmtEdit {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var es []fmtEdit
	for i := 0; i < head; i++ {
		es = append(es, fmtEdit{' ', i, i, a[i]})
	}
	for _, e := range fmtMyers(a[head:len(a)-tail], b[head:len(b)-tail]) {
		e.a += head
		e.b += head
		es = append(es, e)
	}
	for i := 0; i < tail; i++ {
		ia, ib := len(a)-tail+i, len(b)-tail+i
		es = append(es, fmtEdit{' ', ia, ib, a[ia]})
	}
	return es
}

// fmtMyers finds a shortest edit script by the greedy algorithm of E. Myers,
// "An O(ND) Difference Algorithm and Its Variations" (1986), keeping the
// frontier of each step for the walk back.
func fmtMyers(a, b []string) []fmtEdit {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return fmtReplaceAll(a, b)
	}
	off := n + m + 1
	v := make([]int, 2*off+1)
	var trace [][]int // trace[d]: v[off-d .. off+d] before step d
	for d := 0; d <= n+m; d++ {
		if d > fmtMaxDiffEdits {
			return fmtReplaceAll(a, b)
		}
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
				return fmtWalkBack(trace, a, b)
			}
		}
	}
	return nil
}

func fmtWalkBack(trace [][]int, a, b []string) []fmtEdit {
	x, y := len(a), len(b)
	var rev []fmtEdit
	for d := len(trace) - 1; d >= 0; d-- {
		vd := trace[d] // index k+d holds v[k]
		at := func(k int) int {
			if k+d < 0 || k+d >= len(vd) {
				return 0
			}
			return vd[k+d]
		}
		k := x - y
		var pk int
		if k == -d || k != d && at(k-1) < at(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, fmtEdit{' ', x, y, a[x]})
		}
		if d > 0 {
			if x == px {
				rev = append(rev, fmtEdit{'+', px, py, b[py]})
			} else {
				rev = append(rev, fmtEdit{'-', px, py, a[px]})
			}
		}
		x, y = px, py
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// fmtReplaceAll is the edit script that removes all of a and adds all of b.
func fmtReplaceAll(a, b []string) []fmtEdit {
	var es []fmtEdit
	for i, l := range a {
		es = append(es, fmtEdit{'-', i, 0, l})
	}
	for i, l := range b {
		es = append(es, fmtEdit{'+', len(a), i, l})
	}
	return es
}
