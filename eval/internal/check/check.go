package check

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is the check pass for expressions: the type and dimension of
// every node is decided here (names.go resolves the names). While it walks,
// the checker builds the expr tree that compile.go turns into a program,
// so an expression is checked once and never printed back to text.

// scope says how bare names resolve: inside a job block's expect, a job
// result name (mpg, loss.program) means that job's result.
type scope struct {
	job *Decl
	// point, when set, is the sweep whose point bare result names read:
	// the condition of NAME.first(…) (query.go).
	point *Decl
	// sampled is set inside probability(…), whose condition holds or
	// not in each sample: an uncertain value may be compared there.
	// inStat is set inside a statistic or probability(…), whose reads
	// do not make the declaration that holds it uncertain.
	sampled, inStat bool
}

type refKind uint8

// The kinds of Ref: what is read.
const (
	RefLet refKind = iota
	RefJob
	RefPool
	RefRequest
	RefTrade
	RefClassify
	RefPlan // a group's figure, a query, a sweep point's or solve answer's field: plan computes it
	RefDist // a distribution written in place: its sample (uncertain.go)
	RefStat // a statistic of a tracked quantity, or probability(…) (uncertain.go)
)

// Ref is one value an expression reads: a let, a declaration's field, or a
// call on declarations (trade_ratio, classify), all computed in Go before
// the expression runs.
type Ref struct {
	// Kind is what the ref reads: a let, a job's or pool's field, a
	// trade ratio, a classification, or a planning declaration's
	// value.
	Kind refKind
	// Slot is the ref's index in the slice of ExprEnv for its
	// value's kind.
	Slot int32 // index in the expr environment's slice for its kind
	// Decl is the declaration read; Second is the other declaration
	// of trade_ratio(a, b) or classify(rules, request), nil
	// otherwise.
	Decl, Second *Decl
	// Field is the canonical name of the result or field read, when the
	// ref reads one.
	Field string // canonical result or field name
	// Text is the reference as written, for notes.
	Text string // as written, for notes
	// Node is the expression the ref was read from.
	Node lang.Expr
	// Type is the checked type of the value read.
	Type value.Type
	// Plan, for a RefPlan, says what the planning declaration
	// computes for it (GroupRef, SweepQuery, SolveRef and the other
	// *Ref types); nil otherwise.
	Plan planRef
	// Dist, for a RefDist, is the distribution; Stat, for a RefStat,
	// the statistic read; nil otherwise.
	Dist *DistSite
	Stat *StatRef
}

// Compiled is a checked expression. Literals, expressions of literals
// alone and single references are read directly; anything else runs as an
// expr program. It is immutable once built.
//
// A file holds one compiled per field and expression, so the parts only a
// program needs are kept apart (running): every constant shares one empty
// running, and its value is shared with every equal constant (konsts).
type Compiled struct {
	// Node is the expression compiled.
	Node lang.Expr
	// Type is its checked type.
	Type value.Type
	// Field is a block field's index in an evaluation's field
	// values; -1 for a field that needs none.
	Field int32 // a block field's index in Scenario.fieldVals; -1 for a field that needs none
	// Const is the value of an expression of literals alone, shared
	// with every equal constant; nil when it must be computed.
	Const *value.Value
	*running
}

// running is what a compiled expression reads and runs.
type running struct {
	// Refs are the values the expression reads, each at its slot.
	Refs []*Ref
	// Prog is the expr program; nil for a constant or a single ref
	// read directly.
	Prog *vm.Program
	// Sites are where the expression may fail while it runs (its
	// divisors); nil for one that cannot.
	Sites *runtimeSites // nil for an expression that cannot fail while it runs
	// counts of refs by kind of value, the sizes of the environment slices
	Nums, Bools, Strs int32
	// Uncertain: the expression reads a distribution, directly or
	// through a declaration, so that it varies from sample to sample.
	Uncertain bool
}

// constant is the running of every constant: empty, and never written.
var constant = &running{}

// runtimeSites are the parts of an expression a runtime error is placed
// at. Few expressions have any, so a compiled holds them by pointer.
type runtimeSites struct {
	Divs []lang.Expr // divisors, for reporting a division by zero
	Args []lang.Expr // calls of planning functions and their arguments (functions.go)
}

// addSites appends es to the divisors (div) or the call sites and returns
// the index of the first.
func (c *Compiled) addSites(div bool, es ...lang.Expr) int {
	if c.Sites == nil {
		c.Sites = new(runtimeSites)
	}
	l := &c.Sites.Args
	if div {
		l = &c.Sites.Divs
	}
	i := len(*l)
	*l = append(*l, es...)
	return i
}

