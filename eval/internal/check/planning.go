package check

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file holds what the planning declarations (language.md §13–16)
// share: their declaration, the check and evaluate passes' entry points,
// the inputs a sweep varies and a solve searches, and the refs that read
// their figures. groups.go, compare.go, sweep.go, solve.go and query.go
// hold each kind's own part.

// planDecl is the syntax and checked plan of a group, compare, sweep or
// solve. Nothing here changes after the program is built.
type planDecl struct {
	group   *lang.Group
	compare *lang.Compare
	sweep   *lang.Sweep
	Solve   *lang.Solve

	Members []*Decl // a group's or compare's jobs, in the order listed
	// Currency is the currency of a group's or compare's money, its
	// jobs' ("USD" when they have no rate).
	Currency string
	Job      *Decl // a sweep's or solve's job; nil for one over the whole file
	By       *results.Def
	Max      bool          // a compare ranks by the largest value of by
	Axes     []*AxisPlan   // a sweep's vary lines
	Shows    []*ShowColumn // a sweep's show columns, in the order written
	Find     *FindPlan     // a solve's question
}

// OverFile reports whether d is a sweep or solve over the whole file
// (language.md §21): each point is one evaluation of the file with the
// varied params replaced, and what it reads may be any result.
func (d *Decl) OverFile() bool {
	switch {
	case d.Plan == nil:
		return false
	case d.Plan.sweep != nil:
		return d.Plan.sweep.OverFile()
	case d.Plan.Solve != nil:
		return d.Plan.Solve.OverFile()
	}
	return false
}

// ShowColumn is one column of a sweep's show line, read at every point.
type ShowColumn struct {
	// Name is the column's expression as written: pretrain.runtime.
	Name string
	// Expr is the expression: over a job, with its bare result names
	// the point's (as in first(…)); over the file, read in the file at
	// the point.
	Expr *Compiled
}

// planRef is what a refPlan reads, as data the check pass leaves: a
// group's figure (groupRef), an owner's money (ownerRef), a compare's
// best or ratio (bestRef, ratioRef), a sweep's points or query
// (sweepPointsRef, *sweepQuery), a solve's answer (solveRef), a result at
// a point being tried (pointScopeRef). The evaluator computes it by its
// type (Scenario.planValue), as a machine runs an instruction by its
// opcode.
type planRef interface {
	isPlanRef()
}

func (BestRef) isPlanRef()        {}
func (RatioRef) isPlanRef()       {}
func (GroupRef) isPlanRef()       {}
func (OwnerRef) isPlanRef()       {}
func (SweepPointsRef) isPlanRef() {}
func (*SweepQuery) isPlanRef()    {}
func (SolveRef) isPlanRef()       {}
func (PointScopeRef) isPlanRef()  {}

// declarePlan records a planning statement on its declaration.
func declarePlan(_ *Program, d *Decl, st lang.Stmt) {
	d.Plan = &planDecl{}
	switch st := st.(type) {
	case *lang.Group:
		d.Plan.group = st
	case *lang.Compare:
		d.Plan.compare = st
	case *lang.Sweep:
		d.Plan.sweep = st
	case *lang.Solve:
		d.Plan.Solve = st
	}
}

// memberJobs resolves the jobs a group or compare lists; a name that is
// not a job, or a job listed twice, is an error.
func (p *Program) memberJobs(d *Decl, ids []*lang.Ident) bool {
	ok := true
	seen := map[string]*lang.Ident{}
	for _, id := range ids {
		if prev := seen[id.Name]; prev != nil {
			p.Diags = append(p.Diags, &lang.Diagnostic{
				Severity: lang.Error, Summary: fmt.Sprintf("job %s is listed twice in %s %s", id.Name, DeclKinds[d.Kind].Noun, d.Name.Name),
				Pos: id.Start(), End: id.End(), Label: "listed again here",
				Related: []lang.Related{{Pos: prev.Start(), End: prev.End(), Label: "first listed here"}},
				Notes:   []string{"each job counts once; drop the second " + id.Name},
			})
			ok = false
			continue
		}
		seen[id.Name] = id
		m, found := p.Decls[id.Name]
		if !found || m.Kind != DeclJob {
			p.badTarget(id, "job", DeclJob)
			ok = false
			continue
		}
		if m.checked == Visiting {
			p.errorAt(id.Start(), id.End(), "cycle: "+d.Name.Name+" reads "+id.Name+", which reads it")
			ok = false
			continue
		}
		p.CheckDecl(m, &lang.Name{Parts: []*lang.Ident{id}}, &p.Diags)
		d.Plan.Members = append(d.Plan.Members, m)
	}
	if len(ids) == 0 {
		if !d.Partial {
			p.errorAt(d.Name.Start(), d.Name.End(), fmt.Sprintf("%s %s lists no jobs", DeclKinds[d.Kind].Noun, d.Name.Name))
		}
		ok = false
	}
	return p.sameCurrency(d, ids) && ok
}

