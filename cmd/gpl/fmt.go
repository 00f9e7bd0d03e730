package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/format"
	"github.com/gpl-lang/gpl/lang/srcfile"
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
		if strings.HasSuffix(path, ".csv") {
			// A CSV inventory is the spreadsheet's: gpl fmt leaves it
			// as it is.
			fmt.Fprintf(e.stderr, "gpl fmt: %s left as it is: a CSV inventory is not .gpl source\n", path)
			continue
		}
		changed, err := r.file(path)
		if err != nil {
			worst = worse(worst, failureExit(err, exitCheck))
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
		src, err = srcfile.ReadStream(againReader{e.stdin}, "standard input", srcfile.MaxSize)
	} else {
		// As every verb reads source: a named pipe or a device (a null
		// device too) is refused without being opened, so -w never
		// writes to one, and nothing is read past the size limit.
		src, err = srcfile.ReadFile(path, srcfile.MaxSize)
	}
	if err != nil {
		r.fail(func() {
			fmt.Fprintln(e.stderr, "gpl fmt:", err)
			var se *srcfile.Error
			if errors.As(err, &se) && errors.Is(err, srcfile.ErrNotRegular) && se.Kind == "a named pipe" {
				fmt.Fprintln(e.stderr, "gpl fmt: hint: to format what it gives, pass it on standard input: gpl fmt - < "+path)
			}
		})
		return false, err
	}
	out, err := format.FormatSource(name, src)
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
		e.stdout.Write(diff.Diff(name+".orig", src, name, out))
	}
	if m.write {
		if err := writeFileAtomic(path, out); err != nil {
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

// fmtPaths replaces each directory by the .gpl files the walk of check
// and test finds under it (cli.WalkDir: hidden entries, testdata/bad,
// named pipes and devices left out), in lexical order. A file, a missing
// path and - are kept as given: one is reported when it is read.
func fmtPaths(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if a == "-" || err != nil || !fi.IsDir() {
			files = append(files, a) // a missing file is reported when read
			continue
		}
		found, err := cli.WalkDir(a)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	return files, nil
}
