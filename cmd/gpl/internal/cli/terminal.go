package cli

import (
	"io"
	"os"
)

// IsTerminal reports whether w is a terminal: an *os.File that is a
// character device, or a writer that says so itself with an IsTerminal
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
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
