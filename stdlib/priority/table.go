package priority

import "math"

// A Ruleset's conditions run as one flat table of terms, in rule order,
// each rule's condition written as an "or" of "and"s of terms (its
// disjunctive normal form). Classify walks the table in one loop: a term
// that holds moves on to the next term of its conjunction or, the last
// of it, decides the rule; a term that fails jumps to the first term of
// the next conjunction, of the same rule or of the next. No function is
// called for the shapes rules are written in,
//
//	field OP constant, field * field OP constant, has(field), true, false,
//
// nor for "not", "and" and "or" of them. Any other condition (arithmetic
// beyond one product, two fields compared, a condition whose normal form
// would be large) is one term that calls the condition's closure, as
// compiled by genCond.

// term is one test of the table: the fields in need have the presence
// in want (present, or for a test of absence absent) and v, the product
// of value slots a and b, is in [lo, hi] (outside it, with termNeg). The
// slots are the request's values and, at oneSlot, 1: a term on one field
// f multiplies it by 1, which is exact.
type term struct {
	lo, hi     float64
	skip       int32 // the index of the first term of the next conjunction
	rule       int32 // the rule the term belongs to
	a, b       uint8
	need, want FieldSet
	flags      uint8
}

// The term flags.
const (
	termLast = 1 << iota // the last term of its conjunction
	termNeg              // v must be outside [lo, hi]
	termFunc             // the term calls Ruleset.fns[its index] instead
)

// oneSlot is the value slot that holds 1.
const oneSlot = NumFields

// maxTerms is the most terms a rule's normal form may have before the
// rule is run as a single closure instead.
const maxTerms = 32

// literal is a term being compiled, or, with fn set, a closure.
type literal struct {
	t  term
	fn condFn
}

// dnf is a condition in disjunctive normal form: an "or" of "and"s. An
// empty dnf is false; a dnf with an empty conjunction is true.
type dnf [][]literal

func (d dnf) size() int {
	n := 0
	for _, c := range d {
		n += len(c)
	}
	return n
}

// everything is the range that holds every value a term multiplies out,
// the 1 of oneSlot included.
var everything = [2]float64{math.Inf(-1), math.Inf(1)}

// presence is the literal "the fields of need have the presence want".
func presence(need, want FieldSet) literal {
	return literal{t: term{lo: everything[0], hi: everything[1], a: oneSlot, b: oneSlot, need: need, want: want}}
}

// toDNF returns the normal form of c, a condition simplifyCond has
// checked, or of its negation when negate is set (not is pushed down to
// the terms); ok is false when it would have more than maxTerms terms.
func toDNF(c Cond, negate bool) (d dnf, ok bool) {
	switch x := c.(type) {
	case Bool:
		if x.Value != negate {
			return dnf{{}}, true
		}
		return dnf{}, true
	case Not:
		return toDNF(x.X, !negate)
	case And:
		return combine(x.L, x.R, negate, !negate)
	case Or:
		return combine(x.L, x.R, negate, negate)
	case Has:
		bit := FieldSet(1) << x.Field
		if negate {
			return dnf{{presence(bit, 0)}}, true
		}
		return dnf{{presence(bit, bit)}}, true
	case Compare:
		if t, ok := compareTerm(x); ok {
			if !negate {
				return dnf{{{t: t}}}, true
			}
			// Not "present and in range": a field absent, or present and
			// out of range.
			var d dnf
			for f := Field(0); f < NumFields; f++ {
				if bit := FieldSet(1) << f; t.need&bit != 0 {
					d = append(d, []literal{presence(bit, 0)})
				}
			}
			t.flags ^= termNeg
			return append(d, []literal{{t: t}}), true
		}
	}
	f := genCond(c).fn()
	if negate {
		g := f
		f = func(r *Request) bool { return !g(r) }
	}
	return dnf{{{fn: f}}}, true
}

