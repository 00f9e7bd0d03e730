package eval

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// fieldDef describes a NAME = VALUE field: its dimension, the unit its
// "write its unit" hint suggests, and what it means.
type fieldDef struct {
	dim     lang.Dim
	example string
	doc     string
}

// poolFields are the fields of a pool; a job may set them too, and the
// job's value wins.
var poolFields = map[string]fieldDef{
	"devices": {lang.Count, "", "devices in the pool"},
	"hours":   {lang.Duration, "h", "wall time the pool is offered to the job"},
	"rate":    {lang.Price, " USD/h", "price of one offered device-hour"},
}

type poolState struct {
	fields map[string]*lang.Field
	values map[string]Value
}

type jobState struct {
	pool     *decl
	sites    map[string]*lang.Field // devices, hours, rate: where each came from
	factors  [goodput.NumFactors]*lang.Field
	ceilings [goodput.NumFactors]*lang.Field
	inputs   goodput.Inputs
	values   map[string]Value
	result   goodput.Result
}

// fieldValue evaluates a field's expression once, checks its dimension and
// caches the value for every job that inherits it.
func (s *Scenario) fieldValue(f *lang.Field, def fieldDef) (Value, bool) {
	if fv, ok := s.fieldVals[f]; ok {
		return fv.v, fv.ok
	}
	v, ok := s.evalField(f, def)
	s.fieldVals[f] = fieldValue{v, ok}
	return v, ok
}

func (s *Scenario) evalField(f *lang.Field, def fieldDef) (Value, bool) {
	c := s.compile(f.Value, scope{})
	if c == nil {
		return Value{}, false
	}
	pos, end := f.Value.Span()
	if c.typ.Kind != Number || c.typ.Dim != def.dim {
		s.wrongDimension(f, def, c.typ)
		return Value{}, false
	}
	_ = pos
	_ = end
	return s.run(c)
}

