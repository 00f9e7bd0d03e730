// Package repl is gpl's interactive session, the verb gpl repl: a planner
// declares pools, jobs and values a line at a time, evaluates expressions,
// asks how a result was computed, sets params, and saves what came of it
// as a scenario file. Each typed statement is a source of its own in an
// eval.Session, so the cost of a declaration does not grow with the
// session. On a terminal it edits lines with liner and keeps a history;
// on any other input it reads a script and reports through its exit code.
package repl

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// Config is what gpl repl is run with: its arguments and streams, and the
// services of the gpl command it borrows.
type Config struct {
	Args   []string // the arguments after "repl"
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// WriteFile replaces a file's contents so that no reader sees it
	// half written; :save and the history file write through it.
	WriteFile func(path string, data []byte) error
	// WriteJob prints a job's full report, as gpl run does; :show
	// prints it under a job's declaration. Nil leaves it out.
	WriteJob func(w io.Writer, j *eval.Job)
}

// Prompts of the terminal mode: the first line of an input, and the lines
// that continue it while a brace is open or the statement is incomplete.
const (
	PromptFirst    = "gpl> "
	PromptContinue = "...> "
)

// errInterrupted is what a lineSource returns when the user presses Ctrl-C.
var errInterrupted = errors.New("interrupted")

// lineSource is where the REPL reads its input: a terminal with line
// editing, or a script on standard input.
type lineSource interface {
	// Line reads one line, without its newline; io.EOF at the end of the
	// input, errInterrupted when the user pressed Ctrl-C.
	Line(prompt string) (string, error)
	// Remember keeps a complete input in the history.
	Remember(input string)
	Close() error
}

// repl is a running session: its statements, its output and the text typed
// so far, which diagnostics quote.
type repl struct {
	s         *session
	stdout    io.Writer
	stderr    io.Writer
	writeFile func(string, []byte) error
	writeJob  func(io.Writer, *eval.Job)
	// style colours diagnostics in the interactive mode; scripts print
	// no prompts, banners or colours.
	style lang.Style

	// input is everything read so far, a line at a time: the "file"
	// typed statements come from, named inputName.
	inputName string
	input     []byte
	lines     int

	failed bool // a statement or command failed
	// broken is set when a change makes an expectation fail that
	// passed: in a script, exit 4, as gpl test would.
	broken bool
	quit   bool
	// failing remembers which expectations failed after the last
	// change, to report those a later change breaks.
	failing map[string]bool
}

// Run runs gpl repl and returns its exit code: in a script, 3 when any
// statement or command failed, else 4 when a change broke an expectation,
// else 0; on a terminal, 0.
func Run(c Config) int {
	fs := flag.NewFlagSet("gpl repl", flag.ContinueOnError)
	load := fs.String("load", "", "start the session with the declarations of `FILE` (or a bundled scenario's name)")
	fs.Usage = func() {
		fmt.Fprintln(c.Stderr, "usage: gpl repl [--load FILE]")
		fmt.Fprintln(c.Stderr, "\nReads statements, expressions and :commands; :help lists the commands.")
		fmt.Fprintln(c.Stderr, "When standard input is not a terminal, reads a script: no prompts,")
		fmt.Fprintln(c.Stderr, "results on standard output, exit 3 if any statement failed,")
		fmt.Fprintln(c.Stderr, "4 if a later statement broke an expectation.")
		fs.PrintDefaults()
	}
	args, code, ok := cli.ParseFlags(fs, c.Args, c.Stderr)
	if !ok {
		return code
	}
	if len(args) > 1 || len(args) == 1 && *load != "" {
		fs.Usage()
		return cli.ExitUsage
	}
	if len(args) == 1 {
		*load = args[0]
	}
	term := isTerminal(c.Stdin) && isTerminal(c.Stdout)
	r := newRepl(c, term)
	if term {
		fmt.Fprintln(c.Stdout, "gpl repl: declare, evaluate, :explain; :help for commands, Ctrl-D to leave")
	}
	if *load != "" {
		if err := r.load(*load, false, !term); err != nil && !term {
			return cli.LoadExit(err)
		}
	}
	if !term {
		return r.run(newScriptSource(c.Stdin))
	}
	r.run(newTermSource(c.Getenv, r))
	return cli.ExitOK
}

