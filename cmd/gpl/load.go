package main

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/scenarios"
)

// loadScenario reads a file, or a bundled scenario by name when no such
// file exists and the argument has no .gpl suffix or slash. A file's imports
// may also read from the allow directories (--allow-imports).
func loadScenario(arg string, allow ...string) (*eval.Scenario, error) {
	if _, err := os.Stat(arg); err != nil && !strings.ContainsAny(arg, `/\`) && !strings.HasSuffix(arg, ".gpl") {
		for _, n := range scenarios.Names() {
			if n == arg {
				return eval.LoadWith(eval.Options{FS: scenarios.Files}, n+".gpl", mustRead(n))
			}
		}
	}
	return eval.LoadWith(eval.Options{AllowImports: allow}, arg, nil)
}

func mustRead(name string) []byte {
	b, _ := scenarios.Files.ReadFile(name + ".gpl")
	return b
}

// styleFor colours diagnostics only when w is a terminal and NO_COLOR is
// unset.
func styleFor(w io.Writer, getenv func(string) string) lang.Style {
	if getenv("NO_COLOR") != "" {
		return lang.Style{}
	}
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = u.Unwrap() // a checked stream (see runMain)
	}
	f, ok := w.(*os.File)
	if !ok {
		return lang.Style{}
	}
	st, err := f.Stat()
	if err != nil {
		return lang.Style{}
	}
	return lang.Style{Color: st.Mode()&os.ModeCharDevice != 0}
}

// loadExit maps a load error to its exit code.
func loadExit(err error) int {
	var le *eval.Error
	if errors.As(err, &le) && le.Runtime {
		return exitRuntime
	}
	return exitCheck
}

// renderError writes a load error's diagnostics.
func renderError(w io.Writer, s *eval.Scenario, err error, st lang.Style) {
	var le *eval.Error
	if errors.As(err, &le) {
		le.Diagnostics.RenderAll(w, s.Sources, st)
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
		ws.RenderAll(w, s.Sources, st)
		io.WriteString(w, "\n")
	}
}

// settings collects repeated --set NAME=VALUE flags.
type settings []string

func (s *settings) String() string { return strings.Join(*s, " ") }

// Set adds one NAME=VALUE.
func (s *settings) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// applySettings evaluates a loaded file again with the --set values. A
// setting that does not fit the file is an *eval.Error quoting it; the
// scenario returned with it is the one given.
func applySettings(s *eval.Scenario, loadErr error, sets settings) (*eval.Scenario, error, error) {
	if len(sets) == 0 || len(s.Files()) == 0 {
		return s, loadErr, nil
	}
	params := map[string]eval.Value{}
	var bad eval.Error
	for _, set := range sets {
		name, v, err := s.ParseSetting(set)
		if err != nil {
			var le *eval.Error
			if errors.As(err, &le) {
				bad.Diagnostics = append(bad.Diagnostics, le.Diagnostics...)
				bad.Sources = le.Sources
				continue
			}
			return s, loadErr, err
		}
		params[name] = v
	}
	if len(bad.Diagnostics) > 0 {
		return s, loadErr, &bad
	}
	n, err := s.With(params)
	if n == nil {
		return s, loadErr, err
	}
	return n, err, nil
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
