package check

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is the check pass of uncertainty (language.md §23): a
// distribution written in an expression (A to B, normal(…), …) becomes a
// site the evaluator draws samples for, read as a ref (RefDist); a
// statistic of an uncertain value (X.p10, X.mean) and probability(COND)
// become refs to a tracked quantity, whose samples the evaluator collects
// (RefStat). A declaration that reads a distribution, directly or
// through another, is uncertain (Decl.Uncertain).

// DistSite is a distribution written in the program: the function
// (to, normal, lognormal, uniform, triangular, beta), its arguments, each
// compiled apart (they are plain values, the same in every sample), and
// the name of its stream of samples.
type DistSite struct {
	Index int
	Func  string
	Args  []*Compiled
	Node  lang.Expr
	Dim   units.Dim
	// Key names the site's stream of samples: the declaration it is
	// written in and its place among that declaration's distributions
	// (mtbf#0), so that an edit elsewhere leaves its samples as they were.
	Key string
}

// Tracked is a quantity whose samples the evaluator collects: the value
// a statistic reads, or the condition of probability(…) (Cond).
type Tracked struct {
	Index int
	Key   string
	Text  string // as written, for messages
	C     *Compiled
	Cond  bool
	Dim   units.Dim
}

// StatRef is what a RefStat reads: statistic Stat (mean, sd, p5, p10,
// p50, p90, p95, min, max, p for a quantile Q, probability; mode for a
// text, the value most samples give) of tracked quantity T.
type StatRef struct {
	T    *Tracked
	Stat string
	Q    float64
}

// Stats are the statistics an uncertain value has, as NAME.STAT.
var Stats = map[string]float64{"mean": -1, "sd": -1, "min": 0, "max": 1, "p5": 0.05, "p10": 0.10, "p50": 0.50, "p90": 0.90, "p95": 0.95}

// uncertainState is a program's sites and tracked quantities.
type uncertainState struct {
	mu      sync.Mutex
	Dists   []*DistSite
	Tracked []*Tracked
	byKey   map[string]*Tracked
	perDecl map[*Decl]int
}

// Uncertain reports whether the program has a distribution.
func (p *Program) Uncertain() bool { return len(p.unc.Dists) > 0 }

// DistSites are the program's distributions, in the order checked.
func (p *Program) DistSites() []*DistSite { return p.unc.Dists }

// TrackedQuantities are the quantities the evaluator collects samples
// of. Safe for concurrent use with Track.
func (p *Program) TrackedQuantities() []*Tracked {
	p.unc.mu.Lock()
	defer p.unc.mu.Unlock()
	return append([]*Tracked(nil), p.unc.Tracked...)
}

// Track registers c as a quantity whose samples are collected, under key
// (one per key).
func (p *Program) Track(key, text string, c *Compiled, cond bool) *Tracked {
	p.unc.mu.Lock()
	defer p.unc.mu.Unlock()
	if t, ok := p.unc.byKey[key]; ok {
		return t
	}
	if p.unc.byKey == nil {
		p.unc.byKey = map[string]*Tracked{}
	}
	t := &Tracked{Index: len(p.unc.Tracked), Key: key, Text: text, C: c, Cond: cond, Dim: c.Type.Dim}
	p.unc.Tracked = append(p.unc.Tracked, t)
	p.unc.byKey[key] = t
	return t
}

// refUncertain reports whether what r reads varies from sample to sample.
func refUncertain(r *Ref) bool {
	switch r.Kind {
	case RefDist:
		return true
	case RefStat:
		return false
	}
	if r.Kind == RefPlan && r.Decl != nil && r.Decl.FiguresUncertain {
		return true // a pool's figure, of its uncertain jobs
	}
	return r.Decl != nil && r.Decl.Uncertain || r.Second != nil && r.Second.Uncertain
}

// markPoolFigures marks each pool with an uncertain job on it
// (Decl.FiguresUncertain), once every declaration is checked; a read
// of such a pool's figure checked before is told by poolRef.
func (p *Program) markPoolFigures() {
	for _, d := range p.Order {
		if d.Kind == DeclJob && d.Uncertain && d.Job != nil && d.Job.Pool != nil {
			d.Job.Pool.FiguresUncertain = true
		}
	}
}

