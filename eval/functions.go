package eval

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/reliability"
)

// This file is the check and the run-time half of the power operator and
// of the numeric built-ins of builtins.go's table (language §11 and §17):
// sqrt, exp, log, ceil, floor and the reliability functions. The checker
// decides each call's
// dimension and builds an expr call of a function registered in the one
// expr configuration (compile.go); an error such a function meets while
// running names the argument at fault, which evaluate.go places in the
// text through compiled.args.

// argError is the error of a planning function: what went wrong, and
// where, as an index into the expression's compiled.args.
type argError struct {
	site int
	msg  string
}

func (e *argError) Error() string { return e.msg }

// argErrorAt reports the site and message of an expr run's error, when it
// is a planning function's.
func argErrorAt(err error) (int, string, bool) {
	var a *argError
	if errors.As(err, &a) {
		return a.site, a.msg, true
	}
	return 0, "", false
}

// power checks L ^ R. A count may be raised to any count; a dimensioned
// base needs a constant whole exponent, which multiplies its dimension.
func (cp *exprChecker) power(n *lang.Binary, lt, rt Type, l, r ast.Node) (Type, ast.Node) {
	node := &ast.BinaryNode{Operator: "**", Left: l, Right: r}
	if lt.Kind != Number {
		return cp.errorf(n.L, "^ needs numbers; this is a %s", lt)
	}
	if rt.Kind != Number || rt.Dim != lang.Count {
		return cp.errorf(n.R, "an exponent is a count; this is a %s", rt)
	}
	if lt.Dim == lang.Count {
		return CountType, node
	}
	k, ok := constNumber(n.R)
	if !ok || k != math.Trunc(k) {
		return cp.errorf(n.R, "the base is %s, so the exponent must be a constant whole number, such as 2", lt.Dim.Phrase())
	}
	var d lang.Dim
	for i, e := range lt.Dim {
		x := float64(e) * k
		if math.Abs(x) > lang.MaxExponent {
			return cp.errorf(n.R, "the exponent %s makes the dimension too large", lang.FormatNumber(k))
		}
		d[i] = int32(x)
	}
	return value.NumType(d), node
}

// constNumber is the value of a count written as a literal, possibly
// negated or in parentheses: 2, -1, (3).
func constNumber(e lang.Expr) (float64, bool) {
	switch n := unparen(e).(type) {
	case *lang.NumberLit:
		return n.Base(), n.Dim() == lang.Count
	case *lang.Unary:
		if n.Op == "-" {
			v, ok := constNumber(n.X)
			return -v, ok
		}
	}
	return 0, false
}

// numericCall checks a call of a formNumeric built-in: the count of its
// arguments, that each is a number its parameter accepts, and the
// result's dimension as the row derives it.
func (cp *exprChecker) numericCall(n *lang.Call, b *builtin) (Type, ast.Node) {
	fn := b.name
	if !b.fits(len(n.Args)) {
		return cp.errorf(n, "%s takes %s; write %s", fn, b.arityWords(), b.usage())
	}
	types := make([]Type, len(n.Args))
	args := make([]ast.Node, len(n.Args))
	for i, a := range n.Args {
		types[i], args[i] = cp.expr(a)
		if types[i].Kind != Invalid && types[i].Kind != Number {
			cp.errorf(a, "%s needs numbers; this is a %s", fn, types[i])
			types[i] = Type{}
		}
	}
	for _, at := range types {
		if at.Kind == Invalid {
			return Type{}, nil
		}
	}
	exact := false
	for i, a := range n.Args {
		p, d := b.param(i), types[i].Dim
		switch p.rule {
		case dimExact:
			exact = true
			if d != p.dim {
				cp.wrongArgument(n, i, p, types[i])
			}
		case dimCount:
			if d != lang.Count {
				return cp.errorf(a, "%s needs a count; a %s depends on its unit, so divide by one first (e.g. x / 1h)", fn, d)
			}
		case dimEven:
			for _, e := range d {
				if e%2 != 0 {
					return cp.errorf(a, "%s halves each exponent of its argument's dimension, but this is %s (%s), an odd power; take the root of a square, such as 2 * 5min * 24h", fn, d.Phrase(), d.BaseUnit())
				}
			}
		}
	}
	// A call with parameters of exact dimensions has no type once its
	// expression has an error, as it always has had.
	if exact && !cp.ok {
		return Type{}, nil
	}
	var t Type
	switch b.result {
	case resultFixed:
		t = value.NumType(b.dim)
	case resultHalf:
		var half lang.Dim
		for i, e := range types[0].Dim {
			half[i] = e / 2
		}
		t = value.NumType(half)
	case resultFirst:
		t = types[0]
	}
	if b.exprBuiltin {
		return t, &ast.BuiltinNode{Name: fn, Arguments: args}
	}
	return t, cp.runtimeCall("_"+fn, n, args)
}

