package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gpl-lang/gpl/eval"
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

// ApplySettings evaluates a loaded file again with the --set values. It
// returns the scenario and load error to go on with, and, when a setting
// does not fit the file, that error (an *eval.Error quoting it), with the
// scenario given.
func ApplySettings(s *eval.Scenario, loadErr error, sets Settings) (*eval.Scenario, error, error) {
	if len(sets) == 0 || len(s.Files()) == 0 {
		return s, loadErr, nil
	}
	params := map[string]eval.Value{}
	var bad eval.Error
	for _, set := range sets {
		name, v, err := s.ParseSetting(set)
		if err != nil {
			var le *eval.Error
			if errors.As(err, &le) {
				bad.Diagnostics = append(bad.Diagnostics, le.Diagnostics...)
				bad.Sources = le.Sources
				continue
			}
			return s, loadErr, err
		}
		params[name] = v
	}
	if len(bad.Diagnostics) > 0 {
		return s, loadErr, &bad
	}
	n, err := s.With(params)
	if n == nil {
		return s, loadErr, err
	}
	return n, err, nil
}
