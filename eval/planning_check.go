package eval

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
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
	solve   *lang.Solve

	members []*decl // a group's or compare's jobs, in the order listed
	job     *decl   // a sweep's or solve's job
	by      *resultDef
	max     bool        // a compare ranks by the largest value of by
	axes    []*axisPlan // a sweep's vary lines
	find    *findPlan   // a solve's question
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

func (bestRef) isPlanRef()        {}
func (ratioRef) isPlanRef()       {}
func (groupRef) isPlanRef()       {}
func (ownerRef) isPlanRef()       {}
func (sweepPointsRef) isPlanRef() {}
func (*sweepQuery) isPlanRef()    {}
func (solveRef) isPlanRef()       {}
func (pointScopeRef) isPlanRef()  {}

// declarePlan records a planning statement on its declaration.
func declarePlan(_ *program, d *decl, st lang.Stmt) {
	d.plan = &planDecl{}
	switch st := st.(type) {
	case *lang.Group:
		d.plan.group = st
	case *lang.Compare:
		d.plan.compare = st
	case *lang.Sweep:
		d.plan.sweep = st
	case *lang.Solve:
		d.plan.solve = st
	}
}

// memberJobs resolves the jobs a group or compare lists; a name that is
// not a job, or a job listed twice, is an error.
func (p *program) memberJobs(d *decl, ids []*lang.Ident) bool {
	ok := true
	seen := map[string]*lang.Ident{}
	for _, id := range ids {
		if prev := seen[id.Name]; prev != nil {
			p.diags = append(p.diags, &lang.Diagnostic{
				Severity: lang.Error, Summary: fmt.Sprintf("job %s is listed twice in %s %s", id.Name, declKinds[d.kind].noun, d.name.Name),
				Pos: id.Start(), End: id.End(), Label: "listed again here",
				Related: []lang.Related{{Pos: prev.Start(), End: prev.End(), Label: "first listed here"}},
				Notes:   []string{"each job counts once; drop the second " + id.Name},
			})
			ok = false
			continue
		}
		seen[id.Name] = id
		m, found := p.decls[id.Name]
		if !found || m.kind != declJob {
			p.badTarget(id, "job", declJob)
			ok = false
			continue
		}
		if m.checked == visiting {
			p.errorAt(id.Start(), id.End(), "cycle: "+d.name.Name+" reads "+id.Name+", which reads it")
			ok = false
			continue
		}
		p.checkDecl(m, nil, &p.diags)
		d.plan.members = append(d.plan.members, m)
	}
	if len(ids) == 0 {
		if !d.partial {
			p.errorAt(d.name.Start(), d.name.End(), fmt.Sprintf("%s %s lists no jobs", declKinds[d.kind].noun, d.name.Name))
		}
		ok = false
	}
	return ok
}

// overJob resolves the job a sweep or solve is over.
func (p *program) overJob(d *decl, id *lang.Ident) bool {
	j, found := p.decls[id.Name]
	if !found || j.kind != declJob {
		p.badTarget(id, "job", declJob)
		return false
	}
	if j.checked == visiting {
		p.errorAt(id.Start(), id.End(), "cycle: "+d.name.Name+" is over "+id.Name+", which reads it")
		return false
	}
	d.plan.job = j
	return p.checkDecl(j, nil, &p.diags)
}

// extendsOn moves a job that extends another onto its own pool: the
// inputs its parent took from the parent's pool now come from this one
// (poolSites fills them in); those the job chain sets stay.
func (p *program) extendsOn(d *decl, jp, pj *jobPlan) bool {
	id := d.jobStmt().ExtendsOn
	pool, found := p.decls[id.Name]
	if !found || pool.kind != declPool {
		p.badTarget(id, "pool", declPool)
		return false
	}
	if !p.checkDecl(pool, nil, &p.diags) {
		return false
	}
	if pj.pool != nil && pj.pool.pl != nil {
		for _, f := range pj.pool.pl.fields {
			name := f.Name.Name
			if jp.sites.get(name) == f {
				jp.sites.set(name, nil)
			}
		}
	}
	jp.pool = pool
	return true
}

// inputKind is what a vary or find changes.
type inputKind uint8

const (
	inFactor inputKind = iota
	inCeiling
	inDevices
	inHours
	inRate
	inParam
)

// input is a job input a sweep varies or a solve searches.
type input struct {
	kind   inputKind
	factor goodput.Factor
	param  *decl
	name   string // canonical: runtime, ceiling.runtime, devices, a param's name
	typ    Type
}

// inputNames are the inputs besides params, for messages and suggestions.
var inputNames = []string{"scheduling", "runtime", "program", "S", "R", "P",
	"ceiling.scheduling", "ceiling.runtime", "ceiling.program", "devices", "hours", "rate"}

