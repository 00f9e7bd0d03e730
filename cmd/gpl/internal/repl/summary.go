package repl

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
)

// What the REPL prints after a statement: a declaration's summary, the
// outcome of expectations, and what else the change moved.

// describe prints what an added statement gives; false when it is an
// expectation that fails.
// old is the session before the change, which replaced entries when
// replaced is set.
func (r *repl) describe(e entry, old *eval.Scenario, replaced bool) bool {
	if e.kind == "owners" {
		r.describeOwners(old)
		return true
	}
	if e.kind == "import" {
		// What it brought is what the session did not have before,
		// replaced or not: a file another import read already is not new.
		r.describeImport(e, old)
		return true
	}
	if !replaced {
		old = nil
	}
	switch e.kind {
	case "expect":
		return r.checkEntry(e)
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
	switch e.kind {
	case "let", "param":
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
	case "pool":
		for _, p := range scn.Pools() {
			if p.Name == e.key {
				fmt.Fprintf(r.stdout, "pool %s: %s\n", p.Name, poolFieldsText(report.PoolOf(p)))
			}
		}
	case "job":
		if j, ok := scn.Job(e.key); ok {
			var was *report.Job
			if old != nil {
				if wj, ok := old.Job(e.key); ok {
					w := report.JobOf(wj)
					was = &w
				}
			}
			writeJobSummary(r.stdout, report.JobOf(j), was)
		}
	case "rules":
		if rs, ok := report.RulesetOf(scn, e.key); ok {
			fmt.Fprintf(r.stdout, "rules %s: %s, else %s\n", e.key, describeCount(len(rs.Rules), "rule", "rules"), rs.Else)
		}
	case "request":
		var parts []string
		for _, f := range e.fields {
			if v, err := scn.Value(e.key + "." + f); err == nil {
				parts = append(parts, f+" "+v.String())
			}
		}
		fmt.Fprintf(r.stdout, "request %s: %s\n", e.key, strings.Join(parts, ", "))
	case "group", "compare", "sweep", "solve":
		if line := planningSummary(report.PlanningOf(scn), e.key); line != "" {
			fmt.Fprintln(r.stdout, line)
		}
	}
}

// planningSummary is one line on a group, a compare, a sweep or a solve:
// what :explain and the queries can then ask of it.
func planningSummary(p report.Planning, name string) string {
	for _, mg := range p.Groups {
		if g := mg.Figures; g.Name == name {
			line := fmt.Sprintf("group %s: %s, mpg %s, useful_hours %s", g.Name, describeCount(len(g.Jobs), "job", "jobs"), report.Number(g.MPG), report.Hours(g.UsefulHours))
			if g.HasCost {
				line += ", cost " + mg.Money(g.Cost).String()
			}
			return line
		}
	}
	for _, c := range p.Compares {
		if c.Name == name {
			order := "lowest"
			if c.Figures.Max {
				order = "highest"
			}
			return fmt.Sprintf("compare %s: best %s (%s %s of %s)", c.Name, c.Best, order, c.By, describeCount(len(c.Rows), "job", "jobs"))
		}
	}
	for _, sw := range p.Sweeps {
		if sw.Name == name {
			line := fmt.Sprintf("sweep %s over %s: %s of %s", sw.Name, sw.OverWhat(), describeCount(sw.Points, "point", "points"), strings.Join(sw.Inputs, " × "))
			if sw.Failed > 0 {
				line += fmt.Sprintf(", %s of them cannot be evaluated", report.Number(float64(sw.Failed)))
			}
			return line
		}
	}
	for _, s := range p.Solves {
		if sv := s.Figures; sv.Name == name {
			line := fmt.Sprintf("solve %s over %s: %s = %s gives %s", sv.Name, s.OverWhat(), sv.Input, sv.Value, sv.Condition)
			if sv.AboveCeiling {
				line += ", above the job's ceiling"
			}
			if s.Border != nil {
				line += "; it borders values where the " + s.Over + " cannot be evaluated"
			}
			return line
		}
	}
	return ""
}

// poolFieldsText lists the fields a pool sets, with their values.
func poolFieldsText(p report.Pool) string {
	var parts []string
	for _, f := range p.Fields {
		parts = append(parts, f.Name+" "+f.Value.String())
	}
	if len(parts) == 0 {
		return "no fields set"
	}
	return strings.Join(parts, ", ")
}

// writeJobSummary prints a job's mpg, losses, best lever and cost per
// useful hour; was, when set, is the job it replaces.
func writeJobSummary(w io.Writer, j report.Job, was *report.Job) {
	head := "job " + j.Name
	switch {
	case j.Extends != nil:
		head += " extends " + *j.Extends
	case j.Pool != nil:
		head += " on " + *j.Pool
	}
	fmt.Fprintln(w, head)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	mpg := j.Figures.MPG.String()
	if was != nil && was.View.MPG != j.View.MPG {
		mpg += " (was " + was.Figures.MPG.String() + ")"
	}
	fmt.Fprintf(tw, "  mpg\t%s\n", mpg)
	var losses []string
	for _, f := range j.View.Factors {
		losses = append(losses, f.Name+" "+j.Figures.Loss[f.Factor].String())
	}
	fmt.Fprintf(tw, "  loss\t%s\n", strings.Join(losses, ", "))
	best := "none: no ceiling raises mpg"
	if j.View.HasBestLever {
		f := j.View.BestLever
		best = fmt.Sprintf("%s (+%s mpg)", j.View.Factors[f].Name, j.Figures.Gain[f])
	}
	fmt.Fprintf(tw, "  best_lever\t%s\n", best)
	cpuh := "— (no rate)"
	if j.View.HasRate {
		if c := j.Figures.CostPerUsefulHour; !c.OK {
			cpuh = "undefined: mpg is 0"
		} else {
			cpuh = c.String()
		}
	}
	fmt.Fprintf(tw, "  cost_per_useful_hour\t%s\n", cpuh)
	for _, m := range j.Listed {
		fmt.Fprintf(tw, "  %s\t%s\n", m.Name, m.Figure)
	}
	tw.Flush()
}

// describeOwners prints, for each job whose owners a top-level owners
// block changed, the factors whose owner it changed.
func (r *repl) describeOwners(old *eval.Scenario) {
	n := 0
	for _, j := range r.s.scn().Jobs() {
		was, ok := old.Job(j.Name)
		if !ok {
			continue
		}
		var changes []string
		for f := range report.Factor(report.NumFactors) {
			name := "owner." + f.String()
			a, errA := was.Get(name)
			b, errB := j.Get(name)
			if errA == nil && errB == nil && a != b {
				changes = append(changes, fmt.Sprintf("%s %s (was %s)", name, b, a))
			}
		}
		if len(changes) > 0 {
			fmt.Fprintf(r.stdout, "%s: %s\n", j.Name, strings.Join(changes, ", "))
			n++
		}
	}
	if n == 0 {
		fmt.Fprintln(r.stdout, "owners: no job's owner changed")
	}
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
			names = append(names, kindWords()[n[1]]+" "+n[0])
		}
	}
	path := strings.TrimPrefix(e.key, "import ")
	if len(names) == 0 {
		fmt.Fprintf(r.stdout, "imported %s\n", path)
		return
	}
	fmt.Fprintf(r.stdout, "imported %s: %s\n", path, strings.Join(names, ", "))
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
	for _, ej := range scn.Jobs() {
		wj, ok := old.Job(ej.Name)
		if !ok || isNew[ej.Name] || wj.Result == ej.Result {
			continue
		}
		was, j := report.JobOf(wj).Figures, report.JobOf(ej).Figures
		var changes []string
		for _, c := range []struct {
			name string
			a, b report.Figure
		}{{"mpg", was.MPG, j.MPG}, {"ceiling_mpg", was.CeilingMPG, j.CeilingMPG}, {"best_lever", was.BestLever, j.BestLever},
			{"cost", was.Cost, j.Cost}, {"cost_per_useful_hour", was.CostPerUsefulHour, j.CostPerUsefulHour}} {
			if a, b := c.a.String(), c.b.String(); a != b {
				changes = append(changes, c.name+" "+a+" → "+b)
			}
		}
		change := strings.Join(changes, ", ")
		if change == "" {
			change = "results changed"
		}
		lines = append(lines, fmt.Sprintf("%s: %s", ej.Name, change))
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(r.stdout, "  also "+l)
	}
	r.checkAll(isNew, false)
}

// WriteJobSummary writes a job's summary as the REPL prints it after the
// job is typed: its mpg, each factor's loss, the best lever, the cost per
// useful hour and its listed results. gpl lsp shows it on hover.
func WriteJobSummary(w io.Writer, j report.Job) { writeJobSummary(w, j, nil) }
