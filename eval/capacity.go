package eval

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is the evaluator's half of pools with capacity and of time
// (language §18, §19): where each job lies in time, a pool's offered,
// allocated and idle device-hours and their cost, each calendar month's,
// and the capacity checks: a job over its pool's devices, jobs over a
// reservation's device-hours, and, for jobs placed in time, the devices
// held at every instant. The timeline is a sweep over the sorted instants
// at which something starts or ends, never a walk over hours.

const secondsPerHour = 3600

// placeJob works out the job's hours from its window, or from its pool's
// window, and where it lies in time; false when a bound has an error,
// already reported.
func (s *Scenario) placeJob(d *check.Decl, js *jobState) bool {
	jp := d.Job
	var pool *check.WindowPlan
	if jp.Pool != nil && jp.Pool.Pool != nil {
		pool = jp.Pool.Pool.Window
	}
	switch {
	case jp.Window != nil:
		from, hours, ok := s.windowOf(jp.Window)
		if !ok {
			return false
		}
		if jp.HoursToo {
			if f := jp.Sites.Get("hours"); f != nil {
				if v, vok := s.fieldValue(f); vok && units.Clean(v.Num/secondsPerHour) != units.Clean(hours) {
					pos, end := f.Value.Span()
					s.ev.errorAt(pos, end, fmt.Sprintf("hours is %s, but the job's window lasts %s; write one of them", v, hoursValue(hours)))
					return false
				}
			}
		}
		js.in.Hours, js.start, js.placed = hours, from, true
	case pool != nil:
		from, hours, ok := s.windowOf(pool)
		if !ok {
			return false
		}
		if jp.Sites.Get("hours") == nil {
			js.in.Hours = hours // the whole window
		}
		js.start, js.placed = from, true
	}
	return true
}

// windowOf is a window's start (seconds since the epoch) and length in
// hours; false when a bound has an error, or the window ends before it
// starts (reported at the window).
func (s *Scenario) windowOf(w *check.WindowPlan) (from, hours float64, ok bool) {
	f, fok := s.fieldValue(w.From)
	u, uok := s.fieldValue(w.Until)
	if !fok || !uok {
		return 0, 0, false
	}
	length := u.Num
	if !w.For {
		length = u.Num - f.Num
	}
	if length <= 0 {
		pos, end := w.Node.Span()
		msg := fmt.Sprintf("the window ends before it starts: %s is %s before %s", u, NumberValue(-length, units.Duration), f)
		if w.For {
			msg = fmt.Sprintf("the window lasts %s; a window lasts more than 0 s", u)
		}
		s.ev.errorAt(pos, end, msg)
		return 0, 0, false
	}
	return f.Num, length / secondsPerHour, true
}

// poolState is a pool as one evaluation figured it: its capacity in time
// and its figures, whole and by month.
type poolState struct {
	ok       bool // its fields and jobs evaluated
	reserved bool
	// windowed: it has a window from start to end (seconds); steps are
	// its devices over time, in order (one step from start for constant
	// devices).
	windowed   bool
	start, end float64
	steps      []deviceStep
	devices    float64 // its devices (the largest step of a schedule); hasDevices when set
	hasDevices bool
	term       float64 // hours, for a reservation without a window
	rate       float64 // USD per device-hour, when hasRate
	hasRate    bool
	jobs       []*check.Decl // the jobs on it that evaluated
	total      periodFigures
	months     []periodFigures
}

// deviceStep is a pool's devices from the instant at (seconds).
type deviceStep struct {
	at, devices float64
}

// periodFigures are a pool's or group's device-hours and money over its
// whole time or one month: device-hours, USD; hasCost when every part of
// the cost is known.
type periodFigures struct {
	month                      float64 // the month's first instant; 0 for the whole
	offered, allocated, useful float64
	cost                       float64
	idle, idleCost             float64
	hasCost, hasIdleCost       bool
}

