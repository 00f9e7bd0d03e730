package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file explains, for the REPL's :explain, what a planning
// declaration answers: a result at a sweep's point, a solve's answer, a
// group's figure, a compare's best and ratio. It also lists, for
// completion, what may follow the name of each.

// planningFieldNames lists what may follow "NAME." for a planning
// declaration: a group's figures, a compare's best and ratio(, a sweep's
// points and queries, a solve's answer input and the job's results.
func (s *Scenario) planningFieldNames(d *decl) []string {
	switch d.kind {
	case declGroup:
		return groupFigureNames
	case declCompare:
		return []string{"best", "ratio("}
	case declSweep:
		out := []string{"points"}
		for _, m := range sweepMethods {
			out = append(out, m+"(")
		}
		return out
	case declSolve:
		out := []string{solveInputName(d)}
		for _, p := range solveParams(d) {
			if p.name.Name != out[0] {
				out = append(out, p.name.Name)
			}
		}
		for _, r := range ResultNames() {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
		return out
	}
	return nil
}

// PointFieldNames lists what may follow a sweep's query that gives a
// point, "NAME.at(…).": the params the sweep varies, then the job's
// results. It is nil when name is not a sweep.
func (s *Scenario) PointFieldNames(name string) []string {
	d, ok := s.p.decls[name]
	if !ok || d.kind != declSweep {
		return nil
	}
	var out []string
	for _, p := range sweepParams(d) {
		out = append(out, p.name.Name)
	}
	return append(out, ResultNames()...)
}

// ExplainPlanning explains an expression that reads one planning answer:
// SWEEP.at(…).RESULT (or argmin, argmax, first, min, max), SOLVE.FIELD,
// GROUP.FIGURE, owner_loss_cost(GROUP, "team"), owner_saving(…),
// COMPARE.best and COMPARE.ratio(JOB). ok is false when the expression is
// something else (the caller explains it its own way); err is set when
// it is one of these and cannot be explained, or does not compile.
func (s *Scenario) ExplainPlanning(text string) (out string, ok bool, err error) {
	c, err := s.compileText("<explain>", text)
	if err != nil {
		return "", false, err
	}
	if len(c.refs) != 1 || c.refs[0].kind != refPlan || c.refs[0].node != unparen(c.node) {
		return "", false, nil
	}
	r := c.refs[0]
	switch q := r.plan.(type) {
	case *sweepQuery:
		out, err = s.explainSweepQuery(r, q, queryText(text, r.node))
	case solveRef:
		out, err = s.explainSolve(r.d, q.f)
	case groupRef:
		out, err = s.explainGroupFigure(r.d, q.fig)
	case ownerRef:
		out, err = s.explainOwner(r, q)
	case bestRef:
		out, err = s.explainBest(r.d)
	case ratioRef:
		out, err = s.explainRatio(r.d, q.job)
	default:
		return "", false, nil
	}
	return out, true, err
}

// pointJob is the job d at the point pt, as a Job whose results and
// explanations read the point's inputs.
func pointJob(d *decl, pt *point) *Job {
	c := *pt.sc
	c.vals = slices.Clone(pt.sc.vals)
	pc := *pt
	pc.own()
	c.vals[d.slot].job = &pc.job
	c.vals[d.slot].state = done
	j, _ := c.jobOf(d)
	return j
}

// explainAt explains field f of the point pt of the sweep or solve d:
// a varied input by the declaration that varies it, anything else as the
// job computes it there.
func (s *Scenario) explainAt(d *decl, pt *point, f pointField) (string, error) {
	if f.param != nil {
		v, err := pointFieldGet(f, pt)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = %s, the value %s %s gives the param here", f.param.name.Name, v, declKinds[d.kind].noun, d.name.Name), nil
	}
	j := pointJob(d.plan.job, pt)
	name := f.def.name
	if varied := variedInputs(d); slices.Contains(varied, canonicalResult(name)) {
		v, err := j.Get(name)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = %s, the value %s %s gives it here", canonicalResult(name), v, declKinds[d.kind].noun, d.name.Name), nil
	}
	text, err := j.Explain(name)
	if err != nil {
		return "", err
	}
	var notes []string
	if !strings.Contains(text, "ceiling") && !strings.Contains(text, "lever") {
		return text, nil
	}
	for _, fac := range pt.aboveCeiling() {
		notes = append(notes, fmt.Sprintf("(%s is above the job's ceiling for it here: its ceiling is taken as the factor, so its lever is the point's own mpg)", fac))
	}
	return strings.Join(append([]string{text}, notes...), "\n"), nil
}

// variedInputs are the canonical names of the inputs a sweep varies or a
// solve searches.
func variedInputs(d *decl) []string {
	var out []string
	if d.kind == declSolve {
		if d.plan.find != nil {
			out = append(out, d.plan.find.in.name)
		}
		return out
	}
	for _, ax := range d.plan.axes {
		out = append(out, ax.in.name)
	}
	return out
}

// canonicalResult is an input's name as vary and find spell it: the long
// name of a factor or a ceiling, else the name itself.
func canonicalResult(name string) string {
	if c, ok := canonicalInput(name); ok {
		return c
	}
	return name
}

// explainSweepQuery says which point a query picks, then explains the
// result it reads there.
func (s *Scenario) explainSweepQuery(r *ref, q *sweepQuery, what string) (string, error) {
	d := r.d
	pt, v, err := s.locate(r, q)
	if err != nil {
		return "", err
	}
	points := s.of(d).plan.points
	var head string
	switch q.method {
	case "min", "max", "argmin", "argmax":
		word := "most"
		if q.method == "min" || q.method == "argmin" {
			word = "least"
		}
		head = fmt.Sprintf("%s is the point %s, the first with the %s %s of the %s of sweep %s", what, describeAt(d, pt), word, q.result.name, lang.CountOf(float64(points), "point", "points"), d.name.Name)
		if q.method == "min" || q.method == "max" {
			head = fmt.Sprintf("%s = %s, the %s %s of the %s of sweep %s, first reached at %s", what, v, word, q.result.name, lang.CountOf(float64(points), "point", "points"), d.name.Name, describeAt(d, pt))
			q = &sweepQuery{field: pointField{def: q.result}}
		}
	case "at":
		head = fmt.Sprintf("%s is the point %s of sweep %s, job %s with those inputs", what, describeAt(d, pt), d.name.Name, d.plan.job.name.Name)
	case "first":
		head = fmt.Sprintf("%s is the point %s, the first of sweep %s, in sweep order, where %s holds", what, describeAt(d, pt), d.name.Name, s.sourceText(q.cond.node))
	}
	body, err := s.explainAt(d, pt, q.field)
	if err != nil {
		return "", err
	}
	return head + "\n" + indent(body), nil
}

// locate finds the point a query picks; for min and max, the first point
// with the extreme, and the extreme itself.
func (s *Scenario) locate(r *ref, q *sweepQuery) (*point, Value, error) {
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
	switch q.method {
	case "min", "max", "argmin", "argmax":
		larger := q.method == "max" || q.method == "argmax"
		walk = s.eachPoint(r.d, func(pt *point) bool {
			v, err := resultGet(q.result, &pt.job)
			if err != nil || found != nil && (larger && v.Num <= best.Num || !larger && v.Num >= best.Num) {
				return true
			}
			best = v
			keep(pt)
			return true
		})
	case "at":
		want := make([]float64, len(q.at))
		for i, a := range q.at {
			v, ok := s.run(a.value, &out)
			if !ok {
				return nil, Value{}, fmt.Errorf("%s: its point cannot be found", q.what)
			}
			want[i] = v.Num
		}
		walk = s.eachPoint(r.d, func(pt *point) bool {
			for i, a := range q.at {
				if !sameValue(pt.vals[a.axis], want[i]) {
					return true
				}
			}
			keep(pt)
			return false
		})
		if walk == nil && found == nil {
			return nil, Value{}, fmt.Errorf("no point of sweep %s has %s", r.d.name.Name, describeWant(r.d, q.at, want))
		}
	case "first":
		run := newPointRunner(q.cond)
		walk = s.eachPoint(r.d, func(pt *point) bool {
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
		return nil, Value{}, fmt.Errorf("sweep %s: %v", r.d.name.Name, walk)
	case cerr != nil:
		return nil, Value{}, cerr
	case found == nil && q.method == "first":
		return nil, Value{}, fmt.Errorf("no point of sweep %s meets %s", r.d.name.Name, s.sourceText(q.cond.node))
	case found == nil:
		return nil, Value{}, fmt.Errorf("%s is undefined at every point of sweep %s", q.result.name, r.d.name.Name)
	}
	return found, best, nil
}

// explainSolve explains a field of a solve's answer: the searched input
// by how the search found it, anything else as the job computes it there.
func (s *Scenario) explainSolve(d *decl, f pointField) (string, error) {
	pv := s.of(d).plan
	if pv == nil || pv.answer == nil {
		return "", fmt.Errorf("solve %s has no answer", d.name.Name)
	}
	fp := d.plan.find
	pt := pv.answer
	cond := s.sourceText(fp.cond)
	lo, hi := 0.0, 1.0
	var out sink
	if fp.lo != nil {
		l, lok := s.run(fp.lo, &out)
		h, hok := s.run(fp.hi, &out)
		if !lok || !hok {
			return "", fmt.Errorf("solve %s: its range cannot be computed", d.name.Name)
		}
		lo, hi = l.Num, h.Num
	}
	t, _ := s.run(fp.target, &out)
	sv := &solver{s: s, d: d, fp: fp, base: s.of(d.plan.job).job.in, target: t.Num}
	atHi, err := sv.try(hi)
	if err != nil {
		return "", err
	}
	word := "greatest"
	if atHi.holds {
		word = "least"
	}
	answer := s.valueText(fp, pt.vals[0])
	got, _ := resultGet(fp.result, &pt.job)
	head := fmt.Sprintf("%s.%s = %s: the %s %s between %s and %s at which %s holds (%s = %s there), found by bisection in %d engine runs",
		d.name.Name, fp.in.name, answer, word, fp.in.name, s.valueText(fp, lo), s.valueText(fp, hi), cond, fp.result.name, got, pv.runs)
	if fp.in.kind == inDevices {
		head += "; devices are whole, so the answer is rounded toward where the condition holds"
	}
	isAnswer := f.param != nil && f.param == fp.in.param || f.def != nil && canonicalResult(f.def.name) == fp.in.name
	if isAnswer {
		return head, nil
	}
	body, err := s.explainAt(d, pt, f)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("at the answer of solve %s, %s = %s:\n%s", d.name.Name, fp.in.name, answer, indent(body)), nil
}

// explainGroupFigure spells a group's figure as the sum over its jobs, or
// as the ratio of two sums, with the sums first.
func (s *Scenario) explainGroupFigure(d *decl, fig *groupFigure) (string, error) {
	g := d.name.Name
	v, err := s.groupValue(d, fig)
	if err != nil {
		return "", err
	}
	switch {
	case fig.def == nil:
		var names []string
		for _, m := range d.plan.members {
			names = append(names, m.name.Name)
		}
		return fmt.Sprintf("%s.jobs = %s: %s", g, v, strings.Join(names, ", ")), nil
	case fig.def.group == groupRatio:
		num, den := fig.def.ratio[0], fig.def.ratio[1]
		var lines []string
		vals := map[string]Value{}
		for _, part := range []string{num, den} {
			line, err := s.explainGroupFigure(d, groupFigures[part])
			if err != nil {
				return "", err
			}
			lines = append(lines, line)
			vals[part], _ = s.groupValue(d, groupFigures[part])
		}
		lines = append(lines, fmt.Sprintf("%s.%s = %s.%s / %s.%s = %s / %s = %s", g, fig.name, g, num, g, den, vals[num], vals[den], v))
		return strings.Join(lines, "\n"), nil
	}
	var names, nums []string
	for _, m := range d.plan.members {
		mv, err := s.jobResult(m, fig.name)
		if err != nil {
			return "", err
		}
		names = append(names, m.name.Name+"."+fig.name)
		nums = append(nums, mv.String())
	}
	return fmt.Sprintf("%s.%s = %s = %s = %s", g, fig.name, strings.Join(names, " + "), strings.Join(nums, " + "), v), nil
}

// explainOwner spells owner_loss_cost or owner_saving as the sum of the
// factors the team owns, job by job.
func (s *Scenario) explainOwner(r *ref, o ownerRef) (string, error) {
	var out sink
	v, ok := s.ownerValue(o, r, &out)
	if !ok {
		if len(out.diags) > 0 {
			return "", fmt.Errorf("%s", out.diags[0].Summary)
		}
		return "", fmt.Errorf("%s cannot be computed", r.text)
	}
	what := "loss_cost"
	if o.saving {
		what = "saving"
	}
	var names, nums []string
	for _, m := range r.d.plan.members {
		for i, fn := range factorNames {
			if s.factorOwner(m, goodput.Factor(i)) != o.team {
				continue
			}
			name := m.name.Name + "." + what + "." + fn
			mv, err := s.jobResult(m, what+"."+fn)
			if err != nil {
				return "", err
			}
			names, nums = append(names, name), append(nums, mv.String())
		}
	}
	call := fmt.Sprintf("%s(%s, %q)", r.text, r.d.name.Name, o.team)
	return fmt.Sprintf("%s = %s = %s = %s, the factors %q owns in group %s", call, strings.Join(names, " + "), strings.Join(nums, " + "), v, o.team, r.d.name.Name), nil
}

// explainBest lists the ranked result of each job of a compare.
func (s *Scenario) explainBest(d *decl) (string, error) {
	best, err := s.compareBest(d)
	if err != nil {
		return "", err
	}
	by := d.plan.by.name
	word := "lowest"
	if d.plan.max {
		word = "highest"
	}
	var parts []string
	for _, m := range d.plan.members {
		v, err := s.jobResult(m, by)
		if err != nil {
			return "", err
		}
		parts = append(parts, m.name.Name+" "+v.String())
	}
	return fmt.Sprintf("%s.best = %q, the job with the %s %s (ties: the first listed): %s", d.name.Name, best.name.Name, word, by, strings.Join(parts, ", ")), nil
}

// explainRatio spells a compare's trade ratio against its first job.
func (s *Scenario) explainRatio(d *decl, job *decl) (string, error) {
	first := d.plan.members[0]
	ratio, err := goodput.TradeRatio(s.of(first).job.result(), s.of(job).job.result())
	if err != nil {
		return "", fmt.Errorf("%s.ratio(%s) is undefined: %v", d.name.Name, job.name.Name, divisionError("the mpg of "+first.name.Name, s.of(first).job, err))
	}
	a, _ := s.jobResult(job, "mpg")
	b, _ := s.jobResult(first, "mpg")
	return fmt.Sprintf("%s.ratio(%s) = %s.mpg / %s.mpg = %s / %s = %s, the trade ratio against the first job listed",
		d.name.Name, job.name.Name, job.name.Name, first.name.Name, a, b, count(ratio)), nil
}

// queryText is the query node reads in text, without the field it
// names: "program_sweep.at(program = 0.40)".
func queryText(text string, node lang.Expr) string {
	q, ok := node.(*lang.Query)
	if !ok {
		return strings.TrimSpace(text)
	}
	pos, end := q.Span()
	if q.Field != nil {
		end = q.Field[0].Start()
	}
	if 0 <= pos.Offset && pos.Offset <= end.Offset && end.Offset <= len(text) {
		return strings.TrimRight(text[pos.Offset:end.Offset], " \t.")
	}
	return strings.TrimSpace(text)
}

func indent(text string) string {
	return "  " + strings.ReplaceAll(text, "\n", "\n  ")
}
