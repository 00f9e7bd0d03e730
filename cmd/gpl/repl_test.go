package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
)

// The REPL exits with package cli's codes, copied from main's: they must
// stay the same until main uses cli's.
func TestExitCodesShared(t *testing.T) {
	got := []int{cli.ExitOK, cli.ExitUsage, cli.ExitCheck, cli.ExitRuntime, cli.ExitExpected}
	want := []int{exitOK, exitUsage, exitCheck, exitRuntime, exitExpected}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cli exit codes (-main +cli):\n%s", diff)
	}
}
