package eval

import (
	"fmt"
	"math"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// poolFields are the fields of a pool; a job may set them too, and the
// job's value wins.
var poolFields = map[string]fieldDef{
	"devices": {lang.Count, "", "devices in the pool"},
	"hours":   {lang.Duration, "h", "wall time the pool is offered to the job"},
	"rate":    {lang.Price, " USD/h", "price of one offered device-hour"},
}

// jobPlan is a checked job: where each of its inputs is set, on its own
// lines, inherited from the job it extends, or from its pool.
type jobPlan struct {
	pool     *decl
	parent   *decl
	based    bool       // its pool or parent is known and checked
	partial  bool       // it, a job it extends or its pool lost a line to a syntax error (decl.partial)
	items    bool       // its own lines checked without errors
	sites    inputSites // devices, hours, rate: where each comes from
	factors  [goodput.NumFactors]*lang.Field
	ceilings [goodput.NumFactors]*lang.Field
	owners   *jobOwners                      // owner of each factor (owners.go); shared when no owners block names one
	chain    *[goodput.NumFactors]chainOwner // the nearest owners line along the extends chain; nil when there is none
}

// inputSites are the fields that set a job's devices, hours and rate.
type inputSites [3]*lang.Field

var siteNames = [3]string{"devices", "hours", "rate"}

func (s *inputSites) get(name string) *lang.Field {
	for i, n := range siteNames {
		if n == name {
			return s[i]
		}
	}
	return nil
}

func (s *inputSites) set(name string, f *lang.Field) {
	for i, n := range siteNames {
		if n == name {
			s[i] = f
		}
	}
}

// checkJob works out where each of a job's inputs comes from and checks
// its own lines. When the pool or parent is missing or has errors, the
// job's own lines are still checked, so that their independent errors are
// reported too.
func (p *program) checkJob(d *decl) bool {
	jp := p.jobSlab.Put(jobPlan{})
	d.jb = jp
	jp.based = p.jobBase(d, jp)
	jp.partial = d.partial || jp.parent != nil && jp.parent.jb != nil && jp.parent.jb.partial || jp.pool != nil && jp.pool.partial
	jp.owners = p.ownersOf(d, jp)
	jp.items = p.jobItems(d, jp)
	if jp.based && jp.items {
		p.poolSites(d, jp)
		return p.requireInputs(d, jp)
	}
	return false
}

// poolSites fills in the inputs the job chain leaves unset from the pool.
func (p *program) poolSites(d *decl, jp *jobPlan) {
	if jp.pool == nil || jp.pool.pl == nil {
		return
	}
	for _, f := range jp.pool.pl.fields {
		name := f.Name.Name
		if jp.sites.get(name) == nil {
			jp.sites.set(name, f)
		}
	}
}

// requireInputs reports a job without devices or hours.
func (p *program) requireInputs(d *decl, jp *jobPlan) bool {
	ok := true
	for _, name := range []string{"devices", "hours"} {
		if jp.sites.get(name) == nil {
			if !jp.partial { // else it may be on the line the syntax error took
				p.errorAt(d.name.Start(), d.name.End(), fmt.Sprintf("job %s has no %s: set %s in the job or in its pool", d.name.Name, name, name))
			}
			ok = false
		}
	}
	return ok
}

// jobBase takes what a job inherits from its parent (extends) or pool
// (on); false when that is missing or has errors, already reported.
func (p *program) jobBase(d *decl, jp *jobPlan) bool {
	j := d.jobStmt()
	switch {
	case j.Extends != nil:
		parent, found := p.decls[j.Extends.Name]
		if !found || parent.kind != declJob {
			p.badTarget(j.Extends, "job", declJob)
			return false
		}
		if parent.checked == visiting {
			p.errorAt(j.Extends.Start(), j.Extends.End(), "cycle: "+d.name.Name+" extends itself through "+parent.name.Name)
			return false
		}
		if !p.checkDecl(parent, &lang.Name{Parts: []*lang.Ident{j.Extends}}, &p.diags) {
			return false
		}
		pj := parent.jb
		jp.parent, jp.pool = parent, pj.pool
		jp.sites, jp.factors, jp.ceilings = pj.sites, pj.factors, pj.ceilings
		if j.ExtendsOn != nil {
			return p.extendsOn(d, jp, pj) // planning.go
		}
	case j.On != nil:
		pool, found := p.decls[j.On.Name]
		if !found || pool.kind != declPool {
			p.badTarget(j.On, "pool", declPool)
			return false
		}
		if !p.checkDecl(pool, nil, &p.diags) {
			return false
		}
		jp.pool = pool
	}
	return true
}

// jobItems reads a job block's own fields, factor blocks and expects over
// what jobBase inherited; false when one has an error, already reported.
func (p *program) jobItems(d *decl, jp *jobPlan) bool {
	ok := true
	var own inputSites // the job's own lines so far (a job's fields are its inputs)
	for _, item := range d.jobStmt().Items {
		switch it := item.(type) {
		case *lang.Field:
			def, known := poolFields[it.Name.Name]
			if !known {
				p.unknownFieldDecl(it, "a job", append(sortedKeys(poolFields), "factors", "ceilings"))
				ok = false
				continue
			}
			if prev := own.get(it.Name.Name); prev != nil {
				p.duplicateField(it, prev)
				ok = false
				continue
			}
			own.set(it.Name.Name, it)
			jp.sites.set(it.Name.Name, it)
			ok = p.checkField(it, def) && ok
		case *lang.FactorBlock:
			ok = p.factorBlock(jp, it) && ok
		case *lang.Expect:
			p.expectNodes = append(p.expectNodes, expectSite{node: it, job: d})
		}
	}
	return ok
}

func (p *program) badTarget(id *lang.Ident, what string, kind declKind) {
	if _, found := p.decls[id.Name]; !found && p.lost[id.Name] {
		return // declared by a statement with a syntax error, told already
	}
	msg := "unknown " + what + " " + id.Name
	if x, found := p.decls[id.Name]; found {
		msg = fmt.Sprintf("%s is a %s, not a %s", id.Name, declKinds[x.kind].noun, what)
	}
	if sug := p.suggestOfKind(id.Name, kind); sug != "" {
		msg += "; did you mean " + sug + "?"
	}
	p.errorAt(id.Start(), id.End(), msg)
}

func (p *program) factorBlock(jp *jobPlan, b *lang.FactorBlock) bool {
	ok := true
	var seen [goodput.NumFactors]*lang.Field
	for _, f := range b.Fields {
		fac, known := goodput.ParseFactor(f.Name.Name)
		if !known {
			p.unknownFieldDecl(f, b.Kind(), []string{"scheduling", "runtime", "program", "S", "R", "P"})
			ok = false
			continue
		}
		if prev := seen[fac]; prev != nil {
			p.duplicateField(f, prev)
			ok = false
			continue
		}
		seen[fac] = f
		if !b.Ceilings {
			jp.factors[fac] = f
		} else {
			jp.ceilings[fac] = f
		}
		ok = p.checkField(f, fractionDef) && ok
	}
	return ok
}

var fractionDef = fieldDef{lang.Count, "", "a fraction in [0, 1]"}

// plannerProblem is what the planner's rules find wrong with v as the
// value of the field name, or "".
func plannerProblem(name string, v Value) string {
	switch {
	case name == "devices" && v.Num != math.Trunc(v.Num) && v.Num > 0 && !math.IsInf(v.Num, 0):
		return fmt.Sprintf("devices is %s; devices are whole: write %s or %s",
			lang.FormatNumber(v.Num), lang.FormatNumber(math.Floor(v.Num)), lang.FormatNumber(math.Ceil(v.Num)))
	case name == "devices" && v.Num == 0:
		return "devices is 0; a job needs at least one device"
	case name == "hours" && v.Num == 0:
		return "hours is 0; the pool must be offered to the job for some time, e.g. 720h"
	}
	return ""
}
