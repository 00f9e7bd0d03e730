// Package eval evaluates gpl scenarios: it resolves names, checks
// dimensions, compiles expressions once with expr, runs the goodput and
// classification engines, and judges expectations. It is also the embedding
// API: a Go program loads a file with LoadFile (or Load from an fs.FS) and
// reads any job's results, or classifies requests, by name.
package eval

import (
	"sort"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib"
)

type declKind uint8

const (
	declLet declKind = iota
	declPool
	declJob
	declRules
	declRequest
)

var declKindNames = [...]string{"value", "pool", "job", "ruleset", "request"}

// state of a declaration's evaluation.
type evalState uint8

const (
	unvisited evalState = iota
	visiting
	done
	failed
)

type decl struct {
	kind    declKind
	name    *lang.Ident
	let     *lang.Let
	pool    *lang.Pool
	job     *lang.Job
	rules   *lang.Rules
	request *lang.Request

	state evalState
	value Value // a let's value
	typ   Type  // a let's type
	pl    *poolState
	jb    *jobState
	rs    *rulesState
	rq    *requestState
}

// Scenario is a loaded, evaluated .gpl file with its imports. It is safe for
// concurrent reads once loaded; the Classify paths never write to it.
type Scenario struct {
	// Sources holds the text of every file read, for rendering diagnostics.
	Sources lang.Sources

	opts        Options
	files       []*lang.File
	loaded      map[string]bool
	decls       map[string]*decl
	order       []*decl
	classes     map[string]bool
	expectNodes []expectSite
	expects     []*Expectation
	diags       lang.Diagnostics
	runtime     map[*lang.Diagnostic]bool
	stack       []*decl
	fieldVals   map[*lang.Field]fieldValue
}

type fieldValue struct {
	v  Value
	ok bool
}

func newScenario(opts Options) *Scenario {
	if opts.Std == nil {
		opts.Std = stdlib.Files
	}
	return &Scenario{
		Sources:   lang.Sources{},
		opts:      opts,
		loaded:    map[string]bool{},
		decls:     map[string]*decl{},
		classes:   map[string]bool{},
		runtime:   map[*lang.Diagnostic]bool{},
		fieldVals: map[*lang.Field]fieldValue{},
	}
}

// Files returns the parsed files, the loaded one first, then its imports.
func (s *Scenario) Files() []*lang.File { return s.files }

// Diagnostics returns every diagnostic found while loading, warnings
// included, in source order.
func (s *Scenario) Diagnostics() lang.Diagnostics { return s.diags }

// evaluateAll forces every declaration in source order, then compiles the
// expectations.
func (s *Scenario) evaluateAll() {
	for _, d := range s.order {
		s.force(d)
	}
	for _, site := range s.expectNodes {
		if e := s.compileExpect(site); e != nil {
			s.expects = append(s.expects, e)
		}
	}
	fileIndex := map[string]int{}
	for i, f := range s.files {
		fileIndex[f.Name] = i
	}
	sort.SliceStable(s.expects, func(i, j int) bool {
		a, b := s.expects[i].node.Pos, s.expects[j].node.Pos
		if a.Filename != b.Filename {
			return fileIndex[a.Filename] < fileIndex[b.Filename]
		}
		return a.Offset < b.Offset
	})
}

// force evaluates a declaration once; a declaration met again while it is
// being evaluated is a cycle.
func (s *Scenario) force(d *decl) bool {
	switch d.state {
	case done:
		return true
	case failed:
		return false
	}
	d.state = visiting
	s.stack = append(s.stack, d)
	ok := false
	switch d.kind {
	case declLet:
		ok = s.evalLet(d)
	case declPool:
		ok = s.evalPool(d)
	case declJob:
		ok = s.evalJob(d)
	case declRules:
		ok = s.evalRules(d)
	case declRequest:
		ok = s.evalRequest(d)
	}
	s.stack = s.stack[:len(s.stack)-1]
	if ok {
		d.state = done
	} else {
		d.state = failed
	}
	return ok
}

// use forces d on behalf of a reference at node, reporting a cycle there.
func (s *Scenario) use(d *decl, node lang.Expr) bool {
	if d.state == visiting {
		path := ""
		start := 0
		for i, x := range s.stack {
			if x == d {
				start = i
			}
		}
		for _, x := range s.stack[start:] {
			path += x.name.Name + " → "
		}
		pos, end := node.Span()
		s.errorAt(pos, end, "cycle: "+path+d.name.Name)
		return false
	}
	return s.force(d)
}

func (s *Scenario) evalLet(d *decl) bool {
	c := s.compile(d.let.Value, scope{})
	if c == nil {
		return false
	}
	v, ok := s.run(c)
	if !ok {
		return false
	}
	d.value, d.typ = v, c.typ
	return true
}
