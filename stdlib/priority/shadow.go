package priority

// Shadow reports a rule that can never fire.
type Shadow struct {
	// Rule is the index of the rule that can never fire.
	Rule int
	// By is the index of the earliest rule that on its own matches every
	// request Rule matches; when no single rule does, it is the last of the
	// earlier rules whose union is needed to cover Rule. By is -1 when no
	// valid request at all satisfies Rule's condition.
	By int
}

// Shadowed returns the rules that can never fire, in rule order: rules
// whose condition no valid request satisfies (By -1), and rules whose
// every matching request is matched by earlier rules.
//
// The analysis is exact for conditions over a single field — comparisons
// of a field with a constant, has(field), true/false, and and/or/not of
// those — and conservative otherwise: conditions mixing fields or using
// arithmetic are reasoned about only through their single-field parts
// (for instance, "batch_size <= 2 and flops > 5" is covered by an earlier
// "batch_size <= 4"). It never reports a rule that some valid request (see
// Request.Validate) could reach; requests Classify is given without
// validation may reach reported rules.
func (rs *Ruleset) Shadowed() []Shadow {
	n := len(rs.conds)
	nodes := make([]*anode, n)
	unders := make([]cover, n)
	for i, c := range rs.conds {
		nodes[i] = build(c, false)
		unders[i] = under(nodes[i])
	}
	var out []Shadow
	for i, node := range nodes {
		if node.kind == aFalse {
			out = append(out, Shadow{Rule: i, By: -1})
			continue
		}
		by := -1
		for j := 0; j < i; j++ {
			if covered(node, &unders[j]) {
				by = j
				break
			}
		}
		if by < 0 {
			var acc cover
			for j := 0; j < i; j++ {
				acc.add(&unders[j])
				if covered(node, &acc) {
					by = j
					break
				}
			}
		}
		if by >= 0 {
			out = append(out, Shadow{Rule: i, By: by})
		}
	}
	return out
}

// akind is the kind of an analysis node.
type akind uint8

const (
	aFalse  akind = iota // never true
	aTrue                // always true
	aLeaf                // true exactly when field f's value is in set
	aAnd                 // all kids true
	aOr                  // some kid true
	aOpaque              // not analysed
)

// anode is a condition in negation normal form whose single-field parts
// are value sets. Every node denotes exactly the requests its condition
// holds for, except aOpaque, which denotes an unknown set.
type anode struct {
	kind akind
	f    Field
	set  valueSet
	kids []*anode
}

var (
	nodeFalse  = &anode{kind: aFalse}
	nodeTrue   = &anode{kind: aTrue}
	nodeOpaque = &anode{kind: aOpaque}
)

// build returns the analysis node of c, or of "not c" when neg is set.
func build(c Cond, neg bool) *anode {
	switch x := c.(type) {
	case Bool:
		if x.Value != neg {
			return nodeTrue
		}
		return nodeFalse
	case Has:
		return leaf(x.Field, presentDomain(x.Field), neg)
	case Compare:
		f, s, ok := compareSet(x)
		if !ok {
			return nodeOpaque
		}
		return leaf(f, s, neg)
	case Not:
		return build(x.X, !neg)
	case And:
		if neg {
			return mkOr(build(x.L, true), build(x.R, true))
		}
		return mkAnd(build(x.L, false), build(x.R, false))
	case Or:
		if neg {
			return mkAnd(build(x.L, true), build(x.R, true))
		}
		return mkOr(build(x.L, false), build(x.R, false))
	}
	return nodeOpaque
}

