package eval

import (
	"math"
	"sync"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is the column-wise evaluation of a sampling: rather than
// evaluating the file once per sample (sample's loop), it evaluates each
// quantity over every sample at once, as a column of numbers. A let's or
// param's value over the samples is one column, read by every line that
// names it; a job's varying lines are columns, and the engine solves the
// job's rows in one loop (goodput.SolveRows); a group's figure is the
// sum, member by member in the group's order, of its jobs' columns. Each
// number is computed by the same operations, in the same order, as the
// sample-by-sample evaluation computes it, so the samples are the same
// bit for bit; the saving is in what a sample no longer repeats (the
// reads of the lines, the lookups, the engine's every other figure).
//
// What it does not cover (a line that reads a statistic, a pool's
// figure, a job with a window, a quantity that is not one figure of a
// job or a group or a let's value), and anything that fails in some
// sample, is left to sample's loop, which evaluates it as always and
// tells its errors as always: a column that would fail is dropped
// whole, before any of it is kept.

// column is a number over the samples: xs by sample, or, when xs is
// nil, k in every sample.
type column struct {
	xs  []float64
	k   float64
	own bool // xs is a scratch column of its reader's, to give back
}

func (c column) at(i int) float64 {
	if c.xs == nil {
		return c.k
	}
	return c.xs[i]
}

// colSampler is one column-wise pass over the samples of u.
type colSampler struct {
	u *sampled
	s *Scenario // the base evaluation
	n int
	// lets are the columns of uncertain lets and params, worked out once
	// and read by every line that names them; ok false for one that
	// cannot be (or fails in a sample).
	lets map[*check.Decl]letColumn
	// checked are the uncertain pools and parents whose every sample
	// evaluates, or not.
	checked map[*check.Decl]bool
	// distOK are the distributions whose every sample is finite (1),
	// or not (2); 0 not yet looked at.
	distOK []uint8
	free   [][]float64 // scratch columns, reused
	args   []float64
	// emit takes a quantity's samples, done.
	emit func(k int, xs []float64)
}

type letColumn struct {
	c  column
	ok bool
}

func newColSampler(u *sampled) *colSampler {
	return &colSampler{u: u, s: u.base, n: u.n, lets: map[*check.Decl]letColumn{}, checked: map[*check.Decl]bool{},
		distOK: make([]uint8, len(u.dists))}
}

// buf is a scratch column of n samples; give it back with release.
func (cs *colSampler) buf() []float64 {
	if k := len(cs.free); k > 0 {
		b := cs.free[k-1]
		cs.free = cs.free[:k-1]
		return b
	}
	if p, _ := columnBufs.Get().(*[]float64); p != nil && cap(*p) >= cs.n {
		return (*p)[:cs.n]
	}
	return make([]float64, cs.n)
}

// columnBufs are the scratch columns a pass gave back, for the next
// (a sampling's columns are of its samples' length; one shorter than a
// pass needs is dropped).
var columnBufs sync.Pool

// finish gives the pass's scratch columns to the next.
func (cs *colSampler) finish() {
	for _, b := range cs.free {
		columnBufs.Put(&b)
	}
	cs.free = nil
}

func (cs *colSampler) release(bs ...[]float64) {
	for _, b := range bs {
		if b != nil {
			cs.free = append(cs.free, b)
		}
	}
}

// dist is the column of distribution site: its samples, or its median
// when another distribution alone varies (Tornado). alone is set for a
// distribution written alone, whose every sample must be finite, as
// distAlone checks.
func (cs *colSampler) dist(site *check.DistSite, alone bool) (column, bool) {
	u, i := cs.u, site.Index
	if i >= len(u.dists) || !u.dists[i].ok {
		return column{}, false
	}
	d := &u.dists[i]
	if u.only != 0 && u.only != i+1 {
		m := d.dist.Median()
		return column{k: m}, !alone || !math.IsInf(m, 0) && !math.IsNaN(m)
	}
	if alone {
		if i >= len(cs.distOK) {
			return column{}, false
		}
		if cs.distOK[i] == 0 {
			cs.distOK[i] = 1
			for _, x := range d.xs[:cs.n] {
				if math.IsInf(x, 0) || math.IsNaN(x) {
					cs.distOK[i] = 2
					break
				}
			}
		}
		if cs.distOK[i] != 1 {
			return column{}, false
		}
	}
	return column{xs: d.xs}, true
}

// let is the column of an uncertain let or param d, as a sample's
// evalLet gives it.
func (cs *colSampler) let(d *check.Decl) (column, bool) {
	if lc, seen := cs.lets[d]; seen {
		return lc.c, lc.ok
	}
	var lc letColumn
	if v, set := cs.s.params[d]; set {
		lc = letColumn{column{k: v.Num}, v.Type.Kind == value.Number}
	} else if d.Ok && d.Value != nil {
		lc.c, lc.ok = cs.col(d.Value, false)
	}
	cs.lets[d] = lc
	return lc.c, lc.ok
}

// ref is the column of what r reads, for a number. A plain value is
// read from the base evaluation, where it is done; what varies is a
// distribution or an uncertain let here, and anything else is left to
// the sample-by-sample loop.
func (cs *colSampler) ref(r *check.Ref) (column, Value, bool) {
	switch {
	case r.Kind == check.RefDist:
		c, ok := cs.dist(r.Dist, false)
		return c, Value{Type: r.Type, Num: c.k}, ok
	case r.Kind == check.RefStat:
		return column{}, Value{}, false
	case r.Kind == check.RefLet && r.Decl != nil && r.Decl.Uncertain:
		c, ok := cs.let(r.Decl)
		return c, Value{Type: r.Type, Num: c.k}, ok && r.Type.Kind == value.Number
	}
	if r.Decl == nil || r.Decl.Uncertain || r.Second != nil || r.Decl.FiguresUncertain || cs.s.of(r.Decl).state != check.Done {
		return column{}, Value{}, false
	}
	var v Value
	switch r.Kind {
	case check.RefLet:
		v = *cs.s.value(r.Decl)
	case check.RefJob:
		x, err := cs.s.jobResult(r.Decl, r.Field)
		if err != nil {
			return column{}, Value{}, false
		}
		v = x
	default:
		return column{}, Value{}, false
	}
	return column{k: v.Num}, v, true
}

// col is the column of the number c over the samples, computed as a
// sample's run computes it; false when c is not one this pass covers or
// fails in some sample. A column it computes is a scratch one when
// scratch is set (the caller releases it), else its own.
func (cs *colSampler) col(c *check.Compiled, scratch bool) (column, bool) {
	if c == nil {
		return column{}, false
	}
	if c.Const != nil {
		return column{k: c.Const.Num}, c.Const.Type.Kind == value.Number
	}
	if c.Type.Kind != value.Number {
		return column{}, false
	}
	if isDistAlone(c) {
		return cs.dist(c.Refs[0].Dist, true)
	}
	if c.Prog == nil {
		if len(c.Refs) != 1 {
			return column{}, false
		}
		col, v, ok := cs.ref(c.Refs[0])
		return col, ok && (col.xs != nil || v.Type.Kind == value.Number)
	}
	out := func() []float64 {
		if scratch {
			return cs.buf()
		}
		return make([]float64, cs.n)
	}
	owned := func(xs []float64) column { return column{xs: xs, own: scratch} }
	if cp := callPlanOf(c); cp.b != nil {
		// A built-in's call, run directly as directCall runs it.
		cols := make([]column, len(cp.refs))
		for i, k := range cp.refs {
			if k < 0 {
				cols[i] = column{k: cp.args[i]}
				continue
			}
			col, v, ok := cs.ref(c.Refs[k])
			if !ok || col.xs == nil && v.Type.Kind != value.Number {
				return column{}, false
			}
			cols[i] = col
		}
		xs := out()
		args := cs.args[:0]
		for range cols {
			args = append(args, 0)
		}
		cs.args = args
		for i := range cs.n {
			for j, col := range cols {
				args[j] = col.at(i)
			}
			x, err := cp.b.Run(args)
			if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
				cs.giveBack(xs, scratch)
				return column{}, false
			}
			xs[i] = x
		}
		return owned(xs), true
	}
	// Any other expression: its program, run sample by sample on the
	// columns of its refs.
	cols := make([]column, len(c.Refs))
	env := check.ExprEnv{Numbers: make([]float64, c.Nums), Bools: make([]bool, c.Bools), Strings: make([]string, c.Strs)}
	varies := false
	for i, r := range c.Refs {
		col, v, ok := cs.ref(r)
		if !ok {
			return column{}, false
		}
		switch {
		case col.xs != nil:
			if r.Type.Kind != value.Number {
				return column{}, false
			}
			varies = true
		case r.Type.Kind == value.Number:
			env.Numbers[r.Slot] = col.k
		case r.Type.Kind == value.Bool:
			env.Bools[r.Slot] = v.Bool
		default:
			env.Strings[r.Slot] = v.Str
		}
		cols[i] = col
	}
	if !varies {
		// The same in every sample (another distribution alone
		// varies): run once.
		res, err := check.RunProgram(c, env)
		if err != nil {
			return column{}, false
		}
		v, ok := value.FromGo(res, c.Type)
		return column{k: v.Num}, ok && check.Finite(v)
	}
	xs := out()
	for i := range cs.n {
		for k, r := range c.Refs {
			if cols[k].xs != nil {
				env.Numbers[r.Slot] = cols[k].xs[i]
			}
		}
		res, err := check.RunProgram(c, env)
		if err != nil {
			cs.giveBack(xs, scratch)
			return column{}, false
		}
		v, ok := value.FromGo(res, c.Type)
		if !ok || !check.Finite(v) {
			cs.giveBack(xs, scratch)
			return column{}, false
		}
		xs[i] = v.Num
	}
	return owned(xs), true
}

