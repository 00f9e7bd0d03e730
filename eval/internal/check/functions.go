package check

import (
	"fmt"
	"math"

	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is the check half of the power operator and
// of the numeric built-ins of builtins.go's table (language §11 and §17):
// sqrt, exp, log, ceil, floor and the reliability functions. The checker
// decides each call's
// dimension and builds an expr call of a function registered in the one
// expr configuration (compile.go); an error such a function meets while
// running names the argument at fault, which evaluate.go places in the
// text through compiled.args.

// power checks L ^ R. A count may be raised to any count; a dimensioned
// base needs a constant whole exponent, which multiplies its dimension.
func (cp *exprChecker) power(n *lang.Binary, lt, rt value.Type, l, r ast.Node) (value.Type, ast.Node) {
	node := &ast.BinaryNode{Operator: "**", Left: l, Right: r}
	if lt.Kind != value.Number {
		return cp.errorf(n.L, "^ needs numbers; this is a %s", lt)
	}
	if rt.Kind != value.Number || rt.Dim != units.Count {
		return cp.errorf(n.R, "an exponent is a count; this is a %s", rt)
	}
	if lt.Dim == units.Count {
		return value.CountType, node
	}
	if lt.Dim == units.Date {
		return cp.errorf(n.L, "cannot raise a date to a power; subtract two dates for a duration")
	}
	k, ok := constNumber(n.R)
	if !ok || k != math.Trunc(k) {
		return cp.errorf(n.R, "the base is %s, so the exponent must be a constant whole number, such as 2", lt.Dim.Phrase())
	}
	var d units.Dim
	for i, e := range lt.Dim {
		x := float64(e) * k
		if math.Abs(x) > units.MaxExponent {
			return cp.errorf(n.R, "the exponent %s makes the dimension too large", units.FormatNumber(k))
		}
		d[i] = int32(x)
	}
	return value.NumType(d), node
}

// constNumber is the value of a count written as a literal, possibly
// negated or in parentheses: 2, -1, (3).
func constNumber(e lang.Expr) (float64, bool) {
	switch n := Unparen(e).(type) {
	case *lang.NumberLit:
		return n.Base(), n.Dim() == units.Count
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
func (cp *exprChecker) numericCall(n *lang.Call, b *funcs.Func) (value.Type, ast.Node) {
	fn := b.Name
	if !b.Fits(len(n.Args)) {
		return cp.errorf(n, "%s takes %s; write %s", fn, b.ArityWords(), b.Usage())
	}
	types := make([]value.Type, len(n.Args))
	args := make([]ast.Node, len(n.Args))
	for i, a := range n.Args {
		types[i], args[i] = cp.expr(a)
		if types[i].Kind != value.Invalid && types[i].Kind != value.Number {
			cp.errorf(a, "%s needs numbers; this is a %s", fn, types[i])
			types[i] = value.Type{}
		}
	}
	for _, at := range types {
		if at.Kind == value.Invalid {
			return value.Type{}, nil
		}
	}
	exact := false
	for i, a := range n.Args {
		p, d := b.Param(i), types[i].Dim
		switch p.Rule {
		case funcs.DimExact:
			exact = true
			if d != p.Dim {
				cp.wrongArgument(n, i, p, types[i])
			}
		case funcs.DimCount:
			if d != units.Count {
				return cp.errorf(a, "%s needs a count; a %s depends on its unit, so divide by one first (e.g. x / 1h)", fn, d)
			}
		case funcs.DimEven:
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
		return value.Type{}, nil
	}
	var t value.Type
	switch b.Result {
	case funcs.ResultFixed:
		t = value.NumType(b.Dim)
	case funcs.ResultHalf:
		var half units.Dim
		for i, e := range types[0].Dim {
			half[i] = e / 2
		}
		t = value.NumType(half)
	case funcs.ResultFirst:
		t = types[0]
	}
	if b.ExprBuiltin {
		return t, &ast.BuiltinNode{Name: fn, Arguments: args}
	}
	return t, cp.runtimeCall("_"+fn, n, args)
}

// wrongArgument reports argument i of a built-in whose dimension is not
// the parameter's.
func (cp *exprChecker) wrongArgument(n *lang.Call, i int, want funcs.Param, got value.Type) {
	a := n.Args[i]
	what := fmt.Sprintf("%s's argument %d, %s,", n.Func.Name, i+1, want.Name)
	if lit, ok := Unparen(a).(*lang.NumberLit); ok && lit.UnitOf() == nil {
		cp.errorf(a, "%s is %s; write its unit, e.g. %s", what, paramPhrase(want.Dim), want.Example)
		return
	}
	cp.errorf(a, "%s must be %s, not %s", what, paramPhrase(want.Dim), got.Dim.Phrase())
}

// paramPhrase names a parameter's dimension: a throughput is "a rate per
// second", the others as Dim.Phrase has them.
func paramPhrase(d units.Dim) string {
	if d == funcs.PerSecond {
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
