package eval

import (
	"errors"
	"fmt"
	"sync"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is what every what-if evaluation shares (language.md §15,
// §16, §21): the evaluation of the file at a point, with params replaced
// and factors above their ceilings allowed, and the failure of a point at
// which the file cannot be evaluated, which every output shows as a row
// saying why.

// PointFailure says why a point of a sweep, or a value a solve tried,
// cannot be evaluated: the first error the file (over a job, the job) has
// there, and where it is.
type PointFailure struct {
	// Message is the error as the file would report it with those
	// params: "runtime_goodput would be -0.45, below 0: …".
	Message string
	// Pos is where the error is; the zero Position when it has no place
	// in the text (an error of the goodput engine on the point's inputs).
	Pos, End lang.Position
}

// Error is the message with the place it is at: "… (plan.gpl:10:40)".
func (f *PointFailure) Error() string {
	if f.Pos.Line == 0 {
		return f.Message
	}
	return fmt.Sprintf("%s (%s:%d:%d)", f.Message, f.Pos.Filename, f.Pos.Line, f.Pos.Column)
}

// pointError is an error of a query or a read that met a point that
// cannot be evaluated, worded for it; fail says why and where, and at
// names the point ("ckpt_cost = 4 h"). The diagnostic that reports it
// points at the failure (placeFailure) rather than writing its place into
// the message, so that a view can name the place as it names files.
type pointError struct {
	msg  string
	fail *PointFailure
	at   string
}

func (e *pointError) Error() string { return e.msg }

// failedPoint is the error that what read the point pt of the sweep d
// (worded by msg, which names the point) met its failure.
func failedPoint(msg string, d *check.Decl, pt *point) error {
	return &pointError{msg: msg + ": " + pt.fail.Message, fail: pt.fail, at: describeAt(d, pt)}
}

// placeFailure points diag at where the file fails at the point err is
// about, when it is such an error and the failure has a place.
func placeFailure(diag *lang.Diagnostic, err error) {
	var pe *pointError
	if errors.As(err, &pe) {
		diag.Related = append(diag.Related, failureAt(pe.fail, pe.at)...)
	}
}

// failureAt is where f fails, labelled with the point, when it has a
// place in the text.
func failureAt(f *PointFailure, at string) []lang.Related {
	if f == nil || f.Pos.Line == 0 {
		return nil
	}
	return []lang.Related{{Pos: f.Pos, End: f.End, Label: "fails here at " + at}}
}

// plainNumbers keeps, for the evaluations of a file's what-if points, the
// values of the fields written as plain numbers, which the program does
// not keep (fieldValue reads them from where they are written): a sweep
// evaluates the file again at every point, and reading each number again
// each time was a third of a point's cost. One is shared by an evaluation
// and all its points, which may be walked concurrently.
type plainNumbers struct {
	mu sync.RWMutex
	m  map[*lang.Field]Value
}

// newPlainNumbers is the cache of an evaluation of p, when p has a
// what-if whose points would read it; nil otherwise.
func newPlainNumbers(p *check.Program) *plainNumbers {
	for _, d := range p.Order {
		if check.DeclKinds[d.Kind].WhatIf {
			return &plainNumbers{m: map[*lang.Field]Value{}}
		}
	}
	return nil
}

// get is the value of the field f, which the program does not keep: a
// plain number, or one that did not check (false).
func (c *plainNumbers) get(f *lang.Field) (Value, bool) {
	c.mu.RLock()
	v, ok := c.m[f]
	c.mu.RUnlock()
	if ok {
		return v, v.Type.Kind != value.Invalid
	}
	if n := check.PlainNumber(f.Value); n != nil {
		v = NumberValue(n.Base(), n.Dim())
	}
	c.mu.Lock()
	c.m[f] = v
	c.mu.Unlock()
	return v, v.Type.Kind != value.Invalid
}

// whatIfAt is a new evaluation of the file with params, for a point: its
// declarations are computed only when read (evalModel computes all of
// them), and a factor above its job's ceiling is allowed there.
func (s *Scenario) whatIfAt(params map[*check.Decl]Value) *Scenario {
	n := evaluatePoint(s.p, params)
	n.point, n.plain, n.ctl, n.unc = true, s.plain, s.ctl, s.unc // a distribution stands at its median there (uncertain.go)
	return n
}

// evalModel evaluates every declaration of the file but the what-ifs
// (sweeps and solves, each computed only when read), as the file would be
// with the point's params: nil, or why it cannot be.
func (s *Scenario) evalModel() *PointFailure {
	for _, d := range s.p.Order {
		if check.DeclKinds[d.Kind].WhatIf {
			continue
		}
		if !s.force(d) {
			return s.failedAt(d)
		}
	}
	return nil
}

// modelEvaluates reports whether every declaration of this evaluation's
// file but the what-ifs evaluates: a what-if over the file evaluates it
// again at each point, which would only repeat an error of its own (told
// already, at it).
func (s *Scenario) modelEvaluates() bool {
	ok := true
	for _, d := range s.p.Order {
		if !check.DeclKinds[d.Kind].WhatIf {
			ok = s.force(d) && ok
		}
	}
	return ok
}

// failedAt is why d could not be evaluated at the point: the first error
// the evaluation reported.
func (s *Scenario) failedAt(d *check.Decl) *PointFailure {
	for _, dg := range s.ev.diags {
		if dg.Severity == lang.Error {
			return &PointFailure{Message: dg.Summary, Pos: dg.Pos, End: dg.End}
		}
	}
	return &PointFailure{Message: check.DeclKinds[d.Kind].Noun + " " + d.Name.Name + " cannot be evaluated", Pos: d.Name.Start(), End: d.Name.End()}
}

// allowAboveCeiling is the what-if rule of a point: a factor above its
// ceiling is allowed (the ceiling rises to it, so that its lever is the
// point's own mpg), and the job is marked. Outside a point it does
// nothing, and the engine reports a ceiling below its factor.
func (s *Scenario) allowAboveCeiling(d *check.Decl, in *goodput.Inputs) {
	if !s.point {
		return
	}
	for f := range goodput.NumFactors {
		if c := in.Ceilings[f]; c.Set && in.Factors[f].Value > c.Value {
			in.Ceilings[f] = in.Factors[f]
			if s.raised == nil {
				s.raised = map[*check.Decl]*[goodput.NumFactors]bool{}
			}
			if s.raised[d] == nil {
				s.raised[d] = new([goodput.NumFactors]bool)
			}
			s.raised[d][f] = true
		}
	}
}

// aboveCeilings lists, as JOB.FACTOR, the factors the evaluation allowed
// above their ceilings, in the order of the file.
func (s *Scenario) aboveCeilings() []string {
	if len(s.raised) == 0 {
		return nil
	}
	var out []string
	for _, d := range s.p.Order {
		if r := s.raised[d]; r != nil {
			for f := range goodput.NumFactors {
				if r[f] {
					out = append(out, d.Name.Name+"."+results.FactorNames[f])
				}
			}
		}
	}
	return out
}
