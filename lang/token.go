package lang

import (
	"io"

	"github.com/alecthomas/participle/v2/lexer"
)

// Position is a place in a source file: its name, byte offset, 1-based line
// and 1-based column counted in characters (runes).
type Position = lexer.Position

// Token types of the scanner. Their names are what grammar tags and
// participle's messages use.
const (
	tokComment lexer.TokenType = -2 - iota
	tokNewline
	tokSpace
	tokString
	tokMoney
	tokDate // before Number: the specification tries it first
	tokNumber
	tokIdent
	tokOp
	tokInvalid
)

// symbols maps each token type's name to its type, as participle reads it.
var symbols = map[string]lexer.TokenType{
	"EOF": lexer.EOF, "Comment": tokComment, "Newline": tokNewline, "Whitespace": tokSpace,
	"String": tokString, "Money": tokMoney, "Number": tokNumber, "Date": tokDate, "Ident": tokIdent,
	"Op": tokOp, "Invalid": tokInvalid,
}

// Lexer is the token definition of the language, backed by the
// hand-written scanner (scan.go): a number may carry a unit, with or without
// a space before it (250ms, 2.5 USD/h); a money literal may carry a leading
// dollar sign ($2.50, $8.86/h). The scanner never fails: a character no
// token starts with becomes an Invalid token, which the parser reports.
var Lexer lexer.Definition = scannerDefinition{}

type scannerDefinition struct{}

// Symbols returns the token types by name.
func (scannerDefinition) Symbols() map[string]lexer.TokenType { return symbols }

// Lex scans everything r holds.
func (scannerDefinition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	toks := scanTokens(filename, string(b))
	return &sliceLexer{toks: toks[:len(toks)-1], eof: toks[len(toks)-1]}, nil
}

// Keywords are the identifiers reserved by the language.
var Keywords = []string{
	"pool", "job", "on", "extends", "factors", "ceilings", "let", "param", "rules", "when",
	"else", "request", "expect", "within", "import", "true", "false", "and", "or", "not",
	"owners",
}

var keywordSet = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range Keywords {
		m[k] = true
	}
	return m
}()

// IsKeyword reports whether name is reserved.
func IsKeyword(name string) bool { return keywordSet[name] }
