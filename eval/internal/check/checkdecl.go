package check

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is the check pass over declarations: it visits every
// declaration in source order, each one's dependencies first, checks and
// compiles its expressions and fields, and finds cycles. It records what
// it learns on the decl; nothing is evaluated here.

// Check runs the check and compile passes over every declaration, then
// compiles the expectations.
func (p *Program) Check() {
	p.checkOwners()
	for _, d := range p.Order {
		p.CheckDecl(d, nil, &p.Diags)
	}
	p.markPoolFigures() // uncertain.go
	for _, site := range p.ExpectNodes {
		if e := p.CompileExpect(site, &p.Diags); e != nil {
			p.Expects = append(p.Expects, e)
		}
	}
	p.sortExpects()
	// Done: later compiles (Scenario.Eval, which may run concurrently) keep
	// their constants to themselves.
	p.konsts, p.literals = nil, nil
}

// CheckDecl checks d once; a declaration met again while it is being
// checked is a cycle, reported at the reference at. It reports whether d
// checked without errors.
func (p *Program) CheckDecl(d *Decl, at lang.Expr, diags *lang.Diagnostics) bool {
	switch d.checked {
	case Done, Failed:
		return d.Ok
	case Visiting:
		p.cycle(d, at, diags)
		return false
	}
	if len(p.stack) >= MaxDependencyDepth {
		p.tooDeep(d, at, diags)
		return false // unchecked: met again from a shallower reference, it is checked then
	}
	d.checked = Visiting
	p.stack = append(p.stack, d)
	p.stackAt = append(p.stackAt, at)
	ok := DeclKinds[d.Kind].check(p, d)
	propagateUncertain(d) // uncertain.go
	p.stack = p.stack[:len(p.stack)-1]
	p.stackAt = p.stackAt[:len(p.stackAt)-1]
	d.Ok = ok
	if ok {
		d.checked = Done
	} else {
		d.checked = Failed
	}
	return ok
}

// dependOn checks d on behalf of a reference at at that reads one of its
// results or fields. Unlike a let's value, those are typed without d, so
// the reference stands even when d has errors (an expectation then says it
// could not be evaluated); it fails only on a cycle.
func (p *Program) dependOn(d *Decl, at lang.Expr, diags *lang.Diagnostics) bool {
	if d.checked == Visiting {
		p.cycle(d, at, diags)
		return false
	}
	if d.OverFile() && !p.modelFree(d, at, diags) {
		return false
	}
	p.CheckDecl(d, at, diags)
	return true
}

// cycleShown is how many declarations of a cycle its message names.
const cycleShown = 12

// cycle reports the reference at, which reads d while d is being checked:
// the declarations from d to the one holding at read one another in a
// loop. at is nil only for a walk begun without a reference (Check's own),
// which cannot meet a declaration being checked; the caret then falls on
// d's name rather than nowhere.
func (p *Program) cycle(d *Decl, at lang.Expr, diags *lang.Diagnostics) {
	path := ""
	start := 0
	for i, x := range p.stack {
		if x == d {
			start = i
		}
	}
	loop := p.stack[start:]
	for i, x := range loop {
		if len(loop) > cycleShown && i == cycleShown/2 {
			// A long cycle is told by its ends, the middle counted.
			path += fmt.Sprintf("… (%s more) → ", units.FormatNumber(float64(len(loop)-cycleShown)))
		}
		if len(loop) <= cycleShown || i < cycleShown/2 || i >= len(loop)-cycleShown/2 {
			path += x.Name.Name + " → "
		}
	}
	pos, end := d.Name.Start(), d.Name.End()
	if at != nil {
		pos, end = at.Span()
	}
	diag := &lang.Diagnostic{Severity: lang.Error, Summary: "cycle: " + path + d.Name.Name, Pos: pos, End: end}
	// refs[i] is where loop[i] reads loop[i+1], the last where it reads
	// loop[0] again: the reference each declaration was entered by.
	refs := make([]lang.Expr, len(loop))
	copy(refs, p.stackAt[start+1:])
	refs[len(loop)-1] = at
	p.explainPoolCycle(diag, loop, refs)
	*diags = append(*diags, diag)
}

