package main

import (
	"testing"
	"time"
)

// beforeDeadline is ready a little before the test binary's own deadline
// (go test -timeout), and never when it has none. It bounds no step: it
// only turns a wait that would otherwise end in the harness's timeout
// into a failure that shows what was waited for.
func beforeDeadline(t *testing.T) <-chan time.Time {
	d, ok := t.Deadline()
	if !ok {
		return nil
	}
	left := time.Until(d)
	return time.After(left - left/20)
}
