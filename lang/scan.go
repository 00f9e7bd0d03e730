package lang

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gpl-lang/gpl/lang/units"
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
	sc := newTokenScanner(name, src)
	gap := false
	for {
		t, ok := sc.next()
		if !ok {
			return append(toks, lexer.EOFToken(sc.pos))
		}
		switch {
		case !merge:
			toks = append(toks, t)
		case t.Type == tokComment || t.Type == tokNewline || t.Type == tokSpace:
			if !gap && t.Value != bom {
				toks = append(toks, lexer.Token{Type: tokSpace, Pos: t.Pos})
				gap = true
			}
		default:
			toks = append(toks, t)
			gap = false
		}
	}
}

// tokenScanner reads the tokens of a source one at a time, so that a pass
// over a file holds no more than one token.
type tokenScanner struct {
	src string
	pos lexer.Position
	i   int
}

func newTokenScanner(name, src string) tokenScanner {
	return tokenScanner{src: src, pos: lexer.Position{Filename: name, Line: 1, Column: 1}}
}

// next returns the next token, comments, spaces and newlines included; ok
// is false at the end of the source, where pos is the EOF position. A byte
// order mark at the start is a space token that takes no column.
func (s *tokenScanner) next() (t lexer.Token, ok bool) {
	if s.i >= len(s.src) {
		return lexer.Token{}, false
	}
	if s.i == 0 && strings.HasPrefix(s.src, bom) {
		t = lexer.Token{Type: tokSpace, Value: bom, Pos: s.pos}
		s.i, s.pos.Offset = len(bom), len(bom)
		return t, true
	}
	typ, n := scanOne(s.src, s.i)
	t = lexer.Token{Type: typ, Value: s.src[s.i : s.i+n], Pos: s.pos}
	advance(&s.pos, &t, n)
	s.i += n
	return t, true
}

// bom is the UTF-8 byte order mark, which a file may start with.
const bom = "\uFEFF"

// isLineBreak reports whether t is a line break: "\n", "\r\n" or a lone
// "\r" (a Newline token is a line break or ";").
func isLineBreak(t *lexer.Token) bool { return t.Type == tokNewline && t.Value != ";" }

// positionAt is the position of byte offset off of src, lines broken as the
// scanner breaks them.
func positionAt(name string, src []byte, off int) Position {
	pos := Position{Filename: name, Line: 1, Column: 1}
	i := 0
	if strings.HasPrefix(string(src[:min(len(src), len(bom))]), bom) && off >= len(bom) {
		i = len(bom)
	}
	for i < off {
		// Columns count runes as the scanner does: an invalid byte is one.
		_, size := utf8.DecodeRune(src[i:])
		switch c := src[i]; {
		case c == '\n' || c == '\r' && (i+1 >= len(src) || src[i+1] != '\n'):
			pos.Line++
			pos.Column = 1
		default:
			pos.Column++
		}
		i += size
	}
	pos.Offset = off
	return pos
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsIdent reports whether s is a name as the language spells one: an
// ASCII letter or underscore, then letters, digits and underscores. A
// keyword is an identifier too; IsKeyword tells them apart.
func IsIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isWord(c) || i == 0 && isDigit(c) {
			return false
		}
	}
	return s != ""
}

