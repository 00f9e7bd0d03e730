package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

func init() {
	register("repl", "interactive session: declare, evaluate and explain, line by line", cmdRepl)
}

// Prompts of the terminal mode: the first line of an input, and the lines
// that continue it while a brace is open or the statement is incomplete.
const (
	promptFirst    = "gpl> "
	promptContinue = "...> "
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
	s      *session
	stdout io.Writer
	stderr io.Writer
	// style colours diagnostics in the interactive mode; scripts print
	// no prompts, banners or colours.
	style lang.Style

	// input is everything read so far, a line at a time: the "file"
	// typed statements come from, named inputName.
	inputName string
	input     []byte
	lines     int

	failed bool // a statement or command failed
	quit   bool
	// failing remembers which expectations failed after the last
	// change, to report those a later change breaks.
	failing map[string]bool
}

func cmdRepl(e *env) int {
	fs := flag.NewFlagSet("gpl repl", flag.ContinueOnError)
	load := fs.String("load", "", "start the session with the declarations of `FILE` (or a bundled scenario's name)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl repl [--load FILE]")
		fmt.Fprintln(e.stderr, "\nReads statements, expressions and :commands; :help lists the commands.")
		fmt.Fprintln(e.stderr, "When standard input is not a terminal, reads a script: no prompts,")
		fmt.Fprintln(e.stderr, "results on standard output, exit 3 if any statement failed.")
		fs.PrintDefaults()
	}
	args, code, ok := parseFlags(fs, e)
	if !ok {
		return code
	}
	if len(args) > 1 || len(args) == 1 && *load != "" {
		fs.Usage()
		return exitUsage
	}
	if len(args) == 1 {
		*load = args[0]
	}
	term := isTerminal(e.stdin) && isTerminal(e.stdout)
	r := newRepl(e, term)
	if term {
		fmt.Fprintln(e.stdout, "gpl repl: declare, evaluate, :explain; :help for commands, Ctrl-D to leave")
	}
	if *load != "" {
		if err := r.load(*load, false, !term); err != nil && !term {
			return loadExit(err)
		}
	}
	if !term {
		return r.run(newScriptSource(e.stdin))
	}
	r.run(newTermSource(e.getenv, r))
	return exitOK
}

func newRepl(e *env, terminal bool) *repl {
	r := &repl{
		s:         newSession(),
		stdout:    e.stdout,
		stderr:    e.stderr,
		inputName: "<stdin>",
		failing:   map[string]bool{},
	}
	if terminal {
		r.inputName = "<repl>"
		r.style = styleFor(e.stderr, e.getenv)
	}
	return r
}