// overJob resolves the job a sweep or solve is over.
func (p *Program) overJob(d *Decl, id *lang.Ident) bool {
	j, found := p.Decls[id.Name]
	if !found || j.Kind != DeclJob {
		n := len(p.Diags)
		p.badTarget(id, "job", DeclJob)
		if len(p.Diags) > n {
			last := p.Diags[len(p.Diags)-1]
			last.Notes = append(last.Notes, fmt.Sprintf("a %s is over a job, or over file: the whole file, its params varied", DeclKinds[d.Kind].Noun))
		}
		return false
	}
	if j.checked == Visiting {
		p.errorAt(id.Start(), id.End(), "cycle: "+d.Name.Name+" is over "+id.Name+", which reads it")
		return false
	}
	d.Plan.Job = j
	return p.CheckDecl(j, &lang.Name{Parts: []*lang.Ident{id}}, &p.Diags)
}

// modelFree reports whether nothing of the file's model is being checked
// on the way to d, a what-if over the whole file: every point of d
// evaluates the model again, so a let, a job or any declaration but
// another what-if that reads d, however indirectly, is a cycle, reported
// at the reference at.
func (p *Program) modelFree(d *Decl, at lang.Expr, diags *lang.Diagnostics) bool {
	for i := len(p.stack) - 1; i >= 0; i-- {
		x := p.stack[i]
		if DeclKinds[x.Kind].WhatIf {
			continue
		}
		path := ""
		for _, y := range p.stack[i:] {
			path += y.Name.Name + " → "
		}
		pos, end := at.Span()
		*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end,
			Summary: fmt.Sprintf("cycle: %s%s, which is over the whole file and evaluates %s again at each of its points", path, d.Name.Name, x.Name.Name),
			Notes: []string{fmt.Sprintf("a %s over file evaluates every let, param, pool, job, group and compare at each point, so none of them may read it; an expect may",
				DeclKinds[d.Kind].Noun)}})
		return false
	}
	return true
}

// overFile checks what a sweep or solve over the whole file needs
// besides its lines: nothing, as yet, but that the word is not taken
// for a job's name (a job named file is not what over file means).
func (p *Program) overFile(d *Decl, id *lang.Ident) bool {
	if j, found := p.Decls[id.Name]; found && j.Kind == DeclJob {
		pos, end := id.Span()
		p.Diags = append(p.Diags, &lang.Diagnostic{Severity: lang.Warning, Pos: pos, End: end,
			Summary: fmt.Sprintf("%s %s is over the whole file, not over job %s", DeclKinds[d.Kind].Noun, d.Name.Name, id.Name),
			Notes:   []string{"over file always means the whole file; rename the job to sweep or solve over it alone"}})
	}
	return true
}

// extendsOn moves a job that extends another onto its own pool: the
// inputs its parent took from the parent's pool now come from this one
// (poolSites fills them in); those the job chain sets stay.
func (p *Program) extendsOn(d *Decl, jp, pj *jobPlan) bool {
	id := d.JobStmt().ExtendsOn
	pool, found := p.Decls[id.Name]
	if !found || pool.Kind != DeclPool {
		p.badTarget(id, "pool", DeclPool)
		return false
	}
	if !p.CheckDecl(pool, &lang.Name{Parts: []*lang.Ident{id}}, &p.Diags) {
		return false
	}
	if pj.Pool != nil && pj.Pool.Pool != nil {
		for _, f := range pj.Pool.Pool.Fields {
			name := f.Name.Name
			if jp.Sites.Get(name) == f {
				jp.Sites.set(name, nil)
			}
		}
	}
	jp.Pool = pool
	return true
}

// inputKind is what a vary or find changes.
type inputKind uint8

// The kinds of Input.
const (
	InFactor inputKind = iota
	InCeiling
	InDevices
	InHours
	InRate
	InParam
)

// Input is a job input a sweep varies or a solve searches.
type Input struct {
	// Kind is which input: a factor, a ceiling, devices, hours,
	// rate or a param.
	Kind inputKind
	// Factor is the factor of a factor or ceiling input.
	Factor goodput.Factor
	// Param is the param of a param input; nil otherwise.
	Param *Decl
	Name  string // canonical: runtime, ceiling.runtime, devices, a param's name
	// Type is the input's type: a count for a factor or ceiling, the
	// dimension of devices, hours or rate, a param's own type.
	Type value.Type
}

// inputNames are the inputs besides params, for messages and suggestions.
var inputNames = []string{"scheduling", "runtime", "program", "S", "R", "P",
	"ceiling.scheduling", "ceiling.runtime", "ceiling.program", "devices", "hours", "rate"}