// exprChecker checks one expression.
type exprChecker struct {
	p     *Program
	sc    scope
	c     *Compiled
	diags *lang.Diagnostics
	ok    bool
	// bare is set for an expression that is a name alone, which runs
	// without a program: its references need no expr nodes.
	bare bool
	// unc counts the uncertain refs read so far (uncertain.go).
	unc int
}

// checkExpr type-checks e in scope sc, reporting into diags; nil when it
// has errors (already reported).
func (p *Program) checkExpr(e lang.Expr, sc scope, diags *lang.Diagnostics) (*Compiled, ast.Node) {
	return p.checkExprAs(e, sc, diags, false)
}

// checkExprAs is checkExpr; bare says that e is a name alone, whose expr
// tree is not wanted (compile).
func (p *Program) checkExprAs(e lang.Expr, sc scope, diags *lang.Diagnostics, bare bool) (*Compiled, ast.Node) {
	c := &Compiled{Node: e, running: &running{}}
	cp := &exprChecker{p: p, sc: sc, c: c, diags: diags, ok: true, bare: bare}
	t, node := cp.expr(e)
	c.Type = t
	if !cp.ok || t.Kind == value.Invalid {
		return nil, nil
	}
	return c, node
}

// Unparen is e without the parentheses around it.
func Unparen(e lang.Expr) lang.Expr {
	for {
		p, ok := e.(*lang.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

func (cp *exprChecker) errorAt(pos, end lang.Position, msg string) {
	*cp.diags = append(*cp.diags, &lang.Diagnostic{Severity: lang.Error, Summary: msg, Pos: pos, End: end})
	cp.ok = false
}

func (cp *exprChecker) errorf(n lang.Expr, format string, args ...any) (value.Type, ast.Node) {
	pos, end := n.Span()
	cp.errorAt(pos, end, fmt.Sprintf(format, args...))
	return value.Type{}, nil
}

// addRef records what the expression reads and returns the expr node that
// reads it from the environment.
func (cp *exprChecker) addRef(r *Ref) ast.Node {
	if m := cp.textMode(r); m != nil {
		r = m // uncertain.go
	}
	for _, x := range cp.c.Refs {
		if x.Kind == r.Kind && x.Decl == r.Decl && x.Second == r.Second && x.Field == r.Field && x.Plan == nil && r.Plan == nil && x.Dist == r.Dist && x.Stat == r.Stat {
			if refUncertain(x) {
				cp.noteUncertain()
			}
			if cp.bare {
				return nil
			}
			return envSlot(x)
		}
	}
	switch r.Type.Kind {
	case value.Number:
		r.Slot = cp.c.Nums
		cp.c.Nums++
	case value.Bool:
		r.Slot = cp.c.Bools
		cp.c.Bools++
	default:
		r.Slot = cp.c.Strs
		cp.c.Strs++
	}
	cp.c.Refs = append(cp.c.Refs, r)
	if refUncertain(r) {
		cp.noteUncertain()
	}
	if cp.bare {
		return nil
	}
	return envSlot(r)
}

func (cp *exprChecker) expr(e lang.Expr) (value.Type, ast.Node) {
	switch n := e.(type) {
	case *lang.NumberLit:
		return value.NumType(n.Dim()), &ast.FloatNode{Value: n.Base()}
	case *lang.DateLit:
		if n.IsMonth() {
			return cp.errorf(n, "%s is a month, which only a month query reads (NAME.month(%s).RESULT); write %s-01 for its first day, or put spaces around - for a subtraction", n.Text, n.Text, n.Text)
		}
		v, _ := n.Instant()
		return value.NumType(units.Date), &ast.FloatNode{Value: v}
	case *lang.StringLit:
		return value.StringType, &ast.StringNode{Value: n.Value}
	case *lang.BoolLit:
		return value.BoolType, &ast.BoolNode{Value: n.Value}
	case *lang.Paren:
		return cp.expr(n.X)
	case *lang.Name:
		return cp.name(n)
	case *lang.Call:
		return cp.call(n)
	case *lang.Query:
		return cp.query(n) // query.go
	case *lang.Unary:
		return cp.unary(n)
	case *lang.Binary:
		return cp.binary(n)
	case *lang.Cond:
		ct, cn := cp.expr(n.If)
		tt, tn := cp.expr(n.Then)
		et, en := cp.expr(n.Else)
		if ct.Kind != value.Invalid && ct.Kind != value.Bool {
			return cp.errorf(n.If, "the condition of ?: must be true or false, not a %s", ct)
		}
		if tt.Kind != value.Invalid && et.Kind != value.Invalid && tt != et {
			return cp.errorf(n, "the branches of ?: differ: %s and %s", tt, et)
		}
		return tt, &ast.ConditionalNode{Ternary: true, Cond: cn, Exp1: tn, Exp2: en}
	}
	return cp.errorf(e, "unsupported expression")
}

func (cp *exprChecker) unary(n *lang.Unary) (value.Type, ast.Node) {
	t, x := cp.expr(n.X)
	if n.Op == "not" {
		if t.Kind != value.Invalid && t.Kind != value.Bool {
			return cp.errorf(n.X, "not needs true or false, not a %s", t)
		}
		return value.BoolType, &ast.UnaryNode{Operator: "not", Node: x}
	}
	if t.Kind != value.Invalid && t.Kind != value.Number {
		return cp.errorf(n.X, "cannot negate a %s", t)
	}
	if t.Dim == units.Date {
		return cp.errorf(n.X, "cannot negate a date; subtract two dates for a duration")
	}
	return t, &ast.UnaryNode{Operator: "-", Node: x}
}

var comparisons = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

func (cp *exprChecker) binary(n *lang.Binary) (value.Type, ast.Node) {
	if n.Op == "to" {
		return cp.dist(n, "to", []lang.Expr{n.L, n.R}) // uncertain.go
	}
	before := cp.unc
	lt, l := cp.expr(n.L)
	rt, r := cp.expr(n.R)
	if comparisons[n.Op] && cp.unc > before && !cp.sc.sampled && cp.ok {
		return cp.plainComparison(n)
	}
	if lt.Kind == value.Invalid || rt.Kind == value.Invalid {
		return value.Type{}, nil
	}
	// 0 is 0 in every unit: a bare zero added to, subtracted from or
	// compared with a quantity takes its dimension.
	if n.Op != "*" && n.Op != "/" && lt.Kind == value.Number && rt.Kind == value.Number {
		switch {
		case isBareZero(n.R):
			rt = lt
		case isBareZero(n.L):
			lt = rt
		}
	}
	node := ast.Node(&ast.BinaryNode{Operator: n.Op, Left: l, Right: r})
	switch n.Op {
	case "and", "or":
		if lt.Kind != value.Bool {
			return cp.errorf(n.L, "%s needs true or false on both sides; this is a %s", n.Op, lt)
		}
		if rt.Kind != value.Bool {
			return cp.errorf(n.R, "%s needs true or false on both sides; this is a %s", n.Op, rt)
		}
		return value.BoolType, node
	case "^":
		return cp.power(n, lt, rt, l, r)
	case "+", "-", "*", "/":
		if lt.Kind != value.Number {
			return cp.errorf(n.L, "%s needs numbers; this is a %s", n.Op, lt)
		}
		if rt.Kind != value.Number {
			return cp.errorf(n.R, "%s needs numbers; this is a %s", n.Op, rt)
		}
		if lt.Dim == units.Date || rt.Dim == units.Date {
			return cp.dateArithmetic(n, lt, rt, node)
		}
		switch n.Op {
		case "*":
			return value.NumType(lt.Dim.Mul(rt.Dim)), node
		case "/":
			// A division runs through _div, which reports a zero divisor
			// by its index in divs.
			node = &ast.CallNode{Callee: &ast.IdentifierNode{Value: divFunc},
				Arguments: []ast.Node{l, r, &ast.IntegerNode{Value: cp.c.addSites(true, n.R)}}}
			return value.NumType(lt.Dim.Div(rt.Dim)), node
		}
		if lt.Dim != rt.Dim {
			return cp.mismatch(n, lt, rt, "cannot "+map[string]string{"+": "add", "-": "subtract"}[n.Op])
		}
		return lt, node
	}
	// comparisons
	if lt.Kind == value.Number && rt.Kind == value.Number {
		if lt.Dim != rt.Dim {
			return cp.mismatch(n, lt, rt, "cannot compare")
		}
		return value.BoolType, node
	}
	if lt.Kind != rt.Kind {
		return cp.errorf(n, "cannot compare a %s with a %s", lt, rt)
	}
	if n.Op != "==" && n.Op != "!=" {
		return cp.errorf(n, "only numbers are ordered; a %s can only be compared with == or !=", lt)
	}
	return value.BoolType, node
}

// dateArithmetic types +, -, * or / with a date on one side: date −
// date is a duration, date ± duration a date, duration + date a date;
// nothing else is defined on a date.
func (cp *exprChecker) dateArithmetic(n *lang.Binary, lt, rt value.Type, node ast.Node) (value.Type, ast.Node) {
	dateL, dateR := lt.Dim == units.Date, rt.Dim == units.Date
	switch {
	case n.Op == "-" && dateL && dateR:
		return value.NumType(units.Duration), node
	case (n.Op == "+" || n.Op == "-") && dateL && rt.Dim == units.Duration,
		n.Op == "+" && dateR && lt.Dim == units.Duration:
		return value.NumType(units.Date), node
	case n.Op == "+" && dateL && dateR:
		return cp.errorf(n, "cannot add two dates; subtract them for the duration between them")
	case n.Op == "-" && dateR:
		return cp.errorf(n, "cannot subtract a date from %s; a date less a date is a duration, a date less a duration a date", lt.Dim.Phrase())
	case n.Op == "+" || n.Op == "-":
		other, at := rt, n.R
		if !dateL {
			other, at = lt, n.L
		}
		if lit, ok := Unparen(at).(*lang.NumberLit); ok && lit.UnitOf() == nil {
			return cp.errorf(at, "%s is a count; a date moves by a duration: write %sd or %sh", lit.Digits(), lit.Digits(), lit.Digits())
		}
		return cp.errorf(n, "cannot %s %s and a date; a date moves by a duration", map[string]string{"+": "add", "-": "subtract"}[n.Op], other.Dim.Phrase())
	}
	return cp.errorf(n, "cannot %s a date; subtract two dates for a duration", map[string]string{"*": "multiply", "/": "divide"}[n.Op])
}

// mismatch reports two dimensions that cannot meet, pointing at a bare
// number that lacks its unit when there is one.
func (cp *exprChecker) mismatch(n *lang.Binary, lt, rt value.Type, what string) (value.Type, ast.Node) {
	if lit, ok := Unparen(n.R).(*lang.NumberLit); ok && lit.UnitOf() == nil && rt.Dim == units.Count {
		return cp.bareNumber(n.R, lit, n.L, lt.Dim)
	}
	if lit, ok := Unparen(n.L).(*lang.NumberLit); ok && lit.UnitOf() == nil && lt.Dim == units.Count {
		return cp.bareNumber(n.L, lit, n.R, rt.Dim)
	}
	if lt.Dim == units.Price && isDollars(n.R) || rt.Dim == units.Price && isDollars(n.L) {
		at := n.R
		if rt.Dim == units.Price {
			at = n.L
		}
		lit := Unparen(at).(*lang.NumberLit)
		return cp.errorf(at, "%s is money, but %s is a price: write %s/h", lit.Text, describe(otherSide(n, at)), strings.TrimSpace(lit.Text))
	}
	lc, lok := lt.Dim.Currency()
	rc, rok := rt.Dim.Currency()
	if lok && rok && lc != rc && lt.Dim.Currencyless() == rt.Dim.Currencyless() {
		// The same quantity in two currencies: say how to convert.
		pos, end := n.Span()
		*cp.diags = append(*cp.diags, &lang.Diagnostic{Severity: lang.Error, Pos: pos, End: end,
			Summary: fmt.Sprintf("%s %s with %s: currencies do not mix", what, currencyPhrase(lt.Dim), currencyPhrase(rt.Dim)),
			Notes:   []string{"hint: " + ConversionHint(lc, rc)}})
		cp.ok = false
		return value.Type{}, nil
	}
	return cp.errorf(n, "%s %s with %s", what, lt.Dim.Phrase(), rt.Dim.Phrase())
}

// bareNumber reports lit, a number without a unit, where other (of
// dimension d) needs one.
func (cp *exprChecker) bareNumber(at lang.Expr, lit *lang.NumberLit, other lang.Expr, d units.Dim) (value.Type, ast.Node) {
	if _, named := Unparen(other).(*lang.Name); !named && d == units.Duration {
		return cp.errorf(at, "%s is a count; write %s", lit.Digits(), unitHint(other, lit.Digits(), d))
	}
	if u, _ := usualUnit(other, d); d == units.Duration && u.Symbol == "s" {
		return cp.errorf(at, "%s is a duration; write %s", describe(other), unitHint(other, lit.Digits(), d))
	}
	return cp.errorf(at, "%s is %s; write its unit, e.g. %s", describe(other), d.Phrase(), unitHint(other, lit.Digits(), d))
}

// isDollars reports a money literal written without /h.
func isDollars(e lang.Expr) bool {
	lit, ok := Unparen(e).(*lang.NumberLit)
	return ok && lit.UnitOf() != nil && lit.Dim() == units.Money
}

func otherSide(n *lang.Binary, e lang.Expr) lang.Expr {
	if e == n.L {
		return n.R
	}
	return n.L
}

// describe names an operand for a message: its name, or "this value".
func describe(e lang.Expr) string {
	if n, ok := Unparen(e).(*lang.Name); ok {
		return n.Path()
	}
	return "the other side"
}

// ExampleUnit writes a numeral with a typical unit of dimension d.
func ExampleUnit(digits string, d units.Dim) string {
	u := map[units.Dim]string{
		units.Duration: "ms", units.Data: "MB", units.Compute: "GFLOP",
		units.Money: " USD", units.Price: " USD/h",
	}[d]
	if u == "" {
		return digits + " " + d.BaseUnit()
	}
	return digits + u
}
