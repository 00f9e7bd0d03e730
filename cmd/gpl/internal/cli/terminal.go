package cli

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/gpl-lang/gpl/lang"
)

// IsTerminal reports whether w is a terminal: an *os.File that is one
// (IsTerminalFile), or a writer that says so itself with an IsTerminal
// method (as the tests' fake terminal does), looking through a writer
// that wraps another (Unwrap).
func IsTerminal(w io.Writer) bool {
	if t, ok := w.(interface{ IsTerminal() bool }); ok {
		return t.IsTerminal()
	}
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		return IsTerminal(u.Unwrap()) // a checked writer over the real one
	}
	f, ok := w.(*os.File)
	return ok && IsTerminalFile(f)
}

// IsTerminalFile reports whether f is a terminal, as the operating system
// says (golang.org/x/term): every check of gpl for a terminal comes here.
// A character device that is not a terminal, such as /dev/null, is not.
func IsTerminalFile(f *os.File) bool {
	return f != nil && term.IsTerminal(int(f.Fd()))
}

// ColorKey is the name under which a verb's getenv gives the --color
// flag's value, "auto", "always" or "never"; runMain sets it, and the
// environment variable of that name serves when the flag is not given.
const ColorKey = "GPL_COLOR"

// ColorModes are the values --color takes.
var ColorModes = []string{"auto", "always", "never"}

// StyleFor colours diagnostics written to w: always or never as --color
// says; under auto (the default), not when NO_COLOR is set, always when
// FORCE_COLOR is set (and neither "0" nor "false"), else when w is a
// terminal.
func StyleFor(w io.Writer, getenv func(string) string) lang.Style {
	return lang.Style{Color: UseColor(w, getenv)}
}

// UseColor reports whether output to w is coloured (see StyleFor).
func UseColor(w io.Writer, getenv func(string) string) bool {
	switch getenv(ColorKey) {
	case "always":
		return true
	case "never":
		return false
	}
	if getenv("NO_COLOR") != "" {
		return false
	}
	if f := getenv("FORCE_COLOR"); f != "" && f != "0" && f != "false" {
		return true
	}
	return IsTerminal(w)
}
