package cli

import (
	"fmt"
	"io"
	"strings"
)

// Worse orders exit codes by how much they block: an internal error over a
// usage error over a check error over a runtime error over a failed
// expectation over success.
func Worse(a, b int) int {
	rank := map[int]int{ExitOK: 0, ExitExpected: 1, ExitRuntime: 2, ExitCheck: 3, ExitUsage: 4, ExitInternal: 5}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// OneOf reports whether an enumerated flag's value is one allowed, and
// says which are when it is not.
func OneOf(stderr io.Writer, flagName, value string, allowed ...string) bool {
	for _, a := range allowed {
		if value == a {
			return true
		}
	}
	fmt.Fprintf(stderr, "gpl: --%s must be one of %s, not %q\n", flagName, strings.Join(allowed, ", "), value)
	return false
}

// Settings collects repeated --set NAME=VALUE flags.
type Settings []string

func (s *Settings) String() string { return strings.Join(*s, " ") }

// Set adds one NAME=VALUE.
func (s *Settings) Set(v string) error {
	*s = append(*s, v)
	return nil
}
