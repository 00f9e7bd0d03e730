// Command gpl is the goodput planning language's interpreter: it runs
// scenario files, tests their expectations, checks and formats them,
// classifies request streams, and offers a REPL.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/safeio"
)

// Exit codes: package cli's, the same in every verb.
const (
	exitOK       = cli.ExitOK
	exitUsage    = cli.ExitUsage
	exitCheck    = cli.ExitCheck
	exitRuntime  = cli.ExitRuntime
	exitExpected = cli.ExitExpected
	exitInternal = cli.ExitInternal
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

// rawStreams are the verbs given the process's own streams rather than
// checked ones: the REPL asks whether they are terminals (a *os.File), and
// reports its own output's failures; the language server writes each
// message as it answers, unbuffered.
var rawStreams = map[string]bool{"repl": true, "lsp": true}

// liveOutput are the verbs that write their results as they go and flush
// them themselves (gpl classify on a live stream); every other verb's
// standard output is buffered and written when it ends.
var liveOutput = map[string]bool{"classify": true}

// runMain runs the verb args name and returns the process's exit code. The
// verb prints through writers that remember their first error: a verb
// that succeeded but could not write its output (a full disk, /dev/full)
// exits 3 with a message; one whose reader went away (a broken pipe)
// exits 3 quietly, as head(1) expects of the tools it reads from. (While
// Go's default SIGPIPE handling is in force, a broken standard output or
// error pipe ends the process by the signal before that, as it ends cat;
// the code path is for a process started with SIGPIPE ignored.) A panic in
// the verb is reported as a bug in gpl and exits 5.
func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) > 0 && rawStreams[args[0]] {
		return runVerb(args, stdin, stdout, stderr, getenv)
	}
	out, errOut := safeio.NewWriter(stdout, "standard output"), safeio.NewWriter(stderr, "standard error")
	var verbOut io.Writer = out
	var buffered *bufio.Writer
	if len(args) > 0 && !liveOutput[args[0]] {
		// One write call per 64 KB, not one per line of a report.
		buffered = bufio.NewWriterSize(out, 64<<10)
		verbOut = bufferedOut{buffered, out}
	}
	code := runVerb(args, stdin, verbOut, errOut, getenv)
	if buffered != nil {
		buffered.Flush() // an error is the checked writer's, below
	}
	if err := out.Err(); err != nil {
		// A verb that exits 3 has already said what went wrong (gpl
		// classify reports its own write errors).
		if !safeio.IsBrokenPipe(err) && code != exitRuntime {
			fmt.Fprintf(errOut, "gpl: %v\n", err)
		}
		code = worse(code, exitRuntime)
	}
	if errOut.Err() != nil && code != exitInternal {
		code = worse(code, exitRuntime) // nowhere left to say so
	}
	return code
}

