package repl

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// What the REPL prints after a statement: a declaration's summary, the
// outcome of expectations, and what else the change moved.

// describe prints what an added statement gives; false when it is an
// expectation that fails.
// old is the session before the change, which replaced entries when
// replaced is set.
func (r *repl) describe(e entry, old *eval.Scenario, replaced bool) bool {
	if !replaced {
		old = nil
	}
	switch e.kind {
	case "expect":
		return r.checkEntry(e)
	case "import":
		r.describeImport(e, old)
		return true
	case "job":
		r.summary(e, old)
		return r.checkEntry(e)
	case "comment":
		return true
	}
	r.summary(e, old)
	return true
}

// summary prints a declaration's value or results in a few lines.
func (r *repl) summary(e entry, old *eval.Scenario) {
	scn := r.s.scn()
	switch st := e.node.(type) {
	case *lang.Let:
		v, err := scn.Value(e.key)
		if err != nil {
			return
		}
		line := e.key + " = " + v.String()
		if old != nil {
			if was, err := old.Value(e.key); err == nil && was != v {
				line += " (was " + was.String() + ")"
			}
		}
		fmt.Fprintln(r.stdout, line)
	case *lang.Pool:
		for _, p := range scn.Pools() {
			if p.Name == e.key {
				fmt.Fprintf(r.stdout, "pool %s: %s\n", p.Name, poolFieldsText(p.Fields))
			}
		}
	case *lang.Job:
		if j, ok := scn.Job(e.key); ok {
			var was *eval.Job
			if old != nil {
				was, _ = old.Job(e.key)
			}
			writeJobSummary(r.stdout, j, was)
		}
	case *lang.Rules:
		fmt.Fprintf(r.stdout, "rules %s: %s, else %s\n", e.key, describeCount(len(st.Rules), "rule", "rules"), st.Else.Name)
	case *lang.Request:
		var parts []string
		for _, f := range st.Fields {
			if v, err := scn.Value(e.key + "." + f.Name.Name); err == nil {
				parts = append(parts, f.Name.Name+" "+v.String())
			}
		}
		fmt.Fprintf(r.stdout, "request %s: %s\n", e.key, strings.Join(parts, ", "))
	case *lang.Group, *lang.Compare, *lang.Sweep, *lang.Solve:
		if line := planningSummary(scn, e.key); line != "" {
			fmt.Fprintln(r.stdout, line)
		}
	}
}

// planningSummary is one line on a group, a compare, a sweep or a solve:
// what :explain and the queries can then ask of it.
func planningSummary(scn *eval.Scenario, name string) string {
	for _, g := range scn.Groups() {
		if g.Name == name {
			line := fmt.Sprintf("group %s: %s, mpg %s, useful_hours %s", g.Name, describeCount(len(g.Jobs), "job", "jobs"), eval.NumberValue(g.MPG, lang.Count), eval.NumberValue(g.UsefulHours*3600, lang.Duration))
			if g.HasCost {
				line += ", cost " + eval.NumberValue(g.Cost, lang.Money).String()
			}
			return line
		}
	}
	for _, c := range scn.Compares() {
		if c.Name == name {
			order := "lowest"
			if c.Max {
				order = "highest"
			}
			return fmt.Sprintf("compare %s: best %s (%s %s of %s)", c.Name, c.Best, order, c.By, describeCount(len(c.Rows), "job", "jobs"))
		}
	}
	for _, sw := range scn.Sweeps() {
		if sw.Name == name {
			return fmt.Sprintf("sweep %s over %s: %s of %s", sw.Name, sw.Job, describeCount(sw.Points, "point", "points"), strings.Join(sw.Inputs, " × "))
		}
	}
	for _, sv := range scn.Solves() {
		if sv.Name == name {
			line := fmt.Sprintf("solve %s over %s: %s = %s gives %s", sv.Name, sv.Job, sv.Input, sv.Value, sv.Condition)
			if sv.AboveCeiling {
				line += ", above the job's ceiling"
			}
			return line
		}
	}
	return ""
}

func poolFieldsText(fields map[string]eval.Value) string {
	var parts []string
	for _, k := range []string{"devices", "hours", "rate"} {
		if v, ok := fields[k]; ok {
			parts = append(parts, k+" "+v.String())
		}
	}
	if len(parts) == 0 {
		return "no fields set"
	}
	return strings.Join(parts, ", ")
}

// writeJobSummary prints a job's mpg, losses, best lever and cost per
// useful hour; was, when set, is the job it replaces.
func writeJobSummary(w io.Writer, j *eval.Job, was *eval.Job) {
	head := "job " + j.Name
	switch {
	case j.Extends != "":
		head += " extends " + j.Extends
	case j.Pool != "":
		head += " on " + j.Pool
	}
	fmt.Fprintln(w, head)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	mpg := get(j, "mpg")
	if was != nil && was.Result.MPG != j.Result.MPG {
		mpg += " (was " + get(was, "mpg") + ")"
	}
	fmt.Fprintf(tw, "  mpg\t%s\n", mpg)
	var losses []string
	for _, f := range factors {
		losses = append(losses, f.String()+" "+get(j, "loss."+f.String()))
	}
	fmt.Fprintf(tw, "  loss\t%s\n", strings.Join(losses, ", "))
	best := "none: no ceiling raises mpg"
	if j.Result.HasBestLever {
		f := j.Result.BestLever
		best = fmt.Sprintf("%s (+%s mpg)", f, get(j, "gain."+f.String()))
	}
	fmt.Fprintf(tw, "  best_lever\t%s\n", best)
	cpuh := "— (no rate)"
	if j.Inputs.Rate.Set {
		v, err := j.Get("cost_per_useful_hour")
		if err != nil {
			cpuh = "undefined: mpg is 0"
		} else {
			cpuh = v.String()
		}
	}
	fmt.Fprintf(tw, "  cost_per_useful_hour\t%s\n", cpuh)
	tw.Flush()
}

