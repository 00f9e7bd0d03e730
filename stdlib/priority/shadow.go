package priority

import (
	"math"
	"sort"
)

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
//
// It takes time at most quadratic in the number of rules: each rule is
// compared with the union of the earlier rules once, through a record of
// the earliest rule covering each value of each field, and with single
// earlier rules only when that union covers it.
func (rs *Ruleset) Shadowed() []Shadow {
	n := len(rs.conds)
	var out []Shadow
	var first firstCover
	first.init()
	unders := make([]cover, 0, n)
	for i, c := range rs.conds {
		node := build(c, false)
		if node.kind == aFalse {
			out = append(out, Shadow{Rule: i, By: -1})
		} else if by := first.earliest(node); by < i {
			// The union of rules 0..by covers this one; a single rule
			// covering it on its own comes no earlier than by.
			for j := by; j < i; j++ {
				if covered(node, &unders[j]) {
					by = j
					break
				}
			}
			out = append(out, Shadow{Rule: i, By: by})
		}
		unders = append(unders, under(node))
		first.add(&unders[i], i)
	}
	return out
}

// never is the rule index meaning "no earlier rule".
const never = math.MaxInt

// firstCover records, for a prefix of the rules, the earliest rule whose
// under-approximation covers each value of each field, so that the
// earliest prefix covering a condition is found without rebuilding unions.
type firstCover struct {
	all     int // the earliest rule from which every request is covered
	absent  [NumFields]int
	spans   [NumFields][]tagSpan // sorted, disjoint
	scratch []tagSpan
}

// tagSpan is a closed range of values first covered by rule.
type tagSpan struct {
	lo, hi float64
	rule   int
}

func (fc *firstCover) init() {
	fc.all = never
	for f := range fc.absent {
		fc.absent[f] = never
	}
}

// add records rule's cover, rule being later than every rule added so far.
func (fc *firstCover) add(c *cover, rule int) {
	if c.all && fc.all == never {
		fc.all = rule
	}
	for f := Field(0); f < NumFields; f++ {
		if !c.has[f] {
			continue
		}
		set := c.set[f]
		if set.absent && fc.absent[f] == never {
			fc.absent[f] = rule
		}
		if len(set.spans) > 0 {
			fc.fill(f, set.spans, rule)
		}
		if fc.all == never {
			if j := fc.maxTag(f, domain(f)); j != never {
				fc.all = j
			}
		}
	}
}

// fill tags with rule the values of spans that no earlier rule covers.
func (fc *firstCover) fill(f Field, spans []span, rule int) {
	old := fc.spans[f]
	out := fc.scratch[:0]
	push := func(t tagSpan) {
		if k := len(out); k > 0 && out[k-1].rule == t.rule && out[k-1].hi+1 >= t.lo {
			out[k-1].hi = math.Max(out[k-1].hi, t.hi)
			return
		}
		out = append(out, t)
	}
	i := 0
	for _, sp := range spans {
		lo := sp.lo
		for ; i < len(old) && old[i].hi < lo; i++ {
			push(old[i])
		}
		// The old spans overlapping sp, with the gaps between them.
		for {
			if k := len(out); k > 0 && out[k-1].hi >= lo {
				lo = out[k-1].hi + 1 // already tagged, by an old span reaching into sp
			}
			if lo > sp.hi {
				break
			}
			if i < len(old) && old[i].lo <= lo {
				push(old[i])
				lo = old[i].hi + 1
				i++
				continue
			}
			hi := sp.hi
			if i < len(old) && old[i].lo <= hi {
				hi = old[i].lo - 1
			}
			push(tagSpan{lo, hi, rule})
			lo = hi + 1
		}
	}
	out = append(out, old[i:]...)
	fc.spans[f], fc.scratch = out, old
}

// maxTag returns the earliest rule by which every value in s is covered,
// or never.
func (fc *firstCover) maxTag(f Field, s valueSet) int {
	j := -1
	if s.absent {
		j = fc.absent[f]
	}
	tags := fc.spans[f]
	for _, sp := range s.spans {
		if j == never {
			return never
		}
		k := sort.Search(len(tags), func(k int) bool { return tags[k].hi >= sp.lo })
		lo := sp.lo
		for ; lo <= sp.hi; k++ {
			if k == len(tags) || tags[k].lo > lo {
				return never
			}
			j = max(j, tags[k].rule)
			lo = tags[k].hi + 1
		}
	}
	return j
}

// earliest returns the earliest rule j such that rules 0..j together
// certainly match every request n matches, or never.
func (fc *firstCover) earliest(n *anode) int {
	return min(fc.all, fc.earliestNode(n))
}

func (fc *firstCover) earliestNode(n *anode) int {
	switch n.kind {
	case aFalse:
		return -1
	case aLeaf:
		return fc.maxTag(n.f, n.set)
	case aAnd:
		j := never
		for _, k := range n.kids {
			j = min(j, fc.earliestNode(k))
		}
		return j
	case aOr:
		j := -1
		for _, k := range n.kids {
			if j = max(j, fc.earliestNode(k)); j == never {
				return never
			}
		}
		return j
	}
	return never
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
