package eval

import (
	"regexp"
	"strings"
	"sync"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/lang"
)

// What an editor's completion and signature help read (gpl lsp): the
// fields each block sets and the parameters of each built-in, with their
// dimensions.

// FieldDoc is one field a block may set: its name, its dimension
// (units.Count for a fraction or a count) and one line on what it is.
type FieldDoc = check.FieldDoc

// BlockFields lists, sorted by name, the fields a block of the given kind
// sets: "pool", "job", "request", "factors", "ceilings", or "rules" (the
// request fields a rule's condition reads); nil for another kind.
func BlockFields(kind string) []FieldDoc { return check.BlockFields(kind) }

// ParamDoc is one parameter of a built-in: the word its usage writes
// ("mtbf"), its dimension in a planner's words ("duration") and an
// argument written with its unit ("720h"), "" when any value serves.
type ParamDoc struct {
	Word, Dim, Example string
}

// BuiltinParams lists the parameters of the built-in named, in order;
// false when there is no such built-in.
func BuiltinParams(name string) ([]ParamDoc, bool) {
	for _, b := range funcs.Table() {
		if b.Name != name {
			continue
		}
		out := make([]ParamDoc, len(b.Params))
		for j, p := range b.Params {
			out[j] = ParamDoc{Word: p.Word, Dim: p.Dim.String(), Example: p.Example}
		}
		return out, true
	}
	return nil, false
}

// KindOf is the kind of the declaration named, as Names gives it
// ("value", "pool", "job", "ruleset", "request", …); false when nothing of
// that name is declared. Unlike Names it looks up one name, in constant
// time: what an editor's hover asks on every move of the pointer.
func (s *Scenario) KindOf(name string) (string, bool) {
	d, ok := s.p.Decls[name]
	if !ok {
		return "", false
	}
	return check.DeclKinds[d.Kind].Noun, true
}

// codeShapes name the kinds of diagnostics by the shape of their summary,
// for those made without a Code of their own; each code is the name of the
// testdata/bad case that shows the kind, where there is one. The first
// shape that matches gives the code. They are compiled when first
// asked (by gpl lsp), not when every program starts.
var codeShapes = sync.OnceValue(func() []codeShape {
	return []codeShape{
		{"extends_cycle", regexp.MustCompile(`^cycle: .* extends itself`)},
		{"cycle", regexp.MustCompile(`^cycle: `)},
		{"import_error", regexp.MustCompile(`^cannot import `)},
		{"rule_unknown_field", regexp.MustCompile(`^unknown request field `)},
		{"unknown_function", regexp.MustCompile(`^unknown function `)},
		{"unknown_declaration", regexp.MustCompile(`^unknown (job|pool|ruleset|request|group|sweep|solve|compare) `)},
		{"pool_unknown_field", regexp.MustCompile(`^an? [a-z ]+ has no field `)},
		{"unknown_result_field", regexp.MustCompile(`^job \w+ has no `)},
		{"value_has_no_field", regexp.MustCompile(`^\w+ is a value; it has no field`)},
		{"duplicate_declaration", regexp.MustCompile(`^\w+ is declared twice`)},
		{"field_set_twice", regexp.MustCompile(`^\w+ is set twice`)},
		{"keyword_declared", regexp.MustCompile(` is a keyword and cannot be declared`)},
		{"missing_factor", regexp.MustCompile(`^the job has no \w+ factor`)},
		{"factor_out_of_range", regexp.MustCompile(`is a fraction in \[0, 1\]|is outside \[0, 1\]: a factor is a fraction`)},
		{"ceiling_below_factor", regexp.MustCompile(`ceiling .* is below its factor`)},
		{"division_by_zero", regexp.MustCompile(`division by zero`)},
		{"currency_mixed", regexp.MustCompile(`currencies do not mix`)},
		{"dimension_mismatch", regexp.MustCompile(`^cannot (add|subtract|compare|multiply|divide) `)},
		{"missing_unit", regexp.MustCompile(`; write its unit|; write \S+$`)},
		{"number_overflow", regexp.MustCompile(`^number .* is too large`)},
		{"sweep_too_many_points", regexp.MustCompile(`points, more than the .* a sweep may have`)},
		{"unknown_character", regexp.MustCompile(`^(syntax error: )?unexpected character`)},
		{"argument_count", regexp.MustCompile(` takes (no|one|two|three|four|\w+) arguments?\b`)},
		{"request_not_whole", regexp.MustCompile(`must be a whole number|must be between 0 and 255`)},
		{"request_missing_field", regexp.MustCompile(`^request \w+ has no `)},
		{"solve_no_answer", regexp.MustCompile(`^no \w+ between .* gives |holds for every .* so there is no value|cannot be evaluated at either end`)},
		{"expr_too_deep", regexp.MustCompile(`nested more than \d+ levels deep`)},
		{"rule_label_twice", regexp.MustCompile(`^rule label \w+ is used twice`)},
		{"schedule_outside_window", regexp.MustCompile(`is outside the pool's window`)},
		{"window_backwards", regexp.MustCompile(`the window ends before it starts`)},
		{"vary_unknown_input", regexp.MustCompile(`^cannot vary `)},
		{"reservation_hours_exceeded", regexp.MustCompile(`device-hours; its reservation offers`)},
		{"rule_conditional", regexp.MustCompile(`is not available (here|in a rule condition)`)},
		{"dimension_mismatch", regexp.MustCompile(`is (a|an) [a-z ()-]+, but |is money, but |is a price .*, but `)},
		{"type_mismatch", regexp.MustCompile(` needs (a|an|true|numbers) `)},
		{"missing_unit", regexp.MustCompile(`; write [$0-9]`)},
		{"misspelt_name", regexp.MustCompile(`; did you mean `)},
		{"expect_failure", regexp.MustCompile(`^expectation failed`)},
		{"result_outside_job", regexp.MustCompile(` is a job result; write `)},
	}
})

// codeShape is a code and the shape of the summaries it names.
type codeShape struct {
	code string
	re   *regexp.Regexp
}

// DiagnosticCode is a diagnostic's stable code: its own Code, else the
// kind its summary shows (cycle, import_error, dimension_mismatch, …),
// else syntax_error, runtime_error, warning or check_error by where it
// arose. An editor shows it beside the message (gpl lsp).
func DiagnosticCode(d *lang.Diagnostic) string {
	if d.Code != "" {
		return d.Code
	}
	for _, c := range codeShapes() {
		if c.re.MatchString(d.Summary) {
			return c.code
		}
	}
	switch {
	case strings.HasPrefix(d.Summary, "syntax error"):
		return "syntax_error"
	case d.Stage == lang.Running:
		return "runtime_error"
	case d.Severity == lang.Warning:
		return "warning"
	}
	return "check_error"
}
