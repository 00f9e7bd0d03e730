package eval

import (
	"bytes"
	"maps"
	"slices"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
)

// Session is a program built a piece at a time, as the REPL does: each
// piece is a source of its own (one typed statement, one loaded file),
// and the session is evaluated after every change. Adding pieces is
// incremental: only what they declare is checked and evaluated, so a
// declaration typed after a thousand others costs what the first did.
// Dropping or replacing a piece re-checks and re-evaluates the session,
// from the trees already parsed, and so does adding a top-level owners
// block to a session with jobs, since it names their owners too. The
// pieces' top-level owners blocks are one level, as a file's are, and win
// over those of the files they import.
//
// A Session is for one goroutine, and a change is committed or discarded
// before the next is tried. The scenarios it hands out share its program:
// read them from that goroutine, or evaluate one with With for a copy of
// its own.
type Session struct {
	opts    Options
	params  map[string]Value
	sources []Source
	p       *check.Program
	cur     *Scenario
}

// Source is one piece of a session: its name, which diagnostics quote,
// and its text.
type Source struct {
	Name  string
	Text  []byte
	file  *lang.File
	diags lang.Diagnostics // the parser's
}

// NewSession starts an empty session; relative imports resolve against
// the directory of each source's name.
func NewSession(opts Options) *Session {
	se := &Session{opts: opts}
	se.p, se.cur = se.rebuild(nil)
	return se
}

// Scenario returns the session's current evaluation.
func (se *Session) Scenario() *Scenario { return se.cur }

// Sources returns the session's pieces in order, their texts copied: the
// caller owns what it gets.
func (se *Session) Sources() []Source {
	out := make([]Source, len(se.sources))
	for i, src := range se.sources {
		out[i] = Source{Name: src.Name, Text: bytes.Clone(src.Text)}
	}
	return out
}

// Change is a proposed change to a session: the scenario it gives, which
// the session takes only on Commit.
type Change struct {
	se      *Session
	s       *Scenario
	err     error
	sources []Source
	p       *check.Program
	undo    func()
}

// Scenario is the evaluation the change gives; Err its load error, as
// Load would return it.
func (c *Change) Scenario() *Scenario { return c.s }

// Err is the change's load error, as Load returns one: every diagnostic of
// the session with the change, when any is an error.
func (c *Change) Err() error { return c.err }

// Commit makes the change the session's state.
func (c *Change) Commit() {
	c.se.sources, c.se.p, c.se.cur = c.sources, c.p, c.s
	c.undo = nil
}

// Discard leaves the session as it was before the change.
func (c *Change) Discard() {
	if c.undo != nil {
		c.undo()
		c.undo = nil
	}
}

// Try evaluates the session with the sources named in drop removed and
// add appended; the session itself changes only when the change is
// committed. Nothing dropped makes it incremental. The session keeps
// copies of the texts added: the caller may reuse its buffers, and add
// itself is not changed. A panic, a bug in gpl, leaves the session as it
// was and is the change's error (an *Error whose Internal is set).
func (se *Session) Try(add []Source, drop []string) (c *Change) {
	defer func() {
		if p := recover(); p != nil {
			e := internalError(p)
			// An incremental change may have been half made in place: the
			// session is built again from the pieces it had.
			se.p, se.cur = se.rebuild(se.sources)
			c = &Change{se: se, s: se.cur, err: e, sources: se.sources, p: se.p}
		}
	}()
	add = slices.Clone(add)
	for i := range add {
		add[i].Text = bytes.Clone(add[i].Text)
		add[i].file, add[i].diags = lang.ParseOwned(lang.DefaultLimits, add[i].Name, add[i].Text)
	}
	if len(drop) == 0 {
		return se.extend(add)
	}
	gone := map[string]bool{}
	for _, n := range drop {
		gone[n] = true
	}
	var keep []Source
	for _, src := range se.sources {
		if !gone[src.Name] {
			keep = append(keep, src)
		}
	}
	keep = append(keep, add...)
	p, s := se.rebuild(keep)
	return &Change{se: se, s: s, err: s.err(), sources: keep, p: p}
}

// SetParams evaluates the session again with params replacing their
// defaults (see Scenario.With); they stay set for every later change.
func (se *Session) SetParams(params map[string]Value) (err error) {
	defer recoverInto(&err)
	all := maps.Clone(se.params)
	if all == nil {
		all = map[string]Value{}
	}
	maps.Copy(all, params)
	n, err := se.cur.With(all)
	if n == nil {
		return err
	}
	se.params, se.cur = all, n
	return nil
}

