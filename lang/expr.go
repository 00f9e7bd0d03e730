package lang

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gpl-lang/gpl/lang/units"
)

// Expr is an expression: *NumberLit, *DateLit, *StringLit, *BoolLit, *Name, *Call,
// *Unary, *Binary, *Cond or *Paren.
type Expr interface{ Span() (Position, Position) }

// NumberLit is a number as written, with its optional unit: 0.282, 720h,
// 2.50 USD/h, $2.50, 1_000_000.
//
// A literal is one token on one line, so it keeps only its start and its
// text: its end, numeral, value and unit are derived from Text (End,
// Digits, Amount, UnitOf), which the parser has checked. Files hold a
// literal per field, so the node is kept small (32 bytes).
type NumberLit struct {
	At   Pos    // where it starts, compact (a file holds several literals per line)
	Text string // the token as written, unit included
}

// DateLit is a date as written, UTC: 2027-01-04, 2027-01-04T06:30, or a
// month, 2027-03, which only a month query reads. The parser has checked
// that it is a date of the calendar.
type DateLit struct {
	At   Pos
	Text string
}

// Start is the position of the literal's first character.
func (n *DateLit) Start() Position { return n.At.Position() }

// End is the position just past the literal.
func (n *DateLit) End() Position { return endOfText(n.Start(), n.Text) }

// Span returns the node's source range.
func (n *DateLit) Span() (Position, Position) { return n.Start(), n.End() }

// Instant is the date in seconds since 1970-01-01T00:00 UTC (a month's
// first instant), and how much of it is written.
func (n *DateLit) Instant() (float64, units.Precision) {
	v, p, _ := units.ParseDate(n.Text)
	return v, p
}

// IsMonth reports whether the literal is a month (2027-03), not a date.
func (n *DateLit) IsMonth() bool {
	_, p := n.Instant()
	return p == units.MonthPrecision
}

// Amount is the numeral's value, in the literal's unit (UnitOf).
func (n *NumberLit) Amount() float64 {
	digits := n.Digits()
	if strings.IndexByte(digits, '_') >= 0 {
		digits = strings.ReplaceAll(digits, "_", "")
	}
	v, _ := strconv.ParseFloat(digits, 64)
	return v
}

// UnitOf is the literal's unit: nil for a bare number (a count), else
// shared by every literal in that unit, not to be modified.
func (n *NumberLit) UnitOf() *units.Unit {
	if _, unit := splitNumber(n.Text); unit != "" {
		return unitOf()[unit]
	}
	return nil
}

// splitNumber splits a Number or Money token into its numeral and its
// unit's symbol ("" for none; "$", "$/h", "€", "£/h"… for money).
func splitNumber(text string) (digits, unit string) {
	digits = numeral(text)
	sign := moneySign(text)
	switch {
	case sign != "" && strings.HasSuffix(text, "/h"):
		unit = sign + "/h"
	case sign != "":
		unit = sign
	default:
		unit = text[len(digits):]
		for unit != "" && (unit[0] == ' ' || unit[0] == '\t') {
			unit = unit[1:] // strings.TrimLeft(unit, " \t") without its set
		}
	}
	return digits, unit
}

// End is the position just past the literal.
func (n *NumberLit) End() Position { return endOfText(n.Start(), n.Text) }

// Start is the position of the literal's first character.
func (n *NumberLit) Start() Position { return n.At.Position() }

// Digits is the numeral as written, without its unit or "$": "2.50" of
// "2.50 USD/h", "1_000" of "1_000h".
func (n *NumberLit) Digits() string { return numeral(n.Text) }

// numeral splits the numeral off a Number or Money token.
func numeral(text string) string {
	if sign := moneySign(text); sign != "" {
		return strings.TrimSuffix(text[len(sign):], "/h")
	}
	i := 0
	for i < len(text) {
		c := text[i]
		if c >= '0' && c <= '9' || c == '_' || c == '.' {
			i++
			continue
		}
		if (c == 'e' || c == 'E') && i+1 < len(text) && (text[i+1] >= '0' && text[i+1] <= '9' || text[i+1] == '+' || text[i+1] == '-') {
			i += 2
			continue
		}
		break
	}
	return text[:i]
}

