package eval

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/reliability"
)

// This file is the check and the run-time half of the power operator and
// of the planning functions (language §11 and §17): sqrt, exp, log, ceil,
// floor and the reliability functions. The checker decides each call's
// dimension and builds an expr call of a function registered in the one
// expr configuration (compile.go); an error such a function meets while
// running names the argument at fault, which evaluate.go places in the
// text through compiled.args.

// planningFuncs are the functions of this file, for "did you mean".
var planningFuncs = []string{"sqrt", "exp", "log", "ceil", "floor",
	"young_interval", "daly_interval", "runtime_goodput", "fleet_mtbf", "mfu"}

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
	return numType(d), node
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

// param is one parameter of a planning function: its dimension and its
// name in messages.
type param struct {
	dim     lang.Dim
	name    string
	example string // a value with its unit, for "write its unit"
}

var (
	mtbfParam    = param{lang.Duration, "the MTBF", "24h"}
	deltaParam   = param{lang.Duration, "the checkpoint cost", "5min"}
	restartParam = param{lang.Duration, "the restart time", "5min"}
	tauParam     = param{lang.Duration, "the checkpoint interval", "2h"}
	// perSecond is the dimension of a throughput such as 1e6 / 1s.
	perSecond = lang.Count.Div(lang.Duration)
)

// signatures are the parameters of the reliability functions;
// runtime_goodput's fourth is optional and fleet_mtbf repeats its pair.
var signatures = map[string][]param{
	"young_interval":  {deltaParam, mtbfParam},
	"daly_interval":   {deltaParam, mtbfParam},
	"runtime_goodput": {mtbfParam, deltaParam, restartParam, tauParam},
	"fleet_mtbf":      {{lang.Count, "a part count", "1000"}, {lang.Duration, "a part's MTBF", "20000h"}},
	"mfu": {{perSecond, "the token throughput", "1e6 / 1s"}, {lang.Count, "the parameter count", "70e9"},
		{lang.Count, "the device count", "1024"}, {lang.ComputeRate, "the peak of one device", "989 TFLOP/s"}},
}

// usage is how each planning function is called, for arity errors.
var usage = map[string]string{
	"sqrt": "sqrt(x)", "exp": "exp(x)", "log": "log(x)", "ceil": "ceil(x)", "floor": "floor(x)",
	"young_interval":  "young_interval(checkpoint_cost, mtbf)",
	"daly_interval":   "daly_interval(checkpoint_cost, mtbf)",
	"runtime_goodput": "runtime_goodput(mtbf, checkpoint_cost, restart) or runtime_goodput(mtbf, checkpoint_cost, restart, interval)",
	"fleet_mtbf":      "fleet_mtbf(count₁, mtbf₁, count₂, mtbf₂, …)",
	"mfu":             "mfu(tokens_per_s, params, devices, peak)",
}

// planningCall checks a call of one of planningFuncs; ok is false when fn
// is not one of them.
func (cp *exprChecker) planningCall(n *lang.Call) (t Type, node ast.Node, ok bool) {
	fn := n.Func.Name
	if _, known := usage[fn]; !known {
		return Type{}, nil, false
	}
	if !cp.arity(n) {
		return Type{}, nil, true
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
			return Type{}, nil, true
		}
	}
	switch fn {
	case "sqrt":
		d := types[0].Dim
		var half lang.Dim
		for i, e := range d {
			if e%2 != 0 {
				t, node := cp.errorf(n.Args[0], "sqrt halves each exponent of its argument's dimension, but this is %s (%s), an odd power; take the root of a square, such as 2 * 5min * 24h", d.Phrase(), d.BaseUnit())
				return t, node, true
			}
			half[i] = e / 2
		}
		return numType(half), cp.runtimeCall("_sqrt", n, args), true
	case "exp", "log", "ceil", "floor":
		if d := types[0].Dim; d != lang.Count {
			t, node := cp.errorf(n.Args[0], "%s needs a count; a %s depends on its unit, so divide by one first (e.g. x / 1h)", fn, d)
			return t, node, true
		}
		switch fn {
		case "exp":
			return CountType, &ast.CallNode{Callee: &ast.IdentifierNode{Value: "_exp"}, Arguments: args}, true
		case "log":
			return CountType, cp.runtimeCall("_log", n, args), true
		}
		return CountType, &ast.BuiltinNode{Name: fn, Arguments: args}, true
	}
	sig := signatures[fn]
	for i := range n.Args {
		want := sig[i%len(sig)]
		if fn != "fleet_mtbf" {
			want = sig[i]
		}
		if types[i].Dim != want.dim {
			cp.wrongArgument(n, i, want, types[i])
		}
	}
	if !cp.ok {
		return Type{}, nil, true
	}
	result := map[string]Type{"young_interval": numType(lang.Duration), "daly_interval": numType(lang.Duration),
		"fleet_mtbf": numType(lang.Duration), "runtime_goodput": CountType, "mfu": CountType}[fn]
	return result, cp.runtimeCall("_"+fn, n, args), true
}

// arity reports a planning function called with the wrong number of
// arguments.
func (cp *exprChecker) arity(n *lang.Call) bool {
	fn, k := n.Func.Name, len(n.Args)
	var fits bool
	switch fn {
	case "runtime_goodput":
		fits = k == 3 || k == 4
	case "fleet_mtbf":
		fits = k >= 2 && k%2 == 0
	default:
		if sig, ok := signatures[fn]; ok {
			fits = k == len(sig)
		} else {
			fits = k == 1
		}
	}
	if !fits {
		cp.errorf(n, "%s takes %s; write %s", fn, arityPhrase(fn), usage[fn])
	}
	return fits
}

