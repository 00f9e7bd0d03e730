package eval

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
)

// This file is the bounded, selective evaluation a service runs per
// request (Scenario.Evaluate): the file's params replaced, under a
// context's deadline and cancellation and a budget of work, and only the
// declarations asked for computed. With and WithSettings are it with no
// bound and everything asked for.

// Settings are values for the file's params, by name, as Evaluate and
// With take them. Build the values with Quantity, Count, BoolValue or
// NumberValue; no text is formatted or parsed.
type Settings = map[string]Value

// ErrCanceled is what a *StopError of an evaluation whose context was
// cancelled, or whose deadline passed, is (errors.Is); the context's own
// error (context.Canceled, context.DeadlineExceeded) is in it too.
var ErrCanceled = errors.New("evaluation canceled")

// ErrBudget is what a *StopError of an evaluation that would have done
// more work than its budget allows is (errors.Is).
var ErrBudget = errors.New("evaluation budget exceeded")

// StopError is why Evaluate stopped before it was done, and how much work
// it had done: errors.Is(err, ErrCanceled) or errors.Is(err, ErrBudget),
// and for a cancellation errors.Is(err, context.DeadlineExceeded) or
// context.Canceled.
type StopError struct {
	// Reason is ErrCanceled or ErrBudget.
	Reason error
	// Cause is the context's error, for a cancellation; nil else.
	Cause error
	// Budget names the budget that ran out ("engine runs", "points",
	// "samples") and Limit is it; "" and 0 for a cancellation.
	Budget string
	Limit  int64
	// EngineRuns, Points and Samples are the work done when it stopped:
	// goodput engine runs, points of sweeps and values solves tried,
	// samples drawn.
	EngineRuns, Points, Samples int64
}

func (e *StopError) Error() string {
	done := fmt.Sprintf("after %d engine runs, %d points, %d samples", e.EngineRuns, e.Points, e.Samples)
	if e.Reason == ErrBudget {
		return fmt.Sprintf("%v: more than %d %s (%s)", e.Reason, e.Limit, e.Budget, done)
	}
	return fmt.Sprintf("%v: %v (%s)", e.Reason, e.Cause, done)
}

// Unwrap gives Reason and, for a cancellation, Cause.
func (e *StopError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Reason, e.Cause}
	}
	return []error{e.Reason}
}

// EvalOption bounds or narrows one Evaluate: Only, MaxEngineRuns,
// MaxPoints, MaxSamples. (Data, not a function, so that applying the
// options does not move the configuration to the heap.)
type EvalOption struct {
	only []string
	n    int64
	kind optionKind
}

type optionKind uint8

const (
	optOnly optionKind = iota
	optRuns
	optPoints
	optSamples
)

type evalConfig struct {
	only                           []string
	maxRuns, maxPoints, maxSamples int64
}

// configOf applies opts in order.
func configOf(opts []EvalOption) evalConfig {
	var c evalConfig
	for _, o := range opts {
		switch o.kind {
		case optOnly:
			if c.only == nil {
				c.only = []string{} // Only() asks for nothing, not for everything
			}
			c.only = append(c.only, o.only...)
		case optRuns:
			c.maxRuns = o.n
		case optPoints:
			c.maxPoints = o.n
		case optSamples:
			c.maxSamples = o.n
		}
	}
	return c
}

// Only asks Evaluate for the named declarations (jobs, pools, lets,
// params, groups, sweeps, solves…) and what they read, nothing else: a
// sweep of a million points that no named declaration reads is not
// walked. Other declarations of the scenario Evaluate returns are
// computed when first read (Job, Value, Eval, a Query), without a bound,
// under a lock of the scenario's: those reads and Jobs, Pools, Lets,
// Params, Job.Get and Diagnostics are safe for concurrent use, and Jobs
// and Pools list only what has been computed. Judge expects, build
// reports and explain results on a scenario computed whole. Given more
// than once, the names add up; Only() asks for nothing.
func Only(names ...string) EvalOption {
	return EvalOption{kind: optOnly, only: names}
}

// MaxEngineRuns bounds the goodput engine runs of one Evaluate (one per
// job, one per point of a sweep over a job, one per value a solve tries);
// n ≤ 0 is no bound.
func MaxEngineRuns(n int64) EvalOption { return EvalOption{kind: optRuns, n: n} }

