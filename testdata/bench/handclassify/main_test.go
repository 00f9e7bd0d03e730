package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRule checks the rule that decides lines at kapsl's boundaries, in
// the key order and spacing the request generator and other writers use.
func TestRule(t *testing.T) {
	lines := []string{
		`{"priority":0,"batch_size":64}`,
		`{"priority":1,"sla_deadline":249,"batch_size":64}`,
		`{"priority":1,"sla_deadline":250,"batch_size":64}`,
		`{"priority":2,"batch_size":64,"input_size_bytes":500000}`,
		`{"priority":2,"batch_size":64,"input_size_bytes":500001,"estimated_flops":1000000000}`,
		`{"priority":3,"batch_size":4,"input_size_bytes":500001,"estimated_flops":1000000001}`,
		`{"priority":3,"batch_size":3,"input_size_bytes":666666,"estimated_flops":1000000001}`,
		`{"priority":3,"batch_size":5,"input_size_bytes":500001,"estimated_flops":1000000001}`,
		`{"batch_size":64}`,
		`{"priority": 1, "batch_size": 4}`,
		`{}`,
	}
	var got []string
	for _, l := range lines {
		got = append(got, rules[rule([]byte(l))])
	}
	want := []string{"override", "sla", "else", "light", "light", "small", "combined", "else", "else", "small", "small"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
}
