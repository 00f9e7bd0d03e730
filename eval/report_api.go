package eval

import (
	"fmt"
	"math"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is what gpl report reads of sweeps and solves to draw them:
// each sweep axis with the base job's value of its input, the engine's
// whole result at each point, and a solve's result sampled over its
// range.

// SweepAxis is one varied input of a sweep.
type SweepAxis struct {
	// Input is the input's canonical name; Kind what it is: "factor",
	// "ceiling", "devices", "hours", "rate" or "param".
	Input, Kind string
	Dim         units.Dim
	// N is how many values the axis takes.
	N int
	// Base is the base job's own value of the input, in base units.
	Base float64
	// Ceiling is the base job's ceiling for a varied factor; HasCeiling
	// is false for any other input, and for a factor without one.
	Ceiling    float64
	HasCeiling bool
}

var inputKindNames = [...]string{check.InFactor: "factor", check.InCeiling: "ceiling", check.InDevices: "devices", check.InHours: "hours", check.InRate: "rate", check.InParam: "param"}

// SweepAxes describes the named sweep's varied inputs, outermost first.
func (s *Scenario) SweepAxes(name string) (_ []SweepAxis, err error) {
	defer recoverInto(&err)
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclSweep {
		return nil, fmt.Errorf("%s is not a sweep of the file", name)
	}
	pv := s.of(d).plan
	if pv == nil || s.of(d).state != check.Done {
		return nil, fmt.Errorf("sweep %s could not be evaluated", name)
	}
	var in goodput.Inputs
	if !d.OverFile() {
		in = s.of(d.Plan.Job).job.in
	}
	var out []SweepAxis
	for i, ax := range d.Plan.Axes {
		a := SweepAxis{Input: ax.In.Name, Kind: inputKindNames[ax.In.Kind], Dim: ax.In.Type.Dim, N: pv.axes[i].n}
		a.Base = s.inputBase(ax.In, &in)
		if ax.In.Kind == check.InFactor && in.Ceilings[ax.In.Factor].Set {
			a.Ceiling, a.HasCeiling = in.Ceilings[ax.In.Factor].Value, true
		}
		out = append(out, a)
	}
	return out, nil
}

// inputBase is the job's value of an input, in base units.
func (s *Scenario) inputBase(in check.Input, x *goodput.Inputs) float64 {
	switch in.Kind {
	case check.InFactor:
		return x.Factors[in.Factor].Value
	case check.InCeiling:
		return x.Ceilings[in.Factor].Value
	case check.InDevices:
		return x.Devices
	case check.InHours:
		return units.FromUnit(x.Hours, units.Hour)
	case check.InRate:
		return units.FromUnit(x.Rate.Value, units.USDPerHour)
	}
	return s.value(in.Param).Num
}

// SweepBaseColumns are the named sweep's show columns at the file's own
// point: over the file, as this evaluation has them; over a job, at the
// job's own inputs. An undefined one has Err set; nil without a show line.
func (s *Scenario) SweepBaseColumns(name string) ([]Result, error) {
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclSweep {
		return nil, fmt.Errorf("%s is not a sweep of the file", name)
	}
	if s.of(d).state != check.Done {
		return nil, fmt.Errorf("sweep %s could not be evaluated", name)
	}
	pt := &point{sc: s, file: d.OverFile()}
	if !pt.file {
		pt.job = *s.of(d.Plan.Job).job
	}
	var out []Result
	for _, c := range d.Plan.Shows {
		v, err := newPointRunner(c.Expr).value(pt)
		out = append(out, Result{Name: c.Name, Value: v, Err: err})
	}
	return out, nil
}

// SweepResults calls fn with each point of the named sweep over a job, in
// the order of SweepPoints: the varied inputs' values in base units and
// the goodput engine's result there (device-hours, USD), nil at a point
// that cannot be evaluated, until fn returns false. Neither vals nor r
// may be kept: both are reused. A sweep over the whole file has no job's
// result: SweepPoints gives its columns.
func (s *Scenario) SweepResults(name string, fn func(vals []float64, r *goodput.Result) bool) (err error) {
	var inFn bool
	defer recoverOutside(&inFn, &err)
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclSweep {
		return fmt.Errorf("%s is not a sweep of the file", name)
	}
	if d.OverFile() {
		return fmt.Errorf("sweep %s is over the whole file; its points have no job's result", name)
	}
	return s.eachPoint(d, func(pt *point) bool {
		inFn = true
		defer func() { inFn = false }()
		if pt.fail != nil {
			return fn(pt.vals, nil)
		}
		r := pt.job.result()
		return fn(pt.vals, &r)
	})
}

// SolveCurve is a solve's result sampled across the range it searched.
type SolveCurve struct {
	// Input is the input searched, Result the result its condition reads
	// (canonical names), and Op the comparison with Target.
	Input, Result, Op   string
	InputDim, ResultDim units.Dim
	// Lo, Hi, Target and the points are in base units. Points are (input,
	// result) pairs in input order; a value where the result is undefined
	// (a price over a zero mpg) is left out.
	Lo, Hi, Target float64
	Points         [][2]float64
	// Ceiling is the job's ceiling for a searched factor.
	Ceiling    float64
	HasCeiling bool
	// Failed are the values sampled where the file (over a job, the
	// job) cannot be evaluated, left out of Points, each with why.
	Failed []FailedValue
}

// FailedValue is a value a solve tried where the file (over a job, the
// job) cannot be evaluated: X in base units, and why.
type FailedValue struct {
	X       float64
	Failure *PointFailure
}

// SolveCurve samples the named solve's result at n evenly spaced values
// of its input across its range (whole values for devices), each one run
// of the engine or, for a param, one evaluation.
func (s *Scenario) SolveCurve(name string, n int) (_ SolveCurve, err error) {
	defer recoverInto(&err)
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclSolve {
		return SolveCurve{}, fmt.Errorf("%s is not a solve of the file", name)
	}
	if s.of(d).state != check.Done || s.of(d).plan == nil || s.of(d).plan.answer == nil {
		return SolveCurve{}, fmt.Errorf("solve %s has no answer", name)
	}
	fp := d.Plan.Find
	c := SolveCurve{Input: fp.In.Name, Result: fp.Subject, Op: fp.Op, InputDim: fp.In.Type.Dim, Lo: 0, Hi: 1}
	if fp.Result != nil {
		c.ResultDim = fp.Result.Type.Dim
	} else {
		c.ResultDim = fp.Of.Type.Dim
	}
	var sink sink
	if fp.Lo != nil {
		l, lok := s.run(fp.Lo, &sink)
		h, hok := s.run(fp.Hi, &sink)
		if !lok || !hok {
			return c, fmt.Errorf("solve %s: its range could not be evaluated", name)
		}
		c.Lo, c.Hi = l.Num, h.Num
	}
	t, tok := s.run(fp.Target, &sink)
	if !tok {
		return c, fmt.Errorf("solve %s: its target could not be evaluated", name)
	}
	c.Target = t.Num
	var base goodput.Inputs
	if !d.OverFile() {
		base = s.of(d.Plan.Job).job.in
	}
	if fp.In.Kind == check.InFactor && base.Ceilings[fp.In.Factor].Set {
		c.Ceiling, c.HasCeiling = base.Ceilings[fp.In.Factor].Value, true
	}
	if fp.In.Kind == check.InDevices {
		c.Lo, c.Hi = math.Ceil(c.Lo), math.Floor(c.Hi)
	}
	sv := &solver{s: s, d: d, fp: fp, base: base, target: c.Target}
	defer func() {
		if sv.samples != nil {
			sv.samples.release()
		}
	}()
	n = max(n, 2)
	last := math.NaN()
	for i := range n {
		x := c.Lo + (c.Hi-c.Lo)*float64(i)/float64(n-1)
		if fp.In.Kind == check.InDevices {
			x = math.Round(x)
		}
		if x == last {
			continue
		}
		last = x
		st, err := sv.try(x)
		if err != nil {
			return c, fmt.Errorf("solve %s: %w", name, err)
		}
		if st.fail != nil {
			c.Failed = append(c.Failed, FailedValue{x, st.fail})
			continue
		}
		if st.defined && !math.IsInf(st.got, 0) {
			c.Points = append(c.Points, [2]float64{x, st.got})
		}
	}
	return c, nil
}
