package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The exit codes are the README's table; scripts and CI depend on them.
func TestExitCodes(t *testing.T) {
	got := []int{ExitOK, ExitUsage, ExitCheck, ExitRuntime, ExitExpected, ExitInternal}
	if diff := cmp.Diff([]int{0, 1, 2, 3, 4, 5}, got); diff != "" {
		t.Errorf("exit codes (-README +cli):\n%s", diff)
	}
	// The more blocking code wins.
	if diff := cmp.Diff([]int{ExitCheck, ExitRuntime, ExitInternal, ExitUsage},
		[]int{Worse(ExitRuntime, ExitCheck), Worse(ExitExpected, ExitRuntime), Worse(ExitUsage, ExitInternal), Worse(ExitUsage, ExitCheck)}); diff != "" {
		t.Errorf("Worse (-want +got):\n%s", diff)
	}
}
