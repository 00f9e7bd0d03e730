package eval

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
	"github.com/gpl-lang/gpl/stdlib/sampling"
)

// This file is the evaluation of uncertain files (language.md §23), by
// seeded sampling. A file with a distribution is evaluated as usual once,
// each distribution standing at its median (the base evaluation, which
// every view shows as today); then, for each quantity whose samples are
// wanted (a statistic an expression reads, the condition of
// probability(…), and the headline results of every uncertain let,
// param and job), it is evaluated again N times, once per sample index
// i, each distribution standing at its i-th sample. A distribution has one
// stream of samples, drawn once and read by every sample evaluation (and
// so by every job that reads it: a correlated fleet). The streams are
// seeded by Options.Seed and the distribution's key, so the same file,
// seed and N give the same samples, bit for bit, whatever the machine or
// the goroutines. Each quantity keeps its N samples, sorted, for its
// quantiles: 8 bytes a sample (80 KB a quantity at 10,000 samples).
//
// A file without a distribution never reaches this code: its
// evaluation has no sampling state (Scenario.unc is nil).

// sampled is the sampling state of an uncertain evaluation, shared by the
// base evaluation and the evaluations of its samples.
type sampled struct {
	base       *Scenario
	n          int
	seed       uint64
	mu         sync.Mutex // guards what follows for reads after load
	dists      []distDraws
	sums       map[*check.Tracked]*trackedSummary
	inProgress map[*check.Tracked]bool
	outputs    []*check.Tracked // the headline quantities of the views, in file order
	outNames   []string
	// only, when above 0, is the one distribution (its index + 1) that
	// varies; every other stands at its median (Tornado). alone are
	// the samplings with each distribution alone varying.
	only  int
	alone []*sampled
	root  *sampled // for one of alone, the sampling it belongs to
	// point is set for the sampling of a what-if's point (atPoint),
	// which samples only the quantities the point reads.
	point bool
	// kept counts the samples the summaries keep (keptSamples);
	// keepAll is set while samplesOf draws a quantity's again.
	kept    int
	keepAll bool
}

// distDraws is one distribution's samples: its median (the base
// evaluation's value) and its stream.
type distDraws struct {
	done, ok bool
	dist     sampling.Dist
	xs       []float64
}

// trackedSummary is a tracked quantity's statistics over the samples.
type trackedSummary struct {
	ok  bool
	sum sampling.Summary
	// mode is, for a text, the value most samples give (the first in
	// sorted order of those that tie); share the fraction that give it.
	mode  string
	share float64
}

// newSampled is the sampling state of the base evaluation s, or nil when
// its file has no distribution.
func newSampled(s *Scenario) *sampled {
	if !s.p.Uncertain() {
		return nil
	}
	if s.plain == nil {
		// The samples read the plain numbers of the fields again and
		// again, as a what-if's points do.
		s.plain = &plainNumbers{m: map[*lang.Field]Value{}}
	}
	return &sampled{base: s, n: s.p.Options.SampleCount(), seed: s.p.Options.SampleSeed(),
		sums: map[*check.Tracked]*trackedSummary{}, inProgress: map[*check.Tracked]bool{}}
}

// uncertainRef is the value of a RefDist or a RefStat.
func (s *Scenario) uncertainRef(r *check.Ref, out *sink) (Value, bool) {
	if r.Kind == check.RefDist {
		if s.unc == nil && s.draw == 0 {
			// A distribution added to a session's program after its
			// evaluation began (Session.extend).
			s.unc = newSampled(s)
		}
		if s.unc == nil {
			return Value{}, false
		}
		d, ok := s.unc.distOf(r.Dist, out)
		if !ok {
			return Value{}, false
		}
		if s.draw > 0 && (s.unc.only == 0 || s.unc.only == r.Dist.Index+1) {
			return NumberValue(d.xs[s.draw-1], r.Dist.Dim), true
		}
		return NumberValue(d.dist.Median(), r.Dist.Dim), true
	}
	st := r.Stat
	if s.point && s.draw == 0 && s.unc != nil && s.unc.base != s {
		// A what-if's point of an uncertain file stands at the
		// distributions' medians; a statistic read there (a sweep's show
		// pretrain.mpg.p10, a solve's such that pretrain.mpg.p10 >= 0.25)
		// is of the point's own samples, the same streams evaluated again
		// with the point's params.
		s.unc = s.unc.atPoint(s)
	}
	if s.unc == nil {
		// No distribution in the file: the value is plain, its every
		// statistic the value itself.
		v, ok := s.run(st.T.C, out)
		if !ok {
			return Value{}, false
		}
		switch {
		case st.Stat == "probability":
			if v.Bool {
				return count(1), true
			}
			return count(0), true
		case st.Stat == "sd":
			return NumberValue(0, v.Type.Dim), true
		}
		return v, true
	}
	u := s.unc
	if u.root != nil {
		u = u.root // a statistic is of the whole sampling, not of one input's alone
	}
	if st.Stat == "mode" {
		ts, ok := u.trackedOf(st.T, s.draw > 0)
		if !ok {
			return Value{}, false
		}
		return Value{Type: r.Type, Str: ts.mode}, true
	}
	sum, ok := u.summaryOf(st.T, s.draw > 0)
	if !ok {
		return Value{}, false
	}
	return NumberValue(u.statOf(st.T, sum, st, s.draw > 0), st.T.Dim), true
}