// poolOf figures a pool once per evaluation, forcing its jobs; the
// capacity checks report into the evaluation's diagnostics.
func (s *Scenario) poolOf(d *check.Decl) *poolState {
	v := s.of(d)
	if v.pool != nil {
		return v.pool
	}
	ps := &poolState{}
	v.pool = ps
	if !s.force(d) {
		return ps
	}
	pp := d.Pool
	ps.reserved = pp.Reserved()
	ok := true
	if f := pp.Fields.Get("devices"); f != nil {
		if dv, vok := s.fieldValue(f); vok {
			ps.devices, ps.hasDevices = dv.Num, true
		}
	}
	if f := pp.Fields.Get("rate"); f != nil {
		if rv, vok := s.fieldValue(f); vok {
			ps.rate, ps.hasRate = units.ToUnit(rv.Num, units.USDPerHour), true
		}
	}
	if f := pp.Fields.Get("term"); f != nil {
		tv, vok := s.fieldValue(f)
		ok = vok && ok
		ps.term = tv.Num / secondsPerHour
	}
	if pp.Window != nil {
		from, hours, wok := s.windowOf(pp.Window)
		ok = wok && ok
		ps.windowed, ps.start, ps.end = wok, from, from+hours*secondsPerHour
		ok = s.poolSteps(d, ps) && ok
	}
	for _, j := range s.p.JobsOn(d) {
		if s.force(j) {
			ps.jobs = append(ps.jobs, j)
		} else {
			ok = false
		}
	}
	ps.ok = ok
	if !ok {
		return ps
	}
	s.poolFigures(d, ps)
	s.checkCapacity(d, ps)
	return ps
}

// poolSteps reads a windowed pool's devices over time: its schedule, or
// its devices over the whole window.
func (s *Scenario) poolSteps(d *check.Decl, ps *poolState) bool {
	pp := d.Pool
	if len(pp.Schedule) == 0 {
		if ps.hasDevices {
			ps.steps = []deviceStep{{ps.start, ps.devices}}
		}
		return true
	}
	ok := true
	for i, st := range pp.Schedule {
		at, aok := s.fieldValue(st.At)
		n, nok := s.fieldValue(st.Devices)
		if !aok || !nok {
			ok = false
			continue
		}
		pos, end := st.At.Value.Span()
		switch {
		case n.Num < 0 || n.Num != math.Trunc(n.Num):
			dp, de := st.Devices.Value.Span()
			s.ev.errorAt(dp, de, fmt.Sprintf("devices is %s; a step of the schedule holds a whole number of devices, 0 or more", units.FormatNumber(n.Num)))
			ok = false
			continue
		case at.Num < ps.start || at.Num >= ps.end:
			s.ev.errorAt(pos, end, fmt.Sprintf("%s is outside the pool's window, from %s to %s", at, units.FormatDate(ps.start), units.FormatDate(ps.end)))
			ok = false
			continue
		case i > 0 && len(ps.steps) > 0 && at.Num <= ps.steps[len(ps.steps)-1].at:
			s.ev.errorAt(pos, end, fmt.Sprintf("the steps of a schedule go forward in time; %s is not after %s", at, units.FormatDate(ps.steps[len(ps.steps)-1].at)))
			ok = false
			continue
		}
		ps.steps = append(ps.steps, deviceStep{at.Num, n.Num})
		ps.devices, ps.hasDevices = max(ps.devices, n.Num), true
	}
	return ok
}

// offeredBetween is the device-hours a windowed pool offers between two
// instants.
func (ps *poolState) offeredBetween(a, b float64) float64 {
	total := 0.0
	for i, st := range ps.steps {
		next := ps.end
		if i+1 < len(ps.steps) {
			next = ps.steps[i+1].at
		}
		lo, hi := max(a, st.at), min(b, next)
		if hi > lo {
			total += st.devices * (hi - lo) / secondsPerHour
		}
	}
	return total
}

