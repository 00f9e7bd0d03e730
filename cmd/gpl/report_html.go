package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/cmd/gpl/internal/htmlreport"
	model "github.com/gpl-lang/gpl/eval/report"
)

func init() {
	register("report", "write one self-contained HTML page with charts of scenario files", cmdReport)
}

// cmdReport evaluates every file, then writes one page for them all. A
// file that fails to load is reported as gpl check reports it, and then
// no page is written, so an earlier page at the path stays as it was.
func cmdReport(e *env) int {
	fs := flag.NewFlagSet("gpl report", flag.ContinueOnError)
	out := fs.String("o", "", "write the page to `FILE` (required; - for standard output; missing directories are created)")
	requests := fs.String("requests", "", "count the rules that fire on a JSON Lines request `FILE`")
	load := cli.AddLoadFlags(fs, true, "")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl report -o FILE [--set NAME=VALUE]... [--allow-imports DIR]... [--max-points N] [--samples N] [--seed S] [--requests FILE] FILE|SCENARIO...")
		fs.PrintDefaults()
	}
	args, code, ok := parseFlags(fs, e)
	if !ok {
		return code
	}
	if len(args) == 0 || *out == "" {
		fs.Usage()
		return exitUsage
	}
	if err := prepareOutput(*out, append(args, *requests)...); err != nil {
		fmt.Fprintf(e.stderr, "gpl report: %v\n", err)
		return outputExit(err)
	}
	var open func() (io.ReadCloser, error)
	if *requests != "" {
		open = func() (io.ReadCloser, error) { return os.Open(*requests) }
	}
	st := styleFor(e.stderr, e.getenv)
	worst := exitOK
	var rep htmlreport.Report
	for _, arg := range args {
		s, fail := loadView(e, arg, load, st)
		if fail != nil {
			worst = worse(worst, fail.code)
			continue
		}
		if err := refuseRead(*out, s); err != nil {
			fmt.Fprintf(e.stderr, "gpl report: %v\n", err)
			return exitUsage
		}
		f, err := htmlreport.FromScenario(s, load.Sets, *requests, open)
		if err != nil {
			fmt.Fprintf(e.stderr, "gpl report: %v\n", err)
			return exitRuntime
		}
		for _, x := range f.Expectations {
			// As gpl run does: every failure's diagnostic on standard
			// error too, whether or not the page is written.
			if d := x.Outcome.Diagnostic; d != nil {
				fmt.Fprintln(e.stderr)
				d.Render(e.stderr, s.Sources(), st)
			}
			switch x.Status {
			case "error":
				worst = worse(worst, exitRuntime)
			case "fail":
				worst = worse(worst, exitExpected)
			}
		}
		rep.Files = append(rep.Files, f)
	}
	if len(rep.Files) < len(args) {
		fmt.Fprintf(e.stderr, "gpl report: no report written: %d of %s did not load\n", len(args)-len(rep.Files), model.Number(float64(len(args))).Of("file", "files"))
		return worst
	}
	var b bytes.Buffer
	if err := htmlreport.Write(&b, rep); err != nil {
		fmt.Fprintf(e.stderr, "gpl report: %v\n", err)
		return exitRuntime
	}
	// "-" is standard output; a destination that is not a regular file
	// (/dev/stdout, a FIFO) is written to directly, never renamed over.
	if err := writeOutput(e.stdout, *out, b.Bytes()); err != nil {
		fmt.Fprintf(e.stderr, "gpl report: %v\n", err)
		return exitRuntime
	}
	return worst
}
