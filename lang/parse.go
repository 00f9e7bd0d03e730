package lang

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// stmtHolder is the unit the parser reads after a syntax error: one
// statement.
type stmtHolder struct {
	Stmt Stmt `parser:"@@"`
}

// grammarOptions configure every parser of the language, with the
// expression limits of lim. Union members are listed most frequent first:
// participle tries them in order.
func grammarOptions(lim Limits) []participle.Option {
	return []participle.Option{
		participle.Lexer(Lexer),
		participle.Union[Stmt](statementNodes()...), // statements.go
		participle.Union[JobItem](&Expect{}, &FactorBlock{},
			&Owners{}, &Window{},
			&Field{}),
		participle.ParseTypeWith(exprParserOf(lim)),
		// One token decides every branch of the grammar; a larger lookahead
		// lets participle back out of a half-parsed block item and blame a
		// token before the real error.
		participle.UseLookahead(1),
	}
}

// Grammar returns the EBNF of the statement grammar, for the docs.
func Grammar() string { return parsersFor(DefaultLimits).stmt().String() }

// Parse reads a .gpl file under the DefaultLimits; see ParseWith.
func Parse(name string, src []byte) (*File, Diagnostics) {
	return ParseWith(DefaultLimits, name, src)
}

// ParseWith is ParseOwned on a copy of src: the File and its tree share
// no memory with the caller's buffer, which the caller may reuse at once.
func ParseWith(lim Limits, name string, src []byte) (*File, Diagnostics) {
	return ParseOwned(lim, name, bytes.Clone(src))
}

// ParseOwned reads a .gpl file, refusing input beyond lim (a zero field of
// lim takes its default).
//
// participle reads the file one top-level statement at a time, so that
// memory holds the tree and one statement's tokens, never the whole
// file's: the scanner stops at each statement keyword that can only start
// a statement (one at brace depth 0 after a token that can end one),
// which is where a reading of the whole file in one pass would start the
// next statement too. When that meets a syntax error, the file is read
// again statement by statement with the resynchronising rule of
// splitStatements, so that a syntax error in one statement does not hide
// the others: every independent error comes back, in source order, with
// the statements that did parse. Within a block, a syntax error costs only
// its own item: the statement is read again repaired (see recover.go), and
// kept with its other items.
//
// src becomes the File's (File.Src): the names and literals of its tree
// are read from it in place, not copied, so that a file is not held twice
// (the 50 MB file of the README's figures would be 100). The caller gives
// src up and never writes to it again; a caller that keeps its buffer
// calls ParseWith, which copies.
func ParseOwned(lim Limits, name string, src []byte) (*File, Diagnostics) {
	lim = lim.WithDefaults()
	f := &File{Name: name, Src: src}
	if len(src) > lim.MaxFileSize {
		return f, Diagnostics{fileTooLarge(name, src, lim.MaxFileSize)}
	}
	if d := tooManyDeclarations(name, inPlace(src), lim.MaxDeclarations); d != nil {
		return f, Diagnostics{d}
	}
	ps := parsersFor(lim)
	c := &compactor{}
	if eachStatement(ps, lim, name, src, func(s Stmt) { f.Stmts = append(f.Stmts, c.stmt(s)) }) {
		return f, nil
	}
	var diags Diagnostics
	f.Stmts, f.Partial, f.Lost, diags = parseStatements(ps, lim, inPlace(src), name, &compactor{})
	return f, diags
}

// declaredName is the name a statement's tokens would declare, or "".
func declaredName(chunk []lexer.Token) string {
	var sig []*lexer.Token
	for i := range chunk {
		if !isBlank(chunk[i].Type) {
			sig = append(sig, &chunk[i])
			if len(sig) == 2 {
				break
			}
		}
	}
	if len(sig) == 2 && sig[0].Type == tokIdent && declaringKeywords[sig[0].Value] && sig[1].Type == tokIdent && !IsKeyword(sig[1].Value) {
		return sig[1].Value
	}
	return ""
}

// inPlace is src read as a string without a copy: the parser reads a
// file's tokens, and so the tree's names and literals, as slices of src
// itself. Only bytes the parser owns are read so (ParseOwned's rule); it is
// the one place where lang aliases memory, and it never crosses the API.
func inPlace(src []byte) string {
	if len(src) == 0 {
		return ""
	}
	return unsafe.String(&src[0], len(src))
}