// Base is the literal's value converted to its dimension's base unit.
func (n *NumberLit) Base() float64 {
	if u := n.UnitOf(); u != nil {
		return units.FromUnit(n.Amount(), *u)
	}
	return n.Amount()
}

// IsZero reports whether Amount is 0, reading the digits rather than
// parsing them where that gives the same answer (no exponent, one point
// at most, few digits).
func (n *NumberLit) IsZero() bool {
	d := n.Digits()
	dots, digits, nonzero := 0, 0, false
	for i := 0; i < len(d); i++ {
		switch c := d[i]; {
		case c == '_':
		case c == '.':
			dots++
		case c >= '0' && c <= '9':
			digits++
			nonzero = nonzero || c != '0'
		default:
			return n.Amount() == 0 // an exponent
		}
	}
	if dots > 1 || digits == 0 || digits > 15 {
		return n.Amount() == 0
	}
	return !nonzero
}

// BaseDim is Base and Dim, the unit looked up once.
func (n *NumberLit) BaseDim() (float64, units.Dim) {
	if u := n.UnitOf(); u != nil {
		return units.FromUnit(n.Amount(), *u), u.Dim
	}
	return n.Amount(), units.Count
}

// Dim is the literal's dimension.
func (n *NumberLit) Dim() units.Dim {
	if u := n.UnitOf(); u != nil {
		return u.Dim
	}
	return units.Count
}

// Decimals is the number of decimal places the numeral was written with,
// counting the exponent: "0.282" has 3, "2.5e3" has -2.
func (n *NumberLit) Decimals() int {
	d := strings.ReplaceAll(n.Digits(), "_", "")
	exp := 0
	if i := strings.IndexAny(d, "eE"); i >= 0 {
		exp, _ = strconv.Atoi(d[i+1:])
		d = d[:i]
	}
	frac := 0
	if i := strings.IndexByte(d, '.'); i >= 0 {
		frac = len(d) - i - 1
	}
	return frac - exp
}

// StringLit is a double-quoted string.
type StringLit struct {
	Pos, EndPos Position
	Raw         string // as written, quotes included
	Value       string
}

// BoolLit is true or false.
type BoolLit struct {
	Pos, EndPos Position
	Value       bool
}

// Name is a reference: a declared name, or a dotted path into a
// declaration's results such as llama2_70b.loss.program.
type Name struct {
	Parts []*Ident // never empty
}

// Start is the position of the name's first character.
func (n *Name) Start() Position { return n.Parts[0].Start() }

// End is the position just past the name's last part.
func (n *Name) End() Position { return n.Parts[len(n.Parts)-1].End() }

// Path is the dotted name as written.
func (n *Name) Path() string {
	s := make([]string, len(n.Parts))
	for i, p := range n.Parts {
		s[i] = p.Name
	}
	return strings.Join(s, ".")
}

// Call is a function call: trade_ratio(a, b), classify(rules, request),
// min, max, abs, round, has.
//
// Like every compound expression, it keeps its range compact (At, EndAt);
// Start and End give it.
type Call struct {
	At, EndAt Pos
	Func      *Ident
	Args      []Expr
}

// Unary is -X or not X.
type Unary struct {
	At, EndAt Pos
	Op        string // "-" or "not"
	X         Expr
}

// Binary is L OP R. Op is one of ^ + - * / == != < <= > >= to and or; the
// spellings && and || are read as and and or.
type Binary struct {
	At, EndAt Pos
	OpAt      Pos // where the operator is (OpStart)
	Op        string
	L, R      Expr
}

// OpStart is the position of the operator.
func (n *Binary) OpStart() Position { return n.OpAt.Position() }

// Cond is IF ? THEN : ELSE.
type Cond struct {
	At, EndAt      Pos
	If, Then, Else Expr
}

// Paren is (X), kept so the printer writes what the author wrote.
type Paren struct {
	At, EndAt Pos
	X         Expr
}

