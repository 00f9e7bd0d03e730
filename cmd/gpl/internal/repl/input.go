package repl

import (
	"sort"
	"strings"
	"sync"

	"github.com/gpl-lang/gpl/lang"
)

// Reading inputs: whether one is a statement or an expression, whether it
// needs more lines, and how the history keeps it.

// startsStatement reports whether the text's first token is a statement
// keyword (let, param, pool, job, owners, group, sweep, …: the keywords of
// lang.Statements); anything else is read as an expression.
func startsStatement(text string) bool {
	toks := significantTokens(text)
	if len(toks) == 0 {
		return true // comments only: an empty list of statements
	}
	return lang.LookupStatement(toks[0].Value) != nil
}

// startsDeclaration reports whether a line begins with a reserved word
// that starts a top-level statement and can stand nowhere else: not inside
// an expression, nor inside a block (which holds expect and owners lines,
// so those two are left out). Such a line never continues an open input.
func startsDeclaration(line string) bool {
	toks := significantTokens(line)
	if len(toks) == 0 {
		return false
	}
	st := lang.LookupStatement(toks[0].Value)
	return st != nil && lang.IsKeyword(st.Keyword) && !st.InBlock
}

// planningStatements are the keywords of the statements that are not
// reserved words (lang.Keywords): the planning statements, compare,
// group, solve and sweep. A line that starts with one starts a statement,
// in a file as here; completion offers them beside the reserved words.
var planningStatements = sync.OnceValue(func() []string {
	var words []string
	for _, st := range lang.Statements {
		if !lang.IsKeyword(st.Keyword) {
			words = append(words, st.Keyword)
		}
	}
	sort.Strings(words)
	return words
})

// incomplete reports whether text needs more lines: a brace or parenthesis
// is open (braces), or the statement or expression stops short, its syntax
// error being at its very end.
func incomplete(text string) (more, braces bool) {
	toks := significantTokens(text)
	if len(toks) == 0 {
		return false, false
	}
	depth := 0
	for _, t := range toks {
		switch t.Value {
		case "{", "(":
			depth++
		case "}", ")":
			depth--
		}
	}
	if depth > 0 {
		return true, true
	}
	last := toks[len(toks)-1]
	end := last.Pos.Offset + len(last.Value)
	var diags lang.Diagnostics
	if startsStatement(text) {
		_, diags = lang.Parse("<input>", []byte(text))
	} else {
		_, diags = lang.ParseExpr("<input>", text)
	}
	for _, d := range diags {
		if d.Severity == lang.Error && d.Pos.Offset >= end {
			return true, false
		}
	}
	return false, false
}

// significantToken is a token that is not a comment, a newline or white
// space.
type significantToken struct {
	Value string
	Pos   lang.Position
}

// significantTokens lexes text with the language's scanner, comments,
// newlines and white space left out.
func significantTokens(text string) []significantToken {
	var out []significantToken
	for _, t := range lang.Tokens("<input>", text, false) {
		out = append(out, significantToken{t.Value, t.Pos})
	}
	return out
}

// historyEntry is how an input is kept in the history: a line as typed, or
// the lines of a multi-line input joined into one, comments left out, so
// that the Up key recalls the whole statement.
func historyEntry(lines []string) string {
	if len(lines) == 1 {
		return strings.TrimRight(lines[0], " \t")
	}
	var parts []string
	for _, l := range lines {
		if l = strings.TrimSpace(stripComment(l)); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// stripComment cuts a line's trailing # comment, leaving strings alone.
func stripComment(line string) string {
	for _, t := range lang.Tokens("", line, true) {
		if lang.IsComment(t) {
			return line[:t.Pos.Offset]
		}
	}
	return line
}