// resolveInput reads the input a vary or find names; false, with the
// error reported, when it names none.
func (p *program) resolveInput(ids []*lang.Ident, verb string) (input, bool) {
	name := strings.Join(partNames(ids), ".")
	pos, end := ids[0].Start(), ids[len(ids)-1].End()
	if f, ok := goodput.ParseFactor(name); ok {
		return input{kind: inFactor, factor: f, name: factorNames[f], typ: CountType}, true
	}
	if rest, ok := strings.CutPrefix(name, "ceiling."); ok {
		if f, ok := goodput.ParseFactor(rest); ok {
			return input{kind: inCeiling, factor: f, name: "ceiling." + factorNames[f], typ: CountType}, true
		}
	}
	switch name {
	case "devices":
		return input{kind: inDevices, name: name, typ: CountType}, true
	case "hours":
		return input{kind: inHours, name: name, typ: value.NumType(lang.Duration)}, true
	case "rate":
		return input{kind: inRate, name: name, typ: value.NumType(lang.Price)}, true
	}
	if d, ok := p.decls[name]; ok && len(ids) == 1 {
		switch {
		case d.kind == declParam:
			if !p.checkDecl(d, nil, &p.diags) {
				return input{}, false
			}
			if d.typ.Kind != Number {
				p.errorAt(pos, end, fmt.Sprintf("param %s is %s; %s needs a number", name, d.typ.Phrase(), verb))
				return input{}, false
			}
			return input{kind: inParam, param: d, name: name, typ: d.typ}, true
		case d.kind == declLet:
			p.errorAt(pos, end, fmt.Sprintf("%s is a let, not a param; declare it with param to %s it", name, verb))
			return input{}, false
		}
	}
	cands := append([]string(nil), inputNames...)
	for _, d := range p.params {
		cands = append(cands, d.name.Name)
	}
	msg := fmt.Sprintf("cannot %s %s: it is not an input of a job or a param", verb, name)
	if sug := suggest.Closest(name, cands); sug != "" {
		msg += "; did you mean " + sug + "?"
	}
	d := p.errorAt(pos, end, msg)
	d.Notes = append(d.Notes, "the inputs are a factor (scheduling, runtime, program or S, R, P), ceiling.F, devices, hours, rate, or a param")
	return input{}, false
}

// engineValue converts a value of the input's type from base units to the
// engine's (hours, USD per device-hour).
func (in input) engineValue(v float64) float64 {
	switch in.kind {
	case inHours:
		return lang.ToUnit(v, lang.Units["h"])
	case inRate:
		return lang.ToUnit(v, lang.Units["USD/h"])
	}
	return v
}

// apply sets the input to v (base units) in the engine's inputs; params
// are set by re-evaluating, not here.
func (in input) apply(x *goodput.Inputs, v float64) {
	switch in.kind {
	case inFactor:
		x.Factors[in.factor] = goodput.Some(v)
	case inCeiling:
		x.Ceilings[in.factor] = goodput.Some(v)
	case inDevices:
		x.Devices = v
	case inHours, inRate:
		if in.kind == inHours {
			x.Hours = in.engineValue(v)
		} else {
			x.Rate = goodput.Some(in.engineValue(v))
		}
	}
}

// outOfRange says why v (base units) cannot be a value of the input, ""
// when it can.
func (in input) outOfRange(v float64) string {
	switch in.kind {
	case inFactor, inCeiling:
		if v < 0 || v > 1 {
			what := "factor"
			if in.kind == inCeiling {
				what = "ceiling"
			}
			return fmt.Sprintf("%s %s is outside [0, 1]: a %s is a fraction", in.name, lang.FormatNumber(v), what)
		}
	case inDevices:
		if v < 1 {
			return fmt.Sprintf("devices %s is below 1", lang.FormatNumber(v))
		}
	case inHours, inRate:
		if v < 0 {
			return fmt.Sprintf("%s %s is negative", in.name, lang.Format(v, in.typ.Dim))
		}
	}
	return ""
}

// pointField is a field of a point: a job result, or a varied param.
type pointField struct {
	def   *resultDef
	param *decl
}

// resolvePointField reads the field after a point (a solve's answer, the
// point of argmax, at or first): a job result or one of the point's
// params.
func (cp *exprChecker) resolvePointField(at lang.Expr, ids []*lang.Ident, params []*decl, what string) (pointField, Type, bool) {
	name := strings.Join(partNames(ids), ".")
	if def, ok := resultDefs[name]; ok {
		return pointField{def: def}, def.typ, true
	}
	for _, d := range params {
		if d.name.Name == name {
			return pointField{param: d}, d.typ, true
		}
	}
	msg := fmt.Sprintf("%s has no field %s", what, name)
	if sug := suggest.Closest(name, ResultNames()); sug != "" {
		msg += "; did you mean " + sug + "?"
	}
	cp.errorAt(ids[0].Start(), ids[len(ids)-1].End(), msg)
	return pointField{}, Type{}, false
}
