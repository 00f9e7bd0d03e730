package check

import (
	"fmt"
	"math"

	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// PoolFields are the fields of a pool; a job may set them too, and the
// job's value wins.
var PoolFields = map[string]fieldDef{
	"devices": {units.Count, "", "devices in the pool"},
	"hours":   {units.Duration, "h", "wall time the pool is offered to the job"},
	"rate":    {units.Price, " USD/h", "price of one offered device-hour"},
}

// jobPlan is a checked job: where each of its inputs is set, on its own
// lines, inherited from the job it extends, or from its pool.
type jobPlan struct {
	Pool     *Decl
	Parent   *Decl
	Based    bool       // its pool or parent is known and checked
	Partial  bool       // it, a job it extends or its pool lost a line to a syntax error (decl.partial)
	items    bool       // its own lines checked without errors
	Sites    inputSites // devices, hours, rate: where each comes from
	Factors  [goodput.NumFactors]*lang.Field
	Ceilings [goodput.NumFactors]*lang.Field
	// Window is the job's window, its own or inherited (capacity.go);
	// nil when it has none. HoursToo: the job writes hours beside its
	// own window, which must agree.
	Window   *WindowPlan
	HoursToo bool
	Owners   *jobOwners                      // owner of each factor (owners.go); shared when no owners block names one
	chain    *[goodput.NumFactors]chainOwner // the nearest owners line along the extends chain; nil when there is none
}

// inputSites are the fields that set a job's devices, hours and rate.
type inputSites [3]*lang.Field

// SiteNames are the inputs a job sets by a field of its own, in the
// order of inputSites.
var SiteNames = [3]string{"devices", "hours", "rate"}

// Get is the field that sets the input named (devices, hours or rate);
// nil when none does or the name is another.
func (s *inputSites) Get(name string) *lang.Field {
	for i, n := range SiteNames {
		if n == name {
			return s[i]
		}
	}
	return nil
}

func (s *inputSites) set(name string, f *lang.Field) {
	for i, n := range SiteNames {
		if n == name {
			s[i] = f
		}
	}
}

// checkJob works out where each of a job's inputs comes from and checks
// its own lines. When the pool or parent is missing or has errors, the
// job's own lines are still checked, so that their independent errors are
// reported too.
func (p *Program) checkJob(d *Decl) bool {
	jp := p.jobSlab.Put(jobPlan{})
	d.Job = jp
	jp.Based = p.jobBase(d, jp)
	jp.Partial = d.Partial || jp.Parent != nil && jp.Parent.Job != nil && jp.Parent.Job.Partial || jp.Pool != nil && jp.Pool.Partial
	jp.Owners = p.ownersOf(d, jp)
	jp.items = p.jobItems(d, jp)
	if jp.Based && jp.items {
		p.poolSites(d, jp)
		return p.requireInputs(d, jp) && p.poolCurrency(d, jp)
	}
	return false
}

// poolSites fills in the inputs the job chain leaves unset from the pool.
func (p *Program) poolSites(d *Decl, jp *jobPlan) {
	if jp.Pool == nil || jp.Pool.Pool == nil {
		return
	}
	for _, f := range jp.Pool.Pool.Fields {
		name := f.Name.Name
		if jp.Sites.Get(name) == nil {
			jp.Sites.set(name, f)
		}
	}
}

// requireInputs reports a job without devices or hours.
func (p *Program) requireInputs(d *Decl, jp *jobPlan) bool {
	ok := true
	for _, name := range []string{"devices", "hours"} {
		if name == "hours" && (jp.Window != nil || jp.Pool != nil && jp.Pool.Pool != nil && jp.Pool.Pool.Window != nil) {
			continue // the job's window, or its pool's, sets it
		}
		if jp.Sites.Get(name) == nil {
			if !jp.Partial { // else it may be on the line the syntax error took
				p.errorAt(d.Name.Start(), d.Name.End(), fmt.Sprintf("job %s has no %s: set %s in the job or in its pool", d.Name.Name, name, name))
			}
			ok = false
		}
	}
	return ok
}

// jobBase takes what a job inherits from its parent (extends) or pool
// (on); false when that is missing or has errors, already reported.
func (p *Program) jobBase(d *Decl, jp *jobPlan) bool {
	j := d.JobStmt()
	switch {
	case j.Extends != nil:
		parent, found := p.Decls[j.Extends.Name]
		if !found || parent.Kind != DeclJob {
			p.badTarget(j.Extends, "job", DeclJob)
			return false
		}
		if parent.checked == Visiting {
			p.errorAt(j.Extends.Start(), j.Extends.End(), "cycle: "+d.Name.Name+" extends itself through "+parent.Name.Name)
			return false
		}
		if !p.CheckDecl(parent, &lang.Name{Parts: []*lang.Ident{j.Extends}}, &p.Diags) {
			return false
		}
		pj := parent.Job
		jp.Parent, jp.Pool = parent, pj.Pool
		jp.Sites, jp.Factors, jp.Ceilings, jp.Window = pj.Sites, pj.Factors, pj.Ceilings, pj.Window
		if j.ExtendsOn != nil {
			return p.extendsOn(d, jp, pj) // planning.go
		}
	case j.On != nil:
		pool, found := p.Decls[j.On.Name]
		if !found || pool.Kind != DeclPool {
			p.badTarget(j.On, "pool", DeclPool)
			return false
		}
		// The reference is the pool's name: a pool whose field reads a
		// result of this job is a cycle reported there.
		ok := pool.Ok // checked already (CheckDecl's answer then)
		if pool.checked != Done && pool.checked != Failed {
			ok = p.CheckDecl(pool, &lang.Name{Parts: []*lang.Ident{j.On}}, &p.Diags)
		}
		if !ok {
			return false
		}
		jp.Pool = pool
	}
	return true
}

// jobItems reads a job block's own fields, factor blocks and expects over
// what jobBase inherited; false when one has an error, already reported.
func (p *Program) jobItems(d *Decl, jp *jobPlan) bool {
	ok := true
	var own inputSites // the job's own lines so far (a job's fields are its inputs)
	var ownWindow *lang.Window
	defer func() {
		switch {
		case ownWindow != nil:
			jp.HoursToo = own.Get("hours") != nil
		case own.Get("hours") != nil:
			jp.Window = nil // its own hours replace the window it inherits
		}
	}()
	for _, item := range d.JobStmt().Items {
		switch it := item.(type) {
		case *lang.Window:
			ok = p.jobWindow(d, jp, it, ownWindow) && ok
			ownWindow = it
		case *lang.Field:
			def, known := PoolFields[it.Name.Name]
			if !known {
				p.unknownFieldDecl(it, "a job", append(SortedKeys(PoolFields), "factors", "ceilings"))
				ok = false
				continue
			}
			if prev := own.Get(it.Name.Name); prev != nil {
				p.duplicateField(it, prev)
				ok = false
				continue
			}
			own.set(it.Name.Name, it)
			jp.Sites.set(it.Name.Name, it)
			ok = p.checkField(it, def) && ok
		case *lang.FactorBlock:
			ok = p.factorBlock(jp, it) && ok
		case *lang.Expect:
			p.ExpectNodes = append(p.ExpectNodes, expectSite{node: it, job: d})
		}
	}
	return ok
}

func (p *Program) badTarget(id *lang.Ident, what string, kind declKind) {
	if _, found := p.Decls[id.Name]; !found && p.lost[id.Name] {
		return // declared by a statement with a syntax error, told already
	}
	msg := "unknown " + what + " " + id.Name
	if x, found := p.Decls[id.Name]; found {
		msg = fmt.Sprintf("%s is a %s, not a %s", id.Name, DeclKinds[x.Kind].Noun, what)
	}
	if sug := p.suggestOfKind(id.Name, kind); sug != "" {
		msg += "; did you mean " + sug + "?"
	}
	p.errorAt(id.Start(), id.End(), msg)
}

func (p *Program) factorBlock(jp *jobPlan, b *lang.FactorBlock) bool {
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
			jp.Factors[fac] = f
		} else {
			jp.Ceilings[fac] = f
		}
		ok = p.checkField(f, fractionDef) && ok
	}
	return ok
}

