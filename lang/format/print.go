package format

// The printer behind gpl fmt. It walks the syntax tree in source order and
// collects output lines; comments, which the parser drops, are recovered by
// lexing the source again and placed by their offsets. A second pass pads
// the lines so that = signs, rule arrows and trailing comments line up.
// docs/fmt.md describes the layout.
//
// This file walks the tree; print_comments.go places the comments and blank
// lines, print_align.go pads and joins the lines, and print_check.go checks
// that the output holds the source's tokens.

import (
	"bytes"
	"io"
	"strings"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// bom is the UTF-8 byte order mark, which a file may start with.
const bom = "\uFEFF"

// FormatFile returns f in the canonical layout that gpl fmt writes, every
// comment kept (docs/fmt.md describes the layout). f should come from Parse:
// the printer reads comments and blank lines from f.Src. If the source has
// syntax errors FormatFile returns them, as Diagnostics, instead of text.
// (units.Format prints a value; this prints a file.)
//
// A byte order mark at the start of the source is kept. The printer holds
// the output and the source's comments, never a slice of the source's
// tokens: it scans the source once for comments and blank lines, and once
// more, beside the output, to check that only layout changed. Lines wait
// to be aligned only until a blank line between top-level statements ends
// every run they could join (settle); then they are rendered.
func FormatFile(f *lang.File) ([]byte, error) {
	// Only the name and source are needed once the statements are printed:
	// holding them apart lets the tree be collected while the output is
	// aligned and checked (a file the caller no longer holds).
	name, src := f.Name, f.Src
	p := newPrinter(name, src)
	for _, s := range f.Stmts {
		p.stmt(s)
		p.settle()
	}
	return p.finish(name, src)
}

// newPrinter starts printing src, whose comments and blank lines it reads
// first.
func newPrinter(name string, src []byte) *printer {
	p := &printer{src: src, fresh: true}
	if src != nil {
		p.scan(name, string(src))
	}
	if bytes.HasPrefix(src, []byte(bom)) {
		p.done.WriteString(bom)
	}
	p.done.Grow(len(src) + len(src)/8)
	return p
}

// finish prints the comments after the last statement, aligns and renders
// the output, and checks that only layout changed.
func (p *printer) finish(name string, src []byte) ([]byte, error) {
	p.flush(len(src) + 1)
	p.render()
	out := p.done.Bytes()
	if src != nil {
		if err := sameTokens(name, src, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Print writes f to w in the canonical layout; see FormatFile.
func Print(w io.Writer, f *lang.File) error {
	b, err := FormatFile(f)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// FormatSource parses src and returns it in the canonical layout, or the
// syntax errors that keep it from being formatted. Each statement is
// printed as soon as it is parsed, and its tree dropped, so that memory
// holds the output and one statement's tree, never the whole file's.
func FormatSource(name string, src []byte) ([]byte, error) {
	lim := lang.DefaultLimits.WithDefaults()
	if len(src) <= lim.MaxFileSize {
		p := newPrinter(name, src)
		if lang.EachStatement(lim, name, src, func(s lang.Stmt) { p.stmt(s); p.settle() }) {
			return p.finish(name, src)
		}
	}
	// A syntax error (or a file too large): read it all for every error.
	f, diags := lang.Parse(name, src)
	if diags.HasErrors() {
		return nil, diags
	}
	return FormatFile(f)
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
	blanks   []int           // blanks[n]: how many of lines 1..n are blank
	opens    []lang.Position // every "{", in order
	next     int             // the first comment not yet printed

	out          []outLine    // lines collected, not yet rendered
	cut          int          // index in out of the last blank line at the top level; 0 for none past the first
	done         bytes.Buffer // the rendered output
	depth, block int
	blocks       int  // block ids handed out
	fresh        bool // nothing printed yet in this block: no blank line
	last         int  // source line of what was printed last
	contCol      int  // column of the trailing comment just printed, 0 if none
	contLine     int  // line of that comment or of its last continuation
}

func (p *printer) emit(l outLine) {
	l.depth, l.block = p.depth, p.block
	if l.kind == blankLine && l.depth == 0 {
		p.cut = len(p.out)
	}
	p.out = append(p.out, l)
	p.fresh = false
}

// sep prints one blank line if the source has any before line n.
func (p *printer) sep(n int) {
	if !p.fresh && p.blankBetween(p.last, n) && p.out[len(p.out)-1].kind != blankLine {
		p.emit(outLine{kind: blankLine})
	}
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
func (p *printer) blockStmt(start lang.Position, nameEnd int, header string, empty bool, close lang.Position, body func()) {
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

func (p *printer) stmt(s lang.Stmt) {
	switch s := s.(type) {
	case *lang.Import:
		p.leaf(s.Start(), s.End(), outLine{text: "import " + s.Path})
	case *lang.Let:
		p.leaf(s.Start(), s.End(), outLine{class: "let", key: s.Keyword() + " " + s.Name.Name, text: " = " + exprString(s.Value)})
	case *lang.Expect:
		p.leaf(s.Start(), s.End(), outLine{text: expectString(s)})
	case *lang.Owners:
		p.owners(s, "owners")
	case *lang.Pool:
		if len(s.Owners) > 0 || len(s.Windows) > 0 || len(s.Schedules) > 0 {
			p.poolWithOwners(s)
			return
		}
		p.fieldBlock(s.Start(), s.Name.End().Offset, "pool", "pool "+s.Name.Name, s.Fields, s.End())
	case *lang.Request:
		p.fieldBlock(s.Start(), s.Name.End().Offset, "request", "request "+s.Name.Name, s.Fields, s.End())
	case *lang.Job:
		header, nameEnd := "job "+s.Name.Name, s.Name.End().Offset
		if s.On != nil {
			header, nameEnd = header+" on "+s.On.Name, s.On.End().Offset
		} else if s.Extends != nil {
			header, nameEnd = header+" extends "+s.Extends.Name, s.Extends.End().Offset
			if s.ExtendsOn != nil {
				header, nameEnd = header+" on "+s.ExtendsOn.Name, s.ExtendsOn.End().Offset
			}
		}
		p.blockStmt(s.Start(), nameEnd, header, len(s.Items) == 0, s.End(), func() {
			for _, it := range s.Items {
				p.jobItem(it)
			}
		})
	case *lang.Rules:
		p.blockStmt(s.Start(), s.Name.End().Offset, "rules "+s.Name.Name, false, s.End(), func() {
			for _, r := range s.Rules {
				l := outLine{rule: true, cond: "when " + exprString(r.When), text: r.Class.Name}
				if r.Label != nil {
					l.key = r.Label.Name + ":"
				}
				p.leaf(r.Pos, r.EndAt.Position(), l)
			}
			p.leaf(s.Else.Start(), s.Else.End(), outLine{text: "else " + s.Else.Name})
		})
	default:
		p.planningStmt(s) // print_planning.go
	}
}

// leaf prints an item that takes one line, start to end.
func (p *printer) leaf(start, end lang.Position, l outLine) {
	p.open(start, end.Offset)
	p.emit(l)
	p.trail(end)
}

func (p *printer) fields(fs []*lang.Field) {
	for _, f := range fs {
		p.leaf(f.Start(), f.End(), outLine{class: "field", key: f.Name.Name, text: " = " + exprString(f.Value)})
	}
}

func (p *printer) jobItem(it lang.JobItem) {
	switch it := it.(type) {
	case *lang.Field:
		p.fields([]*lang.Field{it})
	case *lang.Expect:
		p.leaf(it.Start(), it.End(), outLine{text: expectString(it)})
	case *lang.Owners:
		p.owners(it, "field")
	case *lang.Window:
		p.window(it)
	case *lang.FactorBlock:
		// A one-line factors or ceilings block keys its line like a field,
		// so hours, factors and ceilings line up in one column.
		p.fieldBlock(it.Start(), it.Start().Offset, "field", it.Kind(), it.Fields, it.End())
	}
}

// fieldBlock prints a block of fields: a pool, a request, factors or
// ceilings. One written on one line stays on one line.
func (p *printer) fieldBlock(start lang.Position, nameEnd int, class, header string, fs []*lang.Field, close lang.Position) {
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
func (p *printer) oneLine(nameEnd int, close lang.Position, fs []*lang.Field) bool {
	if len(fs) == 0 || p.openAfter(nameEnd).Line != close.Line {
		return false
	}
	for _, f := range fs[1:] {
		if _, ok := units.Lookup(f.Name.Name); ok {
			return false
		}
	}
	return true
}

func expectString(e *lang.Expect) string {
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
			if a.Percent {
				b.WriteString("%")
			}
		}
	}
	return b.String()
}

func exprString(e lang.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

// writeExpr writes e on one line: one space around binary operators, none
// inside parentheses, ", " between arguments.
func writeExpr(b *strings.Builder, e lang.Expr) {
	switch e := e.(type) {
	case *lang.NumberLit:
		b.WriteString(numberText(e.Text))
	case *lang.DateLit:
		b.WriteString(e.Text)
	case *lang.StringLit:
		b.WriteString(e.Raw)
	case *lang.BoolLit:
		if e.Value {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *lang.Name:
		for i, id := range e.Parts {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(id.Name)
		}
	case *lang.Call:
		b.WriteString(e.Func.Name)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *lang.Unary:
		b.WriteString(e.Op)
		if x, ok := e.X.(*lang.Unary); e.Op != "-" || ok && x.Op == "-" {
			b.WriteByte(' ') // not x; - -x rather than --x
		}
		writeExpr(b, e.X)
	case *lang.Binary:
		writeExpr(b, e.L)
		b.WriteByte(' ')
		b.WriteString(e.Op)
		b.WriteByte(' ')
		writeExpr(b, e.R)
	case *lang.Cond:
		writeExpr(b, e.If)
		b.WriteString(" ? ")
		writeExpr(b, e.Then)
		b.WriteString(" : ")
		writeExpr(b, e.Else)
	case *lang.Paren:
		b.WriteByte('(')
		writeExpr(b, e.X)
		b.WriteByte(')')
	case *lang.Query:
		writeQuery(b, e) // print_planning.go
	}
}

// numberText is a number as written, except that a run of blanks between
// the numeral and its unit becomes one space.
func numberText(s string) string {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s
	}
	if strings.HasSuffix(s, "%") { // a percentage is written 40%
		return s[:i] + "%"
	}
	return s[:i] + " " + strings.TrimLeft(s[i:], " \t")
}