// explainPoolCycle words a cycle that runs through a pool's field and a
// job on that pool (pool p { devices = j.devices } with job j on p): a
// pool's fields are inputs of its jobs, so none of them can read a result
// of those jobs. The caret's label says what its reference does, each
// other link of the loop is shown with its own, and the hint says what to
// write instead. Other cycles are left as they are.
func (p *Program) explainPoolCycle(diag *lang.Diagnostic, loop []*Decl, refs []lang.Expr) {
	n := len(loop)
	pool := -1
	for i, x := range loop {
		prev := (i + n - 1) % n
		if x.Kind == DeclPool && runsOn(loop[prev], refs[prev]) {
			pool = i
			break
		}
	}
	if pool < 0 || n > cycleShown {
		return
	}
	for k := range n {
		// From the caret's link (the last) round the loop, in order.
		i := (n - 1 + k) % n
		r := refs[i]
		if r == nil {
			continue
		}
		label := p.linkLabel(loop[i], loop[(i+1)%n], r)
		if k == 0 {
			diag.Label = label
			continue
		}
		rp, re := r.Span()
		diag.Related = append(diag.Related, lang.Related{Pos: rp, End: re, Label: label})
	}
	pd := loop[pool]
	field := "devices"
	if f := fieldHolding(pd.poolStmt(), refs[pool]); f != nil {
		field = f.Name.Name
	}
	diag.Notes = append(diag.Notes, fmt.Sprintf("hint: a pool's fields are inputs of every job on it, so they cannot read those jobs' results; write %s.%s as a value (a number, or a let or param that reads no job on %s), or set %s in the job itself", pd.Name.Name, field, pd.Name.Name, field))
}

// runsOn reports whether the reference r is where the job d names the
// pool it runs on (job d on POOL, job d extends JOB on POOL).
func runsOn(d *Decl, r lang.Expr) bool {
	j := d.JobStmt()
	n, ok := r.(*lang.Name)
	if j == nil || !ok || len(n.Parts) != 1 {
		return false
	}
	return n.Parts[0] == j.On || n.Parts[0] == j.ExtendsOn
}

// linkLabel says how from reads to at the reference r: a job runs on a
// pool or extends a job; a pool's field, or any other declaration, reads
// the name.
func (p *Program) linkLabel(from, to *Decl, r lang.Expr) string {
	if runsOn(from, r) {
		return "job " + from.Name.Name + " runs on pool " + to.Name.Name
	}
	if j := from.JobStmt(); j != nil {
		if n, ok := r.(*lang.Name); ok && len(n.Parts) == 1 && n.Parts[0] == j.Extends {
			return "job " + from.Name.Name + " extends job " + to.Name.Name
		}
	}
	what := from.Name.Name
	if f := fieldHolding(from.poolStmt(), r); f != nil {
		what = "pool " + from.Name.Name + "'s " + f.Name.Name
	}
	text := to.Name.Name
	if n, ok := r.(*lang.Name); ok {
		text = n.Path()
	}
	return what + " reads " + text
}

// fieldHolding is the field of pool whose value holds the reference r, or
// nil.
func fieldHolding(pool *lang.Pool, r lang.Expr) *lang.Field {
	if pool == nil || r == nil {
		return nil
	}
	rp, _ := r.Span()
	for _, f := range pool.Fields {
		fp, fe := f.Value.Span()
		if fp.Offset <= rp.Offset && rp.Offset < fe.Offset && fp.Filename == rp.Filename {
			return f
		}
	}
	return nil
}

// tooDeep reports, once, a reference that would check a declaration more
// than MaxDependencyDepth references deep: the passes follow references by
// recursion, and the limit keeps them far from the stack's end.
func (p *Program) tooDeep(d *Decl, at lang.Expr, diags *lang.Diagnostics) {
	if p.tooDeepTold {
		return
	}
	p.tooDeepTold = true
	pos, end := d.Name.Start(), d.Name.End()
	if at != nil {
		pos, end = at.Span()
	}
	*diags = append(*diags, &lang.Diagnostic{
		Severity: lang.Error, Pos: pos, End: end,
		Summary: fmt.Sprintf("%s is read through a chain of more than %s declarations, each reading the next (the limit on a chain of references)", d.Name.Name, units.FormatNumber(MaxDependencyDepth)),
		Notes:   []string{"hint: declare each value after the ones it reads: a chain written in that order is checked one link at a time, however long"},
	})
}

