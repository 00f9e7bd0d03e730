package eval

import (
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/stdlib/goodput"
	"github.com/gpl-lang/gpl/stdlib/sampling"
)

// This file is the statistic of a solve over a job (language §23: find
// S in [0.5, 1] such that mpg.p10 >= 0.30): at each candidate the job is
// solved in every sample, the searched input the same in all, and the
// statistic of the result over the samples is compared with the target.

// jobSamples are a job's inputs over the samples of its file, held by a
// solve over the job for its every candidate.
type jobSamples struct {
	cs    *colSampler
	rows  goodput.Rows
	owned [][]float64
	figs  goodput.RowFigures
	xs    []float64 // the result over the samples, in base units
}

// newJobSamples are the rows of job over the samples s reads, nil
// when the file has no distribution; ok is false for a job the
// column-wise pass does not cover (a job in time, a pool that is itself
// uncertain), whose solve then says it cannot sample it.
func (s *Scenario) newJobSamples(job *check.Decl) (js *jobSamples, ok bool) {
	if s.point && s.draw == 0 && s.unc != nil && s.unc.base != s {
		s.unc = s.unc.atPoint(s) // a what-if's point: its own samples (uncertainRef)
	}
	u := s.unc
	if u == nil {
		return nil, true
	}
	if u.root != nil {
		u = u.root
	}
	if s.draw == 0 {
		// A sample's own evaluation holds the lock, and every
		// distribution is drawn before a sample is.
		u.mu.Lock()
		for _, site := range u.base.p.DistSites() {
			if _, ok := u.distOf(site, &u.base.ev); !ok {
				u.mu.Unlock()
				return nil, false
			}
		}
		u.mu.Unlock()
	}
	js = &jobSamples{cs: newColSampler(u)}
	js.rows, _, js.owned, ok = js.cs.jobRows(job)
	if !ok {
		js.release()
		return nil, false
	}
	js.rows.RaiseCeilings = true // a candidate may stand above a ceiling, as a what-if's point does
	js.xs = make([]float64, js.cs.n)
	return js, true
}

// release gives the rows' scratch columns back.
func (js *jobSamples) release() {
	js.cs.release(js.owned...)
	js.cs.finish()
	js.owned = nil
}

// statAt is the statistic fp asks of its result over the samples with
// the searched input at x (base units; set nil when the rows were made
// with it, a param): the job solved in every sample.
// err is the engine's error in the first sample that fails there.
func (js *jobSamples) statAt(fp *check.FindPlan, set *check.Setter, x float64) (float64, error) {
	if set != nil {
		set.SetRows(&js.rows, x)
	}
	n := js.cs.n
	def := fp.Result
	js.figs = goodput.RowFigures{}
	var col *[]float64
	if def.HasFigure() {
		col = engineColumn(&js.figs, def.Figure)
	} else {
		col = &js.figs.CostPerUsefulHour
	}
	*col = js.xs
	if err := goodput.SolveRows(&js.rows, n, &js.figs); err != nil {
		return 0, err
	}
	if def.HasFigure() {
		fromUnit(js.xs[:n], js.xs[:n], engineUnit(def.Type))
	} else {
		fromUnit(js.xs[:n], js.xs[:n], &unitUSDPerHour)
	}
	sum := sampling.Summarize(js.xs[:n])
	return summaryStat(&sum, fp.Stat, fp.StatQ), nil
}

// summaryStat is the statistic stat (check.Stats: "p10" with q 0.1) of
// sum; a quantile other than those a Summary holds needs its samples.
func summaryStat(sum *sampling.Summary, stat string, q float64) float64 {
	switch stat {
	case "mean":
		return sum.Mean
	case "sd":
		return sum.SD
	case "min":
		return sum.Min
	case "max":
		return sum.Max
	case "p5":
		return sum.P5
	case "p10":
		return sum.P10
	case "p50":
		return sum.P50
	case "p90":
		return sum.P90
	case "p95":
		return sum.P95
	}
	return sum.Q(q)
}

// plainStat is the statistic stat of a value that is the same in every
// sample: the value, or 0 for its spread.
func plainStat(v float64, stat string) float64 {
	if stat == "sd" {
		return 0
	}
	return v
}

// sampleFailure says why the job cannot be solved in some sample at a
// candidate: the engine's message and the sample's number.
func sampleFailure(err error, n int) string {
	if re, ok := err.(*goodput.RowError); ok {
		return fmt.Sprintf("%s (in sample %d of %d)", engineMessage(re.Err), re.Row+1, n)
	}
	return engineMessage(err)
}