// compareSet returns the field a single-field comparison tests and the
// values for which it holds.
func compareSet(x Compare) (Field, valueSet, bool) {
	op, l, r := x.Op, x.L, x.R
	if _, ok := l.(Const); ok {
		op, l, r = op.flip(), r, l
	}
	f, ok := l.(FieldRef)
	if !ok {
		return 0, valueSet{}, false
	}
	switch r := r.(type) {
	case Const:
		return f.Field, cmpSet(f.Field, op, r.Value), true
	case FieldRef:
		if r.Field != f.Field {
			return 0, valueSet{}, false
		}
		if op == LE || op == GE || op == EQ {
			return f.Field, presentDomain(f.Field), true
		}
		return f.Field, valueSet{}, true
	}
	return 0, valueSet{}, false
}

// leaf returns the node for "field f's value is in s", or not in s.
func leaf(f Field, s valueSet, neg bool) *anode {
	dom := domain(f)
	if neg {
		s = complementIn(dom, s)
	}
	switch {
	case s.empty():
		return nodeFalse
	case s.equal(dom):
		return nodeTrue
	}
	return &anode{kind: aLeaf, f: f, set: s}
}

// mkAnd returns the conjunction of a and b, flattened, with the sets of
// leaves on the same field intersected.
func mkAnd(a, b *anode) *anode { return mkJunction(aAnd, a, b) }

// mkOr returns the disjunction of a and b, flattened, with the sets of
// leaves on the same field united.
func mkOr(a, b *anode) *anode { return mkJunction(aOr, a, b) }

func mkJunction(kind akind, a, b *anode) *anode {
	// For aAnd, "unit" is true and "zero" is false; for aOr the reverse.
	unit, zero := aTrue, aFalse
	if kind == aOr {
		unit, zero = aFalse, aTrue
	}
	var kids []*anode
	var leaves [NumFields]*anode
	for _, n := range []*anode{a, b} {
		parts := []*anode{n}
		if n.kind == kind {
			parts = n.kids
		}
		for _, p := range parts {
			switch p.kind {
			case unit:
				continue
			case zero:
				return p
			case aLeaf:
				if prev := leaves[p.f]; prev != nil {
					var s valueSet
					if kind == aAnd {
						s = prev.set.intersect(p.set)
					} else {
						s = prev.set.union(p.set)
					}
					p = leaf(p.f, s, false)
					if p.kind == zero {
						return p
					}
				}
				leaves[p.f] = p
				continue
			}
			kids = append(kids, p)
		}
	}
	for _, l := range leaves {
		if l != nil {
			kids = append(kids, l)
		}
	}
	switch len(kids) {
	case 0:
		if unit == aTrue {
			return nodeTrue
		}
		return nodeFalse
	case 1:
		return kids[0]
	}
	return &anode{kind: kind, kids: kids}
}

// cover is a set of requests that is a union of single-field sets.
type cover struct {
	all bool
	has [NumFields]bool
	set [NumFields]valueSet
}

// add makes c the union of c and d.
func (c *cover) add(d *cover) {
	if d.all {
		c.all = true
	}
	for f := Field(0); f < NumFields; f++ {
		if !d.has[f] {
			continue
		}
		if c.has[f] {
			c.set[f] = c.set[f].union(d.set[f])
		} else {
			c.has[f], c.set[f] = true, d.set[f]
		}
		if c.set[f].equal(domain(f)) {
			c.all = true
		}
	}
}

// under returns a cover of requests that n certainly matches.
func under(n *anode) cover {
	var c cover
	switch n.kind {
	case aTrue:
		c.all = true
	case aLeaf:
		c.has[n.f], c.set[n.f] = true, n.set
	case aOr:
		for _, k := range n.kids {
			u := under(k)
			c.add(&u)
		}
	}
	return c
}

// covered reports whether every request n matches is in c.
func covered(n *anode, c *cover) bool {
	if c.all {
		return true
	}
	switch n.kind {
	case aFalse:
		return true
	case aLeaf:
		return c.has[n.f] && n.set.subset(c.set[n.f])
	case aAnd:
		for _, k := range n.kids {
			if covered(k, c) {
				return true
			}
		}
	case aOr:
		for _, k := range n.kids {
			if !covered(k, c) {
				return false
			}
		}
		return true
	}
	return false
}