// poolFigures adds up a pool's figures from its jobs: the whole and, when
// it or its jobs lie in time, each month.
func (s *Scenario) poolFigures(d *check.Decl, ps *poolState) {
	t := &ps.total
	t.hasCost = true
	for _, j := range ps.jobs {
		r := s.of(j).job.result()
		t.allocated += r.OfferedHours
		t.useful += r.UsefulHours
		t.cost += r.Cost
		t.hasCost = t.hasCost && r.HasCost
	}
	switch {
	case ps.windowed:
		t.offered = ps.offeredBetween(ps.start, ps.end)
	case ps.reserved:
		t.offered = ps.devices * ps.term
	default:
		t.offered = t.allocated
	}
	if ps.reserved {
		t.cost, t.hasCost = t.offered*ps.rate, ps.hasRate
		t.idle = t.offered - t.allocated
		t.idleCost, t.hasIdleCost = t.idle*ps.rate, ps.hasRate
	} else {
		t.hasIdleCost = true
	}
	ps.months = s.monthsOf(ps.jobs, func(m *periodFigures, a, b float64) {
		if ps.windowed {
			m.offered = ps.offeredBetween(a, b)
		} else {
			m.offered = m.allocated
		}
		if ps.reserved {
			m.cost, m.hasCost = m.offered*ps.rate, ps.hasRate
			m.idle = m.offered - m.allocated
			m.idleCost, m.hasIdleCost = m.idle*ps.rate, ps.hasRate
		} else {
			m.hasIdleCost = true
		}
	}, ps.windowed, ps.start, ps.end)
}

// monthsOf is the table by calendar month (UTC) of the placed jobs among
// jobs: each month's allocated and useful device-hours and their cost at
// the jobs' rates, with fill completing each month's figures. With
// span, the months are those from start to end, else those the jobs run
// in. It is nil when no job is placed and there is no span.
func (s *Scenario) monthsOf(jobs []*check.Decl, fill func(m *periodFigures, from, to float64), span bool, start, end float64) []periodFigures {
	if !span {
		start, end = math.Inf(1), math.Inf(-1)
		for _, j := range jobs {
			if js := s.of(j).job; js.placed {
				start, end = min(start, js.start), max(end, js.start+js.in.Hours*secondsPerHour)
			}
		}
		if start > end {
			return nil
		}
	}
	var months []periodFigures
	for m := units.MonthStart(start); m < end; m = units.NextMonth(m) {
		months = append(months, periodFigures{month: m, hasCost: true})
	}
	index := func(at float64) int {
		return sort.Search(len(months), func(i int) bool { return months[i].month > at }) - 1
	}
	for _, j := range jobs {
		js := s.of(j).job
		if !js.placed {
			continue
		}
		r := js.result()
		a, b := js.start, js.start+js.in.Hours*secondsPerHour
		for i := max(index(a), 0); i < len(months) && months[i].month < b; i++ {
			next := units.NextMonth(months[i].month)
			lo, hi := max(a, months[i].month), min(b, next)
			if hi <= lo {
				continue
			}
			hours := js.in.Devices * (hi - lo) / secondsPerHour
			m := &months[i]
			m.allocated += hours
			m.useful += hours * r.MPG
			m.cost += hours * js.in.Rate.Value
			m.hasCost = m.hasCost && r.HasCost
		}
	}
	for i := range months {
		m := &months[i]
		from, to := m.month, units.NextMonth(m.month)
		if span {
			from, to = max(from, start), min(to, end)
		}
		fill(m, from, to)
	}
	return months
}

