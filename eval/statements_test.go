package eval

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
)

// TestDeclarationKindsMatchStatements checks that the kinds of name the
// evaluator tells of ("value", "ruleset", …) are the nouns of the
// declaring statements of lang.Statements, which the REPL maps back to
// their keywords.
func TestDeclarationKindsMatchStatements(t *testing.T) {
	var kinds []string
	for _, k := range check.DeclKinds {
		kinds = append(kinds, k.Noun)
		if row := lang.LookupStatement(k.Keyword); row == nil || row.Noun != k.Noun {
			t.Errorf("declaration kind %q: lang.Statements has %+v for keyword %q", k.Noun, row, k.Keyword)
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
