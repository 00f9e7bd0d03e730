package eval

import (
	"fmt"
	"iter"
	"slices"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// Job is an evaluated job: its inputs and the goodput engine's result.
type Job struct {
	Name    string
	Pool    string // the pool it runs on, inherited through extends
	Extends string // the job it varies, or ""
	// From and To are the dates it runs between, when its window or its
	// pool's places it in time; "" else.
	From, To string
	// Inputs are in the engine's units: devices, hours, USD per device-hour.
	Inputs goodput.Inputs
	Result goodput.Result

	s *Scenario
	d *check.Decl
}

// Currency is the code of the currency of the job's rate, in which its
// money results are: "USD", "EUR", …; "USD" without a rate.
func (j *Job) Currency() string {
	if c := j.s.of(j.d).job.currency; c != "" {
		return c
	}
	return "USD"
}

// Get reads a result by name: "mpg", "loss.program", "cost_per_useful_hour"
// (see ResultNames). Numbers are in base units (seconds, USD, USD per second
// for a price); Value.String prints them readably.
func (j *Job) Get(name string) (_ Value, err error) {
	defer recoverInto(&err)
	defer j.s.lock()()
	return j.s.jobResult(j.d, name)
}

// Result is one result by name: its value, or the error that says why it
// is undefined (no rate, a zero mpg).
type Result struct {
	Name  string
	Value Value
	Err   error
}

// Listed are the results every report view lists by name, beyond those
// it gives a place of its own, in the order of the table of results.
func (j *Job) Listed() []Result {
	var out []Result
	for _, d := range results.ListedRows() {
		v, err := j.Get(d.Name)
		out = append(out, Result{Name: d.Name, Value: v, Err: err})
	}
	return out
}

// Jobs lists the evaluated jobs in source order; jobs with errors are left
// out.
func (s *Scenario) Jobs() []*Job { return slices.Collect(s.AllJobs()) }

// AllJobs yields the jobs Jobs lists, one at a time, for a caller that
// reads each once (a report of 100,000 jobs need not hold them all).
func (s *Scenario) AllJobs() iter.Seq[*Job] {
	return func(yield func(*Job) bool) {
		for _, d := range s.p.Order {
			unlock := s.lock()
			j, ok := s.jobOf(d)
			unlock()
			if ok && !yield(j) {
				return
			}
		}
	}
}

// Job returns the evaluated job of that name.
func (s *Scenario) Job(name string) (*Job, bool) {
	d, ok := s.p.Decls[name]
	if !ok {
		return nil, false
	}
	defer s.lock()()
	if s.lazy != nil {
		s.force(d) // computed when first read (Evaluate with Only)
	}
	return s.jobOf(d)
}

func (s *Scenario) jobOf(d *check.Decl) (*Job, bool) {
	if d.Kind != check.DeclJob || s.of(d).state != check.Done {
		return nil, false
	}
	js := s.of(d).job
	j := &Job{Name: d.Name.Name, Inputs: js.in, Result: js.result(), s: s, d: d}
	if d.Job.Pool != nil {
		j.Pool = d.Job.Pool.Name.Name
	}
	if d.JobStmt().Extends != nil {
		j.Extends = d.JobStmt().Extends.Name
	}
	if js.placed {
		j.From, j.To = units.FormatDate(js.start), units.FormatDate(js.start+js.in.Hours*secondsPerHour)
	}
	return j, true
}

// Pool is an evaluated pool: the fields it sets, its jobs, and its
// figures over its whole time and by calendar month.
type Pool struct {
	Name   string
	Fields map[string]Value // devices, hours, rate, term, as set
	// Reserved: the pool has a term or a window, and is paid for whether
	// used or not; else its figures are its jobs' sums.
	Reserved bool
	// Jobs are the jobs on it, in source order.
	Jobs []string
	// From and To are its window's dates, "" without one; Schedule its
	// devices over the window, when it has a schedule.
	From, To string
	Schedule []Step
	// Total is its figures over its whole time; Months, one per calendar
	// month (UTC) of its window or of its jobs' windows (nil when none).
	Total  Period
	Months []Period
	// Currency is the code of the currency its money is in: its rate's,
	// or without one its jobs'.
	Currency string
}

// Step is one step of a pool's schedule: Devices devices from the date
// From.
type Step struct {
	From    string
	Devices float64
}

// Period is a pool's or group's figures over its whole time or one
// calendar month: device-hours and USD.
type Period struct {
	// Month is the month, "2027-03", or "" for the whole time.
	Month                                                string
	OfferedHours, AllocatedHours, IdleHours, UsefulHours float64
	// Cost and IdleCost are USD, defined when HasCost and HasIdleCost.
	Cost, IdleCost       float64
	HasCost, HasIdleCost bool
}

// Utilisation is allocated over offered device-hours (0 when none is
// offered).
func (p Period) Utilisation() float64 {
	if p.OfferedHours == 0 {
		return 0
	}
	return p.AllocatedHours / p.OfferedHours
}

// MPG is useful over offered device-hours: idle time counts as lost.
func (p Period) MPG() float64 {
	if p.OfferedHours == 0 {
		return 0
	}
	return p.UsefulHours / p.OfferedHours
}

// CostPerUsefulHour is cost over useful device-hours, in USD per
// device-hour; false when undefined.
func (p Period) CostPerUsefulHour() (float64, bool) {
	if !p.HasCost || p.UsefulHours == 0 {
		return 0, false
	}
	return p.Cost / p.UsefulHours, true
}

func periodOf(f periodFigures) Period {
	p := Period{OfferedHours: f.offered, AllocatedHours: f.allocated, IdleHours: f.idle, UsefulHours: f.useful,
		Cost: f.cost, IdleCost: f.idleCost, HasCost: f.hasCost, HasIdleCost: f.hasIdleCost}
	if f.month != 0 {
		p.Month = units.FormatMonth(f.month)
	}
	return p
}

func periodsOf(fs []periodFigures) []Period {
	var out []Period
	for _, f := range fs {
		out = append(out, periodOf(f))
	}
	return out
}

// Pools lists the evaluated pools in source order.
func (s *Scenario) Pools() []Pool { return slices.Collect(s.AllPools()) }

// AllPools yields the pools Pools lists, one at a time.
func (s *Scenario) AllPools() iter.Seq[Pool] {
	return func(yield func(Pool) bool) {
		for _, d := range s.p.Order {
			unlock := s.lock()
			pool, ok := s.poolAt(d)
			unlock()
			if ok && !yield(pool) {
				return
			}
		}
	}
}

// poolAt is the evaluated pool d, false when it is not one.
func (s *Scenario) poolAt(d *check.Decl) (Pool, bool) {
	if d.Kind != check.DeclPool || s.of(d).state != check.Done {
		return Pool{}, false
	}
	vals := map[string]Value{}
	for _, f := range d.Pool.Fields {
		if v, ok := s.fieldValue(f); ok {
			vals[f.Name.Name] = v
		}
	}
	ps := s.poolOf(d)
	pool := Pool{Name: d.Name.Name, Fields: vals, Reserved: ps.reserved, Total: periodOf(ps.total), Months: periodsOf(ps.months),
		Currency: s.p.PoolCurrency(d)}
	for _, j := range ps.jobs {
		pool.Jobs = append(pool.Jobs, j.Name.Name)
	}
	if ps.windowed {
		pool.From, pool.To = units.FormatDate(ps.start), units.FormatDate(ps.end)
	}
	if len(d.Pool.Schedule) > 0 {
		for _, st := range ps.steps {
			pool.Schedule = append(pool.Schedule, Step{From: units.FormatDate(st.at), Devices: st.devices})
		}
	}
	return pool, true
}

// Named is a let's or a param's name and value.
type Named struct {
	Name  string
	Value Value
	// Param is true for a param, whose value the caller may set.
	Param bool
}

// Lets lists the evaluated let values in source order.
func (s *Scenario) Lets() []Named {
	defer s.lock()()
	var out []Named
	for _, d := range s.p.Order {
		if (d.Kind == check.DeclLet || d.Kind == check.DeclParam) && s.of(d).state == check.Done {
			out = append(out, Named{d.Name.Name, *s.value(d), d.Kind == check.DeclParam})
		}
	}
	return out
}

// Names lists every declared name with its kind ("value", "pool", "job",
// "ruleset", "request"), in source order.
func (s *Scenario) Names() [][2]string {
	var out [][2]string
	// A session's scenario shares its program with the ones that extend
	// it (Session.extend): its own declarations are the first it has
	// values for.
	for _, d := range s.p.Order[:min(len(s.p.Order), len(s.vals))] {
		out = append(out, [2]string{d.Name.Name, check.DeclKinds[d.Kind].Noun})
	}
	return out
}

// Eval evaluates an expression against the scenario's declarations, as a
// top-level expect would: "llama2_70b.mpg", "trade_ratio(a, b) * 2". The
// name is used in diagnostics; the *Error's diagnostics quote text under
// that name, which the caller renders with its own sources.
func (s *Scenario) Eval(name, text string) (_ Value, err error) {
	defer recoverInto(&err)
	c, err := s.compileText(name, text)
	if err != nil {
		return Value{}, err
	}
	defer s.lock()()
	var out sink
	v, ok := s.run(c, &out)
	if !ok {
		if len(out.diags) == 0 {
			out.errorAt(lang.Position{}, lang.Position{}, text+" could not be evaluated: it reads a declaration that has errors")
		}
		return Value{}, &Error{Diagnostics: out.diags, Runtime: allRunning(out.diags), Sources: s.withText(name, text, out.diags)}
	}
	return v, nil
}

// allRunning reports whether every error arose while computing a value.
func allRunning(ds lang.Diagnostics) bool {
	for _, d := range ds {
		if d.Severity == lang.Error && d.Stage != lang.Running {
			return false
		}
	}
	return true
}

// withText is what an error of an expression's text quotes: that text
// and the scenario's files the diagnostics name, copied, so that the
// error shares no memory with the program.
func (s *Scenario) withText(name, text string, ds lang.Diagnostics) lang.Sources {
	quoted := map[string]bool{}
	for _, d := range ds {
		quoted[d.Pos.Filename] = true
		for _, r := range d.Related {
			quoted[r.Pos.Filename] = true
		}
	}
	all := copySources(s.p.Sources, func(n string) bool { return quoted[n] })
	all[name] = []byte(text)
	return all
}

// compileText parses and checks an expression against the program.
func (s *Scenario) compileText(name, text string) (*check.Compiled, error) {
	x, diags := lang.ParseExpr(name, text)
	if diags.HasErrors() {
		return nil, &Error{Diagnostics: diags, Sources: s.withText(name, text, diags)}
	}
	var cd lang.Diagnostics
	c := s.p.CompileOutside(x, &cd)
	if c == nil {
		return nil, &Error{Diagnostics: cd, Sources: s.withText(name, text, cd)}
	}
	return c, nil
}

// TypeOf checks an expression and returns its type without running it.
func (s *Scenario) TypeOf(name, text string) (_ Type, err error) {
	defer recoverInto(&err)
	c, err := s.compileText(name, text)
	if err != nil {
		return Type{}, err
	}
	return c.Type, nil
}

// Value reads a declared value or result by its dotted name, such as
// "peak_mfu" or "llama2_70b.loss.program".
func (s *Scenario) Value(path string) (Value, error) {
	v, err := s.Eval("<value>", path)
	if err != nil {
		return Value{}, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// NamedRequest is an evaluated request declaration.
type NamedRequest struct {
	Name    string
	Request priority.Request
}

// Requests lists the evaluated requests in source order.
func (s *Scenario) Requests() []NamedRequest {
	var out []NamedRequest
	for _, d := range s.p.Order {
		if d.Kind == check.DeclRequest && s.of(d).state == check.Done {
			out = append(out, NamedRequest{d.Name.Name, s.of(d).req.req})
		}
	}
	return out
}

// Rulesets lists the names of the compiled rulesets in source order.
func (s *Scenario) Rulesets() []string {
	var out []string
	for _, d := range s.p.Order {
		if d.Kind == check.DeclRules && s.of(d).state == check.Done {
			out = append(out, d.Name.Name)
		}
	}
	return out
}

// Owner is the team that owns factor f of the job: named by the innermost
// owners block (the job's, a job it extends, its pool's, top level), else
// the factor's own name, "scheduling", "runtime" or "program".
func (j *Job) Owner(f goodput.Factor) string { return j.s.of(j.d).job.owner(f) }