// atPoint is the sampling of the what-if point pt of the file u
// samples: the same distributions and streams, its own statistics.
func (u *sampled) atPoint(pt *Scenario) *sampled {
	if u.root != nil {
		u = u.root
	}
	u.mu.Lock()
	dists := u.dists
	u.mu.Unlock()
	return &sampled{base: pt, n: u.n, seed: u.seed, dists: append([]distDraws(nil), dists...), point: true,
		sums: map[*check.Tracked]*trackedSummary{}, inProgress: map[*check.Tracked]bool{}}
}

// MaxSweepSamples is the most a sweep of an uncertain file may sample:
// its points × the samples at each (language.md §23).
const MaxSweepSamples = 100_000_000

// tooManySamples reports, at the sweep d of total points, that it would
// sample more than MaxSweepSamples: a sweep of an uncertain file that
// shows a statistic samples at each point (over the file, the file; over
// a job, the job).
func (s *Scenario) tooManySamples(d *check.Decl, total float64) bool {
	if s.unc == nil || s.point || s.draw > 0 || total*float64(s.unc.n) <= MaxSweepSamples {
		return false
	}
	reads := false
	for _, sc := range d.Plan.Shows {
		for _, r := range sc.Expr.Refs {
			_, pointStat := r.Plan.(check.PointStatRef) // over a job: the job solved in every sample
			reads = reads || r.Kind == check.RefStat && d.OverFile() || pointStat
		}
	}
	if !reads {
		return false
	}
	diag := s.ev.errorAt(d.Name.Start(), d.Name.End(), fmt.Sprintf("sweep %s has %s points, each sampled %s times: %s samples, more than the %s a sweep may take",
		d.Name.Name, groupInt(total), units.FormatNumber(float64(s.unc.n)), groupInt(total*float64(s.unc.n)), groupInt(MaxSweepSamples)))
	diag.Notes = append(diag.Notes, "hint: lower --samples, or vary fewer inputs or take larger steps")
	return true
}

// statOf is the statistic st of sum, tracked quantity t's summary
// (samplesOf for a quantile the summary does not hold).
func (u *sampled) statOf(t *check.Tracked, sum *sampling.Summary, st *check.StatRef, inSample bool) float64 {
	switch st.Stat {
	case "probability":
		// The mean of the condition's 0s and 1s is k/n for the k samples
		// where it holds; the running mean's last bits are rounding,
		// which the count drops (0.6454, not 0.6454000000000012).
		n := float64(sum.N)
		return math.Round(sum.Mean*n) / n
	case "mean", "sd", "min", "max", "p5", "p10", "p50", "p90", "p95":
		return summaryStat(sum, st.Stat, st.Q)
	}
	if sum.Sorted() == nil {
		return sampling.Quantile(u.samplesOf(t, inSample), st.Q)
	}
	return sum.Q(st.Q)
}

// distOf draws the samples of site, once: its arguments evaluated in the
// base evaluation (they are plain values), an error in one reported at
// it.
func (u *sampled) distOf(site *check.DistSite, out *sink) (*distDraws, bool) {
	if len(u.dists) <= site.Index {
		u.dists = append(u.dists, make([]distDraws, site.Index+1-len(u.dists))...)
	}
	d := &u.dists[site.Index]
	if d.done {
		return d, d.ok
	}
	d.done = true
	args := make([]float64, len(site.Args))
	for i, c := range site.Args {
		v, ok := u.base.run(c, out)
		if !ok {
			return d, false
		}
		args[i] = v.Num
	}
	var err error
	switch site.Func {
	case "to":
		d.dist, err = sampling.Interval(args[0], args[1], site.Dim == units.Count)
	case "normal":
		d.dist, err = sampling.NewNormal(args[0], args[1])
	case "lognormal":
		d.dist, err = sampling.NewLogNormal(args[0], args[1])
	case "uniform":
		d.dist, err = sampling.NewUniform(args[0], args[1])
	case "triangular":
		d.dist, err = sampling.NewTriangular(args[0], args[1], args[2])
	case "beta":
		d.dist, err = sampling.NewBeta(args[0], args[1])
	}
	if err != nil {
		u.distError(site, args, err, out)
		return d, false
	}
	d.xs = sampling.Samples(u.seed, site.Key, d.dist, u.n)
	d.ok = true
	return d, true
}

// distError reports a distribution's bad argument at it, its value in
// the site's unit.
func (u *sampled) distError(site *check.DistSite, args []float64, err error, out *sink) {
	var ae *sampling.ArgError
	i := 0
	if errors.As(err, &ae) {
		i = ae.Arg
	}
	node := site.Node
	if n, ok := check.Unparen(node).(*lang.Binary); ok {
		node = n.R
	} else if c, ok := check.Unparen(node).(*lang.Call); ok && i < len(c.Args) {
		node = c.Args[i]
	}
	pos, end := node.Span()
	msg := err.Error()
	if site.Func == "to" {
		lo, hi := NumberValue(args[0], site.Dim), NumberValue(args[1], site.Dim)
		msg = fmt.Sprintf("the upper end of A to B, %s, is not above the lower end, %s; an interval goes from the low end to the high one", hi, lo)
	}
	out.errorAt(pos, end, msg)
}

