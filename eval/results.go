package eval

import (
	"errors"
	"fmt"
	"sync"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/explain"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// resultRun is the evaluator's half of a row of the table of a job's
// results (resultDef, by its index): how a result the engine has no
// figure for is computed, and how :explain spells one that no fixed
// formula does.
type resultRun struct {
	// explain spells it for :explain when no fixed formula does: a
	// formula to fill in, or else a finished line.
	explain func(j *Job, v Value) (formula, line string)
	// calc computes a result the engine has no figure for (resultDef.of
	// nil).
	calc func(j *jobState) (Value, error)
}

// resultRuns are the evaluator's halves of the rows, by resultDef.index,
// built on first use.
var resultRuns = sync.OnceValue(buildResultRuns)

func buildResultRuns() []resultRun {
	byName := map[string]resultRun{
		"cost_per_useful_hour": {calc: func(j *jobState) (Value, error) {
			v, err := j.result().CostPerUsefulHour()
			return priceValue(v), err
		}},
		"best_lever": {
			explain: func(j *Job, v Value) (string, string) { return "", explain.BestLever(j.Result, v) },
			calc: func(j *jobState) (Value, error) {
				if !j.result().HasBestLever {
					return Value{Type: StringType}, nil
				}
				return Value{Type: StringType, Str: j.result().BestLever.String()}, nil
			}},
		"ceiling_mpg": {explain: func(j *Job, _ Value) (string, string) { return explain.CeilingFormula(j.Inputs), "" }},
		"headroom":    {calc: func(j *jobState) (Value, error) { v, err := j.result().Headroom(); return count(v), err }},
		"devices":     {calc: func(j *jobState) (Value, error) { return count(j.in.Devices), nil }},
		"hours":       {calc: func(j *jobState) (Value, error) { return hoursValue(j.in.Hours), nil }},
		"rate": {calc: func(j *jobState) (Value, error) {
			if !j.in.Rate.Set {
				return Value{}, errNoRate
			}
			return priceValue(j.in.Rate.Value), nil
		}},
	}
	for i := range goodput.NumFactors {
		f := goodput.Factor(i)
		long := results.FactorNames[f]
		byName[f.Short()] = resultRun{calc: func(j *jobState) (Value, error) { return count(j.in.Factors[f].Value), nil }}
		byName["ceiling."+long] = resultRun{calc: func(j *jobState) (Value, error) {
			if c := j.in.Ceilings[f]; c.Set {
				return count(c.Value), nil
			}
			return count(j.in.Factors[f].Value), nil
		}}
		byName["lever."+long] = resultRun{explain: func(j *Job, v Value) (string, string) {
			if !j.Inputs.Ceilings[f].Set {
				return "", fmt.Sprintf("lever.%s = mpg = %s (%s has no ceiling)", long, v, f)
			}
			return explain.LeverFormula(f), ""
		}}
		byName["point_value."+long] = resultRun{calc: func(j *jobState) (Value, error) {
			// cost × (1 − F / (F + 0.01)), written without the
			// subtraction, which would cancel the digits of a small value.
			r := j.result()
			return NumberValue(r.Cost*0.01/(j.in.Factors[f].Value+0.01), units.Money), nil
		}}
		byName["owner."+long] = resultRun{
			explain: func(j *Job, _ Value) (string, string) { return "", j.explainOwner("owner." + long) },
			calc:    func(j *jobState) (Value, error) { return Value{Type: StringType, Str: j.owner(f)}, nil }}
	}
	runs := make([]resultRun, len(results.Table()))
	for name, r := range byName {
		runs[results.ByName()[name].Index] = r
	}
	return runs
}

var errNoRate = errors.New("has no rate")

// resultGet computes the result for job j, its money in the job's
// currency.
func resultGet(d *results.Def, j *jobState) (Value, error) {
	v, err := resultInUSD(d, j)
	if j.currency != "" {
		v.Type = check.InCurrency(v.Type, j.currency)
	}
	return v, err
}

// resultInUSD computes the result for job j as the table types it, money
// in USD.
func resultInUSD(d *results.Def, j *jobState) (Value, error) {
	if k := j.kept; k != nil && k != &solved && d.HasFigure() {
		// A point's kept result, read in place: a sweep's hot path.
		if d.NeedsRate && !k.HasCost {
			return Value{}, errNoRate
		}
		return engineValue(d.Of(k), d.Type), nil
	}
	if d.NeedsRate && !j.result().HasCost {
		return Value{}, errNoRate
	}
	if calc := resultRuns()[d.Index].calc; calc != nil {
		return calc(j)
	}
	r := j.result()
	return engineValue(d.Of(&r), d.Type), nil
}

// jobResult reads a named result of a forced job.
func (s *Scenario) jobResult(d *check.Decl, name string) (Value, error) {
	def, ok := results.ByName()[name]
	if !ok {
		return Value{}, fmt.Errorf("job %s has no result %s", d.Name.Name, name)
	}
	v, err := resultGet(def, s.of(d).job)
	if errors.Is(err, errNoRate) {
		return Value{}, fmt.Errorf("job %s has no rate, so %s is undefined; set rate in the job or its pool", d.Name.Name, def.Name)
	}
	if err != nil {
		return Value{}, fmt.Errorf("%s of job %s is undefined: %w", def.Name, d.Name.Name, divisionError("its mpg", s.of(d).job, err))
	}
	return v, nil
}

// divisionError words an error of the goodput engine's divisions by the
// mpg of a job (a *goodput.DivisionError, whose own text names Go values) for a
// message that has already named the result. divisor names the mpg: "its
// mpg", "the mpg of a". The result wraps the engine's error, so errors.Is
// still finds goodput.ErrZeroMPG or goodput.ErrOverflow.
func divisionError(divisor string, js *jobState, err error) error {
	switch {
	case errors.Is(err, goodput.ErrZeroMPG):
		return &restated{divisor + " is 0", err}
	case errors.Is(err, goodput.ErrOverflow):
		return &restated{fmt.Sprintf("the quotient is too large to represent (%s is %s)", divisor, units.FormatNumber(js.result().MPG)), err}
	}
	return err
}

// restated is an error told in other words: its text replaces err's.
type restated struct {
	msg string
	err error
}

func (e *restated) Error() string { return e.msg }
func (e *restated) Unwrap() error { return e.err }

// refValue computes what a ref reads in this evaluation, evaluating the
// declaration first while the evaluation runs; once it has run, every
// declaration is done or failed and nothing changes. A ref to a
// jobResultAt is the result field of job d, read where at is: an error is
// reported there, as a runtime error when the result is undefined or out
// of range for the values (a zero mpg), else as one of the file.
func (s *Scenario) jobResultAt(d *check.Decl, field string, at lang.Expr, out *sink) (Value, bool) {
	v, err := s.jobResult(d, field)
	if err != nil {
		pos, end := at.Span()
		if errors.Is(err, goodput.ErrZeroMPG) || errors.Is(err, goodput.ErrOverflow) {
			out.runtimeErrorAt(pos, end, err.Error())
		} else {
			out.errorAt(pos, end, err.Error())
		}
		return Value{}, false
	}
	return v, true
}

// declaration that could not be evaluated fails quietly.
func (s *Scenario) refValue(r *check.Ref, out *sink) (Value, bool) {
	if r.Kind >= check.RefDist {
		return s.uncertainRef(r, out) // uncertain.go
	}
	if !s.force(r.Decl) || r.Second != nil && !s.force(r.Second) {
		return Value{}, false
	}
	switch r.Kind {
	case check.RefLet:
		return *s.value(r.Decl), true
	case check.RefJob:
		return s.jobResultAt(r.Decl, r.Field, r.Node, out)
	case check.RefPool:
		f := r.Decl.Pool.Fields.Get(r.Field)
		if f == nil {
			pos, end := r.Node.Span()
			out.errorAt(pos, end, fmt.Sprintf("pool %s does not set %s", r.Decl.Name.Name, r.Field))
			return Value{}, false
		}
		return s.fieldValue(f)
	case check.RefTrade:
		v, err := goodput.TradeRatio(s.of(r.Decl).job.result(), s.of(r.Second).job.result())
		if err != nil {
			err = divisionError("the mpg of "+r.Decl.Name.Name, s.of(r.Decl).job, err)
			pos, end := r.Node.Span()
			out.runtimeErrorAt(pos, end, fmt.Sprintf("trade_ratio(%s, %s) is undefined: %v", r.Decl.Name.Name, r.Second.Name.Name, err))
			return Value{}, false
		}
		return count(v), true
	case check.RefRequest:
		return s.requestField(r, out)
	case check.RefClassify:
		return s.classifyRef(r)
	case check.RefPlan:
		return s.planValue(r, out) // planning.go
	}
	return Value{}, false
}

func count(v float64) Value { return NumberValue(v, units.Count) }

// hoursValue turns device-hours into a duration in seconds.
func hoursValue(h float64) Value {
	return NumberValue(units.FromUnit(h, units.Hour), units.Duration)
}

func priceValue(p float64) Value {
	return NumberValue(units.FromUnit(p, units.USDPerHour), units.Price)
}

// engineUnits is engineValue's inverse: a value in the engine's units.
func engineUnits(v Value) float64 {
	switch {
	case v.Type.Dim == units.Duration:
		return units.ToUnit(v.Num, units.Hour)
	case units.IsPrice(v.Type.Dim):
		return units.ToUnit(v.Num, units.USDPerHour)
	}
	return v.Num
}

// engineValue is a figure of the engine, in its units, as a value of type t.
func engineValue(v float64, t Type) Value {
	switch {
	case t.Dim == units.Count:
		return NumberValue(v, t.Dim) // the commonest, without IsPrice's search
	case t.Dim == units.Duration:
		return hoursValue(v)
	case units.IsPrice(t.Dim):
		return NumberValue(units.FromUnit(v, units.USDPerHour), t.Dim)
	}
	return NumberValue(v, t.Dim)
}