// wrongArgument reports argument i of a built-in whose dimension is not
// the parameter's.
func (cp *exprChecker) wrongArgument(n *lang.Call, i int, want param, got Type) {
	a := n.Args[i]
	what := fmt.Sprintf("%s's argument %d, %s,", n.Func.Name, i+1, want.name)
	if lit, ok := unparen(a).(*lang.NumberLit); ok && lit.UnitOf() == nil {
		cp.errorf(a, "%s is %s; write its unit, e.g. %s", what, paramPhrase(want.dim), want.example)
		return
	}
	cp.errorf(a, "%s must be %s, not %s", what, paramPhrase(want.dim), got.Dim.Phrase())
}

// paramPhrase names a parameter's dimension: a throughput is "a rate per
// second", the others as Dim.Phrase has them.
func paramPhrase(d lang.Dim) string {
	if d == perSecond {
		return "a rate per second"
	}
	return d.Phrase()
}

// runtimeCall is an expr call of a function that may fail on its
// arguments' values: its last argument is the index in compiled.args of
// the call itself, which its arguments follow in order.
func (cp *exprChecker) runtimeCall(name string, n *lang.Call, args []ast.Node) ast.Node {
	site := cp.c.addSites(false, n)
	cp.c.addSites(false, n.Args...)
	return &ast.CallNode{Callee: &ast.IdentifierNode{Value: name},
		Arguments: append([]ast.Node{&ast.IntegerNode{Value: site}}, args...)}
}

// failAt is the error of a planning function about its argument i (0-based;
// -1 for the call as a whole) at call site site.
func failAt(site, i int, format string, a ...any) error {
	return &argError{site: site + 1 + i, msg: fmt.Sprintf(format, a...)}
}

// planningOptions register in the expr configuration the run-time half
// of each built-in that has one, as "_" and its name: each takes the
// call's site first, then its arguments.
func planningOptions() []expr.Option {
	var opts []expr.Option
	for _, b := range builtinTable {
		if b.run != nil {
			opts = append(opts, expr.Function("_"+b.name, b.call, b.exprTypes()...))
		}
	}
	return opts
}

// exprTypes are the Go signatures expr checks a call of b against: an int
// (the site), then a float64 per argument.
func (b *builtin) exprTypes() []any {
	site, num := reflect.TypeFor[int](), reflect.TypeFor[float64]()
	if b.repeats {
		f := reflect.FuncOf([]reflect.Type{site, reflect.SliceOf(num)}, []reflect.Type{num}, true)
		return []any{reflect.New(f).Interface()}
	}
	var out []any
	for k := len(b.params) - b.optional; k <= len(b.params); k++ {
		in := []reflect.Type{site}
		for range k {
			in = append(in, num)
		}
		out = append(out, reflect.New(reflect.FuncOf(in, []reflect.Type{num}, false)).Interface())
	}
	return out
}

// call runs b for expr, wording an error for the argument at fault.
func (b *builtin) call(p ...any) (any, error) {
	site := p[0].(int)
	args := make([]float64, len(p)-1)
	for i, x := range p[1:] {
		args[i] = x.(float64)
	}
	v, err := b.run(args)
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
func (b *builtin) argIndex(e *reliability.Error) int {
	if e.Arg == reliability.ArgNone {
		return -1
	}
	for i, p := range b.params {
		if p.arg == e.Arg {
			return e.Part*len(b.params) + i
		}
	}
	return -1
}

// reliabilityMessage words an engine error for the user, the value in a
// readable unit: "the MTBF of young_interval is 0 s; it must be above 0".
func reliabilityMessage(b *builtin, i int, e *reliability.Error) string {
	fn := b.name
	switch e.Kind {
	case reliability.NegativeGoodput:
		// Three significant digits say how far below 0; no exponent.
		r, _ := strconv.ParseFloat(strconv.FormatFloat(e.Value, 'g', 3, 64), 64)
		return fmt.Sprintf("runtime_goodput would be %s, below 0: failures come faster than the job keeps progress; checkpoint faster, restart faster or raise the MTBF", lang.FormatNumber(r))
	case reliability.NoFailures:
		return "fleet_mtbf: no part has a count above 0, so the system never fails"
	case reliability.Overflow:
		return fn + ": the result is too large to represent"
	}
	p := b.param(i)
	subject := p.name + " of " + fn
	if b.repeats {
		_, noun, _ := strings.Cut(p.noun, " ")
		subject = fmt.Sprintf("the %s of part %d of %s", noun, i/len(b.params)+1, fn)
	}
	value := lang.Format(e.Value, p.dim)
	if p.dim == perSecond {
		value = lang.FormatNumber(e.Value) + "/s"
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