// Span methods give each expression's source range.
func (n *NumberLit) Span() (Position, Position) {
	start := n.Start()
	return start, endOfText(start, n.Text)
}
func (n *StringLit) Span() (Position, Position) { return n.Pos, n.EndPos }
func (n *BoolLit) Span() (Position, Position)   { return n.Pos, n.EndPos }
func (n *Name) Span() (Position, Position)      { return n.Start(), n.End() }
func (n *Call) Start() Position                 { return n.At.Position() }
func (n *Call) End() Position                   { return n.EndAt.Position() }
func (n *Call) Span() (Position, Position)      { return n.Start(), n.End() }
func (n *Unary) Start() Position                { return n.At.Position() }
func (n *Unary) End() Position                  { return n.EndAt.Position() }
func (n *Unary) Span() (Position, Position)     { return n.Start(), n.End() }
func (n *Binary) Start() Position               { return n.At.Position() }
func (n *Binary) End() Position                 { return n.EndAt.Position() }
func (n *Binary) Span() (Position, Position)    { return n.Start(), n.End() }
func (n *Cond) Start() Position                 { return n.At.Position() }
func (n *Cond) End() Position                   { return n.EndAt.Position() }
func (n *Cond) Span() (Position, Position)      { return n.Start(), n.End() }
func (n *Paren) Start() Position                { return n.At.Position() }
func (n *Paren) End() Position                  { return n.EndAt.Position() }
func (n *Paren) Span() (Position, Position)     { return n.Start(), n.End() }

// exprParser parses an expression by precedence climbing over participle's
// token stream; the statement grammar calls it wherever an Expr is wanted.
// It counts the expression's nesting depth and terms against its limits
// before it recurses, so no input can overflow the stack: a chain of
// binary operators is a loop, and everything that recurses (parentheses,
// unary operators, ?: and call arguments) opens a level.
type exprParser struct {
	lex          *lexer.PeekingLexer
	lim          Limits
	depth, terms int
	// bound is set for the bound of a range (the A of from A to B), where
	// to separates the range's ends rather than making a distribution.
	bound bool
}

// exprParserOf returns the expression parser participle calls wherever the
// grammar wants an Expr, applying the expression limits of lim.
func exprParserOf(lim Limits) func(*lexer.PeekingLexer) (Expr, error) {
	return func(lex *lexer.PeekingLexer) (Expr, error) {
		p := exprParser{lex: lex, lim: lim, bound: afterFrom(lex)}
		if !p.startsOperand() {
			return nil, participle.NextMatch
		}
		return p.ternary()
	}
}

// afterFrom reports whether the expression about to be read follows the
// word from: the bound of a range (from A to B), whose to is the range's.
func afterFrom(lex *lexer.PeekingLexer) bool {
	toks := lex.Range(0, lex.RawCursor())
	for i := len(toks) - 1; i >= 0; i-- {
		switch toks[i].Type {
		case tokSpace, tokComment, tokNewline:
			continue
		}
		return toks[i].Type == tokIdent && toks[i].Value == "from"
	}
	return false
}

// nest opens a level of nesting at t; done closes it.
func (p *exprParser) nest(t *lexer.Token) error {
	p.depth++
	if p.depth > p.lim.MaxExprDepth {
		overLimit(&hintError{
			Pos: t.Pos, EndPos: tokenEnd(t),
			Summary: fmt.Sprintf("expression nested more than %d levels deep (the limit on nesting)", p.lim.MaxExprDepth),
			Hint:    "name inner parts of it with let",
		})
	}
	return nil
}

// limitReached carries an expression's limit error past participle, which
// would otherwise take it for one alternative that did not match, try
// the others (a rule's "expected else"), and leave the statement to be
// repaired and read again, one reading per rule: a 100,000-operand rule
// cost 65 readings of the whole statement to report a wrong error. A
// limit is final for its statement, so the expression parser panics with
// it and the one place that runs the parser (parseFrom, ParseExprWith)
// recovers it as the statement's error.
type limitReached struct{ err *hintError }

// overLimit ends the statement's reading with err (see limitReached).
func overLimit(err *hintError) {
	err.limit = true
	panic(limitReached{err})
}

// recoverLimit, deferred where the parser is run, turns the panic of
// overLimit into the error *err; any other panic goes on.
func recoverLimit(err *error) {
	if r := recover(); r != nil {
		lr, ok := r.(limitReached)
		if !ok {
			panic(r)
		}
		*err = lr.err
	}
}

func (p *exprParser) done() { p.depth-- }

