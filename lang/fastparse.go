package lang

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// The statement grammar is defined once, by the participle structs in
// ast.go, and participle parses every file that has a syntax error, where
// its error reporting and the per-statement recovery matter. A file without
// errors — almost every file, almost every time — is read by this
// hand-written recursive-descent parser instead, which builds exactly the
// same tree (positions included) several times faster, because it does not
// go through reflection. TestFastParserMatchesParticiple holds the two to
// the same output on every .gpl file in the repository and on mutated
// inputs; any input the fast parser is unsure of is handed to participle.

// errFallback tells Parse to use participle for this file.
type errFallback struct{}

func (errFallback) Error() string { return "fall back to participle" }

type fastParser struct {
	lex *cursor
	ep  exprParser // reads expressions from the same cursor
}

// cursor walks the significant tokens of a file (comments, newlines and
// spaces left out); the last token is EOF.
type cursor struct {
	toks []lexer.Token
	i    int
}

// Peek returns the next token without consuming it.
func (c *cursor) Peek() *lexer.Token { return &c.toks[c.i] }

// Next consumes the next token; at EOF it stays there.
func (c *cursor) Next() *lexer.Token {
	t := &c.toks[c.i]
	if !t.EOF() {
		c.i++
	}
	return t
}

// fastParse parses a whole file from its significant tokens (see scan), or
// returns ok false when participle must.
func fastParse(sig []lexer.Token) (stmts []Stmt, ok bool) {
	c := &cursor{toks: sig}
	p := &fastParser{lex: c, ep: exprParser{lex: c}}
	defer func() {
		if r := recover(); r != nil {
			if _, fb := r.(errFallback); !fb {
				panic(r)
			}
			stmts, ok = nil, false
		}
	}()
	for !p.lex.Peek().EOF() {
		stmts = append(stmts, p.stmt())
	}
	return stmts, true
}

func (p *fastParser) fail() { panic(errFallback{}) }

// end is where participle puts EndPos: the start of the raw token after the
// last one consumed, which is where that token ends.
func (p *fastParser) end() Position {
	if p.lex.i == 0 {
		return p.lex.toks[0].Pos
	}
	return tokenEnd(&p.lex.toks[p.lex.i-1])
}

func (p *fastParser) isKeyword(v string) bool {
	t := p.lex.Peek()
	return t.Type == tokIdent && t.Value == v
}

func (p *fastParser) isOp(v string) bool {
	t := p.lex.Peek()
	return t.Type == tokOp && t.Value == v
}

func (p *fastParser) keyword(v string) Position {
	if !p.isKeyword(v) {
		p.fail()
	}
	return p.lex.Next().Pos
}

func (p *fastParser) op(v string) {
	if !p.isOp(v) {
		p.fail()
	}
	p.lex.Next()
}

func (p *fastParser) ident() *Ident {
	t := p.lex.Peek()
	if t.Type != tokIdent {
		p.fail()
	}
	p.lex.Next()
	return &Ident{Pos: t.Pos, EndPos: p.end(), Name: t.Value}
}

func (p *fastParser) expr() Expr {
	if !p.ep.startsOperand() {
		p.fail()
	}
	x, err := p.ep.ternary()
	if err != nil {
		p.fail()
	}
	return x
}

func (p *fastParser) stmt() Stmt {
	t := p.lex.Peek()
	if t.Type != tokIdent {
		p.fail()
	}
	switch t.Value {
	case "import":
		pos := p.keyword("import")
		s := p.lex.Peek()
		if s.Type != tokString {
			p.fail()
		}
		p.lex.Next()
		return &Import{Pos: pos, EndPos: p.end(), Path: s.Value}
	case "let":
		n := &Let{Pos: p.keyword("let")}
		n.Name = p.ident()
		p.op("=")
		n.Value = p.expr()
		n.EndPos = p.end()
		return n
	case "pool":
		n := &Pool{}
		n.Pos, n.Name, n.Fields, n.EndPos = p.fieldBlock("pool")
		return n
	case "request":
		n := &Request{}
		n.Pos, n.Name, n.Fields, n.EndPos = p.fieldBlock("request")
		return n
	case "job":
		return p.job()
	case "rules":
		return p.rules()
	case "expect":
		return p.expect()
	}
	p.fail()
	return nil
}

// fieldBlock reads KEYWORD NAME { fields }.
func (p *fastParser) fieldBlock(keyword string) (Position, *Ident, []*Field, Position) {
	pos := p.keyword(keyword)
	name := p.ident()
	p.op("{")
	fields := p.fields()
	p.op("}")
	return pos, name, fields, p.end()
}

// fields reads NAME = EXPR items up to a closing brace.
func (p *fastParser) fields() []*Field {
	var out []*Field
	for p.lex.Peek().Type == tokIdent {
		out = append(out, p.field())
	}
	return out
}

func (p *fastParser) field() *Field {
	f := &Field{Pos: p.lex.Peek().Pos}
	f.Name = p.ident()
	p.op("=")
	f.Value = p.expr()
	f.EndPos = p.end()
	return f
}

func (p *fastParser) job() *Job {
	n := &Job{Pos: p.keyword("job")}
	n.Name = p.ident()
	switch {
	case p.isKeyword("on"):
		p.lex.Next()
		n.On = p.ident()
	case p.isKeyword("extends"):
		p.lex.Next()
		n.Extends = p.ident()
	default:
		p.fail()
	}
	p.op("{")
	for !p.isOp("}") {
		switch {
		case p.isKeyword("factors") || p.isKeyword("ceilings"):
			b := &FactorBlock{Pos: p.lex.Peek().Pos, Kind: p.lex.Next().Value}
			p.op("{")
			b.Fields = p.fields()
			p.op("}")
			b.EndPos = p.end()
			n.Items = append(n.Items, b)
		case p.isKeyword("expect"):
			n.Items = append(n.Items, p.expect())
		case p.lex.Peek().Type == tokIdent:
			n.Items = append(n.Items, p.field())
		default:
			p.fail()
		}
	}
	p.op("}")
	n.EndPos = p.end()
	return n
}

func (p *fastParser) rules() *Rules {
	n := &Rules{Pos: p.keyword("rules")}
	n.Name = p.ident()
	p.op("{")
	for !p.isKeyword("else") {
		r := &Rule{Pos: p.lex.Peek().Pos}
		if !p.isKeyword("when") {
			r.Label = p.ident()
			p.op(":")
		}
		p.keyword("when")
		r.When = p.expr()
		p.op("->")
		r.Class = p.ident()
		r.EndPos = p.end()
		n.Rules = append(n.Rules, r)
	}
	p.keyword("else")
	n.Else = p.ident()
	p.op("}")
	n.EndPos = p.end()
	return n
}

func (p *fastParser) expect() *Expect {
	n := &Expect{Pos: p.keyword("expect")}
	n.X = p.expr()
	if p.isOp("≈") || p.isOp("~=") {
		a := &Approx{Pos: p.lex.Peek().Pos, Op: p.lex.Next().Value}
		a.Want = p.expr()
		switch {
		case p.isOp("±") || p.isOp("+-"):
			a.TolOp = p.lex.Next().Value
			a.Abs = p.expr()
		case p.isKeyword("within"):
			p.lex.Next()
			a.Within = p.expr()
			p.op("%")
		}
		a.EndPos = p.end()
		n.Approx = a
	}
	n.EndPos = p.end()
	return n
}
