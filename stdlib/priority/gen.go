package priority

import "math"

// condFn is a compiled condition.
type condFn func(*Request) bool

// numFn is a compiled numeric expression: its value and whether it is
// present.
type numFn func(*Request) (float64, bool)

// rangeTest is the compiled form of "field OP constant": the field must be
// present and its value v must satisfy (lo <= v && v <= hi) != neg. Strict
// comparisons are turned into closed ranges with math.Nextafter, which is
// exact in float64: v < c exactly when v <= Nextafter(c, -Inf).
type rangeTest struct {
	f      Field
	bit    FieldSet
	lo, hi float64
	neg    bool
}

// cmpRange returns the range form of "v op c".
func cmpRange(op CmpOp, c float64) (lo, hi float64, neg bool) {
	inf := math.Inf(1)
	switch op {
	case LT:
		if math.IsInf(c, -1) {
			return inf, -inf, false
		}
		return -inf, math.Nextafter(c, -inf), false
	case LE:
		return -inf, c, false
	case GT:
		if math.IsInf(c, 1) {
			return inf, -inf, false
		}
		return math.Nextafter(c, inf), inf, false
	case GE:
		return c, inf, false
	case EQ:
		return c, c, false
	default:
		return c, c, true
	}
}

func (t rangeTest) fn() condFn {
	f, bit, lo, hi, neg := t.f, t.bit, t.lo, t.hi, t.neg
	if neg {
		return func(r *Request) bool {
			v := r.Values[f]
			return r.Present&bit != 0 && !(lo <= v && v <= hi)
		}
	}
	return func(r *Request) bool {
		v := r.Values[f]
		return r.Present&bit != 0 && lo <= v && v <= hi
	}
}

// gen is a condition being compiled. A bare range test is kept as data so
// that "and"/"or" of two range tests compile to a single closure.
type gen struct {
	leaf bool
	rt   rangeTest
	f    condFn
}

func (g gen) fn() condFn {
	if g.leaf {
		return g.rt.fn()
	}
	return g.f
}

// genCond compiles a condition that simplifyCond has checked.
func genCond(c Cond) gen {
	switch x := c.(type) {
	case Bool:
		if x.Value {
			return gen{f: func(*Request) bool { return true }}
		}
		return gen{f: func(*Request) bool { return false }}
	case Has:
		bit := FieldSet(1) << x.Field
		return gen{f: func(r *Request) bool { return r.Present&bit != 0 }}
	case Not:
		g := genCond(x.X).fn()
		return gen{f: func(r *Request) bool { return !g(r) }}
	case And:
		l, r := genCond(x.L), genCond(x.R)
		if l.leaf && r.leaf && !l.rt.neg && !r.rt.neg {
			return gen{f: andRanges(l.rt, r.rt)}
		}
		lf, rf := l.fn(), r.fn()
		return gen{f: func(q *Request) bool { return lf(q) && rf(q) }}
	case Or:
		l, r := genCond(x.L), genCond(x.R)
		if l.leaf && r.leaf && !l.rt.neg && !r.rt.neg {
			return gen{f: orRanges(l.rt, r.rt)}
		}
		lf, rf := l.fn(), r.fn()
		return gen{f: func(q *Request) bool { return lf(q) || rf(q) }}
	case Compare:
		return genCompare(x)
	}
	panic("priority: unexpected condition type in genCond")
}

func andRanges(a, b rangeTest) condFn {
	fa, ba, loa, hia := a.f, a.bit, a.lo, a.hi
	fb, bb, lob, hib := b.f, b.bit, b.lo, b.hi
	return func(r *Request) bool {
		v, w := r.Values[fa], r.Values[fb]
		return r.Present&ba != 0 && loa <= v && v <= hia &&
			r.Present&bb != 0 && lob <= w && w <= hib
	}
}

func orRanges(a, b rangeTest) condFn {
	fa, ba, loa, hia := a.f, a.bit, a.lo, a.hi
	fb, bb, lob, hib := b.f, b.bit, b.lo, b.hi
	return func(r *Request) bool {
		v, w := r.Values[fa], r.Values[fb]
		return r.Present&ba != 0 && loa <= v && v <= hia ||
			r.Present&bb != 0 && lob <= w && w <= hib
	}
}

