package eval

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/gpl-lang/gpl/lang"
)

// scope says how bare names resolve: inside a job block's expect, a job
// result name (mpg, loss.program) means that job's result.
type scope struct {
	job *decl
}

type refKind uint8

const (
	refLet refKind = iota
	refJob
	refPool
	refRequest
	refTrade
	refClassify
)

// ref is one value an expression reads: a let, a declaration's field, or a
// call on declarations (trade_ratio, classify), all computed in Go before
// the expression runs.
type ref struct {
	kind  refKind
	d, d2 *decl
	field string // canonical result or field name
	text  string // as written, for notes
	node  lang.Expr
	typ   Type
}

// compiled is a checked expression. Literals and single references are
// read directly; anything with an operator is compiled once by expr and
// run by its VM.
type compiled struct {
	node  lang.Expr
	typ   Type
	refs  []*ref
	konst *Value
	prog  *vm.Program
	divs  []lang.Expr // divisors, for reporting a division by zero
	// divZero is the 1-based index in divs of a divisor that was zero on
	// the last run.
	divZero int
}

type compiler struct {
	// emitting is set on the second walk of an expression that needs a
	// program: only then is expr source written.
	emitting bool
	s        *Scenario
	sc       scope
	c        *compiled
	src      strings.Builder
	ok       bool
}

// compile type-checks e and prepares it to run; nil when it has errors
// (already reported).
func (s *Scenario) compile(e lang.Expr, sc scope) *compiled {
	c, cp := s.check(e, sc)
	if c == nil {
		return nil
	}
	switch n := unparen(e).(type) {
	case *lang.NumberLit:
		v := NumberValue(n.Base(), n.Dim())
		c.konst = &v
		return c
	case *lang.StringLit:
		v := Value{Type: StringType, Str: n.Value}
		c.konst = &v
		return c
	case *lang.BoolLit:
		v := Value{Type: BoolType, Bool: n.Value}
		c.konst = &v
		return c
	}
	if n, single := unparen(e).(*lang.Name); single || isDeclCall(e) {
		if len(c.refs) == 0 { // a class name
			v := Value{Type: ClassType, Str: n.Parts[0].Name}
			c.konst = &v
		}
		return c
	}
	// A compound expression: walk it again, writing expr source.
	c.refs, c.divs = nil, nil
	cp = &compiler{s: s, sc: sc, c: c, ok: true, emitting: true}
	cp.expr(e)
	env := map[string]any{}
	for i, r := range c.refs {
		env["v"+strconv.Itoa(i)] = Value{Type: r.typ}.goValue()
	}
	prog, err := expr.Compile(cp.src.String(), expr.Env(env),
		expr.Function("_div", func(p ...any) (any, error) {
			a, b, i := p[0].(float64), p[1].(float64), p[2].(int)
			if b == 0 {
				c.divZero = i + 1
				return nil, fmt.Errorf("division by zero")
			}
			return a / b, nil
		}, new(func(float64, float64, int) float64)))
	if err != nil {
		pos, end := e.Span()
		s.errorAt(pos, end, "cannot compile expression: "+err.Error())
		return nil
	}
	c.prog = prog
	return c
}

// isDeclCall reports a call that is computed in Go as one ref.
func isDeclCall(e lang.Expr) bool {
	c, ok := unparen(e).(*lang.Call)
	return ok && (c.Func.Name == "trade_ratio" || c.Func.Name == "classify")
}

// check type-checks e without preparing it to run.
func (s *Scenario) check(e lang.Expr, sc scope) (*compiled, *compiler) {
	c := &compiled{node: e}
	cp := &compiler{s: s, sc: sc, c: c, ok: true}
	c.typ = cp.expr(e)
	if !cp.ok || c.typ.Kind == Invalid {
		return nil, nil
	}
	return c, cp
}

