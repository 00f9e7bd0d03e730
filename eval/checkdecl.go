package eval

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
)

// This file is the check pass over declarations: it visits every
// declaration in source order, each one's dependencies first, checks and
// compiles its expressions and fields, and finds cycles. It records what
// it learns on the decl; nothing is evaluated here.

// check runs the check and compile passes over every declaration, then
// compiles the expectations.
func (p *program) check() {
	p.checkOwners()
	for _, d := range p.order {
		p.checkDecl(d, nil, &p.diags)
	}
	for _, site := range p.expectNodes {
		if e := p.compileExpect(site, &p.diags); e != nil {
			p.expects = append(p.expects, e)
		}
	}
	p.sortExpects()
	// Done: later compiles (Scenario.Eval, which may run concurrently) keep
	// their constants to themselves.
	p.konsts, p.literals = nil, nil
}

// checkDecl checks d once; a declaration met again while it is being
// checked is a cycle, reported at the reference at. It reports whether d
// checked without errors.
func (p *program) checkDecl(d *decl, at lang.Expr, diags *lang.Diagnostics) bool {
	switch d.checked {
	case done, failed:
		return d.ok
	case visiting:
		p.cycle(d, at, diags)
		return false
	}
	if len(p.stack) >= MaxDependencyDepth {
		p.tooDeep(d, at, diags)
		return false // unchecked: met again from a shallower reference, it is checked then
	}
	d.checked = visiting
	p.stack = append(p.stack, d)
	ok := declKinds[d.kind].check(p, d)
	p.stack = p.stack[:len(p.stack)-1]
	d.ok = ok
	if ok {
		d.checked = done
	} else {
		d.checked = failed
	}
	return ok
}

// dependOn checks d on behalf of a reference at at that reads one of its
// results or fields. Unlike a let's value, those are typed without d, so
// the reference stands even when d has errors (an expectation then says it
// could not be evaluated); it fails only on a cycle.
func (p *program) dependOn(d *decl, at lang.Expr, diags *lang.Diagnostics) bool {
	if d.checked == visiting {
		p.cycle(d, at, diags)
		return false
	}
	p.checkDecl(d, at, diags)
	return true
}

// cycleShown is how many declarations of a cycle its message names.
const cycleShown = 12

func (p *program) cycle(d *decl, at lang.Expr, diags *lang.Diagnostics) {
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
			path += fmt.Sprintf("… (%s more) → ", lang.FormatNumber(float64(len(loop)-cycleShown)))
		}
		if len(loop) <= cycleShown || i < cycleShown/2 || i >= len(loop)-cycleShown/2 {
			path += x.name.Name + " → "
		}
	}
	pos, end := at.Span()
	*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Summary: "cycle: " + path + d.name.Name, Pos: pos, End: end})
}

// tooDeep reports, once, a reference that would check a declaration more
// than MaxDependencyDepth references deep: the passes follow references by
// recursion, and the limit keeps them far from the stack's end.
func (p *program) tooDeep(d *decl, at lang.Expr, diags *lang.Diagnostics) {
	if p.tooDeepTold {
		return
	}
	p.tooDeepTold = true
	pos, end := d.name.Start(), d.name.End()
	if at != nil {
		pos, end = at.Span()
	}
	*diags = append(*diags, &lang.Diagnostic{
		Severity: lang.Error, Pos: pos, End: end,
		Summary: fmt.Sprintf("%s is read through a chain of more than %s declarations, each reading the next (the limit on a chain of references)", d.name.Name, lang.FormatNumber(MaxDependencyDepth)),
		Notes:   []string{"hint: declare each value after the ones it reads: a chain written in that order is checked one link at a time, however long"},
	})
}

func (p *program) checkLet(d *decl) bool {
	c := p.compile(d.letStmt().Value, scope{}, &p.diags)
	if c == nil {
		return false
	}
	d.value, d.typ = c, c.typ
	return true
}

// fieldDef describes a NAME = VALUE field: its dimension, the unit its
// "write its unit" hint suggests, and what it means.
type fieldDef struct {
	dim     lang.Dim
	example string
	doc     string
}

// checkField compiles a field's expression once, checks its dimension and
// keeps it for every job that inherits it; false when it has errors.
func (p *program) checkField(f *lang.Field, def fieldDef) bool {
	if c, seen := p.fields[f]; seen {
		return c != nil
	}
	c := p.compile(f.Value, scope{}, &p.diags) // a constant may be shared: never modified here
	if c != nil && c.konst != nil && isBareZero(f.Value) {
		// 0 is 0 in every unit.
		c = p.literal(f.Value, Value{Type: value.NumType(def.dim), Num: c.konst.Num})
	}
	if c != nil && (c.typ.Kind != Number || c.typ.Dim != def.dim) {
		p.wrongDimension(f, def, c.typ)
		c = nil
	}
	switch {
	case c != nil && c.konst != nil && (!plannerChecked(f.Name.Name) || plainNumber(f.Value) != nil && plannerProblem(f.Name.Name, *c.konst) == ""):
		// A constant (and a number the planner's rules accept, which they
		// need not check again): nothing to compute or keep per
		// evaluation. A shared one (literal) has no slot already; a folded
		// one is this field's.
		if c.field != -1 {
			c.field = -1
		}
	case c != nil:
		// A planner's rule checks the field's value, each field where it
		// is written: a slot of its own, so a shared constant is copied.
		if c.konst != nil {
			k := *c
			c = &k
		}
		c.field = int32(p.nfields)
		p.nfields++
	}
	if c != nil && c.konst != nil && c.field == -1 && plainNumber(f.Value) != nil {
		// A number that checked: fieldValue reads it from the field
		// itself, so the map keeps no entry for most of a file's fields.
		return true
	}
	p.fields[f] = c
	return c != nil
}

