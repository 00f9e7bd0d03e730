package main

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLatencyCritical checks kapsl's rules at their boundaries.
func TestLatencyCritical(t *testing.T) {
	lines := []string{
		`{"priority":0,"batch_size":64}`,
		`{"priority":1,"sla_deadline":249,"batch_size":64}`,
		`{"priority":1,"sla_deadline":250,"batch_size":64}`,
		`{"batch_size":64,"input_size_bytes":500000}`,
		`{"batch_size":64,"input_size_bytes":500001,"estimated_flops":1000000000}`,
		`{"batch_size":3,"input_size_bytes":666666,"estimated_flops":null}`,
		`{"batch_size":5,"input_size_bytes":500001}`,
		`{}`,
	}
	var got []bool
	for _, l := range lines {
		var r request
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, latencyCritical(&r))
	}
	if diff := cmp.Diff([]bool{true, true, false, true, true, true, false, true}, got); diff != "" {
		t.Errorf("latency critical (-want +got):\n%s", diff)
	}
}
