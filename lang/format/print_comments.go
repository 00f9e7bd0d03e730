package format

// Comment attachment for the printer. The parser drops comments and blank
// lines, so the printer lexes the source again (scan) and places each
// comment by its offset: before the item it precedes, on a line of its own,
// or trailing the line it ends, continued by the comments aligned under it.

import (
	"sort"
	"strings"

	"github.com/gpl-lang/gpl/lang"
)

// srcComment is a comment as written, with where it sits.
type srcComment struct {
	off, line, col int
	text           string // trailing blanks removed
	alone          bool   // nothing but blanks before it on its line
}

// scan records the comments, blank lines and opening braces of the source.
func (p *printer) scan(name, src string) {
	p.blanks = []int{0}
	content, alone := false, true
	line := 1
	endLine := func() {
		n := p.blanks[len(p.blanks)-1]
		if !content {
			n++
		}
		p.blanks = append(p.blanks, n)
		content, alone = false, true
		line++
	}
	sc := lang.NewScanner(name, src)
	for {
		t, ok := sc.Next()
		if !ok {
			break
		}
		for line < t.Pos.Line { // defensive: a token that spans lines
			endLine()
		}
		switch {
		case lang.IsLineBreak(t):
			endLine()
			continue
		case lang.IsSpace(t):
			continue
		case lang.IsComment(t):
			p.comments = append(p.comments, srcComment{
				off: t.Pos.Offset, line: t.Pos.Line, col: t.Pos.Column,
				text: strings.TrimRight(t.Value, " \t\r"), alone: alone,
			})
		case lang.IsOp(t) && t.Value == "{":
			p.opens = append(p.opens, t.Pos)
		}
		content, alone = true, false
	}
	endLine()
}

// blankBetween reports whether a blank line lies strictly between lines a
// and b.
func (p *printer) blankBetween(a, b int) bool {
	if p.blanks == nil || b-1 <= a || a < 0 {
		return false
	}
	b = min(b-1, len(p.blanks)-1)
	return b > a && p.blanks[b] > p.blanks[a]
}

// openAfter is the first "{" at or after offset off.
func (p *printer) openAfter(off int) lang.Position {
	i := sort.Search(len(p.opens), func(i int) bool { return p.opens[i].Offset >= off })
	if i == len(p.opens) {
		return lang.Position{Offset: off}
	}
	return p.opens[i]
}

// flush prints every comment before offset off on lines of their own. A
// comment directly under a trailing comment, starting at or right of its
// column, continues it and stays aligned with it.
func (p *printer) flush(off int) {
	for p.next < len(p.comments) && p.comments[p.next].off < off {
		c := p.comments[p.next]
		p.next++
		if n := len(p.out); p.contCol > 0 && c.alone && c.line == p.contLine+1 && c.col >= p.contCol && n > 0 {
			prev := p.out[n-1]
			p.out = append(p.out, outLine{kind: contLine, depth: prev.depth, block: prev.block, trail: c.text})
			p.contLine, p.last = c.line, c.line
			continue
		}
		p.contCol = 0
		p.sep(c.line)
		p.emit(outLine{kind: commentLine, trail: c.text})
		p.last = c.line
	}
}

// open prepares an item starting at start: the comments before it, a blank
// line if the source has one, then the comments inside its first line's
// extent (up to headEnd), which move above it.
func (p *printer) open(start lang.Position, headEnd int) {
	p.flush(start.Offset)
	p.contCol = 0
	p.sep(start.Line)
	p.last = max(p.last, start.Line)
	p.flush(headEnd)
}

// trail attaches the comment that follows end on its line, if any, to the
// line just printed.
func (p *printer) trail(end lang.Position) {
	p.contCol = 0
	if p.next < len(p.comments) {
		c := p.comments[p.next]
		if c.line == end.Line && c.off >= end.Offset && onlyBlanks(p.src[end.Offset:c.off]) {
			p.out[len(p.out)-1].trail = c.text
			p.next++
			p.contCol, p.contLine = c.col, c.line
		}
	}
	p.last = max(p.last, end.Line)
}

func onlyBlanks(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != ';' {
			return false
		}
	}
	return true
}

// hasComment reports whether a comment not yet printed starts between
// offsets from and to.
func (p *printer) hasComment(from, to int) bool {
	for _, c := range p.comments[p.next:] {
		if c.off >= to {
			return false
		}
		if c.off >= from {
			return true
		}
	}
	return false
}