// poolJobsUncertain reports whether a job stated on pool d is uncertain.
func poolJobsUncertain(jobs []*Decl) bool {
	for _, j := range jobs {
		if j.Uncertain {
			return true
		}
	}
	return false
}

// noteUncertain records that the expression being checked reads r, which
// is uncertain: so is the expression, and the declaration being checked.
func (cp *exprChecker) noteUncertain() {
	cp.unc++
	cp.c.running.Uncertain = true
	if !cp.sc.inStat && len(cp.p.stack) > 0 {
		cp.p.stack[len(cp.p.stack)-1].Uncertain = true
	}
}

// propagateUncertain marks d uncertain when what it is built on is: a
// job's pool or the job it extends, a group's or compare's jobs.
func propagateUncertain(d *Decl) {
	if d.Job != nil && (d.Job.Pool != nil && d.Job.Pool.Uncertain || d.Job.Parent != nil && d.Job.Parent.Uncertain) {
		d.Uncertain = true
	}
	if d.Plan != nil {
		for _, m := range d.Plan.Members {
			if m.Uncertain {
				d.Uncertain = true
			}
		}
	}
}

// distNames are the constructors of distributions, with the rule of each
// argument's dimension: "=" the first's, "1" a count.
var distNames = map[string]string{
	"to": "==", "normal": "==", "lognormal": "=1", "uniform": "==", "triangular": "===", "beta": "11",
}

// IsDist reports whether e is a distribution written in place: A to B or
// a constructor's call.
func IsDist(e lang.Expr) bool {
	switch n := Unparen(e).(type) {
	case *lang.Binary:
		return n.Op == "to"
	case *lang.Call:
		_, ok := distNames[n.Func.Name]
		return ok && n.Func.Name != "to"
	}
	return false
}

// dist checks a distribution: args are its arguments (L and R of A to
// B), at the node n.
func (cp *exprChecker) dist(n lang.Expr, fn string, args []lang.Expr) (value.Type, ast.Node) {
	rule := distNames[fn]
	if len(args) != len(rule) {
		b := funcs.ByName()[fn]
		return cp.errorf(n, "%s takes %d arguments: %s", fn, len(rule), b.Usage())
	}
	site := &DistSite{Func: fn, Node: n}
	var first value.Type
	for i, a := range args {
		c := cp.p.compile(a, cp.sc, cp.diags)
		if c == nil {
			cp.ok = false
			continue
		}
		if c.Type.Kind != value.Number {
			cp.errorf(a, "%s needs numbers; this is a %s", distWord(fn), c.Type)
			continue
		}
		if c.running != nil && c.running.Uncertain {
			cp.errorf(a, "the arguments of %s are plain values, but this one is uncertain; a distribution of a distribution is not supported", distWord(fn))
			continue
		}
		switch rule[i] {
		case '=':
			if i == 0 {
				first = c.Type
				if c.Type.Dim == units.Date {
					cp.errorf(a, "a date cannot be uncertain; make the duration around it uncertain instead")
				}
			} else if first.Kind == value.Number && c.Type.Dim != first.Dim && !isBareZero(a) {
				cp.errorf(a, "the arguments of %s differ in dimension: %s and %s; write both in one unit's dimension", distWord(fn), first.Dim, c.Type.Dim)
				continue
			}
		case '1':
			if c.Type.Dim != units.Count {
				cp.errorf(a, "this argument of %s is a count, but this is %s", distWord(fn), c.Type.Dim.Phrase())
				continue
			}
		}
		site.Args = append(site.Args, c)
	}
	if !cp.ok {
		return value.Type{}, nil
	}
	t := value.CountType
	if rule[0] == '=' {
		t = first
	}
	site.Dim = t.Dim
	cp.p.unc.mu.Lock()
	site.Index = len(cp.p.unc.Dists)
	owner := "file"
	var od *Decl
	if len(cp.p.stack) > 0 {
		od = cp.p.stack[len(cp.p.stack)-1]
		owner = od.Name.Name
	}
	if cp.p.unc.perDecl == nil {
		cp.p.unc.perDecl = map[*Decl]int{}
	}
	site.Key = owner + "#" + strconv.Itoa(cp.p.unc.perDecl[od])
	cp.p.unc.perDecl[od]++
	cp.p.unc.Dists = append(cp.p.unc.Dists, site)
	cp.p.unc.mu.Unlock()
	return t, cp.addRef(&Ref{Kind: RefDist, Dist: site, Text: fn, Node: n, Type: t})
}

