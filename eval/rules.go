package eval

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// requestFields are a request's fields, with their dimensions.
var requestFields = map[string]fieldDef{
	"priority":     {lang.Count, "", "0–255; 0 is the explicit high-priority override (default 1)"},
	"sla_deadline": {lang.Duration, "ms", "deadline the request must meet (optional)"},
	"batch_size":   {lang.Count, "", "requests in the batch (default 1)"},
	"input_size":   {lang.Data, " B", "size of the input (optional)"},
	"flops":        {lang.Compute, " FLOP", "estimated compute (optional)"},
}

// engineScale converts a base-unit value of dimension d into the
// classification engine's units (milliseconds, bytes, FLOPs).
func engineScale(d lang.Dim) float64 { return math.Pow(1000, float64(d[0])) }

func toEngine(v float64, d lang.Dim) float64 {
	x := v * engineScale(d)
	if math.Abs(x) >= 1e15 {
		// Rounding to 15 significant digits would drop integer digits
		// here, and 2^53 would pass the limit as 2^53 − 2.
		return x
	}
	return lang.Clean(x)
}

// requestState is what one evaluation computed for a request.
type requestState struct {
	req priority.Request
}

func (s *Scenario) evalRequest(d *decl) bool {
	rs := &requestState{req: priority.NewRequest()}
	s.of(d).req = rs
	ok := true
	for _, f := range d.requestStmt().Fields {
		if d.rq.fields.get(f.Name.Name) != f {
			continue
		}
		v, vok := s.fieldValue(f)
		if !vok {
			ok = false
			continue
		}
		field, _ := priority.ParseField(f.Name.Name)
		ev := toEngine(v.Num, requestFields[f.Name.Name].dim)
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
		return fmt.Sprintf("%s must be %s; it is %s", f, whole, lang.FormatNumber(v))
	case v >= priority.MaxExact:
		return fmt.Sprintf("%s is %s%s, too large: numbers must be below 2^53", f, lang.FormatNumber(v), unit)
	case f == priority.Priority && v > priority.MaxPriority:
		return fmt.Sprintf("priority is %s; it must be between 0 and 255", lang.FormatNumber(v))
	}
	return ""
}

func (s *Scenario) requestField(r *ref, out *sink) (Value, bool) {
	f, _ := priority.ParseField(r.field)
	v, present := s.of(r.d).req.req.Get(f)
	if !present {
		if !r.d.partial { // else the field may be on the line a syntax error took
			pos, end := r.node.Span()
			out.errorAt(pos, end, fmt.Sprintf("request %s has no %s", r.d.name.Name, r.field))
		}
		return Value{}, false
	}
	def := requestFields[r.field]
	return NumberValue(v/engineScale(def.dim), def.dim), true
}

// rulesPlan is a checked ruleset. When its conditions read no
// declaration, it is compiled once, at check; otherwise each evaluation
// compiles it with that evaluation's values.
type rulesPlan struct {
	rs      *priority.Ruleset
	dynamic bool
}

// rulesState is the ruleset one evaluation classifies with.
type rulesState struct {
	rs *priority.Ruleset
}

func (s *Scenario) classifyRef(r *ref) (Value, bool) {
	class, _ := s.of(r.d).rs.rs.Classify(&s.of(r.d2).req.req)
	return Value{Type: ClassType, Str: string(class)}, true
}

// checkRules checks each rule's condition and, when the conditions read
// only constants, compiles the ruleset into the classification engine's
// typed closures and warns about rules that cannot fire.
func (p *program) checkRules(d *decl) bool {
	plan := &rulesPlan{}
	d.rs = plan
	rules, ok := p.ruleConds(d, nil, &p.diags, &plan.dynamic)
	if !ok {
		return false
	}
	if plan.dynamic {
		return true
	}
	rs, ok := p.compileRules(d, rules, &p.diags)
	plan.rs = rs
	return ok
}

// evalRules gives the evaluation its ruleset: the one compiled at check,
// or one compiled with this evaluation's values.
func (s *Scenario) evalRules(d *decl) bool {
	if !d.rs.dynamic {
		s.of(d).rs = &rulesState{rs: d.rs.rs}
		return true
	}
	var dynamic bool
	read := func(r *ref) (Value, bool) {
		if !s.force(r.d) {
			return Value{}, false
		}
		return s.refValue(r, &s.ev)
	}
	rules, ok := s.p.ruleConds(d, read, &s.ev.diags, &dynamic)
	if !ok {
		return false
	}
	rs, ok := s.p.compileRules(d, rules, &s.ev.diags)
	if !ok {
		return false
	}
	s.of(d).rs = &rulesState{rs: rs}
	return true
}

