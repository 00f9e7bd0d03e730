package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/scenarios"
)

// loadScenario reads a file, or a bundled scenario by name when no such
// file exists and the argument has no .gpl suffix or slash.
func loadScenario(arg string) (*eval.Scenario, error) {
	return loadScenarioWith(arg, eval.Options{})
}

// loadScenarioWith is loadScenario with options (--max-points).
func loadScenarioWith(arg string, opts eval.Options) (*eval.Scenario, error) {
	opts.Scenarios = scenarios.Files // import "scenarios/NAME"
	if _, err := os.Stat(arg); err != nil && !strings.ContainsAny(arg, `/\`) && !strings.HasSuffix(arg, ".gpl") {
		for _, n := range scenarios.Names() {
			if n == arg {
				opts.FS = scenarios.Files
				return eval.LoadWith(opts, n+".gpl", mustRead(n))
			}
		}
	}
	return eval.LoadWith(opts, arg, nil)
}

func mustRead(name string) []byte {
	b, _ := scenarios.Files.ReadFile(name + ".gpl")
	return b
}

// styleFor colours diagnostics only when w is a terminal and NO_COLOR is
// unset (cli.StyleFor).
func styleFor(w io.Writer, getenv func(string) string) lang.Style { return cli.StyleFor(w, getenv) }

// loadExit maps a load error to its exit code (cli.LoadExit).
func loadExit(err error) int { return cli.LoadExit(err) }

// renderError writes a load error's diagnostics; for a bug in gpl, the
// version and the trace to report it with, as for a panic in a verb.
func renderError(w io.Writer, s *eval.Scenario, err error, st lang.Style) {
	var le *eval.Error
	if errors.As(err, &le) {
		le.Diagnostics.RenderAll(w, s.Sources(), st)
		if le.Internal {
			fmt.Fprintf(w, "in %s, with this trace:\n\n%s", version(), le.Stack)
		}
		return
	}
	io.WriteString(w, "error: "+err.Error()+"\n")
}

// renderWarnings writes the warnings of a scenario that loaded.
func renderWarnings(w io.Writer, s *eval.Scenario, st lang.Style) {
	var ws lang.Diagnostics
	for _, d := range s.Diagnostics() {
		if d.Severity == lang.Warning {
			ws = append(ws, d)
		}
	}
	if len(ws) > 0 {
		ws.RenderAll(w, s.Sources(), st)
		io.WriteString(w, "\n")
	}
}

// settings collects repeated --set NAME=VALUE flags.
type settings = cli.Settings

// applySettings evaluates a loaded file again with the --set values. It
// returns the scenario and load error to go on with, and, when a setting
// does not fit the file, that error (an *eval.Error quoting it), with the
// scenario given.
func applySettings(s *eval.Scenario, loadErr error, sets settings) (*eval.Scenario, error, error) {
	n, err := s.WithSettings(sets...)
	if err != nil {
		return s, loadErr, err
	}
	if n == s {
		return s, loadErr, nil
	}
	return n, n.Err(), nil
}

// loadFailure is why a file could not be loaded for a view: the name
// the view files the failure under, the error and the exit code it sets.
type loadFailure struct {
	name string
	err  error
	code int
}

// loadView loads arg for a verb that reports on it (run, report, table):
// with the load flags, evaluated again with their --set values. A
// setting that does not fit the file, or a load error, is rendered on
// stderr and returned; otherwise the file's warnings are rendered.
func loadView(e *env, arg string, load *cli.LoadFlags, st lang.Style) (*eval.Scenario, *loadFailure) {
	s, err := loadScenarioWith(arg, load.Options(eval.Options{}))
	s, err, serr := applySettings(s, err, load.Sets)
	if serr != nil {
		renderSettingError(e.stderr, arg, serr, st)
		return s, &loadFailure{name: arg, err: serr, code: exitCheck}
	}
	if err != nil {
		renderError(e.stderr, s, err, st)
		return s, &loadFailure{name: fileName(s, arg), err: err, code: loadExit(err)}
	}
	renderWarnings(e.stderr, s, st)
	return s, nil
}

// renderSettingError writes what was wrong with the --set values.
func renderSettingError(w io.Writer, file string, err error, st lang.Style) {
	var le *eval.Error
	if errors.As(err, &le) {
		for i, d := range le.Diagnostics {
			if i > 0 {
				io.WriteString(w, "\n")
			}
			d.Render(w, le.Sources, st)
			io.WriteString(w, "  = in "+file+"\n")
		}
		return
	}
	io.WriteString(w, "error: "+err.Error()+"\n")
}
