package check

import (
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// condCompiler checks a rule condition and translates it into the
// classification engine's condition IR: the check pass for rule
// conditions, with the same messages as exprChecker's. Bare names are the
// request's fields; a declaration's value (a let, a pool's field) is read
// as a constant: with read when compiling for an evaluation, else it sets
// dynamic.
type condCompiler struct {
	p       *Program
	read    ReadRef
	diags   *lang.Diagnostics
	dynamic *bool
	ok      bool
}

// checker is an expression checker reporting where cc does.
func (cc *condCompiler) checker() *exprChecker {
	return &exprChecker{p: cc.p, c: &Compiled{running: &running{}}, diags: cc.diags, ok: true}
}

// ReadRef is how the evaluator hands a rule condition compiled for one
// evaluation the value a reference reads: ok false when it could not be
// computed (and the evaluation has said why).
type ReadRef func(r *Ref) (value.Value, bool)

var cmpOps = map[string]priority.CmpOp{"<": priority.LT, "<=": priority.LE, ">": priority.GT, ">=": priority.GE, "==": priority.EQ, "!=": priority.NE}
var arithOps = map[string]priority.ArithOp{"+": priority.Add, "-": priority.Sub, "*": priority.Mul, "/": priority.Div}

func (cc *condCompiler) errorf(n lang.Expr, format string, args ...any) (any, value.Type) {
	cc.checker().errorf(n, format, args...)
	cc.ok = false
	return nil, value.Type{}
}

func (cc *condCompiler) cond(e lang.Expr) (priority.Cond, value.Type) {
	cc.ok = true
	x, t := cc.node(e)
	c, _ := x.(priority.Cond)
	return c, t
}

// Syntax returns a priority.NumExpr for numbers and a priority.Cond for
// conditions.
func (cc *condCompiler) node(e lang.Expr) (any, value.Type) {
	switch n := e.(type) {
	case *lang.Paren:
		return cc.node(n.X)
	case *lang.NumberLit:
		return priority.Const{Value: ToEngine(n.Base(), n.Dim())}, value.NumType(n.Dim())
	case *lang.BoolLit:
		return priority.Bool{Value: n.Value}, value.BoolType
	case *lang.Name:
		return cc.name(n)
	case *lang.Call:
		if n.Func.Name != "has" {
			return cc.errorf(n, "a rule condition can call has(FIELD) only; %s is not available here", n.Func.Name)
		}
		if len(n.Args) != 1 {
			return cc.errorf(n, "has takes one request field")
		}
		nm, ok := Unparen(n.Args[0]).(*lang.Name)
		if !ok || len(nm.Parts) != 1 {
			return cc.errorf(n.Args[0], "has takes a request field name, such as sla_deadline")
		}
		f, ok := priority.ParseField(nm.Parts[0].Name)
		if !ok {
			return cc.unknownField(nm)
		}
		return priority.Has{Field: f}, value.BoolType
	case *lang.Unary:
		x, t := cc.node(n.X)
		if t.Kind == value.Invalid {
			return nil, t
		}
		if n.Op == "not" {
			if t.Kind != value.Bool {
				return cc.errorf(n.X, "not needs true or false, not a %s", t)
			}
			return priority.Not{X: x.(priority.Cond)}, value.BoolType
		}
		if t.Kind != value.Number {
			return cc.errorf(n.X, "cannot negate a %s", t)
		}
		return priority.Neg{X: x.(priority.NumExpr)}, t
	case *lang.Binary:
		return cc.binary(n)
	}
	return cc.errorf(e, "this kind of expression is not available in a rule condition")
}

func (cc *condCompiler) binary(n *lang.Binary) (any, value.Type) {
	l, lt := cc.node(n.L)
	r, rt := cc.node(n.R)
	if lt.Kind == value.Invalid || rt.Kind == value.Invalid {
		return nil, value.Type{}
	}
	cp := cc.checker()
	switch n.Op {
	case "and", "or":
		if lt.Kind != value.Bool || rt.Kind != value.Bool {
			bad, bt := n.L, lt
			if lt.Kind == value.Bool {
				bad, bt = n.R, rt
			}
			return cc.errorf(bad, "%s needs true or false on both sides; this is a %s", n.Op, bt)
		}
		if n.Op == "and" {
			return priority.And{L: l.(priority.Cond), R: r.(priority.Cond)}, value.BoolType
		}
		return priority.Or{L: l.(priority.Cond), R: r.(priority.Cond)}, value.BoolType
	}
	if lt.Kind != value.Number || rt.Kind != value.Number {
		return cc.errorf(n, "%s needs numbers on both sides", n.Op)
	}
	if op, ok := arithOps[n.Op]; ok {
		t := lt
		switch n.Op {
		case "*":
			t = value.NumType(lt.Dim.Mul(rt.Dim))
		case "/":
			t = value.NumType(lt.Dim.Div(rt.Dim))
		default:
			if lt.Dim != rt.Dim {
				cp.mismatch(n, lt, rt, "cannot combine")
				cc.ok = false
				return nil, value.Type{}
			}
		}
		return priority.Arith{Op: op, L: l.(priority.NumExpr), R: r.(priority.NumExpr)}, t
	}
	if lt.Dim != rt.Dim {
		cp.mismatch(n, lt, rt, "cannot compare")
		cc.ok = false
		return nil, value.Type{}
	}
	return priority.Compare{Op: cmpOps[n.Op], L: l.(priority.NumExpr), R: r.(priority.NumExpr)}, value.BoolType
}

func (cc *condCompiler) name(n *lang.Name) (any, value.Type) {
	if len(n.Parts) == 1 {
		if f, ok := priority.ParseField(n.Parts[0].Name); ok {
			return priority.FieldRef{Field: f}, value.NumType(RequestFields[f.String()].Dim)
		}
	}
	if _, ok := cc.p.Decls[n.Parts[0].Name]; !ok {
		return cc.unknownField(n)
	}
	// Anything else must be a constant known once the file is evaluated:
	// a let, or a field of another declaration.
	cp := cc.checker()
	t, _ := cp.name(n)
	if !cp.ok || t.Kind == value.Invalid {
		cc.ok = false
		return nil, value.Type{}
	}
	if t.Kind != value.Number {
		return cc.errorf(n, "%s is a %s; a rule condition reads numbers", n.Path(), t)
	}
	if cc.read == nil {
		*cc.dynamic = true
		return priority.Const{}, t
	}
	v, ok := cc.read(cp.c.Refs[0])
	if !ok {
		cc.ok = false
		return nil, value.Type{}
	}
	return priority.Const{Value: ToEngine(v.Num, t.Dim)}, t
}

func (cc *condCompiler) unknownField(n *lang.Name) (any, value.Type) {
	var cands []string
	for f := range RequestFields {
		cands = append(cands, f)
	}
	for name, d := range cc.p.Decls {
		if d.Kind == DeclLet {
			cands = append(cands, name)
		}
	}
	msg := "unknown request field " + n.Path()
	if sug := suggest.Closest(n.Path(), cands); sug != "" {
		msg += "; did you mean " + sug + "?"
	} else {
		msg += "; the fields are " + joinSorted(RequestFields)
	}
	return cc.errorf(n, "%s", msg)
}

func joinSorted[V any](m map[string]V) string {
	ks := SortedKeys(m)
	out := ""
	for i, k := range ks {
		if i > 0 {
			out += ", "
		}
		out += k
	}
	return out
}
