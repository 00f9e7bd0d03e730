package eval

import (
	"math"
)

// finite reports whether v is not a number, or a finite one.
func finite(v Value) bool {
	return v.Type.Kind != Number || !math.IsInf(v.Num, 0) && !math.IsNaN(v.Num)
}

// plannerChecked reports a field whose every value the planner's rules
// check (plannerRule), once per evaluation.
func plannerChecked(name string) bool { return name == "devices" || name == "hours" }