// summaryOf is tracked quantity t's statistics over the samples,
// computing them (with every other quantity not yet computed) when first
// asked. inSample is set when the asker is itself a sample's evaluation.
func (u *sampled) summaryOf(t *check.Tracked, inSample bool) (*sampling.Summary, bool) {
	ts, ok := u.trackedOf(t, inSample)
	if ts == nil {
		return nil, false
	}
	return &ts.sum, ok
}

// trackedOf is summaryOf's whole summary, a text's mode with it.
func (u *sampled) trackedOf(t *check.Tracked, inSample bool) (*trackedSummary, bool) {
	if !inSample {
		// A sample's own reads come from the goroutine sampling, which
		// holds the lock already.
		u.mu.Lock()
		defer u.mu.Unlock()
	}
	if ts, ok := u.sums[t]; ok {
		return ts, ts.ok
	}
	if u.inProgress[t] {
		return nil, false // a quantity read by its own samples: the check pass rules it out
	}
	var batch []*check.Tracked
	if u.point {
		// At a what-if's point only what the point reads is sampled, not
		// every headline result of the file.
		u.sample([]*check.Tracked{t})
		ts := u.sums[t]
		return ts, ts.ok
	}
	for _, x := range u.base.p.TrackedQuantities() {
		if _, done := u.sums[x]; !done && !u.inProgress[x] {
			batch = append(batch, x)
		}
	}
	u.sample(batch)
	ts := u.sums[t]
	return ts, ts.ok
}

// sample evaluates the file at every sample for the quantities batch and
// summarises each.
func (u *sampled) sample(batch []*check.Tracked) {
	for _, t := range batch {
		u.inProgress[t] = true
	}
	defer func() {
		for _, t := range batch {
			delete(u.inProgress, t)
		}
	}()
	// Every distribution is drawn before the samples are evaluated, so
	// that an error in one is told once, in the base evaluation.
	for _, site := range u.base.p.DistSites() {
		u.distOf(site, &u.base.ev)
	}
	vals := make([][]float64, len(batch))
	texts := make([]map[string]int, len(batch)) // a text's count of samples by value
	numeric := make([]bool, len(batch))
	for k, t := range batch {
		numeric[k] = t.C.Type.Kind == value.Number || t.C.Type.Kind == value.Bool
	}
	fails := make([]int, len(batch))
	first := make([]*lang.Diagnostic, len(batch))
	// What the column-wise pass computes (uncertain_columns.go) the loop
	// below does not; without anything left, there is no loop.
	done := make([]bool, len(batch))
	if !noColumns {
		done = newColSampler(u).run(batch, numeric, func(k int, xs []float64) bool {
			return u.keep(batch[k], xs)
		})
	}
	if !slices.Contains(done, false) {
		return
	}
	for k := range batch {
		switch {
		case done[k]:
		case numeric[k]:
			vals[k] = make([]float64, u.n)
		default:
			texts[k] = map[string]int{}
		}
	}
	// One evaluation serves every sample. It starts as a copy of what
	// the base evaluation computed, and between samples only what varies
	// from sample to sample is cleared: the uncertain declarations and
	// the uncertain fields (the dependency closure of the
	// distributions, which the check pass marks). Everything else is the
	// same in every sample, so it is computed once, and a sample costs
	// what depends on a distribution alone.
	pt := evaluatePoint(u.base.p, u.base.params)
	pt.unc, pt.plain, pt.point = u, u.base.plain, u.base.point
	pt.samples = &sampleBuffers{jobs: make([]jobState, len(pt.vals)), res: make([]goodput.Result, len(pt.vals))}
	decls, fields, pools := u.base.copyCertain(pt)
	direct := make([]directRead, len(batch))
	for k, t := range batch {
		direct[k] = directReadOf(t.C)
	}
	for i := range u.n {
		if i > 0 {
			for _, k := range decls {
				pt.vals[k] = declValues{}
			}
			for _, k := range fields {
				pt.fieldVals[k] = fieldValue{}
			}
			for _, k := range pools {
				pt.vals[k].pool = nil
			}
			pt.ev.diags, pt.stack, pt.raised = pt.ev.diags[:0], pt.stack[:0], nil
		}
		pt.draw = int32(i + 1)
		for k, t := range batch {
			if done[k] || fails[k] > 0 && first[k] == nil {
				continue
			}
			if x, ok := direct[k].read(pt); ok {
				vals[k][i] = x
				continue
			}
			v, ok := pt.run(t.C, &pt.ev)
			if !ok {
				fails[k]++
				if first[k] == nil {
					first[k] = firstError(pt.ev.diags)
				}
				continue
			}
			switch {
			case texts[k] != nil:
				texts[k][v.Str]++
			case t.Cond && v.Bool:
				vals[k][i] = 1
			case t.Cond:
				vals[k][i] = 0
			default:
				vals[k][i] = v.Num
			}
		}
	}
	u.summarize(batch, vals, texts, fails, first)
}