// ruleConds translates each rule's condition into the engine's IR. With
// read nil (the check pass), a condition that reads a declaration's value
// sets dynamic and stands for a placeholder; an evaluation compiling its
// own ruleset passes read, which gives the values of its declarations.
func (p *program) ruleConds(d *decl, read readRef, diags *lang.Diagnostics, dynamic *bool) ([]priority.Rule, bool) {
	var rules []priority.Rule
	ok := true
	labels := map[string]*lang.Ident{}
	for _, r := range d.rulesStmt().Rules {
		cc := condCompiler{p: p, read: read, diags: diags, dynamic: dynamic}
		c, t := cc.cond(r.When)
		if t.Kind != Invalid && t.Kind != Bool {
			pos, end := r.When.Span()
			*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end,
				Summary: fmt.Sprintf("a rule's condition must be true or false; this is %s", t.Phrase())})
			ok = false
			continue
		}
		if !cc.ok || t.Kind == Invalid {
			ok = false
			continue
		}
		label := ""
		if r.Label != nil {
			label = r.Label.Name
			if prev := labels[label]; prev != nil {
				*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: r.Label.Start(), End: r.Label.End(),
					Summary: fmt.Sprintf("rule label %s is used twice in ruleset %s", label, d.name.Name)})
				ok = false
			}
			labels[label] = r.Label
		}
		rules = append(rules, priority.Rule{Label: label, When: c, Class: priority.Class(r.Class.Name)})
	}
	return rules, ok
}

// compileRules builds the engine's ruleset and warns about rules that can
// never fire.
func (p *program) compileRules(d *decl, rules []priority.Rule, diags *lang.Diagnostics) (*priority.Ruleset, bool) {
	rs, err := priority.Compile(rules, priority.Class(d.rulesStmt().Else.Name))
	if err != nil {
		*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: d.name.Start(), End: d.name.End(), Summary: err.Error()})
		return nil, false
	}
	for _, sh := range rs.Shadowed() {
		r := d.rulesStmt().Rules[sh.Rule]
		pos, end := r.When.Span()
		diag := &lang.Diagnostic{Severity: lang.Warning, Pos: pos, End: end}
		if sh.By < 0 {
			diag.Summary = fmt.Sprintf("%s can never fire: no request satisfies its condition", ruleTitle(rs, sh.Rule))
		} else {
			by := d.rulesStmt().Rules[sh.By]
			bp, be := by.When.Span()
			diag.Summary = fmt.Sprintf("%s can never fire: every request it matches is already taken by an earlier rule", ruleTitle(rs, sh.Rule))
			diag.Label = "never fires"
			diag.Related = []lang.Related{{Pos: bp, End: be, Label: ruleTitle(rs, sh.By) + " already covers it"}}
		}
		*diags = append(*diags, diag)
	}
	return rs, true
}

// ruleTitle names rule i in a message: "rule small" by its label, or
// "rule 2" (RuleName's own spelling) when it has none.
func ruleTitle(rs *priority.Ruleset, i int) string {
	n := rs.RuleName(i)
	if strings.HasPrefix(n, "rule ") {
		return n
	}
	return "rule " + n
}

// Ruleset returns the compiled ruleset of that name, ready to classify
// requests; it is immutable and safe for concurrent use.
func (s *Scenario) Ruleset(name string) (*priority.Ruleset, bool) {
	d, ok := s.p.decls[name]
	if !ok || d.kind != declRules || s.of(d).rs == nil {
		return nil, false
	}
	return s.of(d).rs.rs, true
}

// RuleCoverage reports, for a ruleset, how many of the file's classify
// calls each rule (by name, "else" last) gave the class to: the calls in
// let values and in the given expectations (all of them when expects is
// nil), each counted once.
func (s *Scenario) RuleCoverage(name string, expects []*Expectation) ([]string, []int, bool) {
	d, ok := s.p.decls[name]
	if !ok || d.kind != declRules || s.of(d).rs == nil {
		return nil, nil, false
	}
	rs := s.of(d).rs.rs
	names := make([]string, len(d.rulesStmt().Rules)+1)
	for i := range names {
		if i == len(names)-1 {
			names[i] = "else"
			continue
		}
		names[i] = rs.RuleName(i)
	}
	fired := make([]int, len(names))
	count := func(c *compiled) {
		if c == nil {
			return
		}
		for _, r := range c.refs {
			if r.kind != refClassify || r.d != d || s.of(r.d2).state != done {
				continue
			}
			_, rule := rs.Classify(&s.of(r.d2).req.req)
			if rule < 0 {
				rule = len(fired) - 1
			}
			fired[rule]++
		}
	}
	for _, x := range s.p.order {
		if x.kind == declLet || x.kind == declParam {
			count(x.value)
		}
	}
	if expects == nil {
		expects = s.p.expects
	}
	for _, e := range expects {
		for _, c := range []*compiled{e.x, e.want, e.tol, e.within} {
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