// term counts an operand or operator at t.
func (p *exprParser) term(t *lexer.Token) error {
	p.terms++
	if p.terms > p.lim.MaxExprTerms {
		overLimit(&hintError{
			Pos: t.Pos, EndPos: tokenEnd(t),
			Summary: fmt.Sprintf("expression longer than %d operands and operators (the limit on one expression)", p.lim.MaxExprTerms),
			Hint:    "split it into parts named with let",
		})
	}
	return nil
}

// SyntaxError is a parse error with the range of the offending token.
type SyntaxError struct {
	Pos, EndPos Position
	Msg         string
}

func (e *SyntaxError) Error() string { return e.Pos.String() + ": " + e.Msg }

// tokenEnd is the position just past t, lines broken as the scanner
// breaks them (participle's Position.Advance knows only "\n").
func tokenEnd(t *lexer.Token) Position {
	end := t.Pos
	advance(&end, t, len(t.Value))
	return end
}

// endOfText is the position just past text written at pos on one line (a
// name, a number), counting columns in characters as the scanner does.
func endOfText(pos Position, text string) Position {
	pos.Offset += len(text)
	if isASCII(text) {
		pos.Column += len(text)
	} else {
		pos.Column += utf8.RuneCountInString(text)
	}
	return pos
}

func (p *exprParser) errorf(t *lexer.Token, msg string) error {
	if t.EOF() {
		msg += ", found end of statement"
	} else {
		msg += ", found " + strconv.Quote(t.Value)
	}
	return &SyntaxError{Pos: t.Pos, EndPos: tokenEnd(t), Msg: msg}
}

func (p *exprParser) isOp(values ...string) (string, bool) {
	t := p.lex.Peek()
	if t.Type != tokOp && t.Type != tokIdent {
		return "", false
	}
	for _, v := range values {
		if t.Value == v {
			return v, true
		}
	}
	return "", false
}

func (p *exprParser) startsOperand() bool {
	t := p.lex.Peek()
	switch t.Type {
	case tokNumber, tokMoney, tokString, tokDate:
		return true
	case tokIdent:
		return t.Value == "not" || t.Value == "true" || t.Value == "false" || !IsKeyword(t.Value)
	case tokOp:
		return t.Value == "(" || t.Value == "-" || t.Value == "!"
	}
	return false
}

func (p *exprParser) ternary() (Expr, error) {
	c, err := p.binary(precOr)
	if err != nil {
		return nil, err
	}
	if _, ok := p.isOp("?"); !ok {
		return c, nil
	}
	q := p.lex.Next()
	if err := p.term(q); err != nil {
		return nil, err
	}
	if err := p.nest(q); err != nil {
		return nil, err
	}
	defer p.done()
	then, err := p.ternary()
	if err != nil {
		return nil, err
	}
	if _, ok := p.isOp(":"); !ok {
		return nil, p.errorf(p.lex.Peek(), `expected ":" in a conditional expression`)
	}
	p.lex.Next()
	els, err := p.ternary()
	if err != nil {
		return nil, err
	}
	cs, _ := c.Span()
	_, ee := els.Span()
	return &Cond{At: PosOf(cs), EndAt: PosOf(ee), If: c, Then: then, Else: els}, nil
}

// Binding strength of the binary operators, loosest first; the prefix
// "not" sits between and and the comparisons, so not a == b is not (a == b).
const (
	precOr = 1 + iota
	precAnd
	precNot
	precCompare
	precTo // A to B, a distribution (language.md §23)
	precAdd
	precMul
)

// binaryPrec is the precedence of t as a binary operator, or 0.
func binaryPrec(t *lexer.Token) int {
	if t.Type != tokOp && t.Type != tokIdent {
		return 0
	}
	switch t.Value {
	case "or", "||":
		return precOr
	case "and", "&&":
		return precAnd
	case "==", "!=", "<", "<=", ">", ">=":
		if t.Type == tokOp {
			return precCompare
		}
	case "to":
		if t.Type == tokIdent {
			return precTo
		}
	case "+", "-", "*", "/":
		if t.Type != tokOp {
			return 0
		}
		if t.Value == "*" || t.Value == "/" {
			return precMul
		}
		return precAdd
	}
	return 0
}

var canonicalOp = map[string]string{"||": "or", "&&": "and", "!": "not"}