// summarize keeps the statistics of each of batch's quantities over its
// samples, vals (or texts, for a text), or tells how they failed.
func (u *sampled) summarize(batch []*check.Tracked, vals [][]float64, texts []map[string]int, fails []int, first []*lang.Diagnostic) {
	for k, t := range batch {
		if vals[k] == nil && texts[k] == nil {
			continue // summarised already
		}
		if fails[k] > 0 {
			u.sums[t] = &trackedSummary{}
			u.reportFailure(first[k], fails[k])
			continue
		}
		if texts[k] != nil {
			mode, most := modeOf(texts[k])
			u.sums[t] = &trackedSummary{ok: true, mode: mode, share: float64(most) / float64(u.n)}
			continue
		}
		u.keep(t, vals[k])
	}
}

// keptSamples is how many samples a sampling keeps, sorted, with its
// quantities' statistics, for the quantiles asked later and the
// histograms (32 MB). Past it, a quantity keeps its statistics alone,
// and its samples are drawn again when asked (samplesOf): the same
// bits.
var keptSamples = 1 << 22

// keep summarises xs, the samples of t, and reports whether the summary
// keeps them: while the sampling has kept fewer than keptSamples, and
// never for a sampling with one input alone varying, whose summaries
// Tornado reads for their statistics alone.
func (u *sampled) keep(t *check.Tracked, xs []float64) bool {
	sum := sampling.Summarize(xs)
	kept := u.only == 0 && (u.kept+len(xs) <= keptSamples || u.keepAll)
	if kept {
		u.kept += len(xs)
	} else {
		sum.Drop()
	}
	u.sums[t] = &trackedSummary{ok: true, sum: sum}
	return kept
}

// samplesOf are tracked quantity t's samples, sorted: the summary's,
// or, when it let them go, drawn again and kept. inSample is as for
// summaryOf.
func (u *sampled) samplesOf(t *check.Tracked, inSample bool) []float64 {
	if !inSample {
		u.mu.Lock()
		defer u.mu.Unlock()
	}
	ts := u.sums[t]
	if ts == nil || !ts.ok || ts.sum.Sorted() != nil || u.inProgress[t] {
		if ts == nil {
			return nil
		}
		return ts.sum.Sorted()
	}
	delete(u.sums, t)
	u.keepAll = true
	u.sample([]*check.Tracked{t})
	u.keepAll = false
	if ts = u.sums[t]; ts == nil {
		return nil
	}
	return ts.sum.Sorted()
}

// isDistAlone reports whether c is a distribution written alone
// (param mtbf = 2.5h to 4h): its value is its one ref's, the draw.
func isDistAlone(c *check.Compiled) bool {
	return c.Prog != nil && len(c.Refs) == 1 && c.Refs[0].Kind == check.RefDist && check.IsDist(c.Node)
}

// distAlone is the value of such a c, as run gives it.
func (s *Scenario) distAlone(c *check.Compiled, out *sink) (Value, bool) {
	if u, i := s.unc, c.Refs[0].Dist.Index; s.draw > 0 && u.only == 0 && i < len(u.dists) && u.dists[i].ok {
		// A sample's draw, drawn already: uncertainRef's answer, read
		// straight.
		if x := u.dists[i].xs[s.draw-1]; !math.IsInf(x, 0) && !math.IsNaN(x) {
			return Value{Type: c.Type, Num: x}, true
		}
	}
	v, ok := s.uncertainRef(c.Refs[0], out)
	if !ok {
		return Value{}, false
	}
	v.Type = c.Type
	if !check.Finite(v) {
		pos, end := c.Node.Span()
		out.runtimeErrorAt(pos, end, "the result is not a finite number")
		return Value{}, false
	}
	return v, true
}

// callPlan is a compiled expression that is one call of a numeric
// built-in (runtime_goodput(mtbf, 1min, 10min)) whose arguments are
// number literals and names: in a sample, it is run by calling the
// built-in directly, as the expr machine would call it, for a tenth of
// the cost. The zero callPlan is not one.
type callPlan struct {
	b    *funcs.Func
	args []float64 // the literals' values, in base units
	refs []int     // by argument, the ref it reads, or -1 for a literal
}

// callPlanOf is c's callPlan.
func callPlanOf(c *check.Compiled) callPlan {
	call, ok := check.Unparen(c.Node).(*lang.Call)
	if !ok || c.Prog == nil || c.Type.Kind != value.Number {
		return callPlan{}
	}
	b := funcs.ByName()[call.Func.Name]
	if b == nil || b.Run == nil || b.ExprBuiltin || b.Repeats || len(call.Args) == 0 {
		return callPlan{}
	}
	cp := callPlan{b: b, args: make([]float64, len(call.Args)), refs: make([]int, len(call.Args))}
	used := 0
	for i, a := range call.Args {
		cp.refs[i] = -1
		if n := check.PlainNumber(a); n != nil {
			cp.args[i] = n.Base()
			continue
		}
		found := false
		for k, r := range c.Refs {
			if r.Node == check.Unparen(a) && r.Type.Kind == value.Number {
				cp.refs[i], found = k, true
				used++
				break
			}
		}
		if !found {
			return callPlan{}
		}
	}
	if used != len(c.Refs) {
		return callPlan{}
	}
	return cp
}

