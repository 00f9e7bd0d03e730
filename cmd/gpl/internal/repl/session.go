package repl

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/scenarios"
)

// A REPL session is an ordered list of entries, each one top-level
// statement as it was written (typed at the prompt or read by :load).
// Each entry is a source of its own in an eval.Session: a new declaration
// is checked and evaluated on its own, so typing the thousandth costs what
// the first did, and replacing or dropping one re-evaluates the session
// from the trees already parsed. Positions in an entry's source are
// relative to its own text; an entry knows where that text was written,
// so a diagnostic points at the typed line, or the line of the loaded
// file. :save writes the entries joined into one text.

// entry is one statement of the session, as written.
type entry struct {
	// key is what a later statement replaces it by: the declared name,
	// `import "PATH"`, or an expect's text; "" for a comment block.
	key  string
	kind string // let, param, pool, job, rules, request, import, expect, or comment
	text string
	node lang.Stmt // the parsed statement; its positions are not the entry's
	// from is where text starts in what was typed or in its file.
	from lang.Position
	// source names the entry's source in the eval.Session; "" for a
	// comment block, which is saved but never evaluated.
	source string
	// fields are the fields a request sets, in the order written.
	fields []string
}

// place maps a position in the entry's own text to where it was written.
func (e entry) place(p lang.Position) lang.Position {
	q := e.from
	q.Offset += p.Offset
	q.Line += p.Line - 1
	if p.Line == 1 {
		q.Column += p.Column - 1
	} else {
		q.Column = p.Column
	}
	return q
}

// isDecl reports whether the entry declares a name.
func (e entry) isDecl() bool {
	st := lang.LookupStatement(e.kind)
	return st != nil && st.Name != nil
}

// locator finds the entry whose source has the given name, and its rank:
// its index in the session's order. Positions outside every entry (an
// imported file's) are not found.
type locator func(source string) (e entry, rank int, ok bool)

// placeAll copies diagnostics in the session's order (that of the entries,
// then of imported files), with every position mapped to where it was
// written.
func placeAll(ds lang.Diagnostics, loc locator) lang.Diagnostics {
	if loc == nil {
		loc = func(string) (entry, int, bool) { return entry{}, 0, false }
	}
	rank := func(p lang.Position) int {
		if p.Line == 0 {
			return -1
		}
		if _, r, ok := loc(p.Filename); ok {
			return r
		}
		return int(^uint(0) >> 1)
	}
	sorted := append(lang.Diagnostics(nil), ds...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Pos, sorted[j].Pos
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra < rb
		}
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	place := func(p lang.Position) lang.Position {
		if e, _, ok := loc(p.Filename); ok {
			return e.place(p)
		}
		return p
	}
	out := make(lang.Diagnostics, len(sorted))
	for i, d := range sorted {
		c := *d
		c.Pos, c.End = place(d.Pos), place(d.End)
		c.Related = make([]lang.Related, len(d.Related))
		for j, r := range d.Related {
			c.Related[j] = lang.Related{Pos: place(r.Pos), End: place(r.End), Label: r.Label}
		}
		out[i] = &c
	}
	return out
}

