package explain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file explains what a planning declaration answers: a result at a
// sweep's point, a solve's answer, a group's figure, a compare's best
// and ratio. It also lists, for completion, what may follow the name of
// each.

// Scenario is an evaluation as the planning explainer reads it. Its
// errors are the ones to report as they are.
type Scenario interface {
	// Locate finds the point the query q of the sweep r.Decl picks; for
	// min and max, the first point with the extreme, and the extreme.
	Locate(r *check.Ref, q *check.SweepQuery) (Point, value.Value, error)
	// Points is how many points the sweep d has.
	Points(d *check.Decl) int
	// Solve is what the search of the solve d found.
	Solve(d *check.Decl) (Solve, error)
	// GroupValue is the figure fig of the group d.
	GroupValue(d *check.Decl, fig *check.GroupFigure) (value.Value, error)
	// JobResult reads the result name of the job d.
	JobResult(d *check.Decl, name string) (value.Value, error)
	// OwnerValue is the value of owner_loss_cost or owner_saving, the
	// reference r.
	OwnerValue(r *check.Ref, o check.OwnerRef) (value.Value, error)
	// FactorOwner is the team that owns factor f of the job d.
	FactorOwner(d *check.Decl, f goodput.Factor) string
	// CompareBest is the job the compare d ranks first.
	CompareBest(d *check.Decl) (*check.Decl, error)
	// Ratio is the trade ratio of job against the first job of the
	// compare d.
	Ratio(d, job *check.Decl) (float64, error)
	// SourceText spells an expression as the source would.
	SourceText(e lang.Expr) string
	// ValueText spells a value of the input a solve searches.
	ValueText(fp *check.FindPlan, v float64) string
}

// Point is a sweep's point, or a solve's answer.
type Point interface {
	// Field reads the field f at the point.
	Field(f check.PointField) (value.Value, error)
	// Job is the job d at the point: its results and explanations read
	// the point's inputs.
	Job(d *check.Decl) Job
	// AboveCeiling lists the long names of the factors that are above
	// their ceilings at the point.
	AboveCeiling() []string
	// Describe spells the point's inputs as the sweep d varies them:
	// "program = 0.4, devices = 512".
	Describe(d *check.Decl) string
}

// Solve is what a solve's search found.
type Solve struct {
	Answer    Point   // the point at the answer
	Value     float64 // the answer: the searched input's value there
	Runs      int     // how many times the engine ran
	Lo, Hi    float64 // the range searched
	HoldsAtHi bool    // whether the condition holds at Hi
}

