package repl

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/format"
	"github.com/gpl-lang/gpl/lang/srcfile"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/scenarios"
)

// replCommand is one of the REPL's colon commands.
type replCommand struct {
	name, args, summary string
	run                 func(r *repl, arg string, at lang.Position)
}

var replCommands []replCommand

func init() {
	replCommands = []replCommand{
		{"help", "", "list the commands and keys", (*repl).cmdHelp},
		{"load", "FILE", "start over with the declarations of FILE (or a bundled scenario)", (*repl).cmdLoad},
		{"reload", "", "read the loaded file again; what you typed since stays on top", (*repl).cmdReload},
		{"list", "", "the declared names, with their kinds", (*repl).cmdList},
		{"show", "NAME", "a declaration as written, and its results", (*repl).cmdShow},
		{"type", "EXPR", "an expression's dimension and unit", (*repl).cmdType},
		{"explain", "NAME", "how a value, a pool's field or a job's result was computed", (*repl).cmdExplain},
		{"set", "NAME VALUE", "give a param a value, which stays set", (*repl).cmdSet},
		{"samples", "N", "evaluate uncertain values over N samples (10,000 unless set; :samples alone says how many)", (*repl).cmdSamples},
		{"drop", "NAME", "take a declaration out of the session", (*repl).cmdDrop},
		{"save", "FILE", "write the session's declarations to FILE", (*repl).cmdSave},
		{"quit", "", "leave (so does Ctrl-D on an empty line)", (*repl).cmdQuit},
	}
}

// command runs a line that starts with ":".
func (r *repl) command(line string, at lang.Position) {
	trimmed := strings.TrimLeft(line, " \t")
	at = advance(at, []byte(line[:len(line)-len(trimmed)+1]))
	body := trimmed[1:]
	name, arg, _ := strings.Cut(body, " ")
	rest := strings.TrimLeft(arg, " \t")
	argAt := advance(at, []byte(body[:len(body)-len(rest)]))
	arg = strings.TrimRight(rest, " \t")
	var names []string
	for _, c := range replCommands {
		if c.name == name || name == "q" && c.name == "quit" {
			c.run(r, arg, argAt)
			return
		}
		names = append(names, ":"+c.name)
	}
	msg := fmt.Sprintf("unknown command :%s", name)
	if s := closest(":"+name, names); s != "" {
		msg += "; did you mean " + s + "?"
	} else {
		msg += "; :help lists the commands"
	}
	r.errorf("%s", msg)
}

