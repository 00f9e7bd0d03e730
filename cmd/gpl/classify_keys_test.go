package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClosestKey(t *testing.T) {
	got := map[string]string{}
	for _, k := range []string{"input_size", "prio", "sla", "flops", "bacth_size", "zzz", "batch"} {
		got[k] = closestKey(k)
	}
	want := map[string]string{
		"input_size": "input_size_bytes", "prio": "priority", "sla": "sla_deadline",
		"flops": "estimated_flops", "bacth_size": "batch_size", "zzz": "", "batch": "batch_size",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
