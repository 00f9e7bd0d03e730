package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// A REPL session is an ordered list of entries, each one top-level
// statement as it was written (typed at the prompt or read by :load). The
// entries are joined into one text, the session text, which is what :save
// writes, and after every change the whole text is evaluated again with
// eval.LoadSource. Positions in the session text are mapped back to where
// each entry was written, so a diagnostic points at the typed line.

// entry is one statement of the session, as written.
type entry struct {
	// key is what a later statement replaces it by: the declared name,
	// `import "PATH"`, or an expect's text; "" for a comment block.
	key  string
	kind string // let, pool, job, rules, request, import, expect, or comment
	text string
	node lang.Stmt // the parsed statement; its positions are not the session's
	// from is where text starts in what was typed or in its file.
	from lang.Position
}

// span places a piece of text that eval read under file, starting at start,
// at the origin it was written at.
type span struct {
	file   string
	start  lang.Position // Offset and Line in file; the span starts a line
	size   int
	origin lang.Position
}

// layout is a session text and where each entry sits in it.
type layout struct {
	name    string // the file name the text was loaded under
	text    []byte
	entries []entry
	spans   []span // one per entry
}

// sessionFileName is the name the session text is loaded under: in the
// session's directory, so that relative imports resolve against it.
func sessionFileName(dir string) string { return filepath.Join(dir, "<session>") }