// EachStatement parses src under lim (a zero field takes its default) one
// top-level statement at a time, handing each to fn as it is read, so that
// a caller that needs one statement at a time (gpl fmt) never holds the
// whole tree. It stops at the first syntax error and returns false; so it
// does, having read nothing, when src is larger than lim allows. ParseWith
// then gives every error. The statements fn is handed are read from src in
// place, as ParseOwned reads a file: what fn keeps of them holds while
// src is unchanged, so a caller that keeps any of it keeps src as it is.
func EachStatement(lim Limits, name string, src []byte, fn func(Stmt)) bool {
	lim = lim.WithDefaults()
	if len(src) > lim.MaxFileSize {
		return false
	}
	return eachStatement(parsersFor(lim), lim, name, src, fn)
}

// eachStatement parses src one top-level statement at a time, handing
// each to fn as it is read, so that a caller that needs one statement at
// a time (gpl fmt) never holds the whole tree. It stops at the first
// syntax error and returns false; ParseWith then reads the file again to
// find every error.
func eachStatement(ps *parsers, lim Limits, name string, src []byte, fn func(Stmt)) bool {
	l := stmtLexer{sc: newTokenScanner(name, inPlace(src)), cutAt: lim.MaxExprTerms + cutSlack}
	for l.begin() {
		s, err := parseFrom(ps, &l) // no blanks to elide
		if err != nil {
			return false
		}
		fn(s)
	}
	return true
}

// parseStatements parses src with participle one statement at a time, as
// splitStatements divides it, repairing a broken block item so the rest of
// its statement is kept.
func parseStatements(ps *parsers, lim Limits, src, name string, cp *compactor) (stmts []Stmt, partial map[Stmt]bool, lost map[string]bool, diags Diagnostics) {
	c := chunker{sc: newTokenScanner(name, src), cutAt: lim.MaxExprTerms + cutSlack}
	for {
		chunk, _, ok := c.next()
		if !ok {
			return stmts, partial, lost, diags
		}
		s, ds, dropped := parseRepairing(ps, chunk, src)
		diags = append(diags, ds...)
		if n := declaredName(chunk); s == nil && len(ds) > 0 && n != "" {
			if lost == nil {
				lost = map[string]bool{}
			}
			lost[n] = true
		}
		if s != nil {
			s = cp.stmt(s)
			stmts = append(stmts, s)
			if dropped {
				if partial == nil {
					partial = map[Stmt]bool{}
				}
				partial[s] = true
			}
		}
	}
}

// stmtLexer hands participle the significant tokens of one top-level
// statement at a time, scanned as participle asks for them: comments,
// spaces and newlines are passed over, not handed out, so participle has
// half the tokens to read and copy (a node's end is taken from its last
// token, see EndMark). A statement ends at a statement keyword at brace
// depth 0 that follows a token that can end a statement: where a reading
// of the whole file in one pass would start the next statement too.
type stmtLexer struct {
	sc      tokenScanner
	cutAt   int          // the tokens of an expression past this many terms are passed over (termRun); 0 never
	run     termRun      // the expression the tokens are in
	eliding bool         // the run is past cutAt
	started bool         // the first statement has begun
	pend    *lexer.Token // a token of this statement read ahead
	held    *lexer.Token // the keyword that starts the next statement
	depth   int          // brace depth within the statement
	ends    bool         // the last token can end a statement
	first   bool         // no token of the statement has been handed out
	done    bool         // the statement's tokens are all handed out
	eof     lexer.Token
}

// begin starts the next statement; it is false when none is left.
func (l *stmtLexer) begin() bool {
	l.depth, l.ends, l.done, l.first = 0, false, false, true
	l.run, l.eliding = termRun{}, false
	if l.held != nil {
		l.pend, l.held = l.held, nil
		return true
	}
	if l.started {
		return false
	}
	l.started = true
	if strings.HasPrefix(l.sc.src, bom) {
		l.sc.next()
	}
	for l.sc.i < len(l.sc.src) {
		if t, _ := scanOne(l.sc.src, l.sc.i); !isBlank(t) {
			return true
		}
		l.sc.next()
	}
	return false
}

