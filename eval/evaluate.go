package eval

import (
	"errors"
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/check"
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
	eval func(s *Scenario, d *check.Decl) bool
	// Fields lists what may follow "NAME." (completion); nil for none.
	fields func(s *Scenario, d *check.Decl) []string
}

// evalKinds is the evaluator's table, by declKind. It is filled by init
// because its rows' functions reach back to it.
var evalKinds [check.NumDeclKinds]evalKind

func init() {
	evalKinds = [check.NumDeclKinds]evalKind{
		check.DeclLet:   {eval: (*Scenario).evalLet},
		check.DeclParam: {eval: (*Scenario).evalLet},
		check.DeclPool: {eval: (*Scenario).evalPool,
			fields: func(*Scenario, *check.Decl) []string { return check.SortedKeys(check.PoolFields) }},
		check.DeclJob: {eval: (*Scenario).evalJob,
			fields: func(*Scenario, *check.Decl) []string { return ResultNames() }},
		check.DeclRules: {eval: (*Scenario).evalRules},
		check.DeclRequest: {eval: (*Scenario).evalRequest,
			fields: func(*Scenario, *check.Decl) []string { return check.SortedKeys(check.RequestFields) }},
		check.DeclGroup:   {eval: (*Scenario).evalMembers, fields: (*Scenario).planningFieldNames},
		check.DeclCompare: {eval: (*Scenario).evalMembers, fields: (*Scenario).planningFieldNames},
		check.DeclSweep:   {eval: (*Scenario).evalSweep, fields: (*Scenario).planningFieldNames},
		check.DeclSolve:   {eval: (*Scenario).evalSolve, fields: (*Scenario).planningFieldNames},
	}
}

// evaluate computes every declaration of the program, params given in
// params standing in for their defaults.
func evaluate(p *check.Program, params map[*check.Decl]Value) *Scenario {
	s := evaluateIn(p, params, nil, nil)
	if s.plain == nil {
		s.plainMade = &plainNumbers{m: map[*lang.Field]Value{}}
	}
	return s
}

// evaluateIn is evaluate under ctl (nil: no bound), reading plain numbers
// through plain when given (Evaluate's evaluations share one).
func evaluateIn(p *check.Program, params map[*check.Decl]Value, ctl *control, plain *plainNumbers) *Scenario {
	s := evaluatePoint(p, params)
	s.plain, s.ctl = newPlainNumbers(p), ctl
	if plain != nil {
		s.plain, s.cachePlain = plain, true
	}
	s.unc = newSampled(s) // nil without a distribution (uncertain.go)
	for _, d := range p.Order {
		s.force(d)
	}
	if s.unc != nil {
		s.trackOutputs()
	}
	// Every pool is figured and its capacity checked, so that the
	// scenario is complete, and read-only, once loaded.
	for _, d := range p.Order {
		if d.Kind == check.DeclPool {
			s.poolOf(d)
		}
	}
	s.stack = nil
	return s
}

// force evaluates a declaration once. The check pass has ruled out
// cycles; a declaration with check errors is not evaluated.
func (s *Scenario) force(d *check.Decl) bool {
	v := s.of(d)
	switch v.state {
	case check.Done:
		return true
	case check.Failed, check.Visiting:
		return false
	}
	if s.ctl != nil {
		s.ctl.check() // every declaration an evaluation computes
	}
	if !d.Ok && d.Kind != check.DeclJob {
		// A pool with a bad line still has its other lines' values
		// checked (a fractional device count), so that they are told now.
		if d.Kind == check.DeclPool && d.Pool != nil {
			s.evalPool(d)
		}
		v.state = check.Failed
		return false
	}
	v.state = check.Visiting
	ok := evalKinds[d.Kind].eval(s, d)
	if ok {
		v.state = check.Done
	} else {
		v.state = check.Failed
	}
	return ok
}

func (s *Scenario) evalLet(d *check.Decl) bool {
	if v, set := s.params[d]; set {
		*s.value(d) = v
		return true
	}
	v, ok := s.run(d.Value, &s.ev)
	if !ok {
		return false
	}
	*s.value(d) = v
	return true
}