func (cs *colSampler) giveBack(xs []float64, scratch bool) {
	if scratch {
		cs.release(xs)
	}
}

// field is the column of a varying line f of a job or pool, as a
// sample's fieldCompiled gives it, the planner's rules checked in every
// sample.
func (cs *colSampler) field(name string, c *check.Compiled) (column, bool) {
	col, ok := cs.col(c, true)
	if !ok {
		return column{}, false
	}
	if check.PlannerChecked(name) {
		for i := range cs.n {
			if check.PlannerProblem(name, Value{Type: c.Type, Num: col.at(i)}) != "" {
				cs.releaseCol(col)
				return column{}, false
			}
			if col.xs == nil {
				break
			}
		}
	}
	return col, true
}

// releaseCol gives back a column's scratch samples.
func (cs *colSampler) releaseCol(col column) {
	if col.own {
		cs.release(col.xs)
	}
}

// poolOK reports whether the uncertain pool d evaluates in every
// sample: each of its varying lines, as a sample's evalPool reads them.
func (cs *colSampler) poolOK(d *check.Decl) bool {
	if ok, seen := cs.checked[d]; seen {
		return ok
	}
	ok := d.Ok && d.Pool != nil && cs.s.of(d).state == check.Done
	if ok {
		for _, f := range d.Pool.Fields {
			c, kept := cs.s.p.Fields[f]
			if !kept || c == nil || c.Const != nil || !c.Uncertain {
				continue
			}
			col, fok := cs.field(f.Name.Name, c)
			if !fok {
				ok = false
				break
			}
			cs.releaseCol(col)
		}
	}
	cs.checked[d] = ok
	return ok
}