// runVerb runs one verb, recovering a panic on its goroutine as an
// internal error.
func runVerb(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) (code int) {
	defer func() {
		if p := recover(); p != nil {
			reportInternalError(stderr, p, debug.Stack())
			code = exitInternal
		}
	}()
	args, getenv, ok := colorFlag(args, stderr, getenv)
	if !ok {
		return exitUsage
	}
	if len(args) >= 2 && args[0] == "help" {
		args = []string{args[1], "-h"} // gpl help VERB
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if wantsHelp(args[1:]) {
		stderr = stdout // help asked for goes to standard output
	}
	if args[0] == "--version" {
		args = append([]string{"version"}, args[1:]...)
	}
	v, ok := verbs[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gpl: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return v.run(&env{args: args[1:], stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv})
}

// failureExit is the exit code for a verb's failure: exitRuntime for a
// failed or refused write (a *safeio.Error), else otherwise.
func failureExit(err error, otherwise int) int {
	var we *safeio.Error
	if errors.As(err, &we) {
		return exitRuntime
	}
	return otherwise
}

// reportInternalError tells the user that gpl has a bug, which version it
// is in, and where, for the bug report.
func reportInternalError(w io.Writer, p any, stack []byte) {
	fmt.Fprintf(w, "gpl: internal error (a bug in %s): %v\n", version(), p)
	fmt.Fprintf(w, "Please report it with the command that caused it and this trace:\n\n%s", stack)
}

// exitOnPanic, deferred at the top of a goroutine a verb starts, reports a
// panic on it as an internal error and ends the process with exit code 5:
// a panic there cannot reach the recovery in runVerb, and would otherwise
// end the process with the Go runtime's exit code 2, a check error's.
func exitOnPanic() {
	if p := recover(); p != nil {
		reportInternalError(os.Stderr, p, debug.Stack())
		os.Exit(exitInternal)
	}
}

func init() {
	register("version", "print gpl's version and the VCS revision it was built from", cmdVersion)
}

// cmdVersion prints e.g. "gpl (devel) rev 27ba6a1 (modified)".
func cmdVersion(e *env) int {
	fs := flag.NewFlagSet("gpl version", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprintln(e.stderr, "usage: gpl version") }
	args, code, ok := parseFlags(fs, e)
	if !ok {
		return code
	}
	if len(args) > 0 {
		fs.Usage()
		return exitUsage
	}
	bi, ok := debug.ReadBuildInfo()
	fmt.Fprintln(e.stdout, versionOf(bi, ok))
	if f, ok := e.stdout.(interface{ Flush() error }); ok && f.Flush() != nil {
		return exitOK // the write error is reported as for any verb
	}
	if hint := revisionHint(bi, ok); hint != "" {
		fmt.Fprintln(e.stderr, hint)
	}
	return exitOK
}

// revisionHint says how to get a binary that names its revision, when
// this one names none: the go command records the VCS revision only when
// it builds the main module from a version-control checkout with VCS
// stamping on (-buildvcs, off with GOFLAGS=-buildvcs=false or outside a
// checkout); a module installed at a version names that version instead.
func revisionHint(bi *debug.BuildInfo, ok bool) string {
	if ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return ""
	}
	if ok {
		for _, kv := range bi.Settings {
			if kv.Key == "vcs.revision" {
				return ""
			}
		}
	}
	return "gpl version: this binary records no VCS revision: build it in a git clone with VCS stamping on (go build -buildvcs=true ./cmd/gpl, or unset GOFLAGS=-buildvcs=false), or install a tagged version (go install github.com/gpl-lang/gpl/cmd/gpl@VERSION); git rev-parse --short HEAD names the clone's revision"
}

// version is gpl's version as the Go toolchain recorded it in the binary.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	return versionOf(bi, ok)
}

// versionOf renders build information: "gpl " and the module version
// ("(devel)" for a build from a checkout), then, when the build recorded
// them, " rev " and the first 7 digits of the VCS revision, and
// " (modified)" when the working tree had uncommitted changes.
func versionOf(bi *debug.BuildInfo, ok bool) string {
	v := "(devel)"
	if ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	s := "gpl " + v
	if !ok {
		return s
	}
	var rev string
	var modified bool
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			modified = kv.Value == "true"
		}
	}
	if rev != "" {
		s += " rev " + rev[:min(7, len(rev))]
		if modified {
			s += " (modified)"
		}
	}
	return s
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
	fmt.Fprintln(w, "\nexit codes: 0 ok · 1 usage · 2 parse/check error · 3 runtime or write error · 4 expectation failed · 5 internal error (a bug in gpl)")
	fmt.Fprintln(w, "run 'gpl help COMMAND' or 'gpl COMMAND -h' for a command's flags; --color=auto|always|never (any command) colours diagnostics")
}

// parseFlags parses a verb's flags, which may appear before, between or
// after the positional arguments (cli.ParseFlags).
func parseFlags(fs *flag.FlagSet, e *env) ([]string, int, bool) {
	return cli.ParseFlags(fs, e.args, e.stderr)
}

// oneOf validates an enumerated flag value (cli.OneOf).
func oneOf(e *env, flagName, value string, allowed ...string) bool {
	return cli.OneOf(e.stderr, flagName, value, allowed...)
}

// bufferedOut is a verb's buffered standard output; Unwrap gives the
// writer below it, so a check for a terminal still sees the real stream.
type bufferedOut struct {
	*bufio.Writer
	under io.Writer
}

// Unwrap returns the writer the buffer writes to.
func (b bufferedOut) Unwrap() io.Writer { return b.under }