func (p *Program) checkLet(d *Decl) bool {
	c := p.compile(d.letStmt().Value, scope{}, &p.Diags)
	if c == nil {
		return false
	}
	d.Value, d.Type = c, c.Type
	return true
}

// fieldDef describes a NAME = VALUE field: its dimension, the unit its
// "write its unit" hint suggests, and what it means.
type fieldDef struct {
	Dim     units.Dim
	example string
	doc     string
}

// checkField compiles a field's expression once, checks its dimension and
// keeps it for every job that inherits it; false when it has errors.
func (p *Program) checkField(f *lang.Field, def fieldDef) bool {
	if c, seen := p.Fields[f]; seen {
		return c != nil
	}
	c := p.compile(f.Value, scope{}, &p.Diags) // a constant may be shared: never modified here
	if c != nil && c.Const != nil && isBareZero(f.Value) {
		// 0 is 0 in every unit.
		c = p.literal(f.Value, value.Value{Type: value.NumType(def.Dim), Num: c.Const.Num})
	}
	if c != nil && (c.Type.Kind != value.Number || !acceptsDim(def.Dim, c.Type.Dim)) {
		p.wrongDimension(f, def, c.Type)
		c = nil
	}
	switch {
	case c != nil && c.Const != nil && (!PlannerChecked(f.Name.Name) || PlainNumber(f.Value) != nil && PlannerProblem(f.Name.Name, *c.Const) == ""):
		// A constant (and a number the planner's rules accept, which they
		// need not check again): nothing to compute or keep per
		// evaluation. A shared one (literal) has no slot already; a folded
		// one is this field's.
		if c.Field != -1 {
			c.Field = -1
		}
	case c != nil:
		// A planner's rule checks the field's value, each field where it
		// is written: a slot of its own, so a shared constant is copied.
		if c.Const != nil {
			k := *c
			c = &k
		}
		c.Field = int32(p.NumFields)
		p.NumFields++
	}
	if c != nil && c.Const != nil && c.Field == -1 && PlainNumber(f.Value) != nil {
		// A number that checked: fieldValue reads it from the field
		// itself, so the map keeps no entry for most of a file's fields.
		return true
	}
	p.Fields[f] = c
	return c != nil
}

// PlainNumber is e when it is a number written as such (in parentheses or
// not), other than a bare 0, which takes its field's dimension; else nil.
func PlainNumber(e lang.Expr) *lang.NumberLit {
	if isBareZero(e) {
		return nil
	}
	n, _ := Unparen(e).(*lang.NumberLit)
	return n
}

func (p *Program) wrongDimension(f *lang.Field, def fieldDef, got value.Type) {
	pos, end := f.Value.Span()
	name := f.Name.Name
	if lit, ok := Unparen(f.Value).(*lang.NumberLit); ok && p.unitWords[lit.Start()] != nil {
		// A unit word read as a unit ("720 gb"): its syntax error is the one
		// told, with a hint in the field's dimension.
		fix := lit.Digits()
		if def.Dim != units.Count {
			fix = unitHint(&lang.Name{Parts: []*lang.Ident{&f.Name}}, lit.Digits(), def.Dim)
		}
		p.unitWords[lit.Start()].Notes = []string{fmt.Sprintf("hint: %s is %s: write %s", name, def.Dim.Phrase(), fix)}
		return
	}
	if lit, ok := Unparen(f.Value).(*lang.NumberLit); ok && lit.UnitOf() == nil && def.Dim != units.Count {
		hint := unitHint(&lang.Name{Parts: []*lang.Ident{&f.Name}}, lit.Digits(), def.Dim)
		d := p.errorAt(pos, end, fmt.Sprintf("%s is %s; write its unit, e.g. %s", name, def.Dim.Phrase(), hint))
		d.Code = "field_without_unit"
		if lit, _, _ := strings.Cut(hint, " ("); !strings.Contains(lit, " ") {
			d.Fixes = []lang.Fix{{Pos: pos, End: end, Text: lit}}
		}
		return
	}
	if lit, ok := Unparen(f.Value).(*lang.NumberLit); ok && def.Dim == units.Price && lit.Dim() == units.Money {
		p.errorAt(pos, end, fmt.Sprintf("%s is a price, but %s is money: write %s/h", name, lit.Text, strings.TrimSpace(lit.Text)))
		return
	}
	what := got.Phrase()
	if lit, ok := Unparen(f.Value).(*lang.NumberLit); ok {
		what = lit.Text + " is " + what
	} else {
		what = "this is " + what
	}
	p.errorAt(pos, end, fmt.Sprintf("%s is a %s, but %s", name, dimPhrase(def.Dim), what))
}