// checkCapacity reports what a pool cannot hold: a job asking for more
// devices than the pool has, the jobs placed in time holding more than
// its devices at some instant, or the jobs of a reservation without a
// window asking for more device-hours than it offers.
func (s *Scenario) checkCapacity(d *check.Decl, ps *poolState) {
	if !ps.hasDevices {
		return
	}
	var placed, unplaced []*check.Decl
	for _, j := range ps.jobs {
		js := s.of(j).job
		if js.in.Devices > ps.devices {
			s.jobErrorAt(j, "devices", fmt.Sprintf("job %s asks for %s devices; pool %s has %s", j.Name.Name,
				units.FormatNumber(js.in.Devices), d.Name.Name, units.FormatNumber(ps.devices)))
			return
		}
		if ps.windowed {
			a, b := js.start, js.start+js.in.Hours*secondsPerHour
			if a < ps.start || units.Clean(b) > units.Clean(ps.end) {
				s.placeErrorAt(j, fmt.Sprintf("job %s runs from %s to %s, outside pool %s's window, from %s to %s", j.Name.Name,
					units.FormatDate(a), units.FormatDate(b), d.Name.Name, units.FormatDate(ps.start), units.FormatDate(ps.end)))
				return
			}
		}
		if js.placed {
			placed = append(placed, j)
		} else {
			unplaced = append(unplaced, j)
		}
	}
	if ps.reserved && !ps.windowed && len(unplaced) > 0 && units.Clean(ps.total.allocated) > units.Clean(ps.total.offered) {
		names := make([]string, len(ps.jobs))
		for i, j := range ps.jobs {
			names[i] = fmt.Sprintf("%s %s", j.Name.Name, hoursValue(s.of(j).job.result().OfferedHours))
		}
		at := d.Pool.Fields.Get("term")
		pos, end := at.Value.Span()
		diag := s.ev.errorAt(pos, end, fmt.Sprintf("the jobs on pool %s ask for %s device-hours; its reservation offers %s (%s devices × %s)",
			d.Name.Name, units.FormatNumber(ps.total.allocated), units.FormatNumber(ps.total.offered), units.FormatNumber(ps.devices), hoursValue(ps.term)))
		diag.Notes = append(diag.Notes, "the jobs: "+strings.Join(names, ", "), "hint: lengthen the term, add devices, or give the jobs windows so that they take turns")
		return
	}
	s.checkInstants(d, ps, placed)
}

// checkInstants checks, at every instant something starts or ends, that
// the placed jobs hold at most the pool's devices: a sweep over the
// sorted instants. The first instant over is reported, at the window of
// the job that, taken in source order with the others running, goes over.
func (s *Scenario) checkInstants(d *check.Decl, ps *poolState, placed []*check.Decl) {
	if len(placed) == 0 {
		return
	}
	type event struct {
		at    float64
		order int // ends, then the pool's steps, then starts
		delta float64
		job   int // index in placed; -1 for a step
	}
	evs := make([]event, 0, 2*len(placed)+len(ps.steps))
	for i, j := range placed {
		js := s.of(j).job
		evs = append(evs, event{js.start, 2, js.in.Devices, i}, event{js.start + js.in.Hours*secondsPerHour, 0, -js.in.Devices, i})
	}
	capacity := ps.devices // a pool without a window holds its devices always
	if ps.windowed {
		capacity = 0
		for _, st := range ps.steps {
			evs = append(evs, event{st.at, 1, st.devices, -1})
		}
	}
	sort.Slice(evs, func(a, b int) bool {
		if evs[a].at != evs[b].at {
			return evs[a].at < evs[b].at
		}
		return evs[a].order < evs[b].order
	})
	held := 0.0
	running := make([]bool, len(placed))
	for i := 0; i < len(evs); {
		at := evs[i].at
		for ; i < len(evs) && evs[i].at == at; i++ {
			e := evs[i]
			switch {
			case e.job < 0:
				capacity = e.delta
			default:
				held += e.delta
				running[e.job] = e.delta > 0
			}
		}
		if held > capacity {
			s.overCapacity(d, at, capacity, held, placed, running)
			return
		}
	}
}

// overCapacity reports the jobs running at an instant holding more than
// the pool's devices.
func (s *Scenario) overCapacity(d *check.Decl, at, capacity, held float64, placed []*check.Decl, running []bool) {
	var names []string
	var blamed *check.Decl
	sum := 0.0
	for i, j := range placed { // placed is in source order
		if !running[i] {
			continue
		}
		n := s.of(j).job.in.Devices
		names = append(names, fmt.Sprintf("%s %s", j.Name.Name, units.FormatNumber(n)))
		if sum += n; sum > capacity && blamed == nil {
			blamed = j
		}
	}
	diag := s.placeErrorAt(blamed, fmt.Sprintf("at %s the jobs on pool %s ask for %s devices; it holds %s",
		units.FormatDate(at), d.Name.Name, units.FormatNumber(held), units.FormatNumber(capacity)))
	diag.Notes = append(diag.Notes, "running then: "+strings.Join(names, ", "),
		"hint: move a job's window, or give the pool more devices from "+units.FormatDate(at))
}

