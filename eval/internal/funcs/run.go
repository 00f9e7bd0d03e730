package funcs

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/reliability"
)

// This file is the run-time half of the numeric built-ins of the table
// (table.go): the functions registered in the expr configuration, which
// run a built-in on its arguments and word an error it meets for the
// argument at fault.

// argError is the error of a planning function: what went wrong, and
// where, as an index into the call sites of the expression that called
// it (package eval's runtimeSites.args).
type argError struct {
	site int
	msg  string
}

func (e *argError) Error() string { return e.msg }

// ArgErrorAt reports the site and message of an expr run's error, when it
// is a planning function's.
func ArgErrorAt(err error) (int, string, bool) {
	var a *argError
	if errors.As(err, &a) {
		return a.site, a.msg, true
	}
	return 0, "", false
}

// failAt is the error of a planning function about its argument i (0-based;
// -1 for the call as a whole) at call site site.
func failAt(site, i int, format string, a ...any) error {
	return &argError{site: site + 1 + i, msg: fmt.Sprintf(format, a...)}
}

// PlanningOptions register in the expr configuration the run-time half
// of each built-in that has one, as "_" and its name: each takes the
// call's site first, then its arguments.
func PlanningOptions() []expr.Option {
	var opts []expr.Option
	for _, b := range Table() {
		if b.Run != nil {
			opts = append(opts, expr.Function("_"+b.Name, b.call, b.exprTypes()...))
		}
	}
	return opts
}

// exprTypes are the Go signatures expr checks a call of b against: an int
// (the site), then a float64 per argument.
func (b *Func) exprTypes() []any {
	site, num := reflect.TypeFor[int](), reflect.TypeFor[float64]()
	if b.Repeats {
		f := reflect.FuncOf([]reflect.Type{site, reflect.SliceOf(num)}, []reflect.Type{num}, true)
		return []any{reflect.New(f).Interface()}
	}
	var out []any
	for k := len(b.Params) - b.Optional; k <= len(b.Params); k++ {
		in := []reflect.Type{site}
		for range k {
			in = append(in, num)
		}
		out = append(out, reflect.New(reflect.FuncOf(in, []reflect.Type{num}, false)).Interface())
	}
	return out
}

// call runs b for expr, wording an error for the argument at fault.
func (b *Func) call(p ...any) (any, error) {
	site := p[0].(int)
	args := make([]float64, len(p)-1)
	for i, x := range p[1:] {
		args[i] = x.(float64)
	}
	v, err := b.Run(args)
	var af *argFault
	if errors.As(err, &af) {
		return nil, failAt(site, af.i, "%s", af.msg)
	}
	var re *reliability.Error
	if errors.As(err, &re) {
		i := b.argIndex(re)
		return nil, failAt(site, i, "%s", reliabilityMessage(b, i, re))
	}
	return v, err
}

// argIndex is the position among a call's arguments of the argument an
// engine error names, or -1 for the result.
func (b *Func) argIndex(e *reliability.Error) int {
	if e.Arg == reliability.ArgNone {
		return -1
	}
	for i, p := range b.Params {
		if p.arg == e.Arg {
			return e.Part*len(b.Params) + i
		}
	}
	return -1
}

// reliabilityMessage words an engine error for the user, the value in a
// readable unit: "the MTBF of young_interval is 0 s; it must be above 0".
func reliabilityMessage(b *Func, i int, e *reliability.Error) string {
	fn := b.Name
	switch e.Kind {
	case reliability.NegativeGoodput:
		// Three significant digits say how far below 0; no exponent.
		r, _ := strconv.ParseFloat(strconv.FormatFloat(e.Value, 'g', 3, 64), 64)
		return fmt.Sprintf("runtime_goodput would be %s, below 0: failures come faster than the job keeps progress; checkpoint faster, restart faster or raise the MTBF", units.FormatNumber(r))
	case reliability.NoFailures:
		return "fleet_mtbf: no part has a count above 0, so the system never fails"
	case reliability.Overflow:
		return fn + ": the result is too large to represent"
	}
	p := b.Param(i)
	subject := p.Name + " of " + fn
	if b.Repeats {
		_, noun, _ := strings.Cut(p.Noun, " ")
		subject = fmt.Sprintf("the %s of part %d of %s", noun, i/len(b.Params)+1, fn)
	}
	value := units.Format(e.Value, p.Dim)
	if p.Dim == PerSecond {
		value = units.FormatNumber(e.Value) + "/s"
	}
	switch e.Kind {
	case reliability.NotFinite:
		return subject + " is not a finite number"
	case reliability.NotPositive:
		return subject + " is " + value + "; it must be above 0"
	case reliability.Negative:
		return subject + " is " + value + "; it must not be negative"
	}
	return subject + " is " + value + ": " + strconv.Quote(e.Kind.String())
}
