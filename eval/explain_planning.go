package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
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
func (s *Scenario) planningFieldNames(d *check.Decl) []string {
	switch d.Kind {
	case check.DeclGroup:
		return check.GroupFigureNames
	case check.DeclCompare:
		return []string{"best", "ratio("}
	case check.DeclSweep:
		out := []string{"points"}
		for _, m := range check.SweepMethods {
			out = append(out, m+"(")
		}
		return out
	case check.DeclSolve:
		out := []string{check.SolveInputName(d)}
		for _, p := range check.SolveParams(d) {
			if p.Name.Name != out[0] {
				out = append(out, p.Name.Name)
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
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclSweep {
		return nil
	}
	var out []string
	for _, p := range check.SweepParams(d) {
		out = append(out, p.Name.Name)
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
	if len(c.Refs) != 1 || c.Refs[0].Kind != check.RefPlan || c.Refs[0].Node != check.Unparen(c.Node) {
		return "", false, nil
	}
	r := c.Refs[0]
	switch q := r.Plan.(type) {
	case *check.SweepQuery:
		out, err = s.explainSweepQuery(r, q, queryText(text, r.Node))
	case check.SolveRef:
		out, err = s.explainSolve(r.Decl, q.Field)
	case check.GroupRef:
		out, err = s.explainGroupFigure(r.Decl, q.Figure)
	case check.OwnerRef:
		out, err = s.explainOwner(r, q)
	case check.BestRef:
		out, err = s.explainBest(r.Decl)
	case check.RatioRef:
		out, err = s.explainRatio(r.Decl, q.Job)
	default:
		return "", false, nil
	}
	return out, true, err
}

// pointJob is the job d at the point pt, as a Job whose results and
// explanations read the point's inputs.
func pointJob(d *check.Decl, pt *point) *Job {
	c := *pt.sc
	c.vals = slices.Clone(pt.sc.vals)
	pc := *pt
	pc.own()
	c.vals[d.Slot].job = &pc.job
	c.vals[d.Slot].state = check.Done
	j, _ := c.jobOf(d)
	return j
}

// explainAt explains field f of the point pt of the sweep or solve d:
// a varied input by the declaration that varies it, anything else as the
// job computes it there.
func (s *Scenario) explainAt(d *check.Decl, pt *point, f check.PointField) (string, error) {
	if f.Param != nil {
		v, err := pointFieldGet(f, pt)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = %s, the value %s %s gives the param here", f.Param.Name.Name, v, check.DeclKinds[d.Kind].Noun, d.Name.Name), nil
	}
	j := pointJob(d.Plan.Job, pt)
	name := f.Def.Name
	if varied := variedInputs(d); slices.Contains(varied, canonicalResult(name)) {
		v, err := j.Get(name)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = %s, the value %s %s gives it here", canonicalResult(name), v, check.DeclKinds[d.Kind].Noun, d.Name.Name), nil
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
func variedInputs(d *check.Decl) []string {
	var out []string
	if d.Kind == check.DeclSolve {
		if d.Plan.Find != nil {
			out = append(out, d.Plan.Find.In.Name)
		}
		return out
	}
	for _, ax := range d.Plan.Axes {
		out = append(out, ax.In.Name)
	}
	return out
}

// canonicalResult is an input's name as vary and find spell it: the long
// name of a factor or a ceiling, else the name itself.
func canonicalResult(name string) string {
	if c, ok := check.CanonicalInput(name); ok {
		return c
	}
	return name
}

// explainSweepQuery says which point a query picks, then explains the
// result it reads there.
func (s *Scenario) explainSweepQuery(r *check.Ref, q *check.SweepQuery, what string) (string, error) {
	d := r.Decl
	pt, v, err := s.locate(r, q)
	if err != nil {
		return "", err
	}
	points := s.of(d).plan.points
	var head string
	switch q.Method {
	case "min", "max", "argmin", "argmax":
		word := "most"
		if q.Method == "min" || q.Method == "argmin" {
			word = "least"
		}
		head = fmt.Sprintf("%s is the point %s, the first with the %s %s of the %s of sweep %s", what, describeAt(d, pt), word, q.Result.Name, lang.CountOf(float64(points), "point", "points"), d.Name.Name)
		if q.Method == "min" || q.Method == "max" {
			head = fmt.Sprintf("%s = %s, the %s %s of the %s of sweep %s, first reached at %s", what, v, word, q.Result.Name, lang.CountOf(float64(points), "point", "points"), d.Name.Name, describeAt(d, pt))
			q = &check.SweepQuery{Field: check.PointField{Def: q.Result}}
		}
	case "at":
		head = fmt.Sprintf("%s is the point %s of sweep %s, job %s with those inputs", what, describeAt(d, pt), d.Name.Name, d.Plan.Job.Name.Name)
	case "first":
		head = fmt.Sprintf("%s is the point %s, the first of sweep %s, in sweep order, where %s holds", what, describeAt(d, pt), d.Name.Name, s.sourceText(q.Cond.Node))
	}
	body, err := s.explainAt(d, pt, q.Field)
	if err != nil {
		return "", err
	}
	return head + "\n" + indent(body), nil
}

// locate finds the point a query picks; for min and max, the first point
// with the extreme, and the extreme itself.
func (s *Scenario) locate(r *check.Ref, q *check.SweepQuery) (*point, Value, error) {
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
			v, err := resultGet(q.Result, &pt.job)
			if err != nil || found != nil && (larger && v.Num <= best.Num || !larger && v.Num >= best.Num) {
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
		return nil, Value{}, fmt.Errorf("%s is undefined at every point of sweep %s", q.Result.Name, r.Decl.Name.Name)
	}
	return found, best, nil
}

// explainSolve explains a field of a solve's answer: the searched input
// by how the search found it, anything else as the job computes it there.
func (s *Scenario) explainSolve(d *check.Decl, f check.PointField) (string, error) {
	pv := s.of(d).plan
	if pv == nil || pv.answer == nil {
		return "", fmt.Errorf("solve %s has no answer", d.Name.Name)
	}
	fp := d.Plan.Find
	pt := pv.answer
	cond := s.sourceText(fp.Cond)
	lo, hi := 0.0, 1.0
	var out sink
	if fp.Lo != nil {
		l, lok := s.run(fp.Lo, &out)
		h, hok := s.run(fp.Hi, &out)
		if !lok || !hok {
			return "", fmt.Errorf("solve %s: its range cannot be computed", d.Name.Name)
		}
		lo, hi = l.Num, h.Num
	}
	t, _ := s.run(fp.Target, &out)
	sv := &solver{s: s, d: d, fp: fp, base: s.of(d.Plan.Job).job.in, target: t.Num}
	atHi, err := sv.try(hi)
	if err != nil {
		return "", err
	}
	word := "greatest"
	if atHi.holds {
		word = "least"
	}
	answer := s.valueText(fp, pt.vals[0])
	got, _ := resultGet(fp.Result, &pt.job)
	head := fmt.Sprintf("%s.%s = %s: the %s %s between %s and %s at which %s holds (%s = %s there), found by bisection in %d engine runs",
		d.Name.Name, fp.In.Name, answer, word, fp.In.Name, s.valueText(fp, lo), s.valueText(fp, hi), cond, fp.Result.Name, got, pv.runs)
	if fp.In.Kind == check.InDevices {
		head += "; devices are whole, so the answer is rounded toward where the condition holds"
	}
	isAnswer := f.Param != nil && f.Param == fp.In.Param || f.Def != nil && canonicalResult(f.Def.Name) == fp.In.Name
	if isAnswer {
		return head, nil
	}
	body, err := s.explainAt(d, pt, f)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("at the answer of solve %s, %s = %s:\n%s", d.Name.Name, fp.In.Name, answer, indent(body)), nil
}

// explainGroupFigure spells a group's figure as the sum over its jobs, or
// as the ratio of two sums, with the sums first.
func (s *Scenario) explainGroupFigure(d *check.Decl, fig *check.GroupFigure) (string, error) {
	g := d.Name.Name
	v, err := s.groupValue(d, fig)
	if err != nil {
		return "", err
	}
	switch {
	case fig.Def == nil:
		var names []string
		for _, m := range d.Plan.Members {
			names = append(names, m.Name.Name)
		}
		return fmt.Sprintf("%s.jobs = %s: %s", g, v, strings.Join(names, ", ")), nil
	case fig.Def.Group == results.GroupRatio:
		num, den := fig.Def.Ratio[0], fig.Def.Ratio[1]
		var lines []string
		vals := map[string]Value{}
		for _, part := range []string{num, den} {
			line, err := s.explainGroupFigure(d, check.GroupFigures[part])
			if err != nil {
				return "", err
			}
			lines = append(lines, line)
			vals[part], _ = s.groupValue(d, check.GroupFigures[part])
		}
		lines = append(lines, fmt.Sprintf("%s.%s = %s.%s / %s.%s = %s / %s = %s", g, fig.Name, g, num, g, den, vals[num], vals[den], v))
		return strings.Join(lines, "\n"), nil
	}
	var names, nums []string
	for _, m := range d.Plan.Members {
		mv, err := s.jobResult(m, fig.Name)
		if err != nil {
			return "", err
		}
		names = append(names, m.Name.Name+"."+fig.Name)
		nums = append(nums, mv.String())
	}
	return fmt.Sprintf("%s.%s = %s = %s = %s", g, fig.Name, strings.Join(names, " + "), strings.Join(nums, " + "), v), nil
}

// explainOwner spells owner_loss_cost or owner_saving as the sum of the
// factors the team owns, job by job.
func (s *Scenario) explainOwner(r *check.Ref, o check.OwnerRef) (string, error) {
	var out sink
	v, ok := s.ownerValue(o, r, &out)
	if !ok {
		if len(out.diags) > 0 {
			return "", fmt.Errorf("%s", out.diags[0].Summary)
		}
		return "", fmt.Errorf("%s cannot be computed", r.Text)
	}
	what := "loss_cost"
	if o.Saving {
		what = "saving"
	}
	var names, nums []string
	for _, m := range r.Decl.Plan.Members {
		for i, fn := range results.FactorNames {
			if s.factorOwner(m, goodput.Factor(i)) != o.Team {
				continue
			}
			name := m.Name.Name + "." + what + "." + fn
			mv, err := s.jobResult(m, what+"."+fn)
			if err != nil {
				return "", err
			}
			names, nums = append(names, name), append(nums, mv.String())
		}
	}
	call := fmt.Sprintf("%s(%s, %q)", r.Text, r.Decl.Name.Name, o.Team)
	return fmt.Sprintf("%s = %s = %s = %s, the factors %q owns in group %s", call, strings.Join(names, " + "), strings.Join(nums, " + "), v, o.Team, r.Decl.Name.Name), nil
}

// explainBest lists the ranked result of each job of a compare.
func (s *Scenario) explainBest(d *check.Decl) (string, error) {
	best, err := s.compareBest(d)
	if err != nil {
		return "", err
	}
	by := d.Plan.By.Name
	word := "lowest"
	if d.Plan.Max {
		word = "highest"
	}
	var parts []string
	for _, m := range d.Plan.Members {
		v, err := s.jobResult(m, by)
		if err != nil {
			return "", err
		}
		parts = append(parts, m.Name.Name+" "+v.String())
	}
	return fmt.Sprintf("%s.best = %q, the job with the %s %s (ties: the first listed): %s", d.Name.Name, best.Name.Name, word, by, strings.Join(parts, ", ")), nil
}

// explainRatio spells a compare's trade ratio against its first job.
func (s *Scenario) explainRatio(d *check.Decl, job *check.Decl) (string, error) {
	first := d.Plan.Members[0]
	ratio, err := goodput.TradeRatio(s.of(first).job.result(), s.of(job).job.result())
	if err != nil {
		return "", fmt.Errorf("%s.ratio(%s) is undefined: %v", d.Name.Name, job.Name.Name, divisionError("the mpg of "+first.Name.Name, s.of(first).job, err))
	}
	a, _ := s.jobResult(job, "mpg")
	b, _ := s.jobResult(first, "mpg")
	return fmt.Sprintf("%s.ratio(%s) = %s.mpg / %s.mpg = %s / %s = %s, the trade ratio against the first job listed",
		d.Name.Name, job.Name.Name, job.Name.Name, first.Name.Name, a, b, count(ratio)), nil
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