// run reads inputs until the end of the input or :quit. It returns 3 when
// any statement or command failed, else 0.
func (r *repl) run(src lineSource) int {
	defer src.Close()
	var pending []string
	var at lang.Position
	for !r.quit {
		prompt := promptFirst
		if len(pending) > 0 {
			prompt = promptContinue
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
	if r.failed {
		return exitRuntime
	}
	return exitOK
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

// startsStatement reports whether the text's first token is a statement
// keyword (let, pool, job, …); anything else is read as an expression.
func startsStatement(text string) bool {
	toks := significantTokens(text)
	if len(toks) == 0 {
		return true // comments only: an empty list of statements
	}
	switch toks[0].Value {
	case "import", "let", "pool", "job", "rules", "request", "expect":
		return true
	}
	return false
}

// incomplete reports whether text needs more lines: a brace or parenthesis
// is open (braces), or the statement or expression stops short, its syntax
// error being at its very end.
func incomplete(text string) (more, braces bool) {
	toks := significantTokens(text)
	if len(toks) == 0 {
		return false, false
	}
	depth := 0
	for _, t := range toks {
		switch t.Value {
		case "{", "(":
			depth++
		case "}", ")":
			depth--
		}
	}
	if depth > 0 {
		return true, true
	}
	last := toks[len(toks)-1]
	end := last.Pos.Offset + len(last.Value)
	var diags lang.Diagnostics
	if startsStatement(text) {
		_, diags = lang.Parse("<input>", []byte(text))
	} else {
		_, diags = lang.ParseExpr("<input>", text)
	}
	for _, d := range diags {
		if d.Severity == lang.Error && d.Pos.Offset >= end {
			return true, false
		}
	}
	return false, false
}

// significantToken is a token that is not a comment, a newline or white
// space.
type significantToken struct {
	Value string
	Pos   lang.Position
}

// significantTokens lexes text with the language's scanner, comments,
// newlines and white space left out.
func significantTokens(text string) []significantToken {
	var out []significantToken
	for _, t := range lang.Tokens("<input>", text, false) {
		out = append(out, significantToken{t.Value, t.Pos})
	}
	return out
}

// historyEntry is how an input is kept in the history: a line as typed, or
// the lines of a multi-line input joined into one, comments left out, so
// that the Up key recalls the whole statement.
func historyEntry(lines []string) string {
	if len(lines) == 1 {
		return strings.TrimRight(lines[0], " \t")
	}
	var parts []string
	for _, l := range lines {
		if l = strings.TrimSpace(stripComment(l)); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// stripComment cuts a line's trailing # comment, leaving strings alone.
func stripComment(line string) string {
	for _, t := range lang.Tokens("", line, true) {
		if lang.IsComment(t) {
			return line[:t.Pos.Offset]
		}
	}
	return line
}

// report renders diagnostics of what was typed or loaded.
func (r *repl) report(ds lang.Diagnostics, scn *eval.Scenario) {
	ds.RenderAll(r.stderr, r.s.allSources(scn), r.style)
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
	typed := []span{{file: name, start: lang.Position{Filename: name, Line: 1, Column: 1}, size: len(text), origin: at}}
	f, diags := lang.Parse(name, []byte(text))
	if diags.HasErrors() {
		r.report(placeAll(diags, typed), nil)
		return false
	}
	if len(f.Stmts) == 0 {
		return true
	}
	added := splitEntries([]byte(text), f.Stmts, at, false)
	next := merge(r.s.entries, added)
	scn, lay, err := r.s.evaluate(next, r.s.dir)
	if err != nil {
		r.loadError(err, scn, lay)
		if !blames(err, lay, added) {
			fmt.Fprintln(r.stderr, "note: nothing was declared; the session is as it was")
		}
		return false
	}
	old := r.s.scn
	r.s.commit(next, r.s.dir, scn, lay)
	r.warnings(scn, lay, added)
	ok := true
	for _, a := range added {
		ok = r.describe(a, old) && ok
	}
	r.reportChanges(old, added)
	return ok
}

// loadError reports why a session text did not load.
func (r *repl) loadError(err error, scn *eval.Scenario, lay *layout) {
	var le *eval.Error
	if !errors.As(err, &le) {
		r.errorf("%v", err)
		return
	}
	r.report(placeAll(le.Diagnostics, lay.spans), scn)
}

// warnings reports the warnings about the added entries.
func (r *repl) warnings(scn *eval.Scenario, lay *layout, added []entry) {
	var ws lang.Diagnostics
	for _, d := range scn.Diagnostics() {
		if d.Severity != lang.Warning {
			continue
		}
		if i := lay.entryAt(d.Pos); i >= 0 && isAdded(lay.entries[i], added) {
			ws = append(ws, d)
		}
	}
	if len(ws) > 0 {
		r.report(placeAll(ws, lay.spans), scn)
	}
}

// blames reports whether a load error points into the added entries.
func blames(err error, lay *layout, added []entry) bool {
	var le *eval.Error
	if !errors.As(err, &le) {
		return false
	}
	for _, d := range le.Diagnostics {
		if i := lay.entryAt(d.Pos); i >= 0 && isAdded(lay.entries[i], added) {
			return true
		}
	}
	return false
}

func isAdded(e entry, added []entry) bool {
	for _, a := range added {
		if a.from == e.from && a.text == e.text {
			return true
		}
	}
	return false
}

// expression evaluates text against the session and prints its value.
func (r *repl) expression(text string, at lang.Position) bool {
	const name = "<expr>"
	v, err := r.s.scn.Eval(name, text)
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
	sp := []span{{file: name, start: lang.Position{Filename: name, Line: 1, Column: 1}, size: len(text), origin: at}}
	r.report(placeAll(le.Diagnostics, sp), r.s.scn)
}

// isTerminal reports whether the stream is a terminal.
func isTerminal(x any) bool {
	f, ok := x.(*os.File)
	return ok && fileIsTerminal(f)
}
