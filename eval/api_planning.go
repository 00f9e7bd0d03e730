package eval

import (
	"fmt"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
)

// This file is the embedding API of the planning declarations: what the
// report writers read of groups, sweeps and solves (compare.go has
// Compares).

// Group is a group's sums over its jobs. Hours are device-hours, money
// USD, CostPerUsefulHour USD per useful device-hour.
type Group struct {
	Name string
	Jobs []string
	// HasCost is false when some job has no rate: then Cost, BadputCost,
	// CostPerUsefulHour and the owners' money are 0.
	HasCost                                               bool
	OfferedHours, HeldHours, ProductiveHours, UsefulHours float64
	Cost, BadputCost, CostPerUsefulHour                   float64
	MPG                                                   float64
	// Owners rolls the jobs' losses and gains up by the team owning each
	// factor, largest saving first.
	Owners []OwnerRow
	// Listed are the listed results (Job.Listed) a group has a figure
	// for, in base units.
	Listed []Result
}

// Groups returns the file's groups in source order, as this evaluation
// computed them.
func (s *Scenario) Groups() []Group {
	var out []Group
	for _, d := range s.p.Order {
		if d.Kind != check.DeclGroup || s.of(d).state != check.Done {
			continue
		}
		g := Group{Name: d.Name.Name, HasCost: true, Owners: s.ownerRows(d)}
		for _, m := range d.Plan.Members {
			g.Jobs = append(g.Jobs, m.Name.Name)
			r := s.of(m).job.result()
			g.HasCost = g.HasCost && r.HasCost
			g.OfferedHours += r.OfferedHours
			g.HeldHours += r.HeldHours
			g.ProductiveHours += r.ProductiveHours
			g.UsefulHours += r.UsefulHours
			g.Cost += r.Cost
			g.BadputCost += r.BadputCost
		}
		if g.OfferedHours > 0 {
			g.MPG = g.UsefulHours / g.OfferedHours
		}
		for _, def := range results.ListedRows() {
			if def.Group != results.GroupNone {
				v, err := s.groupValue(d, check.GroupFigures[def.Name])
				g.Listed = append(g.Listed, Result{Name: def.Name, Value: v, Err: err})
			}
		}
		if g.HasCost && g.UsefulHours > 0 {
			g.CostPerUsefulHour = g.Cost / g.UsefulHours
		}
		if !g.HasCost {
			g.Cost, g.BadputCost = 0, 0
			for i := range g.Owners {
				g.Owners[i].LossCost, g.Owners[i].Saving = 0, 0
			}
		}
		out = append(out, g)
	}
	return out
}

// Sweep describes a sweep: its job, the inputs it varies (canonical
// names, outermost first) and its number of points.
type Sweep struct {
	Name, Job string
	Inputs    []string
	Points    int
}

// Sweeps returns the file's sweeps that evaluated, in source order.
func (s *Scenario) Sweeps() []Sweep {
	var out []Sweep
	for _, d := range s.p.Order {
		if d.Kind != check.DeclSweep || s.of(d).state != check.Done {
			continue
		}
		sw := Sweep{Name: d.Name.Name, Job: d.Plan.Job.Name.Name, Points: s.of(d).plan.points}
		for _, ax := range d.Plan.Axes {
			sw.Inputs = append(sw.Inputs, ax.In.Name)
		}
		out = append(out, sw)
	}
	return out
}

// SweepPoint is one point of a sweep as its table shows it.
type SweepPoint struct {
	// Inputs are the varied inputs' values, in the order of Sweep.Inputs.
	Inputs []Value
	// AboveCeiling lists the factors the point sets above their ceilings.
	AboveCeiling []string
	// MPG is a fraction; UsefulHours device-hours; CostPerUsefulHour USD
	// per useful device-hour, meaningful when HasCostPerUsefulHour.
	MPG, UsefulHours, CostPerUsefulHour float64
	HasCostPerUsefulHour                bool
	// BestLever is the factor whose ceiling gains most, "" when none does.
	BestLever string
}

// SweepPoints calls fn with each point of the named sweep, in order,
// until fn returns false. The point is computed when it is reached: a
// caller that does not keep the points uses memory that does not grow
// with them. fn must not keep p.Inputs, which is reused.
func (s *Scenario) SweepPoints(name string, fn func(p SweepPoint) bool) (err error) {
	var inFn bool
	defer recoverOutside(&inFn, &err)
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclSweep {
		return fmt.Errorf("%s is not a sweep of the file", name)
	}
	sp := SweepPoint{Inputs: make([]Value, len(d.Plan.Axes))}
	return s.eachPoint(d, func(pt *point) bool {
		for i, ax := range d.Plan.Axes {
			sp.Inputs[i] = NumberValue(pt.vals[i], ax.In.Type.Dim)
		}
		r := pt.job.result()
		sp.AboveCeiling = pt.aboveCeiling()
		sp.MPG, sp.UsefulHours = r.MPG, r.UsefulHours
		sp.CostPerUsefulHour, sp.HasCostPerUsefulHour = 0, false
		if v, err := r.CostPerUsefulHour(); err == nil {
			sp.CostPerUsefulHour, sp.HasCostPerUsefulHour = v, true
		}
		sp.BestLever = ""
		if r.HasBestLever {
			sp.BestLever = r.BestLever.String()
		}
		inFn = true
		more := fn(sp)
		inFn = false
		return more
	})
}

// Solve is a solve's answer.
type Solve struct {
	Name, Job string
	// Input is the input searched (canonical name) and Value its answer.
	Input string
	Value Value
	// Condition is the condition as written, Result the value of its
	// result at the answer.
	Condition string
	Result    Value
	// AboveCeiling is true when the answer for a factor is above the job's
	// ceiling for it.
	AboveCeiling bool
}

// Solves returns the file's solves that found an answer, in source order.
func (s *Scenario) Solves() []Solve {
	var out []Solve
	for _, d := range s.p.Order {
		if d.Kind != check.DeclSolve || s.of(d).state != check.Done || s.of(d).plan.answer == nil {
			continue
		}
		fp, pt := d.Plan.Find, s.of(d).plan.answer
		sv := Solve{Name: d.Name.Name, Job: d.Plan.Job.Name.Name, Input: fp.In.Name,
			Value: NumberValue(pt.vals[0], fp.In.Type.Dim), Condition: s.sourceText(fp.Cond)}
		if v, err := resultGet(fp.Result, &pt.job); err == nil {
			sv.Result = v
		}
		if fp.In.Kind == check.InFactor {
			c := s.of(d.Plan.Job).job.in.Ceilings[fp.In.Factor]
			sv.AboveCeiling = c.Set && pt.vals[0] > c.Value
		}
		out = append(out, sv)
	}
	return out
}
