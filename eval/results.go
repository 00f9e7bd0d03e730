package eval

import (
	"errors"
	"fmt"
	"sort"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// resultDef is one result a job offers by name.
type resultDef struct {
	name   string
	typ    Type
	doc    string
	inputs []string // the names its value is computed from, for notes
	get    func(j *jobState) (Value, error)
}

var factorNames = [goodput.NumFactors]string{"scheduling", "runtime", "program"}

func count(v float64) Value { return NumberValue(v, lang.Count) }

// hoursValue turns device-hours into a duration in seconds.
func hoursValue(h float64) Value {
	return NumberValue(lang.FromUnit(h, lang.Units["h"]), lang.Duration)
}

func priceValue(p float64) Value {
	return NumberValue(lang.FromUnit(p, lang.Units["USD/h"]), lang.Price)
}

var errNoRate = errors.New("has no rate")

// resultDefs maps every result name, aliases included, to its definition.
var resultDefs, resultNames = buildResultDefs()

func buildResultDefs() (map[string]*resultDef, []string) {
	defs := []*resultDef{
		{name: "mpg", typ: CountType, doc: "S×R×P, the useful fraction of offered device-hours", inputs: []string{"S", "R", "P"},
			get: func(j *jobState) (Value, error) { return count(j.result().MPG), nil }},
		{name: "badput", typ: CountType, doc: "1 − mpg", inputs: []string{"mpg"},
			get: func(j *jobState) (Value, error) { return count(j.result().Badput), nil }},
		{name: "offered_hours", typ: numType(lang.Duration), doc: "devices × hours, in device-hours", inputs: []string{"devices", "hours"},
			get: func(j *jobState) (Value, error) { return hoursValue(j.result().OfferedHours), nil }},
		{name: "useful_hours", typ: numType(lang.Duration), doc: "offered_hours × mpg", inputs: []string{"offered_hours", "mpg"},
			get: func(j *jobState) (Value, error) { return hoursValue(j.result().UsefulHours), nil }},
		{name: "cost", typ: numType(lang.Money), doc: "offered_hours × rate", inputs: []string{"offered_hours", "rate"},
			get: func(j *jobState) (Value, error) {
				if !j.result().HasCost {
					return Value{}, errNoRate
				}
				return NumberValue(j.result().Cost, lang.Money), nil
			}},
		{name: "badput_cost", typ: numType(lang.Money), doc: "cost × badput", inputs: []string{"cost", "badput"},
			get: func(j *jobState) (Value, error) {
				if !j.result().HasCost {
					return Value{}, errNoRate
				}
				return NumberValue(j.result().BadputCost, lang.Money), nil
			}},
		{name: "cost_per_useful_hour", typ: numType(lang.Price), doc: "rate / mpg", inputs: []string{"rate", "mpg"},
			get: func(j *jobState) (Value, error) {
				if !j.result().HasCost {
					return Value{}, errNoRate
				}
				v, err := j.result().CostPerUsefulHour()
				return priceValue(v), err
			}},
		{name: "best_lever", typ: StringType, doc: `the factor whose ceiling gains most: "scheduling", "runtime", "program", or ""`, inputs: []string{"gain.scheduling", "gain.runtime", "gain.program"},
			get: func(j *jobState) (Value, error) {
				if !j.result().HasBestLever {
					return Value{Type: StringType}, nil
				}
				return Value{Type: StringType, Str: j.result().BestLever.String()}, nil
			}},
		{name: "ceiling_mpg", typ: CountType, doc: "the product with every factor at its ceiling", inputs: []string{"ceiling.scheduling", "ceiling.runtime", "ceiling.program"},
			get: func(j *jobState) (Value, error) { return count(j.result().CeilingMPG), nil }},
		{name: "headroom", typ: CountType, doc: "ceiling_mpg / mpg", inputs: []string{"ceiling_mpg", "mpg"},
			get: func(j *jobState) (Value, error) { v, err := j.result().Headroom(); return count(v), err }},
		{name: "devices", typ: CountType, doc: "devices offered to the job",
			get: func(j *jobState) (Value, error) { return count(j.in.Devices), nil }},
		{name: "hours", typ: numType(lang.Duration), doc: "wall time the pool is offered to the job",
			get: func(j *jobState) (Value, error) { return hoursValue(j.in.Hours), nil }},
		{name: "rate", typ: numType(lang.Price), doc: "price of one offered device-hour",
			get: func(j *jobState) (Value, error) {
				if !j.in.Rate.Set {
					return Value{}, errNoRate
				}
				return priceValue(j.in.Rate.Value), nil
			}},
	}
	m := map[string]*resultDef{}
	var names []string
	add := func(d *resultDef, aliases ...string) {
		m[d.name] = d
		names = append(names, d.name)
		for _, a := range aliases {
			m[a] = d
		}
	}
	for _, d := range defs {
		add(d)
	}
	for i := range goodput.NumFactors {
		f := goodput.Factor(i)
		long, short := factorNames[f], f.Short()
		add(&resultDef{name: long, typ: CountType, doc: long + " goodput factor",
			get: func(j *jobState) (Value, error) { return count(j.in.Factors[f].Value), nil }}, short)
		add(&resultDef{name: "ceiling." + long, typ: CountType, doc: long + " ceiling (the factor when none is set)", inputs: nil,
			get: func(j *jobState) (Value, error) {
				if c := j.in.Ceilings[f]; c.Set {
					return count(c.Value), nil
				}
				return count(j.in.Factors[f].Value), nil
			}}, "ceiling."+short)
		lossIn := [][]string{{"S"}, {"S", "R"}, {"S", "R", "P"}}[f]
		add(&resultDef{name: "loss." + long, typ: CountType, doc: "fraction of offered hours lost to " + long, inputs: lossIn,
			get: func(j *jobState) (Value, error) { return count(j.result().Loss[f]), nil }}, "loss."+short)
		add(&resultDef{name: "lever." + long, typ: CountType, doc: "mpg with " + long + " alone at its ceiling", inputs: []string{short, "ceiling." + long, "mpg"},
			get: func(j *jobState) (Value, error) { return count(j.result().Lever[f]), nil }}, "lever."+short)
		add(&resultDef{name: "gain." + long, typ: CountType, doc: "lever." + long + " − mpg", inputs: []string{"lever." + long, "mpg"},
			get: func(j *jobState) (Value, error) { return count(j.result().Gain[f]), nil }}, "gain."+short)
	}
	addWaterfall(add)
	// The factors' canonical display names in notes are S, R, P.
	for i := range goodput.NumFactors {
		short := goodput.Factor(i).Short()
		m[short].name = short
	}
	sort.Strings(names)
	return m, names
}

// ResultNames lists the names of a job's results, for completion and docs.
func ResultNames() []string { return append([]string(nil), resultNames...) }

// jobResult reads a named result of a forced job.
func (s *Scenario) jobResult(d *decl, name string) (Value, error) {
	def, ok := resultDefs[name]
	if !ok {
		return Value{}, fmt.Errorf("job %s has no result %s", d.name.Name, name)
	}
	v, err := def.get(s.of(d).job)
	if errors.Is(err, errNoRate) {
		return Value{}, fmt.Errorf("job %s has no rate, so %s is undefined; set rate in the job or its pool", d.name.Name, def.name)
	}
	if err != nil {
		return Value{}, fmt.Errorf("%s of job %s is undefined: %w", def.name, d.name.Name, divisionError("its mpg", s.of(d).job, err))
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
		return &restated{fmt.Sprintf("the quotient is too large to represent (%s is %s)", divisor, lang.FormatNumber(js.result().MPG)), err}
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
func (s *Scenario) jobResultAt(d *decl, field string, at lang.Expr, out *sink) (Value, bool) {
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
func (s *Scenario) refValue(r *ref, out *sink) (Value, bool) {
	if !s.force(r.d) || r.d2 != nil && !s.force(r.d2) {
		return Value{}, false
	}
	pos, end := r.node.Span()
	switch r.kind {
	case refLet:
		return *s.value(r.d), true
	case refJob:
		return s.jobResultAt(r.d, r.field, r.node, out)
	case refPool:
		f := r.d.pl.fields.get(r.field)
		if f == nil {
			out.errorAt(pos, end, fmt.Sprintf("pool %s does not set %s", r.d.name.Name, r.field))
			return Value{}, false
		}
		return s.fieldValue(f)
	case refTrade:
		v, err := goodput.TradeRatio(s.of(r.d).job.result(), s.of(r.d2).job.result())
		if err != nil {
			err = divisionError("the mpg of "+r.d.name.Name, s.of(r.d).job, err)
			out.runtimeErrorAt(pos, end, fmt.Sprintf("trade_ratio(%s, %s) is undefined: %v", r.d.name.Name, r.d2.name.Name, err))
			return Value{}, false
		}
		return count(v), true
	case refRequest:
		return s.requestField(r, out)
	case refClassify:
		return s.classifyRef(r)
	case refPlan:
		return r.plan.value(s, r, out) // planning.go
	}
	return Value{}, false
}