// figureWant is one figure jobFigures computes: def's over every
// sample, into out (n long); raw for the engine's figure in its own
// units (Def.Of, as a group adds it up), else the result as a sample's
// read of the job's kept result gives it (directRead.read).
type figureWant struct {
	def *results.Def
	out []float64
	raw bool
}

// jobFigures computes, over every sample, the figures wants of job d;
// false, with the columns to be ignored, when the job is not one this
// pass covers or fails in some sample. With no wants it only checks
// that the job evaluates in every sample (a parent's).
func (cs *colSampler) jobFigures(d *check.Decl, wants []figureWant) bool {
	if len(wants) == 0 {
		if ok, seen := cs.checked[d]; seen {
			return ok
		}
		ok := cs.jobFiguresOnce(d, nil)
		cs.checked[d] = ok
		return ok
	}
	return cs.jobFiguresOnce(d, wants)
}

// engineColumn is the column of figs that holds f, nil for a figure
// SolveRows does not compute.
func engineColumn(figs *goodput.RowFigures, f results.Figure) *[]float64 {
	switch f {
	case results.FigMPG:
		return &figs.MPG
	case results.FigOfferedHours:
		return &figs.OfferedHours
	case results.FigUsefulHours:
		return &figs.UsefulHours
	case results.FigCost:
		return &figs.Cost
	}
	return nil
}