// combine returns the normal form of l and r (and) or of l or r (not
// and), each negated when negate is set.
func combine(l, r Cond, negate, and bool) (dnf, bool) {
	dl, ok := toDNF(l, negate)
	if !ok {
		return nil, false
	}
	dr, ok := toDNF(r, negate)
	if !ok {
		return nil, false
	}
	if !and {
		if dl.size()+dr.size() > maxTerms {
			return nil, false
		}
		return append(dl, dr...), true
	}
	out, n := dnf{}, 0
	for _, a := range dl {
		for _, b := range dr {
			conj := append(append(make([]literal, 0, len(a)+len(b)), a...), b...)
			if n += len(conj); n > maxTerms {
				return nil, false
			}
			out = append(out, conj)
		}
	}
	return out, true
}

// compareTerm returns the term of "field OP constant" or "field * field
// OP constant", either way round; a negated one (!=) has termNeg set.
func compareTerm(x Compare) (term, bool) {
	op, l, r := x.Op, x.L, x.R
	if _, ok := l.(Const); ok {
		op, l, r = op.flip(), r, l
	}
	c, ok := r.(Const)
	if !ok {
		return term{}, false
	}
	lo, hi, neg := cmpRange(op, c.Value)
	t := term{lo: lo, hi: hi}
	if neg {
		t.flags |= termNeg
	}
	if f, ok := l.(FieldRef); ok {
		t.a, t.b, t.need = uint8(f.Field), oneSlot, 1<<f.Field
	} else if a, b, ok := mulOperands(l); ok {
		t.a, t.b, t.need = uint8(a), uint8(b), 1<<a|1<<b
	} else {
		return term{}, false
	}
	t.want = t.need
	return t, true
}

// appendRule appends rule i, whose condition c simplifyCond has checked,
// to the table.
func (rs *Ruleset) appendRule(i int, c Cond) {
	d, ok := toDNF(c, false)
	if !ok {
		d = dnf{{{fn: genCond(c).fn()}}}
	}
	for _, conj := range d {
		if len(conj) == 0 { // true
			conj = []literal{presence(0, 0)}
		}
		next := int32(len(rs.terms) + len(conj))
		for k, lit := range conj {
			t := lit.t
			if lit.fn != nil {
				t = term{flags: termFunc}
				if rs.fns == nil {
					rs.fns = map[int]condFn{}
				}
				rs.fns[len(rs.terms)] = lit.fn
			}
			t.skip, t.rule = next, int32(i)
			if k == len(conj)-1 {
				t.flags |= termLast
			}
			rs.terms = append(rs.terms, t)
		}
	}
}

// classifyTable classifies r by the general table, whatever its terms.
func (rs *Ruleset) classifyTable(r *Request) int {
	var v [8]float64
	v[0], v[1], v[2], v[3], v[4], v[oneSlot] = r.Values[0], r.Values[1], r.Values[2], r.Values[3], r.Values[4], 1
	p := r.Present
	ts := rs.terms
	for i := 0; i < len(ts); {
		t := &ts[i]
		var ok bool
		if t.flags&(termNeg|termFunc) == 0 {
			x := v[t.a&7] * v[t.b&7]
			ok = p&t.need == t.want && t.lo <= x && x <= t.hi
		} else {
			ok = rs.slowTerm(i, t, &v, p, r)
		}
		if !ok {
			i = int(t.skip)
			continue
		}
		if t.flags&termLast != 0 {
			return int(t.rule)
		}
		i++
	}
	return -1
}

// slowTerm evaluates term i, which is negated or calls a closure.
func (rs *Ruleset) slowTerm(i int, t *term, v *[8]float64, p FieldSet, r *Request) bool {
	if t.flags&termFunc != 0 {
		return rs.fns[i](r)
	}
	x := v[t.a&7] * v[t.b&7]
	return p&t.need == t.want && !(t.lo <= x && x <= t.hi)
}

// plainTerm is a term of a plain table as classifyPlain runs it: on the
// request's values themselves, without the slot of 1. Its f is the field
// it reads or, beyond the fields, what else it tests (product, presence),
// so that one comparison both tells a term of one field from the others
// and bounds the index it reads.
type plainTerm struct {
	lo, hi     float64
	rule       int32
	f          Field // Values[f] in [lo, hi]; or product or presenceOnly
	a, b       Field // a product's fields
	need, want FieldSet
}

