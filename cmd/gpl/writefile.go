package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/safeio"
	"github.com/gpl-lang/gpl/eval"
)

// writeFileAtomic replaces the contents of a file the user wrote — a .gpl
// source, a .golden file, the REPL's :save destination — with data. It is
// safeio.RewriteSource: a reader sees the old contents or the new, never a
// mix; a path that is not a regular file, or a read-only file, is refused
// and left as it was; the file keeps its mode, owner and hard links; a
// symbolic link is followed and stays a link; a new file gets 0644. gpl
// fmt -w, gpl test -update, the REPL's :save and its history write
// through it.
func writeFileAtomic(path string, data []byte) error {
	return safeio.RewriteSource(path, data)
}

// writeReportFile writes a report gpl generated (the JUnit report of gpl
// test --junit) to path. It is safeio.WriteReport: /dev/stdout, a named
// pipe or a device is written directly, never renamed over; a regular
// file is replaced as writeFileAtomic replaces one.
func writeReportFile(path string, data []byte) error {
	return safeio.WriteReport(path, data)
}

// writeOutput writes data, a report, to path for a flag that names an
// output file (gpl report -o, gpl test --junit): "-" is standard output,
// after what the command printed there so far; anything else is
// writeReportFile's.
func writeOutput(stdout io.Writer, path string, data []byte) error {
	if f, ok := stdout.(interface{ Flush() error }); ok {
		f.Flush()
	}
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return writeReportFile(path, data)
}

// writeOutputFrom is writeOutput for an output written as it is made:
// write is called once with the destination, through a buffer. For "-"
// that is standard output, which has then received whatever write wrote
// before an error; anything else is safeio.WriteReportFrom's: a regular
// file is replaced, or a missing one created, only when write returns
// nil, and left as it was otherwise.
func writeOutputFrom(stdout io.Writer, path string, write func(w io.Writer) error) error {
	if f, ok := stdout.(interface{ Flush() error }); ok {
		f.Flush()
	}
	if path == "-" {
		bw := bufio.NewWriterSize(stdout, 64<<10)
		err := write(bw)
		if ferr := bw.Flush(); err == nil {
			err = ferr
		}
		return err
	}
	return safeio.WriteReportFrom(path, write)
}

// prepareOutput is called before the work whose result goes to path: it
// refuses a path a report would replace what the user wrote at (one of
// the command's inputs, or an existing .gpl source: refusedOutput) and
// creates the missing directories above it (nothing for "-"), so that a
// destination that cannot be written is told before the work is done.
func prepareOutput(path string, inputs ...string) error {
	if path == "-" {
		return nil
	}
	if err := refuseInput(path, inputs); err != nil {
		return err
	}
	return safeio.MakeReportDir(path)
}

// refusedOutput is a destination prepareOutput refuses; usage says it is
// a usage error (exit 1), else a runtime one (exit 3: a directory, as a
// write through one always was).
type refusedOutput struct {
	msg   string
	usage bool
}

func (e *refusedOutput) Error() string { return e.msg }

// overwrite refuses path, which is what why says.
func overwrite(path, why string) error {
	return &refusedOutput{path + " is " + why + "; a report is not written over it (name another file)", true}
}

// refuseInput returns a refusedOutput when path is empty, a directory, or
// an existing regular file that is a .gpl source or the same file as one
// of inputs. A missing path, a named pipe or a device has nothing of the
// user's to lose.
func refuseInput(path string, inputs []string) error {
	if path == "" {
		return &refusedOutput{"the output file name is empty: name a file, or - for standard output", true}
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		return &refusedOutput{path + " is a directory; name a file to write the report to", false}
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	if strings.EqualFold(filepath.Ext(path), ".gpl") {
		return overwrite(path, "a .gpl source file")
	}
	for _, in := range inputs {
		if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
			return overwrite(path, "one of the inputs")
		}
	}
	return nil
}

// refuseRead is refuseInput for the files a loaded scenario read: its
// sources and the files they import (a CSV inventory among them), which
// the arguments alone do not name.
func refuseRead(path string, s *eval.Scenario) error {
	if path == "-" {
		return nil
	}
	var names []string
	for _, f := range s.Files() {
		names = append(names, f.Name)
	}
	return refuseInput(path, names)
}

// outputExit is the exit code of an error of prepareOutput: a refused
// destination is a usage error, any other a runtime error.
func outputExit(err error) int {
	var r *refusedOutput
	if errors.As(err, &r) && r.usage {
		return exitUsage
	}
	return exitRuntime
}