// directCall runs c, when it is a callPlan, in a sample's evaluation;
// false when it is not one, or the call fails (run then runs it and
// tells why, as it always does).
func (s *Scenario) directCall(c *check.Compiled, out *sink) (Value, bool) {
	b := s.samples
	if b.calls == nil {
		b.calls = map[*check.Compiled]*callPlan{}
	}
	cp, seen := b.calls[c]
	if !seen {
		if plan := callPlanOf(c); plan.b != nil {
			cp = &plan
		}
		b.calls[c] = cp
	}
	if cp == nil {
		return Value{}, false
	}
	// The arguments go on b.args as on a stack: reading a ref may run
	// another call, which pushes its own above them and pops them.
	start := len(b.args)
	defer func() { b.args = b.args[:start] }()
	for i, k := range cp.refs {
		if k < 0 {
			b.args = append(b.args, cp.args[i])
			continue
		}
		v, ok := s.refValue(c.Refs[k], out)
		if !ok {
			return Value{}, false
		}
		b.args = append(b.args, v.Num)
	}
	x, err := cp.b.Run(b.args[start:])
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return Value{}, false
	}
	return Value{Type: c.Type, Num: x}, true
}

// directRead is a tracked quantity that is one figure of a job
// (pretrain.mpg), read in a sample straight from the job's kept result
// rather than through run: the headline results' path. The zero
// directRead reads nothing.
type directRead struct {
	d   *check.Decl
	def *results.Def
}

// directReadOf is c's directRead, the zero one when c is not one
// figure of a job.
func directReadOf(c *check.Compiled) directRead {
	if c.Const != nil || c.Prog != nil || len(c.Refs) != 1 {
		return directRead{}
	}
	r := c.Refs[0]
	if r.Kind != check.RefJob || r.Second != nil {
		return directRead{}
	}
	def, ok := results.ByName()[r.Field]
	if !ok || def.Type.Kind != value.Number {
		return directRead{}
	}
	return directRead{r.Decl, def}
}

// read is the figure in the sample's evaluation pt, as run would give
// it; false when it is not a direct read or the job's result is not
// kept (the job failed, or the figure needs a rate it has not): run then
// reads it, and tells why.
func (dr directRead) read(pt *Scenario) (float64, bool) {
	if dr.d == nil || !pt.force(dr.d) {
		return 0, false
	}
	js := pt.of(dr.d).job
	k := js.kept
	if k == nil || k == &solved || dr.def.NeedsRate && !k.HasCost {
		return 0, false
	}
	if dr.def.HasFigure() {
		return engineValue(dr.def.Of(k), dr.def.Type).Num, true
	}
	if dr.def.Name == "cost_per_useful_hour" {
		// As its row's calc computes it, read in place.
		v, err := k.CostPerUsefulHour()
		return priceValue(v).Num, err == nil
	}
	v, err := resultInUSD(dr.def, js) // cost_per_useful_hour, a factor, …
	return v.Num, err == nil
}

// sampleBuffers are the states a sample's evaluation reuses from sample
// to sample, by declaration slot: each job's state and its result.
type sampleBuffers struct {
	jobs  []jobState
	res   []goodput.Result
	sites []*sampleSites
	calls map[*check.Compiled]*callPlan
	args  []float64
}

// sampleSites are the lines of a job whose values vary between samples,
// in the order gatherInputs reads them: what a sample reads again.
type sampleSites struct {
	ok    bool // the job's inputs can be read this way (it has no window)
	sites []sampleSite
}

// sampleSite is one such line and the input it sets.
type sampleSite struct {
	f      *lang.Field
	c      *check.Compiled // f's, from Program.Fields
	name   string          // devices, hours or rate; "" for a factor or ceiling
	factor goodput.Factor
	limit  bool // a ceiling
}

// sitesOf are job d's lines that vary between samples, worked out once.
func (b *sampleBuffers) sitesOf(p *check.Program, d *check.Decl) *sampleSites {
	if b.sites == nil {
		b.sites = make([]*sampleSites, len(b.jobs))
	}
	if ss := b.sites[d.Slot]; ss != nil {
		return ss
	}
	ss := jobSites(p, d)
	b.sites[d.Slot] = ss
	return ss
}

// jobSites are job d's lines that vary between samples.
func jobSites(p *check.Program, d *check.Decl) *sampleSites {
	jp := d.Job
	ss := &sampleSites{ok: jp.Window == nil && (jp.Pool == nil || jp.Pool.Pool == nil || jp.Pool.Pool.Window == nil)}
	varies := func(f *lang.Field) bool {
		c, kept := p.Fields[f]
		return f != nil && kept && c != nil && c.Const == nil && c.Uncertain
	}
	for _, name := range check.SiteNames {
		if f := jp.Sites.Get(name); varies(f) {
			ss.sites = append(ss.sites, sampleSite{f: f, c: p.Fields[f], name: name})
		}
	}
	for f := range goodput.NumFactors {
		for i, site := range [][goodput.NumFactors]*lang.Field{jp.Factors, jp.Ceilings} {
			if varies(site[f]) {
				ss.sites = append(ss.sites, sampleSite{f: site[f], c: p.Fields[site[f]], factor: goodput.Factor(f), limit: i == 1})
			}
		}
	}
	return ss
}

