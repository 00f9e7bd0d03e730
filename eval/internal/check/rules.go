package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// RequestFields are a request's fields, with their dimensions.
var RequestFields = map[string]fieldDef{
	"priority":     {units.Count, "", "0–255; 0 is the explicit high-priority override (default 1)"},
	"sla_deadline": {units.Duration, "ms", "deadline the request must meet (optional)"},
	"batch_size":   {units.Count, "", "requests in the batch (default 1)"},
	"input_size":   {units.Data, " B", "size of the input (optional)"},
	"flops":        {units.Compute, " FLOP", "estimated compute (optional)"},
}

// EngineScale converts a base-unit value of dimension d into the
// classification engine's units (milliseconds, bytes, FLOPs).
func EngineScale(d units.Dim) float64 { return math.Pow(1000, float64(d[0])) }

// ToEngine is v, a base-unit value of dimension d, in the classification
// engine's units, rounded to 15 significant digits below 1e15.
func ToEngine(v float64, d units.Dim) float64 {
	x := v * EngineScale(d)
	if math.Abs(x) >= 1e15 {
		// Rounding to 15 significant digits would drop integer digits
		// here, and 2^53 would pass the limit as 2^53 − 2.
		return x
	}
	return units.Clean(x)
}

// rulesPlan is a checked ruleset. When its conditions read no
// declaration, it is compiled once, at check; otherwise each evaluation
// compiles it with that evaluation's values.
type rulesPlan struct {
	Ruleset *priority.Ruleset
	Dynamic bool
}

// checkRules checks each rule's condition and, when the conditions read
// only constants, compiles the ruleset into the classification engine's
// typed closures and warns about rules that cannot fire.
func (p *Program) checkRules(d *Decl) bool {
	plan := &rulesPlan{}
	d.Rules = plan
	rules, ok := p.RuleConds(d, nil, &p.Diags, &plan.Dynamic)
	if !ok {
		return false
	}
	if plan.Dynamic {
		return true
	}
	rs, ok := p.CompileRules(d, rules, &p.Diags)
	plan.Ruleset = rs
	return ok
}

// RuleConds translates each rule's condition into the engine's IR. With
// read nil (the check pass), a condition that reads a declaration's value
// sets dynamic and stands for a placeholder; an evaluation compiling its
// own ruleset passes read, which gives the values of its declarations.
func (p *Program) RuleConds(d *Decl, read ReadRef, diags *lang.Diagnostics, dynamic *bool) ([]priority.Rule, bool) {
	var rules []priority.Rule
	ok := true
	labels := map[string]*lang.Ident{}
	for _, r := range d.RulesStmt().Rules {
		cc := condCompiler{p: p, read: read, diags: diags, dynamic: dynamic}
		c, t := cc.cond(r.When)
		if t.Kind != value.Invalid && t.Kind != value.Bool {
			pos, end := r.When.Span()
			*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end,
				Summary: fmt.Sprintf("a rule's condition must be true or false; this is %s", t.Phrase())})
			ok = false
			continue
		}
		if !cc.ok || t.Kind == value.Invalid {
			ok = false
			continue
		}
		label := ""
		if r.Label != nil {
			label = r.Label.Name
			if prev := labels[label]; prev != nil {
				*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: r.Label.Start(), End: r.Label.End(),
					Summary: fmt.Sprintf("rule label %s is used twice in ruleset %s", label, d.Name.Name)})
				ok = false
			}
			labels[label] = r.Label
		}
		rules = append(rules, priority.Rule{Label: label, When: c, Class: priority.Class(r.Class.Name)})
	}
	return rules, ok
}

// CompileRules builds the engine's ruleset and warns about rules that can
// never fire.
func (p *Program) CompileRules(d *Decl, rules []priority.Rule, diags *lang.Diagnostics) (*priority.Ruleset, bool) {
	rs, err := priority.Compile(rules, priority.Class(d.RulesStmt().Else.Name))
	if err != nil {
		*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: d.Name.Start(), End: d.Name.End(), Summary: err.Error()})
		return nil, false
	}
	for _, sh := range rs.Shadowed() {
		r := d.RulesStmt().Rules[sh.Rule]
		pos, end := r.When.Span()
		diag := &lang.Diagnostic{Severity: lang.Warning, Pos: pos, End: end}
		if sh.By < 0 {
			diag.Summary = fmt.Sprintf("%s can never fire: no request satisfies its condition", ruleTitle(rs, sh.Rule))
		} else {
			by := d.RulesStmt().Rules[sh.By]
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