// Next returns the statement's next token, then EOF. Blanks (spaces,
// newlines, comments) are not handed out: EndMark finds a node's end
// from its last token, so the parser never needs them.
func (l *stmtLexer) Next() (lexer.Token, error) {
	if l.pend != nil {
		t := *l.pend
		l.pend = nil
		l.note(&t)
		return t, nil
	}
	if l.done {
		return l.eof, nil
	}
	t, ok := l.sc.next()
	for {
		for ok && isBlank(t.Type) {
			t, ok = l.sc.next()
		}
		if !ok || l.startsNext(&t) || !l.elide(&t) {
			break
		}
		// Far into an expression over its limit, which the parser meets
		// before this token: passed over, not handed out.
		l.note(&t)
		t, ok = l.sc.next()
	}
	switch {
	case !ok:
		l.done, l.eof = true, lexer.EOFToken(l.sc.pos)
	case !l.boundary(&t):
		l.note(&t)
		return t, nil
	}
	return l.eof, nil
}

// elide reports whether t is passed over: a token of an expression
// already cutSlack terms past the limit on one (termRun), up to the token
// where the run ends, which is handed out with the rest of the statement.
func (l *stmtLexer) elide(t *lexer.Token) bool {
	if l.cutAt == 0 {
		return false
	}
	n := l.run.see(t)
	was := l.eliding
	l.eliding = n > l.cutAt
	return was && l.eliding
}

// startsNext reports whether t starts the next statement.
func (l *stmtLexer) startsNext(t *lexer.Token) bool {
	return t.Type == tokIdent && statementKeywords[t.Value] && l.depth == 0 && l.ends
}

// boundary reports whether t starts the next statement, and if so ends
// this one.
func (l *stmtLexer) boundary(t *lexer.Token) bool {
	if l.startsNext(t) {
		h := *t // a copy: t, the caller's, stays off the heap
		l.held = &h
		l.done, l.eof = true, lexer.EOFToken(t.Pos)
		return true
	}
	return false
}

func (l *stmtLexer) note(t *lexer.Token) {
	if t.Type == tokOp {
		switch t.Value {
		case "{":
			l.depth++
		case "}":
			l.depth--
		}
	}
	// A declaring keyword that starts the statement wants its name next,
	// even one spelt like a statement keyword: sweep sweep over j { … }.
	l.ends = endsStatement(t) && !(l.first && declaringKeywords[t.Value])
	l.first = false
}

func isBlank(typ lexer.TokenType) bool {
	return typ == tokNewline || typ == tokSpace || typ == tokComment
}

// chunker divides source text, after a syntax error, into one statement at
// a time as splitStatements did: a statement keyword at brace depth 0
// starts a new statement, and so does a declaration keyword at the start of
// a line whatever the depth (a missing "}" then costs one statement, not
// the rest of the file). Each run of comments, spaces and newlines is
// merged into one space token.
type chunker struct {
	sc    tokenScanner
	cutAt int // the tokens of an expression past this many terms are passed over (termRun); 0 never

	buf         []lexer.Token
	held        *lexer.Token // the keyword that starts the next statement
	significant bool         // a significant token has been read
	lineStart   bool
	named       bool // the statement so far is a declaring keyword alone: its name comes next
}

// next returns the tokens of the next statement and the token that
// follows them (EOF, placed where the next statement starts); ok is false
// when the source holds no further statement.
func (c *chunker) next() (chunk []lexer.Token, eof lexer.Token, ok bool) {
	if c.sc.i == 0 {
		c.lineStart = true
	}
	c.buf = c.buf[:0]
	depth, gap := 0, false
	c.named = false
	var run termRun
	eliding := false // the tokens of an expression far past its limit are passed over (stmtLexer.elide)
	if c.held != nil {
		c.buf = append(c.buf, *c.held)
		c.named = declaringKeywords[c.held.Value]
		c.held = nil
	}
	for {
		t, more := c.sc.next()
		if !more {
			break
		}
		typ := t.Type
		switch typ {
		case tokNewline, tokSpace, tokComment:
			if isLineBreak(&t) {
				c.lineStart = true
			}
			if !gap && !eliding {
				c.buf = append(c.buf, lexer.Token{Type: tokSpace, Pos: t.Pos})
				gap = true
			}
			continue
		}
		if typ == tokIdent && statementKeywords[t.Value] && c.significant && !c.named &&
			(depth <= 0 || c.lineStart && t.Pos.Column == 1 && endsOpenBlock[t.Value]) {
			h := t // a copy: t stays off the heap for the tokens that are not held
			c.held = &h
			c.lineStart = false
			return c.buf, lexer.EOFToken(t.Pos), true
		}
		if typ == tokOp {
			switch t.Value {
			case "{":
				depth++
			case "}":
				depth--
			}
		}
		c.named = !c.significant && typ == tokIdent && declaringKeywords[t.Value]
		was := eliding
		eliding = c.cutAt > 0 && run.see(&t) > c.cutAt
		if !was || !eliding {
			// Held, unless far into an expression over its limit, which
			// the parser meets within what is held (stmtLexer.elide).
			c.buf = append(c.buf, t)
		}
		gap = false
		c.significant, c.lineStart = true, false
	}
	if len(c.buf) == 0 || !c.significant {
		return nil, lexer.Token{}, false
	}
	chunk = c.buf
	c.buf = nil // nothing follows: the next call reports the end
	return chunk, lexer.EOFToken(c.sc.pos), true
}