func (cs *colSampler) jobFiguresOnce(d *check.Decl, wants []figureWant) bool {
	rows, currency, owned, ok := cs.jobRows(d)
	defer func() {
		cs.release(owned...)
	}()
	if !ok {
		return false
	}
	// The engine's figures the batch computes, and the rest from a
	// whole result per sample.
	var figs goodput.RowFigures
	var whole []int // wants read from a whole result
	hasRate := rows.Base.Rate.Set
	for j, w := range wants {
		if w.def.NeedsRate && !hasRate {
			return false
		}
		var p *[]float64
		switch {
		case w.def.HasFigure():
			p = engineColumn(&figs, w.def.Figure)
		case !w.raw && w.def.Name == "cost_per_useful_hour":
			p = &figs.CostPerUsefulHour
		case w.raw:
			return false // a group adds up the engine's figures alone
		}
		if p == nil {
			whole = append(whole, j)
		} else if *p == nil {
			*p = cs.buf()
			owned = append(owned, *p)
		}
	}
	if err := goodput.SolveRows(&rows, cs.n, &figs); err != nil {
		return false
	}
	for _, w := range wants {
		var src []float64
		if w.def.HasFigure() {
			if p := engineColumn(&figs, w.def.Figure); p != nil {
				src = *p
			}
		} else if !w.raw && w.def.Name == "cost_per_useful_hour" {
			fromUnit(w.out[:cs.n], figs.CostPerUsefulHour[:cs.n], &units.USDPerHour) // priceValue's
			continue
		}
		switch {
		case src == nil:
		case w.raw:
			copy(w.out[:cs.n], src)
		default:
			fromUnit(w.out[:cs.n], src[:cs.n], engineUnit(w.def.Type))
		}
	}
	if len(whole) > 0 && !cs.wholeFigures(&rows, currency, wants, whole) {
		return false
	}
	return true
}

