package eval

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is what a service prepares once and uses per request:
// queries compiled once (Scenario.Query) and read against every
// evaluation of the same file, and typed values for settings (Quantity,
// Count, BoolValue), so that no text is formatted or parsed per request.

// Query is an expression compiled once against a file's program and read
// many times, against any evaluation of that program (the scenario it was
// prepared on, or one Evaluate or With made from it): the prepared form
// of Scenario.Value and Eval. It is safe for concurrent use.
type Query struct {
	p    *check.Program
	text string
	c    *check.Compiled
	unit *units.Unit // the unit Float reads in, when QueryIn gave one
	// decl and def are set for a query of one let or param (def nil) or
	// of one result of a job that the engine's figures give: what Read
	// reads directly, once the declaration is computed.
	decl *check.Decl
	def  *results.Def
	// last is the value last read and the scenario it was read from:
	// a scenario does not change once computed, so a read of the same
	// one again is a load and a compare.
	last atomic.Pointer[lastRead]
}

type lastRead struct {
	s *Scenario
	v Value
}

// direct sets decl and def when the query reads one value in place.
func (q *Query) direct() {
	c := q.c
	if c.Const != nil || c.Prog != nil || len(c.Refs) != 1 {
		return
	}
	r := c.Refs[0]
	switch {
	case r.Kind == check.RefLet:
		q.decl = r.Decl
	case r.Kind == check.RefJob && r.Second == nil:
		def, ok := results.ByName()[r.Field]
		if ok && (def.HasFigure() || resultRuns()[def.Index].calc != nil) {
			q.decl, q.def = r.Decl, def
		}
	}
}

// readDirect is Read of a query direct set up, false when the value must
// be computed or its error worded (Read's general way); cheap when it was
// read in place (a let, a job's kept result), not worth remembering.
func (q *Query) readDirect(s *Scenario) (_ Value, ok, cheap bool) {
	dv := s.of(q.decl)
	if dv.state != check.Done {
		return Value{}, false, false
	}
	if q.def == nil {
		return *s.value(q.decl), true, true
	}
	j := dv.job
	if j.kept == nil || q.def.NeedsRate && !j.in.Rate.Set {
		return Value{}, false, false // without a rate, Read's way words why
	}
	var v Value
	if calc := resultRuns()[q.def.Index].calc; calc != nil {
		var err error
		if v, err = calc(j); err != nil {
			return Value{}, false, false
		}
	} else {
		r := j.result()
		v = engineValue(q.def.Of(&r), q.def.Type)
	}
	if j.currency != "" {
		v.Type = check.InCurrency(v.Type, j.currency)
	}
	return v, true, j.kept != &solved
}

// Query compiles text, a dotted name ("llama2_70b.cost_per_useful_hour")
// or any expression Eval takes, for reading with Read. Its error is an
// *Error as Eval's is, quoting text under the name "<query>".
func (s *Scenario) Query(text string) (_ *Query, err error) {
	defer recoverInto(&err)
	c, err := s.compileText("<query>", text)
	if err != nil {
		return nil, err
	}
	q := &Query{p: s.p, text: text, c: c}
	q.direct()
	return q, nil
}

// QueryIn is Query for a number read in unit (a symbol Value.In takes:
// "h", "USD/h", "%"; "" for a count) by Float: the unit is checked against
// the query's type once, here.
func (s *Scenario) QueryIn(text, unit string) (*Query, error) {
	q, err := s.Query(text)
	if err != nil {
		return nil, err
	}
	t := q.c.Type
	if t.Kind != Number {
		return nil, fmt.Errorf("%s is %s, not a number", text, t.Phrase())
	}
	u := units.Unit{Symbol: "", Dim: units.Count, Factor: 1}
	if unit != "" {
		var ok bool
		if u, ok = units.Lookup(unit); !ok {
			return nil, fmt.Errorf("unknown unit %q", unit)
		}
	}
	if u.Dim != t.Dim {
		if unit == "" {
			return nil, fmt.Errorf("%s is %s: name its unit", text, t.Phrase())
		}
		return nil, fmt.Errorf("%s is %s, and %s measures %s", text, t.Phrase(), unit, u.Dim.Phrase())
	}
	q.unit = &u
	return q, nil
}

// String is the query's text.
func (q *Query) String() string { return q.text }

// Type is the type of what the query reads.
func (q *Query) Type() Type { return q.c.Type }

