package format

import (
	"strings"

	"github.com/gpl-lang/gpl/lang"
)

// The printer's part for the planning statements: a group or a compare
// on one line, a sweep or a solve as a block with one vary, show or find
// line each.

func (p *printer) planningStmt(s lang.Stmt) {
	switch s := s.(type) {
	case *lang.Group:
		p.jobList(s.Start(), s.Name.End().Offset, "group "+s.Name.Name, s.Jobs, s.End())
	case *lang.Compare:
		head, nameEnd := "compare "+s.Name.Name, s.Name.End().Offset
		if s.Order != "" {
			head += " by " + s.Order + " " + s.ByName()
			nameEnd = s.By[len(s.By)-1].End().Offset
		}
		p.jobList(s.Start(), nameEnd, head, s.Jobs, s.End())
	case *lang.Sweep:
		p.blockStmt(s.Start(), s.Job.End().Offset, "sweep "+s.Name.Name+" over "+s.Job.Name, len(s.Varies)+len(s.Shows) == 0, s.End(), func() {
			// The vary and show lines in the order written.
			vs, ss := s.Varies, s.Shows
			for len(vs) > 0 || len(ss) > 0 {
				if len(ss) == 0 || len(vs) > 0 && vs[0].Start().Offset < ss[0].Start().Offset {
					p.leaf(vs[0].Start(), vs[0].End(), outLine{text: varyString(vs[0])})
					vs = vs[1:]
					continue
				}
				p.leaf(ss[0].Start(), ss[0].End(), outLine{text: "show " + exprList(ss[0].Columns)})
				ss = ss[1:]
			}
		})
	case *lang.Solve:
		p.blockStmt(s.Start(), s.Job.End().Offset, "solve "+s.Name.Name+" over "+s.Job.Name, false, s.End(), func() {
			p.leaf(s.Find.Start(), s.Find.End(), outLine{text: findString(s.Find)})
		})
	}
}

// jobList prints a group's or a compare's list of jobs: on one line,
// HEADER { a, b }, unless a comment sits inside the braces; then one job
// a line, each keeping the comment that trails it.
func (p *printer) jobList(start lang.Position, nameEnd int, header string, jobs []*lang.Ident, close lang.Position) {
	brace := p.openAfter(nameEnd)
	if len(jobs) == 0 || !p.hasComment(brace.Offset, close.Offset-1) {
		p.leaf(start, close, outLine{text: header + " { " + identList(jobs) + " }"})
		return
	}
	p.blockStmt(start, nameEnd, header, false, close, func() {
		for i, id := range jobs {
			if i == len(jobs)-1 {
				p.leaf(id.Start(), id.End(), outLine{text: id.Name})
				continue
			}
			p.leaf(id.Start(), p.pastComma(id.End()), outLine{text: id.Name + ","})
		}
	})
}

// pastComma is the position just past the comma that follows end on its
// line, blanks apart; end itself when there is none.
func (p *printer) pastComma(end lang.Position) lang.Position {
	for i := end.Offset; i < len(p.src); i++ {
		switch p.src[i] {
		case ' ', '\t':
			continue
		case ',':
			end.Column += i + 1 - end.Offset
			end.Offset = i + 1
		}
		return end
	}
	return end
}

func identList(ids []*lang.Ident) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = id.Name
	}
	return strings.Join(names, ", ")
}

func exprList(xs []lang.Expr) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = exprString(x)
	}
	return strings.Join(parts, ", ")
}

func varyString(v *lang.Vary) string {
	s := "vary " + v.InputName()
	if v.In {
		return s + " in [" + exprList(v.Values) + "]"
	}
	return s + " from " + exprString(v.From) + " to " + exprString(v.To) + " step " + exprString(v.Step)
}

func findString(f *lang.Find) string {
	s := "find " + f.InputName()
	if f.Lo != nil {
		s += " in [" + exprString(f.Lo) + ", " + exprString(f.Hi) + "]"
	}
	return s + " such that " + exprString(f.Cond)
}

// writeQuery writes NAME.METHOD(ARGS)[.FIELD].
func writeQuery(b *strings.Builder, q *lang.Query) {
	writeExpr(b, q.Target)
	b.WriteByte('.')
	b.WriteString(q.Method.Name)
	b.WriteByte('(')
	for i, a := range q.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		if a.Input != nil {
			b.WriteString(a.InputName() + " = ")
		}
		writeExpr(b, a.Value)
	}
	b.WriteByte(')')
	if q.Field != nil {
		b.WriteString("." + q.FieldName())
	}
}

// ExprString writes an expression on one line as gpl fmt lays it out.
func ExprString(e lang.Expr) string { return exprString(e) }
