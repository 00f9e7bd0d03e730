package eval

import (
	"fmt"
	"math"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// requestState is what one evaluation computed for a request.
type requestState struct {
	req priority.Request
}

func (s *Scenario) evalRequest(d *check.Decl) bool {
	rs := &requestState{req: priority.NewRequest()}
	s.of(d).req = rs
	ok := true
	for _, f := range d.RequestStmt().Fields {
		if d.Request.Fields.Get(f.Name.Name) != f {
			continue
		}
		v, vok := s.fieldValue(f)
		if !vok {
			ok = false
			continue
		}
		field, _ := priority.ParseField(f.Name.Name)
		ev := check.ToEngine(v.Num, check.RequestFields[f.Name.Name].Dim)
		if msg := checkRequestValue(field, ev); msg != "" {
			pos, end := f.Value.Span()
			s.ev.errorAt(pos, end, msg)
			ok = false
			continue
		}
		rs.req.Set(field, ev)
	}
	return ok
}

// checkRequestValue applies kapsl's field types: whole numbers, not
// negative, below 2^53, priority at most 255.
func checkRequestValue(f priority.Field, v float64) string {
	unit := map[priority.Field]string{priority.SLADeadline: " milliseconds", priority.InputSize: " bytes", priority.Flops: " FLOPs"}[f]
	switch {
	case v < 0:
		return fmt.Sprintf("%s cannot be negative", f)
	case v != math.Trunc(v):
		whole := "a whole number"
		if unit != "" {
			whole += " of" + unit
		}
		return fmt.Sprintf("%s must be %s; it is %s", f, whole, units.FormatNumber(v))
	case v >= priority.MaxExact:
		return fmt.Sprintf("%s is %s%s, too large: numbers must be below 2^53", f, units.FormatNumber(v), unit)
	case f == priority.Priority && v > priority.MaxPriority:
		return fmt.Sprintf("priority is %s; it must be between 0 and 255", units.FormatNumber(v))
	}
	return ""
}

func (s *Scenario) requestField(r *check.Ref, out *sink) (Value, bool) {
	f, _ := priority.ParseField(r.Field)
	v, present := s.of(r.Decl).req.req.Get(f)
	if !present {
		if !r.Decl.Partial { // else the field may be on the line a syntax error took
			pos, end := r.Node.Span()
			out.errorAt(pos, end, fmt.Sprintf("request %s has no %s", r.Decl.Name.Name, r.Field))
		}
		return Value{}, false
	}
	def := check.RequestFields[r.Field]
	return NumberValue(v/check.EngineScale(def.Dim), def.Dim), true
}

// rulesState is the ruleset one evaluation classifies with.
type rulesState struct {
	rs *priority.Ruleset
}

func (s *Scenario) classifyRef(r *check.Ref) (Value, bool) {
	class, _ := s.of(r.Decl).rs.rs.Classify(&s.of(r.Second).req.req)
	return Value{Type: ClassType, Str: string(class)}, true
}

// evalRules gives the evaluation its ruleset: the one compiled at check,
// or one compiled with this evaluation's values.
func (s *Scenario) evalRules(d *check.Decl) bool {
	if !d.Rules.Dynamic {
		s.of(d).rs = &rulesState{rs: d.Rules.Ruleset}
		return true
	}
	var dynamic bool
	read := func(r *check.Ref) (Value, bool) {
		if !s.force(r.Decl) {
			return Value{}, false
		}
		return s.refValue(r, &s.ev)
	}
	rules, ok := s.p.RuleConds(d, read, &s.ev.diags, &dynamic)
	if !ok {
		return false
	}
	rs, ok := s.p.CompileRules(d, rules, &s.ev.diags)
	if !ok {
		return false
	}
	s.of(d).rs = &rulesState{rs: rs}
	return true
}

// Ruleset returns the compiled ruleset of that name, ready to classify
// requests; it is immutable and safe for concurrent use.
func (s *Scenario) Ruleset(name string) (*priority.Ruleset, bool) {
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclRules || s.of(d).rs == nil {
		return nil, false
	}
	return s.of(d).rs.rs, true
}

// RuleCoverage reports, for a ruleset, how many of the file's classify
// calls each rule (by name, "else" last) gave the class to: the calls in
// let values and in the given expectations (all of them when expects is
// nil), each counted once.
func (s *Scenario) RuleCoverage(name string, expects []*Expectation) ([]string, []int, bool) {
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclRules || s.of(d).rs == nil {
		return nil, nil, false
	}
	rs := s.of(d).rs.rs
	names := make([]string, len(d.RulesStmt().Rules)+1)
	for i := range names {
		if i == len(names)-1 {
			names[i] = "else"
			continue
		}
		names[i] = rs.RuleName(i)
	}
	fired := make([]int, len(names))
	count := func(c *check.Compiled) {
		if c == nil {
			return
		}
		for _, r := range c.Refs {
			if r.Kind != check.RefClassify || r.Decl != d || s.of(r.Second).state != check.Done {
				continue
			}
			_, rule := rs.Classify(&s.of(r.Second).req.req)
			if rule < 0 {
				rule = len(fired) - 1
			}
			fired[rule]++
		}
	}
	for _, x := range s.p.Order {
		if x.Kind == check.DeclLet || x.Kind == check.DeclParam {
			count(x.Value)
		}
	}
	if expects == nil {
		expects = s.p.Expects
	}
	for _, e := range expects {
		for _, c := range []*check.Compiled{e.X, e.Want, e.Tol, e.Within} {
			count(c)
		}
	}
	return names, fired, true
}

// RulesetLines names the file that declares a ruleset and the line each of
// its rules is written on, else last; "" and nil when there is no such
// ruleset.
func (s *Scenario) RulesetLines(name string) (file string, lines []int) {
	for _, f := range s.Files() {
		for _, st := range f.Stmts {
			rs, ok := st.(*lang.Rules)
			if !ok || rs.Name.Name != name {
				continue
			}
			for _, r := range rs.Rules {
				lines = append(lines, r.Pos.Line)
			}
			return f.Name, append(lines, rs.Else.Start().Line)
		}
	}
	return "", nil
}
