package eval

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/expr-lang/expr/vm"
	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang/format"
)

func (s *Scenario) sweepPointsValue(r *check.Ref) (Value, bool) {
	return count(float64(s.of(r.Decl).plan.points)), true
}

func (s *Scenario) solveValue(q check.SolveRef, r *check.Ref, out *sink) (Value, bool) {
	pt := s.of(r.Decl).plan.answer
	if pt == nil {
		return Value{}, false
	}
	v, err := pointValue(q.Field, pt, "the answer of "+r.Decl.Name.Name, "the answer")
	if err != nil {
		pos, end := r.Node.Span()
		placeFailure(out.runtimeErrorAt(pos, end, err.Error()), err)
		return Value{}, false
	}
	return v, true
}

func (s *Scenario) pointScopeValue(r *check.Ref, out *sink) (Value, bool) {
	pos, end := r.Node.Span()
	out.errorAt(pos, end, r.Text+" names a result of a sweep's point; it has a value only inside NAME.first(…)")
	return Value{}, false
}

// queryValue answers the query by streaming over the sweep's points. A
// point that cannot be evaluated fails min, max, argmin and argmax,
// which read every point, and at when it is the point named, with the
// reason; first takes it as a point where the condition does not hold.
func (s *Scenario) queryValue(q *check.SweepQuery, r *check.Ref, out *sink) (Value, bool) {
	pos, end := r.Node.Span()
	fail := func(format string, args ...any) (Value, bool) {
		diag := out.runtimeErrorAt(pos, end, fmt.Sprintf(format, args...))
		for _, a := range args {
			if err, ok := a.(error); ok {
				placeFailure(diag, err)
			}
		}
		return Value{}, false
	}
	var (
		found  bool
		best   float64
		answer Value
		ferr   error
		walk   error
	)
	keep := func(pt *point) bool {
		var err error
		if answer, err = pointFieldGet(q.Field, pt); err != nil { // worded only when it fails
			answer, ferr = pointValue(q.Field, pt, pointName(r.Decl, pt), describeAt(r.Decl, pt))
		}
		return ferr == nil
	}
	switch q.Method {
	case "min", "max", "argmin", "argmax":
		larger := q.Method == "max" || q.Method == "argmax"
		visit := func(pt *point) bool {
			if pt.fail != nil {
				ferr = failedPoint(fmt.Sprintf("%s reads every point, and %s cannot be evaluated", queryText(r, q), pointName(r.Decl, pt)), r.Decl, pt)
				return false
			}
			v, ok := pointNumber(q, pt)
			if !ok {
				return true // undefined at this point: not a candidate
			}
			if found && (larger && v.Num <= best || !larger && v.Num >= best) {
				return true
			}
			found, best = true, v.Num
			if q.Method == "min" || q.Method == "max" {
				answer = v
				return true
			}
			return keep(pt)
		}
		if q.Of != nil || !s.extremeOverJob(r.Decl, q.Result, larger, visit) { // sweep.go
			walk = s.eachPoint(r.Decl, visit)
		}
		if walk == nil && ferr == nil && !found {
			return fail("%s is undefined at every point of sweep %s", queryOf(q), r.Decl.Name.Name)
		}
	case "at":
		want := make([]float64, len(q.At))
		for i, a := range q.At {
			v, ok := s.run(a.Value, out)
			if !ok {
				return Value{}, false
			}
			want[i] = v.Num
		}
		walk = s.eachPoint(r.Decl, func(pt *point) bool {
			for i, a := range q.At {
				if !sameValue(pt.vals[a.Axis], want[i]) {
					return true
				}
			}
			found = true
			keep(pt)
			return false
		})
		if walk == nil && !found {
			return fail("no point of sweep %s has %s", r.Decl.Name.Name, describeWant(r.Decl, q.At, want))
		}
	case "first":
		run := newPointRunner(q.Cond)
		var cerr error
		walk = s.eachPoint(r.Decl, func(pt *point) bool {
			holds, err := run.holds(pt)
			if err != nil {
				cerr = err
				return false
			}
			if holds {
				found = true
				keep(pt)
				return false
			}
			return true
		})
		if cerr != nil {
			return fail("%s", cerr)
		}
		if walk == nil && !found {
			return fail("no point of sweep %s meets %s", r.Decl.Name.Name, s.sourceText(q.Cond.Node))
		}
	}
	if walk != nil {
		return fail("sweep %s: %v", r.Decl.Name.Name, walk)
	}
	if ferr != nil {
		return fail("%v", ferr)
	}
	return answer, true
}

// pointNumber is what min, max, argmin and argmax read at pt; false where
// it is undefined (a price over a zero mpg, a division by zero).
func pointNumber(q *check.SweepQuery, pt *point) (Value, bool) {
	if q.Of != nil {
		v, err := pt.sc.runAt(q.Of)
		return v, err == nil
	}
	v, err := resultGet(q.Result, &pt.job)
	return v, err == nil
}

// queryText is the query as written, or as its parts say it.
func queryText(r *check.Ref, q *check.SweepQuery) string {
	if q.What != "" {
		return q.What
	}
	return r.Decl.Name.Name + "." + q.Method + "(" + queryOf(q) + ")"
}