// endsStatement reports whether a statement can end with t: a closing
// brace, a string, a number, a name, true or false, ")" or "%". Every other
// token needs something after it.
func endsStatement(t *lexer.Token) bool {
	switch t.Type {
	case tokString, tokNumber, tokMoney, tokDate:
		return true
	case tokIdent:
		return !IsKeyword(t.Value) || t.Value == "true" || t.Value == "false"
	case tokOp:
		return t.Value == "}" || t.Value == ")" || t.Value == "%"
	}
	return false
}

// advance moves pos past token t of n bytes. Only a Newline token holds a
// line break, and most tokens are ASCII, so advancing is usually an
// addition.
func advance(pos *lexer.Position, t *lexer.Token, n int) {
	switch {
	case isLineBreak(t):
		pos.Line++
		pos.Column = 1
	case isASCII(t.Value):
		pos.Column += n
	default:
		pos.Column += utf8.RuneCountInString(t.Value)
	}
	pos.Offset += n
}

// tokenize lexes the whole file. The scanner never fails: a character no
// token starts with becomes an Invalid token, which the parser reports.
func tokenize(name string, src []byte) ([]lexer.Token, *Diagnostic) {
	return scanTokens(name, string(src)), nil
}

// sliceLexer replays a slice of tokens, ending with EOF.
type sliceLexer struct {
	toks []lexer.Token
	eof  lexer.Token
}

func (s *sliceLexer) Next() (lexer.Token, error) {
	if len(s.toks) == 0 {
		return s.eof, nil
	}
	t := s.toks[0]
	s.toks = s.toks[1:]
	return t, nil
}

var elided = []lexer.TokenType{tokComment, tokNewline, tokSpace}

// parseChunk parses one statement read after a syntax error; its end is
// the end of its last token.
func parseChunk(ps *parsers, chunk []lexer.Token) (Stmt, error) {
	last := chunk[0]
	for _, t := range chunk {
		if t.Type != tokNewline && t.Type != tokSpace && t.Type != tokComment {
			last = t
		}
	}
	return parseTokens(ps, chunk, lexer.EOFToken(tokenEnd(&last)))
}

// parseTokens parses the tokens of one statement, followed by eof.
func parseTokens(ps *parsers, toks []lexer.Token, eof lexer.Token) (Stmt, error) {
	return parseFrom(ps, &sliceLexer{toks: toks, eof: eof}, elided...)
}

// parseFrom parses one statement from lex, passing over the tokens of the
// types in elide.
func parseFrom(ps *parsers, lex lexer.Lexer, elide ...lexer.TokenType) (_ Stmt, err error) {
	defer recoverLimit(&err)
	pl, err := lexer.Upgrade(lex, elide...)
	if err != nil {
		return nil, err
	}
	h, err := ps.stmt().ParseFromLexer(pl)
	if err != nil {
		return nil, err
	}
	return h.Stmt, nil
}

// syntaxDiagnostic turns a participle or expression error in the tokens
// of chunk, from source src, into a Diagnostic whose caret sits under the
// cause, with a hint of what to write where the mistake is a common one
// (see hints.go).
func syntaxDiagnostic(err error, chunk []lexer.Token, src string) *Diagnostic {
	h := explainSyntax(err, chunk, src)
	if h.diag.Fixes == nil {
		h.diag.Fixes = placedFixes(h.fixes, nil, src)
	}
	return h.diag
}