// sampleInputs sets job d's inputs in a sample's evaluation from the
// base evaluation's, reading again only the lines that vary between
// samples: the same inputs gatherInputs gives, for a fraction of its
// cost. False when the job cannot be read so (the base failed it, it has
// a window) or a line fails: gatherInputs then reads it whole, which
// tells the errors in the order it always does (what was read here is
// kept by fieldValue, so nothing is told twice).
func (s *Scenario) sampleInputs(d *check.Decl, js *jobState) bool {
	bv := s.unc.base.of(d)
	if bv.state != check.Done || bv.job == nil {
		return false
	}
	ss := s.samples.sitesOf(s.p, d)
	if !ss.ok {
		return false
	}
	bj := bv.job
	js.in, js.start, js.placed, js.currency = bj.in, bj.start, bj.placed, bj.currency
	in := &js.in
	for _, st := range ss.sites {
		v, ok := s.fieldCompiled(st.f, st.c, true)
		if !ok {
			return false
		}
		switch {
		case st.name == "devices":
			in.Devices = v.Num
		case st.name == "hours":
			in.Hours = units.ToUnit(v.Num, units.Hour)
		case st.name == "rate":
			in.Rate = goodput.Some(units.ToUnit(v.Num, units.USDPerHour))
			js.currency = ""
			if c, _ := v.Type.Dim.Currency(); c != "USD" {
				js.currency = c
			}
		case st.limit:
			in.Ceilings[st.factor] = goodput.Some(v.Num)
		default:
			in.Factors[st.factor] = goodput.Some(v.Num)
		}
	}
	return true
}

// copyCertain copies into pt, a sample's evaluation, what s (the base
// evaluation) has computed that no distribution reaches, and returns
// the slots of the declarations and the fields that vary between
// samples, which each sample computes again, and of the plain pools
// whose figures do (a job on them is uncertain). What the base has not
// finished (it is asking for a statistic while it evaluates) is left for
// the sample to compute.
func (s *Scenario) copyCertain(pt *Scenario) (decls, fields, pools []int32) {
	for _, d := range s.p.Order {
		if d.Uncertain {
			decls = append(decls, int32(d.Slot))
			continue
		}
		if v := s.of(d); v.state == check.Done || v.state == check.Failed {
			*pt.of(d) = *v
			if d.FiguresUncertain {
				// A plain pool with an uncertain job: its fields are
				// kept, its figures worked out again in each sample.
				pt.of(d).pool = nil
				pools = append(pools, int32(d.Slot))
			}
			if d.ValueSlot >= 0 && (d.Kind == check.DeclLet || d.Kind == check.DeclParam) {
				*pt.value(d) = *s.value(d)
			}
		}
	}
	uncertain := make([]bool, len(s.fieldVals))
	for _, c := range s.p.Fields {
		if c != nil && c.Field >= 0 && c.Const == nil && c.Uncertain {
			uncertain[c.Field] = true
		}
	}
	for k, fv := range s.fieldVals {
		switch {
		case uncertain[k]:
			fields = append(fields, int32(k))
		case fv.done:
			pt.fieldVals[k] = fv
		}
	}
	return decls, fields, pools
}

// modeOf is the value most samples give and how many give it; of
// values that tie, the first in sorted order, so that the answer does
// not depend on a map's order.
func modeOf(counts map[string]int) (string, int) {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	mode, most := "", -1
	for _, k := range keys {
		if counts[k] > most {
			mode, most = k, counts[k]
		}
	}
	return mode, most
}

// firstError is the first error of diags, or nil.
func firstError(diags lang.Diagnostics) *lang.Diagnostic {
	for _, d := range diags {
		if d.Severity == lang.Error {
			return d
		}
	}
	return nil
}

// reportFailure tells, in the base evaluation, that samples fail: the
// first failure and the fraction of samples that fail. A factor out of
// [0, 1] gets the hint of language.md §23.
func (u *sampled) reportFailure(d *lang.Diagnostic, fails int) {
	if d == nil {
		return
	}
	for _, x := range u.base.ev.diags {
		if x.Pos == d.Pos && x.Severity == lang.Error {
			return // told already
		}
	}
	pct := 100 * float64(fails) / float64(u.n)
	nd := &lang.Diagnostic{Severity: lang.Error, Stage: lang.Running, Pos: d.Pos, End: d.End,
		Summary: fmt.Sprintf("in %s of the %s samples (%s%%): %s", units.FormatNumber(float64(fails)), units.FormatNumber(float64(u.n)), trimPct(pct), d.Summary)}
	if isFactorRange(d.Summary) {
		nd.Notes = append(nd.Notes, "hint: a factor is a fraction in every sample; write it as A to B with both ends inside (0, 1), which is logit-normal and stays inside, or as beta(α, β)")
	}
	u.base.ev.diags = append(u.base.ev.diags, nd)
}

