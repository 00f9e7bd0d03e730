package eval

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/format"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is the solve (language.md §16): the value of one input at
// which a condition on one job result starts to hold, found by bisection
// on the goodput engine in at most maxSolveRuns runs.

// maxSolveRuns bounds the engine runs (or, for a param, evaluations) of
// one solve.
const maxSolveRuns = 200

// paramProbes is how many values inside the range a solve over a param
// also tries, to find a condition that switches more than once.
const paramProbes = 8

// solveStep is one try of a solve: the point at x and whether the
// condition holds there.
type solveStep struct {
	x float64
	// got is the value compared at x: over a job, +Inf where it divides
	// by a zero mpg; over the file, meaningful only when defined.
	got     float64
	defined bool
	holds   bool
	// fail says why the file (or the job) cannot be evaluated at x,
	// where the condition is taken not to hold; nil when it can.
	fail *PointFailure
}

// usable reports whether the step has a value to report.
func (st solveStep) usable() bool { return st.fail == nil && st.defined }

// solver runs one solve's tries.
type solver struct {
	s      *Scenario
	d      *check.Decl
	fp     *check.FindPlan
	base   goodput.Inputs
	target float64
	runs   int
	// best is the last point where the condition held, and good the one
	// search holds as its answer so far (nil before there is one). They
	// are two of slots, which a try reuses: one that is neither.
	best, good *point
	slots      [3]point
	vals       [3][1]float64
	// set writes the input into the job's, and scale reads the result
	// compared when it is an engine figure; made at the first try.
	prepared bool
	set      check.Setter
	scale    figureScale
	// samples are the job's inputs over the samples, for a condition on
	// a statistic of its result (mpg.p10 >= 0.30), made at the first try
	// (at each, for a param, which the job's samples depend on).
	samples *jobSamples
}

// slot is a point of slots that is neither best nor good, for a try,
// emptied of the try before.
func (sv *solver) slot() *point {
	for i := range sv.slots {
		if pt := &sv.slots[i]; pt != sv.best && pt != sv.good {
			// What try sets, without zeroing the result it overwrites.
			pt.job = jobState{}
			pt.vals, pt.above, pt.params, pt.fail = sv.vals[i][:], [goodput.NumFactors]bool{}, nil, nil
			return pt
		}
	}
	panic("solver.slot: every slot held")
}

func (sv *solver) try(x float64) (solveStep, error) {
	if !sv.prepared {
		sv.prepared = true
		if sv.fp.In.Kind != check.InParam {
			sv.set = sv.fp.In.Setter()
		}
		if sv.fp.Result != nil {
			sv.scale = newFigureScale(sv.fp.Result.Type)
		}
	}
	sv.runs++
	sv.s.ctl.point()
	file := sv.d.OverFile()
	pt := sv.slot()
	pt.vals[0], pt.sc, pt.file = x, sv.s, file
	st := solveStep{x: x}
	job := sv.d.Plan.Job
	if job != nil {
		pt.job.currency = sv.s.of(job).job.currency
	}
	var raised *[goodput.NumFactors]bool
	if sv.fp.In.Kind == check.InParam {
		params := sv.s.paramValues()
		params[sv.fp.In.Param] = NumberValue(x, sv.fp.In.Type.Dim)
		if file {
			pt.sc = sv.s.whatIfAt(params)
			pt.fail = pt.sc.evalModel()
		} else if pt.sc, pt.fail = sv.s.withParam(params, job); pt.fail == nil {
			pt.job.in, raised = pt.sc.of(job).job.in, pt.sc.raised[job]
		}
		pt.params = params
	} else {
		pt.job.in = sv.base
		sv.set.Set(&pt.job.in, x)
	}
	if !file && pt.fail == nil {
		pt.settle()
		if raised != nil {
			for f := range goodput.NumFactors {
				pt.above[f] = pt.above[f] || raised[f]
			}
		}
		sv.s.ctl.engineRun()
		res, err := goodput.Solve(pt.job.in)
		if err != nil {
			pt.fail = &PointFailure{Message: engineMessage(err), Pos: sv.d.Name.Start(), End: sv.d.Name.End()}
		} else {
			pt.res, pt.job.kept = res, &pt.res
		}
	}
	if pt.fail != nil {
		st.fail = pt.fail
		return st, nil
	}
	target := sv.target
	if file {
		v, err := pt.sc.runAt(sv.fp.Of)
		t, terr := pt.sc.runAt(sv.fp.Target)
		if err != nil || terr != nil {
			return st, nil // undefined here: the condition does not hold
		}
		st.got, st.defined, target = v.Num, true, t.Num
	} else {
		var err error
		if def := sv.fp.Result; def.HasFigure() {
			// resultGet's read of a kept result, the unit chosen once
			if def.NeedsRate && !pt.res.HasCost {
				err = errNoRate
			} else {
				st.got = sv.scale.of(def.Of(&pt.res))
			}
		} else {
			var v Value
			v, err = resultGet(def, &pt.job)
			st.got = v.Num
		}
		switch {
		case errors.Is(err, errNoRate):
			return solveStep{}, fmt.Errorf("job %s has no rate, so %s is undefined", job.Name.Name, sv.fp.Result.Name)
		case err != nil:
			st.got = math.Inf(1) // a price or ratio over a zero mpg
		}
		st.defined = true
		if sv.fp.Stat != "" {
			got, fail := sv.statAt(pt, x, st.got)
			if fail != nil {
				pt.fail, st.fail = fail, fail
				return st, nil
			}
			st.got, pt.stat = got, got
		}
	}
	switch sv.fp.Op {
	case "<":
		st.holds = st.got < target
	case "<=":
		st.holds = st.got <= target
	case ">":
		st.holds = st.got > target
	case ">=":
		st.holds = st.got >= target
	}
	if st.holds {
		sv.best = pt
	}
	return st, nil
}

