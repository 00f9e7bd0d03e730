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
	x     float64
	got   float64 // the result at x; +Inf where it divides by a zero mpg
	holds bool
}

// solver runs one solve's tries.
type solver struct {
	s      *Scenario
	d      *check.Decl
	fp     *check.FindPlan
	base   goodput.Inputs
	target float64
	runs   int
	best   point // the last point where the condition held
}

func (sv *solver) try(x float64) (solveStep, error) {
	sv.runs++
	pt := point{vals: []float64{x}, sc: sv.s}
	pt.job.in = sv.base
	job := sv.d.Plan.Job
	if sv.fp.In.Kind == check.InParam {
		params := sv.s.paramValues()
		params[sv.fp.In.Param] = NumberValue(x, sv.fp.In.Type.Dim)
		sc, err := sv.s.withParam(params, job)
		if err != nil {
			return solveStep{}, fmt.Errorf("at %s = %s: %w", sv.fp.In.Name, NumberValue(x, sv.fp.In.Type.Dim), err)
		}
		pt.sc, pt.params = sc, params
		pt.job.in = sc.of(job).job.in
	} else {
		sv.fp.In.Apply(&pt.job.in, x)
	}
	pt.settle()
	res, err := goodput.Solve(pt.job.in)
	if err != nil {
		return solveStep{}, fmt.Errorf("at %s = %s: %s", sv.fp.In.Name, NumberValue(x, sv.fp.In.Type.Dim), engineMessage(err))
	}
	pt.res, pt.job.kept = res, &pt.res
	st := solveStep{x: x}
	v, err := resultGet(sv.fp.Result, &pt.job)
	switch {
	case errors.Is(err, errNoRate):
		return solveStep{}, fmt.Errorf("job %s has no rate, so %s is undefined", job.Name.Name, sv.fp.Result.Name)
	case err != nil:
		st.got = math.Inf(1) // a price or ratio over a zero mpg
	default:
		st.got = v.Num
	}
	switch sv.fp.Op {
	case "<":
		st.holds = st.got < sv.target
	case "<=":
		st.holds = st.got <= sv.target
	case ">":
		st.holds = st.got > sv.target
	case ">=":
		st.holds = st.got >= sv.target
	}
	if st.holds {
		sv.best = pt
		sv.best.own()
	}
	return st, nil
}

func (s *Scenario) evalSolve(d *check.Decl) bool {
	pd := d.Plan
	fp := pd.Find
	s.of(d).plan = &planValues{}
	if !s.force(pd.Job) {
		return false
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
	sv := &solver{s: s, d: d, fp: fp, base: s.of(pd.Job).job.in, target: t.Num}
	answer, err := sv.search(lo, hi)
	s.of(d).plan.runs = sv.runs
	if err != nil {
		s.solveError(d, err)
		return false
	}
	if fp.In.Kind == check.InDevices && !s.answerFitsPool(d, answer) {
		return false
	}
	s.of(d).plan.answer = answer
	s.warnAboveCeiling(d, answer)
	return true
}

// solveFailure is a solve without an answer in its range.
type solveFailure struct {
	msg, note string
}

func (e *solveFailure) Error() string { return e.msg }

func (s *Scenario) solveError(d *check.Decl, err error) {
	fp := d.Plan.Find
	pos, end := fp.Cond.Span()
	diag := s.ev.errorAt(pos, end, err.Error())
	var sf *solveFailure
	if errors.As(err, &sf) && sf.note != "" {
		diag.Notes = append(diag.Notes, sf.note)
	}
}

// search bisects [lo, hi] for the value where the condition starts to
// hold, and returns the point there: the condition holds at it, and
// devices are whole.
func (sv *solver) search(lo, hi float64) (*point, error) {
	a, err := sv.try(lo)
	if err != nil {
		return nil, err
	}
	b, err := sv.try(hi)
	if err != nil {
		return nil, err
	}
	fp := sv.fp
	// Words, not [LOW, HIGH]: a bound may carry a thousands separator.
	rng := "between " + sv.s.valueText(fp, lo) + " and " + sv.s.valueText(fp, hi)
	cond := sv.s.sourceText(fp.Cond)
	switch {
	case !a.holds && !b.holds:
		closest, word := a, "most"
		if fp.Op == "<" || fp.Op == "<=" {
			word = "least"
			if b.got < a.got {
				closest = b
			}
		} else if b.got > a.got {
			closest = b
		}
		return nil, &solveFailure{
			msg: fmt.Sprintf("no %s %s gives %s; the %s is %s, at %s = %s", fp.In.Name, rng, cond, word,
				gotText(fp.Result, closest.got), fp.In.Name, sv.s.valueText(fp, closest.x)),
			note: "the condition holds nowhere in the range: widen the range or change the target",
		}
	case a.holds && b.holds:
		return nil, &solveFailure{
			msg:  fmt.Sprintf("%s holds for every %s %s, so there is no value where it starts to hold", cond, fp.In.Name, rng),
			note: "widen the range",
		}
	}
	if fp.In.Kind == check.InParam {
		if err := sv.probe(lo, hi, a.holds); err != nil {
			return nil, err
		}
	}
	good, bad := lo, hi
	if b.holds {
		good, bad = hi, lo
	}
	goodPt := sv.best
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
			return nil, err
		}
		if st.holds {
			good, goodPt = mid, sv.best
		} else {
			bad = mid
		}
	}
	goodPt.own()
	return &goodPt, nil
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
			return &solveFailure{
				msg: fmt.Sprintf("%s switches more than once as %s runs over [%s, %s], so the search cannot be trusted",
					sv.s.sourceText(sv.fp.Cond), sv.fp.In.Name, sv.s.valueText(sv.fp, lo), sv.s.valueText(sv.fp, hi)),
				note: fmt.Sprintf("at %s = %s it goes back; narrow the range to where the result only rises or only falls", sv.fp.In.Name, sv.s.valueText(sv.fp, x)),
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
