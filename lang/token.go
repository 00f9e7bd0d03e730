package lang

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// Position is a place in a source file: its name, byte offset, 1-based line
// and 1-based column counted in characters (runes).
type Position = lexer.Position

// Lexer is the token definition of the language. A number may carry a unit,
// with or without a space before it (250ms, 2.5 USD/h); a money literal may
// carry a leading dollar sign ($2.50, $8.86/h).
var Lexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `#[^\n]*`},
	{Name: "Newline", Pattern: `[\n;]`},
	{Name: "Whitespace", Pattern: `[ \t\r]+`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Money", Pattern: `\$(?:[0-9][0-9_]*(?:\.[0-9][0-9_]*)?|\.[0-9][0-9_]*)(?:/h\b)?`},
	{Name: "Number", Pattern: `(?:[0-9][0-9_]*(?:\.[0-9][0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?(?:[ \t]*(?:` + unitPattern + `)\b)?`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Op", Pattern: `≈|~=|±|\+-|->|==|!=|<=|>=|&&|\|\||[-+*/<>!?:=(){},.%]`},
	{Name: "Invalid", Pattern: `.`},
})

// Keywords are the identifiers reserved by the language.
var Keywords = []string{
	"pool", "job", "on", "extends", "factors", "ceilings", "let", "rules", "when",
	"else", "request", "expect", "within", "import", "true", "false", "and", "or", "not",
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

// statementKeywords start a top-level statement; the parser resynchronises
// on them after a syntax error.
var statementKeywords = map[string]bool{
	"import": true, "let": true, "pool": true, "job": true, "rules": true,
	"request": true, "expect": true,
}

var (
	symbols    = Lexer.Symbols()
	tokComment = symbols["Comment"]
	tokNewline = symbols["Newline"]
	tokSpace   = symbols["Whitespace"]
	tokString  = symbols["String"]
	tokMoney   = symbols["Money"]
	tokNumber  = symbols["Number"]
	tokIdent   = symbols["Ident"]
	tokOp      = symbols["Op"]
	tokInvalid = symbols["Invalid"]
)
