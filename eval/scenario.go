package eval

import (
	"bytes"
	"sync"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// declValues are what one evaluation computed for a declaration.
type declValues struct {
	state check.EvalState
	job   *jobState
	rs    *rulesState
	req   *requestState
	plan  *planValues // a sweep's axes, a solve's answer (planning.go)
	pool  *poolState  // a pool's capacity and figures (capacity.go)
}

// Scenario is one evaluation of a loaded file: the values of its lets and
// params, its pools, jobs, rulesets and requests. It does not change once
// loaded, and every method is safe for concurrent use; With evaluates the
// same program again with other params.
type Scenario struct {
	p         *check.Program
	readErr   *Error // why the file could not be read, if it could not
	params    map[*check.Decl]Value
	vals      []declValues
	values    []Value      // of the lets and params, by Decl.ValueSlot
	fieldVals []fieldValue // by compiled.field
	ev        sink         // the evaluation's own diagnostics
	stack     []*check.Decl
	// point is set for the evaluation of a what-if's point (whatif.go):
	// a factor above its ceiling is allowed, and raised marks it.
	point bool
	// draw is the sample an evaluation of an uncertain file is at, from
	// 1; 0 for the base evaluation (uncertain.go).
	draw   int32
	raised map[*check.Decl]*[goodput.NumFactors]bool
	plain  *plainNumbers // shared with the points, when the file has a what-if
	// ctl bounds the evaluation, when Evaluate made it (evaluate_ctx.go);
	// nil else. lazy is set on a scenario of Evaluate with Only, whose
	// other declarations are computed when first read, under it.
	ctl  *control
	lazy *sync.Mutex
	// ready marks, by slot, the declarations a scenario of Evaluate with
	// Only had computed when it was returned: never written after, so
	// read without the lock.
	ready []bool
	// keepResults keeps each job's result rather than working it out
	// when read: set for the few jobs of Evaluate with Only.
	keepResults bool
	// cachePlain has this evaluation read plain numbers through plain,
	// as a point does: set by Evaluate, whose evaluations of one file
	// share the cache (sharedPlain).
	cachePlain bool
	// plainMade is the cache a loaded file without a what-if keeps for
	// the evaluations Evaluate makes of it (plain is nil for it).
	plainMade *plainNumbers
	// unc is the sampling state of a file with a distribution, shared
	// by the base evaluation and its samples' (uncertain.go); nil
	// without one.
	unc *sampled
	// samples is the reused state of the evaluation of an uncertain
	// file's samples (uncertain.go); nil for every other evaluation.
	samples *sampleBuffers
}

// sink collects the diagnostics of one evaluation or one judgement.
type sink struct {
	diags lang.Diagnostics
}

// errorAt records an error placed in the text (exit 2): an input out of
// range, a missing field.
func (k *sink) errorAt(pos, end lang.Position, msg string) *lang.Diagnostic {
	d := &lang.Diagnostic{Severity: lang.Error, Summary: msg, Pos: pos, End: end}
	k.diags = append(k.diags, d)
	return d
}

// runtimeErrorAt records an error found while computing a value (exit 3).
func (k *sink) runtimeErrorAt(pos, end lang.Position, msg string) *lang.Diagnostic {
	d := k.errorAt(pos, end, msg)
	d.Stage = lang.Running
	return d
}

type fieldValue struct {
	v    Value
	ok   bool
	done bool // computed
}

// Files returns the parsed files, the loaded one first, then its imports.
func (s *Scenario) Files() []*lang.File { return s.p.Files }

// Sources returns the text of every file read, for rendering
// diagnostics: a copy, which the caller owns and may change.
func (s *Scenario) Sources() lang.Sources { return copySources(s.p.Sources, nil) }

// copySources copies the texts of src that keep says to keep (all of them
// when keep is nil): what an entry point hands out shares no memory with
// the names of the tree.
func copySources(src lang.Sources, keep func(name string) bool) lang.Sources {
	out := make(lang.Sources, len(src))
	for name, text := range src {
		if keep == nil || keep(name) {
			out[name] = bytes.Clone(text)
		}
	}
	return out
}

// Diagnostics returns every diagnostic found while loading and
// evaluating, warnings included, in source order.
func (s *Scenario) Diagnostics() lang.Diagnostics {
	defer s.lock()()
	all := append(append(lang.Diagnostics(nil), s.p.Diags...), s.ev.diags...)
	all.Sort()
	return all
}

// Of returns what this evaluation computed for d.
func (s *Scenario) of(d *check.Decl) *declValues { return &s.vals[d.Slot] }

// Value is where a let's or param's value is kept: apart from vals, which
// every declaration has, so that a job does not carry room for one.
func (s *Scenario) value(d *check.Decl) *Value { return &s.values[d.ValueSlot] }