func trimPct(p float64) string {
	switch {
	case p >= 10:
		return fmt.Sprintf("%.0f", p)
	case p >= 1:
		return fmt.Sprintf("%.1f", p)
	}
	return fmt.Sprintf("%.2g", p)
}

// isFactorRange reports whether an error's summary is a factor's out of
// [0, 1].
func isFactorRange(summary string) bool {
	return containsAny(summary, "fraction in [0, 1]", "outside [0, 1]")
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if len(x) <= len(s) {
			for i := 0; i+len(x) <= len(s); i++ {
				if s[i:i+len(x)] == x {
					return true
				}
			}
		}
	}
	return false
}

// trackOutputs registers the headline quantities the views show of an
// uncertain file: each uncertain let's and param's value, each
// uncertain pool's and job's mpg, useful hours and (with a rate) cost
// per useful hour, and each uncertain group's mpg, useful hours and
// cost; then samples them all.
func (s *Scenario) trackOutputs() {
	u := s.unc
	// Every distribution is drawn now, so that the scenario is complete,
	// and read-only, once loaded.
	for _, site := range s.p.DistSites() {
		u.distOf(site, &s.ev)
	}
	add := func(path string) {
		x, diags := lang.ParseExpr("", path)
		if len(diags) > 0 {
			return
		}
		var quiet lang.Diagnostics
		c := s.p.CompileOutside(x, &quiet)
		if c == nil || c.Type.Kind != value.Number {
			return
		}
		if _, ok := s.run(c, &sink{}); !ok {
			return
		}
		u.outputs = append(u.outputs, s.p.Track("v:"+path, path, c, false))
		u.outNames = append(u.outNames, path)
	}
	for _, d := range s.p.Order {
		if d.Kind == check.DeclPool && d.Ok && (d.Uncertain || d.FiguresUncertain) {
			// A pool with an uncertain job, or uncertain lines, has
			// uncertain figures, listed as a job's are.
			add(d.Name.Name + ".mpg")
			add(d.Name.Name + ".useful_hours")
			add(d.Name.Name + ".cost_per_useful_hour")
			continue
		}
		if !d.Uncertain || !d.Ok && d.Kind != check.DeclJob {
			continue
		}
		switch d.Kind {
		case check.DeclLet, check.DeclParam:
			if d.Type.Kind == value.Number {
				add(d.Name.Name)
			}
		case check.DeclJob:
			add(d.Name.Name + ".mpg")
			add(d.Name.Name + ".useful_hours")
			add(d.Name.Name + ".cost_per_useful_hour")
		case check.DeclGroup:
			add(d.Name.Name + ".mpg")
			add(d.Name.Name + ".useful_hours")
			add(d.Name.Name + ".cost")
		}
	}
	if len(u.outputs) > 0 {
		u.summaryOf(u.outputs[0], false)
	}
}

// UncertainResult is the distribution of one headline quantity of an
// uncertain file over its samples: a value's statistics, in base units.
type UncertainResult struct {
	// Name is the quantity as an expression reads it: mtbf,
	// pretrain.mpg.
	Name string
	// Dim is its dimension; the statistics are in its base unit.
	Dim units.Dim
	// The statistics: mean, standard deviation, extremes and the
	// 5th, 10th, 50th (median), 90th and 95th percentiles.
	Mean, SD, Min, Max, P5, P10, P50, P90, P95 float64
	// Sorted are the samples, sorted, for a histogram, when the
	// sampling kept them: a file's first 4,194,304 samples of its
	// headline results are kept (32 MB), the rest let go once
	// summarised. Nil when let go; UncertainSamples gives them either
	// way. Not to be modified.
	Sorted []float64
}

// UncertainSamples are the samples of the headline quantity named (one
// of Uncertain's), sorted: those the sampling kept, or, when it let them
// go, the same samples drawn again (and kept from then on). Nil for a
// name Uncertain does not list. Not to be modified.
func (s *Scenario) UncertainSamples(name string) []float64 {
	if s.unc == nil {
		return nil
	}
	for i, n := range s.unc.outNames {
		if n == name {
			return s.unc.samplesOf(s.unc.outputs[i], false)
		}
	}
	return nil
}

// Sampling says how an uncertain file was sampled: how many samples, and
// the seed of their streams. Samples is 0 for a file without a
// distribution.
func (s *Scenario) Sampling() (samples int, seed uint64) {
	if s.unc == nil {
		return 0, 0
	}
	return s.unc.n, s.unc.seed
}

// Uncertain lists the headline quantities of an uncertain file with
// their statistics, in file order: each uncertain let and param, each
// uncertain pool's and job's mpg, useful hours and cost per useful hour,
// and each uncertain group's mpg, useful hours and cost. Nil for a
// file without a distribution.
func (s *Scenario) Uncertain() []UncertainResult {
	if s.unc == nil {
		return nil
	}
	var out []UncertainResult
	for i, t := range s.unc.outputs {
		sum, ok := s.unc.summaryOf(t, false)
		if !ok {
			continue
		}
		out = append(out, UncertainResult{Name: s.unc.outNames[i], Dim: t.Dim, Mean: sum.Mean, SD: sum.SD, Min: sum.Min, Max: sum.Max,
			P5: sum.P5, P10: sum.P10, P50: sum.P50, P90: sum.P90, P95: sum.P95, Sorted: sum.Sorted()})
	}
	return out
}

