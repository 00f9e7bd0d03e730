package lsp

import (
	"net/url"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/lang"
)

// lines indexes a text by line, to turn byte offsets into the protocol's
// positions (lines from 0, characters in UTF-16 code units) and back.
type lines struct {
	text  string
	start []int // byte offset of each line's first byte
}

func newLines(text string) *lines {
	l := &lines{text: text, start: make([]int, 1, strings.Count(text, "\n")+1)}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			l.start = append(l.start, i+1)
		}
	}
	return l
}

// position is the protocol position of byte offset off.
func (l *lines) position(off int) Position {
	off = max(0, min(off, len(l.text)))
	line := sort.SearchInts(l.start, off+1) - 1
	return Position{Line: line, Character: utf16Len(l.text[l.start[line]:off])}
}

// offset is the byte offset of protocol position p, clamped to its line.
func (l *lines) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(l.start) {
		return len(l.text)
	}
	i, end := l.start[p.Line], l.lineEnd(p.Line)
	for n := 0; i < end && n < p.Character; {
		r, size := utf8.DecodeRuneInString(l.text[i:])
		n += utf16.RuneLen(r)
		if n > p.Character {
			break
		}
		i += size
	}
	return i
}

// lineEnd is the offset of the end of line n, before its line break.
func (l *lines) lineEnd(n int) int {
	end := len(l.text)
	if n+1 < len(l.start) {
		end = l.start[n+1] - 1
	}
	if end > l.start[n] && l.text[end-1] == '\r' {
		end--
	}
	return end
}

// rangeOf is the protocol range of the byte offsets [from, to).
func (l *lines) rangeOf(from, to int) Range {
	if to < from {
		to = from
	}
	return Range{l.position(from), l.position(to)}
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// uriPath is the file path a file: URI names, or the URI itself when it
// is of another scheme (an editor's unsaved buffer).
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x is C:\x
	}
	return filepath.FromSlash(p)
}

// pathURI is the file: URI of a path.
func pathURI(path string) string {
	if strings.Contains(path, ":") && !filepath.IsAbs(path) {
		return path // a URI already
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x is file:///C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// word is a name as written at a place: the dotted path up to and
// including the part under the cursor (llama2_70b.mpg with the cursor on
// mpg; llama2_70b with it on llama2_70b), and the range of that part.
type word struct {
	path     string
	parts    []string
	from, to int // byte offsets of the part under the cursor
	tok      int // index of that part's token
}

// tokens are a text's significant tokens: no blanks, no comments.
func tokens(name, text string) []lang.Token {
	return lang.Tokens(name, text, false)
}

// tokenAt is the index of the name token at or just before byte offset
// off, or -1.
func tokenAt(toks []lang.Token, off int) int {
	i := sort.Search(len(toks), func(i int) bool { return toks[i].Pos.Offset > off }) - 1
	for k := i; k >= 0 && k >= i-1; k-- {
		t := toks[k]
		if lang.IsIdent(t.Value) && t.Pos.Offset <= off && off <= t.Pos.Offset+len(t.Value) {
			return k
		}
	}
	return -1
}

// wordAt is the name at byte offset off of the tokens; false when no name
// is there.
func wordAt(toks []lang.Token, off int) (word, bool) {
	i := tokenAt(toks, off)
	if i < 0 {
		return word{}, false
	}
	start := i
	for start >= 2 && toks[start-1].Value == "." && lang.IsIdent(toks[start-2].Value) &&
		toks[start-1].Pos.Offset == toks[start-2].Pos.Offset+len(toks[start-2].Value) {
		start -= 2
	}
	var parts []string
	for k := start; k <= i; k += 2 {
		parts = append(parts, toks[k].Value)
	}
	t := toks[i]
	return word{path: strings.Join(parts, "."), parts: parts, from: t.Pos.Offset, to: t.Pos.Offset + len(t.Value), tok: i}, true
}