// The tests of a plainTerm other than one field's.
const (
	product      = NumFields + iota // Values[a] * Values[b] in [lo, hi]
	presenceOnly                    // 1 in [lo, hi]: the presence test decides
)

// plainTerms returns the terms of a plain table as plainTerms. A term of
// field f multiplies f's value by 1, which is exact, so reading the value
// alone gives the same x; the presence test is unchanged.
func plainTerms(ts []term) []plainTerm {
	out := make([]plainTerm, len(ts))
	for i, t := range ts {
		pt := plainTerm{lo: t.lo, hi: t.hi, rule: t.rule, need: t.need, want: t.want}
		switch {
		case t.a == oneSlot && t.b == oneSlot:
			pt.f = presenceOnly
		case t.b == oneSlot:
			pt.f = Field(t.a)
		case t.a == oneSlot:
			pt.f = Field(t.b)
		default:
			pt.f, pt.a, pt.b = product, Field(t.a), Field(t.b)
		}
		out[i] = pt
	}
	return out
}

// headTerms is how many terms of a plain table classifyPlain tests each at a
// call site of its own (Ruleset.head); the rest run in a loop.
const headTerms = 8

// neverTerm is a plainTerm that holds for no request: no presence equals
// a want outside its need.
var neverTerm = plainTerm{need: 0, want: 1}

// splitHead returns the first headTerms terms of ts, padded with
// neverTerm, and the terms after them.
func splitHead(ts []plainTerm) (head [headTerms]plainTerm, rest []plainTerm) {
	for i := range head {
		head[i] = neverTerm
	}
	n := copy(head[:], ts)
	return head, ts[n:]
}

// holds reports whether r passes the term. Its three tests (presence,
// lower bound, upper bound) are combined as bits, not as a chain of
// branches, so that a term costs the processor one branch it cannot
// predict rather than three. p is r.Present, which the caller reads once.
func (t *plainTerm) holds(r *Request, p FieldSet) bool {
	x := 1.0
	if t.f >= NumFields {
		if t.f == product {
			x = r.Values[t.a] * r.Values[t.b]
		}
	} else {
		x = r.Values[t.f]
	}
	return bit(p&t.need == t.want)&bit(t.lo <= x)&bit(x <= t.hi) != 0
}

// bit is 1 for true and 0 for false; the compiler makes it the flag the
// comparison set, without a branch.
func bit(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// classifyPlain runs a plain table (Ruleset.plain): it returns the index
// of the first rule that holds for r, or -1. The first term that holds
// decides; the terms are read on the request's values in place, and the
// head's are each tested at a call site of their own, as a hand-written
// chain of ifs would be, so that the processor predicts each rule's branch
// apart. After every second head term, a table whose terms end there
// returns: a request no rule decides tests at most one padding term, not
// up to seven. A table that is not plain runs in classifyTable.
func (rs *Ruleset) classifyPlain(r *Request) int {
	h, p := &rs.head, r.Present
	if h[0].holds(r, p) {
		return int(h[0].rule)
	}
	if h[1].holds(r, p) {
		return int(h[1].rule)
	}
	if len(rs.plain) <= 2 {
		return -1
	}
	if h[2].holds(r, p) {
		return int(h[2].rule)
	}
	if h[3].holds(r, p) {
		return int(h[3].rule)
	}
	if len(rs.plain) <= 4 {
		return -1
	}
	if h[4].holds(r, p) {
		return int(h[4].rule)
	}
	if h[5].holds(r, p) {
		return int(h[5].rule)
	}
	if len(rs.plain) <= 6 {
		return -1
	}
	if h[6].holds(r, p) {
		return int(h[6].rule)
	}
	if h[7].holds(r, p) {
		return int(h[7].rule)
	}
	for i := range rs.rest {
		if t := &rs.rest[i]; t.holds(r, p) {
			return int(t.rule)
		}
	}
	return -1
}

// isPlain reports whether every term of the table is a conjunction of its
// own, neither negated nor calling a closure: a table classifyPlain runs in place.
func (rs *Ruleset) isPlain() bool {
	for _, t := range rs.terms {
		if t.flags != termLast {
			return false
		}
	}
	return true
}