// answerFitsPool holds a solve's answer for devices to the job's pool:
// more devices than a reservation holds is an error at the condition;
// more than a pool paid per use lists, a warning (the question "how many
// devices would it take" is one a planner asks of such a pool, language
// §16), which says the pool is too small.
func (s *Scenario) answerFitsPool(d *check.Decl, answer *point) bool {
	pool := d.Plan.Job.Job.Pool
	held, ok := s.poolDevices(pool)
	need := answer.job.in.Devices
	if !ok || need <= held {
		return true
	}
	pos, end := d.Plan.Find.Cond.Span()
	msg := fmt.Sprintf("the condition needs %s devices; pool %s has %s", units.FormatNumber(need), pool.Name.Name, units.FormatNumber(held))
	if pool.Pool.Reserved() {
		s.ev.errorAt(pos, end, msg)
		return false
	}
	s.ev.diags = append(s.ev.diags, &lang.Diagnostic{Severity: lang.Warning, Pos: pos, End: end, Summary: msg,
		Notes: []string{"the answer is more than the pool lists; a job of that size needs a larger pool"}})
	return true
}

// poolDevices is the most devices a pool holds: its devices, or the
// largest step of its schedule; false when it sets none. It reads only
// the pool's own fields, not its jobs, so that a solve over one of them
// may ask.
func (s *Scenario) poolDevices(pool *check.Decl) (float64, bool) {
	if pool == nil || pool.Pool == nil {
		return 0, false
	}
	if f := pool.Pool.Fields.Get("devices"); f != nil {
		v, ok := s.fieldValue(f)
		return v.Num, ok
	}
	most, any := 0.0, false
	for _, st := range pool.Pool.Schedule {
		if v, ok := s.fieldValue(st.Devices); ok {
			most, any = max(most, v.Num), true
		}
	}
	return most, any
}

// placeErrorAt reports an error of where job j lies in time: at its own
// window, else its hours, else its name.
func (s *Scenario) placeErrorAt(j *check.Decl, msg string) *lang.Diagnostic {
	for _, it := range j.JobStmt().Items {
		if w, ok := it.(*lang.Window); ok {
			pos, end := w.Span()
			return s.ev.errorAt(pos, end, msg)
		}
	}
	return s.jobErrorAt(j, "hours", msg)
}

// jobErrorAt reports an error at the job's field name (its own or the
// one it inherits), else at its name.
func (s *Scenario) jobErrorAt(j *check.Decl, field, msg string) *lang.Diagnostic {
	if f := j.Job.Sites.Get(field); f != nil && check.JobHolds(j.JobStmt(), f) {
		pos, end := f.Value.Span()
		return s.ev.errorAt(pos, end, msg)
	}
	return s.ev.errorAt(j.Name.Start(), j.Name.End(), msg)
}

// groupPeriods are a group's figures from its pools and by month: the
// idle device-hours and cost of each reservation whose every job is in
// the group, and the months its placed jobs run in.
func (s *Scenario) groupPeriods(d *check.Decl) (total periodFigures, months []periodFigures) {
	in := map[*check.Decl]bool{}
	for _, m := range d.Plan.Members {
		in[m] = true
	}
	var whole []*poolState
	seen := map[*check.Decl]bool{}
	for _, m := range d.Plan.Members {
		pool := m.Job.Pool
		if pool == nil || seen[pool] {
			continue
		}
		seen[pool] = true
		ps := s.poolOf(pool)
		if !ps.reserved || !ps.ok {
			continue
		}
		all := true
		for _, j := range ps.jobs {
			all = all && in[j]
		}
		if all {
			whole = append(whole, ps)
		}
	}
	total.hasIdleCost = true
	for _, ps := range whole {
		total.idle += ps.total.idle
		total.idleCost += ps.total.idleCost
		total.hasIdleCost = total.hasIdleCost && ps.total.hasIdleCost
	}
	months = s.monthsOf(d.Plan.Members, func(m *periodFigures, from, to float64) {
		m.offered = m.allocated
		m.hasIdleCost = true
		for _, ps := range whole {
			for _, pm := range ps.months {
				if pm.month == m.month {
					m.idle += pm.idle
					m.idleCost += pm.idleCost
					m.hasIdleCost = m.hasIdleCost && pm.hasIdleCost
				}
			}
		}
	}, false, 0, 0)
	return total, months
}