// plainSyntaxDiagnostic is the diagnostic of a syntax error as participle
// or the expression parser put it, its caret under the offending token.
func plainSyntaxDiagnostic(err error, chunk []lexer.Token) *Diagnostic {
	var he *hintError
	if errors.As(err, &he) {
		return he.diagnostic()
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		return &Diagnostic{Severity: Error, Summary: "syntax error: " + se.Msg, Pos: se.Pos, End: se.EndPos}
	}
	var ut *participle.UnexpectedTokenError
	if errors.As(err, &ut) {
		t := ut.Unexpected
		msg := "syntax error: unexpected " + describeToken(t)
		if t.Type == symbols["Invalid"] {
			msg = "unexpected character " + describeToken(t)
		}
		if exp := expectedToken(ut); exp != "" {
			msg += ", expected " + exp
		}
		return &Diagnostic{Severity: Error, Summary: msg, Pos: t.Pos, End: tokenEnd(&t)}
	}
	var pe participle.Error
	if errors.As(err, &pe) {
		pos := pe.Position()
		end := pos
		for _, t := range chunk {
			if t.Pos.Offset == pos.Offset {
				end = tokenEnd(&t)
			}
		}
		return &Diagnostic{Severity: Error, Summary: "syntax error: " + pe.Message(), Pos: pos, End: end}
	}
	first := chunk[0].Pos
	return &Diagnostic{Severity: Error, Summary: "syntax error: " + err.Error(), Pos: first, End: tokenEnd(&chunk[0])}
}

// expectedToken names what the grammar wanted where it met the unexpected
// token, when that is a single keyword, symbol or name. participle keeps
// the wanted grammar node unexported (ut.Expect stays empty); its text is
// the "(expected …)" part of Message.
func expectedToken(ut *participle.UnexpectedTokenError) string {
	if ut.Expect != "" {
		return ut.Expect
	}
	bare := *ut
	bare.Unexpected = lexer.Token{}
	rest, ok := strings.CutPrefix(bare.Message(), `unexpected token "" (expected `)
	if !ok {
		return ""
	}
	first, _, _ := strings.Cut(strings.TrimSuffix(rest, ")"), " ")
	switch {
	case first == "Ident":
		return "a name"
	case len(first) > 2 && strings.HasPrefix(first, `"`) && strings.HasSuffix(first, `"`):
		return first
	}
	return ""
}

func describeToken(t lexer.Token) string {
	if t.EOF() {
		return "end of statement"
	}
	return fmt.Sprintf("%q", strings.TrimSpace(t.Value))
}

type exprHolder struct {
	X Expr `parser:"@@"`
}

// ParseExpr reads a single expression, such as llama2_70b.mpg * 2, under
// the DefaultLimits.
func ParseExpr(name, src string) (Expr, Diagnostics) {
	return ParseExprWith(DefaultLimits, name, src)
}

// ParseExprWith reads a single expression, refusing input beyond lim (a
// zero field of lim takes its default).
func ParseExprWith(lim Limits, name, src string) (x Expr, ds Diagnostics) {
	var over error
	defer func() {
		if over != nil {
			x, ds = nil, Diagnostics{over.(*hintError).diagnostic()}
		}
	}()
	defer recoverLimit(&over) // runs first
	lim = lim.WithDefaults()
	if len(src) > lim.MaxFileSize {
		return nil, Diagnostics{fileTooLarge(name, []byte(src), lim.MaxFileSize)}
	}
	toks := scanTokens(name, src)
	toks = toks[:len(toks)-1]
	if len(toks) > 0 && toks[0].Value == bom {
		toks = toks[1:] // a byte order mark takes no column, and is no token
	}
	if len(toks) == 0 {
		return nil, Diagnostics{{Severity: Error, Summary: "syntax error: expected an expression"}}
	}
	last := toks[len(toks)-1]
	pl, err := lexer.Upgrade(&sliceLexer{toks: toks, eof: lexer.EOFToken(tokenEnd(&last))}, elided...)
	if err == nil {
		var h *exprHolder
		h, err = parsersFor(lim).expr().ParseFromLexer(pl)
		if err == nil {
			return h.X, nil
		}
	}
	return nil, Diagnostics{syntaxDiagnostic(err, toks, src)}
}

// Text is the file's source from byte offset from to byte offset to,
// clamped to the file. It shares the File's own memory (see ParseOwned),
// so keeping it costs nothing beyond the File.
func (f *File) Text(from, to int) string {
	to = min(to, len(f.Src))
	if from < 0 || from >= to {
		return ""
	}
	return inPlace(f.Src[from:to])
}
