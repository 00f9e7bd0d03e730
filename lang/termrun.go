package lang

import "github.com/alecthomas/participle/v2/lexer"

// termRun counts, as a statement's tokens go by, the operands and
// operators of the expression they are in, so that a statement whose
// expression is far over MaxExprTerms is cut short before participle
// buffers it: participle reads every token of a statement before parsing
// any (lexer.Upgrade), and a rule of 100,000 ors was 400,000 tokens read,
// held and copied, twice, to report a limit met after 4,000.
//
// The count never exceeds the expression parser's own (exprParser.term):
// it counts only what the parser counts — a literal, the first part of a
// name, a call's name, + - * / and the comparisons, and, or, not, !, &&,
// ||, ? — and starts again at anything that may begin another expression:
// an operand right after an operand (two fields on one line), a keyword,
// and every other symbol ({ } , = -> [ ] ≈ ± and the like). So by the
// time the run passes the limit the parser has passed it too, at the same
// token or before, and the statement can end there: its error is the
// parser's, at the parser's place.
type termRun struct {
	n           int
	prevOperand bool // the last token ends an operand: another operand starts a new expression
	afterDot    bool // the next name is a dotted part of the last one
}

// see counts token t and returns the run's length after it.
func (r *termRun) see(t *lexer.Token) int {
	operand := func() {
		if r.prevOperand {
			r.n = 0
		}
		r.n++
		r.prevOperand = true
	}
	dot := r.afterDot
	r.afterDot = false
	switch t.Type {
	case tokNewline, tokSpace, tokComment:
		r.afterDot = dot
	case tokNumber, tokMoney, tokString:
		operand()
	case tokIdent:
		switch {
		case dot:
			r.prevOperand = true // a.b: one name
		case t.Value == "and" || t.Value == "or":
			r.n++
			r.prevOperand = false
		case t.Value == "not":
			if r.prevOperand {
				r.n = 0
			}
			r.n++
			r.prevOperand = false
		case t.Value == "true" || t.Value == "false" || !IsKeyword(t.Value):
			operand()
		default:
			r.n, r.prevOperand = 0, false
		}
	case tokOp:
		switch t.Value {
		case "+", "-", "*", "/", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "?":
			r.n++
			r.prevOperand = false
		case "!":
			if r.prevOperand {
				r.n = 0
			}
			r.n++
			r.prevOperand = false
		case ".":
			r.afterDot = true
		case "(", "^", ":":
			r.prevOperand = false
		case ")":
			r.prevOperand = true
		default:
			r.n, r.prevOperand = 0, false
		}
	default:
		r.n, r.prevOperand = 0, false
	}
	return r.n
}

// cutSlack is how far past MaxExprTerms a run goes before its statement
// is cut: a margin, for the parser meets the limit at the run's last
// counted token or before it.
const cutSlack = 16