// poolResultValue computes a pool's or group's result, whole or of a
// month (NAME.month(M).RESULT).
func (s *Scenario) poolResultValue(q check.PoolResultRef, r *check.Ref, out *sink) (Value, bool) {
	fail := func(msg string) (Value, bool) {
		pos, end := r.Node.Span()
		out.runtimeErrorAt(pos, end, msg)
		return Value{}, false
	}
	var fig periodFigures
	var months []periodFigures
	jobs := 0
	what := r.Decl.Name.Name
	if r.Decl.Kind == check.DeclGroup {
		fig, months = s.groupPeriods(r.Decl)
	} else {
		ps := s.poolOf(r.Decl)
		if !ps.ok {
			return Value{}, false
		}
		fig, months, jobs = ps.total, ps.months, len(ps.jobs)
	}
	if q.InMonth {
		what += "'s month " + units.FormatMonth(q.Month)
		i := sort.Search(len(months), func(i int) bool { return months[i].month >= q.Month })
		if i == len(months) || months[i].month != q.Month {
			return fail(fmt.Sprintf("%s has no month %s: %s", r.Decl.Name.Name, units.FormatMonth(q.Month), monthSpan(months)))
		}
		fig = months[i]
	}
	v, err := fig.result(q.Def.Figure, jobs)
	if q.Currency != "" {
		v.Type = check.InCurrency(v.Type, q.Currency)
	}
	if err != nil {
		return fail(fmt.Sprintf("the %s of %s is undefined: %v", q.Def.Name, what, err))
	}
	return v, true
}

// monthSpan says which months a table holds.
func monthSpan(months []periodFigures) string {
	if len(months) == 0 {
		return "none of its jobs has a window"
	}
	return fmt.Sprintf("its months are %s to %s", units.FormatMonth(months[0].month), units.FormatMonth(months[len(months)-1].month))
}

// result is one figure of the period as a value.
func (f *periodFigures) result(fig results.PoolFigure, jobs int) (Value, error) {
	switch fig {
	case results.PoolOffered:
		return hoursValue(f.offered), nil
	case results.PoolAllocated:
		return hoursValue(f.allocated), nil
	case results.PoolIdle:
		return hoursValue(f.idle), nil
	case results.PoolUseful:
		return hoursValue(f.useful), nil
	case results.PoolJobs:
		return count(float64(jobs)), nil
	case results.PoolUtilisation, results.PoolMPG:
		if f.offered == 0 {
			return Value{}, fmt.Errorf("it offers no device-hours")
		}
		if fig == results.PoolMPG {
			return count(f.useful / f.offered), nil
		}
		return count(f.allocated / f.offered), nil
	case results.PoolCost, results.PoolCostPerUseful:
		if !f.hasCost {
			return Value{}, errNoRate
		}
		if fig == results.PoolCost {
			return NumberValue(f.cost, units.Money), nil
		}
		if f.useful == 0 {
			return Value{}, fmt.Errorf("its useful hours are 0")
		}
		return priceValue(f.cost / f.useful), nil
	case results.PoolIdleCost:
		if !f.hasIdleCost {
			return Value{}, errNoRate
		}
		return NumberValue(f.idleCost, units.Money), nil
	}
	return Value{}, fmt.Errorf("no figure %d", fig)
}
