// Package cli holds what gpl's verbs and the subsystems under
// cmd/gpl/internal share: the exit codes, parsing a verb's flags, and
// choosing colours for diagnostics. It sits below them all, so that a
// subsystem such as the REPL need not import package main.
package cli

import (
	"errors"
	"flag"
	"io"

	"github.com/gpl-lang/gpl/eval"
)

// Exit codes, as the language reference fixes them.
const (
	ExitOK       = 0
	ExitUsage    = 1
	ExitCheck    = 2 // parse or check error
	ExitRuntime  = 3 // runtime error, including a failed write to a file or stream
	ExitExpected = 4 // an expectation failed
	ExitInternal = 5 // a bug in gpl: a panic recovered at a verb's top
)

// ParseFlags parses a verb's arguments with fs, flags being allowed
// before, between or after the positional arguments; "--" ends flag
// parsing. It returns the positional arguments, and when parsing should
// stop (ok false), the exit code: ExitOK for -h, ExitUsage for a bad flag.
func ParseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (pos []string, code int, ok bool) {
	fs.SetOutput(stderr)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, ExitOK, false
			}
			return nil, ExitUsage, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, ExitOK, true
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), ExitOK, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// LoadExit is the exit code of a load error: ExitInternal for a bug in
// gpl (a panic eval recovered), ExitRuntime when every error arose while
// running, else ExitCheck.
func LoadExit(err error) int {
	var le *eval.Error
	switch {
	case errors.As(err, &le) && le.Internal:
		return ExitInternal
	case le != nil && le.Runtime:
		return ExitRuntime
	}
	return ExitCheck
}
