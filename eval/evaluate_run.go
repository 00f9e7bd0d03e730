package eval

import (
	"errors"
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
)

// This file is the evaluate pass: it computes, into a new Scenario, the
// values of a checked program's lets and params, pools, requests and jobs,
// reading only what the check and compile passes built.

// evalKind is what an evaluation does with a kind of declaration: the
// evaluator's half of its row of declKinds (kinds.go).
type evalKind struct {
	// eval computes it in one evaluation; it reports whether it has a
	// value.
	eval func(s *Scenario, d *decl) bool
	// fields lists what may follow "NAME." (completion); nil for none.
	fields func(s *Scenario, d *decl) []string
}

// evalKinds is the evaluator's table, by declKind. It is filled by init
// because its rows' functions reach back to it.
var evalKinds [numDeclKinds]evalKind

func init() {
	evalKinds = [numDeclKinds]evalKind{
		declLet:   {eval: (*Scenario).evalLet},
		declParam: {eval: (*Scenario).evalLet},
		declPool: {eval: (*Scenario).evalPool,
			fields: func(*Scenario, *decl) []string { return sortedKeys(poolFields) }},
		declJob: {eval: (*Scenario).evalJob,
			fields: func(*Scenario, *decl) []string { return ResultNames() }},
		declRules: {eval: (*Scenario).evalRules},
		declRequest: {eval: (*Scenario).evalRequest,
			fields: func(*Scenario, *decl) []string { return sortedKeys(requestFields) }},
		declGroup:   {eval: (*Scenario).evalMembers, fields: (*Scenario).planningFieldNames},
		declCompare: {eval: (*Scenario).evalMembers, fields: (*Scenario).planningFieldNames},
		declSweep:   {eval: (*Scenario).evalSweep, fields: (*Scenario).planningFieldNames},
		declSolve:   {eval: (*Scenario).evalSolve, fields: (*Scenario).planningFieldNames},
	}
}

// evaluate computes every declaration of the program, params given in
// params standing in for their defaults.
func evaluate(p *program, params map[*decl]Value) *Scenario {
	s := evaluatePoint(p, params)
	for _, d := range p.order {
		s.force(d)
	}
	s.stack = nil
	return s
}

// force evaluates a declaration once. The check pass has ruled out
// cycles; a declaration with check errors is not evaluated.
func (s *Scenario) force(d *decl) bool {
	v := s.of(d)
	switch v.state {
	case done:
		return true
	case failed, visiting:
		return false
	}
	if !d.ok && d.kind != declJob {
		// A pool with a bad line still has its other lines' values
		// checked (a fractional device count), so that they are told now.
		if d.kind == declPool && d.pl != nil {
			s.evalPool(d)
		}
		v.state = failed
		return false
	}
	v.state = visiting
	ok := evalKinds[d.kind].eval(s, d)
	if ok {
		v.state = done
	} else {
		v.state = failed
	}
	return ok
}

func (s *Scenario) evalLet(d *decl) bool {
	if v, set := s.params[d]; set {
		*s.value(d) = v
		return true
	}
	v, ok := s.run(d.value, &s.ev)
	if !ok {
		return false
	}
	*s.value(d) = v
	return true
}

// fieldValue evaluates a field's compiled expression once per evaluation,
// for every job that inherits it.
func (s *Scenario) fieldValue(f *lang.Field) (Value, bool) {
	c, kept := s.p.fields[f]
	if !kept {
		// Not kept: a number that checked (checkField); every field
		// fieldValue is asked for was checked.
		if n := plainNumber(f.Value); n != nil {
			return NumberValue(n.Base(), n.Dim()), true
		}
		return Value{}, false
	}
	if c == nil {
		return Value{}, false
	}
	if c.field < 0 {
		return *c.konst, true
	}
	if fv := s.fieldVals[c.field]; fv.done {
		return fv.v, fv.ok
	}
	v, ok := s.run(c, &s.ev)
	if ok && plannerChecked(f.Name.Name) && c.typ.Kind == Number {
		ok = s.plannerRule(f.Name.Name, f, v)
	}
	s.fieldVals[c.field] = fieldValue{v, ok, true}
	return v, ok
}

// evalPool evaluates a pool's fields; their values are kept with the
// fields' (fieldValue).
func (s *Scenario) evalPool(d *decl) bool {
	ok := true
	for _, f := range d.pl.fields {
		if _, vok := s.fieldValue(f); !vok {
			ok = false
		}
	}
	return ok
}

// run evaluates a compiled expression against this evaluation; errors are
// reported into out at their position and ok is false. A ref to a
// declaration that could not be evaluated fails quietly: that
// declaration's own diagnostics say why.
func (s *Scenario) run(c *compiled, out *sink) (Value, bool) {
	if c.konst != nil {
		return *c.konst, true
	}
	env := exprEnv{}
	if c.prog != nil {
		env = exprEnv{N: make([]float64, c.nums), B: make([]bool, c.bools), S: make([]string, c.strs)}
	}
	var single Value
	for _, r := range c.refs {
		v, ok := s.refValue(r, out)
		if !ok {
			return Value{}, false
		}
		if c.prog == nil {
			single = v
			continue
		}
		switch r.typ.Kind {
		case Number:
			env.N[r.slot] = v.Num
		case Bool:
			env.B[r.slot] = v.Bool
		default:
			env.S[r.slot] = v.Str
		}
	}
	if c.prog == nil {
		return single, true
	}
	res, err := runProgram(c, env)
	if i, zero := divisorAt(err); zero {
		pos, end := c.sites.divs[i].Span()
		out.runtimeErrorAt(pos, end, "division by zero")
		return Value{}, false
	}
	if i, msg, ok := funcs.ArgErrorAt(err); ok {
		pos, end := c.sites.args[i].Span()
		out.runtimeErrorAt(pos, end, msg)
		return Value{}, false
	}
	pos, end := c.node.Span()
	if err != nil {
		out.runtimeErrorAt(pos, end, err.Error())
		return Value{}, false
	}
	v, ok := value.FromGo(res, c.typ)
	if !ok {
		out.runtimeErrorAt(pos, end, fmt.Sprintf("expected a %s, got %v", c.typ, res))
		return Value{}, false
	}
	if !finite(v) {
		out.runtimeErrorAt(pos, end, "the result is not a finite number")
		return Value{}, false
	}
	return v, true
}

// divisorAt reports which divisor an expr run's error names, when it is
// _div's.
func divisorAt(err error) (int, bool) {
	var z *zeroDivisor
	if errors.As(err, &z) {
		return z.index, true
	}
	return 0, false
}
