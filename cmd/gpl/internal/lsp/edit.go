package lsp

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/format"
)

// lspDiagnostics are a check's diagnostics in the protocol's terms: those
// of the document's own file at their ranges, those of a file it imports
// at its first line, naming where they are.
func (s *Server) lspDiagnostics(a *analysis) []Diagnostic {
	out := []Diagnostic{}
	uri := s.uriOf(a)
	for _, d := range a.diags {
		ld := Diagnostic{Severity: SeverityError, Source: "gpl", Message: d.Summary, Code: eval.DiagnosticCode(d)}
		if d.Severity == lang.Warning {
			ld.Severity = SeverityWarning
		}
		own := d.Pos.Filename == a.name && d.Pos.Line > 0
		if own {
			ld.Range = a.diagRange(d.Pos, d.End)
		} else if d.Pos.Line > 0 {
			ld.Message = fmt.Sprintf("%s:%d:%d: %s", d.Pos.Filename, d.Pos.Line, d.Pos.Column, d.Summary)
		}
		here := Location{URI: uri, Range: ld.Range}
		if d.Label != "" {
			ld.RelatedInformation = append(ld.RelatedInformation, DiagnosticRelatedInformation{Location: here, Message: d.Label})
		}
		for _, n := range d.Notes {
			ld.RelatedInformation = append(ld.RelatedInformation, DiagnosticRelatedInformation{Location: here, Message: n})
		}
		for _, r := range d.Related {
			if r.Pos.Filename == a.name && r.Pos.Line > 0 {
				ld.RelatedInformation = append(ld.RelatedInformation, DiagnosticRelatedInformation{
					Location: Location{URI: uri, Range: a.diagRange(r.Pos, r.End)}, Message: r.Label})
			} else if loc, ok := s.locate(a, r.Pos.Filename, r.Pos.Offset, r.End.Offset); ok && r.Pos.Line > 0 {
				ld.RelatedInformation = append(ld.RelatedInformation, DiagnosticRelatedInformation{Location: loc, Message: r.Label})
			}
		}
		out = append(out, ld)
	}
	return out
}

// diagRange is the range of a diagnostic's subject; one without an end
// covers the token at its start.
func (a *analysis) diagRange(pos, end lang.Position) Range {
	from, to := pos.Offset, end.Offset
	if end.Line == 0 || to <= from || end.Filename != pos.Filename {
		to = from
		for _, t := range a.tokens() {
			if t.Pos.Offset == from {
				to = from + len(t.Value)
				break
			}
		}
	}
	return a.lines.rangeOf(from, min(to, len(a.text)))
}

// occurrence is one use of a name in a file.
type occurrence struct {
	uri      string
	lines    *lines
	from, to int
}

// workspaceFile is a .gpl file the workspace holds: an open document's
// text, else the file's on disk.
type workspaceFile struct {
	name, uri, text string
}

// maxWorkspaceFiles bounds the files a rename or a search for references
// reads.
const maxWorkspaceFiles = 5000