// plainNumber is e when it is a number written as such (in parentheses or
// not), other than a bare 0, which takes its field's dimension; else nil.
func plainNumber(e lang.Expr) *lang.NumberLit {
	if isBareZero(e) {
		return nil
	}
	n, _ := unparen(e).(*lang.NumberLit)
	return n
}

func (p *program) wrongDimension(f *lang.Field, def fieldDef, got Type) {
	pos, end := f.Value.Span()
	name := f.Name.Name
	if lit, ok := unparen(f.Value).(*lang.NumberLit); ok && p.unitWords[lit.Start()] != nil {
		// A unit word read as a unit ("720 gb"): its syntax error is the one
		// told, with a hint in the field's dimension.
		fix := lit.Digits()
		if def.dim != lang.Count {
			fix = unitHint(&lang.Name{Parts: []*lang.Ident{&f.Name}}, lit.Digits(), def.dim)
		}
		p.unitWords[lit.Start()].Notes = []string{fmt.Sprintf("hint: %s is %s: write %s", name, def.dim.Phrase(), fix)}
		return
	}
	if lit, ok := unparen(f.Value).(*lang.NumberLit); ok && lit.UnitOf() == nil && def.dim != lang.Count {
		p.errorAt(pos, end, fmt.Sprintf("%s is %s; write its unit, e.g. %s", name, def.dim.Phrase(), unitHint(&lang.Name{Parts: []*lang.Ident{&f.Name}}, lit.Digits(), def.dim)))
		return
	}
	if lit, ok := unparen(f.Value).(*lang.NumberLit); ok && def.dim == lang.Price && lit.Dim() == lang.Money {
		p.errorAt(pos, end, fmt.Sprintf("%s is a price, but %s is money: write %s/h", name, lit.Text, strings.TrimSpace(lit.Text)))
		return
	}
	what := got.Phrase()
	if lit, ok := unparen(f.Value).(*lang.NumberLit); ok {
		what = lit.Text + " is " + what
	} else {
		what = "this is " + what
	}
	p.errorAt(pos, end, fmt.Sprintf("%s is a %s, but %s", name, dimPhrase(def.dim), what))
}

func dimPhrase(d lang.Dim) string {
	switch d {
	case lang.Price:
		return "price (USD per device-hour)"
	case lang.Count:
		return "count (a bare number)"
	}
	return d.String()
}

func (p *program) unknownFieldDecl(f *lang.Field, what string, known []string) {
	msg := fmt.Sprintf("%s has no field %s", what, f.Name.Name)
	if sug := suggest.Closest(f.Name.Name, known); sug != "" {
		msg += "; did you mean " + sug + "?"
	} else {
		msg += "; its fields are " + strings.Join(known, ", ")
	}
	p.errorAt(f.Name.Start(), f.Name.End(), msg)
}

func (p *program) duplicateField(f, prev *lang.Field) {
	p.diags = append(p.diags, &lang.Diagnostic{
		Severity: lang.Error, Summary: f.Name.Name + " is set twice",
		Pos: f.Name.Start(), End: f.Name.End(), Label: "set again here",
		Related: []lang.Related{{Pos: prev.Name.Start(), End: prev.Name.End(), Label: "first set here"}},
	})
}

// blockFields checks the NAME = VALUE fields of a pool or request block
// against their definitions — unknown and repeated names, dimensions. It
// returns the good fields, each name once, and whether all of them were
// good.
func (p *program) blockFields(fields []*lang.Field, what string, defs map[string]fieldDef) (fieldList, bool) {
	var byName fieldList // at most one per definition: a short list, not a map per block
	ok := true
	for _, f := range fields {
		def, known := defs[f.Name.Name]
		if !known {
			p.unknownFieldDecl(f, what, sortedKeys(defs))
			ok = false
			continue
		}
		if prev := byName.get(f.Name.Name); prev != nil {
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

// poolPlan is a checked pool: its fields by name.
type poolPlan struct {
	fields fieldList
}

// fieldList is a checked block's good fields, each name once, in source
// order.
type fieldList []*lang.Field

// get returns the field named name, or nil.
func (l fieldList) get(name string) *lang.Field {
	for _, f := range l {
		if f.Name.Name == name {
			return f
		}
	}
	return nil
}

func (p *program) checkPool(d *decl) bool {
	fields, ok := p.blockFields(d.poolStmt().Fields, "a pool", poolFields)
	d.pl = &poolPlan{fields: fields}
	return ok
}

// requestPlan is a checked request: its fields by name.
type requestPlan struct {
	fields fieldList
}

func (p *program) checkRequest(d *decl) bool {
	fields, ok := p.blockFields(d.requestStmt().Fields, "a request", requestFields)
	d.rq = &requestPlan{fields: fields}
	return ok
}
