package repl

import (
	"fmt"
	"sort"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// How the REPL runs expectations: an entry's own, and all of them after a
// change, reporting those that fail.

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
