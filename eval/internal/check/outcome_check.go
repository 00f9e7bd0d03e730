package check

import (
	"github.com/gpl-lang/gpl/lang"
)

// The judge's rules, offered to tools: which operator an expect uses, the
// unit its wanted value was written in, its within percentage.

// Operator is the expect's operator: "≈" for an approximate comparison,
// "==", "!=", "<", "<=", ">" or ">=" for a comparison, and "" for a plain
// condition.
func (e *Expectation) Operator() string {
	switch e.Mode {
	case ModeApprox:
		return "≈"
	case ModeCompare:
		return e.Op
	}
	return ""
}

// WantedUnit is the unit the wanted value was written in when it is a
// number literal with a unit (the 0.29 of "≈ 0.29" has none, the $5 of
// "< $5" is in $); nil otherwise. Reports print got and want in it.
func (e *Expectation) WantedUnit() *lang.Unit { return e.WantUnit }
