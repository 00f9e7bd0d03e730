package lang

// The printer's self-check: formatting may change only layout, so the
// output must lex to the tokens and comments of the source.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// sameTokens checks that out holds the tokens of the source, in order, up
// to the canonical spellings, and its comments, in order (a comment inside
// an expression moves above its statement, so the two lists are compared
// apart). A file with syntax errors fails the check (its broken statements
// are not in the tree); its diagnostics are returned then.
func sameTokens(f *File, in []lexer.Token, out []byte) error {
	if got, diag := tokenize(f.Name, out); diag == nil {
		codeIn, commentsIn := meaningfulTokens(in)
		codeOut, commentsOut := meaningfulTokens(got)
		if slices.Equal(codeIn, codeOut) && slices.Equal(commentsIn, commentsOut) {
			return nil
		}
	}
	if _, diags := Parse(f.Name, f.Src); diags.HasErrors() {
		return diags
	}
	return fmt.Errorf("internal error: formatting %s would change more than its layout; please report it", f.Name)
}

var canonicalToken = map[string]string{"~=": "≈", "+-": "±", "&&": "and", "||": "or", "!": "not"}

// meaningfulTokens lists the tokens that carry meaning, as the printer spells
// them, and the comments.
func meaningfulTokens(toks []lexer.Token) (code, comments []string) {
	for _, t := range toks {
		switch {
		case t.EOF() || t.Type == tokSpace || t.Type == tokNewline:
		case t.Type == tokComment:
			comments = append(comments, strings.TrimRight(t.Value, " \t\r"))
		case t.Type == tokNumber:
			code = append(code, numberText(t.Value))
		case t.Type == tokOp && canonicalToken[t.Value] != "":
			code = append(code, canonicalToken[t.Value])
		default:
			code = append(code, t.Value)
		}
	}
	return code, comments
}
