package testrun

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
)

// updateBase is the scenario the expects of TestPlanEdit read: mpg
// 0.28215, cost $230,400, cost_per_useful_hour 8.8605… USD/h, useful_hours
// 26002.944 h.
const updateBase = `pool p {
  devices = 128
  rate    = 2.50 USD/h
}
job j on p {
  hours    = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = 0.45 }
}
rules serving {
  small: when batch_size <= 4 -> latency_critical
  else throughput
}
request heavy { batch_size = 8 }
`

// checkLast loads src and checks its last expectation.
func checkLast(t *testing.T, src string) eval.Outcome {
	t.Helper()
	s, err := eval.LoadSource("t.gpl", []byte(src))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	exs := s.Expectations()
	return s.Check(exs[len(exs)-1])
}

func TestPlanEdit(t *testing.T) {
	tests := []struct {
		name, expect, want, err string
	}{
		{name: "approx keeps written decimals", expect: "expect j.mpg ≈ 0.29", want: "expect j.mpg ≈ 0.28"},
		{name: "approx ascii spelling", expect: "expect j.mpg ~= 0.300", want: "expect j.mpg ~= 0.282"},
		{name: "approx adds decimals for a tight tolerance", expect: "expect j.mpg ≈ 0.3 ± 0.00001", want: "expect j.mpg ≈ 0.28215 ± 0.00001"},
		{name: "approx within percent", expect: "expect j.cost_per_useful_hour ≈ $9/h within 0.01%", want: "expect j.cost_per_useful_hour ≈ $8.86/h within 0.01%"},
		{name: "unit suffix kept", expect: "expect j.useful_hours ≈ 2h", want: "expect j.useful_hours ≈ 26003h"},
		{name: "unit converted to the one written", expect: "expect j.hours ≈ 1min", want: "expect j.hours ≈ 43200min"},
		{name: "spaced unit", expect: "expect j.cost_per_useful_hour ≈ 9.0000 USD/h", want: "expect j.cost_per_useful_hour ≈ 8.8605 USD/h"},
		{name: "money prefix", expect: "expect j.cost ≈ $5", want: "expect j.cost ≈ $230400"},
		{name: "exponent kept", expect: "expect j.cost ≈ 2.5e3 USD", want: "expect j.cost ≈ 230.4e3 USD"},
		{name: "underscores dropped", expect: "expect j.offered_hours ≈ 1_000h", want: "expect j.offered_hours ≈ 92160h"},
		{name: "negative got", expect: "expect -j.mpg ≈ 0.5", want: "expect -j.mpg ≈ -0.3"},
		{name: "negated literal", expect: "expect -j.mpg ≈ -0.5", want: "expect -j.mpg ≈ -0.3"},
		{name: "sign dropped", expect: "expect j.mpg ≈ -0.5", want: "expect j.mpg ≈ 0.3"},
		{name: "parentheses kept", expect: "expect j.mpg ≈ (0.29)", want: "expect j.mpg ≈ (0.28)"},
		{name: "equal count", expect: "expect j.mpg == 0.3", want: "expect j.mpg == 0.28215"},
		{name: "equal money", expect: "expect j.cost == $1", want: "expect j.cost == $230400"},
		{name: "equal needs every digit", expect: "expect j.cost_per_useful_hour == 8 USD/h", want: "expect j.cost_per_useful_hour == 8.86053517632465 USD/h"},
		{name: "equal string requoted", expect: `expect j.best_lever == "runtime"`, want: `expect j.best_lever == "program"`},
		{name: "equal class", expect: "expect classify(serving, heavy) == latency_critical", want: "expect classify(serving, heavy) == throughput"},
		{name: "equal bool", expect: "expect (j.mpg > 0.5) == true", want: "expect (j.mpg > 0.5) == false"},
		{name: "not equal", expect: "expect j.mpg != 0.28215", err: "!= fails only when the value got is the one written; edit it by hand"},
		{name: "bound", expect: "expect j.mpg > 0.5", err: "only the wanted value of ≈ and == is rewritten, not a bound of >"},
		{name: "condition", expect: "expect j.mpg > 0.5 and j.mpg < 0.6", err: "a condition has no wanted value to rewrite"},
		{name: "expression", expect: "expect j.mpg ≈ j.ceiling_mpg / 2", err: "the wanted value is an expression, not a literal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := updateBase + tt.expect + "\n"
			out := checkLast(t, src)
			if out.Pass || out.Err {
				t.Fatalf("the expect does not fail: pass %v, error %v", out.Pass, out.Err)
			}
			ed, err := planEdit([]byte(src), out)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := string(applyEdits([]byte(src), []literalEdit{ed}))
			if diff := cmp.Diff(updateBase+tt.want+"\n", got); diff != "" {
				t.Errorf("rewritten file (-want +got):\n%s", diff)
			}
			if again := checkLast(t, got); !again.Pass {
				t.Errorf("the rewritten expect still fails: %s", again.Diagnostic.Label)
			}
		})
	}
}

func TestApplyEditsKeepsOtherBytes(t *testing.T) {
	src := []byte("a 0.29 b\t# c\n0.5 $1\n")
	edits := []literalEdit{{start: 17, end: 19, text: "$230400"}, {start: 2, end: 6, text: "0.28"}, {start: 10, end: 10, text: ""}}
	got := string(applyEdits(src, edits))
	if diff := cmp.Diff("a 0.28 b\t# c\n0.5 $230400\n", got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
