package eval

import (
	"errors"
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// CompareRow is one job of a compare.
type CompareRow struct {
	Job string
	// MPG is a fraction; UsefulHours device-hours; Cost USD;
	// CostPerUsefulHour USD per useful device-hour (0 when HasCost is
	// false, or when MPG is 0).
	MPG, UsefulHours, Cost, CostPerUsefulHour float64
	HasCost                                   bool
	// TradeRatio is this job's mpg over the first job's (0 when the
	// first's mpg is 0); CostPerUsefulHourChange is this job's
	// cost_per_useful_hour minus the first's, USD per device-hour.
	TradeRatio, CostPerUsefulHourChange float64
}

// Compare is a compare's table and its verdict.
type Compare struct {
	Name string
	// By is the result the jobs are ranked by, Max whether the largest
	// wins (the default is the lowest cost_per_useful_hour).
	By   string
	Max  bool
	Best string
	Rows []CompareRow
	// Currency is the code of the currency its jobs' money is in.
	Currency string
}

// compareBest is the job that wins a compare: the first with the lowest
// (or, by max, the largest) value of its result.
func (s *Scenario) compareBest(d *check.Decl) (*check.Decl, error) {
	var best *check.Decl
	var bestV float64
	for _, m := range d.Plan.Members {
		v, err := s.jobResult(m, d.Plan.By.Name)
		if err != nil {
			return nil, fmt.Errorf("compare %s cannot rank %s: %w", d.Name.Name, m.Name.Name, err)
		}
		if best == nil || d.Plan.Max && v.Num > bestV || !d.Plan.Max && v.Num < bestV {
			best, bestV = m, v.Num
		}
	}
	return best, nil
}

func (s *Scenario) bestValue(r *check.Ref, out *sink) (Value, bool) {
	best, err := s.compareBest(r.Decl)
	if err != nil {
		pos, end := r.Node.Span()
		reportJobErr(out, pos, end, err)
		return Value{}, false
	}
	return Value{Type: StringType, Str: best.Name.Name}, true
}

func (s *Scenario) ratioValue(q check.RatioRef, r *check.Ref, out *sink) (Value, bool) {
	first := r.Decl.Plan.Members[0]
	v, err := goodput.TradeRatio(s.of(first).job.result(), s.of(q.Job).job.result())
	if err != nil {
		pos, end := r.Node.Span()
		err = divisionError("the mpg of "+first.Name.Name, s.of(first).job, err)
		out.runtimeErrorAt(pos, end, fmt.Sprintf("%s.ratio(%s) is undefined: %v", r.Decl.Name.Name, q.Job.Name.Name, err))
		return Value{}, false
	}
	return count(v), true
}

func reportJobErr(out *sink, pos, end lang.Position, err error) {
	if errors.Is(err, goodput.ErrZeroMPG) || errors.Is(err, goodput.ErrOverflow) {
		out.runtimeErrorAt(pos, end, err.Error())
		return
	}
	out.errorAt(pos, end, err.Error())
}

// Compares returns the file's compares in source order, with their
// tables in this evaluation.
func (s *Scenario) Compares() []Compare {
	var out []Compare
	for _, d := range s.p.Order {
		if d.Kind != check.DeclCompare || s.of(d).state != check.Done {
			continue
		}
		c := Compare{Name: d.Name.Name, By: d.Plan.By.Name, Max: d.Plan.Max, Currency: d.Plan.Currency}
		if best, err := s.compareBest(d); err == nil {
			c.Best = best.Name.Name
		}
		first := s.of(d.Plan.Members[0]).job.result()
		firstCPUH, firstErr := first.CostPerUsefulHour()
		for _, m := range d.Plan.Members {
			r := s.of(m).job.result()
			row := CompareRow{Job: m.Name.Name, MPG: r.MPG, UsefulHours: r.UsefulHours, Cost: r.Cost, HasCost: r.HasCost}
			if v, err := r.CostPerUsefulHour(); err == nil {
				row.CostPerUsefulHour = v
				if firstErr == nil {
					row.CostPerUsefulHourChange = v - firstCPUH
				}
			}
			if v, err := goodput.TradeRatio(first, r); err == nil {
				row.TradeRatio = v
			}
			c.Rows = append(c.Rows, row)
		}
		out = append(out, c)
	}
	return out
}
