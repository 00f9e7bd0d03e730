package eval

import (
	"errors"
	"fmt"

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
}

// compareBest is the job that wins a compare: the first with the lowest
// (or, by max, the largest) value of its result.
func (s *Scenario) compareBest(d *decl) (*decl, error) {
	var best *decl
	var bestV float64
	for _, m := range d.plan.members {
		v, err := s.jobResult(m, d.plan.by.name)
		if err != nil {
			return nil, fmt.Errorf("compare %s cannot rank %s: %w", d.name.Name, m.name.Name, err)
		}
		if best == nil || d.plan.max && v.Num > bestV || !d.plan.max && v.Num < bestV {
			best, bestV = m, v.Num
		}
	}
	return best, nil
}

func (s *Scenario) bestValue(r *ref, out *sink) (Value, bool) {
	best, err := s.compareBest(r.d)
	if err != nil {
		pos, end := r.node.Span()
		reportJobErr(out, pos, end, err)
		return Value{}, false
	}
	return Value{Type: StringType, Str: best.name.Name}, true
}

func (s *Scenario) ratioValue(q ratioRef, r *ref, out *sink) (Value, bool) {
	first := r.d.plan.members[0]
	v, err := goodput.TradeRatio(s.of(first).job.result(), s.of(q.job).job.result())
	if err != nil {
		pos, end := r.node.Span()
		err = divisionError("the mpg of "+first.name.Name, s.of(first).job, err)
		out.runtimeErrorAt(pos, end, fmt.Sprintf("%s.ratio(%s) is undefined: %v", r.d.name.Name, q.job.name.Name, err))
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
	for _, d := range s.p.order {
		if d.kind != declCompare || s.of(d).state != done {
			continue
		}
		c := Compare{Name: d.name.Name, By: d.plan.by.name, Max: d.plan.max}
		if best, err := s.compareBest(d); err == nil {
			c.Best = best.name.Name
		}
		first := s.of(d.plan.members[0]).job.result()
		firstCPUH, firstErr := first.CostPerUsefulHour()
		for _, m := range d.plan.members {
			r := s.of(m).job.result()
			row := CompareRow{Job: m.name.Name, MPG: r.MPG, UsefulHours: r.UsefulHours, Cost: r.Cost, HasCost: r.HasCost}
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
