package lang

// query parses the rest of a query once its target and method have been
// read as the dotted name n and the next token is "(":
// NAME.METHOD(ARG, …)[.FIELD…]. An argument INPUT = VALUE (in at) is
// read as a name followed by "=".
func (p *exprParser) query(n *Name) (Expr, error) {
	method := n.Parts[len(n.Parts)-1]
	target := &Name{Parts: n.Parts[:len(n.Parts)-1]}
	q := &Query{Pos: n.Start(), Target: target, Method: method}
	end, err := p.arguments(method.Name, func() error {
		x, err := p.ternary()
		if err != nil {
			return err
		}
		start, xend := x.Span()
		arg := &QueryArg{Pos: start, EndPos: xend, Value: x}
		if nm, ok := x.(*Name); ok {
			if t := p.lex.Peek(); t.Type == tokOp && t.Value == "=" {
				p.lex.Next()
				if !p.startsOperand() {
					return p.errorf(p.lex.Peek(), "expected a value after "+nm.Path()+" =")
				}
				v, err := p.ternary()
				if err != nil {
					return err
				}
				_, vend := v.Span()
				arg = &QueryArg{Pos: start, EndPos: vend, Input: nm.Parts, Value: v}
			}
		}
		q.Args = append(q.Args, arg)
		return nil
	})
	if err != nil {
		return nil, err
	}
	q.EndPos = end
	for {
		id, err := p.dotField()
		if err != nil {
			return nil, err
		}
		if id == nil {
			return q, nil
		}
		q.Field = append(q.Field, id)
		q.EndPos = id.End()
	}
}
