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

type requestState struct {
	req    priority.Request
	fields map[string]*lang.Field
}

func (s *Scenario) evalRequest(d *decl) bool {
	rs := &requestState{req: priority.NewRequest()}
	d.rq = rs
	var ok bool
	rs.fields, ok = s.blockFields(d.request.Fields, "a request", requestFields, func(f *lang.Field, v Value) bool {
		field, _ := priority.ParseField(f.Name.Name)
		ev := toEngine(v.Num, requestFields[f.Name.Name].dim)
		if msg := checkRequestValue(field, ev); msg != "" {
			pos, end := f.Value.Span()
			s.errorAt(pos, end, msg)
			return false
		}
		rs.req.Set(field, ev)
		return true
	})
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

func (s *Scenario) requestField(r *ref) (Value, bool) {
	f, _ := priority.ParseField(r.field)
	v, present := r.d.rq.req.Get(f)
	if !present {
		pos, end := r.node.Span()
		s.errorAt(pos, end, fmt.Sprintf("request %s has no %s", r.d.name.Name, r.field))
		return Value{}, false
	}
	def := requestFields[r.field]
	return NumberValue(v/engineScale(def.dim), def.dim), true
}

type rulesState struct {
	rs     *priority.Ruleset
	fired  []int // how often each rule gave the class; the last entry is else
	labels []string
}

func (s *Scenario) classifyRef(r *ref) (Value, bool) {
	st := r.d.rs
	class, rule := st.rs.Classify(&r.d2.rq.req)
	if rule < 0 {
		rule = len(st.fired) - 1
	}
	st.fired[rule]++
	return Value{Type: ClassType, Str: string(class)}, true
}

// evalRules compiles each rule's condition into the classification
// engine's typed closures, and warns about rules that cannot fire.
func (s *Scenario) evalRules(d *decl) bool {
	var rules []priority.Rule
	ok := true
	labels := map[string]*lang.Ident{}
	for i, r := range d.rules.Rules {
		cc := condCompiler{s: s}
		c, t := cc.cond(r.When)
		if t.Kind != Invalid && t.Kind != Bool {
			pos, end := r.When.Span()
			s.errorAt(pos, end, fmt.Sprintf("a rule's condition must be true or false; this is %s", t.Phrase()))
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
				s.errorAt(r.Label.Pos, r.Label.EndPos, fmt.Sprintf("rule label %s is used twice in ruleset %s", label, d.name.Name))
				ok = false
			}
			labels[label] = r.Label
		}
		_ = i
		rules = append(rules, priority.Rule{Label: label, When: c, Class: priority.Class(r.Class.Name)})
	}
	if !ok {
		return false
	}
	rs, err := priority.Compile(rules, priority.Class(d.rules.Else.Name))
	if err != nil {
		s.errorAt(d.name.Pos, d.name.EndPos, err.Error())
		return false
	}
	d.rs = &rulesState{rs: rs, fired: make([]int, len(rules)+1)}
	for _, sh := range rs.Shadowed() {
		r := d.rules.Rules[sh.Rule]
		pos, end := r.When.Span()
		diag := &lang.Diagnostic{Severity: lang.Warning, Pos: pos, End: end}
		if sh.By < 0 {
			diag.Summary = fmt.Sprintf("%s can never fire: no request satisfies its condition", ruleTitle(rs, sh.Rule))
		} else {
			by := d.rules.Rules[sh.By]
			bp, be := by.When.Span()
			diag.Summary = fmt.Sprintf("%s can never fire: every request it matches is already taken by an earlier rule", ruleTitle(rs, sh.Rule))
			diag.Label = "never fires"
			diag.Related = []lang.Related{{Pos: bp, End: be, Label: ruleTitle(rs, sh.By) + " already covers it"}}
		}
		s.diags = append(s.diags, diag)
	}
	return true
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
	d, ok := s.decls[name]
	if !ok || d.kind != declRules || d.rs == nil {
		return nil, false
	}
	return d.rs.rs, true
}

// RuleCoverage reports, for a ruleset, how many times each rule (by name,
// "else" last) gave the class in the file's classify calls.
func (s *Scenario) RuleCoverage(name string) ([]string, []int, bool) {
	d, ok := s.decls[name]
	if !ok || d.kind != declRules || d.rs == nil {
		return nil, nil, false
	}
	names := make([]string, len(d.rs.fired))
	for i := range names {
		if i == len(names)-1 {
			names[i] = "else"
			continue
		}
		names[i] = d.rs.rs.RuleName(i)
	}
	return names, append([]int(nil), d.rs.fired...), true
}
