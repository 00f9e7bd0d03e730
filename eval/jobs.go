package eval

import (
	"errors"
	"fmt"
	"math"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// jobState is what one evaluation computed for a job.
type jobState struct {
	in goodput.Inputs // the job's inputs, also when the engine rejected them
	// kept is nil while the engine has not accepted in; &solved once it
	// has, the result being worked out when asked; or, for a sweep's or
	// solve's point, read many times, the result the point keeps.
	kept   *goodput.Result
	owners *[goodput.NumFactors]string // the job plan's, shared; nil for a sweep's or solve's point
	// start is when the job starts (seconds since the epoch), when placed
	// in time by its window or its pool's (capacity.go).
	start  float64
	placed bool
	// currency is the code of the currency of the job's rate, in which
	// its money results are; "" for USD and without a rate.
	currency string
}

// solved is what a job's state keeps once the engine accepted its inputs
// (jobState.kept): a mark, never read.
var solved goodput.Result

// Result is what the goodput engine makes of the job's inputs; when it
// rejected them, a result that holds the inputs alone. It is worked out
// when asked (about 70 ns) rather than kept: a file holds a state per job,
// and a result is three times the size of its inputs.
func (j *jobState) result() goodput.Result {
	switch j.kept {
	case nil:
		return goodput.Result{Inputs: j.in}
	case &solved:
	default:
		return *j.kept
	}
	r, err := goodput.Solve(j.in)
	if err != nil {
		return goodput.Result{Inputs: j.in}
	}
	return r
}

// owner is the owner of factor f, "" when none is named.
func (j *jobState) owner(f goodput.Factor) string {
	if j.owners == nil {
		return ""
	}
	return j.owners[f]
}

// evalJob gathers a job's inputs (its own, then its parent's, then its
// pool's), runs the goodput engine and maps any input error back to the
// line that gave the value. A job whose pool or parent is missing or has
// errors still has its own values checked, so that their independent
// errors are reported too.
func (s *Scenario) evalJob(d *check.Decl) bool {
	jp := d.Job
	var js *jobState
	if s.samples != nil {
		// A sample's evaluation (uncertain.go) reuses the job's state
		// from sample to sample rather than allocating one each time.
		js = &s.samples.jobs[d.Slot]
		*js = jobState{owners: &jp.Owners.Names}
	} else {
		js = &jobState{owners: &jp.Owners.Names}
	}
	s.of(d).job = js
	based := jp.Based
	if based && jp.Parent != nil {
		based = s.force(jp.Parent)
	}
	if based && jp.Pool != nil {
		based = s.force(jp.Pool)
	}
	switch {
	case !based:
		s.checkInputs(d, js, gatherOwn)
		return false
	case !d.Ok:
		s.checkInputs(d, js, gatherLenient)
		return false
	}
	return s.solveJob(d, js)
}

// checkInputs reports the errors of a job's values when the job cannot
// run, so that they do not wait for another fix to show: a value's own
// errors (a runtime error) and those the goodput engine and the planner's
// rules find in the values together (a factor above 1, a ceiling below
// its own factor, fractional devices). Nothing that only follows from what
// is missing or broken is reported, and no error twice. With gatherOwn
// (the pool or parent has errors) only the job's own lines are read: a
// parent's values are its own to report.
func (s *Scenario) checkInputs(d *check.Decl, js *jobState, mode gatherMode) {
	ok := s.gatherInputs(d, js, mode)
	if !ok && mode == gatherStrict {
		return
	}
	if _, err := goodput.Solve(js.in); err != nil {
		s.inputError(d, js, err)
	}
}

func (s *Scenario) solveJob(d *check.Decl, js *jobState) bool {
	var ok bool
	if s.samples == nil || !s.sampleInputs(d, js) {
		ok = s.gatherInputs(d, js, gatherStrict)
	} else {
		ok = true // a sample's inputs, read again only where they vary (uncertain.go)
	}
	s.allowAboveCeiling(d, &js.in) // at a what-if's point (whatif.go)
	s.ctl.engineRun()
	res, err := goodput.Solve(js.in)
	if err != nil {
		s.inputError(d, js, err)
		return false
	}
	if !ok {
		return false
	}
	js.kept = &solved
	if s.samples != nil {
		// A sample's job is read for several results: its result is
		// kept rather than worked out at each read.
		r := &s.samples.res[d.Slot]
		*r = res
		js.kept = r
	} else if s.keepResults {
		// A few jobs a service asked for (Evaluate with Only). A copy, so
		// that res stays on the stack of every other evaluation.
		kept := new(goodput.Result)
		*kept = res
		js.kept = kept
	}
	return true
}

// gatherMode says how gatherInputs treats what is missing or broken.
type gatherMode uint8

const (
	// gatherStrict: every input must be there and good.
	gatherStrict gatherMode = iota
	// gatherLenient: the job has check errors (already reported); an input
	// that is missing stands in as 0, which no check of the engine rejects,
	// whatever the ceiling, and which cannot overflow. In every mode an
	// input whose line failed stands in so.
	gatherLenient
	// gatherOwn: as gatherLenient, reading only the job's own lines, and a
	// factor the job does not set stands in as 0 too.
	gatherOwn
)

// gatherInputs evaluates the job's values, its own or inherited, into
// js.in, checking the planner's rules on devices and hours; false
// when one has an error, already reported.
func (s *Scenario) gatherInputs(d *check.Decl, js *jobState, mode gatherMode) bool {
	jp := d.Job
	ok := true
	// With gatherOwn, only the job's own lines count.
	own := func(f *lang.Field) bool { return f != nil && (mode != gatherOwn || check.JobHolds(d.JobStmt(), f)) }
	in := &js.in
	for _, name := range check.SiteNames {
		f := jp.Sites.Get(name)
		if !own(f) {
			continue
		}
		v, vok := s.fieldValue(f)
		if !vok {
			ok = false
			continue
		}
		switch name {
		case "devices":
			in.Devices = v.Num
		case "hours":
			in.Hours = units.ToUnit(v.Num, units.Hour)
		case "rate":
			in.Rate = goodput.Some(units.ToUnit(v.Num, units.USDPerHour))
			if c, _ := v.Type.Dim.Currency(); c != "USD" {
				js.currency = c
			}
		}
	}
	if mode != gatherOwn || jp.Window != nil && !jp.Window.Inherited(d.JobStmt()) {
		ok = s.placeJob(d, js) && ok
	}
	for f := range goodput.NumFactors {
		for i, site := range [][goodput.NumFactors]*lang.Field{jp.Factors, jp.Ceilings} {
			// A factor whose line failed (its error is already told)
			// stands in as 0, so that the engine still checks the others.
			if i == 0 && (mode == gatherOwn || site[f] != nil) {
				in.Factors[f] = goodput.Some(0)
			}
			if !own(site[f]) {
				continue
			}
			v, vok := s.fieldValue(site[f])
			if !vok {
				ok = false
				continue
			}
			if i == 0 {
				in.Factors[f] = goodput.Some(v.Num)
			} else {
				in.Ceilings[f] = goodput.Some(v.Num)
			}
		}
	}
	return ok
}

// plannerRule checks what the engine allows but no planner means: devices
// that are not a whole number of at least 1, hours that are not above 0.
// fieldValue applies it to the devices and hours lines of pools and jobs,
// once per evaluation.
func (s *Scenario) plannerRule(name string, f *lang.Field, v Value) bool {
	if msg := check.PlannerProblem(name, v); msg != "" {
		pos, end := f.Value.Span()
		s.ev.errorAt(pos, end, msg)
		return false
	}
	return true
}

// inputError places each of a goodput engine error's input errors on the
// line that gave the offending value, one diagnostic each.
func (s *Scenario) inputError(d *check.Decl, js *jobState, err error) {
	var ies goodput.InputErrors
	if !errors.As(err, &ies) {
		var ie *goodput.InputError
		if !errors.As(err, &ie) {
			s.ev.errorAt(d.Name.Start(), d.Name.End(), err.Error())
			return
		}
		ies = goodput.InputErrors{ie}
	}
	for _, ie := range ies {
		s.placeInputError(d, js, ie)
	}
}

// placeInputError reports ie at the field that set the offending value, or
// at the job's name when no field did.
func (s *Scenario) placeInputError(d *check.Decl, js *jobState, ie *goodput.InputError) {
	jp := d.Job
	var site *lang.Field
	switch ie.Input {
	case goodput.InputFactor:
		site = jp.Factors[ie.Factor]
	case goodput.InputCeiling:
		site = jp.Ceilings[ie.Factor]
	default:
		site = jp.Sites.Get(inputFieldName(ie.Input))
	}
	msg := inputErrorMessage(ie)
	if site == nil {
		if ie.Kind == goodput.MissingFactor && jp.Partial {
			return // it may be on the line a syntax error took: told already
		}
		s.ev.errorAt(d.Name.Start(), d.Name.End(), msg)
		return
	}
	pos, end := site.Value.Span()
	diag := s.ev.errorAt(pos, end, msg)
	if ie.Kind == goodput.CeilingBelowFactor {
		if fs := jp.Factors[ie.Factor]; fs != nil {
			fp, fe := fs.Value.Span()
			diag.Related = []lang.Related{{Pos: fp, End: fe, Label: "the factor is set here"}}
		}
	}
	if site.Start().Filename != d.Name.Start().Filename || !within(site, d.JobStmt()) {
		diag.Notes = append(diag.Notes, "in job "+d.Name.Name+", which inherits this value")
	}
}

// inputFieldName is the pool or job field that sets an engine input other
// than a factor or ceiling.
func inputFieldName(in goodput.Input) string {
	switch in {
	case goodput.InputDevices:
		return "devices"
	case goodput.InputHours:
		return "hours"
	case goodput.InputRate:
		return "rate"
	}
	return in.String()
}

// inputErrorMessage words an input error of the goodput engine for the
// user, in gpl's terms and with numbers as a report prints them: "program
// factor is 1.2; a factor is a fraction in [0, 1]", "hours is -5 h; it must
// not be negative". The engine's values are in hours and USD per
// device-hour.
func inputErrorMessage(e *goodput.InputError) string {
	var subject string
	switch e.Input {
	case goodput.InputFactor:
		subject = e.Factor.String() + " factor"
	case goodput.InputCeiling:
		subject = e.Factor.String() + " ceiling"
	default:
		subject = inputFieldName(e.Input)
	}
	value, limit := engineFigure(e.Input, e.Value), engineFigure(e.Input, e.Limit)
	switch e.Kind {
	case goodput.MissingFactor:
		return fmt.Sprintf("the job has no %s factor", e.Factor)
	case goodput.NotFinite:
		return fmt.Sprintf("%s is %s; it must be a finite number", subject, value)
	case goodput.FactorOutOfRange:
		return fmt.Sprintf("%s is %s; a factor is a fraction in [0, 1]", subject, value)
	case goodput.CeilingOutOfRange:
		return fmt.Sprintf("%s is %s; a ceiling is a fraction in [0, 1]", subject, value)
	case goodput.CeilingBelowFactor:
		return fmt.Sprintf("%s %s is below its factor %s", subject, value, limit)
	case goodput.NegativeValue:
		return fmt.Sprintf("%s is %s; it must not be negative", subject, value)
	case goodput.Overflow:
		if e.Input == goodput.InputRate {
			return fmt.Sprintf("rate %s makes the cost overflow; with these offered device-hours it must be at most %s", value, limit)
		}
		return fmt.Sprintf("hours %s makes the offered device-hours overflow; with these devices it must be at most %s", value, limit)
	}
	return fmt.Sprintf("%s is %s: %s", subject, value, e.Kind)
}

// engineFigure prints a value of an engine input as a report does:
// hours as "92,160 h", a rate as "$2.50 per device-hour", a factor or a
// device count as a number.
func engineFigure(in goodput.Input, v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return units.FormatNumber(v) // +Inf, without a unit
	}
	switch in {
	case goodput.InputHours:
		return units.Format(units.FromUnit(v, units.Hour), units.Duration)
	case goodput.InputRate:
		return units.FormatRate(units.FromUnit(v, units.USDPerHour))
	}
	return units.FormatNumber(v)
}

func within(f *lang.Field, j *lang.Job) bool {
	return f.Start().Offset >= j.Start().Offset && f.Start().Offset < j.End().Offset
}
