package lang

// compactor copies each statement participle has read into slabs of its
// own, so that a file's tree does not sit among the parser's garbage (see
// Slab). participle allocates every node one by one, amid some thirty
// times their weight in short-lived values; once those are collected, the
// nodes alone keep their spans. Copied, the nodes of a kind sit together,
// and the spans participle used are freed whole. The kinds a large file
// holds most of are copied; any other node is kept as participle built
// it, which is as correct, only less dense.
type compactor struct {
	jobs     Slab[Job]
	pools    Slab[Pool]
	lets     Slab[Let]
	blocks   Slab[FactorBlock]
	fields   Slab[Field]
	expects  Slab[Expect]
	approxes Slab[Approx]
	idents   Slab[Ident]
	numbers  Slab[NumberLit]
	names    Slab[Name]
	binaries Slab[Binary]
	unaries  Slab[Unary]
	parens   Slab[Paren]
	calls    Slab[Call]
	exprs    Slab[Expr]
	items    Slab[JobItem]
	fieldPs  Slab[*Field]
	identPs  Slab[*Ident]
}

// stmt is s, copied when it is of a kind the compactor copies.
func (c *compactor) stmt(s Stmt) Stmt {
	switch s := s.(type) {
	case *Job:
		n := c.jobs.Put(*s)
		n.Name, n.On, n.Extends, n.ExtendsOn = c.ident(s.Name), c.ident(s.On), c.ident(s.Extends), c.ident(s.ExtendsOn)
		n.Items = c.items.Copy(s.Items)
		for i, it := range n.Items {
			n.Items[i] = c.item(it)
		}
		return n
	case *Pool:
		n := c.pools.Put(*s)
		n.Name = c.ident(s.Name)
		n.Fields = c.fieldList(s.Fields)
		return n
	case *Let:
		n := c.lets.Put(*s)
		n.Name = c.ident(s.Name)
		n.Value = c.expr(s.Value)
		return n
	case *Expect:
		return c.expect(s)
	}
	return s
}

func (c *compactor) item(it JobItem) JobItem {
	switch it := it.(type) {
	case *Field:
		return c.field(it)
	case *FactorBlock:
		n := c.blocks.Put(*it)
		n.Fields = c.fieldList(it.Fields)
		return n
	case *Expect:
		return c.expect(it)
	}
	return it
}

func (c *compactor) expect(e *Expect) *Expect {
	n := c.expects.Put(*e)
	n.X = c.expr(e.X)
	if e.Approx != nil {
		a := c.approxes.Put(*e.Approx)
		a.Want, a.Abs, a.Within = c.expr(a.Want), c.expr(a.Abs), c.expr(a.Within)
		n.Approx = a
	}
	return n
}

func (c *compactor) fieldList(fs []*Field) []*Field {
	out := c.fieldPs.Copy(fs)
	for i, f := range out {
		out[i] = c.field(f)
	}
	return out
}

func (c *compactor) field(f *Field) *Field {
	n := c.fields.Put(*f)
	n.Value = c.expr(f.Value)
	return n
}

func (c *compactor) ident(id *Ident) *Ident {
	if id == nil {
		return nil
	}
	return c.idents.Put(*id)
}

// expr copies an expression; a condition, a string, a truth value and a
// query are kept.
func (c *compactor) expr(e Expr) Expr {
	switch e := e.(type) {
	case *NumberLit:
		return c.numbers.Put(*e)
	case *Binary:
		n := c.binaries.Put(*e)
		n.L, n.R = c.expr(e.L), c.expr(e.R)
		return n
	case *Unary:
		n := c.unaries.Put(*e)
		n.X = c.expr(e.X)
		return n
	case *Paren:
		n := c.parens.Put(*e)
		n.X = c.expr(e.X)
		return n
	case *Call:
		n := c.calls.Put(*e)
		n.Func = c.ident(e.Func)
		n.Args = c.exprs.Copy(e.Args)
		for i, a := range n.Args {
			n.Args[i] = c.expr(a)
		}
		return n
	case *Name:
		n := c.names.Put(*e)
		n.Parts = c.identPs.Copy(e.Parts)
		for i, p := range n.Parts {
			n.Parts[i] = c.ident(p)
		}
		return n
	}
	return e
}