func dimPhrase(d units.Dim) string {
	switch d {
	case units.Price:
		return "price (USD per device-hour)"
	case units.Count:
		return "count (a bare number)"
	}
	return d.String()
}

func (p *Program) unknownFieldDecl(f *lang.Field, what string, known []string) {
	msg := fmt.Sprintf("%s has no field %s", what, f.Name.Name)
	if sug := suggest.Closest(f.Name.Name, known); sug != "" {
		msg += "; did you mean " + sug + "?"
	} else {
		msg += "; its fields are " + strings.Join(known, ", ")
	}
	p.errorAt(f.Name.Start(), f.Name.End(), msg)
}

func (p *Program) duplicateField(f, prev *lang.Field) {
	p.Diags = append(p.Diags, &lang.Diagnostic{
		Severity: lang.Error, Summary: f.Name.Name + " is set twice",
		Pos: f.Name.Start(), End: f.Name.End(), Label: "set again here",
		Related: []lang.Related{{Pos: prev.Name.Start(), End: prev.Name.End(), Label: "first set here"}},
	})
}

// blockFields checks the NAME = VALUE fields of a pool or request block
// against their definitions — unknown and repeated names, dimensions. It
// returns the good fields, each name once, and whether all of them were
// good.
func (p *Program) blockFields(fields []*lang.Field, what string, defs map[string]fieldDef) (fieldList, bool) {
	var byName fieldList // at most one per definition: a short list, not a map per block
	ok := true
	for _, f := range fields {
		def, known := defs[f.Name.Name]
		if !known {
			p.unknownFieldDecl(f, what, SortedKeys(defs))
			ok = false
			continue
		}
		if prev := byName.Get(f.Name.Name); prev != nil {
			p.duplicateField(f, prev)
			ok = false
			continue
		}
		byName = append(byName, f)
		if !p.checkField(f, def) {
			ok = false
		}
	}
	return byName, ok
}

// poolPlan is a checked pool: its fields by name, its window and the
// steps of its schedule of devices (capacity.go).
type poolPlan struct {
	Fields   fieldList
	Window   *WindowPlan
	Schedule []StepPlan
}

// fieldList is a checked block's good fields, each name once, in source
// order.
type fieldList []*lang.Field

// Get returns the field named name, or nil.
func (l fieldList) Get(name string) *lang.Field {
	for _, f := range l {
		if f.Name.Name == name {
			return f
		}
	}
	return nil
}

func (p *Program) checkPool(d *Decl) bool {
	fields, ok := p.blockFields(d.poolStmt().Fields, "a pool", poolFieldDefs())
	d.Pool = &poolPlan{Fields: fields}
	return p.checkPoolTime(d, d.Pool) && ok
}

// requestPlan is a checked request: its fields by name.
type requestPlan struct {
	Fields fieldList
}

func (p *Program) checkRequest(d *Decl) bool {
	fields, ok := p.blockFields(d.RequestStmt().Fields, "a request", RequestFields)
	d.Request = &requestPlan{Fields: fields}
	return ok
}
