package lang

import (
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gpl-lang/gpl/lang/units"
)

// regexpLexer is the specification of the scanner, as regular expressions;
// tests hold the scanner to it token for token. A number may carry a unit,
// with or without a space before it (250ms, 2.5 USD/h); a money literal may
// carry a leading dollar sign ($2.50, $8.86/h); a percentage is a number
// followed by % (40%, 0.5 %). A line ends with "\n", "\r\n" or a lone
// "\r". (participle counts lines by "\n" alone, so oracleTokens places the
// tokens itself.)
var regexpLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `#[^\r\n]*`},
	{Name: "Newline", Pattern: `\r\n|[\r\n;]`},
	{Name: "Whitespace", Pattern: `[ \t]+`},
	{Name: "String", Pattern: `"(\\[^\r\n]|[^"\\\r\n])*"`},
	{Name: "Money", Pattern: `(?:\$|€|£)(?:[0-9][0-9_]*(?:\.[0-9][0-9_]*)?|\.[0-9][0-9_]*)(?:/h\b)?`},
	{Name: "Date", Pattern: `[0-9]{4}-[0-9]{2}(?:-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}(?::[0-9]{2})?)?)?\b`},
	{Name: "Number", Pattern: `(?:[0-9][0-9_]*(?:\.[0-9][0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?(?:[ \t]*(?:(?:` + units.Pattern() + `)\b|%))?`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Op", Pattern: `≈|~=|±|\+-|->|==|!=|<=|>=|&&|\|\||[-+*/^<>!?:=(){},.%\[\]]`},
	{Name: "Invalid", Pattern: `.`},
})

// oracleTokens lexes src with regexpLexer, a byte order mark at the start
// read as a space that takes no column, and places each token by the
// language's line breaks.
func oracleTokens(name, src string) ([]lexer.Token, error) {
	var toks []lexer.Token
	rest := src
	if strings.HasPrefix(src, bom) {
		toks = append(toks, lexer.Token{Type: tokSpace, Value: bom, Pos: lexer.Position{Filename: name, Line: 1, Column: 1}})
		rest = src[len(bom):]
	}
	lx, err := regexpLexer.LexString(name, rest)
	if err != nil {
		return nil, err
	}
	pos := lexer.Position{Filename: name, Offset: len(src) - len(rest), Line: 1, Column: 1}
	for {
		t, err := lx.Next()
		if err != nil {
			return nil, err
		}
		t.Pos = pos
		toks = append(toks, t)
		if t.EOF() {
			return toks, nil
		}
		if t.Type == tokNewline && t.Value != ";" {
			pos.Line++
			pos.Column = 1
		} else {
			pos.Column += utf8.RuneCountInString(t.Value)
		}
		pos.Offset += len(t.Value)
	}
}
