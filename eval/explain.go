package eval

import (
	"fmt"
	"slices"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/explain"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is the evaluator's side of package explain, which writes
// :explain's lines: thin methods of the API calling it, and the adapters
// through which it reads an evaluation (explainJob, explainScenario,
// explainPoint).

// Explain shows how one of the job's results was computed, step by step
// with the numbers: first each derived result it is computed from, in the
// order they are needed, then the result itself, one line each:
//
//	mpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215
//	cost_per_useful_hour = rate / mpg = $2.50/h / 0.28215 = $8.8605/h
//
// An input (a factor, a ceiling, devices, hours, rate) is explained by
// where its value was set. The result is named as for Get, aliases
// included; the error is Get's when the result is unknown or undefined.
func (j *Job) Explain(result string) (_ string, err error) {
	defer recoverInto(&err)
	return explain.Result(explainJob{j}, result)
}

// FieldNames lists what may follow "NAME." in an expression: a job's
// results (as ResultNames), a pool's or a request's fields; nil for a
// value, a ruleset or an unknown name. It serves completion.
func (s *Scenario) FieldNames(name string) []string {
	d, ok := s.p.Decls[name]
	if !ok {
		return nil
	}
	if f := evalKinds[d.Kind].fields; f != nil {
		return f(s, d)
	}
	return nil
}

// planningFieldNames lists what may follow "NAME." for a planning
// declaration (see explain.FieldNames).
func (s *Scenario) planningFieldNames(d *check.Decl) []string {
	return explain.FieldNames(d, s.pointNames(d))
}

// pointNames are the names a point of d reads besides its params: over a
// job, the job's results; over the whole file, its declarations but the
// what-ifs (fleet, pretrain), whose figures follow their own dot.
func (s *Scenario) pointNames(d *check.Decl) []string {
	if !d.OverFile() {
		return ResultNames()
	}
	var out []string
	for _, x := range s.p.Order {
		if !check.DeclKinds[x.Kind].WhatIf && x.Kind != check.DeclParam {
			out = append(out, x.Name.Name)
		}
	}
	return out
}

// PointFieldNames lists what may follow a sweep's query that gives a
// point, "NAME.at(…).": the params the sweep varies, then the job's
// results. It is nil when name is not a sweep.
func (s *Scenario) PointFieldNames(name string) []string {
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclSweep {
		return nil
	}
	return explain.PointFieldNames(d, s.pointNames(d))
}

// ExplainPlanning explains an expression that reads one planning answer:
// SWEEP.at(…).RESULT (or argmin, argmax, first, min, max), SOLVE.FIELD,
// GROUP.FIGURE, owner_loss_cost(GROUP, "team"), owner_saving(…),
// COMPARE.best and COMPARE.ratio(JOB). ok is false when the expression is
// something else (the caller explains it its own way); err is set when
// it is one of these and cannot be explained, or does not compile.
func (s *Scenario) ExplainPlanning(text string) (out string, ok bool, err error) {
	defer recoverInto(&err)
	c, err := s.compileText("<explain>", text)
	if err != nil {
		return "", false, err
	}
	return explain.Planning(explainScenario{s}, c, text)
}

// explainJob is a Job as package explain reads it.
type explainJob struct{ j *Job }

func (e explainJob) Get(name string) (Value, error) { return e.j.Get(name) }
func (e explainJob) Decl() *check.Decl              { return e.j.d }
func (e explainJob) Lookup(name string) *check.Decl { return e.j.s.p.Decls[name] }

func (e explainJob) Row(d *results.Def, v Value) (formula, line string, ok bool) {
	row := resultRuns()[d.Index].explain
	if row == nil {
		return "", "", false
	}
	formula, line = row(e.j, v)
	return formula, line, true
}

// explainPoint is a sweep's point or a solve's answer as package explain
// reads it.
type explainPoint struct{ pt *point }

func (e explainPoint) Field(f check.PointField) (Value, error) { return pointFieldGet(f, e.pt) }
func (e explainPoint) AboveCeiling() []string                  { return e.pt.aboveCeiling() }
func (e explainPoint) Describe(d *check.Decl) string           { return describeAt(d, e.pt) }

// Job is the job d at the point, as a Job whose results and explanations
// read the point's inputs.
func (e explainPoint) Job(d *check.Decl) explain.Job {
	pt := e.pt
	c := *pt.sc
	c.vals = slices.Clone(pt.sc.vals)
	pc := *pt
	pc.own()
	c.vals[d.Slot].job = &pc.job
	c.vals[d.Slot].state = check.Done
	j, _ := c.jobOf(d)
	return explainJob{j}
}

// explainScenario is a Scenario as package explain reads it.
type explainScenario struct{ s *Scenario }

func (e explainScenario) Points(d *check.Decl) int { return e.s.of(d).plan.points }
func (e explainScenario) GroupValue(d *check.Decl, fig *check.GroupFigure) (Value, error) {
	return e.s.groupValue(d, fig)
}
func (e explainScenario) JobResult(d *check.Decl, name string) (Value, error) {
	return e.s.jobResult(d, name)
}
func (e explainScenario) FactorOwner(d *check.Decl, f goodput.Factor) string {
	return e.s.factorOwner(d, f)
}
func (e explainScenario) CompareBest(d *check.Decl) (*check.Decl, error) { return e.s.compareBest(d) }
func (e explainScenario) SourceText(x lang.Expr) string                  { return e.s.sourceText(x) }
func (e explainScenario) ValueText(fp *check.FindPlan, v float64) string {
	return e.s.valueText(fp, v)
}

func (e explainScenario) OwnerValue(r *check.Ref, o check.OwnerRef) (Value, error) {
	var out sink
	v, ok := e.s.ownerValue(o, r, &out)
	if !ok {
		if len(out.diags) > 0 {
			return Value{}, fmt.Errorf("%s", out.diags[0].Summary)
		}
		return Value{}, fmt.Errorf("%s cannot be computed", r.Text)
	}
	return v, nil
}

func (e explainScenario) Ratio(d, job *check.Decl) (float64, error) {
	s, first := e.s, d.Plan.Members[0]
	ratio, err := goodput.TradeRatio(s.of(first).job.result(), s.of(job).job.result())
	if err != nil {
		return 0, fmt.Errorf("%s.ratio(%s) is undefined: %v", d.Name.Name, job.Name.Name, divisionError("the mpg of "+first.Name.Name, s.of(first).job, err))
	}
	return ratio, nil
}

// Solve repeats enough of the search of the solve d to say how it found
// its answer.
func (e explainScenario) Solve(d *check.Decl) (explain.Solve, error) {
	s := e.s
	pv := s.of(d).plan
	if pv == nil || pv.answer == nil {
		return explain.Solve{}, fmt.Errorf("solve %s has no answer", d.Name.Name)
	}
	fp := d.Plan.Find
	lo, hi := 0.0, 1.0
	var out sink
	if fp.Lo != nil {
		l, lok := s.run(fp.Lo, &out)
		h, hok := s.run(fp.Hi, &out)
		if !lok || !hok {
			return explain.Solve{}, fmt.Errorf("solve %s: its range cannot be computed", d.Name.Name)
		}
		lo, hi = l.Num, h.Num
	}
	t, _ := s.run(fp.Target, &out)
	sv := &solver{s: s, d: d, fp: fp, target: t.Num}
	if !d.OverFile() {
		sv.base = s.of(d.Plan.Job).job.in
	}
	atHi, err := sv.try(hi)
	if err != nil {
		return explain.Solve{}, err
	}
	return explain.Solve{Answer: explainPoint{pv.answer}, Value: pv.answer.vals[0], Runs: pv.runs, Lo: lo, Hi: hi, HoldsAtHi: atHi.holds}, nil
}

// Locate finds the point a query picks; for min and max, the first point
// with the extreme, and the extreme itself.
func (e explainScenario) Locate(r *check.Ref, q *check.SweepQuery) (explain.Point, Value, error) {
	s := e.s
	var (
		found *point
		best  Value
		out   sink
		cerr  error
	)
	keep := func(pt *point) {
		c := *pt
		c.own()
		c.vals = slices.Clone(pt.vals)
		found = &c
	}
	var walk error
	switch q.Method {
	case "min", "max", "argmin", "argmax":
		larger := q.Method == "max" || q.Method == "argmax"
		walk = s.eachPoint(r.Decl, func(pt *point) bool {
			if pt.fail != nil {
				cerr = failedPoint(fmt.Sprintf("%s reads every point, and %s cannot be evaluated", queryText(r, q), pointName(r.Decl, pt)), r.Decl, pt)
				return false
			}
			v, ok := pointNumber(q, pt)
			if !ok || found != nil && (larger && v.Num <= best.Num || !larger && v.Num >= best.Num) {
				return true
			}
			best = v
			keep(pt)
			return true
		})
	case "at":
		want := make([]float64, len(q.At))
		for i, a := range q.At {
			v, ok := s.run(a.Value, &out)
			if !ok {
				return nil, Value{}, fmt.Errorf("%s: its point cannot be found", q.What)
			}
			want[i] = v.Num
		}
		walk = s.eachPoint(r.Decl, func(pt *point) bool {
			for i, a := range q.At {
				if !sameValue(pt.vals[a.Axis], want[i]) {
					return true
				}
			}
			keep(pt)
			return false
		})
		if walk == nil && found == nil {
			return nil, Value{}, fmt.Errorf("no point of sweep %s has %s", r.Decl.Name.Name, describeWant(r.Decl, q.At, want))
		}
	case "first":
		run := newPointRunner(q.Cond)
		walk = s.eachPoint(r.Decl, func(pt *point) bool {
			holds, err := run.holds(pt)
			if err != nil {
				cerr = err
				return false
			}
			if holds {
				keep(pt)
			}
			return !holds
		})
	}
	switch {
	case walk != nil:
		return nil, Value{}, fmt.Errorf("sweep %s: %v", r.Decl.Name.Name, walk)
	case cerr != nil:
		return nil, Value{}, cerr
	case found == nil && q.Method == "first":
		return nil, Value{}, fmt.Errorf("no point of sweep %s meets %s", r.Decl.Name.Name, s.sourceText(q.Cond.Node))
	case found == nil:
		return nil, Value{}, fmt.Errorf("%s is undefined at every point of sweep %s", queryOf(q), r.Decl.Name.Name)
	}
	return explainPoint{found}, best, nil
}
