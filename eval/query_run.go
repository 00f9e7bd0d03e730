package eval

import (
	"fmt"
	"math"
	"strings"

	"github.com/expr-lang/expr/vm"
)

func (s *Scenario) sweepPointsValue(r *ref) (Value, bool) {
	return count(float64(s.of(r.d).plan.points)), true
}

func (s *Scenario) solveValue(q solveRef, r *ref, out *sink) (Value, bool) {
	pt := s.of(r.d).plan.answer
	if pt == nil {
		return Value{}, false
	}
	v, err := pointValue(q.f, pt, "the answer of "+r.d.name.Name)
	if err != nil {
		pos, end := r.node.Span()
		out.runtimeErrorAt(pos, end, err.Error())
		return Value{}, false
	}
	return v, true
}

func (s *Scenario) pointScopeValue(r *ref, out *sink) (Value, bool) {
	pos, end := r.node.Span()
	out.errorAt(pos, end, r.text+" names a result of a sweep's point; it has a value only inside NAME.first(…)")
	return Value{}, false
}

// queryValue answers the query by streaming over the sweep's points.
func (s *Scenario) queryValue(q *sweepQuery, r *ref, out *sink) (Value, bool) {
	pos, end := r.node.Span()
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
		if answer, err = pointFieldGet(q.field, pt); err != nil { // worded only when it fails
			answer, ferr = pointValue(q.field, pt, "the point "+describeAt(r.d, pt))
		}
		return ferr == nil
	}
	switch q.method {
	case "min", "max", "argmin", "argmax":
		larger := q.method == "max" || q.method == "argmax"
		walk = s.eachPoint(r.d, func(pt *point) bool {
			v, err := resultGet(q.result, &pt.job)
			if err != nil {
				return true // undefined at this point: not a candidate
			}
			if found && (larger && v.Num <= best || !larger && v.Num >= best) {
				return true
			}
			found, best = true, v.Num
			if q.method == "min" || q.method == "max" {
				answer = v
				return true
			}
			return keep(pt)
		})
		if walk == nil && ferr == nil && !found {
			return fail("%s is undefined at every point of sweep %s", q.result.name, r.d.name.Name)
		}
	case "at":
		want := make([]float64, len(q.at))
		for i, a := range q.at {
			v, ok := s.run(a.value, out)
			if !ok {
				return Value{}, false
			}
			want[i] = v.Num
		}
		walk = s.eachPoint(r.d, func(pt *point) bool {
			for i, a := range q.at {
				if !sameValue(pt.vals[a.axis], want[i]) {
					return true
				}
			}
			found = true
			keep(pt)
			return false
		})
		if walk == nil && !found {
			return fail("no point of sweep %s has %s", r.d.name.Name, describeWant(r.d, q.at, want))
		}
	case "first":
		run := newPointRunner(q.cond)
		var cerr error
		walk = s.eachPoint(r.d, func(pt *point) bool {
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
			return fail("no point of sweep %s meets %s", r.d.name.Name, s.sourceText(q.cond.node))
		}
	}
	if walk != nil {
		return fail("sweep %s: %v", r.d.name.Name, walk)
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

func describeAt(d *decl, pt *point) string {
	var parts []string
	for i, ax := range d.plan.axes {
		parts = append(parts, ax.in.name+" = "+NumberValue(pt.vals[i], ax.in.typ.Dim).String())
	}
	return strings.Join(parts, ", ")
}

func describeWant(d *decl, at []atArg, want []float64) string {
	var parts []string
	for i, a := range at {
		ax := d.plan.axes[a.axis]
		parts = append(parts, ax.in.name+" = "+NumberValue(want[i], ax.in.typ.Dim).String())
	}
	return strings.Join(parts, ", ")
}

// pointRunner evaluates a condition at point after point, reusing its
// environment and virtual machine.
type pointRunner struct {
	c   *compiled
	env exprEnv
	vm  vm.VM
}

func newPointRunner(c *compiled) *pointRunner {
	return &pointRunner{c: c, env: exprEnv{N: make([]float64, c.nums), B: make([]bool, c.bools), S: make([]string, c.strs)}}
}

// holds evaluates the condition at pt; a result undefined there (a price
// over a zero mpg) makes it false.
func (pr *pointRunner) holds(pt *point) (bool, error) {
	c := pr.c
	if c.konst != nil {
		return c.konst.Bool, nil
	}
	var single Value
	for _, r := range c.refs {
		var v Value
		if ps, ok := r.plan.(pointScopeRef); ok {
			var err error
			if v, err = resultGet(ps.def, &pt.job); err != nil {
				if err == errNoRate {
					return false, fmt.Errorf("the job has no rate, so %s is undefined", ps.def.name)
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
				return false, fmt.Errorf("%s cannot be evaluated", r.text)
			}
		}
		if c.prog == nil {
			single = v
			continue
		}
		switch r.typ.Kind {
		case Number:
			pr.env.N[r.slot] = v.Num
		case Bool:
			pr.env.B[r.slot] = v.Bool
		default:
			pr.env.S[r.slot] = v.Str
		}
	}
	if c.prog == nil {
		return single.Bool, nil
	}
	res, err := pr.vm.Run(c.prog, pr.env)
	if _, zero := divisorAt(err); zero {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	b, _ := res.(bool)
	return b, nil
}
