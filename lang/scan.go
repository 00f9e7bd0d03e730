package lang

import (
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// scanTokens is the hand-written scanner behind Lexer: every token of src,
// comments, spaces and newlines included, ending with EOF. It produces
// exactly the tokens the regular-expression specification in the tests
// does (checked on every file in the repository and on random input),
// about two orders of magnitude faster.
func scanTokens(name string, src string) []lexer.Token {
	return scanInto(make([]lexer.Token, 0, len(src)/3+1), name, src, false)
}

// scanForParser is scanTokens with every run of comments, spaces and
// newlines between two significant tokens merged into one space token.
// The parser skips space tokens, so it reads the same statements; a node's
// end position (the start of whatever follows its last token) is the same
// too, and the parser has half the tokens to read.
func scanForParser(name string, src string) []lexer.Token {
	return scanInto(make([]lexer.Token, 0, len(src)/5+1), name, src, true)
}

// scanInto is a scan of src appended to toks; with merge, as
// scanForParser.
func scanInto(toks []lexer.Token, name string, src string, merge bool) []lexer.Token {
	r := newTokenReader(name, src)
	gap := false
	for {
		t, ok := r.next()
		if !ok {
			return append(toks, t)
		}
		switch {
		case !merge:
			toks = append(toks, t)
		case t.Type == tokComment || t.Type == tokNewline || t.Type == tokSpace:
			if !gap {
				toks = append(toks, lexer.Token{Type: tokSpace, Pos: t.Pos})
				gap = true
			}
		default:
			toks = append(toks, t)
			gap = false
		}
	}
}

// tokenReader reads src a token at a time.
type tokenReader struct {
	src string
	i   int
	pos lexer.Position
}

func newTokenReader(name, src string) *tokenReader {
	return &tokenReader{src: src, pos: lexer.Position{Filename: name, Line: 1, Column: 1}}
}

// next returns the next token, or the EOF token and false at the end.
func (r *tokenReader) next() (lexer.Token, bool) {
	if r.i >= len(r.src) {
		return lexer.EOFToken(r.pos), false
	}
	typ, n := scanOne(r.src, r.i)
	t := lexer.Token{Type: typ, Value: r.src[r.i : r.i+n], Pos: r.pos}
	// Only a Newline token holds a line break, and most tokens are ASCII,
	// so advancing is usually an addition.
	switch {
	case t.Value == "\n":
		r.pos.Line++
		r.pos.Column = 1
	case isASCII(t.Value):
		r.pos.Column += n
	default:
		r.pos.Column += utf8.RuneCountInString(t.Value)
	}
	r.pos.Offset += n
	r.i += n
	return t, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWord(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// unitSymbols in the order the lexer's alternation tries them.
var unitSymbols = strings.Split(strings.ReplaceAll(unitPattern, `\$`, `$`), "|")

var operators = []string{"≈", "~=", "±", "+-", "->", "==", "!=", "<=", ">=", "&&", "||"}

// scanOne returns the type and byte length of the token at src[i:].
func scanOne(src string, i int) (lexer.TokenType, int) {
	c := src[i]
	switch {
	case c == '#':
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			return tokComment, len(src) - i
		}
		return tokComment, j
	case c == '\n' || c == ';':
		return tokNewline, 1
	case c == '[' || c == ']': // the lists of vary and find
		return tokOp, 1
	case c == ' ' || c == '\t' || c == '\r':
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r') {
			j++
		}
		return tokSpace, j - i
	case c == '"':
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '"':
				return tokString, j + 1 - i
			case '\n':
				return tokInvalid, 1
			case '\\':
				if j+1 >= len(src) || src[j+1] == '\n' {
					return tokInvalid, 1
				}
				_, sz := utf8.DecodeRuneInString(src[j+1:])
				j += sz
			}
		}
		return tokInvalid, 1
	case c == '$':
		if n := numeralLen(src, i+1, false); n > 0 {
			j := i + 1 + n
			if strings.HasPrefix(src[j:], "/h") && (j+2 == len(src) || !isWord(src[j+2])) {
				j += 2
			}
			return tokMoney, j - i
		}
	case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
		j := i + numeralLen(src, i, true)
		k := j
		for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
			k++
		}
		if k == len(src) || !(src[k] >= 'A' && src[k] <= 'Z' || src[k] >= 'a' && src[k] <= 'z' || src[k] == '$') {
			return tokNumber, j - i
		}
		for _, u := range unitSymbols {
			if strings.HasPrefix(src[k:], u) && (k+len(u) == len(src) || !isWord(src[k+len(u)])) {
				return tokNumber, k + len(u) - i
			}
		}
		return tokNumber, j - i
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		j := i + 1
		for j < len(src) && isWord(src[j]) {
			j++
		}
		return tokIdent, j - i
	}
	for _, op := range operators {
		if strings.HasPrefix(src[i:], op) {
			return tokOp, len(op)
		}
	}
	if strings.IndexByte("-+*/<>!?:=(){},.%", c) >= 0 {
		return tokOp, 1
	}
	_, sz := utf8.DecodeRuneInString(src[i:])
	return tokInvalid, sz
}

// numeralLen is the length of the numeral at src[i:] (digits, underscores,
// a decimal point, and with exp an exponent), or 0.
func numeralLen(src string, i int, exp bool) int {
	j := i
	digits := func() {
		for j < len(src) && (isDigit(src[j]) || src[j] == '_') {
			j++
		}
	}
	switch {
	case j < len(src) && isDigit(src[j]):
		digits()
		if j+1 < len(src) && src[j] == '.' && isDigit(src[j+1]) {
			j++
			digits()
		}
	case j+1 < len(src) && src[j] == '.' && isDigit(src[j+1]):
		j++
		digits()
	default:
		return 0
	}
	if exp && j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && isDigit(src[k]) {
			for k < len(src) && isDigit(src[k]) {
				k++
			}
			j = k
		}
	}
	return j - i
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Token is one token of source text, with its position.
type Token = lexer.Token

// Tokens scans src with the language's scanner. Without all, comments,
// spaces and newlines are left out; the EOF token is never included.
func Tokens(name, src string, all bool) []Token {
	toks := scanTokens(name, src)
	toks = toks[:len(toks)-1]
	if all {
		return toks
	}
	out := toks[:0]
	for _, t := range toks {
		if t.Type != tokComment && t.Type != tokNewline && t.Type != tokSpace {
			out = append(out, t)
		}
	}
	return out
}

// IsComment reports whether t is a # comment.
func IsComment(t Token) bool { return t.Type == tokComment }
