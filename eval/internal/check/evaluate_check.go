package check

import (
	"github.com/gpl-lang/gpl/eval/internal/value"
	"math"
)

// Finite reports whether v is not a number, or a finite one.
func Finite(v value.Value) bool {
	return v.Type.Kind != value.Number || !math.IsInf(v.Num, 0) && !math.IsNaN(v.Num)
}

// PlannerChecked reports a field whose every value the planner's rules
// check (plannerRule), once per evaluation.
func PlannerChecked(name string) bool { return name == "devices" || name == "hours" }
