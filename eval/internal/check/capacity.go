package check

import (
	"fmt"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file checks what places pools and jobs in time (language §18,
// §19): a pool's term, a window (from … to …, from … for …) on a pool or
// a job, a pool's schedule of devices (devices { DATE: N … }). Each bound
// and step is checked and compiled as a field of its own, so that the
// evaluator reads it as it reads any field (fieldValue), once per
// evaluation.

// poolFieldDefs are the fields a pool may set: those its jobs inherit
// (PoolFields) and its term.
var poolFieldDefs = sync.OnceValue(func() map[string]fieldDef {
	m := map[string]fieldDef{"term": {units.Duration, "h", "the length of a reservation, paid for whether used or not"}}
	for k, v := range PoolFields {
		m[k] = v
	}
	return m
})

// WindowPlan is a checked window: From is a date, Until a date (from …
// to …) or, with For, a duration (from … for …). The fields are made by
// the check pass from the window's expressions, named "from", "to" and
// "for", so that messages and the evaluator treat them as fields.
type WindowPlan struct {
	Node        *lang.Window
	From, Until *lang.Field
	For         bool
}

// StepPlan is one step of a pool's schedule: from the date At, Devices
// devices (both fields made by the check pass, named "from" and
// "devices").
type StepPlan struct {
	At, Devices *lang.Field
}

// exprField wraps an expression as a field named name, placed at the
// expression, for the field machinery.
func exprField(name string, x lang.Expr) *lang.Field {
	start, _ := x.Span()
	return &lang.Field{Name: lang.Ident{At: lang.PosOf(start), Name: name}, Value: x}
}

var (
	dateDef     = fieldDef{units.Date, "", "a date, such as 2027-01-04"}
	lengthDef   = fieldDef{units.Duration, "d", "how long the window lasts, such as 14d"}
	scheduleDef = fieldDef{units.Count, "", "devices from that date"}
)

// checkWindow checks a window's bounds; nil when one has an error.
func (p *Program) checkWindow(w *lang.Window) *WindowPlan {
	if BoundDistribution(w.From, &p.Diags) || BoundDistribution(w.Until, &p.Diags) {
		return nil
	}
	wp := &WindowPlan{Node: w, From: exprField("from", w.From), For: w.For}
	until := "to"
	def := dateDef
	if w.For {
		until, def = "for", lengthDef
	}
	wp.Until = exprField(until, w.Until)
	ok := p.checkField(wp.From, dateDef)
	ok = p.checkField(wp.Until, def) && ok
	if !ok {
		return nil
	}
	return wp
}

// checkPoolTime checks a pool's windows and schedules into pp; false
// when one has an error, already reported.
func (p *Program) checkPoolTime(d *Decl, pp *poolPlan) bool {
	st := d.poolStmt()
	ok := true
	for i, w := range st.Windows {
		if i > 0 {
			p.errorAt(w.Start(), w.End(), fmt.Sprintf("pool %s has a window already; a pool has one", d.Name.Name))
			ok = false
			continue
		}
		if pp.Window = p.checkWindow(w); pp.Window == nil {
			ok = false
		}
	}
	for i, s := range st.Schedules {
		if i > 0 {
			p.errorAt(s.Start(), s.End(), fmt.Sprintf("pool %s has a schedule of devices already; a pool has one", d.Name.Name))
			ok = false
			continue
		}
		if f := pp.Fields.Get("devices"); f != nil {
			p.errorAt(s.Start(), s.End(), fmt.Sprintf("pool %s sets devices = … and a schedule of devices; write one", d.Name.Name))
			ok = false
			continue
		}
		if len(st.Windows) == 0 {
			p.errorAt(s.Start(), s.End(), fmt.Sprintf("a schedule of devices needs the pool's window: add from DATE to DATE to pool %s", d.Name.Name))
			ok = false
			continue
		}
		if len(s.Steps) == 0 {
			p.errorAt(s.Start(), s.End(), "the schedule has no steps; write devices { DATE: N … }")
			ok = false
			continue
		}
		for _, step := range s.Steps {
			sp := StepPlan{At: exprField("from", step.At), Devices: exprField("devices", step.Devices)}
			sok := p.checkField(sp.At, dateDef)
			sok = p.checkField(sp.Devices, scheduleDef) && sok
			if !sok {
				ok = false
				continue
			}
			pp.Schedule = append(pp.Schedule, sp)
		}
	}
	if pp.Reserved() && pp.Fields.Get("devices") == nil && len(st.Schedules) == 0 {
		p.errorAt(d.Name.Start(), d.Name.End(), fmt.Sprintf("pool %s is a reservation (it has a term or a window) without devices: set devices = N, or devices { DATE: N … }", d.Name.Name))
		ok = false
	}
	if t := pp.Fields.Get("term"); t != nil && pp.Window != nil {
		p.errorAt(t.Start(), t.End(), fmt.Sprintf("pool %s has a window and a term; the window sets the term: drop term", d.Name.Name))
		ok = false
	}
	return ok
}

// Inherited reports whether the window is not written in the job
// statement j (it comes from the job j extends).
func (wp *WindowPlan) Inherited(j *lang.Job) bool {
	for _, it := range j.Items {
		if it == lang.JobItem(wp.Node) {
			return false
		}
	}
	return true
}

// Reserved reports whether the pool is a reservation: it has a term or a
// window, and is paid for whether its devices are used or not.
func (pp *poolPlan) Reserved() bool { return pp.Fields.Get("term") != nil || pp.Window != nil }

// jobWindow records a job's own window in jp; false on an error.
func (p *Program) jobWindow(d *Decl, jp *jobPlan, w *lang.Window, own *lang.Window) bool {
	if own != nil {
		p.errorAt(w.Start(), w.End(), fmt.Sprintf("job %s has a window already; a job has one", d.Name.Name))
		return false
	}
	wp := p.checkWindow(w)
	if wp == nil {
		return false
	}
	jp.Window = wp
	return true
}

// PoolResultRef reads a result of a pool (Decl a pool), or of one month
// of a pool or group when InMonth (Month is its first instant). Group
// (with Decl a group) reads the group's month.
type PoolResultRef struct {
	Def *results.PoolDef
	// Currency is the currency of the pool's or group's money.
	Currency string
	InMonth  bool
	Month    float64
}

func (PoolResultRef) isPlanRef() {}

// poolResult resolves POOL.RESULT: a reference that depends on every job
// on the pool, so that a job reading its own pool's results is a cycle.
func (cp *exprChecker) poolResult(n *lang.Name, d *Decl, def *results.PoolDef) (value.Type, ast.Node) {
	return cp.poolRef(n, d, PoolResultRef{Def: def}, n.Path())
}

// GroupPoolResults are the results a group takes from its pools: the
// idle device-hours and their cost of each reservation whose every job
// is in the group.
var GroupPoolResults = []string{"idle_hours", "idle_cost"}

// poolRef adds a reference to a pool's or group's result, depending on
// the jobs it is computed from.
func (cp *exprChecker) poolRef(n lang.Expr, d *Decl, ref PoolResultRef, text string) (value.Type, ast.Node) {
	if !cp.p.dependOn(d, n, cp.diags) {
		cp.ok = false
		return value.Type{}, nil
	}
	if d.Kind == DeclPool {
		for _, j := range cp.p.statedJobsOn(d) {
			if !cp.p.dependOn(j, n, cp.diags) {
				cp.ok = false
				return value.Type{}, nil
			}
		}
	}
	if d.Kind == DeclPool {
		ref.Currency = cp.p.PoolCurrency(d)
	} else if d.Plan != nil {
		ref.Currency = d.Plan.Currency
	}
	t := InCurrency(ref.Def.Type, ref.Currency)
	if d.Kind == DeclPool && !d.FiguresUncertain && !d.Uncertain && poolJobsUncertain(cp.p.statedJobsOn(d)) {
		cp.noteUncertain() // a figure of the pool's uncertain jobs, read before markPoolFigures (uncertain.go)
	}
	return t, cp.addRef(&Ref{Kind: RefPlan, Decl: d, Field: ref.Def.Name, Text: text, Node: n, Type: t, Plan: ref})
}

// JoinsPool reports whether a job declared at or after Order[from] runs
// on a pool declared before it.
func (p *Program) JoinsPool(from int) bool {
	memo := map[*Decl]string{}
	for _, j := range p.Order[from:] {
		if j.Kind != DeclJob {
			continue
		}
		if pool, ok := p.Decls[p.statedPool(j, memo)]; ok && pool.Kind == DeclPool && int(pool.Slot) < from {
			return true
		}
	}
	return false
}

// statedPool is the name of the pool job j runs on by its statements:
// its own on, an extends … on, or a parent's pool; "" for none. It reads
// the statements, not the checked plans, so that it can be asked while j
// is being checked. memo holds the answers found so far, for every job
// of the chains walked: a chain of n jobs each extending the one before
// is walked once, not once per job (which was n² steps).
func (p *Program) statedPool(j *Decl, memo map[*Decl]string) string {
	var path []*Decl // the jobs walked, each of which has the answer
	on := ""
walk:
	for depth := 0; j != nil && depth < MaxDependencyDepth; depth++ {
		if known, ok := memo[j]; ok {
			on = known
			break
		}
		path = append(path, j)
		st := j.JobStmt()
		switch {
		case st == nil:
			break walk
		case st.On != nil:
			on = st.On.Name
			break walk
		case st.ExtendsOn != nil:
			on = st.ExtendsOn.Name
			break walk
		case st.Extends != nil:
			j = p.Decls[st.Extends.Name]
			if j == nil || j.Kind != DeclJob {
				break walk
			}
		default:
			break walk
		}
	}
	for _, d := range path {
		memo[d] = on
	}
	return on
}

// JobsOn lists the jobs on a pool that checked, in source order.
func (p *Program) JobsOn(pool *Decl) []*Decl {
	var out []*Decl
	for _, j := range p.statedJobsOn(pool) {
		if j.Job != nil && j.Job.Pool == pool {
			out = append(out, j)
		}
	}
	return out
}

// poolIndex is the jobs whose statements put them on each pool, by
// pool name, for the declarations Order had when it was built: its
// length and last declaration (a REPL session adds declarations to a
// program, and drops them again on an error).
type poolIndex struct {
	n    int
	last *Decl
	jobs map[string][]*Decl
}

// statedJobsOn lists the jobs whose statements put them on pool (an on,
// an extends … on, or a parent's pool), in source order, checked or not.
// The index of every pool's jobs is built in one pass over the
// declarations, and again only when they change.
func (p *Program) statedJobsOn(pool *Decl) []*Decl {
	n := len(p.Order)
	var last *Decl
	if n > 0 {
		last = p.Order[n-1]
	}
	ix := p.poolJobs.Load()
	if ix == nil || ix.n != n || ix.last != last {
		ix = &poolIndex{n: n, last: last, jobs: map[string][]*Decl{}}
		memo := map[*Decl]string{}
		for _, j := range p.Order {
			if j.Kind == DeclJob {
				if on := p.statedPool(j, memo); on != "" {
					ix.jobs[on] = append(ix.jobs[on], j)
				}
			}
		}
		p.poolJobs.Store(ix)
	}
	return ix.jobs[pool.Name.Name]
}

// monthQuery resolves NAME.month(M).RESULT on a pool or a group.
func (cp *exprChecker) monthQuery(q *lang.Query, d *Decl) (value.Type, ast.Node) {
	if len(q.Args) != 1 || q.Args[0].Input != nil {
		return cp.errorf(q, "month takes one month: %s.month(2027-03).idle_cost", d.Name.Name)
	}
	lit, ok := Unparen(q.Args[0].Value).(*lang.DateLit)
	if !ok || !lit.IsMonth() {
		return cp.errorf(q.Args[0], "month takes a month written as YYYY-MM, such as 2027-03")
	}
	field := q.FieldName()
	if field == "" {
		return cp.errorf(q, "name a result of the month, e.g. %s.month(%s).idle_cost", d.Name.Name, lit.Text)
	}
	def, ok := results.PoolByName()[field]
	if !ok || !def.Monthly {
		var names []string
		for _, r := range results.PoolTable() {
			if r.Monthly {
				names = append(names, r.Name)
			}
		}
		msg := "a month of " + d.Name.Name + " has no " + field
		if s := suggest.Closest(field, names); s != "" {
			msg += "; did you mean " + s + "?"
		}
		return cp.errorf(q, "%s", msg)
	}
	m, _ := lit.Instant()
	return cp.poolRef(q, d, PoolResultRef{Def: def, InMonth: true, Month: m}, d.Name.Name+".month("+lit.Text+")."+field)
}
