package eval

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// TestDivisionByMPGErrors pins the errors of the results that divide by an
// mpg: each says once what is undefined and why, and still wraps the
// engine's error.
func TestDivisionByMPGErrors(t *testing.T) {
	s, err := LoadSource("div.gpl", []byte(`
pool p { devices = 8  rate = 2 USD/h }
job idle on p { hours = 10h  factors { S = 0.9  R = 0.9  P = 0 } }
job tiny on p { hours = 10h  factors { S = 1e-160  R = 1e-160  P = 1 } }
job busy on p { hours = 10h  factors { S = 0.9  R = 0.9  P = 0.5 } }
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, expr string
		msg        string
		// Job.Get of a result gives the same text, in an error that wraps
		// the engine's sentinel.
		job, result string
		sentinel    error
	}{
		{name: "cost per useful hour", expr: "idle.cost_per_useful_hour",
			msg: "cost_per_useful_hour of job idle is undefined: its mpg is 0",
			job: "idle", result: "cost_per_useful_hour", sentinel: goodput.ErrZeroMPG},
		{name: "headroom", expr: "idle.headroom",
			msg: "headroom of job idle is undefined: its mpg is 0",
			job: "idle", result: "headroom", sentinel: goodput.ErrZeroMPG},
		{name: "overflow", expr: "tiny.cost_per_useful_hour",
			msg: "cost_per_useful_hour of job tiny is undefined: the quotient is too large to represent (its mpg is 1e-320)",
			job: "tiny", result: "cost_per_useful_hour", sentinel: goodput.ErrOverflow},
		{name: "trade ratio", expr: "trade_ratio(idle, busy)",
			msg: "trade_ratio(idle, busy) is undefined: the mpg of idle is 0"},
		{name: "trade ratio overflow", expr: "trade_ratio(tiny, busy)",
			msg: "trade_ratio(tiny, busy) is undefined: the quotient is too large to represent (the mpg of tiny is 1e-320)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Eval("query", tt.expr)
			var e *Error
			if !errors.As(err, &e) || len(e.Diagnostics) != 1 || !e.Runtime {
				t.Fatalf("Eval(%s) = %v, want one runtime error", tt.expr, err)
			}
			if diff := cmp.Diff(tt.msg, e.Diagnostics[0].Summary); diff != "" {
				t.Errorf("Eval(%s) (-want +got):\n%s", tt.expr, diff)
			}
			if tt.job == "" {
				return
			}
			j, _ := s.Job(tt.job)
			_, err = j.Get(tt.result)
			if err == nil || err.Error() != tt.msg || !errors.Is(err, tt.sentinel) {
				t.Errorf("Get(%s) = %v; want %q wrapping %v", tt.result, err, tt.msg, tt.sentinel)
			}
		})
	}
}