// resolveInput reads the input a vary or find names; false, with the
// error reported, when it names none.
func (p *Program) resolveInput(ids []*lang.Ident, verb string) (Input, bool) {
	name := strings.Join(partNames(ids), ".")
	pos, end := ids[0].Start(), ids[len(ids)-1].End()
	if f, ok := goodput.ParseFactor(name); ok {
		return Input{Kind: InFactor, Factor: f, Name: results.FactorNames[f], Type: value.CountType}, true
	}
	if rest, ok := strings.CutPrefix(name, "ceiling."); ok {
		if f, ok := goodput.ParseFactor(rest); ok {
			return Input{Kind: InCeiling, Factor: f, Name: "ceiling." + results.FactorNames[f], Type: value.CountType}, true
		}
	}
	switch name {
	case "devices":
		return Input{Kind: InDevices, Name: name, Type: value.CountType}, true
	case "hours":
		return Input{Kind: InHours, Name: name, Type: value.NumType(units.Duration)}, true
	case "rate":
		return Input{Kind: InRate, Name: name, Type: value.NumType(units.Price)}, true
	}
	if d, ok := p.Decls[name]; ok && len(ids) == 1 {
		switch {
		case d.Kind == DeclParam:
			if !p.CheckDecl(d, &lang.Name{Parts: ids}, &p.Diags) {
				return Input{}, false
			}
			if d.Type.Kind != value.Number {
				p.errorAt(pos, end, fmt.Sprintf("param %s is %s; %s needs a number", name, d.Type.Phrase(), verb))
				return Input{}, false
			}
			return Input{Kind: InParam, Param: d, Name: name, Type: d.Type}, true
		case d.Kind == DeclLet:
			p.errorAt(pos, end, fmt.Sprintf("%s is a let, not a param; declare it with param to %s it", name, verb))
			return Input{}, false
		}
	}
	cands := append([]string(nil), inputNames...)
	for _, d := range p.Params {
		cands = append(cands, d.Name.Name)
	}
	msg := fmt.Sprintf("cannot %s %s: it is not an input of a job or a param", verb, name)
	if sug := suggest.Closest(name, cands); sug != "" {
		msg += "; did you mean " + sug + "?"
	}
	d := p.errorAt(pos, end, msg)
	d.Notes = append(d.Notes, "the inputs are a factor (scheduling, runtime, program or S, R, P), ceiling.F, devices, hours, rate, or a param")
	return Input{}, false
}

// Apply sets the input to v (base units) in the engine's inputs; params
// are set by re-evaluating, not here.
func (in Input) Apply(x *goodput.Inputs, v float64) { in.Setter().Set(x, v) }

// OutOfRange says why v (base units) cannot be a value of the input, ""
// when it can.
func (in Input) OutOfRange(v float64) string {
	switch in.Kind {
	case InFactor, InCeiling:
		if v < 0 || v > 1 {
			what := "factor"
			if in.Kind == InCeiling {
				what = "ceiling"
			}
			return fmt.Sprintf("%s %s is outside [0, 1]: a %s is a fraction", in.Name, units.FormatNumber(v), what)
		}
	case InDevices:
		if v < 1 {
			return fmt.Sprintf("devices %s is below 1", units.FormatNumber(v))
		}
	case InHours, InRate:
		if v < 0 {
			return fmt.Sprintf("%s %s is negative", in.Name, units.Format(v, in.Type.Dim))
		}
	}
	return ""
}

// PointField is a field of a point: a job result, or a varied param; at
// a point of a what-if over the whole file, a varied param or any name
// read in the file there (fleet.mpg).
type PointField struct {
	// Def is the job result; nil for a varied param.
	Def *results.Def
	// Param is the varied param; nil for a job result.
	Param *Decl
	// Expr, over the whole file, is the name read at the point; nil
	// otherwise.
	Expr *Compiled
}

// resolvePointField reads the field after a point (a solve's answer, the
// point of argmax, at or first): a job result or one of the point's
// params.
func (cp *exprChecker) resolvePointField(at lang.Expr, ids []*lang.Ident, params []*Decl, what string, overFile bool) (PointField, value.Type, bool) {
	name := strings.Join(partNames(ids), ".")
	if overFile {
		for _, d := range params {
			if d.Name.Name == name {
				return PointField{Param: d}, d.Type, true
			}
		}
		c := cp.p.compile(&lang.Name{Parts: ids}, scope{}, cp.diags)
		if c == nil {
			cp.ok = false
			return PointField{}, value.Type{}, false
		}
		return PointField{Expr: c}, c.Type, true
	}
	if def, ok := results.ByName()[name]; ok {
		return PointField{Def: def}, def.Type, true
	}
	for _, d := range params {
		if d.Name.Name == name {
			return PointField{Param: d}, d.Type, true
		}
	}
	msg := fmt.Sprintf("%s has no field %s", what, name)
	if sug := suggest.Closest(name, results.Names()); sug != "" {
		msg += "; did you mean " + sug + "?"
	}
	cp.errorAt(ids[0].Start(), ids[len(ids)-1].End(), msg)
	return PointField{}, value.Type{}, false
}