func newRepl(c Config, terminal bool) *repl {
	r := &repl{
		s:         newSession(".", lang.Sources{}),
		stdout:    c.Stdout,
		stderr:    c.Stderr,
		writeFile: c.WriteFile,
		writeJob:  c.WriteJob,
		inputName: "<stdin>",
		failing:   map[string]bool{},
	}
	if r.writeFile == nil {
		r.writeFile = func(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
	}
	if terminal {
		r.inputName = "<repl>"
		r.style = cli.StyleFor(c.Stderr, c.Getenv)
	}
	return r
}

// run reads inputs until the end of the input or :quit, and returns the
// exit code of a script.
func (r *repl) run(src lineSource) int {
	defer src.Close()
	var pending []string
	var at lang.Position
	for !r.quit {
		prompt := PromptFirst
		if len(pending) > 0 {
			prompt = PromptContinue
		}
		line, err := src.Line(prompt)
		if errors.Is(err, errInterrupted) {
			pending = nil
			continue
		}
		if err != nil {
			if err != io.EOF {
				fmt.Fprintf(r.stderr, "gpl repl: %v\n", err)
				r.failed = true
			}
			if len(pending) > 0 {
				r.submit(strings.Join(pending, "\n"), at)
			}
			break
		}
		pos := r.record(line)
		if len(pending) > 0 && startsDeclaration(line) {
			// No open input goes on with a declaration: what is pending is
			// told as it stands, and the line starts afresh, not lost.
			src.Remember(historyEntry(pending))
			r.submit(strings.Join(pending, "\n"), at)
			pending = nil
		}
		if len(pending) == 0 {
			trimmed := strings.TrimSpace(line)
			if trimmed == "" {
				continue
			}
			if strings.HasPrefix(trimmed, ":") {
				src.Remember(strings.TrimRight(line, " \t"))
				r.command(line, pos)
				continue
			}
			at = pos
		}
		pending = append(pending, line)
		text := strings.Join(pending, "\n")
		if more, braces := incomplete(text); more && (braces || strings.TrimSpace(line) != "") {
			continue
		}
		src.Remember(historyEntry(pending))
		r.submit(text, at)
		pending = nil
	}
	switch {
	case r.failed:
		return cli.ExitRuntime
	case r.broken:
		return cli.ExitExpected
	}
	return cli.ExitOK
}

// record adds a line to the input read so far and returns where it starts.
func (r *repl) record(line string) lang.Position {
	pos := lang.Position{Filename: r.inputName, Offset: len(r.input), Line: r.lines + 1, Column: 1}
	r.input = append(r.input, line...)
	r.input = append(r.input, '\n')
	r.lines++
	r.s.sources[r.inputName] = r.input
	return pos
}

// submit evaluates one complete input: statements, or an expression whose
// value is printed.
func (r *repl) submit(text string, at lang.Position) {
	ok := true
	if startsStatement(text) {
		ok = r.statements(text, at)
	} else {
		ok = r.expression(text, at)
	}
	if !ok {
		r.failed = true
	}
}

// typed is the locator of a text typed at at, parsed under name, and
// then of what else finds.
func typed(name, text string, at lang.Position, next locator) locator {
	e := entry{text: text, from: at, source: name}
	return func(source string) (entry, int, bool) {
		if source == name {
			return e, -1, true
		}
		if next != nil {
			return next(source)
		}
		return entry{}, 0, false
	}
}

// report renders diagnostics of what was typed or loaded, mapped by loc.
func (r *repl) report(ds lang.Diagnostics, loc locator, scn *eval.Scenario, more lang.Sources) {
	placeAll(ds, loc).RenderAll(r.stderr, r.s.allSources(scn, more), r.style)
}

// errorf reports a command's error.
func (r *repl) errorf(format string, args ...any) {
	d := &lang.Diagnostic{Severity: lang.Error, Summary: fmt.Sprintf(format, args...)}
	d.Render(r.stderr, nil, r.style)
	r.failed = true
}

// statements declares what text declares, replacing earlier declarations
// of the same names, and prints what each statement gives. The session is
// left as it was when the new text does not load.
func (r *repl) statements(text string, at lang.Position) bool {
	const name = "<input>"
	f, diags := lang.Parse(name, []byte(text))
	if diags.HasErrors() {
		r.report(diags, typed(name, text, at, nil), nil, nil)
		return false
	}
	if len(f.Stmts) == 0 {
		return true
	}
	ch := r.s.declare(splitEntries([]byte(text), f.Stmts, at, false))
	if err := ch.err(); err != nil {
		blamed := r.changeError(err, ch)
		ch.discard()
		if !blamed {
			fmt.Fprintln(r.stderr, "note: nothing was declared; the session is as it was")
		}
		return false
	}
	old := r.s.scn()
	ch.commit()
	r.warnings(ch)
	ok := true
	for _, a := range ch.added {
		ok = r.describe(a, old, ch.replaces()) && ok
	}
	if ch.replaces() {
		isNew := map[string]bool{}
		for _, a := range ch.added {
			isNew[a.key] = true
		}
		r.reportChanges(old, isNew)
	}
	return ok
}

// changeError reports why a change did not load, and whether an entry it
// adds is to blame.
func (r *repl) changeError(err error, ch *change) (blamed bool) {
	var le *eval.Error
	if !errors.As(err, &le) {
		r.errorf("%v", err)
		return true
	}
	r.report(le.Diagnostics, ch.locate, ch.scn(), nil)
	for _, d := range le.Diagnostics {
		if ch.blames(d) {
			return true
		}
	}
	return false
}

// warnings reports the warnings about the entries a change added.
func (r *repl) warnings(ch *change) {
	var ws lang.Diagnostics
	for _, d := range ch.scn().Diagnostics() {
		if d.Severity == lang.Warning && ch.blames(d) {
			ws = append(ws, d)
		}
	}
	if len(ws) > 0 {
		r.report(ws, r.s.locate, ch.scn(), nil)
	}
}

// expression evaluates text against the session and prints its value.
func (r *repl) expression(text string, at lang.Position) bool {
	const name = "<expr>"
	v, err := r.s.scn().Eval(name, text)
	if err != nil {
		r.evalError(err, name, text, at)
		return false
	}
	fmt.Fprintln(r.stdout, v.String())
	return true
}

// evalError reports an error of Scenario.Eval or TypeOf on text, which was
// written at at.
func (r *repl) evalError(err error, name, text string, at lang.Position) {
	var le *eval.Error
	if !errors.As(err, &le) {
		r.errorf("%v", err)
		return
	}
	r.report(le.Diagnostics, typed(name, text, at, r.s.locate), r.s.scn(), le.Sources)
}

// isTerminal reports whether the stream is a terminal.
func isTerminal(x any) bool {
	f, ok := x.(*os.File)
	return ok && cli.IsTerminalFile(f)
}