// FormatUncertain is a quantity as the text report prints it: its median
// and 90% interval, "0.2759 (0.2525–0.3014, 90%)".
func FormatUncertain(r UncertainResult) string {
	if _, money := r.Dim.Currency(); !money && r.Dim != units.Count && r.Dim != units.Date {
		if u, ok := units.ReadableUnit(r.P50, r.Dim); ok {
			// One unit, the median's, for all three: 3.162 h (2.5–4 h, 90%).
			in := func(v float64) string { return units.FormatNumber(sig4(units.ToUnit(v, u))) }
			return fmt.Sprintf("%s %s (%s–%s %s, 90%%)", in(r.P50), u.Symbol, in(r.P5), in(r.P95), u.Symbol)
		}
	}
	return fmt.Sprintf("%s (%s–%s, 90%%)", FormatSig(r.P50, r.Dim), FormatSig(r.P5, r.Dim), FormatSig(r.P95, r.Dim))
}

// FormatSig prints v of dimension d to four significant digits, in the
// readable unit of its dimension (money to the cent): "0.2759", "3.162 h".
func FormatSig(v float64, d units.Dim) string {
	if _, money := d.Currency(); money || d == units.Date {
		return units.Format(v, d)
	}
	if u, ok := units.ReadableUnit(v, d); ok {
		return units.FormatNumber(sig4(units.ToUnit(v, u))) + " " + u.Symbol
	}
	if d == units.Count {
		return units.FormatNumber(sig4(v))
	}
	return units.FormatNumber(sig4(v)) + " " + d.BaseUnit()
}

func sig4(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	return r
}

// SetSampling evaluates the session's declarations again over samples
// samples with seed (0 for either: its default), as --samples and --seed
// do for a file; the REPL's :samples.
func (se *Session) SetSampling(samples int, seed uint64) {
	se.opts.Samples, se.opts.Seed = samples, seed
	se.p, se.cur = se.rebuild(se.sources)
}

// SamplingOptions are the session's samples and seed, defaults filled
// in.
func (se *Session) SamplingOptions() (samples int, seed uint64) {
	return se.opts.SampleCount(), se.opts.SampleSeed()
}

// samplingNote is the note of a failed expectation that reads a
// statistic of an uncertain value: the samples and seed it was computed
// over, which --samples and --seed change; "" for one that reads none.
func (s *Scenario) samplingNote(e *Expectation) string {
	if s.unc == nil || !readsStatistic(e) {
		return ""
	}
	return fmt.Sprintf("over %s samples, seed %d (--samples N, --seed S)", units.FormatNumber(float64(s.unc.n)), s.unc.seed)
}

// TornadoBar is one input's share of a result's spread: the result's 5th
// and 95th percentiles when only that input varies, every other
// distribution at its median.
type TornadoBar struct {
	// Input names the distribution: its declaration and its text,
	// "mtbf: 2.5h to 4h".
	Input   string
	P5, P95 float64
}

// Tornado is, for the headline quantity named (one of Uncertain's), how
// much of its spread each uncertain input explains, widest first; nil
// for a file without a distribution or a name it does not list. Each
// input costs one more pass over the samples, made when first asked and
// kept.
func (s *Scenario) Tornado(name string) []TornadoBar {
	u := s.unc
	if u == nil {
		return nil
	}
	var t *check.Tracked
	for i, n := range u.outNames {
		if n == name {
			t = u.outputs[i]
		}
	}
	if t == nil {
		return nil
	}
	u.mu.Lock()
	if u.alone == nil {
		for _, site := range s.p.DistSites() {
			a := &sampled{base: s, n: u.n, seed: u.seed, dists: u.dists, only: site.Index + 1, root: u,
				sums: map[*check.Tracked]*trackedSummary{}, inProgress: map[*check.Tracked]bool{}}
			a.sample(u.outputs)
			u.alone = append(u.alone, a)
		}
	}
	u.mu.Unlock()
	var out []TornadoBar
	for i, a := range u.alone {
		ts := a.sums[t]
		if ts == nil || !ts.ok {
			continue
		}
		site := s.p.DistSites()[i]
		out = append(out, TornadoBar{Input: s.siteName(site), P5: ts.sum.P5, P95: ts.sum.P95})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].P95-out[i].P5 > out[j].P95-out[j].P5 })
	return out
}

// siteName names a distribution by its declaration and its text.
func (s *Scenario) siteName(site *check.DistSite) string {
	owner, _, _ := strings.Cut(site.Key, "#")
	pos, end := site.Node.Span()
	src := s.p.Sources[pos.Filename]
	if pos.Offset < end.Offset && end.Offset <= len(src) {
		return owner + ": " + string(src[pos.Offset:end.Offset])
	}
	return owner
}
