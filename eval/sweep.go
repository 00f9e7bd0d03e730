package eval

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// axisValues are a vary line's values in one evaluation: from + i × step
// for i in [0, n), the last being to itself when (to − from) / step is
// whole, or the listed values.
type axisValues struct {
	from, step, last float64
	n                int
	list             []float64
}

// Value is the axis's i'th value, in base units: computed, never
// accumulated, so from + 2 × step is the same number however it is
// reached.
func (a *axisValues) value(i int) float64 {
	switch {
	case a.list != nil:
		return a.list[i]
	case i == a.n-1:
		return a.last
	}
	return a.from + float64(i)*a.step
}

// evalSweep evaluates a sweep's axes, checks their values against the
// inputs' ranges and counts the points; the points themselves are
// computed when a query or the table walks them. A sweep whose points
// evaluate the file again (over it, or varying a param) is walked once
// as the file loads, to warn of the points that cannot be evaluated.
func (s *Scenario) evalSweep(d *check.Decl) bool {
	pd := d.Plan
	pv := &planValues{}
	s.of(d).plan = pv
	if d.OverFile() && !s.modelEvaluates() || !d.OverFile() && !s.force(pd.Job) {
		return false
	}
	ok := true
	total := 1.0
	for _, ax := range pd.Axes {
		av, aok := s.axis(ax)
		ok = ok && aok
		pv.axes = append(pv.axes, av)
		total *= float64(av.n)
	}
	if !ok {
		return false
	}
	if s.tooManySamples(d, total) { // uncertain.go
		return false
	}
	if cap := s.p.MaxPoints(); total > float64(cap) {
		diag := s.ev.errorAt(d.Name.Start(), d.Name.End(), fmt.Sprintf("sweep %s has %s points, more than the %s a sweep may have",
			d.Name.Name, groupInt(total), groupInt(float64(cap))))
		diag.Notes = append(diag.Notes, "vary fewer inputs or take larger steps, or raise the cap with --max-points")
		return false
	}
	pv.points = int(total)
	if !s.point && lastParam(pd.Axes) >= 0 {
		// Done, so that the walk may read it; a point's own evaluation
		// does not walk the sweeps its file reads.
		s.of(d).state = check.Done
		s.warnFailedPoints(d)
	}
	return true
}

// warnFailedPoints walks the sweep's points and warns, at its name, of
// those that cannot be evaluated: how many, and the first with why.
func (s *Scenario) warnFailedPoints(d *check.Decl) {
	pv := s.of(d).plan
	var first *PointFailure
	var at string
	s.eachPoint(d, func(pt *point) bool {
		if pt.fail != nil {
			if first == nil {
				first, at = pt.fail, describeAt(d, pt)
			}
			pv.failed++
		}
		return true
	})
	if first == nil {
		return
	}
	what := "the file"
	if !d.OverFile() {
		what = "job " + d.Plan.Job.Name.Name
	}
	diag := &lang.Diagnostic{Severity: lang.Warning, Pos: d.Name.Start(), End: d.Name.End(),
		Summary: fmt.Sprintf("%s of the %s of sweep %s cannot be evaluated: at %s, %s", units.CountOf(float64(pv.failed), "point", "points"),
			groupInt(float64(pv.points)), d.Name.Name, at, first.Message),
		Notes: []string{fmt.Sprintf("%s cannot be evaluated there; the table shows each such point as a row that says why, and a query that reads one fails with it", what)},
	}
	if first.Pos.Line > 0 {
		diag.Related = []lang.Related{{Pos: first.Pos, End: first.End, Label: "fails here at " + at}}
	}
	s.ev.diags = append(s.ev.diags, diag)
}

