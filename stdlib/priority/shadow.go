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
	all    int // the earliest rule from which every request is covered
	absent [NumFields]int
	tags   [NumFields]tagList
	// gaps counts, per field, the runs of the field's domain that no rule
	// covers yet: 0 means every present value is covered.
	gaps [NumFields]int
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
		fc.gaps[f] = 1
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
		// The domain is covered when it was not before this rule: rule
		// is the latest of the rules covering it.
		if fc.all == never && fc.gaps[f] == 0 && (!f.Optional() || fc.absent[f] != never) {
			fc.all = rule
		}
	}
}

// fill tags with rule the values of spans that no earlier rule covers:
// it inserts a tag into each uncovered run of each span, at a cost of
// the tags it passes and inserts, not of every tag of the field.
func (fc *firstCover) fill(f Field, spans []span, rule int) {
	tl := &fc.tags[f]
	top := f.max()
	for _, sp := range spans {
		at := tl.search(sp.lo)
		lo := sp.lo
		for lo <= sp.hi {
			next, ok := tl.at(at)
			if ok && next.lo <= lo {
				lo = math.Max(lo, next.hi+1) // already tagged
				at = tl.advance(at)
				continue
			}
			hi := sp.hi
			if ok && next.lo <= hi {
				hi = next.lo - 1
			}
			// [lo, hi] lies in the uncovered run between the tags before
			// and after at: it leaves a run on either side it does not reach.
			runLo, runHi := 0.0, top
			if prev, ok := tl.at(tl.back(at)); ok {
				runLo = prev.hi + 1
			}
			if ok {
				runHi = next.lo - 1
			}
			if lo >= 0 && hi <= top {
				fc.gaps[f] += b2i(lo > runLo) + b2i(hi < runHi) - 1
			}
			at = tl.insert(at, tagSpan{lo, hi, rule})
			lo = hi + 1
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// maxTag returns the earliest rule by which every value in s is covered,
// or never.
func (fc *firstCover) maxTag(f Field, s valueSet) int {
	j := -1
	if s.absent {
		j = fc.absent[f]
	}
	tl := &fc.tags[f]
	for _, sp := range s.spans {
		if j == never {
			return never
		}
		at := tl.search(sp.lo)
		lo := sp.lo
		for lo <= sp.hi {
			t, ok := tl.at(at)
			if !ok || t.lo > lo {
				return never
			}
			j = max(j, t.rule)
			lo = t.hi + 1
			at = tl.advance(at)
		}
	}
	return j
}

// tagList is a field's tags, sorted and disjoint, held in chunks of at
// most 2×chunkLen so that a tag is inserted by moving at most one chunk's
// tags, and found by two binary searches.
type tagList struct {
	chunks [][]tagSpan // each non-empty, every tag of one before every tag of the next
}

// chunkLen is half the largest chunk of a tagList.
const chunkLen = 128

// tagPos is a place in a tagList: chunk c, index i in it; the end of the
// list is {len(chunks), 0}.
type tagPos struct{ c, i int }

// search returns the place of the first tag whose hi is at least v.
func (tl *tagList) search(v float64) tagPos {
	c := sort.Search(len(tl.chunks), func(c int) bool {
		ch := tl.chunks[c]
		return ch[len(ch)-1].hi >= v
	})
	if c == len(tl.chunks) {
		return tagPos{c, 0}
	}
	ch := tl.chunks[c]
	return tagPos{c, sort.Search(len(ch), func(i int) bool { return ch[i].hi >= v })}
}

// at returns the tag at p; false at the end.
func (tl *tagList) at(p tagPos) (tagSpan, bool) {
	if p.c >= len(tl.chunks) || p.c < 0 {
		return tagSpan{}, false
	}
	return tl.chunks[p.c][p.i], true
}

// advance returns the place after p.
func (tl *tagList) advance(p tagPos) tagPos {
	if p.i+1 < len(tl.chunks[p.c]) {
		return tagPos{p.c, p.i + 1}
	}
	return tagPos{p.c + 1, 0}
}

// back returns the place before p, {-1, 0} before the first.
func (tl *tagList) back(p tagPos) tagPos {
	if p.i > 0 {
		return tagPos{p.c, p.i - 1}
	}
	if p.c == 0 {
		return tagPos{-1, 0}
	}
	return tagPos{p.c - 1, len(tl.chunks[p.c-1]) - 1}
}

// insert puts t at p, before the tag there, and returns the place after
// it. A tag of the same rule that t continues is widened instead.
func (tl *tagList) insert(p tagPos, t tagSpan) tagPos {
	if b := tl.back(p); b.c >= 0 {
		if prev := &tl.chunks[b.c][b.i]; prev.rule == t.rule && prev.hi+1 >= t.lo {
			prev.hi = math.Max(prev.hi, t.hi)
			return p
		}
	}
	if len(tl.chunks) == 0 {
		tl.chunks = append(tl.chunks, []tagSpan{t})
		return tagPos{1, 0}
	}
	if p.c == len(tl.chunks) {
		// At the end: onto the last chunk.
		p = tagPos{p.c - 1, len(tl.chunks[p.c-1])}
	}
	ch := slicesInsert(tl.chunks[p.c], p.i, t)
	tl.chunks[p.c] = ch
	after := tagPos{p.c, p.i + 1}
	if len(ch) > 2*chunkLen {
		// Split the chunk in two halves.
		right := append([]tagSpan(nil), ch[chunkLen:]...)
		tl.chunks[p.c] = ch[:chunkLen:chunkLen]
		tl.chunks = append(tl.chunks, nil)
		copy(tl.chunks[p.c+2:], tl.chunks[p.c+1:])
		tl.chunks[p.c+1] = right
		if after.i >= chunkLen {
			after = tagPos{p.c + 1, after.i - chunkLen}
		}
	}
	if after.i == len(tl.chunks[after.c]) {
		after = tagPos{after.c + 1, 0}
	}
	return after
}

// slicesInsert inserts t at i of ch.
func slicesInsert(ch []tagSpan, i int, t tagSpan) []tagSpan {
	ch = append(ch, tagSpan{})
	copy(ch[i+1:], ch[i:])
	ch[i] = t
	return ch
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