// jobRows are job d's inputs over the samples, in the engine's units:
// its base inputs with a column for each field that varies, and the
// currency of its money. owned are the scratch columns the rows hold,
// which the caller gives back (release) when done with them, ok or not;
// ok is false when d is not a job this pass covers.
func (cs *colSampler) jobRows(d *check.Decl) (rows goodput.Rows, currency string, owned [][]float64, ok bool) {
	s := cs.s
	if d.Kind != check.DeclJob || d.Job == nil || !d.Ok {
		return rows, currency, owned, false
	}
	bv := s.of(d)
	if bv.state != check.Done || bv.job == nil {
		return rows, currency, owned, false
	}
	jp := d.Job
	if jp.Pool != nil && jp.Pool.Uncertain && !cs.poolOK(jp.Pool) {
		return rows, currency, owned, false
	}
	if jp.Parent != nil && jp.Parent.Uncertain && !cs.jobFigures(jp.Parent, nil) {
		return rows, currency, owned, false
	}
	ss := jobSites(s.p, d)
	if !ss.ok {
		return rows, currency, owned, false
	}
	bj := bv.job
	rows = goodput.Rows{Base: bj.in, RaiseCeilings: s.point}
	currency = bj.currency
	for _, st := range ss.sites {
		col, ok := cs.field(st.f.Name.Name, st.c)
		if !ok {
			return rows, currency, owned, false
		}
		if col.own {
			owned = append(owned, col.xs)
		}
		// In the engine's units, as sampleInputs sets them.
		conv := func(u units.Unit) column {
			if col.xs == nil {
				return column{k: units.ToUnit(col.k, u)}
			}
			xs := cs.buf()
			owned = append(owned, xs)
			for i := range cs.n {
				xs[i] = units.ToUnit(col.xs[i], u)
			}
			return column{xs: xs}
		}
		switch {
		case st.name == "devices":
			rows.Devices, rows.Base.Devices = col.xs, col.k
		case st.name == "hours":
			h := conv(units.Hour)
			rows.Hours, rows.Base.Hours = h.xs, h.k
		case st.name == "rate":
			r := conv(units.USDPerHour)
			rows.Rate, rows.Base.Rate = r.xs, goodput.Some(r.k)
			currency = ""
			if c, _ := st.c.Type.Dim.Currency(); c != "USD" {
				currency = c
			}
		case st.limit:
			rows.Ceilings[st.factor], rows.Base.Ceilings[st.factor] = col.xs, goodput.Some(col.k)
		default:
			rows.Factors[st.factor], rows.Base.Factors[st.factor] = col.xs, goodput.Some(col.k)
		}
	}
	return rows, currency, owned, true
}

// wholeFigures computes the wants whole of rows' job from the engine's
// whole result, sample by sample, read as a sample reads it.
func (cs *colSampler) wholeFigures(rows *goodput.Rows, currency string, wants []figureWant, whole []int) bool {
	js := jobState{currency: currency}
	var res goodput.Result
	for i := range cs.n {
		in := rows.Base
		for f := range goodput.NumFactors {
			if c := rows.Factors[f]; c != nil {
				in.Factors[f] = goodput.Some(c[i])
			}
			if c := rows.Ceilings[f]; c != nil {
				in.Ceilings[f] = goodput.Some(c[i])
			}
		}
		if rows.Devices != nil {
			in.Devices = rows.Devices[i]
		}
		if rows.Hours != nil {
			in.Hours = rows.Hours[i]
		}
		if rows.Rate != nil {
			in.Rate = goodput.Some(rows.Rate[i])
		}
		if rows.RaiseCeilings {
			for f := range goodput.NumFactors {
				if c := in.Ceilings[f]; c.Set && in.Factors[f].Value > c.Value {
					in.Ceilings[f] = in.Factors[f]
				}
			}
		}
		var err error
		if res, err = goodput.Solve(in); err != nil {
			return false
		}
		js.in, js.kept = in, &res
		for _, j := range whole {
			w := wants[j]
			switch {
			case w.raw:
				w.out[i] = w.def.Of(&res)
			case w.def.HasFigure():
				w.out[i] = engineValue(w.def.Of(&res), w.def.Type).Num
			default:
				v, err := resultInUSD(w.def, &js)
				if err != nil {
					return false
				}
				w.out[i] = v.Num
			}
		}
	}
	return true
}

// groupReadOf is the group and figure c reads when c is one figure of a
// group or compare (portfolio.mpg), else nil.
func groupReadOf(c *check.Compiled) (*check.Decl, *check.GroupFigure) {
	if c.Const != nil || c.Prog != nil || len(c.Refs) != 1 {
		return nil, nil
	}
	r := c.Refs[0]
	g, ok := r.Plan.(check.GroupRef)
	if r.Kind != check.RefPlan || !ok || r.Decl == nil || r.Decl.Plan == nil || g.Figure == nil || g.Figure.Def == nil {
		return nil, nil
	}
	return r.Decl, g.Figure
}

// pending are the quantities of a batch this pass computes, by what
// they read.
type pending struct {
	d  *check.Decl
	ks []int // indices in the batch
	// for a job, the result each reads; for a group, the figure
	defs  []*results.Def
	figs  []*check.GroupFigure
	pdefs []*results.PoolDef
	done  bool
}

