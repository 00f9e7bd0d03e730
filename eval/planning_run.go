package eval

import (
	"errors"
	"fmt"

	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// planValues are what one evaluation computed for a planning declaration.
type planValues struct {
	axes   []axisValues // a sweep's axes
	points int          // a sweep's number of points
	answer *point       // a solve's answer
	runs   int          // the engine runs (or evaluations) a solve took
}

// planValue computes what a refPlan reads in this evaluation.
func (s *Scenario) planValue(r *ref, out *sink) (Value, bool) {
	switch q := r.plan.(type) {
	case bestRef:
		return s.bestValue(r, out)
	case ratioRef:
		return s.ratioValue(q, r, out)
	case groupRef:
		return s.figureValue(q, r, out)
	case ownerRef:
		return s.ownerValue(q, r, out)
	case sweepPointsRef:
		return s.sweepPointsValue(r)
	case *sweepQuery:
		return s.queryValue(q, r, out)
	case solveRef:
		return s.solveValue(q, r, out)
	case pointScopeRef:
		return s.pointScopeValue(r, out)
	}
	panic(fmt.Sprintf("planValue: %T", r.plan))
}

// evalMembers evaluates the jobs a group or compare lists.
func (s *Scenario) evalMembers(d *decl) bool {
	ok := true
	for _, m := range d.plan.members {
		ok = s.force(m) && ok
	}
	return ok
}

// point is a job with some inputs replaced: a sweep's point or a solve's
// answer.
type point struct {
	job    jobState
	res    goodput.Result // the job's result at this point (job.kept)
	vals   []float64      // the varied inputs' values, base units, in axis order
	above  [goodput.NumFactors]bool
	sc     *Scenario // the evaluation its values come from (one per param value)
	params map[*decl]Value
}

// own makes a copy of a point read its own result, not the original's,
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
// ceilings.
func (pt *point) aboveCeiling() []string {
	var out []string
	for f := range goodput.NumFactors {
		if pt.above[f] {
			out = append(out, factorNames[f])
		}
	}
	return out
}

// pointFieldGet reads the field f at pt.
func pointFieldGet(f pointField, pt *point) (Value, error) {
	if f.param != nil {
		pt.sc.force(f.param)
		return *pt.sc.value(f.param), nil
	}
	return resultGet(f.def, &pt.job)
}

// pointValue words a failed read of a point's field.
func pointValue(f pointField, pt *point, what string) (Value, error) {
	v, err := pointFieldGet(f, pt)
	if err == nil {
		return v, nil
	}
	if err == errNoRate {
		return Value{}, fmt.Errorf("%s has no rate, so %s is undefined", what, f.def.name)
	}
	return Value{}, fmt.Errorf("%s of %s is undefined: %w", f.def.name, what, divisionError("its mpg", &pt.job, err))
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
