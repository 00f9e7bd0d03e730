package lang

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gpl-lang/gpl/lang/units"
)

// ParseConstantAt reads src, a constant as the language writes it (720h,
// 2.10 USD/h, 95%, 2027-01-04), as ParseExpr reads it — the same node and
// the same diagnostics — placed where src starts in a larger text: at, a
// position in the file named by at.Filename (a cell of a CSV inventory).
// When src is one number or date token, with spaces around it at most, it
// is read without the expression parser: an inventory of 100,000 rows
// holds most of a million such cells. Anything else, a mistake included,
// is ParseExpr's, its nodes and diagnostics moved to at (Place).
func ParseConstantAt(src string, at Position) (Expr, Diagnostics) {
	return ParseConstantIn(src, at, nil)
}

// ParseConstantIn is ParseConstantAt storing a number token's literal in
// nums, with the others of its file, rather than on its own (nil: on its
// own).
func ParseConstantIn(src string, at Position, nums *Slab[NumberLit]) (Expr, Diagnostics) {
	if !strings.HasPrefix(src, bom) && len(src) <= DefaultMaxFileSize {
		sc := tokenScanner{src: src, pos: at}
		var only lexer.Token
		n := 0
		for n < 2 {
			t, ok := sc.next()
			if !ok {
				break
			}
			if t.Type != tokSpace {
				only = t
				n++
			}
		}
		if n == 1 {
			switch only.Type {
			case tokNumber, tokMoney:
				if x, err := parseNumberIn(&only, nums); err == nil {
					return x, nil
				}
			case tokDate:
				if _, _, err := units.ParseDate(only.Value); err == nil {
					return &DateLit{At: PosOf(only.Pos), Text: only.Value}, nil
				}
			}
		}
	}
	x, ds := ParseExprWith(DefaultLimits, at.Filename, src)
	if x != nil {
		Place(x, at)
	}
	for _, d := range ds {
		d.Pos, d.End = placed(d.Pos, at), placed(d.End, at)
		for i := range d.Related {
			d.Related[i].Pos, d.Related[i].End = placed(d.Related[i].Pos, at), placed(d.Related[i].End, at)
		}
	}
	return x, ds
}

// placed is p, a position in a text of its own (line 1, column 1 at its
// start), moved to where that text starts in a file: at.
func placed(p Position, at Position) Position {
	if p.Line == 0 {
		return p
	}
	if p.Line == 1 {
		p.Column += at.Column - 1
	}
	p.Line += at.Line - 1
	p.Offset += at.Offset
	p.Filename = at.Filename
	return p
}

func placedPos(p Pos, at Position) Pos { return PosOf(placed(p.Position(), at)) }

// Place moves the nodes of x, parsed from a text of its own, to where that
// text starts in a file: at.
func Place(x Expr, at Position) {
	switch n := x.(type) {
	case *NumberLit:
		n.At = placedPos(n.At, at)
	case *DateLit:
		n.At = placedPos(n.At, at)
	case *StringLit:
		n.Pos, n.EndPos = placed(n.Pos, at), placed(n.EndPos, at)
	case *BoolLit:
		n.Pos, n.EndPos = placed(n.Pos, at), placed(n.EndPos, at)
	case *Unary:
		n.At, n.EndAt = placedPos(n.At, at), placedPos(n.EndAt, at)
		Place(n.X, at)
	case *Paren:
		n.At, n.EndAt = placedPos(n.At, at), placedPos(n.EndAt, at)
		Place(n.X, at)
	case *Binary:
		n.At, n.EndAt, n.OpAt = placedPos(n.At, at), placedPos(n.EndAt, at), placedPos(n.OpAt, at)
		Place(n.L, at)
		Place(n.R, at)
	case *Cond:
		n.At, n.EndAt = placedPos(n.At, at), placedPos(n.EndAt, at)
		Place(n.If, at)
		Place(n.Then, at)
		Place(n.Else, at)
	case *Call:
		n.At, n.EndAt = placedPos(n.At, at), placedPos(n.EndAt, at)
		n.Func.At = placedPos(n.Func.At, at)
		for _, a := range n.Args {
			Place(a, at)
		}
	case *Name:
		for _, p := range n.Parts {
			p.At = placedPos(p.At, at)
		}
	case *Query:
		n.Pos, n.EndPos = placed(n.Pos, at), placed(n.EndPos, at)
		if n.Target != nil {
			Place(n.Target, at)
		}
		if n.Method != nil {
			n.Method.At = placedPos(n.Method.At, at)
		}
		for _, id := range n.Field {
			id.At = placedPos(id.At, at)
		}
		for _, a := range n.Args {
			a.Pos, a.EndPos = placed(a.Pos, at), placed(a.EndPos, at)
			for _, id := range a.Input {
				id.At = placedPos(id.At, at)
			}
			if a.Value != nil {
				Place(a.Value, at)
			}
		}
	}
}