// related are the files a name declared in the document may be used in:
// the document, and every workspace file connected to it by imports,
// either way.
func (s *Server) related(a *analysis) []workspaceFile {
	files := map[string]workspaceFile{}
	s.mu.Lock()
	for uri, d := range s.docs {
		t, _ := d.current()
		files[d.name] = workspaceFile{d.name, uri, t}
	}
	s.mu.Unlock()
	files[a.name] = workspaceFile{a.name, s.uriOf(a), a.text}
	for _, root := range s.roots {
		n := 0
		filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if de.IsDir() {
				if path != root && strings.HasPrefix(de.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if n++; n > maxWorkspaceFiles {
				return filepath.SkipAll
			}
			if !strings.HasSuffix(path, ".gpl") {
				return nil
			}
			if _, open := files[path]; open {
				return nil
			}
			if b, err := os.ReadFile(path); err == nil {
				files[path] = workspaceFile{path, pathURI(path), string(b)}
			}
			return nil
		})
	}
	// Link the files by their imports, then keep those linked to a.
	edges := map[string][]string{}
	for name, f := range files {
		toks := tokens(name, f.text)
		for i := 0; i+1 < len(toks); i++ {
			if toks[i].Value != "import" {
				continue
			}
			p, err := strconv.Unquote(toks[i+1].Value)
			if err != nil || strings.HasPrefix(p, "std/") || strings.HasPrefix(p, "scenarios/") {
				continue
			}
			target := filepath.Join(filepath.Dir(name), filepath.FromSlash(p))
			edges[name] = append(edges[name], target)
			edges[target] = append(edges[target], name)
		}
	}
	seen := map[string]bool{a.name: true}
	queue := []string{a.name}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range edges[n] {
			if !seen[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	var out []workspaceFile
	for name := range seen {
		if f, ok := files[name]; ok {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].uri < out[j].uri })
	return out
}

// uses are the places a top-level name is written in the files: as a
// name token that is not a field (after a dot, or a block's NAME = …).
func uses(files []workspaceFile, name string) []occurrence {
	var out []occurrence
	for _, f := range files {
		if !strings.Contains(f.text, name) {
			continue
		}
		toks := tokens(f.name, f.text)
		l := newLines(f.text)
		for i, t := range toks {
			if t.Value != name {
				continue
			}
			if i > 0 && toks[i-1].Value == "." {
				continue
			}
			if i+1 < len(toks) && toks[i+1].Value == "=" && (i == 0 || toks[i-1].Value != "let" && toks[i-1].Value != "param") {
				continue // a block's field
			}
			out = append(out, occurrence{f.uri, l, t.Pos.Offset, t.Pos.Offset + len(t.Value)})
		}
	}
	return out
}

// target is the declared name a rename or a search for references is of.
func (s *Server) target(a *analysis, off int) (word, decl, error) {
	w, ok := wordAt(a.tokens(), off)
	if !ok {
		return w, decl{}, errNoName
	}
	if w.tok > 0 && a.tokens()[w.tok-1].Value == "." {
		return w, decl{}, fmt.Errorf("%s is a field or a result, whose name the language fixes; rename the declaration it belongs to instead", w.path)
	}
	d, ok := declarations(a)[w.parts[0]]
	if !ok {
		return w, decl{}, fmt.Errorf("%s is not a declared name", w.parts[0])
	}
	return w, d, nil
}

func (s *Server) references(params json.RawMessage) (any, error) {
	var p ReferenceParams
	a, err := s.request(params, &p)
	if err != nil {
		return nil, err
	}
	w, d, err := s.target(a, a.lines.offset(p.Position))
	if err != nil {
		return []Location{}, nil
	}
	out := []Location{}
	for _, o := range uses(s.related(a), w.parts[0]) {
		if !p.Context.IncludeDeclaration && d.file == uriPath(o.uri) && o.from == d.ident.Start().Offset {
			continue
		}
		out = append(out, Location{URI: o.uri, Range: o.lines.rangeOf(o.from, o.to)})
	}
	return out, nil
}

func (s *Server) prepareRename(params json.RawMessage) (any, error) {
	a, off, err := s.at(params)
	if err != nil {
		return nil, err
	}
	w, d, err := s.target(a, off)
	if err != nil {
		return nil, err
	}
	if d.file != a.name && !s.editable(d.file) {
		return nil, fmt.Errorf("%s is declared in %s, which is bundled with gpl", w.parts[0], d.file)
	}
	return a.lines.rangeOf(w.from, w.to), nil
}

// editable reports whether a file is one a rename may change: not a
// bundled one.
func (s *Server) editable(name string) bool {
	return !strings.HasPrefix(name, "std/") && !strings.HasPrefix(name, "scenarios/")
}

func (s *Server) rename(params json.RawMessage) (any, error) {
	var p RenameParams
	a, err := s.request(params, &p)
	if err != nil {
		return nil, err
	}
	w, d, err := s.target(a, a.lines.offset(p.Position))
	if err != nil {
		return nil, err
	}
	old, name := w.parts[0], p.NewName
	switch {
	case !s.editable(d.file):
		return nil, fmt.Errorf("%s is declared in %s, which is bundled with gpl", old, d.file)
	case !lang.IsIdent(name):
		return nil, fmt.Errorf("%q is not a name: a letter or _, then letters, digits and _", name)
	case lang.IsKeyword(name):
		return nil, fmt.Errorf("%s is a keyword of gpl", name)
	}
	if taken, ok := declarations(a)[name]; ok && name != old {
		pos := taken.ident.Start()
		return nil, fmt.Errorf("%s is already declared (%s:%d:%d); pick another name", name, pos.Filename, pos.Line, pos.Column)
	}
	edit := WorkspaceEdit{Changes: map[string][]TextEdit{}}
	for _, o := range uses(s.related(a), old) {
		edit.Changes[o.uri] = append(edit.Changes[o.uri], TextEdit{Range: o.lines.rangeOf(o.from, o.to), NewText: name})
	}
	return edit, nil
}

func (s *Server) formatting(params json.RawMessage) (any, error) {
	var p DocumentParams
	a, err := s.request(params, &p)
	if err != nil {
		return nil, err
	}
	out, err := format.FormatSource(a.name, []byte(a.text))
	if err != nil {
		return nil, fmt.Errorf("cannot format %s: %v", filepath.Base(a.name), firstLine(err.Error()))
	}
	return lineEdits(a.lines, string(out)), nil
}

// lineEdits is the one edit that turns the text into out: the lines
// between their common first and last lines replaced; none when equal.
func lineEdits(l *lines, out string) []TextEdit {
	old := l.text
	if old == out {
		return []TextEdit{}
	}
	p := 0
	for p < len(old) && p < len(out) && old[p] == out[p] {
		p++
	}
	p = strings.LastIndexByte(old[:p], '\n') + 1 // back to a line start
	q := 0
	for q < len(old)-p && q < len(out)-p && old[len(old)-1-q] == out[len(out)-1-q] {
		q++
	}
	// forward to just after a line break
	for q > 0 && old[len(old)-q-1] != '\n' {
		q--
	}
	return []TextEdit{{Range: l.rangeOf(p, len(old)-q), NewText: out[p : len(out)-q]}}
}

func (s *Server) rangeFormatting(params json.RawMessage) (any, error) {
	var p RangeParams
	a, err := s.request(params, &p)
	if err != nil {
		return nil, err
	}
	out, err := format.FormatSource(a.name, []byte(a.text))
	if err != nil {
		return nil, fmt.Errorf("cannot format %s: %v", filepath.Base(a.name), firstLine(err.Error()))
	}
	// The statements the range touches, matched one for one with those of
	// the formatted text, which holds the same statements in order.
	oldF, d1 := lang.Parse(a.name, []byte(a.text))
	newF, d2 := lang.Parse(a.name, out)
	if d1.HasErrors() || d2.HasErrors() || len(oldF.Stmts) != len(newF.Stmts) {
		return lineEdits(a.lines, string(out)), nil
	}
	from, to := a.lines.offset(p.Range.Start), a.lines.offset(p.Range.End)
	first, last := -1, -1
	for i, st := range oldF.Stmts {
		sf, st2 := st.Span()
		if sf.Offset <= to && st2.Offset >= from {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return []TextEdit{}, nil
	}
	nl := newLines(string(out))
	span := func(l *lines, f *lang.File) (int, int) {
		a, _ := f.Stmts[first].Span()
		_, b := f.Stmts[last].Span()
		la, lb := l.position(a.Offset).Line, l.position(b.Offset).Line
		return l.start[la], l.lineEnd(lb)
	}
	of, ot := span(a.lines, oldF)
	nf, nt := span(nl, newF)
	if a.text[of:ot] == string(out[nf:nt]) {
		return []TextEdit{}, nil
	}
	return []TextEdit{{Range: a.lines.rangeOf(of, ot), NewText: string(out[nf:nt])}}, nil
}

func (s *Server) codeActions(params json.RawMessage) (any, error) {
	var p CodeActionParams
	a, err := s.request(params, &p)
	if err != nil {
		return nil, err
	}
	uri := p.TextDocument.URI
	from, to := a.lines.offset(p.Range.Start), a.lines.offset(p.Range.End)
	out := []CodeAction{}
	all := s.lspDiagnostics(a)
	for i, d := range a.diags {
		if len(d.Fixes) == 0 || d.Pos.Filename != a.name || d.Pos.Line == 0 {
			continue
		}
		dr := a.diagRange(d.Pos, d.End)
		if a.lines.offset(dr.End) < from || a.lines.offset(dr.Start) > to {
			continue
		}
		var edits []TextEdit
		for _, f := range d.Fixes {
			if f.Pos.Filename != a.name && f.Pos.Filename != "" {
				edits = nil
				break
			}
			edits = append(edits, TextEdit{Range: a.lines.rangeOf(f.Pos.Offset, f.End.Offset), NewText: f.Text})
		}
		if len(edits) == 0 {
			continue
		}
		out = append(out, CodeAction{Title: fixTitle(d, a.text), Kind: "quickfix", Diagnostics: []Diagnostic{all[i]}, IsPreferred: true,
			Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{uri: edits}}})
	}
	return out, nil
}

// fixTitle names a quick fix by the hint it applies.
func fixTitle(d *lang.Diagnostic, text string) string {
	for _, n := range d.Notes {
		if h, ok := strings.CutPrefix(n, "hint: "); ok {
			return h
		}
	}
	f := d.Fixes[0]
	old := ""
	if f.Pos.Offset <= f.End.Offset && f.End.Offset <= len(text) {
		old = text[f.Pos.Offset:f.End.Offset]
	}
	if strings.TrimSpace(f.Text) == "" {
		return fmt.Sprintf("remove %q", old)
	}
	if old == "" {
		return fmt.Sprintf("insert %q", f.Text)
	}
	return fmt.Sprintf("write %s for %s", f.Text, old)
}

// writeBundled writes a bundled file (std/NAME.gpl, scenarios/NAME.gpl)
// under a directory of the server's own, for an editor to open at a
// definition; it returns the path written.
func (s *Server) writeBundled(name, text string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stdDir == "" {
		dir, err := os.MkdirTemp("", "gpl-lsp-")
		if err != nil {
			return "", err
		}
		s.stdDir = dir
	}
	path := filepath.Join(s.stdDir, filepath.FromSlash(name))
	if b, err := os.ReadFile(path); err == nil && string(b) == text {
		return path, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, []byte(text), 0o444)
}
