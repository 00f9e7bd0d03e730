package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// treeShape writes an expression fully bracketed in prefix form, so that a
// test sees how it was grouped: 1 + 2 * 3 is (+ 1 (* 2 3)).
func treeShape(e Expr) string {
	switch n := e.(type) {
	case *NumberLit:
		return n.Text
	case *StringLit:
		return n.Raw
	case *BoolLit:
		return fmt.Sprint(n.Value)
	case *Name:
		return n.Path()
	case *Paren:
		return "[" + treeShape(n.X) + "]"
	case *Unary:
		return "(" + n.Op + " " + treeShape(n.X) + ")"
	case *Binary:
		return "(" + n.Op + " " + treeShape(n.L) + " " + treeShape(n.R) + ")"
	case *Cond:
		return "(? " + treeShape(n.If) + " " + treeShape(n.Then) + " " + treeShape(n.Else) + ")"
	case *Call:
		args := make([]string, len(n.Args))
		for i, a := range n.Args {
			args[i] = treeShape(a)
		}
		return n.Func.Name + "(" + strings.Join(args, ", ") + ")"
	}
	return fmt.Sprintf("<%T>", e)
}

func TestExprPrecedence(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"product before sum", "1 + 2 * 3", "(+ 1 (* 2 3))"},
		{"product before sum on the left", "1 * 2 + 3", "(+ (* 1 2) 3)"},
		{"sums associate left", "10 - 2 - 3", "(- (- 10 2) 3)"},
		{"quotients associate left", "12 / 3 / 2", "(/ (/ 12 3) 2)"},
		{"mixed product and quotient", "a * b / c * d", "(* (/ (* a b) c) d)"},
		{"parentheses group", "(1 + 2) * 3", "(* [(+ 1 2)] 3)"},
		{"unary minus binds tightest", "-2 * -3", "(* (- 2) (- 3))"},
		{"double negation", "--x", "(- (- x))"},
		{"minus on a call", "-abs(x)", "(- abs(x))"},
		{"arithmetic before comparison", "a + 1 < b * 2", "(< (+ a 1) (* b 2))"},
		{"comparison before and", "a < 1 and b > 2", "(and (< a 1) (> b 2))"},
		{"and before or", "a or b and c", "(or a (and b c))"},
		{"and before or on the left", "a and b or c", "(or (and a b) c)"},
		{"or associates left", "a or b or c", "(or (or a b) c)"},
		{"not between and and comparison", "not a < b and c", "(and (not (< a b)) c)"},
		{"not of not", "not not a", "(not (not a))"},
		{"bang is not", "!a", "(not a)"},
		{"bang binds looser than comparison", "!a == b", "(not (== a b))"},
		{"symbolic and or", "a && b || c", "(or (and a b) c)"},
		{"equality of strings", `best_lever == "program"`, `(== best_lever "program")`},
		{"conditional is loosest", "a or b ? 1 + 2 : 3", "(? (or a b) (+ 1 2) 3)"},
		{"conditional nests to the right", "a ? 1 : b ? 2 : 3", "(? a 1 (? b 2 3))"},
		{"conditional in the middle", "a ? b ? 1 : 2 : 3", "(? a (? b 1 2) 3)"},
		{"conditional in parentheses", "(a ? 1 : 2) * 3", "(* [(? a 1 2)] 3)"},
		{"dotted names", "j.loss.program + j.mpg", "(+ j.loss.program j.mpg)"},
		{"calls", "trade_ratio(a, b) * 2", "(* trade_ratio(a, b) 2)"},
		{"call arguments are expressions", "max(a + 1, b ? 2 : 3, -c)", "max((+ a 1), (? b 2 3), (- c))"},
		{"call without arguments", "f()", "f()"},
		{"units stay on their literals", "128 * 720h * 2.50 USD/h", "(* (* 128 720h) 2.50 USD/h)"},
		{"money and price literals", "$100 / $2.50/h", "(/ $100 $2.50/h)"},
		{"booleans", "true and not false", "(and true (not false))"},
		{"classify", "classify(kapsl, heavy) == throughput", "(== classify(kapsl, heavy) throughput)"},
		{"comparison of sums with units", "input_size * batch_size <= 2MB", "(<= (* input_size batch_size) 2MB)"},
		{"spread over lines", "1 +\n 2\n * 3", "(+ 1 (* 2 3))"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, diags := ParseExpr("t.gpl", tt.src)
			if diags != nil {
				t.Fatalf("ParseExpr(%q): %v", tt.src, diags)
			}
			if diff := cmp.Diff(tt.want, treeShape(x)); diff != "" {
				t.Errorf("shape of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

// spanOf is a node's range as line:column pairs.
func spanOf(n interface{ Span() (Position, Position) }) string {
	p, e := n.Span()
	return fmt.Sprintf("%d:%d-%d:%d", p.Line, p.Column, e.Line, e.Column)
}

func TestExprSpans(t *testing.T) {
	x, diags := ParseExpr("t.gpl", "cond ? -x.y : (1 + 2h) * f(z)")
	if diags != nil {
		t.Fatal(diags)
	}
	c := x.(*Cond)
	neg := c.Then.(*Unary)
	mul := c.Else.(*Binary)
	paren := mul.L.(*Paren)
	sum := paren.X.(*Binary)
	call := mul.R.(*Call)
	got := map[string]string{
		"cond":     spanOf(c),
		"if":       spanOf(c.If),
		"neg":      spanOf(neg),
		"x.y":      spanOf(neg.X),
		"y":        spanOf(neg.X.(*Name).Parts[1]),
		"mul":      spanOf(mul),
		"mul op":   fmt.Sprintf("%d:%d", mul.OpStart().Line, mul.OpStart().Column),
		"paren":    spanOf(paren),
		"sum":      spanOf(sum),
		"2h":       spanOf(sum.R),
		"call":     spanOf(call),
		"call arg": spanOf(call.Args[0]),
	}
	want := map[string]string{
		"cond":     "1:1-1:30",
		"if":       "1:1-1:5",
		"neg":      "1:8-1:12",
		"x.y":      "1:9-1:12",
		"y":        "1:11-1:12",
		"mul":      "1:15-1:30",
		"mul op":   "1:24",
		"paren":    "1:15-1:23",
		"sum":      "1:16-1:22",
		"2h":       "1:20-1:22",
		"call":     "1:26-1:30",
		"call arg": "1:28-1:29",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("spans (-want +got):\n%s", diff)
	}
}

func TestStringAndBoolLiterals(t *testing.T) {
	x, diags := ParseExpr("t.gpl", `"pro\tgram\u00e9"`)
	if diags != nil {
		t.Fatal(diags)
	}
	s := x.(*StringLit)
	if diff := cmp.Diff([2]string{`"pro\tgram\u00e9"`, "pro\tgramé"}, [2]string{s.Raw, s.Value}); diff != "" {
		t.Errorf("string literal (-want +got):\n%s", diff)
	}
	x, diags = ParseExpr("t.gpl", "false")
	if diags != nil {
		t.Fatal(diags)
	}
	if b, ok := x.(*BoolLit); !ok || b.Value {
		t.Errorf("false parsed as %#v", x)
	}
}

// diagView is a diagnostic's summary and range, for comparison.
type diagView struct {
	Summary  string
	Pos, End string // line:column
}

func viewDiags(ds Diagnostics) []diagView {
	var out []diagView
	for _, d := range ds {
		out = append(out, diagView{
			Summary: d.Summary,
			Pos:     fmt.Sprintf("%d:%d", d.Pos.Line, d.Pos.Column),
			End:     fmt.Sprintf("%d:%d", d.End.Line, d.End.Column),
		})
	}
	return out
}

func TestParseExprErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want diagView
	}{
		{"empty", "", diagView{"syntax error: expected an expression", "0:0", "0:0"}},
		{"only a comment", "# nothing", diagView{"syntax error: unexpected end of statement", "1:10", "1:10"}},
		{"missing right operand", "1 +", diagView{`syntax error: expected an expression after "+", found end of statement`, "1:4", "1:4"}},
		{"missing operand before a bracket", "2 * )", diagView{`syntax error: expected an expression after "*", found ")"`, "1:5", "1:6"}},
		{"unclosed parenthesis", "(1 + 2", diagView{`syntax error: expected ")", found end of statement`, "1:7", "1:7"}},
		{"two values", "1 2", diagView{`syntax error: unexpected "2"`, "1:3", "1:4"}},
		{"missing comma", "max(1 2)", diagView{`syntax error: expected "," or ")" in the arguments of max, found "2"`, "1:7", "1:8"}},
		{"trailing comma", "max(1,)", diagView{`syntax error: expected an argument, found ")"`, "1:7", "1:8"}},
		{"dot without field", "a.", diagView{`syntax error: expected a field name after ".", found end of statement`, "1:3", "1:3"}},
		{"dot and digits are a number", "a.1", diagView{`syntax error: unexpected ".1"`, "1:2", "1:4"}},
		{"conditional without else", "a ? 1", diagView{`syntax error: expected ":" in a conditional expression, found end of statement`, "1:6", "1:6"}},
		{"chained comparison", "1 < 2 < 3", diagView{"syntax error: comparisons do not chain; use and, found \"<\"", "1:7", "1:8"}},
		{"keyword as operand", "1 + pool", diagView{`syntax error: expected an expression after "+", found "pool"`, "1:5", "1:9"}},
		{"bad escape", `"a\qb"`, diagView{"syntax error: invalid string escape", "1:1", "1:7"}},
		{"unknown character", "1 + @", diagView{`syntax error: expected an expression after "+", found "@"`, "1:5", "1:6"}},
		{"unknown character after multi-byte", `"≈" + @`, diagView{`syntax error: expected an expression after "+", found "@"`, "1:7", "1:8"}},
		{"unknown multi-byte character", "max(a.b, 2) ≠ 3", diagView{`unexpected character "≠"`, "1:13", "1:14"}},
		{"approx is not an operator", "a ≈ 1", diagView{`syntax error: unexpected "≈"`, "1:3", "1:4"}},
		{"second line", "1 +\n\n  * 2", diagView{`syntax error: expected an expression after "+", found "*"`, "3:3", "3:4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, diags := ParseExpr("t.gpl", tt.src)
			if x != nil {
				t.Errorf("ParseExpr(%q) returned %s along with errors", tt.src, treeShape(x))
			}
			if diff := cmp.Diff([]diagView{tt.want}, viewDiags(diags)); diff != "" {
				t.Errorf("ParseExpr(%q) diagnostics (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}