// Read evaluates the query against s, an evaluation of the program it was
// prepared on. A let's value, or the result of a job that Evaluate
// computed with Only (which keeps its results), is read in place without
// allocating. Any other job result is worked out again (a goodput engine
// run) and remembered, with the scenario, in one allocation: a read of
// the scenario the query last read is then a load and a compare. The error says why the value is undefined there (an
// *Error, as Eval's), or that s is of another file.
func (q *Query) Read(s *Scenario) (Value, error) {
	if d := q.decl; d != nil && q.def == nil && s.p == q.p && (s.lazy == nil || s.ready[d.Slot]) && s.of(d).state == check.Done {
		return *s.value(d), nil // a let or param computed: its value, copied once
	}
	if l := q.last.Load(); l != nil && l.s == s {
		return l.v, nil
	}
	if s.p != q.p {
		return Value{}, fmt.Errorf("query %q was prepared on another file", q.text)
	}
	if s.lazy != nil && (q.decl == nil || !s.ready[q.decl.Slot]) {
		s.lazy.Lock()
		defer s.lazy.Unlock()
	}
	if q.decl != nil {
		if v, ok, cheap := q.readDirect(s); ok {
			if !cheap {
				q.last.Store(&lastRead{s, v})
			}
			return v, nil
		}
	}
	v, err := q.read(s)
	if err == nil {
		q.last.Store(&lastRead{s, v})
	}
	return v, err
}

// ReadContext is Read bounded as Evaluate is, for a query that walks a
// sweep's points or evaluates the file again (a sweep's or a solve's
// query): it stops when ctx is done or a budget of opts (MaxEngineRuns,
// MaxPoints, MaxSamples; Only is ignored) runs out, with a *StopError.
func (q *Query) ReadContext(ctx context.Context, s *Scenario, opts ...EvalOption) (_ Value, err error) {
	if s.p != q.p {
		return Value{}, fmt.Errorf("query %q was prepared on another file", q.text)
	}
	ctl := newControl(ctx, configOf(opts))
	if ctl == nil {
		return q.Read(s)
	}
	defer ctl.detached.Store(true)
	if ctx.Err() != nil {
		return Value{}, ctl.stopError(ErrCanceled, "", 0)
	}
	if s.lazy != nil {
		s.lazy.Lock()
		defer s.lazy.Unlock()
	}
	// The read runs on a copy of the scenario that carries the bound:
	// the copy shares the scenario's values, which a whole scenario only
	// reads, and the points it walks inherit the bound.
	c := *s
	c.ctl = ctl
	return q.read(&c)
}

func (q *Query) read(s *Scenario) (_ Value, err error) {
	defer recoverInto(&err)
	var out sink
	v, ok := s.run(q.c, &out)
	if !ok {
		return Value{}, q.failed(s, out.diags)
	}
	return v, nil
}

// failed is the error of a read that could not be evaluated.
func (q *Query) failed(s *Scenario, diags lang.Diagnostics) error {
	if len(diags) == 0 {
		var out sink
		out.errorAt(lang.Position{}, lang.Position{}, q.text+" could not be evaluated: it reads a declaration that has errors")
		diags = out.diags
	}
	return &Error{Diagnostics: diags, Runtime: allRunning(diags), Sources: s.withText("<query>", q.text, diags)}
}

// Float reads a query of QueryIn against s in its unit; a query of Query
// reads a count, or the number in its base unit.
func (q *Query) Float(s *Scenario) (float64, error) {
	v, err := q.Read(s)
	if err != nil {
		return 0, err
	}
	if q.unit == nil || q.unit.Factor == 1 {
		return v.Num, nil
	}
	return units.ToUnit(v.Num, *q.unit), nil
}

// Quantity is the number v in the unit named, as a value: Quantity(3.10,
// "USD/h") is a price of 3.10 dollars an hour (held as USD per second),
// Quantity(40, "min") a duration, Quantity(85, "%") the count 0.85; ""
// is a count. The units are those a literal of the language takes.
func Quantity(v float64, unit string) (Value, error) {
	if unit == "" {
		return Count(v), nil
	}
	u, ok := units.Lookup(unit)
	if !ok {
		return Value{}, fmt.Errorf("unknown unit %q", unit)
	}
	return NumberValue(units.FromUnit(v, u), u.Dim), nil
}

// MustQuantity is Quantity for a unit known to be right (a constant of
// the caller's program): it panics on an unknown one.
func MustQuantity(v float64, unit string) Value {
	q, err := Quantity(v, unit)
	if err != nil {
		panic("eval.MustQuantity: " + err.Error())
	}
	return q
}

// Count is the count v (a plain number: 0.85, 128).
func Count(v float64) Value { return NumberValue(v, units.Count) }

// BoolValue is the bool b as a value.
func BoolValue(b bool) Value { return Value{Type: BoolType, Bool: b} }