func buildLayout(name string, entries []entry) *layout {
	l := &layout{name: name, entries: entries}
	var b strings.Builder
	line := 1
	for i, e := range entries {
		if i > 0 {
			// A blank line between statements, but a run of imports or
			// of expects stays together.
			b.WriteString("\n")
			line++
			if e.kind != entries[i-1].kind || e.kind != "import" && e.kind != "expect" {
				b.WriteString("\n")
				line++
			}
		}
		l.spans = append(l.spans, span{
			file:   name,
			start:  lang.Position{Filename: name, Offset: b.Len(), Line: line, Column: 1},
			size:   len(e.text),
			origin: e.from,
		})
		b.WriteString(e.text)
		line += strings.Count(e.text, "\n")
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	l.text = []byte(b.String())
	return l
}

// entryAt returns the index of the entry a position of the session text
// falls in, or -1.
func (l *layout) entryAt(p lang.Position) int {
	if p.Filename != l.name {
		return -1
	}
	for i, sp := range l.spans {
		if p.Offset >= sp.start.Offset && p.Offset <= sp.start.Offset+sp.size {
			return i
		}
	}
	return -1
}

// place maps a position eval reported to where it was written.
func place(p lang.Position, spans []span) lang.Position {
	for _, sp := range spans {
		if p.Filename != sp.file || p.Offset < sp.start.Offset || p.Offset > sp.start.Offset+sp.size {
			continue
		}
		q := sp.origin
		q.Offset += p.Offset - sp.start.Offset
		q.Line += p.Line - sp.start.Line
		if p.Line == sp.start.Line {
			q.Column += p.Column - 1
		} else {
			q.Column = p.Column
		}
		return q
	}
	return p
}

// placeAll copies diagnostics with every position mapped by spans.
func placeAll(ds lang.Diagnostics, spans []span) lang.Diagnostics {
	out := make(lang.Diagnostics, len(ds))
	for i, d := range ds {
		c := *d
		c.Pos, c.End = place(d.Pos, spans), place(d.End, spans)
		c.Related = make([]lang.Related, len(d.Related))
		for j, r := range d.Related {
			c.Related[j] = lang.Related{Pos: place(r.Pos, spans), End: place(r.End, spans), Label: r.Label}
		}
		out[i] = &c
	}
	return out
}

// splitEntries cuts src into one entry per statement. Comment lines
// directly above a statement belong to it; with detach, the comments before
// the first statement's own (a file's header) become an entry of their own,
// otherwise they too belong to the first statement. from is where src
// starts.
func splitEntries(src []byte, stmts []lang.Stmt, from lang.Position, detach bool) []entry {
	starts := make([]int, len(stmts))
	limit := 0
	for i, st := range stmts {
		pos, end := st.Span()
		starts[i] = attachStart(src, pos.Offset, limit)
		limit = lineEnd(src, end.Offset)
	}
	var out []entry
	if len(stmts) > 0 && detach {
		if head := strings.TrimSpace(string(src[:starts[0]])); head != "" {
			out = append(out, makeEntry(src, 0, starts[0], nil, from))
		}
	} else if len(stmts) > 0 {
		starts[0] = 0
	}
	for i, st := range stmts {
		end := len(src)
		if i+1 < len(stmts) {
			end = starts[i+1]
		}
		out = append(out, makeEntry(src, starts[i], end, st, from))
	}
	return out
}

// attachStart moves a statement's start up over the comment lines directly
// above it, but not above limit.
func attachStart(src []byte, off, limit int) int {
	ls := lineStart(src, off)
	if strings.TrimSpace(string(src[ls:off])) != "" {
		return off // another statement ends earlier on this line
	}
	for ls > limit {
		prev := lineStart(src, ls-1)
		if prev < limit || !strings.HasPrefix(strings.TrimSpace(string(src[prev:ls])), "#") {
			break
		}
		ls = prev
	}
	return ls
}

func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

func lineEnd(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	return off
}

// makeEntry makes the entry of src[start:end]: blank lines before it and
// white space and semicolons after it are left out.
func makeEntry(src []byte, start, end int, st lang.Stmt, from lang.Position) entry {
	for {
		le := lineEnd(src, start)
		if le >= end || strings.TrimSpace(string(src[start:le])) != "" {
			break
		}
		start = le + 1
	}
	text := strings.TrimRight(string(src[start:end]), " \t\r\n;")
	e := entry{text: text, node: st, kind: "comment", from: advance(from, src[:start])}
	switch st := st.(type) {
	case *lang.Import:
		e.kind, e.key = "import", "import "+st.Path
	case *lang.Let:
		e.kind, e.key = "let", st.Name.Name
	case *lang.Pool:
		e.kind, e.key = "pool", st.Name.Name
	case *lang.Job:
		e.kind, e.key = "job", st.Name.Name
	case *lang.Rules:
		e.kind, e.key = "rules", st.Name.Name
	case *lang.Request:
		e.kind, e.key = "request", st.Name.Name
	case *lang.Expect:
		pos, end := st.Span()
		e.kind, e.key = "expect", strings.Join(strings.Fields(string(src[pos.Offset:end.Offset])), " ")
	}
	return e
}

// advance returns the position just after text, which starts at p.
func advance(p lang.Position, text []byte) lang.Position {
	p.Offset += len(text)
	if i := strings.LastIndexByte(string(text), '\n'); i >= 0 {
		p.Line += strings.Count(string(text), "\n")
		p.Column = 1 + utf8.RuneCount(text[i+1:])
	} else {
		p.Column += utf8.RuneCount(text)
	}
	return p
}

// merge puts each added entry in place of the entry with its key, or at
// the end.
func merge(old, add []entry) []entry {
	out := append([]entry(nil), old...)
next:
	for _, a := range add {
		if a.key != "" {
			for i, e := range out {
				if e.key == a.key {
					out[i] = a
					continue next
				}
			}
		}
		out = append(out, a)
	}
	return out
}

// session is the state of a REPL: its entries and their evaluation.
type session struct {
	entries []entry
	dir     string // relative imports resolve against it
	file    string // the file :load read, for :reload
	scn     *eval.Scenario
	lay     *layout
	// sources holds the texts entries come from: what was typed, and
	// loaded files.
	sources lang.Sources
}

func newSession() *session {
	s := &session{dir: ".", sources: lang.Sources{}}
	s.scn, s.lay, _ = s.evaluate(nil, s.dir)
	return s
}

// evaluate loads a session text made of entries; the error is an
// *eval.Error whose positions are the session text's.
func (s *session) evaluate(entries []entry, dir string) (*eval.Scenario, *layout, error) {
	lay := buildLayout(sessionFileName(dir), entries)
	scn, err := eval.LoadSource(lay.name, lay.text)
	return scn, lay, err
}

func (s *session) commit(entries []entry, dir string, scn *eval.Scenario, lay *layout) {
	s.entries, s.dir, s.scn, s.lay = entries, dir, scn, lay
}

// allSources is every text a diagnostic may quote.
func (s *session) allSources(scn *eval.Scenario) lang.Sources {
	all := lang.Sources{}
	if scn != nil {
		for k, v := range scn.Sources {
			all[k] = v
		}
	}
	for k, v := range s.sources {
		all[k] = v
	}
	return all
}

// entry returns the entry with the given key.
func (s *session) entry(key string) (entry, bool) {
	for _, e := range s.entries {
		if e.key == key {
			return e, true
		}
	}
	return entry{}, false
}

// text is the session text as :save writes it.
func (s *session) text() []byte { return s.lay.text }

func describeCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
