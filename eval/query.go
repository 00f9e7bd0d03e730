package eval

import (
	"fmt"
	"math"
	"strings"

	"github.com/expr-lang/expr/vm"
	"github.com/gpl-lang/gpl/eval/internal/check"
)

func (s *Scenario) sweepPointsValue(r *check.Ref) (Value, bool) {
	return count(float64(s.of(r.Decl).plan.points)), true
}

func (s *Scenario) solveValue(q check.SolveRef, r *check.Ref, out *sink) (Value, bool) {
	pt := s.of(r.Decl).plan.answer
	if pt == nil {
		return Value{}, false
	}
	v, err := pointValue(q.Field, pt, "the answer of "+r.Decl.Name.Name)
	if err != nil {
		pos, end := r.Node.Span()
		out.runtimeErrorAt(pos, end, err.Error())
		return Value{}, false
	}
	return v, true
}

func (s *Scenario) pointScopeValue(r *check.Ref, out *sink) (Value, bool) {
	pos, end := r.Node.Span()
	out.errorAt(pos, end, r.Text+" names a result of a sweep's point; it has a value only inside NAME.first(…)")
	return Value{}, false
}

// queryValue answers the query by streaming over the sweep's points.
func (s *Scenario) queryValue(q *check.SweepQuery, r *check.Ref, out *sink) (Value, bool) {
	pos, end := r.Node.Span()
	fail := func(format string, args ...any) (Value, bool) {
		out.runtimeErrorAt(pos, end, fmt.Sprintf(format, args...))
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
			answer, ferr = pointValue(q.Field, pt, "the point "+describeAt(r.Decl, pt))
		}
		return ferr == nil
	}
	switch q.Method {
	case "min", "max", "argmin", "argmax":
		larger := q.Method == "max" || q.Method == "argmax"
		walk = s.eachPoint(r.Decl, func(pt *point) bool {
			v, err := resultGet(q.Result, &pt.job)
			if err != nil {
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
		})
		if walk == nil && ferr == nil && !found {
			return fail("%s is undefined at every point of sweep %s", q.Result.Name, r.Decl.Name.Name)
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

// pointRunner evaluates a condition at point after point, reusing its
// environment and virtual machine.
type pointRunner struct {
	c   *check.Compiled
	env check.ExprEnv
	vm  vm.VM
}

func newPointRunner(c *check.Compiled) *pointRunner {
	return &pointRunner{c: c, env: check.ExprEnv{Numbers: make([]float64, c.Nums), Bools: make([]bool, c.Bools), Strings: make([]string, c.Strs)}}
}

// holds evaluates the condition at pt; a result undefined there (a price
// over a zero mpg) makes it false.
func (pr *pointRunner) holds(pt *point) (bool, error) {
	c := pr.c
	if c.Const != nil {
		return c.Const.Bool, nil
	}
	var single Value
	for _, r := range c.Refs {
		var v Value
		if ps, ok := r.Plan.(check.PointScopeRef); ok {
			var err error
			if v, err = resultGet(ps.Def, &pt.job); err != nil {
				if err == errNoRate {
					return false, fmt.Errorf("the job has no rate, so %s is undefined", ps.Def.Name)
				}
				return false, nil
			}
		} else {
			var sk sink
			var ok bool
			if v, ok = pt.sc.refValue(r, &sk); !ok {
				if len(sk.diags) > 0 {
					return false, fmt.Errorf("%s", sk.diags[0].Summary)
				}
				return false, fmt.Errorf("%s cannot be evaluated", r.Text)
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
		return single.Bool, nil
	}
	res, err := pr.vm.Run(c.Prog, pr.env)
	if _, zero := divisorAt(err); zero {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	b, _ := res.(bool)
	return b, nil
}
