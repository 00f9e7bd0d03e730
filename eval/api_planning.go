package eval

import (
	"errors"
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
	// Idle is the idle device-hours and their cost (USD) of the
	// reservations whose every job is in the group; Months, the group's
	// figures by calendar month when its jobs have windows (nil else).
	IdleHours, IdleCost float64
	HasIdleCost         bool
	Months              []Period
	// Currency is the code of the currency its money is in ("USD",
	// "EUR"): its jobs', which are all in one.
	Currency string
}

// Groups returns the file's groups in source order, as this evaluation
// computed them.
func (s *Scenario) Groups() []Group {
	var out []Group
	for _, d := range s.p.Order {
		if d.Kind != check.DeclGroup || s.of(d).state != check.Done {
			continue
		}
		g := Group{Name: d.Name.Name, HasCost: true, Owners: s.ownerRows(d), Currency: d.Plan.Currency}
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
		total, months := s.groupPeriods(d)
		g.IdleHours, g.IdleCost, g.HasIdleCost, g.Months = total.idle, total.idleCost, total.hasIdleCost, periodsOf(months)
		for _, def := range results.ListedRows() {
			if def.Group != results.GroupNone {
				v, err := s.groupValue(d, check.GroupFigures()[def.Name])
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

// Sweep describes a sweep: its job ("" for a sweep over the whole
// file), the inputs it varies (canonical names, outermost first), its
// show columns as written (nil: over a job, the default columns mpg,
// useful_hours, cost_per_useful_hour and best_lever) and its number of
// points. Failed counts the points that cannot be evaluated, which the
// load counts for a sweep whose points evaluate the file again (over it,
// or varying a param); 0 for another.
type Sweep struct {
	Name, Job string
	OverFile  bool
	Inputs    []string
	Columns   []string
	Points    int
	Failed    int
	// Currency is the code of the currency of its job's money ("" over
	// the file, whose columns carry their own).
	Currency string
}

// Sweeps returns the file's sweeps that evaluated, in source order.
func (s *Scenario) Sweeps() []Sweep {
	var out []Sweep
	for _, d := range s.p.Order {
		if d.Kind != check.DeclSweep || s.of(d).state != check.Done {
			continue
		}
		pv := s.of(d).plan
		sw := Sweep{Name: d.Name.Name, OverFile: d.OverFile(), Points: pv.points, Failed: pv.failed}
		if !sw.OverFile {
			sw.Job = d.Plan.Job.Name.Name
			sw.Currency = s.p.JobCurrency(d.Plan.Job)
		}
		for _, ax := range d.Plan.Axes {
			sw.Inputs = append(sw.Inputs, ax.In.Name)
		}
		for _, c := range d.Plan.Shows {
			sw.Columns = append(sw.Columns, c.Name)
		}
		out = append(out, sw)
	}
	return out
}

// SweepPoint is one point of a sweep as its table shows it.
type SweepPoint struct {
	// Inputs are the varied inputs' values, in the order of Sweep.Inputs.
	Inputs []Value
	// Failure says why the point cannot be evaluated; nil when it can. A
	// point that cannot has its Inputs and nothing else.
	Failure *PointFailure
	// AboveCeiling lists the factors the point sets above their ceilings:
	// over a job, their long names; over the file, JOB.FACTOR.
	AboveCeiling []string
	// Columns are the values of the sweep's show columns, in the order
	// of Sweep.Columns; one undefined at the point (a division by zero, a
	// price over a zero mpg) has Err set. Nil without a show line.
	Columns []Result
	// Without a show line, over a job: MPG is a fraction; UsefulHours
	// device-hours; CostPerUsefulHour USD per useful device-hour,
	// meaningful when HasCostPerUsefulHour.
	MPG, UsefulHours, CostPerUsefulHour float64
	HasCostPerUsefulHour                bool
	// BestLever is the factor whose ceiling gains most, "" when none does.
	BestLever string
}

// SweepPoints calls fn with each point of the named sweep, in order,
// until fn returns false. The point is computed when it is reached: a
// caller that does not keep the points uses memory that does not grow
// with them. fn must not keep p.Inputs or p.Columns, which are reused.
func (s *Scenario) SweepPoints(name string, fn func(p SweepPoint) bool) (err error) {
	var inFn bool
	defer recoverOutside(&inFn, &err)
	d, ok := s.p.Decls[name]
	if !ok || d.Kind != check.DeclSweep {
		return fmt.Errorf("%s is not a sweep of the file", name)
	}
	sp := SweepPoint{Inputs: make([]Value, len(d.Plan.Axes))}
	var runs []*pointRunner
	for _, c := range d.Plan.Shows {
		runs = append(runs, newPointRunner(c.Expr))
		sp.Columns = append(sp.Columns, Result{Name: c.Name})
	}
	var cerr error
	err = s.eachPoint(d, func(pt *point) bool {
		for i, ax := range d.Plan.Axes {
			sp.Inputs[i] = NumberValue(pt.vals[i], ax.In.Type.Dim)
		}
		sp.Failure, sp.AboveCeiling = pt.fail, nil
		sp.MPG, sp.UsefulHours, sp.CostPerUsefulHour, sp.HasCostPerUsefulHour, sp.BestLever = 0, 0, 0, false, ""
		if pt.fail != nil {
			for i := range sp.Columns {
				sp.Columns[i].Value, sp.Columns[i].Err = Value{}, pt.fail
			}
			inFn = true
			more := fn(sp)
			inFn = false
			return more
		}
		sp.AboveCeiling = pt.aboveCeiling()
		for i, run := range runs {
			v, err := run.value(pt)
			var u *errUndefinedHere
			if err != nil && !errors.As(err, &u) {
				cerr = fmt.Errorf("sweep %s: column %s at %s: %w", name, sp.Columns[i].Name, describeAt(d, pt), err)
				return false
			}
			sp.Columns[i].Value, sp.Columns[i].Err = v, err
		}
		if !pt.file {
			r := pt.job.result()
			sp.MPG, sp.UsefulHours = r.MPG, r.UsefulHours
			if v, err := r.CostPerUsefulHour(); err == nil {
				sp.CostPerUsefulHour, sp.HasCostPerUsefulHour = v, true
			}
			if r.HasBestLever {
				sp.BestLever = r.BestLever.String()
			}
		}
		inFn = true
		more := fn(sp)
		inFn = false
		return more
	})
	if err == nil {
		err = cerr
	}
	return err
}

// Solve is a solve's answer.
type Solve struct {
	// Job is the job the solve is over, "" when it is over the whole file.
	Name, Job string
	OverFile  bool
	// Input is the input searched (canonical name) and Value its answer.
	Input string
	Value Value
	// Condition is the condition as written; Subject what it compares
	// (a job result's name, or over the file the expression as written),
	// and Result its value at the answer, as the text report prints it.
	Condition, Subject string
	Result             Value
	// AboveCeiling is true when the answer for a factor is above the job's
	// ceiling for it; Above lists the factors a param's answer sets
	// above their ceilings (over a job, long names; over the file,
	// JOB.FACTOR), which a what-if allows.
	AboveCeiling bool
	Above        []string
	// Border is why the file (over a job, the job) cannot be evaluated at
	// the value next to the answer, where the condition was taken not to
	// hold; nil when it can be.
	Border *PointFailure
}

// Solves returns the file's solves that found an answer, in source order.
func (s *Scenario) Solves() []Solve {
	var out []Solve
	for _, d := range s.p.Order {
		if d.Kind != check.DeclSolve || s.of(d).state != check.Done || s.of(d).plan.answer == nil {
			continue
		}
		fp, pt := d.Plan.Find, s.of(d).plan.answer
		sv := Solve{Name: d.Name.Name, OverFile: d.OverFile(), Input: fp.In.Name,
			Value: NumberValue(pt.vals[0], fp.In.Type.Dim), Condition: s.sourceText(fp.Cond), Subject: fp.Subject,
			Border: s.of(d).plan.border}
		if sv.OverFile {
			if v, err := pt.sc.runAt(fp.Of); err == nil {
				sv.Result = v
			}
		} else {
			sv.Job = d.Plan.Job.Name.Name
			if v, err := resultGet(fp.Result, &pt.job); err == nil {
				if fp.Stat != "" {
					v.Num = pt.stat // the statistic over the samples, not the value at the medians
				}
				sv.Result = v
			}
		}
		if fp.In.Kind == check.InFactor {
			c := s.of(d.Plan.Job).job.in.Ceilings[fp.In.Factor]
			sv.AboveCeiling = c.Set && pt.vals[0] > c.Value
		} else if fp.In.Kind == check.InParam {
			sv.Above = pt.aboveCeiling()
		}
		out = append(out, sv)
	}
	return out
}