// MaxPoints bounds the points of sweeps walked and the values solves try
// in one Evaluate; n ≤ 0 is no bound.
func MaxPoints(n int64) EvalOption { return EvalOption{kind: optPoints, n: n} }

// MaxSamples bounds the samples an uncertain value draws in one
// Evaluate; n ≤ 0 is no bound.
func MaxSamples(n int64) EvalOption { return EvalOption{kind: optSamples, n: n} }

// control is what bounds one Evaluate: its context and budget, and the
// work counted against it. The evaluation and its what-if points share
// one; the long loops (force, a sweep's points, a solve's tries, a
// group's sums, samples) call its checks, which stop the evaluation by
// panicking with a stopSignal that Evaluate recovers. Once the
// evaluation returns it is detached, and the checks do nothing: a
// scenario read later is not stopped by a deadline that has passed since.
type control struct {
	done                           <-chan struct{}
	ctx                            context.Context
	maxRuns, maxPoints, maxSamples int64
	runs, points, samples          atomic.Int64
	detached                       atomic.Bool
	// onRun, when set (tests), is called with the count at each engine
	// run.
	onRun func(n int64)
}

// stopSignal is the panic value with which a check stops an evaluation.
type stopSignal struct{ err *StopError }

func (c *control) stopError(reason error, budget string, limit int64) *StopError {
	e := &StopError{Reason: reason, Budget: budget, Limit: limit,
		EngineRuns: c.runs.Load(), Points: c.points.Load(), Samples: c.samples.Load()}
	if reason == ErrCanceled {
		e.Cause = c.ctx.Err()
		if e.Cause == nil {
			e.Cause = context.Canceled
		}
	}
	return e
}

// check stops the evaluation when its context is done.
func (c *control) check() {
	if c == nil || c.detached.Load() {
		return
	}
	select {
	case <-c.done:
		panic(stopSignal{c.stopError(ErrCanceled, "", 0)})
	default:
	}
}

// engineRun counts a goodput engine run, and checks.
func (c *control) engineRun() {
	if c == nil || c.detached.Load() {
		return
	}
	n := c.runs.Add(1)
	if c.onRun != nil {
		c.onRun(n)
	}
	if c.maxRuns > 0 && n > c.maxRuns {
		c.runs.Add(-1)
		panic(stopSignal{c.stopError(ErrBudget, "engine runs", c.maxRuns)})
	}
	c.check()
}

// point counts a point of a sweep or a value a solve tries, and checks.
func (c *control) point() {
	if c == nil || c.detached.Load() {
		return
	}
	if n := c.points.Add(1); c.maxPoints > 0 && n > c.maxPoints {
		c.points.Add(-1)
		panic(stopSignal{c.stopError(ErrBudget, "points", c.maxPoints)})
	}
	c.check()
}

// sample counts n samples drawn, and checks: the hook of a sampling
// loop, which calls it every sample or every batch of samples.
func (c *control) sample(n int64) {
	if c == nil || c.detached.Load() {
		return
	}
	if t := c.samples.Add(n); c.maxSamples > 0 && t > c.maxSamples {
		c.samples.Add(-n)
		panic(stopSignal{c.stopError(ErrBudget, "samples", c.maxSamples)})
	}
	c.check()
}

// checkStop is the check for a loop of the evaluation that is neither a
// point nor an engine run (a group's sums over many jobs): it stops the
// evaluation when the context is done.
func (s *Scenario) checkStop() { s.ctl.check() }

// countSamples counts n samples drawn against the budget and checks the
// context: what a sampling loop calls.
func (s *Scenario) countSamples(n int64) { s.ctl.sample(n) }

// Evaluate evaluates the file again with settings replacing the defaults
// of the params of those names, under ctx and opts: it stops when ctx is
// cancelled or its deadline passes, or when it would exceed a budget
// (MaxEngineRuns, MaxPoints, MaxSamples), with a *StopError, which
// errors.Is ErrCanceled or ErrBudget; with Only, it computes only the
// declarations named and what they read. The program is shared, not
// re-read or re-checked.
//
// Otherwise it returns the new evaluation, and an *Error when the
// evaluation has errors, as With does (an unknown param, or a value of the
// wrong type, is an error too). The context is checked at every
// declaration computed, every point of a sweep, every value a solve tries,
// every engine run and every 64 jobs a group sums, so that a cancellation
// stops it within one of those steps (microseconds).
func (s *Scenario) Evaluate(ctx context.Context, settings Settings, opts ...EvalOption) (_ *Scenario, err error) {
	cfg := configOf(opts)
	return s.evaluateUnder(newControl(ctx, cfg), settings, cfg.only)
}

