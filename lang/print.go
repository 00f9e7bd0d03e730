package lang

// The printer behind gpl fmt. It walks the syntax tree in source order and
// collects output lines; comments, which the parser drops, are recovered by
// lexing the source again and placed by their offsets. A second pass pads
// the lines so that = signs, rule arrows and trailing comments line up.
// docs/fmt.md describes the layout.

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// FormatFile returns f in the canonical layout that gpl fmt writes, every
// comment kept (docs/fmt.md describes the layout). f should come from Parse:
// the printer reads comments and blank lines from f.Src. If the source has
// syntax errors FormatFile returns them, as Diagnostics, instead of text.
// (Format, in units.go, prints a value; this prints a file.)
func FormatFile(f *File) ([]byte, error) {
	p := &printer{src: f.Src, fresh: true}
	var toks []lexer.Token
	if f.Src != nil {
		var diag *Diagnostic
		toks, diag = tokenize(f.Name, f.Src)
		if diag != nil {
			return nil, Diagnostics{diag}
		}
		p.scan(toks)
	}
	for _, s := range f.Stmts {
		p.stmt(s)
	}
	p.flush(len(f.Src) + 1)
	out := p.render()
	if f.Src != nil {
		if err := sameTokens(f, toks, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Print writes f to w in the canonical layout; see FormatFile.
func Print(w io.Writer, f *File) error {
	b, err := FormatFile(f)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// FormatSource parses src and returns it in the canonical layout, or the
// syntax errors that keep it from being formatted.
func FormatSource(name string, src []byte) ([]byte, error) {
	f, diags := Parse(name, src)
	if diags.HasErrors() {
		return nil, diags
	}
	return FormatFile(f)
}

// srcComment is a comment as written, with where it sits.
type srcComment struct {
	off, line, col int
	text           string // trailing blanks removed
	alone          bool   // nothing but blanks before it on its line
}

type lineKind uint8

const (
	codeLine    lineKind = iota
	commentLine          // a comment on a line of its own
	contLine             // a comment continuing the trailing comment above it
	blankLine
)

// outLine is one line of output before alignment.
type outLine struct {
	kind  lineKind
	depth int
	block int // lines align only with lines of the same block

	// Consecutive code lines of one class pad their keys to the widest:
	// "field" (NAME = …, and one-line factors and ceilings blocks), "let"
	// (let NAME = …), "pool" and "request" (one-line blocks, keyed by the
	// header before "{").
	class string
	key   string
	cells []string // a one-line block's fields, "NAME = VALUE"
	rule  bool     // a rule: key is its "label:" or "", cond its "when …"
	cond  string
	text  string // the rest of the code
	trail string // the trailing comment, or the comment of a comment line
}

type printer struct {
	src      []byte
	comments []srcComment
	blanks   []int      // blanks[n]: how many of lines 1..n are blank
	opens    []Position // every "{", in order
	next     int        // the first comment not yet printed

	out          []outLine
	depth, block int
	blocks       int  // block ids handed out
	fresh        bool // nothing printed yet in this block: no blank line
	last         int  // source line of what was printed last
	contCol      int  // column of the trailing comment just printed, 0 if none
	contLine     int  // line of that comment or of its last continuation
}

// scan records the comments, blank lines and opening braces of the source.
func (p *printer) scan(toks []lexer.Token) {
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
	for i := range toks {
		t := &toks[i]
		if t.EOF() {
			break
		}
		for line < t.Pos.Line { // defensive: a token that spans lines
			endLine()
		}
		switch {
		case t.Type == tokNewline && t.Value == "\n":
			endLine()
			continue
		case t.Type == tokSpace:
			continue
		case t.Type == tokComment:
			p.comments = append(p.comments, srcComment{
				off: t.Pos.Offset, line: t.Pos.Line, col: t.Pos.Column,
				text: strings.TrimRight(t.Value, " \t\r"), alone: alone,
			})
		case t.Type == tokOp && t.Value == "{":
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
func (p *printer) openAfter(off int) Position {
	i := sort.Search(len(p.opens), func(i int) bool { return p.opens[i].Offset >= off })
	if i == len(p.opens) {
		return Position{Offset: off}
	}
	return p.opens[i]
}

func (p *printer) emit(l outLine) {
	l.depth, l.block = p.depth, p.block
	p.out = append(p.out, l)
	p.fresh = false
}

// sep prints one blank line if the source has any before line n.
func (p *printer) sep(n int) {
	if !p.fresh && p.blankBetween(p.last, n) && p.out[len(p.out)-1].kind != blankLine {
		p.emit(outLine{kind: blankLine})
	}
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
func (p *printer) open(start Position, headEnd int) {
	p.flush(start.Offset)
	p.contCol = 0
	p.sep(start.Line)
	p.last = max(p.last, start.Line)
	p.flush(headEnd)
}

// trail attaches the comment that follows end on its line, if any, to the
// line just printed.
func (p *printer) trail(end Position) {
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

func (p *printer) enter() {
	p.depth++
	p.blocks++
	p.block = p.blocks
	p.fresh = true
}

func (p *printer) leave(block int) {
	p.depth--
	p.block = block
}

// blockStmt prints HEADER { … } with items printed by body, or HEADER {}
// when the block holds nothing. close is the node's end, just past "}".
func (p *printer) blockStmt(start Position, nameEnd int, header string, empty bool, close Position, body func()) {
	brace := p.openAfter(nameEnd)
	closeOff := close.Offset - 1
	if empty && !p.hasComment(brace.Offset, closeOff) {
		p.open(start, closeOff)
		p.emit(outLine{text: header + " {}"})
		p.trail(close)
		return
	}
	p.open(start, brace.Offset)
	p.emit(outLine{text: header + " {"})
	braceEnd := brace
	braceEnd.Offset++
	braceEnd.Column++
	p.trail(braceEnd)
	outer := p.block
	p.enter()
	body()
	p.flush(closeOff)
	p.leave(outer)
	p.emit(outLine{text: "}"})
	p.trail(close)
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Import:
		p.leaf(s.Pos, s.EndPos, outLine{text: "import " + s.Path})
	case *Let:
		p.leaf(s.Pos, s.EndPos, outLine{class: "let", key: "let " + s.Name.Name, text: " = " + exprString(s.Value)})
	case *Expect:
		p.leaf(s.Pos, s.EndPos, outLine{text: expectString(s)})
	case *Pool:
		p.fieldBlock(s.Pos, s.Name.EndPos.Offset, "pool", "pool "+s.Name.Name, s.Fields, s.EndPos)
	case *Request:
		p.fieldBlock(s.Pos, s.Name.EndPos.Offset, "request", "request "+s.Name.Name, s.Fields, s.EndPos)
	case *Job:
		header, nameEnd := "job "+s.Name.Name, s.Name.EndPos.Offset
		if s.On != nil {
			header, nameEnd = header+" on "+s.On.Name, s.On.EndPos.Offset
		} else if s.Extends != nil {
			header, nameEnd = header+" extends "+s.Extends.Name, s.Extends.EndPos.Offset
		}
		p.blockStmt(s.Pos, nameEnd, header, len(s.Items) == 0, s.EndPos, func() {
			for _, it := range s.Items {
				p.jobItem(it)
			}
		})
	case *Rules:
		p.blockStmt(s.Pos, s.Name.EndPos.Offset, "rules "+s.Name.Name, false, s.EndPos, func() {
			for _, r := range s.Rules {
				l := outLine{rule: true, cond: "when " + exprString(r.When), text: r.Class.Name}
				if r.Label != nil {
					l.key = r.Label.Name + ":"
				}
				p.leaf(r.Pos, r.EndPos, l)
			}
			p.leaf(s.Else.Pos, s.Else.EndPos, outLine{text: "else " + s.Else.Name})
		})
	}
}

// leaf prints an item that takes one line, start to end.
func (p *printer) leaf(start, end Position, l outLine) {
	p.open(start, end.Offset)
	p.emit(l)
	p.trail(end)
}

func (p *printer) fields(fs []*Field) {
	for _, f := range fs {
		p.leaf(f.Pos, f.EndPos, outLine{class: "field", key: f.Name.Name, text: " = " + exprString(f.Value)})
	}
}

func (p *printer) jobItem(it JobItem) {
	switch it := it.(type) {
	case *Field:
		p.fields([]*Field{it})
	case *Expect:
		p.leaf(it.Pos, it.EndPos, outLine{text: expectString(it)})
	case *FactorBlock:
		// A one-line factors or ceilings block keys its line like a field,
		// so hours, factors and ceilings line up in one column.
		p.fieldBlock(it.Pos, it.Pos.Offset, "field", it.Kind, it.Fields, it.EndPos)
	}
}

// fieldBlock prints a block of fields: a pool, a request, factors or
// ceilings. One written on one line stays on one line.
func (p *printer) fieldBlock(start Position, nameEnd int, class, header string, fs []*Field, close Position) {
	if p.oneLine(nameEnd, close, fs) {
		l := outLine{class: class, key: header}
		for _, f := range fs {
			l.cells = append(l.cells, f.Name.Name+" = "+exprString(f.Value))
		}
		p.leaf(start, close, l)
		return
	}
	p.blockStmt(start, nameEnd, header, len(fs) == 0, close, func() { p.fields(fs) })
}

// oneLine reports whether a block of fields stays on one line: it was
// written on one line, and no field after the first is named like a unit
// (which would read as the unit of the number before it).
func (p *printer) oneLine(nameEnd int, close Position, fs []*Field) bool {
	if len(fs) == 0 || p.openAfter(nameEnd).Line != close.Line {
		return false
	}
	for _, f := range fs[1:] {
		if _, ok := Units[f.Name.Name]; ok {
			return false
		}
	}
	return true
}

func expectString(e *Expect) string {
	var b strings.Builder
	b.WriteString("expect ")
	writeExpr(&b, e.X)
	if a := e.Approx; a != nil {
		b.WriteString(" ≈ ")
		writeExpr(&b, a.Want)
		if a.Abs != nil {
			b.WriteString(" ± ")
			writeExpr(&b, a.Abs)
		}
		if a.Within != nil {
			b.WriteString(" within ")
			writeExpr(&b, a.Within)
			b.WriteString("%")
		}
	}
	return b.String()
}

func exprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

// writeExpr writes e on one line: one space around binary operators, none
// inside parentheses, ", " between arguments.
func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *NumberLit:
		b.WriteString(numberText(e.Text))
	case *StringLit:
		b.WriteString(e.Raw)
	case *BoolLit:
		if e.Value {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *Name:
		for i, id := range e.Parts {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(id.Name)
		}
	case *Call:
		b.WriteString(e.Func.Name)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *Unary:
		b.WriteString(e.Op)
		if x, ok := e.X.(*Unary); e.Op != "-" || ok && x.Op == "-" {
			b.WriteByte(' ') // not x; - -x rather than --x
		}
		writeExpr(b, e.X)
	case *Binary:
		writeExpr(b, e.L)
		b.WriteByte(' ')
		b.WriteString(e.Op)
		b.WriteByte(' ')
		writeExpr(b, e.R)
	case *Cond:
		writeExpr(b, e.If)
		b.WriteString(" ? ")
		writeExpr(b, e.Then)
		b.WriteString(" : ")
		writeExpr(b, e.Else)
	case *Paren:
		b.WriteByte('(')
		writeExpr(b, e.X)
		b.WriteByte(')')
	}
}

// numberText is a number as written, except that a run of blanks between
// the numeral and its unit becomes one space.
func numberText(s string) string {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s
	}
	return s[:i] + " " + strings.TrimLeft(s[i:], " \t")
}

// render pads the collected lines and joins them.
func (p *printer) render() []byte {
	code := make([]string, len(p.out))
	p.alignKeys()
	p.alignRules()
	for i, l := range p.out {
		if l.kind != codeLine {
			continue
		}
		var b strings.Builder
		b.WriteString(strings.Repeat("  ", l.depth))
		switch {
		case l.rule:
			if l.key != "" {
				b.WriteString(l.key)
				b.WriteByte(' ')
			}
			b.WriteString(l.cond)
			b.WriteString(" -> ")
		case l.cells != nil:
			b.WriteString(l.key)
			b.WriteString(" { ")
			b.WriteString(strings.Join(l.cells, "  "))
			b.WriteString(" }")
		default:
			b.WriteString(l.key)
		}
		b.WriteString(l.text)
		code[i] = b.String()
	}
	var buf bytes.Buffer
	for i := 0; i < len(p.out); {
		j := p.trailRun(i)
		col := 0
		for k := i; k < j; k++ {
			if p.out[k].trail != "" && p.out[k].kind == codeLine {
				col = max(col, utf8.RuneCountInString(code[k])+1)
			}
		}
		for k := i; k < j; k++ {
			l := p.out[k]
			switch l.kind {
			case blankLine:
			case commentLine:
				buf.WriteString(strings.Repeat("  ", l.depth))
				buf.WriteString(l.trail)
			case contLine:
				buf.WriteString(strings.Repeat(" ", col))
				buf.WriteString(l.trail)
			case codeLine:
				buf.WriteString(code[k])
				if l.trail != "" {
					buf.WriteString(strings.Repeat(" ", col-utf8.RuneCountInString(code[k])))
					buf.WriteString(l.trail)
				}
			}
			buf.WriteByte('\n')
		}
		i = j
	}
	return buf.Bytes()
}

// trailRun is the end of the run of lines starting at i whose trailing
// comments align: consecutive code lines of one block, with the comments
// that continue their trailing comments. A blank line, a comment on a line
// of its own, or a line of another block ends a run; unlike gofmt, a line
// without a comment does not.
func (p *printer) trailRun(i int) int {
	first := p.out[i]
	if first.kind != codeLine {
		return i + 1
	}
	j := i + 1
	for j < len(p.out) {
		l := p.out[j]
		if l.block != first.block || l.kind != codeLine && l.kind != contLine {
			break
		}
		j++
	}
	return j
}

// alignKeys pads the keys of each run of consecutive code lines of one
// class and block to the widest; comments that continue a trailing comment
// do not break a run. In consecutive one-line blocks that name the same
// fields in the same order, the fields line up in columns too.
func (p *printer) alignKeys() {
	for i := 0; i < len(p.out); {
		first := p.out[i]
		if first.class == "" || first.kind != codeLine {
			i++
			continue
		}
		width := 0
		var run []int
		j := i
		for ; j < len(p.out); j++ {
			l := p.out[j]
			if l.kind == contLine {
				continue
			}
			if l.kind != codeLine || l.class != first.class || l.block != first.block {
				break
			}
			run = append(run, j)
			width = max(width, utf8.RuneCountInString(l.key))
		}
		for _, k := range run {
			p.out[k].key = padRight(p.out[k].key, width)
		}
		for a := 0; a < len(run); {
			b := a + 1
			for b < len(run) && (p.out[run[a]].cells == nil) == (p.out[run[b]].cells == nil) {
				b++
			}
			if p.out[run[a]].cells != nil && b-a > 1 {
				p.alignCells(run[a:b])
			}
			a = b
		}
		i = j
	}
}

// alignCells pads the fields of one-line blocks into columns, if every
// block names the same fields in the same order; the last field of each is
// left as it is.
func (p *printer) alignCells(run []int) {
	first := p.out[run[0]].cells
	for _, k := range run[1:] {
		cells := p.out[k].cells
		if len(cells) != len(first) {
			return
		}
		for c := range cells {
			if fieldName(cells[c]) != fieldName(first[c]) {
				return
			}
		}
	}
	for c := 0; c < len(first)-1; c++ {
		width := 0
		for _, k := range run {
			width = max(width, utf8.RuneCountInString(p.out[k].cells[c]))
		}
		for _, k := range run {
			p.out[k].cells[c] = padRight(p.out[k].cells[c], width)
		}
	}
}

func fieldName(cell string) string {
	name, _, _ := strings.Cut(cell, " ")
	return name
}

// alignRules pads the labels and conditions of every ruleset so that its
// "when"s and arrows line up.
func (p *printer) alignRules() {
	labels, conds := map[int]int{}, map[int]int{}
	for _, l := range p.out {
		if l.rule {
			labels[l.block] = max(labels[l.block], utf8.RuneCountInString(l.key))
			conds[l.block] = max(conds[l.block], utf8.RuneCountInString(l.cond))
		}
	}
	for i := range p.out {
		if l := &p.out[i]; l.rule {
			l.key = padRight(l.key, labels[l.block])
			l.cond = padRight(l.cond, conds[l.block])
		}
	}
}

func padRight(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

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
