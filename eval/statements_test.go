package eval

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/lang"
)

// TestDeclarationKindsMatchStatements checks that the kinds of name the
// evaluator tells of ("value", "ruleset", …) are the nouns of the
// declaring statements of lang.Statements, which the REPL maps back to
// their keywords.
func TestDeclarationKindsMatchStatements(t *testing.T) {
	var kinds []string
	for _, k := range declKinds {
		kinds = append(kinds, k.noun)
		if row := lang.LookupStatement(k.keyword); row == nil || row.Noun != k.noun {
			t.Errorf("declaration kind %q: lang.Statements has %+v for keyword %q", k.noun, row, k.keyword)
		}
	}
	var nouns []string
	for _, st := range lang.Statements {
		if st.Name != nil {
			nouns = append(nouns, st.Noun)
		}
	}
	sort.Strings(kinds)
	sort.Strings(nouns)
	if diff := cmp.Diff(kinds, nouns); diff != "" {
		t.Errorf("declaration kinds (-eval +lang.Statements):\n%s", diff)
	}
}