// Axis evaluates one vary line.
func (s *Scenario) axis(ax *check.AxisPlan) (axisValues, bool) {
	var av axisValues
	if ax.Values != nil {
		ok := true
		for i, c := range ax.Values {
			v, vok := s.run(c, &s.ev)
			if !vok {
				ok = false
				continue
			}
			if msg := ax.In.OutOfRange(v.Num); msg != "" {
				pos, end := ax.Vary.Values[i].Span()
				s.ev.errorAt(pos, end, msg)
				ok = false
			}
			av.list = append(av.list, v.Num)
		}
		av.n = len(av.list)
		return av, ok
	}
	from, fok := s.run(ax.From, &s.ev)
	to, tok := s.run(ax.To, &s.ev)
	step, sok := s.run(ax.Step, &s.ev)
	if !fok || !tok || !sok {
		return av, false
	}
	v := ax.Vary
	if step.Num <= 0 {
		pos, end := v.Step.Span()
		s.ev.errorAt(pos, end, fmt.Sprintf("step %s is not positive; a sweep steps up from from to to", step))
		return av, false
	}
	if to.Num < from.Num {
		pos, end := v.To.Span()
		s.ev.errorAt(pos, end, fmt.Sprintf("to %s is below from %s; write the smaller value first", to, from))
		return av, false
	}
	av.from, av.step = from.Num, step.Num
	q := (to.Num - from.Num) / step.Num
	if q >= 1e15 {
		av.n = math.MaxInt32 // far above any cap
		return av, true
	}
	if k := math.Round(q); math.Abs(q-k) <= 1e-9 {
		av.n, av.last = int(k)+1, to.Num
	} else {
		av.n = int(math.Floor(q)) + 1
		av.last = from.Num + float64(av.n-1)*step.Num
	}
	if msg := ax.In.OutOfRange(from.Num); msg != "" {
		pos, end := v.From.Span()
		s.ev.errorAt(pos, end, msg)
		return av, false
	}
	if msg := ax.In.OutOfRange(av.last); msg != "" {
		pos, end := v.To.Span()
		s.ev.errorAt(pos, end, msg)
		return av, false
	}
	return av, true
}