// binary parses operators binding at least as tightly as min, by
// precedence climbing; operators of one level associate to the left and
// comparisons do not chain.
func (p *exprParser) binary(min int) (Expr, error) {
	var l Expr
	if _, ok := p.isOp("not", "!"); ok && min <= precNot {
		t := p.lex.Next()
		if err := p.term(t); err != nil {
			return nil, err
		}
		if err := p.nest(t); err != nil {
			return nil, err
		}
		x, err := p.binary(precNot)
		p.done()
		if err != nil {
			return nil, err
		}
		_, end := x.Span()
		l = &Unary{At: PosOf(t.Pos), EndAt: PosOf(end), Op: "not", X: x}
	} else {
		var err error
		if l, err = p.unary(); err != nil {
			return nil, err
		}
	}
	for {
		prec := binaryPrec(p.lex.Peek())
		if prec == precTo && p.bound && p.depth == 0 {
			return l, nil // from A to B: the range's to
		}
		if prec == 0 || prec < min {
			return l, nil
		}
		t := p.lex.Next()
		if err := p.term(t); err != nil {
			return nil, err
		}
		op := t.Value
		if c, ok := canonicalOp[op]; ok {
			op = c
		}
		if !p.startsOperand() {
			return nil, p.errorf(p.lex.Peek(), "expected an expression after "+strconv.Quote(t.Value))
		}
		r, err := p.binary(prec + 1)
		if err != nil {
			return nil, err
		}
		if op == "/" {
			if err := perTimeUnit(l, t, r); err != nil {
				return nil, err
			}
		}
		ls, _ := l.Span()
		_, re := r.Span()
		l = &Binary{At: PosOf(ls), EndAt: PosOf(re), Op: op, OpAt: PosOf(t.Pos), L: l, R: r}
		if prec == precCompare && binaryPrec(p.lex.Peek()) == precCompare {
			return nil, p.errorf(p.lex.Peek(), "comparisons do not chain; use and")
		}
		if prec == precTo && binaryPrec(p.lex.Peek()) == precTo {
			return nil, p.errorf(p.lex.Peek(), "A to B is one interval; to does not chain")
		}
	}
}

func (p *exprParser) unary() (Expr, error) {
	if _, ok := p.isOp("-"); ok {
		t := p.lex.Next()
		if err := p.term(t); err != nil {
			return nil, err
		}
		if err := p.nest(t); err != nil {
			return nil, err
		}
		x, err := p.unary()
		p.done()
		if err != nil {
			return nil, err
		}
		_, end := x.Span()
		return &Unary{At: PosOf(t.Pos), EndAt: PosOf(end), Op: "-", X: x}, nil
	}
	return p.power()
}

// power parses X ^ Y, which binds tighter than unary minus (-2 ^ 2 is
// -(2 ^ 2)) and associates to the right (2 ^ 3 ^ 2 is 2 ^ 9); the
// exponent may have its own minus (2 ^ -1).
func (p *exprParser) power() (Expr, error) {
	base, err := p.primary()
	if err != nil {
		return nil, err
	}
	op, ok := p.isOp("^")
	if !ok {
		return base, nil
	}
	t := p.lex.Next()
	if !p.startsOperand() {
		return nil, p.errorf(p.lex.Peek(), "expected an exponent after "+strconv.Quote(op))
	}
	exp, err := p.unary()
	if err != nil {
		return nil, err
	}
	bs, _ := base.Span()
	_, ee := exp.Span()
	return &Binary{At: PosOf(bs), EndAt: PosOf(ee), Op: op, OpAt: PosOf(t.Pos), L: base, R: exp}, nil
}

