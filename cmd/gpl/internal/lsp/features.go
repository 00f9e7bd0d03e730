package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/repl"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
	"github.com/gpl-lang/gpl/lang"
)

// at reads a position request's params: the document's latest check and
// the byte offset asked about.
func (s *Server) at(params json.RawMessage) (*analysis, int, error) {
	var p TextDocumentPositionParams
	a, err := s.request(params, &p)
	if err != nil {
		return nil, 0, err
	}
	return a, a.lines.offset(p.Position), nil
}

// docRequest is a request's params that name one document
// (DocumentParams).
type docRequest interface{ document() string }

// request decodes params into p and returns the analysis of the open
// document p names.
func (s *Server) request(params json.RawMessage, p docRequest) (*analysis, error) {
	if err := json.Unmarshal(params, p); err != nil {
		return nil, &respError{codeInvalidParams, err.Error()}
	}
	return s.analysisOf(p.document())
}

func (s *Server) analysisOf(uri string) (*analysis, error) {
	d := s.doc(uri)
	if d == nil {
		return nil, &respError{codeInvalidParams, uri + " is not open"}
	}
	return s.analyze(d), nil
}

// resolved is a name under the cursor read as the scenario reads it.
type resolved struct {
	w    word
	path string // the dotted name eval reads: llama2_70b.mpg, or JOB.mpg for a bare mpg in job JOB
	kind string // the kind of its first part's declaration, "" for none
	job  *eval.Job
}

// resolve reads the name at off: a declared name and its fields, or
// inside a job, a pool or a request a bare result or field of it.
func resolve(a *analysis, off int) (resolved, bool) {
	w, ok := wordAt(a.tokens(), off)
	if !ok || a.scn == nil {
		return resolved{}, false
	}
	kindOf := func(name string) string {
		k, _ := a.scn.KindOf(name)
		return k
	}
	r := resolved{w: w, path: w.path, kind: kindOf(w.parts[0])}
	if r.kind == "" {
		if st := enclosing(a, off); st != nil {
			if id := declName(st); id != nil && id.Name != w.parts[0] {
				r.path = id.Name + "." + w.path
				r.kind = kindOf(id.Name)
			}
		}
	}
	if r.kind == "" {
		return r, false
	}
	if r.kind == "job" {
		r.job, _ = a.scn.Job(strings.SplitN(r.path, ".", 2)[0])
	}
	return r, true
}

func (s *Server) hover(params json.RawMessage) (any, error) {
	a, off, err := s.at(params)
	if err != nil {
		return nil, err
	}
	r, ok := resolve(a, off)
	if !ok {
		return nil, nil
	}
	var b strings.Builder
	name, field, dotted := strings.Cut(r.path, ".")
	switch {
	case r.job != nil && !dotted:
		fmt.Fprintf(&b, "**job** `%s`\n\n```text\n", name)
		repl.WriteJobSummary(&b, report.JobOf(r.job))
		if v := report.JobOf(r.job).View; v.HasBestLever {
			fmt.Fprintf(&b, "  best lever owned by %s\n", v.Factors[v.BestLever].Owner)
		}
		if text, err := r.job.Explain("mpg"); err == nil {
			b.WriteString("\n" + strings.TrimRight(text, "\n") + "\n")
		}
		b.WriteString("```")
	case r.job != nil:
		v, err := r.job.Get(field)
		if err != nil {
			fmt.Fprintf(&b, "**result** `%s`: %s", r.path, err)
			break
		}
		fmt.Fprintf(&b, "**result** `%s` · %s\n\n`%s = %s`", r.path, v.Type, r.path, v)
		if text, err := r.job.Explain(field); err == nil {
			fmt.Fprintf(&b, "\n\n```text\n%s\n```", strings.TrimRight(text, "\n"))
		}
	default:
		kind := r.kind
		if kind == "value" {
			if st, ok := declarations(a)[name].stmt.(*lang.Let); ok {
				kind = st.Keyword()
			}
		}
		fmt.Fprintf(&b, "**%s** `%s`", kind, r.path)
		explained := r.path
		if v, err := a.scn.Value(r.path); err == nil {
			fmt.Fprintf(&b, " · %s\n\n`%s = %s`", v.Type, r.path, v)
		} else if !dotted {
			explained = a.planningSummary(&b, r.kind, name)
		}
		if text, ok, err := a.scn.ExplainPlanning(explained); err == nil && ok {
			fmt.Fprintf(&b, "\n\n```text\n%s\n```", strings.TrimRight(text, "\n"))
		}
	}
	rg := a.lines.rangeOf(r.w.from, r.w.to)
	return Hover{Contents: MarkupContent{Kind: "markdown", Value: b.String()}, Range: &rg}, nil
}

