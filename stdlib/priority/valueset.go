package priority

import "math"

// span is a closed range [lo, hi] of integers, lo <= hi.
type span struct{ lo, hi float64 }

// valueSet is a set of possible values of one field of a valid request:
// integers given as sorted, disjoint, non-adjacent spans, plus "absent".
type valueSet struct {
	spans  []span
	absent bool
}

// domain returns every possible value of field f in a valid request.
func domain(f Field) valueSet {
	return valueSet{spans: []span{{0, f.max()}}, absent: f.Optional()}
}

// presentDomain returns every present value of field f.
func presentDomain(f Field) valueSet {
	return valueSet{spans: []span{{0, f.max()}}}
}

func (s valueSet) empty() bool { return len(s.spans) == 0 && !s.absent }

func (s valueSet) equal(t valueSet) bool {
	if s.absent != t.absent || len(s.spans) != len(t.spans) {
		return false
	}
	for i := range s.spans {
		if s.spans[i] != t.spans[i] {
			return false
		}
	}
	return true
}

// spanSet returns the set holding [lo, hi] clamped to field f's values.
func spanSet(f Field, lo, hi float64) valueSet {
	lo = math.Max(lo, 0)
	hi = math.Min(hi, f.max())
	if lo > hi {
		return valueSet{}
	}
	return valueSet{spans: []span{{lo, hi}}}
}

// cmpSet returns the set of values v of field f for which "v op c" holds.
// Absent values never satisfy a comparison.
func cmpSet(f Field, op CmpOp, c float64) valueSet {
	inf := math.Inf(1)
	switch op {
	case LT:
		return spanSet(f, 0, math.Ceil(c)-1)
	case LE:
		return spanSet(f, 0, math.Floor(c))
	case GT:
		return spanSet(f, math.Floor(c)+1, inf)
	case GE:
		return spanSet(f, math.Ceil(c), inf)
	case EQ:
		if c != math.Trunc(c) {
			return valueSet{}
		}
		return spanSet(f, c, c)
	default: // NE
		s := presentDomain(f)
		if c != math.Trunc(c) {
			return s
		}
		return s.intersect(complementIn(presentDomain(f), spanSet(f, c, c)))
	}
}

// intersect returns s ∩ t.
func (s valueSet) intersect(t valueSet) valueSet {
	var out valueSet
	out.absent = s.absent && t.absent
	i, j := 0, 0
	for i < len(s.spans) && j < len(t.spans) {
		a, b := s.spans[i], t.spans[j]
		lo, hi := math.Max(a.lo, b.lo), math.Min(a.hi, b.hi)
		if lo <= hi {
			out.spans = append(out.spans, span{lo, hi})
		}
		if a.hi < b.hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// union returns s ∪ t.
func (s valueSet) union(t valueSet) valueSet {
	var out valueSet
	out.absent = s.absent || t.absent
	i, j := 0, 0
	for i < len(s.spans) || j < len(t.spans) {
		var next span
		if j >= len(t.spans) || i < len(s.spans) && s.spans[i].lo <= t.spans[j].lo {
			next = s.spans[i]
			i++
		} else {
			next = t.spans[j]
			j++
		}
		if n := len(out.spans); n > 0 && next.lo <= out.spans[n-1].hi+1 {
			out.spans[n-1].hi = math.Max(out.spans[n-1].hi, next.hi)
		} else {
			out.spans = append(out.spans, next)
		}
	}
	return out
}

// complementIn returns dom \ s, where s ⊆ dom and dom is a single span
// plus, perhaps, absent.
func complementIn(dom, s valueSet) valueSet {
	out := valueSet{absent: dom.absent && !s.absent}
	lo, hi := dom.spans[0].lo, dom.spans[0].hi
	for _, sp := range s.spans {
		if sp.lo > lo {
			out.spans = append(out.spans, span{lo, sp.lo - 1})
		}
		lo = sp.hi + 1
	}
	if lo <= hi {
		out.spans = append(out.spans, span{lo, hi})
	}
	return out
}

// subset reports whether s ⊆ t.
func (s valueSet) subset(t valueSet) bool {
	if s.absent && !t.absent {
		return false
	}
	j := 0
	for _, a := range s.spans {
		for j < len(t.spans) && t.spans[j].hi < a.lo {
			j++
		}
		if j == len(t.spans) || t.spans[j].lo > a.lo || t.spans[j].hi < a.hi {
			return false
		}
	}
	return true
}