func unparen(e lang.Expr) lang.Expr {
	for {
		p, ok := e.(*lang.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// run evaluates a compiled expression; errors are reported at their
// position and ok is false.
func (s *Scenario) run(c *compiled) (Value, bool) {
	if c.konst != nil {
		return *c.konst, true
	}
	vals := make([]Value, len(c.refs))
	for i, r := range c.refs {
		v, ok := s.refValue(r)
		if !ok {
			return Value{}, false
		}
		vals[i] = v
	}
	if c.prog == nil {
		return vals[0], true
	}
	env := make(map[string]any, len(vals))
	for i, v := range vals {
		env["v"+strconv.Itoa(i)] = v.goValue()
	}
	c.divZero = 0
	out, err := expr.Run(c.prog, env)
	if c.divZero > 0 {
		pos, end := c.divs[c.divZero-1].Span()
		s.runtimeErrorAt(pos, end, "division by zero")
		return Value{}, false
	}
	pos, end := c.node.Span()
	if err != nil {
		s.runtimeErrorAt(pos, end, err.Error())
		return Value{}, false
	}
	v, ok := fromGo(out, c.typ)
	if !ok {
		s.runtimeErrorAt(pos, end, fmt.Sprintf("expected a %s, got %v", c.typ, out))
		return Value{}, false
	}
	if c.typ.Kind == Number && (math.IsInf(v.Num, 0) || math.IsNaN(v.Num)) {
		s.runtimeErrorAt(pos, end, "the result is not a finite number")
		return Value{}, false
	}
	return v, true
}

func (cp *compiler) write(s string) {
	if cp.emitting {
		cp.src.WriteString(s)
	}
}

func (cp *compiler) errorf(n lang.Expr, format string, args ...any) Type {
	pos, end := n.Span()
	cp.s.errorAt(pos, end, fmt.Sprintf(format, args...))
	cp.ok = false
	return Type{}
}

func (cp *compiler) addRef(r *ref) {
	i := 0
	for ; i < len(cp.c.refs); i++ {
		x := cp.c.refs[i]
		if x.kind == r.kind && x.d == r.d && x.d2 == r.d2 && x.field == r.field {
			break
		}
	}
	if i == len(cp.c.refs) {
		cp.c.refs = append(cp.c.refs, r)
	}
	cp.write("v" + strconv.Itoa(i))
}

func (cp *compiler) expr(e lang.Expr) Type {
	switch n := e.(type) {
	case *lang.NumberLit:
		if cp.emitting {
			cp.write(formatFloat(n.Base()))
		}
		return numType(n.Dim())
	case *lang.StringLit:
		cp.write(strconv.Quote(n.Value))
		return StringType
	case *lang.BoolLit:
		cp.write(strconv.FormatBool(n.Value))
		return BoolType
	case *lang.Paren:
		cp.write("(")
		t := cp.expr(n.X)
		cp.write(")")
		return t
	case *lang.Name:
		return cp.name(n)
	case *lang.Call:
		return cp.call(n)
	case *lang.Unary:
		return cp.unary(n)
	case *lang.Binary:
		return cp.binary(n)
	case *lang.Cond:
		cp.write("(")
		ct := cp.expr(n.If)
		cp.write(" ? ")
		tt := cp.expr(n.Then)
		cp.write(" : ")
		et := cp.expr(n.Else)
		cp.write(")")
		if ct.Kind != Invalid && ct.Kind != Bool {
			return cp.errorf(n.If, "the condition of ?: must be true or false, not a %s", ct)
		}
		if tt.Kind != Invalid && et.Kind != Invalid && tt != et {
			return cp.errorf(n, "the branches of ?: differ: %s and %s", tt, et)
		}
		return tt
	}
	return cp.errorf(e, "unsupported expression")
}

func formatFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

func (cp *compiler) unary(n *lang.Unary) Type {
	if n.Op == "not" {
		cp.write("(not ")
		t := cp.expr(n.X)
		cp.write(")")
		if t.Kind != Invalid && t.Kind != Bool {
			return cp.errorf(n.X, "not needs true or false, not a %s", t)
		}
		return BoolType
	}
	cp.write("(-")
	t := cp.expr(n.X)
	cp.write(")")
	if t.Kind != Invalid && t.Kind != Number {
		return cp.errorf(n.X, "cannot negate a %s", t)
	}
	return t
}

var comparisons = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

func (cp *compiler) binary(n *lang.Binary) Type {
	cp.write("(")
	if n.Op == "/" {
		cp.write("_div(")
	}
	lt := cp.expr(n.L)
	switch n.Op {
	case "/":
		cp.write(", ")
	case "and", "or":
		cp.write(" " + n.Op + " ")
	default:
		cp.write(" " + n.Op + " ")
	}
	rt := cp.expr(n.R)
	if n.Op == "/" {
		cp.write(", " + strconv.Itoa(len(cp.c.divs)) + ")")
		cp.c.divs = append(cp.c.divs, n.R)
	}
	cp.write(")")
	if lt.Kind == Invalid || rt.Kind == Invalid {
		return Type{}
	}
	switch n.Op {
	case "and", "or":
		if lt.Kind != Bool {
			return cp.errorf(n.L, "%s needs true or false on both sides; this is a %s", n.Op, lt)
		}
		if rt.Kind != Bool {
			return cp.errorf(n.R, "%s needs true or false on both sides; this is a %s", n.Op, rt)
		}
		return BoolType
	case "+", "-", "*", "/":
		if lt.Kind != Number {
			return cp.errorf(n.L, "%s needs numbers; this is a %s", n.Op, lt)
		}
		if rt.Kind != Number {
			return cp.errorf(n.R, "%s needs numbers; this is a %s", n.Op, rt)
		}
		switch n.Op {
		case "*":
			return numType(lt.Dim.Mul(rt.Dim))
		case "/":
			return numType(lt.Dim.Div(rt.Dim))
		}
		if lt.Dim != rt.Dim {
			return cp.mismatch(n, lt, rt, "cannot "+map[string]string{"+": "add", "-": "subtract"}[n.Op])
		}
		return lt
	}
	// comparisons
	if lt.Kind == Number && rt.Kind == Number {
		if lt.Dim != rt.Dim {
			return cp.mismatch(n, lt, rt, "cannot compare")
		}
		return BoolType
	}
	if lt.Kind != rt.Kind {
		return cp.errorf(n, "cannot compare a %s with a %s", lt, rt)
	}
	if n.Op != "==" && n.Op != "!=" {
		return cp.errorf(n, "only numbers are ordered; a %s can only be compared with == or !=", lt)
	}
	return BoolType
}

// mismatch reports two dimensions that cannot meet, pointing at a bare
// number that lacks its unit when there is one.
func (cp *compiler) mismatch(n *lang.Binary, lt, rt Type, what string) Type {
	if lit, ok := unparen(n.R).(*lang.NumberLit); ok && lit.Unit == nil {
		return cp.errorf(n.R, "%s is %s; write its unit, e.g. %s", describe(n.L), lt.Dim.Phrase(), exampleUnit(lit.Digits, lt.Dim))
	}
	if lit, ok := unparen(n.L).(*lang.NumberLit); ok && lit.Unit == nil {
		return cp.errorf(n.L, "%s is %s; write its unit, e.g. %s", describe(n.R), rt.Dim.Phrase(), exampleUnit(lit.Digits, rt.Dim))
	}
	return cp.errorf(n, "%s %s with %s", what, lt.Dim.Phrase(), rt.Dim.Phrase())
}

// describe names an operand for a message: its name, or "this value".
func describe(e lang.Expr) string {
	if n, ok := unparen(e).(*lang.Name); ok {
		return n.Path()
	}
	return "the other side"
}

// exampleUnit writes a numeral with a typical unit of dimension d.
func exampleUnit(digits string, d lang.Dim) string {
	u := map[lang.Dim]string{
		lang.Duration: "ms", lang.Data: "MB", lang.Compute: "GFLOP",
		lang.Money: " USD", lang.Price: " USD/h",
	}[d]
	if u == "" {
		return digits + " " + d.BaseUnit()
	}
	return digits + u
}