// run computes what it can of batch's numbers (the k with numeric[k])
// column-wise, handing each quantity's samples to emit as soon as they
// are complete (emit reports whether it keeps the column; one it does
// not is reused), and reports which it computed.
func (cs *colSampler) run(batch []*check.Tracked, numeric []bool, emit func(k int, xs []float64) bool) []bool {
	done := make([]bool, len(batch))
	cs.emit = func(k int, xs []float64) {
		done[k] = true
		if !emit(k, xs) {
			cs.release(xs)
		}
	}
	byDecl := map[*check.Decl]*pending{}
	var jobs, groups, pools []*pending
	add := func(d *check.Decl, list *[]*pending) *pending {
		p := byDecl[d]
		if p == nil {
			p = &pending{d: d}
			byDecl[d] = p
			*list = append(*list, p)
		}
		return p
	}
	for k, t := range batch {
		if !numeric[k] || t.Cond || t.C == nil {
			continue
		}
		if dr := directReadOf(t.C); dr.d != nil {
			if dr.d.Uncertain {
				p := add(dr.d, &jobs)
				p.ks, p.defs = append(p.ks, k), append(p.defs, dr.def)
			}
			continue
		}
		if pd, def := poolReadOf(t.C); pd != nil {
			if pd.FiguresUncertain || pd.Uncertain {
				p := add(pd, &pools)
				p.ks, p.pdefs = append(p.ks, k), append(p.pdefs, def)
			}
			continue
		}
		if g, fig := groupReadOf(t.C); g != nil {
			if g.Uncertain {
				p := add(g, &groups)
				p.ks, p.figs = append(p.ks, k), append(p.figs, fig)
			}
			continue
		}
		// A let's or param's value, or an expression of them.
		col, ok := cs.col(t.C, true)
		if !ok {
			continue
		}
		xs := cs.buf()
		if col.xs == nil {
			for i := range cs.n {
				xs[i] = col.k
			}
		} else {
			copy(xs, col.xs[:cs.n])
		}
		cs.releaseCol(col)
		cs.emit(k, xs)
	}
	for _, g := range groups {
		cs.group(g, byDecl)
	}
	for _, p := range pools {
		cs.pool(p, byDecl)
	}
	for _, p := range jobs {
		if !p.done {
			p.done = true
			cs.jobOwn(p, nil)
		}
	}
	cs.finish()
	return done
}

// jobOwn computes job p.d's own pending quantities, with extra figures
// (a group's) in the same pass; false when the job is not one this
// pass covers, its quantities then left to the loop of samples.
func (cs *colSampler) jobOwn(p *pending, extra []figureWant) bool {
	wants := extra
	var outs [][]float64
	if p != nil {
		for _, def := range p.defs {
			xs := cs.buf()
			outs = append(outs, xs)
			wants = append(wants, figureWant{def: def, out: xs})
		}
	}
	if !cs.jobFigures(p.d, wants) {
		cs.release(outs...)
		return false
	}
	for j, k := range p.ks {
		cs.emit(k, outs[j])
	}
	return true
}

