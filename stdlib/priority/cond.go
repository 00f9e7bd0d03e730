package priority

import "strconv"

// NumExpr is a numeric expression of the condition IR: FieldRef, Const,
// Arith or Neg. Evaluated against a request it yields a float64 value and
// whether the value is present (see the package comment for the rules on
// absent values). The set of implementations is closed.
type NumExpr interface {
	// String renders the expression in a neutral, Go-like debugging
	// form, such as Arith{input_size * batch_size}.
	String() string
	numExpr()
}

// Cond is a condition of the condition IR: Compare, And, Or, Not, Has or
// Bool. Evaluated against a request it yields true or false. The set of
// implementations is closed.
type Cond interface {
	// String renders the condition in a neutral, Go-like debugging form,
	// such as And{Compare{sla_deadline < 250}, Has{flops}}; it is no
	// surface language's syntax.
	String() string
	cond()
}

// FieldRef is the value of a request field; it is absent when the field is.
type FieldRef struct{ Field Field }

// Const is a constant in the unit of whatever it is compared with or
// combined with; it is always present. It must be finite.
type Const struct{ Value float64 }

// ArithOp is a binary arithmetic operator.
type ArithOp uint8

// The arithmetic operators.
const (
	Add ArithOp = iota // L + R
	Sub                // L - R
	Mul                // L * R
	Div                // L / R; absent when R is zero
)

var arithNames = [...]string{"+", "-", "*", "/"}

// String returns the operator's symbol.
func (op ArithOp) String() string {
	if int(op) < len(arithNames) {
		return arithNames[op]
	}
	return "ArithOp(" + strconv.Itoa(int(op)) + ")"
}

// Arith is L Op R in float64 arithmetic. It is absent when either operand
// is absent, or when Op is Div and R is zero.
type Arith struct {
	Op   ArithOp
	L, R NumExpr
}

// Neg is -X; it is absent when X is.
type Neg struct{ X NumExpr }

// CmpOp is a comparison operator.
type CmpOp uint8

// The comparison operators.
const (
	LT CmpOp = iota // L < R
	LE              // L <= R
	GT              // L > R
	GE              // L >= R
	EQ              // L == R
	NE              // L != R
)

var cmpNames = [...]string{"<", "<=", ">", ">=", "==", "!="}

// String returns the operator's symbol.
func (op CmpOp) String() string {
	if int(op) < len(cmpNames) {
		return cmpNames[op]
	}
	return "CmpOp(" + strconv.Itoa(int(op)) + ")"
}

// flip returns the operator op' with (a op b) == (b op' a).
func (op CmpOp) flip() CmpOp {
	switch op {
	case LT:
		return GT
	case LE:
		return GE
	case GT:
		return LT
	case GE:
		return LE
	}
	return op
}

// eval applies the operator to two present values.
func (op CmpOp) eval(a, b float64) bool {
	switch op {
	case LT:
		return a < b
	case LE:
		return a <= b
	case GT:
		return a > b
	case GE:
		return a >= b
	case EQ:
		return a == b
	default:
		return a != b
	}
}

// Compare is L Op R. It is false when either operand is absent, so
// "sla_deadline < 250" is false for a request without an SLA deadline.
type Compare struct {
	Op   CmpOp
	L, R NumExpr
}

// And is true when both L and R are.
type And struct{ L, R Cond }

// Or is true when L or R is.
type Or struct{ L, R Cond }

// Not is true when X is false; "not (sla_deadline < 250)" is true for a
// request without an SLA deadline.
type Not struct{ X Cond }

// Has is true when Field is present in the request; for a valid request it
// is always true for Priority and BatchSize.
type Has struct{ Field Field }

// Bool is a constant condition.
type Bool struct{ Value bool }

func (FieldRef) numExpr() {}
func (Const) numExpr()    {}
func (Arith) numExpr()    {}
func (Neg) numExpr()      {}

func (Compare) cond() {}
func (And) cond()     {}
func (Or) cond()      {}
func (Not) cond()     {}
func (Has) cond()     {}
func (Bool) cond()    {}

// String returns the field's name.
func (e FieldRef) String() string { return e.Field.String() }

// String returns the constant in shortest form.
func (e Const) String() string { return formatValue(e.Value) }

// String returns "Arith{L op R}".
func (e Arith) String() string {
	return "Arith{" + numString(e.L) + " " + e.Op.String() + " " + numString(e.R) + "}"
}

// String returns "Neg{X}".
func (e Neg) String() string { return "Neg{" + numString(e.X) + "}" }

// String returns "Compare{L op R}".
func (c Compare) String() string {
	return "Compare{" + numString(c.L) + " " + c.Op.String() + " " + numString(c.R) + "}"
}

// String returns "And{L, R}".
func (c And) String() string { return "And{" + condString(c.L) + ", " + condString(c.R) + "}" }

// String returns "Or{L, R}".
func (c Or) String() string { return "Or{" + condString(c.L) + ", " + condString(c.R) + "}" }

// String returns "Not{X}".
func (c Not) String() string { return "Not{" + condString(c.X) + "}" }

// String returns "Has{field}".
func (c Has) String() string { return "Has{" + c.Field.String() + "}" }

// String returns "Bool{true}" or "Bool{false}".
func (c Bool) String() string { return "Bool{" + strconv.FormatBool(c.Value) + "}" }

func numString(e NumExpr) string {
	if e == nil {
		return "<nil>"
	}
	return e.String()
}

func condString(c Cond) string {
	if c == nil {
		return "<nil>"
	}
	return c.String()
}