// sessionText joins entries into the text :save writes: a blank line
// between statements, but a run of imports or of expects stays together.
func sessionText(entries []entry) []byte {
	var b strings.Builder
	for i, e := range entries {
		if i > 0 {
			b.WriteString("\n")
			if e.kind != entries[i-1].kind || e.kind != "import" && e.kind != "expect" {
				b.WriteString("\n")
			}
		}
		b.WriteString(e.text)
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return []byte(b.String())
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
	if st == nil {
		return e
	}
	row := lang.StatementOf(st)
	e.kind = row.Keyword
	switch st := st.(type) {
	case *lang.Import:
		e.key = "import " + st.Path
	case *lang.Request:
		e.key = st.Name.Name
		for _, f := range st.Fields {
			e.fields = append(e.fields, f.Name.Name)
		}
	case *lang.Expect:
		pos, end := st.Span()
		e.key = strings.Join(strings.Fields(string(src[pos.Offset:end.Offset])), " ")
	case *lang.Owners:
		e.key = "owners" // a new top-level block replaces those before (dropOtherOwners)
	default: // a declaration: keyed by its name
		e.key = row.Name(st).Name
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
	at := map[string]int{}
	for i, e := range out {
		if e.key != "" {
			at[e.key] = i
		}
	}
	for _, a := range add {
		if i, ok := at[a.key]; ok && a.key != "" {
			out[i] = a
			continue
		}
		if a.key != "" {
			at[a.key] = len(out)
		}
		out = append(out, a)
	}
	return out
}

// session is the state of a REPL: its entries and their evaluation.
type session struct {
	dir  string // relative imports resolve against it
	file string // the file :load read, for :reload
	se   *eval.Session
	// entries in order, with indexes by key and by source name.
	entries  []entry
	byKey    map[string]int
	bySource map[string]int
	seq      int // numbers the entries' sources
	// params are the values :set gave, which stay set.
	params map[string]eval.Value
	// sources holds the texts entries come from: what was typed, and
	// loaded files.
	sources lang.Sources
}

func newSession(dir string, sources lang.Sources) *session {
	return &session{
		dir:      dir,
		se:       eval.NewSession(eval.Options{Scenarios: scenarios.Files}),
		byKey:    map[string]int{},
		bySource: map[string]int{},
		params:   map[string]eval.Value{},
		sources:  sources,
	}
}

// scn is the session's current evaluation.
func (s *session) scn() *eval.Scenario { return s.se.Scenario() }

// entry returns the entry with the given key.
func (s *session) entry(key string) (entry, bool) {
	if i, ok := s.byKey[key]; ok {
		return s.entries[i], true
	}
	return entry{}, false
}

// locate is the session's locator.
func (s *session) locate(source string) (entry, int, bool) {
	if i, ok := s.bySource[source]; ok {
		return s.entries[i], i, true
	}
	return entry{}, 0, false
}

// name gives an entry a source name of its own. It lies in the session's
// directory, against which eval resolves the entry's relative imports.
func (s *session) name(e *entry) {
	if e.kind == "comment" {
		return
	}
	s.seq++
	e.source = filepath.Join(s.dir, fmt.Sprintf("<entry %d>", s.seq))
}

// reindex rebuilds the indexes of the entries.
func (s *session) reindex() {
	clear(s.byKey)
	clear(s.bySource)
	for i, e := range s.entries {
		s.index(i, e)
	}
}

func (s *session) index(i int, e entry) {
	if e.key != "" {
		s.byKey[e.key] = i
	}
	if e.source != "" {
		s.bySource[e.source] = i
	}
}

// text is the session text as :save writes it.
func (s *session) text() []byte { return sessionText(s.entries) }

// allSources is every text a diagnostic may quote.
func (s *session) allSources(scn *eval.Scenario, more lang.Sources) lang.Sources {
	all := lang.Sources{}
	if scn != nil {
		maps.Copy(all, scn.Sources())
	}
	maps.Copy(all, more)
	maps.Copy(all, s.sources)
	return all
}

// change is a proposed change to the session: evaluated, and taken only on
// commit.
type change struct {
	s  *session
	ec *eval.Change
	// added are the entries it adds or puts in place of others.
	added []entry
	// entries are the session's entries after the change when it
	// replaces or drops any; nil when it only appends added.
	entries []entry
	index   map[string]int // entries' ranks by source, when entries is set
}

// replaces reports whether the change replaces or drops entries, so that
// what was declared before may change; a change that only adds cannot
// change what was declared, which loaded without reading any name not yet
// declared.
func (ch *change) replaces() bool { return ch.entries != nil }

func (ch *change) scn() *eval.Scenario { return ch.ec.Scenario() }
func (ch *change) err() error          { return ch.ec.Err() }

// locate is the locator of the session as the change leaves it.
func (ch *change) locate(source string) (entry, int, bool) {
	if ch.entries != nil {
		if i, ok := ch.index[source]; ok {
			return ch.entries[i], i, true
		}
		return entry{}, 0, false
	}
	for i, a := range ch.added {
		if a.source == source {
			return a, len(ch.s.entries) + i, true
		}
	}
	return ch.s.locate(source)
}

// blames reports whether a diagnostic of the change lies in an entry it
// adds.
func (ch *change) blames(d *lang.Diagnostic) bool {
	for _, a := range ch.added {
		if a.source != "" && a.source == d.Pos.Filename {
			return true
		}
	}
	return false
}

func (ch *change) commit() {
	ch.ec.Commit()
	s := ch.s
	if ch.entries == nil {
		for _, a := range ch.added {
			s.entries = append(s.entries, a)
			s.index(len(s.entries)-1, a)
		}
		return
	}
	s.entries = ch.entries
	s.reindex()
}

func (ch *change) discard() { ch.ec.Discard() }

// declare proposes typed entries: each replaces, in place, the entry of
// its key (a later one in add replaces an earlier), or goes at the end.
func (s *session) declare(add []entry) *change {
	var list []entry
	at := map[string]int{}
	for _, a := range add {
		if a.key != "" {
			if i, ok := at[a.key]; ok {
				list[i] = a
				continue
			}
			at[a.key] = len(list)
		}
		list = append(list, a)
	}
	ch := &change{s: s, added: list}
	var srcs []eval.Source
	var drop, fresh []entry
	for i := range list {
		s.name(&list[i])
		a := list[i]
		if a.source != "" {
			srcs = append(srcs, eval.Source{Name: a.source, Text: []byte(a.text)})
		}
		j, ok := s.byKey[a.key]
		if !ok || a.key == "" {
			fresh = append(fresh, a)
			continue
		}
		if ch.entries == nil {
			ch.entries = append([]entry(nil), s.entries...)
		}
		ch.entries[j] = a
		drop = append(drop, s.entries[j])
	}
	var gone []string
	for _, d := range drop {
		if d.source != "" {
			gone = append(gone, d.source)
		}
	}
	if ch.entries != nil {
		ch.entries = append(ch.entries, fresh...)
		ch.entries, gone = dropOtherOwners(ch.entries, s.entries, list, gone)
		ch.indexEntries()
	}
	ch.ec = s.se.Try(srcs, gone)
	return ch
}

// dropOtherOwners takes out of entries the top-level owners blocks of
// the session (old) that a typed owners block does not replace in place:
// a file read with two has two entries, and the block typed replaces them
// all, as it replaces one. gone gains their sources.
func dropOtherOwners(entries, old, typed []entry, gone []string) ([]entry, []string) {
	if !slices.ContainsFunc(typed, func(e entry) bool { return e.key == "owners" }) {
		return entries, gone
	}
	keep := entries[:0:0]
	for i, e := range entries {
		if e.key == "owners" && i < len(old) && old[i].key == "owners" && e.source == old[i].source {
			gone = append(gone, e.source)
			continue
		}
		keep = append(keep, e)
	}
	return keep, gone
}

func (ch *change) indexEntries() {
	ch.index = map[string]int{}
	for i, e := range ch.entries {
		if e.source != "" {
			ch.index[e.source] = i
		}
	}
}

// drop proposes taking out the entry of a key.
func (s *session) drop(key string) *change {
	j := s.byKey[key]
	ch := &change{s: s}
	ch.entries = append(append([]entry(nil), s.entries[:j]...), s.entries[j+1:]...)
	ch.indexEntries()
	ch.ec = s.se.Try(nil, []string{s.entries[j].source})
	return ch
}

// fill proposes entries for an empty session, as read from a file: names
// declared twice are errors, as gpl check reports them.
func (s *session) fill(entries []entry) *change {
	ch := &change{s: s}
	var srcs []eval.Source
	for i := range entries {
		s.name(&entries[i])
		if e := entries[i]; e.source != "" {
			srcs = append(srcs, eval.Source{Name: e.source, Text: []byte(e.text)})
		}
	}
	ch.added = entries
	ch.ec = s.se.Try(srcs, nil)
	return ch
}

// ranks gives each file of a scenario the rank of the entry it is, or that
// imported it, and each declared name the rank of its file.
func (s *session) ranks(scn *eval.Scenario) (files, names map[string]int) {
	files, names = map[string]int{}, map[string]int{}
	cur := -1
	for _, f := range scn.Files() {
		if _, r, ok := s.locate(f.Name); ok {
			cur = r
		}
		files[f.Name] = cur
		for _, st := range f.Stmts {
			if n := declName(st); n != "" {
				if _, seen := names[n]; !seen {
					names[n] = cur
				}
			}
		}
	}
	return files, names
}

// names lists the declared names with their kinds in the order of the
// entries; an imported name comes with the entry that imported it.
func (s *session) names() [][2]string {
	scn := s.scn()
	_, rank := s.ranks(scn)
	out := scn.Names()
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i][0]] < rank[out[j][0]] })
	return out
}

func describeCount(n int, one, many string) string {
	return units.CountOf(float64(n), one, many)
}