func (s *Scenario) wrongDimension(f *lang.Field, def fieldDef, got Type) {
	pos, end := f.Value.Span()
	name := f.Name.Name
	if lit, ok := unparen(f.Value).(*lang.NumberLit); ok && lit.Unit == nil && def.dim != lang.Count {
		ex := def.example
		if ex == "" {
			ex = exampleUnit(lit.Digits, def.dim)
		} else {
			ex = lit.Digits + ex
		}
		s.errorAt(pos, end, fmt.Sprintf("%s is %s; write its unit, e.g. %s", name, def.dim.Phrase(), ex))
		return
	}
	what := got.Phrase()
	if lit, ok := unparen(f.Value).(*lang.NumberLit); ok {
		what = lit.Text + " is " + what
	} else {
		what = "this is " + what
	}
	s.errorAt(pos, end, fmt.Sprintf("%s is a %s, but %s", name, dimPhrase(def.dim), what))
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

func (s *Scenario) unknownFieldDecl(f *lang.Field, what string, known []string) {
	msg := fmt.Sprintf("%s has no field %s", what, f.Name.Name)
	if sug := suggest(f.Name.Name, known); sug != "" {
		msg += "; did you mean " + sug + "?"
	} else {
		msg += "; its fields are " + strings.Join(known, ", ")
	}
	s.errorAt(f.Name.Pos, f.Name.EndPos, msg)
}

func (s *Scenario) evalPool(d *decl) bool {
	ps := &poolState{values: map[string]Value{}}
	d.pl = ps
	var ok bool
	ps.fields, ok = s.blockFields(d.pool.Fields, "a pool", poolFields, func(f *lang.Field, v Value) bool {
		ps.values[f.Name.Name] = v
		return true
	})
	return ok
}

// blockFields checks the NAME = VALUE fields of a pool or request block
// against their definitions — unknown and repeated names, dimensions — and
// hands each value to use, which reports its own errors. It returns the
// fields by name and whether all of them were good.
func (s *Scenario) blockFields(fields []*lang.Field, what string, defs map[string]fieldDef, use func(*lang.Field, Value) bool) (map[string]*lang.Field, bool) {
	byName := map[string]*lang.Field{}
	ok := true
	for _, f := range fields {
		def, known := defs[f.Name.Name]
		if !known {
			s.unknownFieldDecl(f, what, sortedKeys(defs))
			ok = false
			continue
		}
		if prev := byName[f.Name.Name]; prev != nil {
			s.duplicateField(f, prev)
			ok = false
			continue
		}
		byName[f.Name.Name] = f
		v, vok := s.fieldValue(f, def)
		if !vok || !use(f, v) {
			ok = false
		}
	}
	return byName, ok
}

func (s *Scenario) duplicateField(f, prev *lang.Field) {
	s.diags = append(s.diags, &lang.Diagnostic{
		Severity: lang.Error, Summary: f.Name.Name + " is set twice",
		Pos: f.Name.Pos, End: f.Name.EndPos, Label: "set again here",
		Related: []lang.Related{{Pos: prev.Name.Pos, End: prev.Name.EndPos, Label: "first set here"}},
	})
}

// evalJob gathers a job's inputs (its own, then its parent's, then its
// pool's), runs the goodput engine and maps any input error back to the
// line that gave the value. When the pool or parent is missing or has
// errors, the job's own lines are still checked, so that their independent
// errors are reported too.
func (s *Scenario) evalJob(d *decl) bool {
	js := &jobState{sites: map[string]*lang.Field{}, values: map[string]Value{}}
	d.jb = js
	based := s.jobBase(d, js)
	ok := s.jobItems(d, js)
	if !based {
		if ok {
			s.checkOwnInputs(d, js)
		}
		return false
	}
	if !ok {
		return false
	}
	return s.solveJob(d, js)
}

// jobBase takes what a job inherits from its parent (extends) or pool
// (on); false when that is missing or has errors, already reported.
func (s *Scenario) jobBase(d *decl, js *jobState) bool {
	j := d.job
	switch {
	case j.Extends != nil:
		parent, found := s.decls[j.Extends.Name]
		if !found || parent.kind != declJob {
			s.badTarget(j.Extends, "job", declJob)
			return false
		}
		if parent.state == visiting {
			s.errorAt(j.Extends.Pos, j.Extends.EndPos, "cycle: "+d.name.Name+" extends itself through "+parent.name.Name)
			return false
		}
		if !s.force(parent) {
			return false
		}
		pj := parent.jb
		js.pool = pj.pool
		for k, v := range pj.sites {
			js.sites[k] = v
		}
		js.factors, js.ceilings = pj.factors, pj.ceilings
	case j.On != nil:
		p, found := s.decls[j.On.Name]
		if !found || p.kind != declPool {
			s.badTarget(j.On, "pool", declPool)
			return false
		}
		if !s.force(p) {
			return false
		}
		js.pool = p
	}
	return true
}

// jobItems reads a job block's own fields, factor blocks and expects over
// what jobBase inherited; false when one has an error, already reported.
func (s *Scenario) jobItems(d *decl, js *jobState) bool {
	ok := true
	own := map[string]*lang.Field{}
	for _, item := range d.job.Items {
		switch it := item.(type) {
		case *lang.Field:
			if _, known := poolFields[it.Name.Name]; !known {
				s.unknownFieldDecl(it, "a job", append(sortedKeys(poolFields), "factors", "ceilings"))
				ok = false
				continue
			}
			if prev := own[it.Name.Name]; prev != nil {
				s.duplicateField(it, prev)
				ok = false
				continue
			}
			own[it.Name.Name] = it
			js.sites[it.Name.Name] = it
		case *lang.FactorBlock:
			ok = s.factorBlock(js, it) && ok
		case *lang.Expect:
			s.expectNodes = append(s.expectNodes, expectSite{node: it, job: d})
		}
	}
	return ok
}

// checkOwnInputs reports the errors of a job's own values when its pool or
// parent has errors, so that they do not wait for that fix to show: a
// value's own errors (a wrong dimension, a runtime error) and those the
// goodput engine finds in the values together (a factor above 1, a ceiling
// below its own factor). Nothing that only follows from the missing pool or
// parent (a missing factor or device count) is reported, and no error
// twice: a parent's values are its own to report.
func (s *Scenario) checkOwnInputs(d *decl, js *jobState) {
	if !s.gatherInputs(d, js, true) {
		return
	}
	if _, err := goodput.Solve(js.inputs); err != nil {
		s.inputError(d, js, err)
	}
}

func (s *Scenario) badTarget(id *lang.Ident, what string, kind declKind) {
	var cands []string
	for name, x := range s.decls {
		if x.kind == kind {
			cands = append(cands, name)
		}
	}
	msg := "unknown " + what + " " + id.Name
	if x, found := s.decls[id.Name]; found {
		msg = fmt.Sprintf("%s is a %s, not a %s", id.Name, declKindNames[x.kind], what)
	}
	if sug := suggest(id.Name, cands); sug != "" {
		msg += "; did you mean " + sug + "?"
	}
	s.errorAt(id.Pos, id.EndPos, msg)
}

func (s *Scenario) factorBlock(js *jobState, b *lang.FactorBlock) bool {
	ok := true
	seen := map[goodput.Factor]*lang.Field{}
	for _, f := range b.Fields {
		fac, known := goodput.ParseFactor(f.Name.Name)
		if !known {
			s.unknownFieldDecl(f, b.Kind, []string{"scheduling", "runtime", "program", "S", "R", "P"})
			ok = false
			continue
		}
		if prev := seen[fac]; prev != nil {
			s.duplicateField(f, prev)
			ok = false
			continue
		}
		seen[fac] = f
		if b.Kind == "factors" {
			js.factors[fac] = f
		} else {
			js.ceilings[fac] = f
		}
	}
	return ok
}

var fractionDef = fieldDef{lang.Count, "", "a fraction in [0, 1]"}

func (s *Scenario) solveJob(d *decl, js *jobState) bool {
	if !s.gatherInputs(d, js, false) {
		return false
	}
	res, err := goodput.Solve(js.inputs)
	if err != nil {
		s.inputError(d, js, err)
		return false
	}
	js.result = res
	return true
}

// gatherInputs evaluates the job's values, its own or inherited, into
// js.inputs; false when one has an error, already reported. With partial
// set (the pool or parent has errors, and js holds only the job's own
// values), what the job does not set is not an error: a factor stands in
// as 0, which no check of the engine rejects, whatever the ceiling, and the
// device count and hours as 0, which cannot overflow.
func (s *Scenario) gatherInputs(d *decl, js *jobState, partial bool) bool {
	ok := true
	get := func(name string) (Value, bool, bool) {
		if f := js.sites[name]; f != nil {
			v, vok := s.fieldValue(f, poolFields[name])
			return v, true, vok
		}
		if js.pool != nil {
			if v, found := js.pool.pl.values[name]; found {
				js.sites[name] = js.pool.pl.fields[name]
				return v, true, true
			}
		}
		return Value{}, false, true
	}
	in := &js.inputs
	for _, name := range []string{"devices", "hours", "rate"} {
		v, set, vok := get(name)
		if !vok {
			ok = false
			continue
		}
		if !set {
			if name != "rate" && !partial {
				s.errorAt(d.name.Pos, d.name.EndPos, fmt.Sprintf("job %s has no %s: set %s in the job or in its pool", d.name.Name, name, name))
				ok = false
			}
			continue
		}
		js.values[name] = v
		switch name {
		case "devices":
			in.Devices = v.Num
		case "hours":
			in.Hours = lang.ToUnit(v.Num, lang.Units["h"])
		case "rate":
			in.Rate = goodput.Some(lang.ToUnit(v.Num, lang.Units["USD/h"]))
		}
	}
	for f := range goodput.NumFactors {
		if partial {
			in.Factors[f] = goodput.Some(0)
		}
		for i, site := range [][goodput.NumFactors]*lang.Field{js.factors, js.ceilings} {
			if site[f] == nil {
				continue
			}
			v, vok := s.fieldValue(site[f], fractionDef)
			if !vok {
				ok = false
				continue
			}
			if i == 0 {
				in.Factors[f] = goodput.Some(v.Num)
			} else {
				in.Ceilings[f] = goodput.Some(v.Num)
			}
		}
	}
	return ok
}

// inputError places each of a goodput engine error's input errors on the
// line that gave the offending value, one diagnostic each.
func (s *Scenario) inputError(d *decl, js *jobState, err error) {
	var ies goodput.InputErrors
	if !errors.As(err, &ies) {
		var ie *goodput.InputError
		if !errors.As(err, &ie) {
			s.errorAt(d.name.Pos, d.name.EndPos, err.Error())
			return
		}
		ies = goodput.InputErrors{ie}
	}
	for _, ie := range ies {
		s.placeInputError(d, js, ie)
	}
}

// placeInputError reports ie at the field that set the offending value, or
// at the job's name when no field did.
func (s *Scenario) placeInputError(d *decl, js *jobState, ie *goodput.InputError) {
	var site *lang.Field
	switch ie.Input {
	case goodput.InputFactor:
		site = js.factors[ie.Factor]
	case goodput.InputCeiling:
		site = js.ceilings[ie.Factor]
	default:
		site = js.sites[inputFieldName(ie.Input)]
	}
	msg := inputErrorMessage(ie)
	if site == nil {
		s.errorAt(d.name.Pos, d.name.EndPos, msg)
		return
	}
	pos, end := site.Value.Span()
	diag := s.errorAt(pos, end, msg)
	if ie.Kind == goodput.CeilingBelowFactor {
		if fs := js.factors[ie.Factor]; fs != nil {
			fp, fe := fs.Value.Span()
			diag.Related = []lang.Related{{Pos: fp, End: fe, Label: "the factor is set here"}}
		}
	}
	if site.Pos.Filename != d.name.Pos.Filename || !within(site, d.job) {
		diag.Notes = append(diag.Notes, "in job "+d.name.Name+", which inherits this value")
	}
}

// inputFieldName is the pool or job field that sets an engine input other
// than a factor or ceiling.
func inputFieldName(in goodput.Input) string {
	switch in {
	case goodput.InputDevices:
		return "devices"
	case goodput.InputHours:
		return "hours"
	case goodput.InputRate:
		return "rate"
	}
	return in.String()
}

// inputErrorMessage words an input error of the goodput engine for the
// user, in gpl's terms: "program factor is 1.2; a factor is a fraction in
// [0, 1]". Values are in the engine's units (hours, USD per device-hour).
func inputErrorMessage(e *goodput.InputError) string {
	var subject string
	switch e.Input {
	case goodput.InputFactor:
		subject = e.Factor.String() + " factor"
	case goodput.InputCeiling:
		subject = e.Factor.String() + " ceiling"
	default:
		subject = inputFieldName(e.Input)
	}
	switch e.Kind {
	case goodput.MissingFactor:
		return fmt.Sprintf("the job has no %s factor", e.Factor)
	case goodput.NotFinite:
		return fmt.Sprintf("%s is %g; it must be a finite number", subject, e.Value)
	case goodput.FactorOutOfRange:
		return fmt.Sprintf("%s is %g; a factor is a fraction in [0, 1]", subject, e.Value)
	case goodput.CeilingOutOfRange:
		return fmt.Sprintf("%s is %g; a ceiling is a fraction in [0, 1]", subject, e.Value)
	case goodput.CeilingBelowFactor:
		return fmt.Sprintf("%s %g is below its factor %g", subject, e.Value, e.Limit)
	case goodput.NegativeValue:
		return fmt.Sprintf("%s is %g; it must not be negative", subject, e.Value)
	case goodput.Overflow:
		if e.Input == goodput.InputRate {
			return fmt.Sprintf("rate %g makes the cost overflow; with these offered device-hours it must be at most %g", e.Value, e.Limit)
		}
		return fmt.Sprintf("hours %g makes the offered device-hours overflow; with these devices it must be at most %g", e.Value, e.Limit)
	}
	return fmt.Sprintf("%s is %g: %s", subject, e.Value, e.Kind)
}

func within(f *lang.Field, j *lang.Job) bool {
	return f.Pos.Offset >= j.Pos.Offset && f.Pos.Offset < j.EndPos.Offset
}