// group computes the figures g.figs of group g.d over every sample,
// member by member in the group's order as groupSums adds them up; a
// member's own quantities pending in byDecl are computed in the same
// pass.
func (cs *colSampler) group(g *pending, byDecl map[*check.Decl]*pending) {
	d := g.d
	if !d.Ok || cs.s.of(d).state != check.Done {
		return
	}
	// The sums the figures read: a ratio reads the useful hours (for its
	// check), its numerator and its denominator.
	var sums []*results.Def
	need := func(def *results.Def) {
		for _, x := range sums {
			if x == def {
				return
			}
		}
		sums = append(sums, def)
	}
	for _, fig := range g.figs {
		if fig.Def.Group == results.GroupRatio {
			need(check.GroupFigures()["useful_hours"].Def)
			need(check.GroupFigures()[fig.Def.Ratio[0]].Def)
			need(check.GroupFigures()[fig.Def.Ratio[1]].Def)
			continue
		}
		need(fig.Def)
	}
	for _, def := range sums {
		if !def.HasFigure() {
			return
		}
	}
	acc := make([][]float64, len(sums))
	for j := range acc {
		acc[j] = cs.buf()
		clear(acc[j])
	}
	defer cs.release(acc...)
	var col [][]float64
	for range sums {
		col = append(col, cs.buf())
	}
	defer cs.release(col...)
	for _, m := range d.Plan.Members {
		if cs.s.of(m).state != check.Done {
			return
		}
		if !m.Uncertain {
			r := cs.s.of(m).job.result()
			for j, def := range sums {
				if def.NeedsRate && !r.HasCost {
					return
				}
				x, a := def.Of(&r), acc[j]
				for i := range cs.n {
					a[i] += x
				}
			}
			continue
		}
		if !cs.addMember(m, sums, col, acc, byDecl) {
			return
		}
	}
	at := func(def *results.Def) []float64 {
		for j, x := range sums {
			if x == def {
				return acc[j]
			}
		}
		return nil
	}
	for f, fig := range g.figs {
		t := check.InCurrency(fig.Type, d.Plan.Currency)
		out := cs.buf()
		if fig.Def.Group == results.GroupRatio {
			useful := at(check.GroupFigures()["useful_hours"].Def)
			num, den := at(check.GroupFigures()[fig.Def.Ratio[0]].Def), at(check.GroupFigures()[fig.Def.Ratio[1]].Def)
			ok := true
			for i := range cs.n {
				if useful[i] == 0 {
					ok = false
					break
				}
				out[i] = engineValue(num[i]/den[i], t).Num
			}
			if !ok {
				cs.release(out)
				continue
			}
		} else {
			a := at(fig.Def)
			for i := range cs.n {
				out[i] = engineValue(a[i], t).Num
			}
		}
		cs.emit(g.ks[f], out)
	}
}

// noColumns, set by a test, leaves every quantity to the loop of
// samples: the column-wise pass's oracle.
var noColumns bool

// engineUnit is the unit engineValue reads a figure of type t in, nil
// for a figure it takes as it is.
func engineUnit(t Type) *units.Unit {
	switch {
	case t.Dim == units.Count:
		return nil
	case t.Dim == units.Duration:
		return &units.Hour
	case units.IsPrice(t.Dim):
		return &units.USDPerHour
	}
	return nil
}

// fromUnit sets out[i] to units.FromUnit(in[i], *u), bit for bit (the
// same division or product), or to in[i] for a nil u.
func fromUnit(out, in []float64, u *units.Unit) {
	switch {
	case u == nil:
		copy(out, in)
	case u.Factor < 1:
		d := 1 / u.Factor
		for i, x := range in {
			out[i] = x / d
		}
	default:
		f := u.Factor
		for i, x := range in {
			out[i] = x * f
		}
	}
}

// addMember adds, sample by sample, the engine's figures sums of the
// uncertain job m to the columns acc (a group's or a pool's sums, member
// by member in their order), col being scratch columns for them; a job
// the pass also reports itself (byDecl) is computed, and done, here.
// False when m is not one the pass covers, or fails in some sample.
func (cs *colSampler) addMember(m *check.Decl, sums []*results.Def, col, acc [][]float64, byDecl map[*check.Decl]*pending) bool {
	wants := make([]figureWant, 0, len(sums)+3) // room for the wants jobOwn adds
	for j, def := range sums {
		wants = append(wants, figureWant{def: def, out: col[j], raw: true})
	}
	own := byDecl[m]
	if own != nil && (own.done || own.figs != nil || own.pdefs != nil) {
		own = nil
	}
	var ok bool
	if own != nil {
		own.done = true // done here, or failing here as it would alone
		ok = cs.jobOwn(own, wants)
	} else {
		ok = cs.jobFigures(m, wants)
	}
	if !ok {
		return false
	}
	for j := range sums {
		a, x := acc[j], col[j]
		for i := range cs.n {
			a[i] += x[i]
		}
	}
	return true
}