func (s *Scenario) evalSolve(d *check.Decl) bool {
	pd := d.Plan
	fp := pd.Find
	s.of(d).plan = &planValues{}
	var base goodput.Inputs
	switch {
	case d.OverFile():
		if !s.modelEvaluates() {
			return false
		}
	case !s.force(pd.Job):
		return false
	default:
		base = s.of(pd.Job).job.in
	}
	lo, hi := 0.0, 1.0
	if fp.Lo != nil {
		l, lok := s.run(fp.Lo, &s.ev)
		h, hok := s.run(fp.Hi, &s.ev)
		if !lok || !hok {
			return false
		}
		lo, hi = l.Num, h.Num
		for i, v := range []float64{lo, hi} {
			if msg := fp.In.OutOfRange(v); msg != "" {
				pos, end := pd.Solve.Find.Lo.Span()
				if i == 1 {
					pos, end = pd.Solve.Find.Hi.Span()
				}
				s.ev.errorAt(pos, end, msg)
				return false
			}
		}
		if hi <= lo {
			pos, end := pd.Solve.Find.Hi.Span()
			s.ev.errorAt(pos, end, fmt.Sprintf("the range [%s, %s] is empty; write the smaller value first", s.valueText(fp, lo), s.valueText(fp, hi)))
			return false
		}
	}
	if fp.In.Kind == check.InDevices {
		lo, hi = math.Ceil(lo), math.Floor(hi)
	}
	t, tok := s.run(fp.Target, &s.ev)
	if !tok {
		return false
	}
	sv := &solver{s: s, d: d, fp: fp, base: base, target: t.Num}
	answer, border, err := sv.search(lo, hi)
	if sv.samples != nil {
		sv.samples.release()
	}
	s.of(d).plan.runs = sv.runs
	if err != nil {
		s.solveError(d, err)
		return false
	}
	if fp.In.Kind == check.InDevices && !s.answerFitsPool(d, answer) {
		return false
	}
	s.of(d).plan.answer = answer
	if border != nil {
		s.of(d).plan.border = border.fail
		s.warnBorder(d, sv, answer, border)
	}
	s.warnAboveCeiling(d, answer)
	return true
}

// warnBorder warns that the answer of the solve d lies next to a value
// where the file (over a job, the job) cannot be evaluated, so that the
// condition may start to hold there and not where the answer says.
func (s *Scenario) warnBorder(d *check.Decl, sv *solver, answer *point, border *solveStep) {
	fp := d.Plan.Find
	ids := d.Plan.Solve.Find.Input
	side := "above"
	if border.x < answer.vals[0] {
		side = "below"
	}
	diag := &lang.Diagnostic{Severity: lang.Warning, Pos: ids[0].Start(), End: ids[len(ids)-1].End(),
		Summary: fmt.Sprintf("the answer of %s, %s = %s, borders values where the %s cannot be evaluated: just %s it, %s",
			d.Name.Name, fp.In.Name, s.valueText(fp, answer.vals[0]), sv.what(), side, border.fail.Message),
		Notes: []string{"the condition is taken not to hold where it cannot be evaluated; the answer is where it starts to hold among the values that can be"},
	}
	if f := border.fail; f.Pos.Line > 0 {
		diag.Related = []lang.Related{{Pos: f.Pos, End: f.End, Label: "fails here just " + side + " the answer"}}
	}
	s.ev.diags = append(s.ev.diags, diag)
}

// solveFailure is a solve without an answer in its range.
type solveFailure struct {
	msg     string
	notes   []string
	related []lang.Related // where the file fails at the values that made it fail
}

func (e *solveFailure) Error() string { return e.msg }