func (s *Server) inlayHints(params json.RawMessage) (any, error) {
	var p RangeParams
	a, err := s.request(params, &p)
	if err != nil {
		return nil, err
	}
	return a.inlayHints(p.Range), nil
}

// inlayHints are the values shown in the text, each at the end of its
// line: each let's and param's value, each expect's ✓ or ✗ with the value
// got, each job's mpg and cost per useful hour on its header's line.
func (a *analysis) inlayHints(rg Range) []InlayHint {
	out := []InlayHint{}
	if a.scn == nil || a.file == nil {
		return out
	}
	from, to := a.lines.offset(rg.Start), a.lines.offset(rg.End)
	if rg == (Range{}) {
		to = len(a.text)
	}
	// Each hint goes at the end of the line its statement ends on, past
	// any comment there.
	add := func(off int, label string) {
		if off < from || off > to {
			return
		}
		end := a.lines.lineEnd(a.lines.position(off).Line)
		out = append(out, InlayHint{Position: a.lines.position(end), Label: label, PaddingLeft: true})
	}
	lets := map[string]eval.Value{}
	for _, l := range a.scn.Lets() {
		lets[l.Name] = l.Value
	}
	for _, st := range a.file.Stmts {
		switch st := st.(type) {
		case *lang.Let:
			if v, ok := lets[st.Name.Name]; ok {
				add(st.End().Offset, "= "+v.String())
			}
		case *lang.Job:
			j, ok := a.scn.Job(st.Name.Name)
			if !ok {
				continue
			}
			mpg, err := j.Get("mpg")
			if err != nil {
				continue
			}
			label := "mpg " + mpg.String()
			if c, err := j.Get("cost_per_useful_hour"); err == nil {
				label += " · cost_per_useful_hour " + c.String()
			}
			end := st.Name.End().Offset
			for _, id := range []*lang.Ident{st.On, st.Extends, st.ExtendsOn} {
				if id != nil {
					end = max(end, id.End().Offset)
				}
			}
			add(end, label)
		}
	}
	for _, o := range a.tests {
		x := o.Expectation.Syntax
		if x == nil || x.Start().Filename != a.name {
			continue
		}
		label := "✓ " + o.Got.String()
		switch {
		case o.Err:
			label = "✗ not evaluated"
		case !o.Pass:
			label = "✗ got " + o.Got.String()
		}
		add(x.End().Offset, label)
	}
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := out[i].Position, out[j].Position
		return pi.Line < pj.Line || pi.Line == pj.Line && pi.Character < pj.Character
	})
	return out
}

func (s *Server) definition(params json.RawMessage) (any, error) {
	a, off, err := s.at(params)
	if err != nil {
		return nil, err
	}
	w, ok := wordAt(a.tokens(), off)
	if !ok {
		return nil, nil
	}
	// An import's path: the file it reads.
	ds := declarations(a)
	d, ok := ds[w.parts[0]]
	if !ok {
		return nil, nil
	}
	target := d.ident
	if len(w.parts) > 1 {
		for _, f := range fieldsOf(d.stmt) {
			if f.Name.Name == w.parts[len(w.parts)-1] {
				target = &f.Name
			}
		}
	}
	loc, ok := s.locate(a, d.file, target.Start().Offset, target.End().Offset)
	if !ok {
		return nil, nil
	}
	return []Location{loc}, nil
}

// locate is the location of the byte offsets [from, to) in file name; a
// bundled library file is written out so that an editor can open it.
func (s *Server) locate(a *analysis, name string, from, to int) (Location, bool) {
	text, ok := s.source(a, name)
	if !ok {
		return Location{}, false
	}
	uri := pathURI(name)
	if name == a.name {
		uri = s.uriOf(a)
	} else if strings.HasPrefix(name, "std/") || strings.HasPrefix(name, "scenarios/") {
		path, err := s.writeBundled(name, text)
		if err != nil {
			return Location{}, false
		}
		uri = pathURI(path)
	}
	return Location{URI: uri, Range: newLines(text).rangeOf(from, to)}, true
}