// closest returns the candidate that starts with name, or the one fewest
// edits away from it when it is a likely misspelling.
func closest(name string, cands []string) string {
	best, bestDist := "", min(3, len(name)/2+1)
	for _, c := range cands {
		if len(name) > 1 && strings.HasPrefix(c, name) {
			return c
		}
		if d := cli.EditDistance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func (r *repl) cmdHelp(string, lang.Position) {
	w := tabwriter.NewWriter(r.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "Type a declaration (let, param, pool, job, rules, request, import, expect) to add it;")
	fmt.Fprintln(w, "declaring a name again replaces it. Type an expression to print its value.")
	fmt.Fprintln(w, "An input goes on over several lines while a brace is open.")
	fmt.Fprintln(w)
	for _, c := range replCommands {
		fmt.Fprintf(w, "  :%s %s\t%s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "  Tab\tcomplete a keyword, a name, a result after JOB., a command")
	fmt.Fprintln(w, "  Up, Down\trecall earlier inputs (kept between sessions)")
	fmt.Fprintln(w, "  Ctrl-R\tsearch the history")
	fmt.Fprintln(w, "  Ctrl-A, Ctrl-E, Ctrl-K, Ctrl-U, Ctrl-W\tEmacs line editing")
	fmt.Fprintln(w, "  Ctrl-C\tclear the input")
	fmt.Fprintln(w, "  Ctrl-D\tleave, on an empty line")
	w.Flush()
}

func (r *repl) cmdQuit(string, lang.Position) { r.quit = true }

func (r *repl) cmdLoad(arg string, _ lang.Position) {
	if arg == "" {
		r.errorf("usage: :load FILE")
		return
	}
	if r.load(arg, false, false) != nil {
		r.failed = true
	}
}

func (r *repl) cmdReload(string, lang.Position) {
	if r.s.file == "" {
		r.errorf("nothing to reload: no file was loaded; use :load FILE")
		return
	}
	if r.load(r.s.file, true, false) != nil {
		r.failed = true
	}
}

// load reads a file (or a bundled scenario) into the session, replacing its
// declarations; with keep, the declarations typed since the last load stay,
// on top of the file's, and so do the params :set gave. Nothing changes
// when the result does not load. Quiet leaves out the line saying what was
// loaded.
func (r *repl) load(file string, keep, quiet bool) error {
	src, dir, shown, err := readScenario(file)
	if err != nil {
		d := &lang.Diagnostic{Severity: lang.Error, Summary: err.Error()}
		if h := srcfile.Hint(err); h != "" {
			d.Notes = []string{h}
		}
		d.Render(r.stderr, nil, r.style)
		r.failed = true
		return err
	}
	if r.s.file == "" {
		r.s.file = file // should it not load, fix it and :reload
	}
	f, diags := lang.Parse(shown, src)
	if diags.HasErrors() {
		r.report(diags, nil, nil, lang.Sources{shown: src})
		return diags
	}
	entries := splitEntries(src, f.Stmts, lang.Position{Filename: shown, Line: 1, Column: 1}, true)
	kept := 0
	if keep {
		var typed []entry
		for _, e := range r.s.entries {
			if e.from.Filename == r.inputName {
				typed = append(typed, e)
			}
		}
		kept = len(typed)
		entries = merge(entries, typed)
	}
	sources := maps.Clone(r.s.sources)
	sources[shown] = src
	ns := newSession(dir, sources)
	if strings.HasPrefix(shown, "bundled scenario ") {
		// Its relative imports are of the inventories bundled with it.
		ns.se = eval.NewSession(eval.Options{Scenarios: scenarios.Files, FS: newBundledFS()})
	}
	ns.file = file
	ch := ns.fill(entries)
	if err := ch.err(); err != nil {
		var le *eval.Error
		if errors.As(err, &le) {
			placeAll(le.Diagnostics, ch.locate).RenderAll(r.stderr, ns.allSources(ch.scn(), nil), r.style)
		} else {
			r.errorf("%v", err)
		}
		ch.discard()
		return err
	}
	ch.commit()
	if keep {
		r.keepParams(ns, r.s.params)
	}
	r.s = ns
	r.failing = map[string]bool{}
	passed, failed := r.checkAll(nil, true)
	if quiet {
		return nil
	}
	msg := fmt.Sprintf("loaded %s: %s", file, describeCount(countDecls(entries), "declaration", "declarations"))
	if kept > 0 {
		msg += fmt.Sprintf(", %s typed since kept", describeCount(kept, "statement", "statements"))
	}
	if passed+failed > 0 {
		msg += fmt.Sprintf("; expectations: %d passed, %d failed", passed, failed)
	}
	fmt.Fprintln(r.stdout, msg)
	return nil
}

// readScenario reads a file, or a bundled scenario by name when no such
// file exists. It returns the directory its relative imports resolve
// against, and the name its diagnostics give it: the path, or "bundled
// scenario NAME", since no file of that path is there to open.
func readScenario(file string) (src []byte, dir, shown string, err error) {
	// As every verb reads source (srcfile): a named pipe is refused, not
	// waited on.
	src, err = srcfile.ReadFile(file, srcfile.MaxSize)
	if err == nil {
		return src, filepath.Dir(file), file, nil
	}
	if errors.Is(err, os.ErrNotExist) {
		for _, n := range scenarios.Names() {
			if n == strings.TrimSuffix(file, ".gpl") {
				b, err := scenarios.Files.ReadFile(n + ".gpl")
				return b, ".", "bundled scenario " + n, err
			}
		}
		return nil, "", "", fmt.Errorf("cannot read %s: no such file or bundled scenario", file)
	}
	return nil, "", "", err
}

func countDecls(entries []entry) int {
	n := 0
	for _, e := range entries {
		if e.isDecl() {
			n++
		}
	}
	return n
}

// kindWords are the keywords that declare each kind of name: "let" for
// a value, "rules" for a ruleset (lang.Statements).
var kindWords = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, st := range lang.Statements {
		if st.Name != nil {
			m[st.Noun] = st.Keyword
		}
	}
	return m
})

func (r *repl) cmdList(string, lang.Position) {
	w := tabwriter.NewWriter(r.stdout, 0, 0, 2, ' ', 0)
	for _, n := range r.s.names() {
		note := ""
		if _, ok := r.s.entry(n[0]); !ok {
			note = "\t(imported)"
		}
		fmt.Fprintf(w, "%s\t%s%s\n", kindWords()[n[1]], n[0], note)
	}
	w.Flush()
}

func (r *repl) cmdShow(arg string, _ lang.Position) {
	if arg == "" {
		r.errorf("usage: :show NAME")
		return
	}
	e, ok := r.s.entry(arg)
	if !ok {
		text, file, found := r.importedText(arg)
		if !found {
			r.errorf("%s", r.unknownName(arg))
			return
		}
		fmt.Fprintf(r.stdout, "# from %s\n%s\n", file, text)
		return
	}
	fmt.Fprintln(r.stdout, strings.TrimRight(string(formatted("<show>", []byte(e.text))), "\n"))
	switch e.kind {
	case "job":
		if j, ok := r.s.scn().Job(arg); ok && r.writeJob != nil {
			r.writeJob(r.stdout, j)
		}
	case "let", "param", "pool", "request", "rules":
		fmt.Fprintln(r.stdout)
		r.summary(e, nil)
	}
}

// unknownName says a name is not declared, suggesting a close one.
func (r *repl) unknownName(name string) string {
	var names []string
	for _, n := range r.s.scn().Names() {
		names = append(names, n[0])
	}
	msg := name + " is not declared"
	if s := closest(name, names); s != "" {
		msg += "; did you mean " + s + "?"
	}
	return msg
}

// importedText finds the declaration of a name the session imports.
func (r *repl) importedText(name string) (text, file string, ok bool) {
	for _, f := range r.s.scn().Files() {
		if _, _, entry := r.s.locate(f.Name); entry {
			continue
		}
		for _, st := range f.Stmts {
			if declName(st) == name {
				pos, end := st.Span()
				return string(f.Src[pos.Offset:end.Offset]), f.Name, true
			}
		}
	}
	return "", "", false
}

// declName is the name st declares, or "".
func declName(st lang.Stmt) string {
	if id := lang.DeclaredName(st); id != nil {
		return id.Name
	}
	return ""
}

func (r *repl) cmdType(arg string, at lang.Position) {
	if arg == "" {
		r.errorf("usage: :type EXPR")
		return
	}
	t, err := r.s.scn().TypeOf("<expr>", arg)
	if err != nil {
		r.evalError(err, "<expr>", arg, at)
		r.failed = true
		return
	}
	fmt.Fprintln(r.stdout, describeType(t))
}

// typeUnits are the units each named dimension is written and reckoned in.
var typeUnits = map[units.Dim]string{
	units.Count:    "a bare number",
	units.Duration: "s; also ms, min, h, d",
	units.Data:     "B; also KB, MB, GB, TB, KiB, MiB, GiB, TiB",
	units.Compute:  "FLOP; also KFLOP … PFLOP",
	units.Money:    "USD",
	units.Price:    "USD/h",
}

// describeType is a type with its unit: "price (USD/h)", "count (a bare
// number)", "string".
func describeType(t eval.Type) string {
	if t.Kind != eval.Number {
		return t.String()
	}
	if u, ok := typeUnits[t.Dim]; ok {
		return fmt.Sprintf("%s (%s)", t.Dim, u)
	}
	return t.Dim.BaseUnit() + " (a compound of the base units, which no unit names)"
}

func (r *repl) cmdSave(arg string, _ lang.Position) {
	if arg == "" {
		r.errorf("usage: :save FILE")
		return
	}
	text := formatted(arg, r.s.text())
	if err := r.writeFile(arg, text); err != nil {
		r.errorf("cannot save %s: %v", arg, err)
		return
	}
	fmt.Fprintf(r.stdout, "saved %s: %s\n", arg, describeCount(countDecls(r.s.entries), "declaration", "declarations"))
}

// formatted lays a session text out as gpl fmt does; text the printer
// cannot lay out is kept as written.
func formatted(name string, text []byte) []byte {
	if b, err := format.FormatSource(name, text); err == nil {
		return b
	}
	return text
}