// poolReadOf is the pool and result c reads when c is one result of a
// pool as a whole (p.mpg, not a month's), else nil.
func poolReadOf(c *check.Compiled) (*check.Decl, *results.PoolDef) {
	if c.Const != nil || c.Prog != nil || len(c.Refs) != 1 {
		return nil, nil
	}
	r := c.Refs[0]
	q, ok := r.Plan.(check.PoolResultRef)
	if r.Kind != check.RefPlan || !ok || q.InMonth || q.Def == nil || r.Decl == nil || r.Decl.Kind != check.DeclPool {
		return nil, nil
	}
	return r.Decl, q.Def
}

// pool computes the results p.pdefs of pool p.d over every sample, as
// poolOf and poolResultValue work them out: its jobs' offered and
// useful hours and costs added up in the pool's order, then the pool's
// own figures from them. It covers a pool whose own lines are plain and
// which has no window (a pool in time is figured by the instant), and
// computes its jobs' own pending quantities in the same pass.
func (cs *colSampler) pool(p *pending, byDecl map[*check.Decl]*pending) {
	d, s := p.d, cs.s
	if !d.Ok || d.Uncertain || d.Pool == nil || d.Pool.Window != nil || s.of(d).state != check.Done {
		return
	}
	pp := d.Pool
	var devices, rate, term float64
	var hasRate bool
	if f := pp.Fields.Get("devices"); f != nil {
		if v, ok := s.fieldValue(f); ok {
			devices = v.Num
		}
	}
	if f := pp.Fields.Get("rate"); f != nil {
		if v, ok := s.fieldValue(f); ok {
			rate, hasRate = units.ToUnit(v.Num, units.USDPerHour), true
		}
	}
	if f := pp.Fields.Get("term"); f != nil {
		v, ok := s.fieldValue(f)
		if !ok {
			return
		}
		term = v.Num / secondsPerHour
	}
	reserved := pp.Reserved()
	sums := []*results.Def{results.ByName()["offered_hours"], results.ByName()["useful_hours"], results.ByName()["cost"]}
	acc := make([][]float64, len(sums))
	col := make([][]float64, len(sums))
	for j := range sums {
		acc[j], col[j] = cs.buf(), cs.buf()
		clear(acc[j])
	}
	defer cs.release(acc...)
	defer cs.release(col...)
	hasCost := true
	jobs := s.p.JobsOn(d)
	for _, m := range jobs {
		bv := s.of(m)
		if bv.state != check.Done || bv.job == nil {
			return
		}
		if !m.Uncertain {
			r := bv.job.result()
			hasCost = hasCost && r.HasCost
			for j, def := range sums {
				x, a := def.Of(&r), acc[j]
				for i := range cs.n {
					a[i] += x
				}
			}
			continue
		}
		hasCost = hasCost && bv.job.in.Rate.Set // a rate set at the medians is set in every sample
		if !cs.addMember(m, sums, col, acc, byDecl) {
			return
		}
	}
	allocated, useful, cost := acc[0], acc[1], acc[2]
	for f, def := range p.pdefs {
		out := cs.buf()
		ok := true
		for i := range cs.n {
			// poolFigures' total, for a pool without a window.
			t := periodFigures{allocated: allocated[i], useful: useful[i], cost: cost[i], hasCost: hasCost}
			if reserved {
				t.offered = devices * term
			} else {
				t.offered = t.allocated
			}
			if reserved {
				t.cost, t.hasCost = t.offered*rate, hasRate
				t.idle = t.offered - t.allocated
				t.idleCost, t.hasIdleCost = t.idle*rate, hasRate
			} else {
				t.hasIdleCost = true
			}
			v, err := t.result(def.Figure, len(jobs))
			if err != nil {
				ok = false
				break
			}
			out[i] = v.Num
		}
		if !ok {
			cs.release(out)
			continue
		}
		cs.emit(p.ks[f], out)
	}
}