func (s *Scenario) solveError(d *check.Decl, err error) {
	fp := d.Plan.Find
	pos, end := fp.Cond.Span()
	diag := s.ev.errorAt(pos, end, err.Error())
	var sf *solveFailure
	if errors.As(err, &sf) {
		diag.Notes = append(diag.Notes, sf.notes...)
		diag.Related = append(diag.Related, sf.related...)
	}
}

// search bisects [lo, hi] for the value where the condition starts to
// hold, and returns the point there: the condition holds at it, and
// devices are whole. A value where the file cannot be evaluated is one
// where the condition does not hold; border is the failure at the value
// next to the answer on the side where it does not, when it is one.
func (sv *solver) search(lo, hi float64) (answer *point, border *solveStep, err error) {
	a, err := sv.try(lo)
	if err != nil {
		return nil, nil, err
	}
	sv.good = sv.best // the point where the condition holds, at lo or at hi
	b, err := sv.try(hi)
	if err != nil {
		return nil, nil, err
	}
	if b.holds {
		sv.good = sv.best
	}
	fp := sv.fp
	if a.holds == b.holds {
		// Words, not [LOW, HIGH]: a bound may carry a thousands separator.
		rng := "between " + sv.s.valueText(fp, lo) + " and " + sv.s.valueText(fp, hi)
		cond := sv.s.sourceText(fp.Cond)
		if !a.holds {
			return nil, nil, sv.nowhere(a, b, rng, cond)
		}
		return nil, nil, &solveFailure{
			msg:   fmt.Sprintf("%s holds for every %s %s, so there is no value where it starts to hold", cond, fp.In.Name, rng),
			notes: []string{"widen the range"},
		}
	}
	if fp.In.Kind == check.InParam {
		if err := sv.probe(lo, hi, a.holds); err != nil {
			return nil, nil, err
		}
	}
	good, bad, badStep := lo, hi, b
	if b.holds {
		good, bad, badStep = hi, lo, a
	}
	for sv.runs < maxSolveRuns {
		mid := good + (bad-good)/2
		if fp.In.Kind == check.InDevices {
			if math.Abs(good-bad) <= 1 {
				break
			}
			mid = math.Round(mid)
		}
		if mid == good || mid == bad {
			break
		}
		st, err := sv.try(mid)
		if err != nil {
			return nil, nil, err
		}
		if st.holds {
			good, sv.good = mid, sv.best
		} else {
			bad, badStep = mid, st
		}
	}
	answer = new(point)
	*answer = *sv.good
	answer.vals = []float64{answer.vals[0]} // its own, not the slot's
	answer.own()
	if badStep.fail != nil {
		return answer, &badStep, nil
	}
	return answer, nil, nil
}

// nowhere is the error of a condition that holds at neither end of the
// range: how close the range gets, and where the file cannot be
// evaluated.
func (sv *solver) nowhere(a, b solveStep, rng, cond string) error {
	fp := sv.fp
	var notes []string
	var related []lang.Related
	for _, st := range []solveStep{a, b} {
		if st.fail != nil {
			at := fp.In.Name + " = " + sv.s.valueText(fp, st.x)
			notes = append(notes, fmt.Sprintf("at %s the %s cannot be evaluated: %s", at, sv.what(), st.fail.Message))
			if r := failureAt(st.fail, at); len(related) == 1 && len(r) == 1 && related[0].Pos == r[0].Pos {
				related[0].Label += " and at " + at // both ends fail at one place
			} else {
				related = append(related, r...)
			}
		}
	}
	notes = append(notes, "the condition holds nowhere in the range: widen the range or change the target")
	closest, word := a, "most"
	if fp.Op == "<" || fp.Op == "<=" {
		word = "least"
	}
	switch {
	case !a.usable() && !b.usable():
		why := fp.Subject + " is undefined at both ends"
		if a.fail != nil || b.fail != nil {
			why = "the " + sv.what() + " cannot be evaluated at either end"
		}
		return &solveFailure{msg: fmt.Sprintf("no %s %s gives %s: %s", fp.In.Name, rng, cond, why), notes: notes, related: related}
	case !a.usable():
		closest = b
	case !b.usable():
	case word == "least" && b.got < a.got, word == "most" && b.got > a.got:
		closest = b
	}
	return &solveFailure{
		msg: fmt.Sprintf("no %s %s gives %s; the %s is %s, at %s = %s", fp.In.Name, rng, cond, word,
			sv.gotText(closest.got), fp.In.Name, sv.s.valueText(fp, closest.x)),
		notes: notes, related: related,
	}
}

// what names what a try evaluates: the whole file, or the job.
func (sv *solver) what() string {
	if sv.d.OverFile() {
		return "file"
	}
	return "job"
}

