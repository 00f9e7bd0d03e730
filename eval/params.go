package eval

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is the params API: a param is a let whose value the caller
// may replace, and With evaluates the program again with new values.

// Params lists the file's params in source order, with the values this
// evaluation used.
func (s *Scenario) Params() []Named {
	defer s.lock()()
	var out []Named
	for _, d := range s.p.Params {
		if s.of(d).state == check.Done {
			out = append(out, Named{d.Name.Name, *s.value(d), true})
		}
	}
	return out
}

// SetSource is the file name under which ParseSetting places its
// diagnostics: they quote the NAME=VALUE text as line 1 of "--set".
const SetSource = "--set"

// ParseSetting reads a NAME=VALUE setting as gpl run --set gives it: NAME
// must be one of the file's params, and VALUE a constant of the param's
// dimension (0.85, 3.10 USD/h, 40 * 1h). The error is an *Error whose
// diagnostics quote the setting under the name SetSource; its Sources
// hold the text.
func (s *Scenario) ParseSetting(setting string) (_ string, _ Value, err error) {
	defer recoverInto(&err)
	src := lang.Sources{SetSource: []byte(setting)}
	fail := func(start, end int, msg string) (string, Value, error) {
		pos := lang.Position{Filename: SetSource, Offset: start, Line: 1, Column: 1 + len([]rune(setting[:start]))}
		endPos := lang.Position{Filename: SetSource, Offset: end, Line: 1, Column: 1 + len([]rune(setting[:end]))}
		d := &lang.Diagnostic{Severity: lang.Error, Summary: msg, Pos: pos, End: endPos}
		return "", Value{}, &Error{Diagnostics: lang.Diagnostics{d}, Sources: src}
	}
	name, _, found := strings.Cut(setting, "=")
	name = strings.TrimSpace(name)
	if !found || name == "" {
		return fail(0, len(setting), fmt.Sprintf("--set takes NAME=VALUE, not %q", setting))
	}
	nameStart := strings.Index(setting, name)
	nameEnd := nameStart + len(name)
	d, ok := s.p.Decls[name]
	switch {
	case !ok || d.Kind != check.DeclParam && d.Kind != check.DeclLet:
		var cands []string
		for _, p := range s.p.Params {
			cands = append(cands, p.Name.Name)
		}
		msg := "unknown param " + name
		if ok {
			msg = fmt.Sprintf("%s is a %s, not a param", name, check.DeclKinds[d.Kind].Noun)
		}
		if sug := suggest.Closest(name, cands); sug != "" {
			msg += "; did you mean " + sug + "?"
		} else if len(cands) == 0 {
			msg += "; the file declares no params"
		} else {
			sort.Strings(cands)
			msg += "; the params are " + check.Listed(cands)
		}
		return fail(nameStart, nameEnd, msg)
	case d.Kind == check.DeclLet:
		return fail(nameStart, nameEnd, fmt.Sprintf("%s is a let, not a param; declare it with param to set it from outside the file", name))
	case !d.Ok:
		return fail(nameStart, nameEnd, fmt.Sprintf("param %s has errors of its own; fix them before setting it", name))
	}
	valueStart := nameEnd + strings.Index(setting[nameEnd:], "=") + 1
	x, diags := lang.ParseExpr(SetSource, setting[valueStart:])
	if strings.TrimSpace(setting[valueStart:]) == "" {
		msg := fmt.Sprintf("the value of %s is empty; write it after the =", name)
		if d.Type.Kind == Number {
			msg += fmt.Sprintf(", e.g. %s=%s", name, strings.ReplaceAll(exampleValue(d.Type), " ", ""))
		}
		return fail(valueStart, len(setting), msg)
	}
	if diags.HasErrors() || x == nil {
		// The parser's own words (a number too large, a stray "="), placed
		// in the setting.
		for _, d := range diags {
			if d.Severity != lang.Error {
				continue
			}
			start := min(valueStart+d.Pos.Offset, len(setting))
			end := min(max(valueStart+d.End.Offset, start), len(setting))
			_, v, err := fail(start, end, "the value of "+name+": "+d.Summary)
			err.(*Error).Diagnostics[0].Notes = d.Notes
			return "", v, err
		}
		return fail(valueStart, len(setting), fmt.Sprintf("the value of %s is not an expression: %q", name, setting[valueStart:]))
	}
	var cd lang.Diagnostics
	c := s.p.CompileOutside(x, &cd)
	if c == nil {
		return fail(valueStart, len(setting), fmt.Sprintf("the value of %s does not check: %s", name, cd[0].Summary))
	}
	if len(c.Refs) > 0 {
		return fail(valueStart, len(setting), fmt.Sprintf("the value of %s must be a constant, such as %s", name, exampleValue(d.Type)))
	}
	if c.Type != d.Type {
		how := "write it as, e.g., " + exampleValue(d.Type)
		if ex, ok := check.SetExample(d, x); ok && c.Type.Kind == Number {
			switch {
			case d.Type.Dim == units.Count:
				how = "write it without a unit: " + ex
			case c.Type.Dim == units.Count:
				how = "write its unit, e.g. " + ex
			default:
				how = "write it as, e.g., " + ex
			}
		}
		return fail(valueStart, len(setting), fmt.Sprintf("%s is %s, but %s is %s; %s",
			name, d.Type.Phrase(), strings.TrimSpace(setting[valueStart:]), c.Type.Phrase(), how))
	}
	var out sink
	v, ok := s.run(c, &out)
	if !ok {
		return fail(valueStart, len(setting), fmt.Sprintf("the value of %s cannot be computed: %s", name, out.diags[0].Summary))
	}
	return name, v, nil
}