// groupInt writes a whole number with thousands separators: 1,000,000.
func groupInt(v float64) string {
	digits := strconv.FormatFloat(math.Floor(v), 'f', 0, 64)
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// evaluatePoint is a new evaluation of the program with params, whose
// declarations are computed only when read: the base of every point
// (whatIfAt) and of Scenario.With.
func evaluatePoint(p *check.Program, params map[*check.Decl]Value) *Scenario {
	return &Scenario{
		p:         p,
		params:    params,
		vals:      make([]declValues, len(p.Order)),
		values:    make([]Value, p.NumValues),
		fieldVals: make([]fieldValue, p.NumFields),
	}
}

// withParam is the evaluation of s with params replacing its own, at a
// point over job: the job's inputs at those values, or why the job cannot
// be evaluated with them.
func (s *Scenario) withParam(params map[*check.Decl]Value, job *check.Decl) (*Scenario, *PointFailure) {
	n := s.whatIfAt(params)
	if !n.force(job) {
		return n, n.failedAt(job)
	}
	return n, nil
}

// paramValues are s's params with the point's param inputs replacing
// them.
func (s *Scenario) paramValues() map[*check.Decl]Value {
	m := make(map[*check.Decl]Value, len(s.params)+1)
	for d, v := range s.params {
		m[d] = v
	}
	return m
}

// eachPoint walks the sweep's points in order, the first vary line
// outermost, calling fn with each until it returns false. The point is
// reused from one call to the next: fn must copy what it keeps. Memory
// does not grow with the points. A point that cannot be evaluated is
// passed like any other, its fail saying why.
func (s *Scenario) eachPoint(d *check.Decl, fn func(*point) bool) error {
	pd, pv := d.Plan, s.of(d).plan
	if pv == nil || s.of(d).state != check.Done {
		return fmt.Errorf("sweep %s could not be evaluated", d.Name.Name)
	}
	axes := pd.Axes
	if pv.points == 0 {
		return nil
	}
	pt := &point{vals: make([]float64, len(axes)), sc: s, file: d.OverFile(), sweep: d}
	var base goodput.Inputs
	if !pt.file {
		base, pt.job.currency = s.of(pd.Job).job.in, s.of(pd.Job).job.currency
	}
	var paramFail *PointFailure // why the file cannot be evaluated with the point's params
	var raised *[goodput.NumFactors]bool
	idx := make([]int, len(axes))
	changed := 0 // the outermost axis whose value changed since the last point
	for {
		s.ctl.point()
		if changed <= lastParam(axes) {
			params := s.paramValues()
			for i, ax := range axes {
				if ax.In.Kind == check.InParam {
					params[ax.In.Param] = NumberValue(pv.axes[i].value(idx[i]), ax.In.Type.Dim)
				}
			}
			if pt.file {
				pt.sc = s.whatIfAt(params)
				paramFail = pt.sc.evalModel()
			} else {
				pt.sc, paramFail = s.withParam(params, pd.Job)
				base = pt.sc.of(pd.Job).job.in
				raised = pt.sc.raised[pd.Job]
			}
			pt.params = params
		}
		for i := range axes {
			pt.vals[i] = pv.axes[i].value(idx[i])
		}
		pt.fail = paramFail
		if !pt.file && pt.fail == nil {
			pt.runJob(axes, base, raised, d)
		}
		if pt.fail != nil {
			pt.job.kept, pt.above = nil, [goodput.NumFactors]bool{}
		}
		if !fn(pt) {
			return nil
		}
		i := advance(idx, pv.axes, len(axes)-1)
		if i < 0 {
			return nil
		}
		changed = i
	}
}

// extremeWalk turns extremeOverJob on; a test turns it off to compare
// with eachPoint.
var extremeWalk = true

// extremeOverJob is eachPoint for a min, max, argmin or argmax of one of
// the engine's figures (def) over a sweep of a job that varies the job's
// own inputs only; larger is true for max and argmax. It calls fn with
// only the points that can change the answer: each better than every
// point before it (strictly, so the first of equals), and each that
// cannot be evaluated. fn returns at once, changing nothing, for the
// others (undefined, or not better), so the answer is the one eachPoint
// gives, from the same engine runs. A point is one goodput.Inputs reused
// from point to point (the varied values written in, a ceiling below
// its factor raised), one engine run and the figure read in place: no
// allocation, map or call of fn per point; the *point fn sees is filled
// only for the points passed. handled is false, with nothing walked, for
// a sweep of another kind or one eachPoint would refuse.
func (s *Scenario) extremeOverJob(d *check.Decl, def *results.Def, larger bool, fn func(*point) bool) (handled bool) {
	pd, pv := d.Plan, s.of(d).plan
	if !extremeWalk || d.OverFile() || lastParam(pd.Axes) >= 0 || def == nil || !def.HasFigure() || pv == nil || s.of(d).state != check.Done {
		return false
	}
	axes := pd.Axes
	if pv.points == 0 || len(axes) == 0 {
		return pv.points == 0
	}
	js := s.of(pd.Job).job
	base := js.in
	pt := &point{vals: make([]float64, len(axes)), sc: s}
	pt.job.currency = js.currency
	idx := make([]int, len(axes))
	inner := len(axes) - 1
	for i := range axes {
		pt.vals[i] = pv.axes[i].value(0)
	}
	outer := base // base with every axis but the innermost applied, in order
	for i := range inner {
		axes[i].In.Apply(&outer, pt.vals[i])
	}
	set := axes[inner].In.Setter()
	ctl := s.ctl
	scale := newFigureScale(def.Type)
	var (
		in    goodput.Inputs
		above [goodput.NumFactors]bool
		found bool
		best  float64
	)
	// When the innermost axis is no factor or ceiling, its points share
	// the outer inputs' settling, done once, and write their value
	// straight into in.
	perPoint := set.SetsFactor()
	if !perPoint {
		in = outer
		settleInputs(&in, &above)
	}
	ax := &pv.axes[inner]
	for {
		// The innermost axis in a loop of its own: a point costs its
		// engine run and little else.
		for k := range ax.n {
			v := ax.value(k)
			if ctl != nil {
				ctl.point()
			}
			if perPoint {
				in = outer
				set.Set(&in, v)
				settleInputs(&in, &above)
			} else {
				set.Set(&in, v)
			}
			if ctl != nil {
				ctl.engineRun()
			}
			res, err := goodput.Solve(in)
			pass := err != nil
			if !pass && (!def.NeedsRate || res.HasCost) {
				fig := scale.of(def.Of(&res)) // engineValue(…).Num
				if !found || larger && fig > best || !larger && fig < best {
					found, best, pass = true, fig, true
				}
			}
			if pass {
				pt.vals[inner] = v
				pt.job.in, pt.fail = in, nil
				if err != nil {
					pt.fail = &PointFailure{Message: engineMessage(err), Pos: d.Name.Start(), End: d.Name.End()}
					pt.job.kept, pt.above = nil, [goodput.NumFactors]bool{}
				} else {
					pt.res, pt.job.kept, pt.above = res, &pt.res, above
				}
				if !fn(pt) {
					return true
				}
			}
		}
		// The next point of the outer axes.
		i := advance(idx, pv.axes, inner-1)
		if i < 0 {
			return true
		}
		for j := i; j < inner; j++ {
			pt.vals[j] = pv.axes[j].value(idx[j])
		}
		outer = base
		for j := range inner {
			axes[j].In.Apply(&outer, pt.vals[j])
		}
		if !perPoint {
			in = outer
			settleInputs(&in, &above)
		}
	}
}

// settleInputs is point.settle on inputs alone: a ceiling below its
// factor rises to it, and above marks the factors so raised.
func settleInputs(in *goodput.Inputs, above *[goodput.NumFactors]bool) {
	for f := range goodput.NumFactors {
		above[f] = false
		if c := in.Ceilings[f]; c.Set && in.Factors[f].Value > c.Value {
			in.Ceilings[f], above[f] = in.Factors[f], true
		}
	}
}

// figureScale turns a figure of the engine into the number
// engineValue(v, t).Num is, the unit chosen once for every point: v × mul,
// or v / div for a unit of less than one base unit (units.FromUnit).
type figureScale struct{ mul, div float64 }

func newFigureScale(t Type) figureScale {
	factor := 1.0
	switch {
	case t.Dim == units.Count:
	case t.Dim == units.Duration:
		factor = units.Hour.Factor
	case units.IsPrice(t.Dim):
		factor = units.USDPerHour.Factor
	}
	if factor < 1 {
		return figureScale{div: 1 / factor}
	}
	return figureScale{mul: factor}
}

func (f figureScale) of(v float64) float64 {
	if f.div != 0 {
		return v / f.div
	}
	return v * f.mul
}

// runJob computes a point over a job: base with the point's values of the
// job's own inputs (vals), factors above their ceilings allowed (raised
// marks those the params set so), one run of the engine.
func (pt *point) runJob(axes []*check.AxisPlan, base goodput.Inputs, raised *[goodput.NumFactors]bool, d *check.Decl) {
	pt.job.in = base
	for i, ax := range axes {
		if ax.In.Kind != check.InParam {
			ax.In.Apply(&pt.job.in, pt.vals[i])
		}
	}
	pt.settle()
	if raised != nil {
		for f := range goodput.NumFactors {
			pt.above[f] = pt.above[f] || raised[f]
		}
	}
	pt.sc.ctl.engineRun()
	res, err := goodput.Solve(pt.job.in)
	if err != nil {
		pt.fail = &PointFailure{Message: engineMessage(err), Pos: d.Name.Start(), End: d.Name.End()}
		return
	}
	pt.res, pt.job.kept = res, &pt.res
}

// lastParam is the index of the innermost param axis, -1 when none.
func lastParam(axes []*check.AxisPlan) int {
	last := -1
	for i, ax := range axes {
		if ax.In.Kind == check.InParam {
			last = i
		}
	}
	return last
}

// engineMessage words a goodput engine error in gpl's terms.
func engineMessage(err error) string {
	var ies goodput.InputErrors
	if asInputErrors(err, &ies) && len(ies) > 0 {
		return inputErrorMessage(ies[0])
	}
	return err.Error()
}

// advance moves idx, the grid's indices, to the next point, the axis
// from the innermost (axes[from]) outward: the outermost axis whose index
// changed, or -1 past the last point.
func advance(idx []int, axes []axisValues, from int) int {
	i := from
	for ; i >= 0; i-- {
		idx[i]++
		if idx[i] < axes[i].n {
			break
		}
		idx[i] = 0
	}
	return i
}
