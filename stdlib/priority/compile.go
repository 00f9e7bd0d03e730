package priority

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Class is the name of a priority class, such as "latency_critical".
type Class string

// Rule assigns Class to the requests for which When is true. Label is an
// optional name used in reports (see Ruleset.RuleName).
type Rule struct {
	Label string
	When  Cond
	Class Class
}

// Ruleset is a compiled, immutable list of rules. Its methods are safe for
// concurrent use.
type Ruleset struct {
	rules   []Rule
	conds   []Cond                       // the rules' conditions after constant folding
	terms   []term                       // the conditions as one table (table.go)
	fns     map[int]condFn               // the closures of the terms that call one, by index
	plain   []plainTerm                  // the table as classifyPlain runs it, when it is plain (isPlain)
	head    [headTerms]plainTerm         // plain's first terms, padded with terms that never hold
	rest    []plainTerm                  // plain's terms after the head
	run     func(*Ruleset, *Request) int // classifyPlain for a plain table, else classifyTable
	classOf []Class                      // the else class, then rule i's class at i+1
}

// RuleError is an error in one rule given to Compile.
type RuleError struct {
	Rule  int    // the rule's index
	Label string // the rule's label, or ""
	Err   error  // what is wrong: ErrEmptyClass, a *DuplicateLabelError, a *FieldError, …
}

// Error returns "rule N: problem" or "rule N (label): problem", N = Rule+1.
func (e *RuleError) Error() string {
	t := "rule " + strconv.Itoa(e.Rule+1)
	if e.Label != "" {
		t += " (" + e.Label + ")"
	}
	return t + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *RuleError) Unwrap() error { return e.Err }

// DuplicateLabelError is a rule's label that an earlier rule also has.
type DuplicateLabelError struct {
	Earlier int // the index of the earlier rule with the label
}

// Error returns "label also used by rule N", N = Earlier+1.
func (e *DuplicateLabelError) Error() string {
	return "label also used by rule " + strconv.Itoa(e.Earlier+1)
}

// FieldError is a problem with one field: in a condition, or in a request.
type FieldError struct {
	Field Field
	Err   error // ErrUndefinedField, or why the value is invalid
}

// Error returns "field: problem".
func (e *FieldError) Error() string { return e.Field.String() + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *FieldError) Unwrap() error { return e.Err }

// Errors Compile reports, wrapped in a *RuleError (and a *FieldError for
// ErrUndefinedField).
var (
	ErrEmptyClass     = errors.New("empty class")
	ErrUndefinedField = errors.New("undefined field")
)

// Compile checks and compiles rules, tried in order, with otherwise as the
// class of requests that no rule matches. It reports an error, naming the
// rule, for a nil condition or expression, an undefined field or operator,
// a constant that is not finite, an empty class name, or a label used twice.
func Compile(rules []Rule, otherwise Class) (*Ruleset, error) {
	if otherwise == "" {
		return nil, errors.New("the else class is empty")
	}
	rs := &Ruleset{
		rules:   append([]Rule(nil), rules...),
		conds:   make([]Cond, len(rules)),
		classOf: append(make([]Class, 0, len(rules)+1), otherwise),
	}
	labels := make(map[string]int)
	for i, rule := range rules {
		if rule.Label != "" {
			if j, dup := labels[rule.Label]; dup {
				return nil, &RuleError{Rule: i, Label: rule.Label, Err: &DuplicateLabelError{Earlier: j}}
			}
			labels[rule.Label] = i
		}
		if rule.Class == "" {
			return nil, &RuleError{Rule: i, Label: rule.Label, Err: ErrEmptyClass}
		}
		c, err := simplifyCond(rule.When)
		if err != nil {
			return nil, &RuleError{Rule: i, Label: rule.Label, Err: err}
		}
		rs.conds[i] = c
		rs.appendRule(i, c)
		rs.classOf = append(rs.classOf, rule.Class)
	}
	rs.run = (*Ruleset).classifyTable
	if rs.isPlain() {
		rs.plain = plainTerms(rs.terms)
		rs.head, rs.rest = splitHead(rs.plain)
		rs.run = (*Ruleset).classifyPlain
	}
	return rs, nil
}

// Classify returns the class of the first rule whose condition holds for r
// and that rule's index, or the else class and -1 when none does. It does
// not allocate. r must be non-nil; Classify does not validate it.
func (rs *Ruleset) Classify(r *Request) (class Class, rule int) {
	// No branch on whether a rule held: the else class is at 0.
	i := rs.run(rs, r)
	return rs.classOf[i+1], i
}

// Rules returns a copy of the rules the Ruleset was compiled from.
func (rs *Ruleset) Rules() []Rule { return append([]Rule(nil), rs.rules...) }

// Otherwise returns the class of requests that no rule matches.
func (rs *Ruleset) Otherwise() Class { return rs.classOf[0] }

// RuleName names rule i as Classify reports it: the rule's label, or
// "rule N" (N = i+1) for an unlabelled rule, or "else" for -1.
func (rs *Ruleset) RuleName(i int) string {
	if i == -1 {
		return "else"
	}
	if i >= 0 && i < len(rs.rules) && rs.rules[i].Label != "" {
		return rs.rules[i].Label
	}
	return "rule " + strconv.Itoa(i+1)
}

// absentNum is a numeric expression that is always absent, the result of
// folding a division by the constant zero.
type absentNum struct{}

func (absentNum) numExpr()       {}
func (absentNum) String() string { return "absent" }