// mulOperands reports whether e is field * field.
func mulOperands(e NumExpr) (a, b Field, ok bool) {
	m, ok := e.(Arith)
	if !ok || m.Op != Mul {
		return 0, 0, false
	}
	fa, ok1 := m.L.(FieldRef)
	fb, ok2 := m.R.(FieldRef)
	return fa.Field, fb.Field, ok1 && ok2
}

func genCompare(x Compare) gen {
	op, l, r := x.Op, x.L, x.R
	if _, ok := l.(Const); ok {
		// Put the constant on the right.
		op, l, r = op.flip(), r, l
	}
	c, rconst := r.(Const)
	if !rconst {
		return gen{f: genCompareGeneral(op, genNum(l), genNum(r))}
	}
	lo, hi, neg := cmpRange(op, c.Value)
	if f, ok := l.(FieldRef); ok {
		return gen{leaf: true, rt: rangeTest{f: f.Field, bit: 1 << f.Field, lo: lo, hi: hi, neg: neg}}
	}
	if a, b, ok := mulOperands(l); ok {
		bits := FieldSet(1)<<a | FieldSet(1)<<b
		if neg {
			return gen{f: func(q *Request) bool {
				v := q.Values[a] * q.Values[b]
				return q.Present&bits == bits && !(lo <= v && v <= hi)
			}}
		}
		return gen{f: func(q *Request) bool {
			v := q.Values[a] * q.Values[b]
			return q.Present&bits == bits && lo <= v && v <= hi
		}}
	}
	n := genNum(l)
	if neg {
		return gen{f: func(q *Request) bool {
			v, ok := n(q)
			return ok && !(lo <= v && v <= hi)
		}}
	}
	return gen{f: func(q *Request) bool {
		v, ok := n(q)
		return ok && lo <= v && v <= hi
	}}
}

func genCompareGeneral(op CmpOp, l, r numFn) condFn {
	return func(q *Request) bool {
		a, ok := l(q)
		if !ok {
			return false
		}
		b, ok := r(q)
		return ok && op.eval(a, b)
	}
}

// genNum compiles a numeric expression that simplifyNum has checked.
func genNum(e NumExpr) numFn {
	switch x := e.(type) {
	case FieldRef:
		f := x.Field
		bit := FieldSet(1) << f
		return func(r *Request) (float64, bool) { return r.Values[f], r.Present&bit != 0 }
	case Const:
		c := x.Value
		return func(*Request) (float64, bool) { return c, true }
	case absentNum:
		return func(*Request) (float64, bool) { return 0, false }
	case Neg:
		n := genNum(x.X)
		return func(r *Request) (float64, bool) {
			v, ok := n(r)
			return -v, ok
		}
	case Arith:
		return genArith(x)
	}
	panic("priority: unexpected numeric expression type in genNum")
}

func genArith(x Arith) numFn {
	l, r := genNum(x.L), genNum(x.R)
	switch x.Op {
	case Add:
		return func(q *Request) (float64, bool) {
			a, ok := l(q)
			if !ok {
				return 0, false
			}
			b, ok := r(q)
			return a + b, ok
		}
	case Sub:
		return func(q *Request) (float64, bool) {
			a, ok := l(q)
			if !ok {
				return 0, false
			}
			b, ok := r(q)
			return a - b, ok
		}
	case Mul:
		if a, b, ok := mulOperands(x); ok {
			bits := FieldSet(1)<<a | FieldSet(1)<<b
			return func(q *Request) (float64, bool) {
				return q.Values[a] * q.Values[b], q.Present&bits == bits
			}
		}
		return func(q *Request) (float64, bool) {
			a, ok := l(q)
			if !ok {
				return 0, false
			}
			b, ok := r(q)
			return a * b, ok
		}
	default:
		return func(q *Request) (float64, bool) {
			a, ok := l(q)
			if !ok {
				return 0, false
			}
			b, ok := r(q)
			if !ok || b == 0 {
				return 0, false
			}
			return a / b, true
		}
	}
}
