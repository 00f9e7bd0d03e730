package lang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIsIdent checks IsIdent against the regular expression
// ^[A-Za-z_][A-Za-z0-9_]*$ it replaced in the evaluator, the REPL and the
// language server.
func TestIsIdent(t *testing.T) {
	var got []string
	for _, s := range []string{"", "a", "_", "A9_z", "9a", "a-b", "é", "x.y", "mpg", "__2", " a", "1"} {
		if IsIdent(s) {
			got = append(got, s)
		}
	}
	if diff := cmp.Diff([]string{"a", "_", "A9_z", "mpg", "__2"}, got); diff != "" {
		t.Errorf("identifiers (-want +got):\n%s", diff)
	}
}
