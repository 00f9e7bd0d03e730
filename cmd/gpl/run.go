package main

import (
	"flag"
	"fmt"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
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
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl run [--format text|json] [--set NAME=VALUE]... FILE|SCENARIO...")
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
	var files []jsonFile // for --format json: every file, loaded or not
	texts := 0
	for _, arg := range args {
		s, err := loadScenario(arg)
		s, err, serr := applySettings(s, err, sets)
		if serr != nil {
			renderSettingError(e.stderr, arg, serr, st)
			worst = worse(worst, exitCheck)
			files = append(files, emptyFile(arg, loadDiagnostics(serr)))
			continue
		}
		if err != nil {
			renderError(e.stderr, s, err, st)
			worst = worse(worst, loadExit(err))
			files = append(files, emptyFile(fileName(s, arg), loadDiagnostics(err)))
			continue
		}
		renderWarnings(e.stderr, s, st)
		r := buildReport(s)
		if *format == "text" {
			if texts > 0 {
				fmt.Fprintln(e.stdout)
			}
			texts++
			writeText(e.stdout, r)
		} else {
			files = append(files, toJSON(r, warnings(s)))
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
		if err := writeJSON(e.stdout, files, worst); err != nil {
			fmt.Fprintf(e.stderr, "gpl run: %v\n", err)
			return exitUsage
		}
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

// warnings are the warnings of a scenario that loaded.
func warnings(s *eval.Scenario) lang.Diagnostics {
	var ws lang.Diagnostics
	for _, d := range s.Diagnostics() {
		if d.Severity == lang.Warning {
			ws = append(ws, d)
		}
	}
	return ws
}

// worse orders exit codes by how much they block.
func worse(a, b int) int { return cli.Worse(a, b) }

func cmdCheck(e *env) int {
	fs := flag.NewFlagSet("gpl check", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprintln(e.stderr, "usage: gpl check FILE...") }
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
		s, err := loadScenario(arg)
		if err != nil {
			renderError(e.stderr, s, err, st)
			worst = exitCheck
			continue
		}
		renderWarnings(e.stderr, s, st)
	}
	return worst
}