// rebuild checks and evaluates sources from scratch.
func (se *Session) rebuild(sources []Source) (*check.Program, *Scenario) {
	p := check.NewProgram(se.opts)
	for _, src := range sources {
		p.AddSyntax(src.diags)
		p.AddParsed(src.file, src.Text)
	}
	p.Check()
	return p, evaluate(p, se.paramDecls(p))
}

// paramDecls maps the session's params to p's declarations, leaving out
// names p does not declare as params.
func (se *Session) paramDecls(p *check.Program) map[*check.Decl]Value {
	out := map[*check.Decl]Value{}
	for name, v := range se.params {
		if d, ok := p.Decls[name]; ok && d.Kind == check.DeclParam && d.Type == v.Type {
			out[d] = v
		}
	}
	return out
}

// extend adds sources to the session's program in place, checking and
// evaluating only what they declare; the undo takes them out again.
func (se *Session) extend(add []Source) *Change {
	p, prev := se.p, se.cur
	mark := struct{ files, order, params, nodes, expects, diags, fields int }{
		len(p.Files), len(p.Order), len(p.Params), len(p.ExpectNodes), len(p.Expects), len(p.Diags), p.NumFields}
	marked := p.NumValues
	for _, src := range add {
		p.AddSyntax(src.diags)
		p.AddParsed(src.file, src.Text)
	}
	owners, top := p.AddOwners(mark.files, mark.order)
	undo := func() {
		p.DropOwners(owners, mark.files, mark.order)
		for _, d := range p.Order[mark.order:] {
			delete(p.Decls, d.Name.Name)
		}
		for _, f := range p.Files[mark.files:] {
			delete(p.Loaded, f.Name)
			delete(p.Sources, f.Name)
			delete(p.FileNamed, f.Name)
		}
		p.Files, p.Order, p.Params, p.NumFields = p.Files[:mark.files], p.Order[:mark.order], p.Params[:mark.params], mark.fields
		p.NumValues = marked
		p.ExpectNodes, p.Expects, p.Diags = p.ExpectNodes[:mark.nodes], p.Expects[:mark.expects], p.Diags[:mark.diags]
		p.Classes = map[string]bool{}
		for _, d := range p.Order {
			if d.Kind == check.DeclRules {
				for _, r := range d.RulesStmt().Rules {
					p.Classes[r.Class.Name] = true
				}
				p.Classes[d.RulesStmt().Else.Name] = true
			}
		}
	}
	if top && slices.ContainsFunc(p.Order[:mark.order], func(d *check.Decl) bool { return d.Kind == check.DeclJob }) ||
		p.JoinsPool(mark.order) {
		// A top-level owners block names the owners of the jobs declared
		// before too, and a job on a pool declared before changes the
		// pool's figures and what reads them: they are checked again.
		undo()
		all := append(slices.Clone(se.sources), add...)
		p, s := se.rebuild(all)
		return &Change{se: se, s: s, err: s.err(), sources: all, p: p}
	}
	for _, d := range p.Order[mark.order:] {
		p.CheckDecl(d, nil, &p.Diags)
	}
	for _, site := range p.ExpectNodes[mark.nodes:] {
		if e := p.CompileExpect(site, &p.Diags); e != nil {
			p.Expects = append(p.Expects, e)
		}
	}
	s := &Scenario{
		p:      p,
		params: prev.params,
		// The new values go past the end of prev's: prev never reads
		// there, so the backing array is shared, and growing it is
		// amortised over the additions.
		vals:      append(prev.vals, make([]declValues, len(p.Order)-mark.order)...),
		values:    append(prev.values, make([]Value, int(p.NumValues)-len(prev.values))...),
		fieldVals: append(prev.fieldVals, make([]fieldValue, p.NumFields-len(prev.fieldVals))...),
		ev:        sink{diags: append(lang.Diagnostics(nil), prev.ev.diags...)},
	}
	for name, v := range se.params {
		if d, ok := p.Decls[name]; ok && int(d.Slot) >= mark.order && d.Kind == check.DeclParam && d.Type == v.Type {
			if s.params == nil || len(s.params) == len(prev.params) {
				s.params = maps.Clone(prev.params)
				if s.params == nil {
					s.params = map[*check.Decl]Value{}
				}
			}
			s.params[d] = v
		}
	}
	for _, d := range p.Order[mark.order:] {
		s.force(d)
	}
	return &Change{se: se, s: s, err: s.err(), sources: append(se.sources, add...), p: p, undo: undo}
}
