package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// What the REPL prints after a statement: a declaration's summary, the
// outcome of expectations, and what else the change moved.

// describe prints what an added statement gives; false when it is an
// expectation that fails.
func (r *repl) describe(e entry, old *eval.Scenario) bool {
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
	scn := r.s.scn
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
	}
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
	for _, n := range r.s.scn.Names() {
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
	passed, failed := 0, 0
	for _, x := range r.s.scn.Expectations() {
		if i := r.s.lay.entryAt(x.Node().Pos); i < 0 || r.s.lay.entries[i].from != e.from {
			continue
		}
		o := r.s.scn.Check(x)
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
			r.report(placeAll(lang.Diagnostics{o.Diagnostic}, r.s.lay.spans), r.s.scn)
		}
	}
	if e.kind == "job" && passed+failed > 0 {
		fmt.Fprintf(r.stdout, "  expectations: %d passed, %d failed\n", passed, failed)
	}
	return failed == 0
}

// expectID names an expectation by where it was written.
func (r *repl) expectID(x *eval.Expectation) string {
	p := place(x.Node().Pos, r.s.lay.spans)
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// checkAll runs every expectation, reports those that fail and did not
// before (all of them, after a load), and counts them.
func (r *repl) checkAll(skip []entry) (passed, failed int) {
	for _, x := range r.s.scn.Expectations() {
		if i := r.s.lay.entryAt(x.Node().Pos); i >= 0 && isAdded(r.s.lay.entries[i], skip) {
			continue
		}
		o := r.s.scn.Check(x)
		id := r.expectID(x)
		if o.Pass {
			passed++
		} else {
			failed++
			if !r.failing[id] && o.Diagnostic != nil {
				r.report(placeAll(lang.Diagnostics{o.Diagnostic}, r.s.lay.spans), r.s.scn)
			}
		}
		r.failing[id] = !o.Pass
	}
	return passed, failed
}

// reportChanges prints the values and jobs that an added declaration
// changed elsewhere, and the expectations it broke.
func (r *repl) reportChanges(old *eval.Scenario, added []entry) {
	isNew := map[string]bool{}
	for _, a := range added {
		isNew[a.key] = true
	}
	var lines []string
	if old != nil {
		for _, l := range r.s.scn.Lets() {
			if was, err := old.Value(l.Name); err == nil && !isNew[l.Name] && was != l.Value {
				lines = append(lines, fmt.Sprintf("%s = %s (was %s)", l.Name, l.Value, was))
			}
		}
		for _, j := range r.s.scn.Jobs() {
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
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(r.stdout, "  also "+l)
	}
	r.checkAll(added)
}
