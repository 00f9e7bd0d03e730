package check

import (
	"math"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is the compile pass for expressions: a checked expression
// becomes a constant, a direct read of one ref, or an expr program built
// from the tree the checker made. expr is configured once per process.

// ExprEnv is what an expr program reads: the values of its refs, by kind,
// at the slots the checker gave them.
type ExprEnv struct {
	// Numbers are the values of the number refs, in base units.
	Numbers []float64 `expr:"n"`
	// Bools are the values of the bool refs.
	Bools []bool `expr:"b"`
	// Strings are the values of the class and string refs.
	Strings []string `expr:"s"`
}

// divFunc divides, reporting a zero divisor by its index in the
// expression's divs.
const divFunc = "_div"

// ZeroDivisor is the error of _div: which divisor of the expression was 0.
type ZeroDivisor struct {
	// Index is the divisor's index among the expression's divisions.
	Index int
}

// Error says "division by zero".
func (e *ZeroDivisor) Error() string { return "division by zero" }

// exprConfig is the one expr configuration every program is compiled with.
var exprConfig = sync.OnceValue(func() *conf.Config {
	c := conf.CreateNew()
	for _, op := range append([]expr.Option{
		expr.Env(ExprEnv{}),
		expr.Function(divFunc, func(p ...any) (any, error) {
			a, b, i := p[0].(float64), p[1].(float64), p[2].(int)
			if b == 0 {
				return nil, &ZeroDivisor{i}
			}
			return a / b, nil
		}, new(func(float64, float64, int) float64)),
	}, funcs.PlanningOptions()...) {
		op(c)
	}
	c.Check()
	return c
})

// envSlot is the expr node that reads r's value.
func envSlot(r *Ref) ast.Node {
	name := "s"
	switch r.Type.Kind {
	case value.Number:
		name = "n"
	case value.Bool:
		name = "b"
	}
	return &ast.MemberNode{Node: &ast.IdentifierNode{Value: name}, Property: &ast.IntegerNode{Value: int(r.Slot)}}
}

// compile checks e and prepares it to run; nil when it has errors (already
// reported into diags).
func (p *Program) compile(e lang.Expr, sc scope, diags *lang.Diagnostics) *Compiled {
	if n, ok := Unparen(e).(*lang.NumberLit); ok {
		// Most fields of a file are a number: nothing to check, and its
		// compiled is shared with every equal one.
		return p.literal(e, value.NumberValue(n.BaseDim()))
	}
	_, bare := Unparen(e).(*lang.Name)
	c, node := p.checkExprAs(e, sc, diags, bare)
	if c == nil {
		return nil
	}
	switch n := Unparen(e).(type) {
	case *lang.NumberLit:
		return p.constant(c, value.NumberValue(n.Base(), n.Dim()))
	case *lang.DateLit:
		v, _ := n.Instant()
		return p.constant(c, value.NumberValue(v, units.Date))
	case *lang.StringLit:
		return p.constant(c, value.Value{Type: value.StringType, Str: n.Value})
	case *lang.BoolLit:
		return p.constant(c, value.Value{Type: value.BoolType, Bool: n.Value})
	case *lang.Name:
		if len(c.Refs) == 0 { // a class name
			return p.constant(c, value.Value{Type: value.ClassType, Str: n.Parts[0].Name})
		}
		return c
	}
	if isDeclCall(e) {
		return c
	}
	prog, err := compileTree(node)
	if err != nil {
		pos, end := e.Span()
		*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Summary: "cannot compile expression: " + err.Error(), Pos: pos, End: end})
		return nil
	}
	c.Prog = prog
	if len(c.Refs) == 0 && c.Sites == nil {
		// Literals alone (0.9 * 0.99, 720h * 2): the value is the same in
		// every evaluation. One that fails stays a program, so that its
		// error is reported where it runs, as any runtime error is.
		res, err := RunProgram(c, ExprEnv{})
		if v, ok := value.FromGo(res, c.Type); err == nil && ok && Finite(v) {
			return p.constant(c, v)
		}
	}
	return c
}

// literal is the compiled of the constant v, written as e: while the
// program is checked, one per value, shared by every use of it, so that a
// file of many equal numbers compiles each once. It is never modified
// (its field is -1: a field of that value needs no slot), and its node,
// the first such literal, places no error: a constant cannot fail.
func (p *Program) literal(e lang.Expr, v value.Value) *Compiled {
	if c, ok := p.literals[v]; ok {
		return c
	}
	c := p.constant(&Compiled{Node: e, Type: v.Type, Field: -1}, v)
	if p.literals != nil {
		p.literals[v] = c
	}
	return c
}

// constant makes c the constant v, sharing v with every equal constant of
// the program while it is checked.
func (p *Program) constant(c *Compiled, v value.Value) *Compiled {
	k, ok := p.konsts[v]
	if !ok {
		k = &v
		if p.konsts != nil {
			p.konsts[v] = k
		}
	}
	c.Const, c.running = k, constant
	return c
}

// compileMu serialises compiles: expr's checker fills caches inside the
// shared configuration's environment type as it goes. Programs, once
// compiled, are immutable and run concurrently.
var compileMu sync.Mutex

// compileTree runs expr's checker, optimizer and compiler on a tree.
func compileTree(node ast.Node) (prog *vm.Program, err error) {
	compileMu.Lock()
	defer compileMu.Unlock()
	config := exprConfig()
	tree := &parser.Tree{Node: node}
	if _, err := checker.Check(tree, config); err != nil {
		return nil, err
	}
	if err := optimizer.Optimize(&tree.Node, config); err != nil {
		return nil, err
	}
	prog, err = compiler.Compile(tree, config)
	if err != nil {
		return nil, err
	}
	// The program keeps the tree it was compiled from, with every node's
	// type, for expr's own use; running needs only the bytecode. Detach
	// each node from its parent so the tree below the root can be
	// collected: most of a compiled program's memory.
	ast.Walk(&tree.Node, detach{})
	return prog, nil
}

// detach is an ast.Visitor that cuts every node from its parent. Walk
// visits a node after its children, through the slot its parent holds it
// in.
type detach struct{}

func (detach) Visit(n *ast.Node) { *n = nil }

// isDeclCall reports a call that is computed in Go as one ref.
func isDeclCall(e lang.Expr) bool {
	if c, ok := Unparen(e).(*lang.Call); ok {
		b := funcs.ByName()[c.Func.Name]
		return b != nil && b.Form == funcs.FormDecl
	}
	_, query := Unparen(e).(*lang.Query)
	return query
}

// RunProgram runs c's program on env, on a virtual machine of the pool:
// a what-if evaluates the file's expressions again at every point, and a
// machine of its own each run was most of what a point allocated.
func RunProgram(c *Compiled, env ExprEnv) (any, error) {
	m := machines.Get().(*vm.VM)
	out, err := m.Run(c.Prog, env)
	machines.Put(m)
	return out, err
}

// machines are the expr virtual machines RunProgram reuses; one runs one
// program at a time.
var machines = sync.Pool{New: func() any { return new(vm.VM) }}

// CompileOutside compiles an expression given after the program was
// built (Eval, the REPL). Every declaration has been checked by then, so
// it only reads the program and is safe for concurrent use.
func (p *Program) CompileOutside(e lang.Expr, diags *lang.Diagnostics) *Compiled {
	return p.compile(e, scope{}, diags)
}

// Finite reports whether v is not a number, or a finite one.
func Finite(v value.Value) bool {
	return v.Type.Kind != value.Number || !math.IsInf(v.Num, 0) && !math.IsNaN(v.Num)
}