var fractionDef = fieldDef{units.Count, "", "a fraction in [0, 1]"}

// PlannerProblem is what the planner's rules find wrong with v as the
// value of the field name, or "".
func PlannerProblem(name string, v value.Value) string {
	switch {
	case name == "devices" && v.Num != math.Trunc(v.Num) && v.Num > 0 && !math.IsInf(v.Num, 0):
		return fmt.Sprintf("devices is %s; devices are whole: write %s or %s",
			units.FormatNumber(v.Num), units.FormatNumber(math.Floor(v.Num)), units.FormatNumber(math.Ceil(v.Num)))
	case name == "devices" && v.Num == 0:
		return "devices is 0; a job needs at least one device"
	case name == "hours" && v.Num == 0:
		return "hours is 0; the pool must be offered to the job for some time, e.g. 720h"
	}
	return ""
}

// PlannerChecked reports a field whose every value the planner's rules
// check (plannerRule), once per evaluation.
func PlannerChecked(name string) bool { return name == "devices" || name == "hours" }

// JobHolds reports whether site is one of the fields the job statement j
// writes itself, at its top level or in a factor block.
func JobHolds(j *lang.Job, site *lang.Field) bool {
	for _, item := range j.Items {
		switch it := item.(type) {
		case *lang.Field:
			if it == site {
				return true
			}
		case *lang.FactorBlock:
			for _, f := range it.Fields {
				if f == site {
					return true
				}
			}
		}
	}
	return false
}