// simplifyNum checks e and folds constants.
func simplifyNum(e NumExpr) (NumExpr, error) {
	switch x := e.(type) {
	case nil:
		return nil, errors.New("missing numeric expression")
	case *FieldRef:
		if x == nil {
			return nil, errors.New("nil *FieldRef")
		}
		return simplifyNum(*x)
	case *Const:
		if x == nil {
			return nil, errors.New("nil *Const")
		}
		return simplifyNum(*x)
	case *Arith:
		if x == nil {
			return nil, errors.New("nil *Arith")
		}
		return simplifyNum(*x)
	case *Neg:
		if x == nil {
			return nil, errors.New("nil *Neg")
		}
		return simplifyNum(*x)
	case FieldRef:
		if !x.Field.Valid() {
			return nil, &FieldError{Field: x.Field, Err: ErrUndefinedField}
		}
		return x, nil
	case Const:
		if math.IsNaN(x.Value) || math.IsInf(x.Value, 0) {
			return nil, fmt.Errorf("constant %v is not finite", x.Value)
		}
		return x, nil
	case absentNum:
		return x, nil
	case Neg:
		v, err := simplifyNum(x.X)
		if err != nil {
			return nil, err
		}
		switch v := v.(type) {
		case Const:
			return Const{-v.Value}, nil
		case absentNum:
			return v, nil
		}
		return Neg{v}, nil
	case Arith:
		if x.Op > Div {
			return nil, fmt.Errorf("undefined arithmetic operator %s", x.Op)
		}
		l, err := simplifyNum(x.L)
		if err != nil {
			return nil, err
		}
		r, err := simplifyNum(x.R)
		if err != nil {
			return nil, err
		}
		if _, ok := l.(absentNum); ok {
			return l, nil
		}
		if _, ok := r.(absentNum); ok {
			return r, nil
		}
		if c, ok := r.(Const); ok && x.Op == Div && c.Value == 0 {
			return absentNum{}, nil
		}
		lc, lok := l.(Const)
		rc, rok := r.(Const)
		if lok && rok {
			v, _ := arith(x.Op, lc.Value, rc.Value)
			return Const{v}, nil
		}
		return Arith{x.Op, l, r}, nil
	}
	return nil, fmt.Errorf("unsupported numeric expression type %T", e)
}

// arith applies op to present values; ok is false for division by zero.
func arith(op ArithOp, a, b float64) (v float64, ok bool) {
	switch op {
	case Add:
		return a + b, true
	case Sub:
		return a - b, true
	case Mul:
		return a * b, true
	default:
		if b == 0 {
			return 0, false
		}
		return a / b, true
	}
}

// simplifyCond checks c and folds constants: comparisons of constants or
// with an always-absent operand, and and/or/not of constant conditions.
func simplifyCond(c Cond) (Cond, error) {
	switch x := c.(type) {
	case nil:
		return nil, errors.New("missing condition")
	case *Compare:
		if x == nil {
			return nil, errors.New("nil *Compare")
		}
		return simplifyCond(*x)
	case *And:
		if x == nil {
			return nil, errors.New("nil *And")
		}
		return simplifyCond(*x)
	case *Or:
		if x == nil {
			return nil, errors.New("nil *Or")
		}
		return simplifyCond(*x)
	case *Not:
		if x == nil {
			return nil, errors.New("nil *Not")
		}
		return simplifyCond(*x)
	case *Has:
		if x == nil {
			return nil, errors.New("nil *Has")
		}
		return simplifyCond(*x)
	case *Bool:
		if x == nil {
			return nil, errors.New("nil *Bool")
		}
		return *x, nil
	case Bool:
		return x, nil
	case Has:
		if !x.Field.Valid() {
			return nil, &FieldError{Field: x.Field, Err: ErrUndefinedField}
		}
		return x, nil
	case Compare:
		if x.Op > NE {
			return nil, fmt.Errorf("undefined comparison operator %s", x.Op)
		}
		l, err := simplifyNum(x.L)
		if err != nil {
			return nil, err
		}
		r, err := simplifyNum(x.R)
		if err != nil {
			return nil, err
		}
		_, la := l.(absentNum)
		_, ra := r.(absentNum)
		if la || ra {
			return Bool{false}, nil
		}
		lc, lok := l.(Const)
		rc, rok := r.(Const)
		if lok && rok {
			return Bool{x.Op.eval(lc.Value, rc.Value)}, nil
		}
		return Compare{x.Op, l, r}, nil
	case Not:
		v, err := simplifyCond(x.X)
		if err != nil {
			return nil, err
		}
		switch v := v.(type) {
		case Bool:
			return Bool{!v.Value}, nil
		case Not:
			return v.X, nil
		}
		return Not{v}, nil
	case And:
		l, r, err := simplifyPair(x.L, x.R)
		if err != nil {
			return nil, err
		}
		if b, ok := l.(Bool); ok {
			if !b.Value {
				return b, nil
			}
			return r, nil
		}
		if b, ok := r.(Bool); ok {
			if !b.Value {
				return b, nil
			}
			return l, nil
		}
		return And{l, r}, nil
	case Or:
		l, r, err := simplifyPair(x.L, x.R)
		if err != nil {
			return nil, err
		}
		if b, ok := l.(Bool); ok {
			if b.Value {
				return b, nil
			}
			return r, nil
		}
		if b, ok := r.(Bool); ok {
			if b.Value {
				return b, nil
			}
			return l, nil
		}
		return Or{l, r}, nil
	}
	return nil, fmt.Errorf("unsupported condition type %T", c)
}

func simplifyPair(a, b Cond) (Cond, Cond, error) {
	l, err := simplifyCond(a)
	if err != nil {
		return nil, nil, err
	}
	r, err := simplifyCond(b)
	if err != nil {
		return nil, nil, err
	}
	return l, r, nil
}
