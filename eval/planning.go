package eval

import (
	"errors"
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// planValues are what one evaluation computed for a planning declaration.
type planValues struct {
	axes   []axisValues // a sweep's axes
	points int          // a sweep's number of points
	answer *point       // a solve's answer
	runs   int          // the engine runs (or evaluations) a solve took
	// border is why the file cannot be evaluated at the value next to a
	// solve's answer, when it cannot; failed counts a sweep's points
	// that cannot be evaluated, when the load walked them (evalSweep).
	border *PointFailure
	failed int
}

// planValue computes what a refPlan reads in this evaluation.
func (s *Scenario) planValue(r *check.Ref, out *sink) (Value, bool) {
	switch q := r.Plan.(type) {
	case check.BestRef:
		return s.bestValue(r, out)
	case check.RatioRef:
		return s.ratioValue(q, r, out)
	case check.GroupRef:
		return s.figureValue(q, r, out)
	case check.OwnerRef:
		return s.ownerValue(q, r, out)
	case check.SweepPointsRef:
		return s.sweepPointsValue(r)
	case *check.SweepQuery:
		return s.queryValue(q, r, out)
	case check.SolveRef:
		return s.solveValue(q, r, out)
	case check.PointScopeRef, check.PointStatRef:
		return s.pointScopeValue(r, out)
	case check.PoolResultRef:
		return s.poolResultValue(q, r, out) // capacity.go
	}
	panic(fmt.Sprintf("planValue: %T", r.Plan))
}

// evalMembers evaluates the jobs a group or compare lists.
func (s *Scenario) evalMembers(d *check.Decl) bool {
	ok := true
	for _, m := range d.Plan.Members {
		ok = s.force(m) && ok
	}
	return ok
}

// point is a job with some inputs replaced, or the whole file with some
// params replaced: a sweep's point or a solve's answer.
type point struct {
	job    jobState
	res    goodput.Result // the job's result at this point (job.kept)
	vals   []float64      // the varied inputs' values, base units, in axis order
	above  [goodput.NumFactors]bool
	sc     *Scenario // the evaluation its values come from (one per param value; over the file, the point's own)
	params map[*check.Decl]Value
	// file is set for a point of a what-if over the whole file, whose
	// values are all sc's: it has no job of its own.
	file bool
	// fail says why the point cannot be evaluated; nil when it can.
	fail *PointFailure
	// stat is, for a solve over a job whose condition reads a
	// statistic, that statistic of the result at this point (base
	// units).
	stat float64
	// sweep is the sweep over a job whose point this is, for a
	// statistic of its result (show mpg.p10; statValue), and js the
	// job's rows over the samples it read them from, made for the
	// evaluation jsOf (nil js: the file has no distribution).
	sweep *check.Decl
	js    *jobSamples
	jsOf  *Scenario
}

// Own makes a copy of a point read its own result, not the original's,
// which the walk over a sweep's points goes on to overwrite.
func (pt *point) own() {
	if pt.job.kept != nil {
		pt.job.kept = &pt.res
	}
}

// settle makes the point's inputs valid for the engine: a factor above its
// ceiling is a what-if, so the ceiling rises to it (its lever is then its
// own mpg) and the point is marked.
func (pt *point) settle() {
	pt.job.kept = nil
	in := &pt.job.in
	for f := range goodput.NumFactors {
		pt.above[f] = false
		if c := in.Ceilings[f]; c.Set && in.Factors[f].Value > c.Value {
			in.Ceilings[f] = in.Factors[f]
			pt.above[f] = true
		}
	}
}

// aboveCeiling lists the factors of the point that are above their
// ceilings: over a job, their long names; over the file, JOB.FACTOR.
func (pt *point) aboveCeiling() []string {
	if pt.file {
		return pt.sc.aboveCeilings()
	}
	var out []string
	for f := range goodput.NumFactors {
		if pt.above[f] {
			out = append(out, results.FactorNames[f])
		}
	}
	return out
}

// pointFieldGet reads the field f at pt. A point that cannot be
// evaluated has no field but its varied params.
func pointFieldGet(f check.PointField, pt *point) (Value, error) {
	if f.Param != nil {
		pt.sc.force(f.Param)
		return *pt.sc.value(f.Param), nil
	}
	if pt.fail != nil {
		return Value{}, pt.fail
	}
	if f.Expr != nil {
		return pt.sc.runAt(f.Expr)
	}
	return resultGet(f.Def, &pt.job)
}

// runAt evaluates c in this evaluation (a point's): its value, or the
// first error it met as an error.
func (s *Scenario) runAt(c *check.Compiled) (Value, error) {
	var out sink
	v, ok := s.run(c, &out)
	if ok {
		return v, nil
	}
	for _, ds := range []lang.Diagnostics{out.diags, s.ev.diags} {
		if len(ds) > 0 {
			return Value{}, errors.New(ds[0].Summary)
		}
	}
	return Value{}, fmt.Errorf("%s cannot be evaluated", s.sourceText(c.Node))
}

// pointValue words a failed read of a point's field; what names the
// point, and at gives its inputs ("mtbf = 5 min").
func pointValue(f check.PointField, pt *point, what, at string) (Value, error) {
	v, err := pointFieldGet(f, pt)
	if err == nil {
		return v, nil
	}
	if pt.fail != nil {
		return Value{}, &pointError{msg: what + " cannot be evaluated: " + pt.fail.Message, fail: pt.fail, at: at}
	}
	if f.Expr != nil {
		return Value{}, fmt.Errorf("%s at %s is undefined: %w", pt.sc.sourceText(f.Expr.Node), what, err)
	}
	if err == errNoRate {
		return Value{}, fmt.Errorf("%s has no rate, so %s is undefined", what, f.Def.Name)
	}
	return Value{}, fmt.Errorf("%s of %s is undefined: %w", f.Def.Name, what, divisionError("its mpg", &pt.job, err))
}

// asInputErrors finds the engine's input errors in err.
func asInputErrors(err error, ies *goodput.InputErrors) bool {
	if errors.As(err, ies) {
		return true
	}
	var ie *goodput.InputError
	if errors.As(err, &ie) {
		*ies = goodput.InputErrors{ie}
		return true
	}
	return false
}
