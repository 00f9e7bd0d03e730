// Command gpl is the goodput planning language's interpreter: it runs
// scenario files, tests their expectations, checks and formats them,
// classifies request streams, and offers a REPL.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Exit codes, as the language reference fixes them.
const (
	exitOK       = 0
	exitUsage    = 1
	exitCheck    = 2 // parse or check error
	exitRuntime  = 3 // runtime error
	exitExpected = 4 // an expectation failed
)

// env is what a verb may touch: its arguments, streams and environment.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

type verb struct {
	run     func(e *env) int
	summary string
}

var verbs = map[string]verb{}

func register(name, summary string, run func(e *env) int) {
	verbs[name] = verb{run: run, summary: summary}
}

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	v, ok := verbs[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gpl: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return v.run(&env{args: args[1:], stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv})
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "gpl — the goodput planning language")
	fmt.Fprintln(w, "\nusage: gpl COMMAND [flags] [args]\n\ncommands:")
	var names []string
	for n := range verbs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, verbs[n].summary)
	}
	fmt.Fprintln(w, "\nexit codes: 0 ok · 1 usage · 2 parse/check error · 3 runtime error · 4 expectation failed")
	fmt.Fprintln(w, "run 'gpl COMMAND -h' for a command's flags")
}

// parseFlags parses flags that may appear before, between or after the
// positional arguments; "--" ends flag parsing.
func parseFlags(fs *flag.FlagSet, e *env) ([]string, int, bool) {
	fs.SetOutput(e.stderr)
	args := e.args
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitUsage, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, 0, true
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// oneOf validates an enumerated flag value.
func oneOf(e *env, flagName, value string, allowed ...string) bool {
	for _, a := range allowed {
		if value == a {
			return true
		}
	}
	fmt.Fprintf(e.stderr, "gpl: --%s must be one of %s, not %q\n", flagName, strings.Join(allowed, ", "), value)
	return false
}