// uriOf is the URI of the document a check is of.
func (s *Server) uriOf(a *analysis) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for uri, d := range s.docs {
		if d.name == a.name {
			return uri
		}
	}
	return pathURI(a.name)
}

func (s *Server) documentSymbols(params json.RawMessage) (any, error) {
	var p DocumentParams
	a, err := s.request(params, &p)
	if err != nil {
		return nil, err
	}
	out := []DocumentSymbol{}
	f := a.file
	if f == nil {
		f, _ = lang.Parse(a.name, []byte(a.text))
	}
	for _, st := range f.Stmts {
		from, to := st.Span()
		sym := DocumentSymbol{Kind: symbolKind(st), Detail: st.Keyword(), Range: a.lines.rangeOf(from.Offset, to.Offset)}
		if id := declName(st); id != nil {
			sym.Name = id.Name
			sym.SelectionRange = a.lines.rangeOf(id.Start().Offset, id.End().Offset)
		} else {
			sym.Name = strings.TrimSpace(firstLine(a.text[from.Offset:min(to.Offset, len(a.text))]))
			sym.SelectionRange = sym.Range
		}
		for _, fl := range fieldsOf(st) {
			ff, ft := fl.Span()
			sym.Children = append(sym.Children, DocumentSymbol{Name: fl.Name.Name, Kind: SymbolField,
				Range:          a.lines.rangeOf(ff.Offset, ft.Offset),
				SelectionRange: a.lines.rangeOf(fl.Name.Start().Offset, fl.Name.End().Offset)})
		}
		out = append(out, sym)
	}
	return out, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func symbolKind(st lang.Stmt) int {
	switch st := st.(type) {
	case *lang.Let:
		if st.IsParam() {
			return SymbolConstant
		}
		return SymbolVariable
	case *lang.Pool:
		return SymbolStruct
	case *lang.Job:
		return SymbolClass
	case *lang.Rules:
		return SymbolEnum
	case *lang.Request:
		return SymbolObject
	case *lang.Expect:
		return SymbolEvent
	case *lang.Group, *lang.Compare, *lang.Sweep, *lang.Solve:
		return SymbolFunction
	}
	return SymbolNamespace
}

// errNoName is a rename's or reference's answer when nothing is there.
var errNoName = errors.New("no declared name here")

// planningSummary writes what a declaration without a value of its own
// answers: a group's totals, a sweep's points, a solve's answer, a
// compare's best, a request's fields, a ruleset's rules; it returns the
// answer :explain explains, or name when there is none.
func (a *analysis) planningSummary(b *strings.Builder, kind, name string) string {
	fields := a.scn.FieldNames(name)
	var show []string
	switch kind {
	case "group":
		show = []string{"mpg", "cost", "useful_hours"}
	case "sweep":
		show = []string{"points"}
	case "solve", "request", "pool":
		show = fields
	case "compare":
		show = []string{"best"}
	case "ruleset":
		if rs, ok := report.RulesetOf(a.scn, name); ok {
			fmt.Fprintf(b, "\n\n%d rules, else %s; classes %s", len(rs.Rules), rs.Else, strings.Join(rs.Classes, ", "))
		}
		return name
	}
	var lines []string
	for _, f := range show {
		if v, err := a.scn.Value(name + "." + f); err == nil {
			lines = append(lines, fmt.Sprintf("%s.%s = %s", name, f, v))
		}
		if kind == "solve" && len(lines) > 0 {
			break // the answer, its first field
		}
	}
	if len(lines) > 0 && kind != "solve" && kind != "compare" { // :explain says those
		fmt.Fprintf(b, "\n\n```text\n%s\n```", strings.Join(lines, "\n"))
	}
	var asked []string
	for _, f := range fields {
		asked = append(asked, name+"."+f)
	}
	if len(asked) > 0 && kind != "request" && kind != "pool" {
		if len(asked) > 12 {
			asked = append(asked[:12], "…")
		}
		fmt.Fprintf(b, "\n\nasks: %s", strings.Join(asked, ", "))
	}
	if kind == "solve" || kind == "compare" {
		if len(show) > 0 {
			return name + "." + show[0]
		}
	}
	return name
}