// gotText writes a value of what the solve compares.
func (sv *solver) gotText(v float64) string {
	if sv.fp.Result != nil {
		return gotText(sv.fp.Result, v)
	}
	return NumberValue(v, sv.fp.Of.Type.Dim).String()
}

// probe tries values inside the range of a param: the condition must
// switch once, from how it is at lo; otherwise bisection cannot be
// trusted.
func (sv *solver) probe(lo, hi float64, atLo bool) error {
	switched := false
	for i := 1; i <= paramProbes; i++ {
		x := lo + (hi-lo)*float64(i)/float64(paramProbes+1)
		st, err := sv.try(x)
		if err != nil {
			return err
		}
		if st.holds != atLo {
			switched = true
		} else if switched {
			at := sv.fp.In.Name + " = " + sv.s.valueText(sv.fp, x)
			note := fmt.Sprintf("at %s it goes back; narrow the range to where the result only rises or only falls", at)
			if st.fail != nil {
				note = fmt.Sprintf("at %s the %s cannot be evaluated (%s), which counts as not holding; narrow the range to where it can", at, sv.what(), st.fail.Message)
			}
			return &solveFailure{
				msg: fmt.Sprintf("%s switches more than once as %s runs over [%s, %s], so the search cannot be trusted",
					sv.s.sourceText(sv.fp.Cond), sv.fp.In.Name, sv.s.valueText(sv.fp, lo), sv.s.valueText(sv.fp, hi)),
				notes: []string{note}, related: failureAt(st.fail, at),
			}
		}
	}
	return nil
}

// warnAboveCeiling warns when a factor's answer is above the job's
// ceiling for it: the target needs more than the factor's owner can
// reach.
func (s *Scenario) warnAboveCeiling(d *check.Decl, answer *point) {
	fp := d.Plan.Find
	if fp.In.Kind != check.InFactor {
		return
	}
	c := s.of(d.Plan.Job).job.in.Ceilings[fp.In.Factor]
	x := answer.vals[0]
	if !c.Set || x <= c.Value {
		return
	}
	ids := d.Plan.Solve.Find.Input
	diag := &lang.Diagnostic{Severity: lang.Warning, Pos: ids[0].Start(), End: ids[len(ids)-1].End(),
		Summary: fmt.Sprintf("%s needs %s %s, above its ceiling %s", d.Name.Name, fp.In.Name, strconv.FormatFloat(x, 'g', 5, 64), units.FormatNumber(c.Value)),
		Notes:   []string{fmt.Sprintf("job %s's owner of %s can reach %s; the target needs more", d.Plan.Job.Name.Name, fp.In.Name, units.FormatNumber(c.Value))},
	}
	s.ev.diags = append(s.ev.diags, diag)
}

// valueText writes a value of the solve's input.
func (s *Scenario) valueText(fp *check.FindPlan, v float64) string {
	return NumberValue(v, fp.In.Type.Dim).String()
}

// gotText writes a value of a result.
func gotText(def *results.Def, v float64) string {
	if math.IsInf(v, 0) {
		return "undefined (mpg is 0)"
	}
	return NumberValue(v, def.Type.Dim).String()
}

// sourceText is an expression as gpl fmt writes it.
func (s *Scenario) sourceText(e lang.Expr) string { return format.ExprString(e) }

// statAt is the statistic the condition compares at the try pt (the
// searched input at x): the job's result over the samples of its file,
// the input x in every sample; plain, the result got at the medians,
// when the job reads no distribution.
func (sv *solver) statAt(pt *point, x, plain float64) (float64, *PointFailure) {
	job := sv.d.Plan.Job
	param := sv.fp.In.Kind == check.InParam
	js := sv.samples
	if js == nil || param {
		sc := sv.s
		if param {
			sc = pt.sc // the job's samples with the param at x
		}
		var ok bool
		js, ok = sc.newJobSamples(job)
		if !ok {
			return 0, &PointFailure{Message: fmt.Sprintf("job %s cannot be solved sample by sample for %s (it lies in time, or its pool reads a distribution): solve over file, find a param it reads such that %s.%s", job.Name.Name, sv.fp.Subject, job.Name.Name, sv.fp.Subject),
				Pos: sv.d.Name.Start(), End: sv.d.Name.End()}
		}
		if js == nil {
			return plainStat(plain, sv.fp.Stat), nil
		}
		if param {
			defer js.release()
		} else {
			sv.samples = js
		}
	}
	if !param {
		sv.set.SetRows(&js.rows, x)
	}
	sv.s.countSamples(int64(js.cs.n))
	v, err := js.stat(sv.fp.Result, sv.fp.Stat, sv.fp.StatQ)
	if err != nil {
		return 0, &PointFailure{Message: sampleFailure(err, js.cs.n), Pos: sv.d.Name.Start(), End: sv.d.Name.End()}
	}
	return v, nil
}
