package eval

import (
	"fmt"
	"github.com/gpl-lang/gpl/lang/units"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
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

// stat is the statistic stat (q its quantile) of the job's result def
// over the samples, each row as it stands: the job solved in every
// sample. err is the engine's error in the first sample that fails.
func (js *jobSamples) stat(def *results.Def, stat string, q float64) (float64, error) {
	n := js.cs.n
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
		fromUnit(js.xs[:n], js.xs[:n], &units.USDPerHour)
	}
	sum := sampling.Summarize(js.xs[:n])
	return summaryStat(&sum, stat, q), nil
}

// statValue is the statistic q of a result at the sweep's point pt over
// a job (show mpg.p10): the job solved in every sample with the point's
// values of the job's own inputs (a param's are in pt.sc already).
func (pt *point) statValue(q check.PointStatRef) (Value, error) {
	d := pt.sweep
	v, err := resultGet(q.Def, &pt.job) // at the medians: the type, and a certain job's value
	switch {
	case d == nil || pt.file || d.Plan.Job == nil:
		return Value{}, fmt.Errorf("%s.%s has a value only at a sweep's point over a job", q.Def.Name, q.Stat)
	case err == errNoRate:
		return Value{}, fmt.Errorf("the job has no rate, so %s is undefined", q.Def.Name)
	case err != nil:
		return Value{}, &errUndefinedHere{fmt.Errorf("%s is undefined: %w", q.Def.Name, divisionError("its mpg", &pt.job, err))}
	}
	job := d.Plan.Job
	js := pt.js
	if js == nil || pt.jsOf != pt.sc {
		// The job's rows, made once for the walk's points that share an
		// evaluation (all of them, unless a param is varied).
		var ok bool
		if js, ok = pt.sc.newJobSamples(job); !ok {
			return Value{}, fmt.Errorf("job %s cannot be solved sample by sample for %s.%s (it lies in time, or its pool reads a distribution): sweep over file, vary a param it reads and show %s.%s.%s", job.Name.Name, q.Def.Name, q.Stat, job.Name.Name, q.Def.Name, q.Stat)
		}
		pt.js, pt.jsOf = js, pt.sc
	}
	if js == nil {
		v.Num = plainStat(v.Num, q.Stat)
		return v, nil
	}
	for i, ax := range d.Plan.Axes {
		if ax.In.Kind != check.InParam {
			ax.In.Setter().SetRows(&js.rows, pt.vals[i])
		}
	}
	pt.sc.countSamples(int64(js.cs.n))
	x, err := js.stat(q.Def, q.Stat, q.Q)
	if err != nil {
		return Value{}, &errUndefinedHere{fmt.Errorf("%s.%s is undefined: %s", q.Def.Name, q.Stat, sampleFailure(err, js.cs.n))}
	}
	v.Num = x
	return v, nil
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
