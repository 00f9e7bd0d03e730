package check

import (
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
)

// This file is the compare (language.md §14): jobs side by side, the best
// of them by one result, and the trade ratio of each against the first.

func (p *Program) checkCompare(d *Decl) bool {
	c := d.Plan.compare
	ok := p.memberJobs(d, c.Jobs)
	d.Plan.By = results.ByName()["cost_per_useful_hour"]
	if c.Order != "" {
		def, found := results.ByName()[c.ByName()]
		pos, end := c.By[0].Start(), c.By[len(c.By)-1].End()
		switch {
		case !found:
			msg := "a job has no result " + c.ByName()
			if sug := suggest.Closest(c.ByName(), results.Names()); sug != "" {
				msg += "; did you mean " + sug + "?"
			}
			p.errorAt(pos, end, msg)
			return false
		case def.Type.Kind != value.Number:
			p.errorAt(pos, end, fmt.Sprintf("%s is %s; a compare ranks by a number", c.ByName(), def.Type.Phrase()))
			return false
		}
		d.Plan.By, d.Plan.Max = def, c.Order == "max"
	}
	return ok
}

// BestRef reads NAME.best.
type BestRef struct{}

// RatioRef reads NAME.ratio(JOB): the trade ratio of JOB against the
// compare's first job.
type RatioRef struct {
	// Job is the job compared with the first.
	Job *Decl
}
