package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/cmd/gpl/internal/htmlreport"
	"github.com/gpl-lang/gpl/eval"
	model "github.com/gpl-lang/gpl/eval/report"
	"github.com/gpl-lang/gpl/scenarios"
)

func init() {
	register("run", "evaluate scenario files (or bundled scenarios by name) and print the report", cmdRun)
	register("check", "parse, resolve and compile files; print diagnostics only", cmdCheck)
}

func cmdRun(e *env) int {
	fs := flag.NewFlagSet("gpl run", flag.ContinueOnError)
	format := fs.String("format", "text", "report format: text or json")
	load := cli.AddLoadFlags(fs, true, "replace a param's value: `NAME=VALUE` (repeatable), e.g. --set gpu_rate=3.10USD/h")
	all := fs.Bool("all", false, fmt.Sprintf("print every row of a sweep of more than %d points (else its first and last rows and its extremes)", sweepTextRows))
	out := fs.String("o", "-", "write the report to `FILE` (- for standard output; missing directories are created); a file is replaced only by a whole report")
	fs.Usage = func() {
		fmt.Fprint(e.stderr, `usage: gpl run [--format text|json] [-o FILE] [--all] [--set NAME=VALUE]... [--allow-imports DIR]... [--max-points N] [--samples N] [--seed S] FILE|SCENARIO...

Evaluates each scenario file, or bundled scenario by name (gpl scenarios
lists them), and prints its report: values, pools, jobs with their
factors, losses, levers and costs, rulesets with the class of every
request, and how the expectations went. --format json prints one JSON
document for all the files, of the shape docs/report.schema.json fixes.
With -o FILE the report goes to FILE, which is replaced (or created) only
when the report was written whole: a sweep that fails mid-way (exit 1), or
a write that fails (exit 3), leaves it as it was. Diagnostics go to
standard error either way.

exit codes: 0 ok · 1 usage · 2 parse/check error · 3 runtime error · 4 an expectation failed

flags:
`)
		fs.PrintDefaults()
	}
	args, code, ok := parseFlags(fs, e)
	if !ok {
		return code
	}
	if !oneOf(e, "format", *format, "text", "json") {
		return exitUsage
	}
	if len(args) == 0 {
		fs.Usage()
		return exitUsage
	}
	if err := prepareOutput(*out, args...); err != nil {
		fmt.Fprintf(e.stderr, "gpl run: %v\n", err)
		return outputExit(err)
	}
	st := styleFor(e.stderr, e.getenv)
	// The waterfall bar's characters: UTF-8 only on a terminal that takes it.
	utf8 := *out == "-" && htmlreport.TerminalUTF8(cli.IsTerminal(e.stdout), e.getenv)
	worst := exitOK
	// report writes the report to w as the files are evaluated; for
	// --format json the document is written after the last, as its exit
	// code is part of it. Its error is the JSON writer's, a sweep that
	// failed mid-way.
	report := func(w io.Writer) error {
		var files []*model.File // for --format json: every file, loaded or not
		texts := 0
		for _, arg := range args {
			if msg, ok := unknownScenario(arg); !ok {
				fmt.Fprintln(e.stderr, msg)
				worst = worse(worst, exitUsage)
				files = append(files, model.Unloaded(arg, strings.TrimPrefix(msg, "gpl: ")))
				continue
			}
			s, fail := loadView(e, arg, load, st)
			if fail != nil {
				worst = worse(worst, fail.code)
				files = append(files, model.Failed(fail.name, fail.err))
				continue
			}
			if err := refuseRead(*out, s); err != nil {
				return err // FILE is one the scenario imports
			}
			r := buildReport(s)
			r.bar, r.utf8, r.allRows = true, utf8, *all
			if *format == "text" {
				if texts > 0 {
					fmt.Fprintln(w)
				}
				texts++
				writeText(w, r)
			} else {
				files = append(files, toJSON(r, nil))
			}
			for _, x := range r.f.Expectations {
				o := x.Outcome
				if o.Diagnostic != nil {
					fmt.Fprintln(e.stderr)
					o.Diagnostic.Render(e.stderr, s.Sources(), st)
				}
				switch {
				case o.Err:
					worst = worse(worst, exitRuntime)
				case !o.Pass:
					worst = worse(worst, exitExpected)
				}
			}
		}
		if *format == "json" {
			return writeJSON(w, files, worst)
		}
		return nil
	}
	if *out == "-" {
		if err := report(e.stdout); err != nil {
			fmt.Fprintf(e.stderr, "gpl run: %v\n", err)
			return exitUsage
		}
		return worst
	}
	// A report that stopped is exit 1, as on standard output; a write that
	// failed is a runtime error. Either way FILE is as it was.
	var stopped error
	err := writeOutputFrom(e.stdout, *out, func(w io.Writer) error {
		stopped = report(w)
		return stopped
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "gpl run: %v\ngpl run: nothing written to %s\n", err, *out)
		if stopped != nil {
			return exitUsage
		}
		return worse(worst, exitRuntime)
	}
	return worst
}