// exampleValue writes a value of type t as a --set would.
func exampleValue(t Type) string {
	switch {
	case t.Kind == Bool:
		return "true"
	case t.Kind != Number:
		return "a " + t.String()
	case t.Dim == units.Count:
		return "0.85"
	}
	return check.ExampleUnit("1", t.Dim)
}

// WithSettings evaluates the file again with settings, each NAME=VALUE as
// ParseSetting reads it (the command line's --set): s.WithSettings(
// "measured_runtime=0.85") is ParseSetting and With in one call. When any setting does
// not fit the file, the error is an *Error telling every one of them, each
// quoted under SetSource as its line (the second setting is line 2), and
// the scenario is nil. Otherwise it is the new evaluation, whose own
// diagnostics its Err gives; no settings, or a scenario whose file could
// not be read, give s itself.
func (s *Scenario) WithSettings(settings ...string) (_ *Scenario, err error) {
	defer recoverInto(&err)
	if len(settings) == 0 || len(s.p.Files) == 0 {
		return s, nil
	}
	params := map[string]Value{}
	var bad Error
	// The settings are the lines of one source, the Nth setting line N,
	// so that each diagnostic quotes its own.
	offset := 0
	for i, set := range settings {
		name, v, err := s.ParseSetting(set)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) {
				return nil, err
			}
			for _, d := range le.Diagnostics {
				d.Pos.Line, d.End.Line = i+1, i+1
				d.Pos.Offset += offset
				d.End.Offset += offset
			}
			bad.Diagnostics = append(bad.Diagnostics, le.Diagnostics...)
			bad.Sources = lang.Sources{SetSource: []byte(strings.Join(settings, "\n"))}
		}
		offset += len(set) + 1
		if err == nil {
			params[name] = v
		}
	}
	if len(bad.Diagnostics) > 0 {
		return nil, &bad
	}
	n, err := s.With(params)
	if n == nil {
		return nil, err
	}
	return n, nil
}

// With evaluates the file again with params replacing the defaults of the
// params of those names (see ParseSetting); the program is shared, not
// re-read or re-checked. The error is an *Error with this evaluation's
// diagnostics, as for Load; an unknown name or a value of the wrong type
// is an error too.
func (s *Scenario) With(params map[string]Value) (_ *Scenario, err error) {
	defer recoverInto(&err)
	return s.Evaluate(context.Background(), params)
}