func (p *exprParser) primary() (Expr, error) {
	t := p.lex.Peek()
	if t.Type != tokOp || t.Value != "(" {
		if err := p.term(t); err != nil {
			return nil, err
		}
	}
	switch {
	case t.Type == tokNumber || t.Type == tokMoney:
		p.lex.Next()
		return parseNumber(t)
	case t.Type == tokDate:
		p.lex.Next()
		if _, _, err := units.ParseDate(t.Value); err != nil {
			return nil, &SyntaxError{Pos: t.Pos, EndPos: tokenEnd(t), Msg: err.Error()}
		}
		return &DateLit{At: PosOf(t.Pos), Text: t.Value}, nil
	case t.Type == tokString:
		p.lex.Next()
		v, err := strconv.Unquote(t.Value)
		if err != nil {
			return nil, &SyntaxError{Pos: t.Pos, EndPos: tokenEnd(t), Msg: "invalid string escape"}
		}
		return &StringLit{Pos: t.Pos, EndPos: tokenEnd(t), Raw: t.Value, Value: v}, nil
	case t.Type == tokIdent && (t.Value == "true" || t.Value == "false"):
		p.lex.Next()
		return &BoolLit{Pos: t.Pos, EndPos: tokenEnd(t), Value: t.Value == "true"}, nil
	case t.Type == tokIdent && !IsKeyword(t.Value):
		return p.nameOrCall()
	case t.Type == tokOp && t.Value == "(":
		p.lex.Next()
		if err := p.nest(t); err != nil {
			return nil, err
		}
		x, err := p.ternary()
		p.done()
		if err != nil {
			return nil, err
		}
		c := p.lex.Peek()
		if c.Type != tokOp || c.Value != ")" {
			return nil, p.errorf(c, `expected ")"`)
		}
		p.lex.Next()
		return &Paren{At: PosOf(t.Pos), EndAt: PosOf(tokenEnd(c)), X: x}, nil
	}
	return nil, p.errorf(t, "expected an expression")
}

// arguments reads a parenthesised argument list, the next token being
// "(": each argument by arg, up to ")". name names the call or query in
// errors. It returns the position just past ")". The list is one level
// of nesting.
func (p *exprParser) arguments(name string, arg func() error) (Position, error) {
	if err := p.nest(p.lex.Next()); err != nil {
		return Position{}, err
	}
	defer p.done()
	for n := 0; ; n++ {
		if _, ok := p.isOp(")"); ok {
			return tokenEnd(p.lex.Next()), nil
		}
		if n > 0 {
			if _, ok := p.isOp(","); !ok {
				return Position{}, p.errorf(p.lex.Peek(), `expected "," or ")" in the arguments of `+name)
			}
			p.lex.Next()
		}
		if !p.startsOperand() {
			return Position{}, p.errorf(p.lex.Peek(), "expected an argument")
		}
		if err := arg(); err != nil {
			return Position{}, err
		}
	}
}

