package eval

import "fmt"

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
}

// Groups returns the file's groups in source order, as this evaluation
// computed them.
func (s *Scenario) Groups() []Group {
	var out []Group
	for _, d := range s.p.order {
		if d.kind != declGroup || s.of(d).state != done {
			continue
		}
		g := Group{Name: d.name.Name, HasCost: true, Owners: s.ownerRows(d)}
		for _, m := range d.plan.members {
			g.Jobs = append(g.Jobs, m.name.Name)
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
	for _, d := range s.p.order {
		if d.kind != declSweep || s.of(d).state != done {
			continue
		}
		sw := Sweep{Name: d.name.Name, Job: d.plan.job.name.Name, Points: s.of(d).plan.points}
		for _, ax := range d.plan.axes {
			sw.Inputs = append(sw.Inputs, ax.in.name)
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
func (s *Scenario) SweepPoints(name string, fn func(p SweepPoint) bool) error {
	d, ok := s.p.decls[name]
	if !ok || d.kind != declSweep {
		return fmt.Errorf("%s is not a sweep of the file", name)
	}
	sp := SweepPoint{Inputs: make([]Value, len(d.plan.axes))}
	return s.eachPoint(d, func(pt *point) bool {
		for i, ax := range d.plan.axes {
			sp.Inputs[i] = NumberValue(pt.vals[i], ax.in.typ.Dim)
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
		return fn(sp)
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
	for _, d := range s.p.order {
		if d.kind != declSolve || s.of(d).state != done || s.of(d).plan.answer == nil {
			continue
		}
		fp, pt := d.plan.find, s.of(d).plan.answer
		sv := Solve{Name: d.name.Name, Job: d.plan.job.name.Name, Input: fp.in.name,
			Value: NumberValue(pt.vals[0], fp.in.typ.Dim), Condition: s.sourceText(fp.cond)}
		if v, err := resultGet(fp.result, &pt.job); err == nil {
			sv.Result = v
		}
		if fp.in.kind == inFactor {
			c := s.of(d.plan.job).job.in.Ceilings[fp.in.factor]
			sv.AboveCeiling = c.Set && pt.vals[0] > c.Value
		}
		out = append(out, sv)
	}
	return out
}