// FieldNames lists what may follow "NAME." for the planning declaration
// d: a group's figures, a compare's best and ratio(, a sweep's points and
// queries, a solve's answer input and the job's results (resultNames).
func FieldNames(d *check.Decl, resultNames []string) []string {
	switch d.Kind {
	case check.DeclGroup:
		return check.GroupFigureNames()
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
		for _, r := range resultNames {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
		return out
	}
	return nil
}

// PointFieldNames lists what may follow a query of the sweep d that gives
// a point: the params the sweep varies, then the job's results
// (resultNames).
func PointFieldNames(d *check.Decl, resultNames []string) []string {
	var out []string
	for _, p := range check.SweepParams(d) {
		out = append(out, p.Name.Name)
	}
	return append(out, resultNames...)
}

// Planning explains the expression text, compiled as c, when it reads one
// planning answer: SWEEP.at(…).RESULT (or argmin, argmax, first, min,
// max), SOLVE.FIELD, GROUP.FIGURE, owner_loss_cost(GROUP, "team"),
// owner_saving(…), COMPARE.best and COMPARE.ratio(JOB). ok is false when
// the expression is something else; err is set when it is one of these
// and cannot be explained.
func Planning(s Scenario, c *check.Compiled, text string) (out string, ok bool, err error) {
	if len(c.Refs) != 1 || c.Refs[0].Kind != check.RefPlan || c.Refs[0].Node != check.Unparen(c.Node) {
		return "", false, nil
	}
	r := c.Refs[0]
	switch q := r.Plan.(type) {
	case *check.SweepQuery:
		out, err = sweepQuery(s, r, q, queryText(text, r.Node))
	case check.SolveRef:
		out, err = solve(s, r.Decl, q.Field)
	case check.GroupRef:
		out, err = groupFigure(s, r.Decl, q.Figure)
	case check.OwnerRef:
		out, err = owner(s, r, q)
	case check.BestRef:
		out, err = best(s, r.Decl)
	case check.RatioRef:
		out, err = ratio(s, r.Decl, q.Job)
	default:
		return "", false, nil
	}
	return out, true, err
}

// at explains field f of the point pt of the sweep or solve d: a varied
// input by the declaration that varies it, anything else as the job
// computes it there.
func at(d *check.Decl, pt Point, f check.PointField) (string, error) {
	if f.Param != nil {
		v, err := pt.Field(f)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = %s, the value %s %s gives the param here", f.Param.Name.Name, v, check.DeclKinds[d.Kind].Noun, d.Name.Name), nil
	}
	if f.Expr != nil {
		v, err := pt.Field(f)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = %s, as the file computes it with the params of this point", exprName(f.Expr), v), nil
	}
	j := pt.Job(d.Plan.Job)
	name := f.Def.Name
	if varied := variedInputs(d); slices.Contains(varied, canonicalResult(name)) {
		v, err := j.Get(name)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = %s, the value %s %s gives it here", canonicalResult(name), v, check.DeclKinds[d.Kind].Noun, d.Name.Name), nil
	}
	text, err := Result(j, name)
	if err != nil {
		return "", err
	}
	var notes []string
	if !strings.Contains(text, "ceiling") && !strings.Contains(text, "lever") {
		return text, nil
	}
	for _, fac := range pt.AboveCeiling() {
		notes = append(notes, fmt.Sprintf("(%s is above the job's ceiling for it here: its ceiling is taken as the factor, so its lever is the point's own mpg)", fac))
	}
	return strings.Join(append([]string{text}, notes...), "\n"), nil
}

// exprName is the name a point's field reads over the file, as written:
// fleet.mpg.
func exprName(c *check.Compiled) string {
	if n, ok := check.Unparen(c.Node).(*lang.Name); ok {
		return n.Path()
	}
	return "the field"
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

// sweepQuery says which point a query picks, then explains the result it
// reads there.
func sweepQuery(s Scenario, r *check.Ref, q *check.SweepQuery, what string) (string, error) {
	d := r.Decl
	pt, v, err := s.Locate(r, q)
	if err != nil {
		return "", err
	}
	points := s.Points(d)
	var head string
	switch q.Method {
	case "min", "max", "argmin", "argmax":
		word := "most"
		if q.Method == "min" || q.Method == "argmin" {
			word = "least"
		}
		of, field := "", check.PointField{Def: q.Result}
		if q.Of != nil {
			of, field = s.SourceText(q.Of.Node), check.PointField{Expr: q.Of}
		} else {
			of = q.Result.Name
		}
		head = fmt.Sprintf("%s is the point %s, the first with the %s %s of the %s of sweep %s", what, pt.Describe(d), word, of, units.CountOf(float64(points), "point", "points"), d.Name.Name)
		if q.Method == "min" || q.Method == "max" {
			head = fmt.Sprintf("%s = %s, the %s %s of the %s of sweep %s, first reached at %s", what, v, word, of, units.CountOf(float64(points), "point", "points"), d.Name.Name, pt.Describe(d))
			q = &check.SweepQuery{Field: field}
		}
	case "at":
		if d.OverFile() {
			head = fmt.Sprintf("%s is the point %s of sweep %s, the whole file evaluated with those params", what, pt.Describe(d), d.Name.Name)
			break
		}
		head = fmt.Sprintf("%s is the point %s of sweep %s, job %s with those inputs", what, pt.Describe(d), d.Name.Name, d.Plan.Job.Name.Name)
	case "first":
		head = fmt.Sprintf("%s is the point %s, the first of sweep %s, in sweep order, where %s holds", what, pt.Describe(d), d.Name.Name, s.SourceText(q.Cond.Node))
	}
	body, err := at(d, pt, q.Field)
	if err != nil {
		return "", err
	}
	return head + "\n" + indent(body), nil
}

// solve explains a field of a solve's answer: the searched input by how
// the search found it, anything else as the job computes it there.
func solve(s Scenario, d *check.Decl, f check.PointField) (string, error) {
	sv, err := s.Solve(d)
	if err != nil {
		return "", err
	}
	fp := d.Plan.Find
	cond := s.SourceText(fp.Cond)
	word := "greatest"
	if sv.HoldsAtHi {
		word = "least"
	}
	answer := s.ValueText(fp, sv.Value)
	field, runs := check.PointField{Def: fp.Result}, "engine runs"
	if d.OverFile() {
		field, runs = check.PointField{Expr: fp.Of}, "evaluations of the file"
	}
	got, _ := sv.Answer.Field(field)
	head := fmt.Sprintf("%s.%s = %s: the %s %s between %s and %s at which %s holds (%s = %s there), found by bisection in %d %s",
		d.Name.Name, fp.In.Name, answer, word, fp.In.Name, s.ValueText(fp, sv.Lo), s.ValueText(fp, sv.Hi), cond, fp.Subject, got, sv.Runs, runs)
	if fp.In.Kind == check.InDevices {
		head += "; devices are whole, so the answer is rounded toward where the condition holds"
	}
	isAnswer := f.Param != nil && f.Param == fp.In.Param || f.Def != nil && canonicalResult(f.Def.Name) == fp.In.Name
	if isAnswer {
		return head, nil
	}
	body, err := at(d, sv.Answer, f)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("at the answer of solve %s, %s = %s:\n%s", d.Name.Name, fp.In.Name, answer, indent(body)), nil
}

// groupFigure spells a group's figure as the sum over its jobs, or as the
// ratio of two sums, with the sums first.
func groupFigure(s Scenario, d *check.Decl, fig *check.GroupFigure) (string, error) {
	g := d.Name.Name
	v, err := s.GroupValue(d, fig)
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
		vals := map[string]value.Value{}
		for _, part := range []string{num, den} {
			line, err := groupFigure(s, d, check.GroupFigures()[part])
			if err != nil {
				return "", err
			}
			lines = append(lines, line)
			vals[part], _ = s.GroupValue(d, check.GroupFigures()[part])
		}
		lines = append(lines, fmt.Sprintf("%s.%s = %s.%s / %s.%s = %s / %s = %s", g, fig.Name, g, num, g, den, vals[num], vals[den], v))
		return strings.Join(lines, "\n"), nil
	}
	var names, nums []string
	for _, m := range d.Plan.Members {
		mv, err := s.JobResult(m, fig.Name)
		if err != nil {
			return "", err
		}
		names = append(names, m.Name.Name+"."+fig.Name)
		nums = append(nums, mv.String())
	}
	return fmt.Sprintf("%s.%s = %s = %s = %s", g, fig.Name, strings.Join(names, " + "), strings.Join(nums, " + "), v), nil
}

// owner spells owner_loss_cost, owner_saving or owner_point_value as the
// sum of the factors
// the team owns, job by job.
func owner(s Scenario, r *check.Ref, o check.OwnerRef) (string, error) {
	v, err := s.OwnerValue(r, o)
	if err != nil {
		return "", err
	}
	what := o.Rolls
	var names, nums []string
	for _, m := range r.Decl.Plan.Members {
		for i, fn := range results.FactorNames {
			if s.FactorOwner(m, goodput.Factor(i)) != o.Team {
				continue
			}
			name := m.Name.Name + "." + what + "." + fn
			mv, err := s.JobResult(m, what+"."+fn)
			if err != nil {
				return "", err
			}
			names, nums = append(names, name), append(nums, mv.String())
		}
	}
	call := fmt.Sprintf("%s(%s, %q)", r.Text, r.Decl.Name.Name, o.Team)
	return fmt.Sprintf("%s = %s = %s = %s, the factors %q owns in group %s", call, strings.Join(names, " + "), strings.Join(nums, " + "), v, o.Team, r.Decl.Name.Name), nil
}

// best lists the ranked result of each job of a compare.
func best(s Scenario, d *check.Decl) (string, error) {
	top, err := s.CompareBest(d)
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
		v, err := s.JobResult(m, by)
		if err != nil {
			return "", err
		}
		parts = append(parts, m.Name.Name+" "+v.String())
	}
	return fmt.Sprintf("%s.best = %q, the job with the %s %s (ties: the first listed): %s", d.Name.Name, top.Name.Name, word, by, strings.Join(parts, ", ")), nil
}

// ratio spells a compare's trade ratio against its first job.
func ratio(s Scenario, d *check.Decl, job *check.Decl) (string, error) {
	first := d.Plan.Members[0]
	x, err := s.Ratio(d, job)
	if err != nil {
		return "", err
	}
	a, _ := s.JobResult(job, "mpg")
	b, _ := s.JobResult(first, "mpg")
	return fmt.Sprintf("%s.ratio(%s) = %s.mpg / %s.mpg = %s / %s = %s, the trade ratio against the first job listed",
		d.Name.Name, job.Name.Name, job.Name.Name, first.Name.Name, a, b, value.NumberValue(x, units.Count)), nil
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