// describeImport prints the names an import brought in.
func (r *repl) describeImport(e entry, old *eval.Scenario) {
	had := map[string]bool{}
	if old != nil {
		for _, n := range old.Names() {
			had[n[0]] = true
		}
	}
	var names []string
	for _, n := range r.s.scn().Names() {
		if _, typed := r.s.entry(n[0]); !typed && !had[n[0]] {
			names = append(names, kindWords[n[1]]+" "+n[0])
		}
	}
	if len(names) == 0 {
		fmt.Fprintf(r.stdout, "imported %s\n", e.node.(*lang.Import).Path)
		return
	}
	fmt.Fprintf(r.stdout, "imported %s: %s\n", e.node.(*lang.Import).Path, strings.Join(names, ", "))
}

// checkEntry runs the expectations an entry holds and reports them: a
// top-level expect prints "pass" or its failure; a job's expects are
// counted under its summary, and their failures reported.
func (r *repl) checkEntry(e entry) bool {
	scn := r.s.scn()
	passed, failed := 0, 0
	for _, x := range scn.Expectations() {
		if x.Node().Start().Filename != e.source {
			continue
		}
		o := scn.Check(x)
		r.failing[r.expectID(x)] = !o.Pass
		if o.Pass {
			passed++
			if e.kind == "expect" {
				fmt.Fprintln(r.stdout, "pass: got "+o.Got.Precise(nil))
			}
			continue
		}
		failed++
		if o.Diagnostic != nil {
			r.report(lang.Diagnostics{o.Diagnostic}, r.s.locate, scn, nil)
		}
	}
	if e.kind == "job" && passed+failed > 0 {
		fmt.Fprintf(r.stdout, "  expectations: %d passed, %d failed\n", passed, failed)
	}
	return failed == 0
}

// expectID names an expectation by where it was written.
func (r *repl) expectID(x *eval.Expectation) string {
	p := x.Node().Start()
	if e, _, ok := r.s.locate(p.Filename); ok {
		p = e.place(p)
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// checkAll runs every expectation but those of the entries in skip,
// reports those that fail and did not before (all of them, after a load),
// and counts them. An expectation that a change broke marks the session
// broken.
func (r *repl) checkAll(skip map[string]bool, afterLoad bool) (passed, failed int) {
	scn := r.s.scn()
	files, _ := r.s.ranks(scn)
	xs := append([]*eval.Expectation(nil), scn.Expectations()...)
	sort.SliceStable(xs, func(i, j int) bool {
		a, b := xs[i].Node().Start(), xs[j].Node().Start()
		if fa, fb := files[a.Filename], files[b.Filename]; fa != fb {
			return fa < fb
		}
		return a.Filename == b.Filename && a.Offset < b.Offset
	})
	for _, x := range xs {
		if e, _, ok := r.s.locate(x.Node().Start().Filename); ok && skip[e.key] {
			continue
		}
		o := scn.Check(x)
		id := r.expectID(x)
		if o.Pass {
			passed++
		} else {
			failed++
			if !r.failing[id] && o.Diagnostic != nil {
				r.report(lang.Diagnostics{o.Diagnostic}, r.s.locate, scn, nil)
				if !afterLoad {
					r.broken = true
				}
			}
		}
		r.failing[id] = !o.Pass
	}
	return passed, failed
}

// reportChanges prints the values and jobs that a change moved, other than
// those named in isNew, and the expectations it broke; old is the session
// before the change.
func (r *repl) reportChanges(old *eval.Scenario, isNew map[string]bool) {
	scn := r.s.scn()
	var lines []string
	for _, l := range scn.Lets() {
		if was, err := old.Value(l.Name); err == nil && !isNew[l.Name] && was != l.Value {
			lines = append(lines, fmt.Sprintf("%s = %s (was %s)", l.Name, l.Value, was))
		}
	}
	for _, j := range scn.Jobs() {
		was, ok := old.Job(j.Name)
		if !ok || isNew[j.Name] || was.Result == j.Result {
			continue
		}
		var changes []string
		for _, name := range []string{"mpg", "ceiling_mpg", "best_lever", "cost", "cost_per_useful_hour"} {
			if a, b := get(was, name), get(j, name); a != b {
				changes = append(changes, name+" "+a+" → "+b)
			}
		}
		change := strings.Join(changes, ", ")
		if change == "" {
			change = "results changed"
		}
		lines = append(lines, fmt.Sprintf("%s: %s", j.Name, change))
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(r.stdout, "  also "+l)
	}
	r.checkAll(isNew, false)
}

// factors are the three factors, in the order reports list them.
var factors = []goodput.Factor{goodput.Scheduling, goodput.Runtime, goodput.Program}

// get is a job's result as printed, or "—" when it is undefined.
func get(j *eval.Job, name string) string {
	v, err := j.Get(name)
	if err != nil {
		return "—"
	}
	return v.String()
}