// newControl is the control of ctx and cfg's budgets; nil when nothing
// bounds the evaluation (a context that is never done, no budget), so
// that With costs what it did before it was bounded.
func newControl(ctx context.Context, cfg evalConfig) *control {
	done := ctx.Done()
	if done == nil && cfg.maxRuns <= 0 && cfg.maxPoints <= 0 && cfg.maxSamples <= 0 {
		return nil
	}
	return &control{ctx: ctx, done: done, maxRuns: cfg.maxRuns, maxPoints: cfg.maxPoints, maxSamples: cfg.maxSamples}
}

// evaluateUnder is Evaluate with its control made.
func (s *Scenario) evaluateUnder(ctl *control, settings Settings, only []string) (n *Scenario, err error) {
	defer func() {
		if ctl != nil {
			ctl.detached.Store(true)
		}
		if p := recover(); p != nil {
			if st, ok := p.(stopSignal); ok {
				n, err = nil, st.err
				return
			}
			n, err = nil, internalError(p)
		}
	}()
	if ctl != nil && ctl.ctx != nil && ctl.ctx.Err() != nil {
		return nil, ctl.stopError(ErrCanceled, "", 0)
	}
	params, err := s.paramDecls(settings)
	if err != nil {
		return nil, err
	}
	var decls []*check.Decl
	for _, name := range only {
		d, ok := s.p.Decls[name]
		if !ok {
			return nil, s.unknownDecl(name)
		}
		decls = append(decls, d)
	}
	plain := s.sharedPlain()
	if only == nil {
		n = evaluateIn(s.p, params, ctl, plain)
		return n, n.err()
	}
	n = evaluatePoint(s.p, params)
	n.plain, n.cachePlain, n.ctl, n.keepResults = plain, plain != nil, ctl, true
	for _, d := range decls {
		n.force(d)
	}
	n.stack, n.keepResults = nil, false
	n.ready = make([]bool, len(n.vals))
	for i := range n.vals {
		n.ready[i] = n.vals[i].state == check.Done
	}
	n.lazy = new(sync.Mutex)
	return n, n.err()
}

// sharedPlain is the cache of plain numbers the evaluations Evaluate
// makes from s share with s and with each other: the one s has (its
// file has a what-if, or Evaluate made s), or the one its load made for
// them; nil for a scenario made otherwise.
func (s *Scenario) sharedPlain() *plainNumbers {
	if s.plain != nil {
		return s.plain
	}
	return s.plainMade
}

// paramDecls checks settings against the file's params.
func (s *Scenario) paramDecls(settings Settings) (map[*check.Decl]Value, error) {
	byDecl := make(map[*check.Decl]Value, len(settings))
	for name, v := range settings {
		d, ok := s.p.Decls[name]
		if !ok || d.Kind != check.DeclParam {
			return nil, fmt.Errorf("%s is not a param of the file", name)
		}
		if v.Type != d.Type {
			return nil, fmt.Errorf("param %s is %s, not %s", name, d.Type.Phrase(), v.Type.Phrase())
		}
		byDecl[d] = v
	}
	return byDecl, nil
}

// unknownDecl is the error of an Only naming nothing the file declares.
func (s *Scenario) unknownDecl(name string) error {
	var cands []string
	for _, d := range s.p.Order {
		cands = append(cands, d.Name.Name)
	}
	msg := fmt.Sprintf("Only(%q): the file declares no %s", name, name)
	if sug := suggest.Closest(name, cands); sug != "" {
		msg += "; did you mean " + sug + "?"
	} else if strings.Contains(name, ".") {
		msg += "; name a declaration, not one of its results"
	} else if len(cands) > 0 {
		sort.Strings(cands)
		if len(cands) > 8 {
			cands = append(cands[:8], "…")
		}
		msg += "; it declares " + strings.Join(cands, ", ")
	}
	return errors.New(msg)
}

// lock serializes the reads of a scenario whose declarations are computed
// when first read (Evaluate with Only); it does nothing on a scenario
// computed whole, which does not change once made.
func (s *Scenario) lock() func() {
	if s.lazy == nil {
		return func() {}
	}
	s.lazy.Lock()
	return s.lazy.Unlock
}
