package eval

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// Explain shows how one of the job's results was computed, step by step
// with the numbers: first each derived result it is computed from, in the
// order they are needed, then the result itself, one line each:
//
//	mpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215
//	cost_per_useful_hour = rate / mpg = $2.50/h / 0.28215 = $8.8605/h
//
// An input (a factor, a ceiling, devices, hours, rate) is explained by
// where its value was set. The result is named as for Get, aliases
// included; the error is Get's when the result is unknown or undefined.
func (j *Job) Explain(result string) (string, error) {
	if _, err := j.Get(result); err != nil {
		return "", err
	}
	def := results.ByName[result]
	if def.Input {
		return j.explainInput(def.Name), nil
	}
	var lines []string
	seen := map[string]bool{}
	var walk func(name string) error
	walk = func(name string) error {
		d := results.ByName[name]
		if seen[d.Name] || d.Input {
			return nil
		}
		seen[d.Name] = true
		for _, in := range d.Inputs {
			if err := walk(in); err != nil {
				return err
			}
		}
		line, err := j.explainStep(d)
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

// explainStep is one line: name = formula = formula with values = value,
// unless the row spells its line itself.
func (j *Job) explainStep(d *results.Def) (string, error) {
	v, err := j.Get(d.Name)
	if err != nil {
		return "", err
	}
	formula := d.Formula
	if explain := resultRuns[d.Index].explain; explain != nil {
		f, line := explain(j, v)
		if line != "" {
			return line, nil
		}
		formula = f
	}
	if formula == "" {
		return d.Name + " = " + v.String(), nil
	}
	symbolic, numeric, err := j.substitute(formula)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s = %s = %s = %s", d.Name, symbolic, numeric, v), nil
}

// substitute fills in a formula's operands: once with their names, once
// with their values.
func (j *Job) substitute(formula string) (string, string, error) {
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

// leverFormula is S × R × P with factor f at its ceiling.
func leverFormula(f goodput.Factor) string {
	parts := make([]string, goodput.NumFactors)
	for i := range goodput.NumFactors {
		parts[i] = "{" + goodput.Factor(i).Short() + "}"
	}
	parts[f] = "{ceiling." + f.Short() + "}"
	return strings.Join(parts, " × ")
}

// ceilingFormula is the product of the ceilings, with a factor standing in
// for a ceiling that is not set.
func (j *Job) ceilingFormula() string {
	parts := make([]string, goodput.NumFactors)
	for i := range goodput.NumFactors {
		f := goodput.Factor(i)
		if j.Inputs.Ceilings[f].Set {
			parts[i] = "{ceiling." + f.Short() + "}"
		} else {
			parts[i] = "{" + f.Short() + "}"
		}
	}
	return strings.Join(parts, " × ")
}

// explainBestLever lists the gains the choice was made from.
func (j *Job) explainBestLever(v Value) string {
	gains := make([]string, goodput.NumFactors)
	for i := range goodput.NumFactors {
		f := goodput.Factor(i)
		gains[i] = fmt.Sprintf("gain.%s %s", f.Short(), count(j.Result.Gain[f]))
	}
	why := "the factor with the largest gain"
	if !j.Result.HasBestLever {
		why = "no ceiling raises mpg, so no factor"
	}
	return fmt.Sprintf("best_lever = %s (%s) = %s", why, strings.Join(gains, ", "), v)
}

// explainInput says where an input's value was set: in the job, inherited
// from the job it extends, or from its pool.
func (j *Job) explainInput(name string) string {
	v, _ := j.Get(name)
	line := name + " = " + v.String()
	var site *lang.Field
	what := ""
	switch {
	case strings.HasPrefix(name, "ceiling."):
		f, _ := goodput.ParseFactor(strings.TrimPrefix(name, "ceiling."))
		site = j.d.Job.Ceilings[f]
		what = "the " + f.String() + " ceiling"
		if site == nil {
			return fmt.Sprintf("%s, the %s factor %s: %s has no ceiling", line, f, f.Short(), f)
		}
	case name == "S" || name == "R" || name == "P":
		f, _ := goodput.ParseFactor(name)
		site = j.d.Job.Factors[f]
		what = "the " + f.String() + " factor"
	default:
		site = j.d.Job.Sites.Get(name)
		what = results.ByName[name].Doc
	}
	return line + ", " + what + ", " + j.provenance(site)
}

// provenance names the declaration a field belongs to, as seen from j.
func (j *Job) provenance(site *lang.Field) string {
	if site == nil {
		return "not set"
	}
	for d := j.d; d != nil; {
		if jobHolds(d.JobStmt(), site) {
			if d == j.d {
				return "set in job " + d.Name.Name
			}
			return "inherited from job " + d.Name.Name
		}
		if d.JobStmt().Extends == nil {
			break
		}
		d = j.s.p.Decls[d.JobStmt().Extends.Name]
	}
	if p := j.d.Job.Pool; p != nil {
		return "from pool " + p.Name.Name
	}
	return "set elsewhere"
}

func jobHolds(j *lang.Job, site *lang.Field) bool {
	for _, item := range j.Items {
		switch it := item.(type) {
		case *lang.Field:
			if it == site {
				return true
			}
		case *lang.FactorBlock:
			for _, f := range it.Fields {
				if f == site {
					return true
				}
			}
		}
	}
	return false
}

// FieldNames lists what may follow "NAME." in an expression: a job's
// results (as ResultNames), a pool's or a request's fields; nil for a
// value, a ruleset or an unknown name. It serves completion.
func (s *Scenario) FieldNames(name string) []string {
	d, ok := s.p.Decls[name]
	if !ok {
		return nil
	}
	if f := evalKinds[d.Kind].fields; f != nil {
		return f(s, d)
	}
	return nil
}
