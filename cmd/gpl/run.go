package main

import (
	"flag"
	"fmt"

	"github.com/gpl-lang/gpl/eval"
)

func init() {
	register("run", "evaluate scenario files (or bundled scenarios by name) and print the report", cmdRun)
	register("check", "parse, resolve and compile files; print diagnostics only", cmdCheck)
}

func cmdRun(e *env) int {
	fs := flag.NewFlagSet("gpl run", flag.ContinueOnError)
	format := fs.String("format", "text", "report format: text or json")
	var sets settings
	fs.Var(&sets, "set", "replace a param's value: `NAME=VALUE` (repeatable), e.g. --set gpu_rate=3.10USD/h")
	maxPoints := maxPointsFlag(fs)
	var allow importDirs
	allow.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl run [--format text|json] [--set NAME=VALUE]... [--allow-imports DIR]... FILE|SCENARIO...")
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
	st := styleFor(e.stderr, e.getenv)
	worst := exitOK
	var reports []*report
	for _, arg := range args {
		s, err := loadScenarioWith(arg, eval.Options{MaxPoints: *maxPoints, AllowImports: allow})
		s, err, serr := applySettings(s, err, sets)
		if serr != nil {
			renderSettingError(e.stderr, arg, serr, st)
			worst = worse(worst, exitCheck)
			continue
		}
		if err != nil {
			renderError(e.stderr, s, err, st)
			worst = worse(worst, loadExit(err))
			continue
		}
		renderWarnings(e.stderr, s, st)
		r := buildReport(s)
		reports = append(reports, r)
		if *format == "text" {
			if len(reports) > 1 {
				fmt.Fprintln(e.stdout)
			}
			writeText(e.stdout, r)
		}
		for _, o := range r.outcomes {
			if o.Diagnostic != nil {
				fmt.Fprintln(e.stderr)
				o.Diagnostic.Render(e.stderr, s.Sources, st)
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
		writeJSON(e.stdout, reports)
	}
	return worst
}

// worse orders exit codes by how much they block: a check error over a
// runtime error over a failed expectation.
func worse(a, b int) int {
	rank := map[int]int{exitOK: 0, exitExpected: 1, exitRuntime: 2, exitCheck: 3, exitUsage: 4}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func cmdCheck(e *env) int {
	fs := flag.NewFlagSet("gpl check", flag.ContinueOnError)
	maxPoints := maxPointsFlag(fs)
	var allow importDirs
	allow.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl check [--max-points N] [--allow-imports DIR]... FILE...")
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
	st := styleFor(e.stderr, e.getenv)
	worst := exitOK
	for _, arg := range args {
		s, err := loadScenarioWith(arg, eval.Options{MaxPoints: *maxPoints, AllowImports: allow})
		if err != nil {
			renderError(e.stderr, s, err, st)
			worst = exitCheck
			continue
		}
		renderWarnings(e.stderr, s, st)
	}
	return worst
}