// fieldValue evaluates a field's compiled expression once per evaluation,
// for every job that inherits it.
func (s *Scenario) fieldValue(f *lang.Field) (Value, bool) {
	c, kept := s.p.Fields[f]
	return s.fieldCompiled(f, c, kept)
}

// fieldCompiled is fieldValue of f, whose compiled expression (kept in
// Program.Fields) the caller has looked up: c, or kept false.
func (s *Scenario) fieldCompiled(f *lang.Field, c *check.Compiled, kept bool) (Value, bool) {
	if !kept {
		// Not kept: a number that checked (checkField); every field
		// fieldValue is asked for was checked.
		if (s.point || s.cachePlain || s.draw > 0) && s.plain != nil {
			return s.plain.get(f) // a what-if's point (whatif.go), an evaluation of Evaluate, a sample (uncertain.go)
		}
		if n := check.PlainNumber(f.Value); n != nil {
			return NumberValue(n.BaseDim()), true
		}
		return Value{}, false
	}
	if c == nil {
		return Value{}, false
	}
	if c.Field < 0 {
		return *c.Const, true
	}
	if fv := s.fieldVals[c.Field]; fv.done {
		return fv.v, fv.ok
	}
	v, ok := s.run(c, &s.ev)
	if ok && check.PlannerChecked(f.Name.Name) && c.Type.Kind == Number {
		ok = s.plannerRule(f.Name.Name, f, v)
	}
	s.fieldVals[c.Field] = fieldValue{v, ok, true}
	return v, ok
}

// evalPool evaluates a pool's fields; their values are kept with the
// fields' (fieldValue).
func (s *Scenario) evalPool(d *check.Decl) bool {
	ok := true
	for _, f := range d.Pool.Fields {
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
func (s *Scenario) run(c *check.Compiled, out *sink) (Value, bool) {
	if c.Const != nil {
		return *c.Const, true
	}
	if s.unc != nil && isDistAlone(c) {
		return s.distAlone(c, out) // a sample's draw, read without the expr machine (uncertain.go)
	}
	if s.samples != nil && c.Prog != nil {
		if v, ok := s.directCall(c, out); ok {
			return v, true // a built-in's call in a sample, without the expr machine (uncertain.go)
		}
	}
	env := check.ExprEnv{}
	if c.Prog != nil {
		env = check.ExprEnv{Numbers: make([]float64, c.Nums), Bools: make([]bool, c.Bools), Strings: make([]string, c.Strs)}
	}
	var single Value
	for _, r := range c.Refs {
		v, ok := s.refValue(r, out)
		if !ok {
			return Value{}, false
		}
		if c.Prog == nil {
			single = v
			continue
		}
		switch r.Type.Kind {
		case Number:
			env.Numbers[r.Slot] = v.Num
		case Bool:
			env.Bools[r.Slot] = v.Bool
		default:
			env.Strings[r.Slot] = v.Str
		}
	}
	if c.Prog == nil {
		return single, true
	}
	res, err := check.RunProgram(c, env)
	if err != nil {
		// Looked into only when there is one: errors.As costs an
		// allocation a call, and this is every sample's path.
		if i, zero := divisorAt(err); zero {
			pos, end := c.Sites.Divs[i].Span()
			out.runtimeErrorAt(pos, end, "division by zero")
			return Value{}, false
		}
		if i, msg, ok := funcs.ArgErrorAt(err); ok {
			pos, end := c.Sites.Args[i].Span()
			out.runtimeErrorAt(pos, end, msg)
			return Value{}, false
		}
		pos, end := c.Node.Span()
		out.runtimeErrorAt(pos, end, err.Error())
		return Value{}, false
	}
	v, ok := value.FromGo(res, c.Type)
	if !ok {
		pos, end := c.Node.Span()
		out.runtimeErrorAt(pos, end, fmt.Sprintf("expected a %s, got %v", c.Type, res))
		return Value{}, false
	}
	if !check.Finite(v) {
		pos, end := c.Node.Span()
		out.runtimeErrorAt(pos, end, "the result is not a finite number")
		return Value{}, false
	}
	return v, true
}

// divisorAt reports which divisor an expr run's error names, when it is
// _div's.
func divisorAt(err error) (int, bool) {
	var z *check.ZeroDivisor
	if errors.As(err, &z) {
		return z.Index, true
	}
	return 0, false
}