func distWord(fn string) string {
	if fn == "to" {
		return "A to B"
	}
	return fn
}

// statName checks NAME.STAT: a statistic of the value NAME reads.
func (cp *exprChecker) statName(n *lang.Name, stat string) (value.Type, ast.Node) {
	inner := &lang.Name{Parts: n.Parts[:len(n.Parts)-1]}
	sc := cp.sc
	sc.inStat = true
	c := cp.p.compile(inner, sc, cp.diags)
	if c == nil {
		cp.ok = false
		return value.Type{}, nil
	}
	if c.Type.Kind != value.Number {
		return cp.errorf(n, "%s is a %s; only a number has a .%s", inner.Path(), c.Type, stat)
	}
	if len(c.Refs) == 1 && c.Prog == nil {
		if ps, ok := c.Refs[0].Plan.(PointScopeRef); ok {
			// A result of a sweep's point over a job: a statistic of it
			// solves the job in every sample at the point, for a result
			// the engine computes over every sample at once.
			if slices.Contains(SampledResults, ps.Def.Name) {
				r := c.Refs[0]
				return c.Type, cp.addRef(&Ref{Kind: RefPlan, Decl: r.Decl, Field: r.Field, Text: n.Path(), Node: n, Type: c.Type,
					Plan: PointStatRef{Def: ps.Def, Stat: stat, Q: Stats[stat]}})
			}
			pos, end := n.Span()
			*cp.diags = append(*cp.diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end,
				Summary: fmt.Sprintf("a sweep over a job takes a statistic of mpg, offered_hours, useful_hours, cost or cost_per_useful_hour at each point, not of %s", inner.Path()),
				Notes:   []string{"hint: to sample another result at each point, sweep over file: make the varied input a param the job reads, vary it, and show JOB." + n.Path()}})
			cp.ok = false
			return value.Type{}, nil
		}
	}
	key := inner.Path()
	if cp.sc.job != nil {
		key = cp.sc.job.Name.Name + ":" + key
	}
	t := cp.p.Track("v:"+key, inner.Path(), c, false)
	return c.Type, cp.addRef(&Ref{Kind: RefStat, Stat: &StatRef{T: t, Stat: stat, Q: Stats[stat]}, Text: n.Path(), Node: n, Type: c.Type})
}

// probability checks probability(CONDITION): the fraction of samples in
// which the condition holds.
func (cp *exprChecker) probability(n *lang.Call) (value.Type, ast.Node) {
	if len(n.Args) != 1 {
		return cp.errorf(n, "probability takes one argument, a condition: probability(job.mpg >= 0.30)")
	}
	sc := cp.sc
	sc.sampled, sc.inStat = true, true
	c := cp.p.compile(n.Args[0], sc, cp.diags)
	if c == nil {
		cp.ok = false
		return value.Type{}, nil
	}
	if c.Type.Kind != value.Bool {
		return cp.errorf(n.Args[0], "probability needs a condition, true or false in each sample, but this is a %s", c.Type)
	}
	pos := n.Start()
	key := fmt.Sprintf("p:%s:%d:%d", pos.Filename, pos.Line, pos.Column)
	if _, inFile := cp.p.Sources[pos.Filename]; !inFile {
		// An expression given after the program was built (Eval, the
		// REPL): one such is written at the same place as the next,
		// so its place does not name it.
		key += fmt.Sprintf(":%p", n)
	}
	t := cp.p.Track(key, "probability", c, true)
	return value.CountType, cp.addRef(&Ref{Kind: RefStat, Stat: &StatRef{T: t, Stat: "probability"}, Text: "probability", Node: n, Type: value.CountType})
}

// plainComparison reports a comparison of an uncertain value outside
// probability(…).
func (cp *exprChecker) plainComparison(n *lang.Binary) (value.Type, ast.Node) {
	pos, end := n.Span()
	*cp.diags = append(*cp.diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end,
		Summary: "this compares an uncertain value, which is a distribution of samples, not one number",
		Notes:   []string{"hint: compare a statistic of it (" + statExample(n) + ".p10, .p50, .mean) or ask how often it holds: probability(" + cp.p.sourceAt(pos, end) + ")"}})
	cp.ok = false
	return value.Type{}, nil
}