func isWord(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// unitSymbols in the order the lexer's alternation tries them.
var unitSymbols = sync.OnceValue(func() []string { return strings.Split(strings.ReplaceAll(units.Pattern(), `\$`, `$`), "|") })

var operators = []string{"≈", "~=", "±", "+-", "->", "==", "!=", "<=", ">=", "&&", "||"}

// scanOne returns the type and byte length of the token at src[i:].
func scanOne(src string, i int) (lexer.TokenType, int) {
	c := src[i]
	switch {
	case c == '#':
		j := strings.IndexAny(src[i:], "\n\r")
		if j < 0 {
			return tokComment, len(src) - i
		}
		return tokComment, j
	case c == '\n' || c == ';':
		return tokNewline, 1
	case c == '[' || c == ']': // the lists of vary and find
		return tokOp, 1
	case c == '\r':
		if i+1 < len(src) && src[i+1] == '\n' {
			return tokNewline, 2
		}
		return tokNewline, 1
	case c == ' ' || c == '\t':
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		return tokSpace, j - i
	case c == '"':
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '"':
				return tokString, j + 1 - i
			case '\n', '\r':
				return tokInvalid, 1
			case '\\':
				if j+1 >= len(src) || src[j+1] == '\n' || src[j+1] == '\r' {
					return tokInvalid, 1
				}
				_, sz := utf8.DecodeRuneInString(src[j+1:])
				j += sz
			}
		}
		return tokInvalid, 1
	case c == '$' || strings.HasPrefix(src[i:], "€") || strings.HasPrefix(src[i:], "£"):
		sign := 1
		if c != '$' {
			_, sign = utf8.DecodeRuneInString(src[i:])
		}
		if n := numeralLen(src, i+sign, false); n > 0 {
			j := i + sign + n
			if strings.HasPrefix(src[j:], "/h") && (j+2 == len(src) || !isWord(src[j+2])) {
				j += 2
			}
			return tokMoney, j - i
		}
	case isDigit(c) && dateLen(src, i) > 0:
		return tokDate, dateLen(src, i)
	case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
		j := i + numeralLen(src, i, true)
		k := j
		for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
			k++
		}
		if k < len(src) && src[k] == '%' {
			return tokNumber, k + 1 - i // a percentage: 40%, 0.5 %
		}
		if k == len(src) || !(src[k] >= 'A' && src[k] <= 'Z' || src[k] >= 'a' && src[k] <= 'z' || src[k] == '$' ||
			strings.HasPrefix(src[k:], "€") || strings.HasPrefix(src[k:], "£")) {
			return tokNumber, j - i
		}
		for _, u := range unitSymbols() {
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
	if strings.IndexByte("-+*/^<>!?:=(){},.%", c) >= 0 {
		return tokOp, 1
	}
	_, sz := utf8.DecodeRuneInString(src[i:])
	return tokInvalid, sz
}

// dateLengths are the lengths of a date literal's shapes, longest first:
// 2027-01-04T06:30:15, 2027-01-04T06:30, 2027-01-04 and the month 2027-01.
var dateLengths = [...]int{19, 16, 10, 7}

// dateLen is the length of the date literal at src[i:], or 0: the
// longest of its shapes (units.DateShape) that no letter, digit or
// underscore follows. Whether it is a valid date is the parser's to say,
// so that 2027-02-30 is an error at it, never 2027 − 2 − 30.
func dateLen(src string, i int) int {
	if i+7 > len(src) || src[i+4] != '-' {
		return 0
	}
	for _, n := range dateLengths {
		if i+n > len(src) || i+n < len(src) && isWord(src[i+n]) {
			continue
		}
		if _, ok := units.DateShape(src[i : i+n]); ok {
			return n
		}
	}
	return 0
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

// IsBlank reports whether t is a comment, a run of spaces, or a newline
// (a line break or ";"): a token the parser skips.
func IsBlank(t Token) bool { return isBlank(t.Type) }

// IsSpace reports whether t is a run of spaces and tabs, or the byte order
// mark a file may start with.
func IsSpace(t Token) bool { return t.Type == tokSpace }

// IsLineBreak reports whether t breaks a line: "\n", "\r\n" or a lone
// "\r" (";" ends a statement as a line break does, but is none).
func IsLineBreak(t Token) bool { return isLineBreak(&t) }

// IsNumber reports whether t is a number, with its unit if it has one.
func IsNumber(t Token) bool { return t.Type == tokNumber }

// IsOp reports whether t is an operator or punctuation: "+", "≈", "{", ….
func IsOp(t Token) bool { return t.Type == tokOp }

// Scanner reads the tokens of a source one at a time, comments, spaces and
// newlines included, so that a pass over a file holds no more than one
// token. A byte order mark at the start is a space token that takes no
// column.
type Scanner struct{ s tokenScanner }

// NewScanner starts reading the tokens of src, whose file is name.
func NewScanner(name, src string) Scanner { return Scanner{newTokenScanner(name, src)} }

// Next returns the next token; ok is false at the end of the source.
func (s *Scanner) Next() (t Token, ok bool) { return s.s.next() }
