package lang

import "github.com/alecthomas/participle/v2/lexer"

// regexpLexer is the specification of the scanner, as regular expressions;
// tests hold the scanner to it token for token. A number may carry a unit,
// with or without a space before it (250ms, 2.5 USD/h); a money literal may
// carry a leading dollar sign ($2.50, $8.86/h).
var regexpLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `#[^\n]*`},
	{Name: "Newline", Pattern: `[\n;]`},
	{Name: "Whitespace", Pattern: `[ \t\r]+`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Money", Pattern: `\$(?:[0-9][0-9_]*(?:\.[0-9][0-9_]*)?|\.[0-9][0-9_]*)(?:/h\b)?`},
	{Name: "Number", Pattern: `(?:[0-9][0-9_]*(?:\.[0-9][0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?(?:[ \t]*(?:` + unitPattern + `)\b)?`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Op", Pattern: `≈|~=|±|\+-|->|==|!=|<=|>=|&&|\|\||[-+*/<>!?:=(){},.%\[\]]`},
	{Name: "Invalid", Pattern: `.`},
})
