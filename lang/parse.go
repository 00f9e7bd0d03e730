package lang

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// stmtHolder is the unit the parser reads after a syntax error: one
// statement.
type stmtHolder struct {
	Stmt Stmt `parser:"@@"`
}

// fileHolder is what the parser reads first: the whole file.
type fileHolder struct {
	Stmts []Stmt `parser:"@@*"`
}

// grammarOptions configure every parser of the language. Union members are
// listed most frequent first: participle tries them in order.
func grammarOptions() []participle.Option {
	return []participle.Option{
		participle.Lexer(Lexer),
		participle.Union[Stmt](&Job{}, &Expect{}, &Let{}, &Pool{}, &Rules{}, &Request{}, &Import{},
			&Sweep{}, &Solve{}, &Group{}, &Compare{}), // planning: ast_planning.go
		participle.Union[JobItem](&Expect{}, &FactorBlock{}, &Field{}),
		participle.ParseTypeWith(parseExpr),
		// One token decides every branch of the grammar; a larger lookahead
		// lets participle back out of a half-parsed block item and blame a
		// token before the real error.
		participle.UseLookahead(1),
	}
}

// The parsers are built once per process, when a verb first needs one.
var (
	fileParser = sync.OnceValue(func() *participle.Parser[fileHolder] {
		return participle.MustBuild[fileHolder](grammarOptions()...)
	})
	stmtParser = sync.OnceValue(func() *participle.Parser[stmtHolder] {
		return participle.MustBuild[stmtHolder](grammarOptions()...)
	})
	exprParserP = sync.OnceValue(func() *participle.Parser[exprHolder] {
		return participle.MustBuild[exprHolder](grammarOptions()...)
	})
)

// Grammar returns the EBNF of the statement grammar, for the docs.
func Grammar() string { return stmtParser().String() }

// Parse reads a .gpl file. participle reads it a group of statements at a
// time, so that the tokens held at once are bounded by the group, not the
// file; when that meets a syntax error, the file is read again statement
// by statement, so that a syntax error in one statement does not hide the
// others: the parser resynchronises at the next statement keyword, and
// every independent error comes back, in source order, with the
// statements that did parse.
func Parse(name string, src []byte) (*File, Diagnostics) {
	f := &File{Name: name, Src: src}
	if stmts, ok := parseGroups(name, string(src)); ok {
		f.Stmts = stmts
		return f, nil
	}
	var diags Diagnostics
	f.Stmts, diags = parseStatements(scanTokens(name, string(src)))
	return f, diags
}

// groupSize is how many top-level statements participle reads in one call.
const groupSize = 64

// parseGroups parses src in groups of statements; false at the first
// syntax error.
func parseGroups(name, src string) ([]Stmt, bool) {
	r := newTokenReader(name, src)
	var (
		stmts []Stmt
		group = make([]lexer.Token, 0, 256)
		depth int
		count int  // statements begun in the group
		gap   bool // the last token in group is a merged gap
	)
	flush := func(end lexer.Token) bool {
		if len(group) == 0 {
			return true
		}
		pl, err := lexer.Upgrade(&sliceLexer{toks: group, eof: lexer.EOFToken(end.Pos)}, elided...)
		if err != nil {
			return false
		}
		h, err := fileParser().ParseFromLexer(pl)
		if err != nil {
			return false
		}
		stmts = append(stmts, h.Stmts...)
		group, count = group[:0], 0
		return true
	}
	for {
		t, more := r.next()
		if !more {
			return stmts, flush(t)
		}
		switch t.Type {
		case tokComment, tokNewline, tokSpace:
			if !gap {
				group = append(group, lexer.Token{Type: tokSpace, Pos: t.Pos})
				gap = true
			}
			continue
		case tokIdent:
			if depth == 0 && statementKeywords[t.Value] {
				if count == groupSize {
					if !flush(t) {
						return nil, false
					}
				}
				count++
			}
		case tokOp:
			switch t.Value {
			case "{":
				depth++
			case "}":
				depth--
			}
		}
		group = append(group, t)
		gap = false
	}
}

// parseStatements parses with participle, one statement at a time.
func parseStatements(toks []lexer.Token) (stmts []Stmt, diags Diagnostics) {
	for _, chunk := range splitStatements(toks) {
		s, err := parseChunk(chunk)
		if err != nil {
			diags = append(diags, syntaxDiagnostic(err, chunk))
			continue
		}
		stmts = append(stmts, s)
	}
	return stmts, diags
}

// tokenize lexes the whole file. The scanner never fails: a character no
// token starts with becomes an Invalid token, which the parser reports.
func tokenize(name string, src []byte) ([]lexer.Token, *Diagnostic) {
	return scanTokens(name, string(src)), nil
}

// splitStatements divides the token stream into one slice per top-level
// statement: a statement keyword at brace depth 0 starts a new one, and so
// does a declaration keyword at the start of a line whatever the depth (a
// missing "}" then costs one statement, not the rest of the file).
func splitStatements(toks []lexer.Token) [][]lexer.Token {
	var chunks [][]lexer.Token
	start, depth := 0, 0
	lineStart := true
	significant := false
	for i, t := range toks {
		if t.EOF() {
			break
		}
		switch t.Type {
		case tokNewline:
			if t.Value == "\n" {
				lineStart = true
			}
			continue
		case tokSpace, tokComment:
			continue
		}
		if t.Type == tokIdent && statementKeywords[t.Value] && significant &&
			(depth <= 0 || lineStart && t.Pos.Column == 1 && t.Value != "expect") {
			chunks = append(chunks, toks[start:i])
			start, depth = i, 0
		}
		if t.Type == tokOp {
			switch t.Value {
			case "{":
				depth++
			case "}":
				depth--
			}
		}
		significant = true
		lineStart = false
	}
	if significant {
		chunks = append(chunks, toks[start:len(toks)-1])
	}
	return chunks
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

func parseChunk(chunk []lexer.Token) (Stmt, error) {
	last := chunk[0]
	for _, t := range chunk {
		if t.Type != tokNewline && t.Type != tokSpace && t.Type != tokComment {
			last = t
		}
	}
	eof := lexer.EOFToken(tokenEnd(&last))
	pl, err := lexer.Upgrade(&sliceLexer{toks: chunk, eof: eof}, elided...)
	if err != nil {
		return nil, err
	}
	h, err := stmtParser().ParseFromLexer(pl)
	if err != nil {
		return nil, err
	}
	return h.Stmt, nil
}

// syntaxDiagnostic turns a participle or expression error into a
// Diagnostic whose caret sits under the offending token.
func syntaxDiagnostic(err error, chunk []lexer.Token) *Diagnostic {
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

// ParseExpr reads a single expression, such as llama2_70b.mpg * 2.
func ParseExpr(name, src string) (Expr, Diagnostics) {
	toks, diag := tokenize(name, []byte(src))
	if diag != nil {
		return nil, Diagnostics{diag}
	}
	toks = toks[:len(toks)-1]
	if len(toks) == 0 {
		return nil, Diagnostics{{Severity: Error, Summary: "syntax error: expected an expression"}}
	}
	last := toks[len(toks)-1]
	pl, err := lexer.Upgrade(&sliceLexer{toks: toks, eof: lexer.EOFToken(tokenEnd(&last))}, elided...)
	if err == nil {
		var h *exprHolder
		h, err = exprParserP().ParseFromLexer(pl)
		if err == nil {
			return h.X, nil
		}
	}
	return nil, Diagnostics{syntaxDiagnostic(err, toks)}
}