func (p *exprParser) nameOrCall() (Expr, error) {
	t := p.lex.Next()
	first := &Ident{At: PosOf(t.Pos), Name: t.Value}
	if _, ok := p.isOp("("); ok {
		call := &Call{At: PosOf(t.Pos), Func: first}
		end, err := p.arguments(first.Name, func() error {
			a, err := p.ternary()
			if err == nil {
				call.Args = append(call.Args, a)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		call.EndAt = PosOf(end)
		return call, nil
	}
	n := &Name{Parts: []*Ident{first}}
	for {
		id, err := p.dotField()
		if err != nil {
			return nil, err
		}
		if id == nil {
			if _, call := p.isOp("("); call && len(n.Parts) > 1 {
				return p.query(n) // NAME.METHOD(…): expr_planning.go
			}
			return n, nil
		}
		n.Parts = append(n.Parts, id)
	}
}

// dotField reads ".NAME", the next part of a dotted name; nil when no "."
// follows.
func (p *exprParser) dotField() (*Ident, error) {
	if _, ok := p.isOp("."); !ok {
		return nil, nil
	}
	p.lex.Next()
	f := p.lex.Peek()
	if f.Type != tokIdent {
		return nil, p.errorf(f, `expected a field name after "."`)
	}
	p.lex.Next()
	return &Ident{At: PosOf(f.Pos), Name: f.Value}, nil
}

// unitOf holds one Unit per symbol, which the literals written in it
// share; it is built at the first literal with a unit, not at start-up
// (gpl classify never needs it).
var unitOf = sync.OnceValue(func() map[string]*units.Unit {
	m := make(map[string]*units.Unit, len(units.Units()))
	for sym, u := range units.Units() {
		m[sym] = &u
	}
	return m
})

// parseNumber splits a Number or Money token into numeral and unit.
func parseNumber(t *lexer.Token) (Expr, error) { return parseNumberIn(t, nil) }

// parseNumberIn is parseNumber storing the literal in nums (nil: on its
// own).
func parseNumberIn(t *lexer.Token, nums *Slab[NumberLit]) (Expr, error) {
	text := t.Value
	var n *NumberLit
	if nums != nil {
		n = nums.Put(NumberLit{At: PosOf(t.Pos), Text: text})
	} else {
		n = &NumberLit{At: PosOf(t.Pos), Text: text}
	}
	digits, unit := splitNumber(text)
	written := digits
	if strings.IndexByte(digits, '_') >= 0 {
		if err := checkUnderscores(t, strings.Index(text, written), written); err != nil {
			return nil, err
		}
		digits = strings.ReplaceAll(digits, "_", "")
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err == nil && unit != "" && v != 0 {
		b := v // n.Base(), from what is split already
		if u := unitOf()[unit]; u != nil {
			b = units.FromUnit(v, *u)
		}
		if math.IsInf(b, 0) || b == 0 {
			err = strconv.ErrRange
		}
	}
	switch {
	case err == nil && v == 0 && !isZeroMantissa(digits):
		err = strconv.ErrRange
	case err == nil:
		return n, nil
	}
	if ne, ok := err.(*strconv.NumError); ok {
		err = ne.Err
	}
	if err != strconv.ErrRange {
		return nil, &SyntaxError{Pos: t.Pos, EndPos: n.End(), Msg: "malformed number " + strconv.Quote(text)}
	}
	what := "number " + strconv.Quote(text)
	if math.IsInf(v, 0) || v != 0 && n.UnitOf() != nil && math.IsInf(n.Base(), 0) {
		return nil, &hintError{
			Pos: t.Pos, EndPos: n.End(),
			Summary: what + " is too large: beyond ±1.8e308, the largest number gpl holds" + inBase(n),
			Hint:    "check its exponent: no plan needs a quantity this large",
		}
	}
	return nil, &hintError{
		Pos: t.Pos, EndPos: n.End(),
		Summary: what + " is too small: it would round to 0" + inBase(n) + " (the smallest number gpl holds is about 5e-324)",
		Hint:    "write 0 if zero is meant; no plan needs a quantity this small",
	}
}

// inBase says that a literal's range was exceeded only when converted to
// its dimension's base unit.
func inBase(n *NumberLit) string {
	if n.UnitOf() == nil || n.UnitOf().Factor == 1 {
		return ""
	}
	return " once converted to " + baseUnitOf(n.UnitOf().Dim)
}

// moneySign is the currency sign a Money token starts with ("$", "€",
// "£"), or "".
func moneySign(text string) string {
	if text == "" || text[0] >= '0' && text[0] <= '9' || text[0] == '.' {
		return "" // a numeral: no sign starts with a digit or a point
	}
	for sign := range units.SignCurrency {
		if strings.HasPrefix(text, sign) {
			return sign
		}
	}
	return ""
}

// baseUnitOf names the base unit of a dimension as literals write it.
func baseUnitOf(d units.Dim) string {
	if units.IsPrice(d) {
		c, _ := d.Currency()
		return c + " per second"
	}
	return d.BaseUnit()
}

// isZeroMantissa reports whether a numeral's digits before its exponent
// are all zeros: 0e-400 is 0, not an underflow.
func isZeroMantissa(digits string) bool {
	if i := strings.IndexAny(digits, "eE"); i >= 0 {
		digits = digits[:i]
	}
	return strings.Trim(digits, "0.") == ""
}

// checkUnderscores reports an underscore in a numeral that does not sit
// between two digits (1_, 1__0, 1_.5); off is where the numeral starts in
// token t.
func checkUnderscores(t *lexer.Token, off int, digits string) error {
	for i := 0; i < len(digits); i++ {
		if digits[i] != '_' {
			continue
		}
		if i > 0 && isDigit(digits[i-1]) && i+1 < len(digits) && isDigit(digits[i+1]) {
			continue
		}
		pos := t.Pos
		pos.Offset += off + i
		pos.Column += off + i
		end := pos
		end.Offset++
		end.Column++
		return &hintError{
			Pos: pos, EndPos: end,
			Summary: "syntax error: malformed number " + strconv.Quote(strings.TrimSpace(t.Value)) + ": an underscore must sit between two digits",
			Hint:    "group digits with single underscores, as in 1_000_000, or remove it",
		}
	}
	return nil
}