func arityPhrase(fn string) string {
	switch fn {
	case "runtime_goodput":
		return "three or four arguments"
	case "fleet_mtbf":
		return "pairs of a count and an MTBF"
	}
	return map[int]string{1: "one argument", 2: "two arguments", 4: "four arguments"}[max(1, len(signatures[fn]))]
}

// wrongArgument reports argument i of a reliability function whose
// dimension is not the parameter's.
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

// planningOptions register the run-time half of the planning functions
// in the expr configuration. Each takes the call's site first.
func planningOptions() []expr.Option {
	unary := new(func(int, float64) float64)
	return []expr.Option{
		expr.Function("_sqrt", func(p ...any) (any, error) {
			site, x := p[0].(int), p[1].(float64)
			if x < 0 {
				return nil, failAt(site, 0, "sqrt of a negative number, %s", lang.FormatNumber(x))
			}
			return math.Sqrt(x), nil
		}, unary),
		expr.Function("_exp", func(p ...any) (any, error) { return math.Exp(p[0].(float64)), nil },
			new(func(float64) float64)),
		expr.Function("_log", func(p ...any) (any, error) {
			site, x := p[0].(int), p[1].(float64)
			if !(x > 0) {
				return nil, failAt(site, 0, "log of %s: log needs a number above 0", lang.FormatNumber(x))
			}
			return math.Log(x), nil
		}, unary),
		expr.Function("_young_interval", reliabilityFunc("young_interval", func(a []float64) (float64, error) {
			return reliability.YoungInterval(a[0], a[1])
		}), new(func(int, float64, float64) float64)),
		expr.Function("_daly_interval", reliabilityFunc("daly_interval", func(a []float64) (float64, error) {
			return reliability.DalyInterval(a[0], a[1])
		}), new(func(int, float64, float64) float64)),
		expr.Function("_runtime_goodput", reliabilityFunc("runtime_goodput", func(a []float64) (float64, error) {
			if len(a) == 3 {
				return reliability.RuntimeGoodputYoung(a[0], a[1], a[2])
			}
			return reliability.RuntimeGoodput(a[0], a[1], a[2], a[3])
		}), new(func(int, float64, float64, float64) float64), new(func(int, float64, float64, float64, float64) float64)),
		expr.Function("_fleet_mtbf", reliabilityFunc("fleet_mtbf", func(a []float64) (float64, error) {
			parts := make([]reliability.Part, len(a)/2)
			for i := range parts {
				parts[i] = reliability.Part{Count: a[2*i], MTBF: a[2*i+1]}
			}
			return reliability.FleetMTBF(parts...)
		}), new(func(int, ...float64) float64)),
		expr.Function("_mfu", reliabilityFunc("mfu", func(a []float64) (float64, error) {
			return reliability.MFU(a[0], a[1], a[2], a[3])
		}), new(func(int, float64, float64, float64, float64) float64)),
	}
}

// reliabilityFunc adapts a function of stdlib/reliability, whose values
// are gpl's base units (seconds, FLOP/s), to expr, wording its errors for
// the argument at fault.
func reliabilityFunc(fn string, f func([]float64) (float64, error)) func(...any) (any, error) {
	return func(p ...any) (any, error) {
		site := p[0].(int)
		args := make([]float64, len(p)-1)
		for i, x := range p[1:] {
			args[i] = x.(float64)
		}
		v, err := f(args)
		var re *reliability.Error
		if errors.As(err, &re) {
			i := argIndex(re)
			return nil, failAt(site, i, "%s", reliabilityMessage(fn, i, re))
		}
		return v, err
	}
}

// argIndex is the position among a call's arguments of the argument an
// engine error names, or -1 for the result.
func argIndex(e *reliability.Error) int {
	switch e.Arg {
	case reliability.ArgNone:
		return -1
	case reliability.ArgCount:
		return 2 * e.Part
	case reliability.ArgPartMTBF:
		return 2*e.Part + 1
	}
	order := map[reliability.Func][]reliability.Arg{
		reliability.FuncYoungInterval:  {reliability.ArgDelta, reliability.ArgMTBF},
		reliability.FuncDalyInterval:   {reliability.ArgDelta, reliability.ArgMTBF},
		reliability.FuncRuntimeGoodput: {reliability.ArgMTBF, reliability.ArgDelta, reliability.ArgRestart, reliability.ArgTau},
		reliability.FuncMFU:            {reliability.ArgTokensPerSecond, reliability.ArgParams, reliability.ArgDevices, reliability.ArgPeak},
	}[e.Func]
	for i, a := range order {
		if a == e.Arg {
			return i
		}
	}
	return -1
}

// reliabilityMessage words an engine error for the user, the value in a
// readable unit: "the MTBF of young_interval is 0 s; it must be above 0".
func reliabilityMessage(fn string, i int, e *reliability.Error) string {
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
	sig := signatures[fn]
	p := sig[i%len(sig)]
	subject := p.name + " of " + fn
	if fn == "fleet_mtbf" {
		subject = fmt.Sprintf("%s of part %d of fleet_mtbf", map[bool]string{true: "the count", false: "the MTBF"}[i%2 == 0], i/2+1)
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