// queryOf names what min, max, argmin and argmax read: a result's name,
// or the expression as written.
func queryOf(q *check.SweepQuery) string {
	if q.Of != nil {
		return format.ExprString(q.Of.Node)
	}
	return q.Result.Name
}

// pointName names a point of the sweep d: "the point mtbf = 5 min of
// sweep s".
func pointName(d *check.Decl, pt *point) string {
	return "the point " + describeAt(d, pt) + " of sweep " + d.Name.Name
}

// sameValue reports whether a point's value is the one asked for, up to
// the rounding of from + i × step.
func sameValue(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

func describeAt(d *check.Decl, pt *point) string {
	var parts []string
	for i, ax := range d.Plan.Axes {
		parts = append(parts, ax.In.Name+" = "+NumberValue(pt.vals[i], ax.In.Type.Dim).String())
	}
	return strings.Join(parts, ", ")
}

func describeWant(d *check.Decl, at []check.AtArg, want []float64) string {
	var parts []string
	for i, a := range at {
		ax := d.Plan.Axes[a.Axis]
		parts = append(parts, ax.In.Name+" = "+NumberValue(want[i], ax.In.Type.Dim).String())
	}
	return strings.Join(parts, ", ")
}

// pointRunner evaluates an expression at point after point (a first's
// condition, a show column), reusing its environment and virtual
// machine. Over the file, the expression reads the point's evaluation.
type pointRunner struct {
	c   *check.Compiled
	env check.ExprEnv
	vm  vm.VM
}

func newPointRunner(c *check.Compiled) *pointRunner {
	return &pointRunner{c: c, env: check.ExprEnv{Numbers: make([]float64, c.Nums), Bools: make([]bool, c.Bools), Strings: make([]string, c.Strs)}}
}

// errUndefinedHere is a value undefined at a point: a result over a zero
// mpg, a division by zero. A condition does not hold there; a column has
// no value.
type errUndefinedHere struct{ why error }

func (e *errUndefinedHere) Error() string { return e.why.Error() }
func (e *errUndefinedHere) Unwrap() error { return e.why }

// holds evaluates the condition at pt; a result undefined there (a price
// over a zero mpg), or a point that cannot be evaluated, makes it false.
func (pr *pointRunner) holds(pt *point) (bool, error) {
	if pt.fail != nil {
		return false, nil
	}
	v, err := pr.value(pt)
	var u *errUndefinedHere
	if errors.As(err, &u) {
		return false, nil
	}
	return v.Bool, err
}

// value evaluates the expression at pt: an *errUndefinedHere where a value
// it reads is undefined there, another error when it cannot be computed
// at all (a result of a job without a rate).
func (pr *pointRunner) value(pt *point) (Value, error) {
	c := pr.c
	if c.Const != nil {
		return *c.Const, nil
	}
	if pt.file {
		v, err := pt.sc.runAt(c)
		if err != nil {
			return Value{}, &errUndefinedHere{err}
		}
		return v, nil
	}
	var single Value
	for _, r := range c.Refs {
		var v Value
		if q, ok := r.Plan.(check.PointStatRef); ok {
			var err error
			if v, err = pt.statValue(q); err != nil {
				return Value{}, err
			}
		} else if ps, ok := r.Plan.(check.PointScopeRef); ok {
			var err error
			if v, err = resultGet(ps.Def, &pt.job); err != nil {
				if err == errNoRate {
					return Value{}, fmt.Errorf("the job has no rate, so %s is undefined", ps.Def.Name)
				}
				return Value{}, &errUndefinedHere{fmt.Errorf("%s is undefined: %w", ps.Def.Name, divisionError("its mpg", &pt.job, err))}
			}
		} else {
			var sk sink
			var ok bool
			if v, ok = pt.sc.refValue(r, &sk); !ok {
				if len(sk.diags) > 0 {
					return Value{}, fmt.Errorf("%s", sk.diags[0].Summary)
				}
				return Value{}, fmt.Errorf("%s cannot be evaluated", r.Text)
			}
		}
		if c.Prog == nil {
			single = v
			continue
		}
		switch r.Type.Kind {
		case Number:
			pr.env.Numbers[r.Slot] = v.Num
		case Bool:
			pr.env.Bools[r.Slot] = v.Bool
		default:
			pr.env.Strings[r.Slot] = v.Str
		}
	}
	if c.Prog == nil {
		return single, nil
	}
	res, err := pr.vm.Run(c.Prog, pr.env)
	if _, zero := divisorAt(err); zero {
		return Value{}, &errUndefinedHere{errors.New("division by zero")}
	}
	if _, msg, ok := funcs.ArgErrorAt(err); ok {
		return Value{}, &errUndefinedHere{errors.New(msg)}
	}
	if err != nil {
		return Value{}, err
	}
	v, ok := value.FromGo(res, c.Type)
	if !ok || !check.Finite(v) {
		return Value{}, &errUndefinedHere{errors.New("the result is not a finite number")}
	}
	return v, nil
}
