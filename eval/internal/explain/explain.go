// Package explain is the explainer behind the REPL's :explain: given a
// job, or a planning declaration of a scenario, and the name of one of
// its results, it writes the lines that show how the value is computed,
// with the numbers. It also lists, for completion, what may follow the
// name of a planning declaration.
//
// It imports none of package eval, which evaluates: what it reads of an
// evaluation it reads through the interfaces Job, Scenario and Point,
// which eval implements.
package explain

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// Job is an evaluated job as the explainer reads it.
type Job interface {
	// Get reads a result by name, aliases included; the error is the
	// one to report when the result is unknown or undefined.
	Get(name string) (value.Value, error)
	// Row is how the row d of the table of results spells its line when
	// no fixed formula does, given its value v: a formula to fill in, or
	// else a finished line; ok is false when the row has no say.
	Row(d *results.Def, v value.Value) (formula, line string, ok bool)
	// Decl is the job's declaration.
	Decl() *check.Decl
	// Lookup finds a declaration of the job's program by name, nil when
	// there is none.
	Lookup(name string) *check.Decl
}

// Result shows how the result of job j was computed, step by step with
// the numbers: first each derived result it is computed from, in the
// order they are needed, then the result itself, one line each. An input
// is explained by where its value was set. The error is j.Get's when the
// result is unknown or undefined.
func Result(j Job, result string) (string, error) {
	if _, err := j.Get(result); err != nil {
		return "", err
	}
	def := results.ByName()[result]
	if def.Input {
		return input(j, def.Name), nil
	}
	var lines []string
	seen := map[string]bool{}
	var walk func(name string) error
	walk = func(name string) error {
		d := results.ByName()[name]
		if seen[d.Name] || d.Input {
			return nil
		}
		seen[d.Name] = true
		for _, in := range d.Inputs {
			if err := walk(in); err != nil {
				return err
			}
		}
		line, err := step(j, d)
		if err != nil {
			return err
		}
		lines = append(lines, line)
		return nil
	}
	if err := walk(def.Name); err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}

// step is one line: name = formula = formula with values = value,
// unless the row spells its line itself.
func step(j Job, d *results.Def) (string, error) {
	v, err := j.Get(d.Name)
	if err != nil {
		return "", err
	}
	formula := d.Formula
	if f, line, ok := j.Row(d, v); ok {
		if line != "" {
			return line, nil
		}
		formula = f
	}
	if formula == "" {
		return d.Name + " = " + v.String(), nil
	}
	symbolic, numeric, err := substitute(j, formula)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s = %s = %s = %s", d.Name, symbolic, numeric, v), nil
}

// substitute fills in a formula's operands: once with their names, once
// with their values.
func substitute(j Job, formula string) (string, string, error) {
	var symbolic, numeric strings.Builder
	for {
		open := strings.IndexByte(formula, '{')
		if open < 0 {
			symbolic.WriteString(formula)
			numeric.WriteString(formula)
			return symbolic.String(), numeric.String(), nil
		}
		end := strings.IndexByte(formula[open:], '}') + open
		operand := formula[open+1 : end]
		v, err := j.Get(operand)
		if err != nil {
			return "", "", err
		}
		symbolic.WriteString(formula[:open] + operand)
		numeric.WriteString(formula[:open] + v.String())
		formula = formula[end+1:]
	}
}

// LeverFormula is the formula of lever.FACTOR: S × R × P with factor f at
// its ceiling.
func LeverFormula(f goodput.Factor) string {
	parts := make([]string, goodput.NumFactors)
	for i := range goodput.NumFactors {
		parts[i] = "{" + goodput.Factor(i).Short() + "}"
	}
	parts[f] = "{ceiling." + f.Short() + "}"
	return strings.Join(parts, " × ")
}

// CeilingFormula is the formula of ceiling_mpg for the inputs in: the
// product of the ceilings, with a factor standing in for a ceiling that
// is not set.
func CeilingFormula(in goodput.Inputs) string {
	parts := make([]string, goodput.NumFactors)
	for i := range goodput.NumFactors {
		f := goodput.Factor(i)
		if in.Ceilings[f].Set {
			parts[i] = "{ceiling." + f.Short() + "}"
		} else {
			parts[i] = "{" + f.Short() + "}"
		}
	}
	return strings.Join(parts, " × ")
}

// BestLever is the line of best_lever, whose value is v for the engine's
// result r: the gains the choice was made from.
func BestLever(r goodput.Result, v value.Value) string {
	gains := make([]string, goodput.NumFactors)
	for i := range goodput.NumFactors {
		f := goodput.Factor(i)
		gains[i] = fmt.Sprintf("gain.%s %s", f.Short(), value.NumberValue(r.Gain[f], units.Count))
	}
	why := "the factor with the largest gain"
	if !r.HasBestLever {
		why = "no ceiling raises mpg, so no factor"
	}
	return fmt.Sprintf("best_lever = %s (%s) = %s", why, strings.Join(gains, ", "), v)
}

// input says where an input's value was set: in the job, inherited from
// the job it extends, or from its pool.
func input(j Job, name string) string {
	v, _ := j.Get(name)
	line := name + " = " + v.String()
	d := j.Decl()
	var site *lang.Field
	what := ""
	switch {
	case strings.HasPrefix(name, "ceiling."):
		f, _ := goodput.ParseFactor(strings.TrimPrefix(name, "ceiling."))
		site = d.Job.Ceilings[f]
		what = "the " + f.String() + " ceiling"
		if site == nil {
			return fmt.Sprintf("%s, the %s factor %s: %s has no ceiling", line, f, f.Short(), f)
		}
	case name == "S" || name == "R" || name == "P":
		f, _ := goodput.ParseFactor(name)
		site = d.Job.Factors[f]
		what = "the " + f.String() + " factor"
	default:
		site = d.Job.Sites.Get(name)
		what = results.ByName()[name].Doc
	}
	return line + ", " + what + ", " + provenance(j, site)
}

// provenance names the declaration a field belongs to, as seen from j.
func provenance(j Job, site *lang.Field) string {
	if site == nil {
		return "not set"
	}
	self := j.Decl()
	for d := self; d != nil; {
		if check.JobHolds(d.JobStmt(), site) {
			if d == self {
				return "set in job " + d.Name.Name
			}
			return "inherited from job " + d.Name.Name
		}
		if d.JobStmt().Extends == nil {
			break
		}
		d = j.Lookup(d.JobStmt().Extends.Name)
	}
	if p := self.Job.Pool; p != nil {
		return "from pool " + p.Name.Name
	}
	return "set elsewhere"
}