// uncertainApprox reports an expect ≈ of an uncertain value.
func (p *Program) uncertainApprox(x lang.Expr, diags *lang.Diagnostics) {
	pos, end := x.Span()
	*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end,
		Summary: "this expects an uncertain value to be near one number, but it is a distribution of samples",
		Notes:   []string{"hint: expect a statistic of it: " + p.sourceAt(pos, end) + ".p50, .p10, .mean or .sd"}})
}

func statExample(n *lang.Binary) string {
	if nm, ok := Unparen(n.L).(*lang.Name); ok {
		return nm.Path()
	}
	if nm, ok := Unparen(n.R).(*lang.Name); ok {
		return nm.Path()
	}
	return "X"
}

// BoundDistribution reports a distribution written as the bound of a
// range (from A to B), which is a plain value.
func BoundDistribution(e lang.Expr, diags *lang.Diagnostics) bool {
	x := findDist(e)
	if x == nil {
		return false
	}
	pos, end := x.Span()
	*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end,
		Summary: "a range's bounds are plain values, but this is a distribution",
		Notes:   []string{"hint: in from A to B, to separates the range's ends; write each end as one number"}})
	return true
}

// findDist is the first distribution written in e, or nil.
func findDist(e lang.Expr) lang.Expr {
	if e == nil {
		return nil
	}
	if IsDist(e) {
		return Unparen(e)
	}
	switch n := e.(type) {
	case *lang.Paren:
		return findDist(n.X)
	case *lang.Unary:
		return findDist(n.X)
	case *lang.Binary:
		if x := findDist(n.L); x != nil {
			return x
		}
		return findDist(n.R)
	case *lang.Cond:
		for _, y := range []lang.Expr{n.If, n.Then, n.Else} {
			if x := findDist(y); x != nil {
				return x
			}
		}
	case *lang.Call:
		for _, y := range n.Args {
			if x := findDist(y); x != nil {
				return x
			}
		}
	}
	return nil
}

// quantile checks NAME.p(q): the q-quantile of the value NAME reads, q a
// constant fraction in [0, 1].
func (cp *exprChecker) quantile(q *lang.Query) (value.Type, ast.Node) {
	if len(q.Args) != 1 || q.Args[0].Input != nil {
		return cp.errorf(q, "%s.p takes one argument, a fraction in [0, 1]: %s.p(0.25)", q.Target.Path(), q.Target.Path())
	}
	arg := q.Args[0].Value
	lit := NumberLit(arg)
	if lit == nil || lit.UnitOf() != nil || lit.Amount() < 0 || lit.Amount() > 1 {
		return cp.errorf(arg, "the argument of .p is a quantile, a plain number in [0, 1] written as one: .p(0.25)")
	}
	t, node := cp.statName(&lang.Name{Parts: append(append([]*lang.Ident(nil), q.Target.Parts...), &lang.Ident{Name: "p50"})}, "p")
	if len(cp.c.Refs) > 0 {
		if r := cp.c.Refs[len(cp.c.Refs)-1]; r.Kind == RefStat && r.Stat.Stat == "p" {
			r.Stat.Q = lit.Amount()
			r.Node = q
		}
	}
	return t, node
}

// textMode turns a read of a text result of an uncertain job
// (best_lever, owner.F where it depends on a distribution), outside
// probability(…) and a statistic, into a read of the value most samples
// give: a RefStat whose statistic is "mode", which is the same in every
// sample, so that the text compares as a plain one
// (pretrain.best_lever == "program"). Inside probability(…) the text is
// read sample by sample. Nil for any other ref.
func (cp *exprChecker) textMode(r *Ref) *Ref {
	if r.Kind != RefJob || r.Decl == nil || !refUncertain(r) || cp.sc.sampled || cp.sc.inStat ||
		r.Type.Kind == value.Number || r.Type.Kind == value.Bool {
		return nil
	}
	inner := *r
	inner.Slot = 0
	c := &Compiled{Node: r.Node, Type: r.Type, running: &running{Refs: []*Ref{&inner}, Strs: 1, Uncertain: true}}
	path := r.Decl.Name.Name + "." + r.Field
	t := cp.p.Track("m:"+path, path, c, false)
	return &Ref{Kind: RefStat, Stat: &StatRef{T: t, Stat: "mode"}, Text: r.Text, Node: r.Node, Type: r.Type}
}
