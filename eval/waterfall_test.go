package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const ownersSrc = `owners { S = "capacity"  R = "infra" }
pool p {
  owners { R = "pool infra" }
  devices = 10
  hours   = 10h
  rate    = 2 USD/h
}
job a on p {
  owners { P = "perf" }
  factors  { S = 0.5  R = 0.8  P = 0.5 }
  ceilings { P = 1 }
}
job b extends a {}
job c on p { factors { S = 1  R = 1  P = 1 } }
`

// TestOwnersAndExplain checks which block names each owner, innermost
// first, and how Explain tells the waterfall and owner results.
func TestOwnersAndExplain(t *testing.T) {
	s, err := LoadSource("o.gpl", []byte(ownersSrc))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, q := range []string{"a.owner.S", "a.owner.R", "a.owner.P", "b.owner.P", "c.owner.P", "c.owner.R",
		"a.held_hours", "a.productive_hours", "a.loss_cost.P", "a.saving.P", "a.gain_hours.P"} {
		v, err := s.Value(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		got[q] = v.String()
	}
	want := map[string]string{
		"a.owner.S": `"capacity"`, "a.owner.R": `"pool infra"`, "a.owner.P": `"perf"`,
		"b.owner.P": `"perf"`, "c.owner.P": `"program"`, "c.owner.R": `"pool infra"`,
		"a.held_hours": "50 h", "a.productive_hours": "40 h", "a.loss_cost.P": "$40.00",
		"a.saving.P": "$100.00", "a.gain_hours.P": "20 h",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("owners and results (-want +got):\n%s", diff)
	}

	explained := map[string]string{}
	for _, q := range [][2]string{{"a", "owner.P"}, {"b", "owner.P"}, {"a", "owner.R"}, {"a", "owner.S"}, {"c", "owner.P"}, {"a", "productive_hours"}} {
		j, _ := s.Job(q[0])
		e, err := j.Explain(q[1])
		if err != nil {
			t.Fatalf("%s.%s: %v", q[0], q[1], err)
		}
		explained[q[0]+"."+q[1]] = e
	}
	wantExplained := map[string]string{
		"a.owner.P": `owner.program = "perf", set in job a (o.gpl:9)`,
		"b.owner.P": `owner.program = "perf", inherited from job a (o.gpl:9)`,
		"a.owner.R": `owner.runtime = "pool infra", from pool p (o.gpl:3)`,
		"a.owner.S": `owner.scheduling = "capacity", from the top-level owners block (o.gpl:1)`,
		"c.owner.P": `owner.program = "program": no owners block names the program factor, so its owner is named after it`,
		"a.productive_hours": "offered_hours = devices × hours = 10 × 10 h = 100 h\n" +
			"held_hours = offered_hours × S = 100 h × 0.5 = 50 h\n" +
			"productive_hours = held_hours × R = 50 h × 0.8 = 40 h",
	}
	if diff := cmp.Diff(wantExplained, explained); diff != "" {
		t.Errorf("Explain (-want +got):\n%s", diff)
	}
}

// TestOwnersErrors checks the errors of owners blocks.
func TestOwnersErrors(t *testing.T) {
	src := `owners { S = "a"  scheduling = "b" }
owners { prgram = "c"  R = capacity }
`
	s, err := LoadSource("o.gpl", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	want := `error: scheduling is set twice
  --> o.gpl:1:19
   |
 1 | owners { S = "a"  scheduling = "b" }
   |                   ^^^^^^^^^^ set again here
   |
 1 | owners { S = "a"  scheduling = "b" }
   |          ^ first set here

error: an owners block has no field prgram; did you mean program?
  --> o.gpl:2:10
   |
 2 | owners { prgram = "c"  R = capacity }
   |          ^^^^^^

error: an owner is a team's name in quotes, e.g. R = "runtime"
  --> o.gpl:2:28
   |
 2 | owners { prgram = "c"  R = capacity }
   |                            ^^^^^^^^
`
	if diff := cmp.Diff(want, renderDiagnostics(s, s.Diagnostics())); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}