// fileName is the name a report gives a file: the scenario's first file,
// which for a bundled scenario is NAME.gpl, else the argument.
func fileName(s *eval.Scenario, arg string) string {
	if s != nil {
		if fs := s.Files(); len(fs) > 0 && fs[0] != nil && fs[0].Name != "" {
			return fs[0].Name
		}
	}
	return arg
}

// worse orders exit codes by how much they block.
func worse(a, b int) int { return cli.Worse(a, b) }

// unknownScenario says, for an argument that is neither a file nor a
// bundled scenario, so, listing the bundled ones; ok is true otherwise.
func unknownScenario(arg string) (msg string, ok bool) {
	if _, err := os.Stat(arg); err == nil {
		return "", true
	}
	names := scenarios.Names()
	for _, n := range names {
		if n == arg {
			return "", true
		}
	}
	return fmt.Sprintf("gpl: %s is neither a file nor a bundled scenario; the bundled scenarios are %s", arg, strings.Join(names, ", ")), false
}

func cmdCheck(e *env) int {
	fs := flag.NewFlagSet("gpl check", flag.ContinueOnError)
	load := cli.AddLoadFlags(fs, false, "")
	strict := fs.Bool("strict", false, "exit 2 on warnings too")
	fs.Usage = func() {
		fmt.Fprint(e.stderr, `usage: gpl check [--strict] [--allow-imports DIR]... [--max-points N] FILE|DIR...

Parses, resolves, type-checks and evaluates each file, printing its
diagnostics (errors and warnings) and nothing else; expectations are not
judged (gpl test does that). A directory stands for every .gpl file under
it, walked as gpl test walks it: hidden entries, testdata and vendor skipped.

exit codes: 0 ok · 1 usage · 2 parse/check error · 3 runtime error

flags:
`)
		fs.PrintDefaults()
	}
	args, code, ok := parseFlags(fs, e)
	if !ok {
		return code
	}
	if len(args) == 0 {
		fs.Usage()
		return exitUsage
	}
	files, err := cli.FindFiles(args)
	if err != nil {
		fmt.Fprintf(e.stderr, "gpl check: %v\n", err)
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(e.stderr, "gpl check: no .gpl files in %s\n", strings.Join(args, " "))
		return exitUsage
	}
	st := styleFor(e.stderr, e.getenv)
	worst := exitOK
	for _, f := range files {
		s, err := loadScenarioWith(f, load.Options(eval.Options{}))
		if err != nil {
			renderError(e.stderr, s, err, st)
			worst = worse(worst, loadExit(err))
			continue
		}
		if ws := model.Warnings(s); len(ws) > 0 && *strict {
			worst = worse(worst, exitCheck)
		}
		renderWarnings(e.stderr, s, st)
	}
	return worst
}
