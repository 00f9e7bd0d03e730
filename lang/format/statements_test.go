package format_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/lang"
)

// TestEveryStatementPrints formats the example of each row of
// lang.Statements, alone and all of them in one file: each is written as
// gpl fmt writes it, so a statement the printer does not know (which it
// would leave out) fails here.
func TestEveryStatementPrints(t *testing.T) {
	var all string
	for i, st := range lang.Statements {
		if diff := cmp.Diff(st.Example, formatSource(t, st.Keyword+".gpl", []byte(st.Example))); diff != "" {
			t.Errorf("%s (-example +formatted):\n%s", st.Keyword, diff)
		}
		if i > 0 {
			all += "\n"
		}
		all += st.Example
	}
	if diff := cmp.Diff(all, formatSource(t, "all.gpl", []byte(all))); diff != "" {
		t.Errorf("every example in one file (-examples +formatted):\n%s", diff)
	}
	f, ds := lang.Parse("all.gpl", []byte(all))
	if ds.HasErrors() || len(f.Stmts) != len(lang.Statements) {
		t.Fatalf("%d statements, %v", len(f.Stmts), ds)
	}
	for i, s := range f.Stmts {
		if got := lang.StatementOf(s); got != &lang.Statements[i] {
			t.Errorf("statement %d is of the %q row, want %q", i, got.Keyword, lang.Statements[i].Keyword)
		}
	}
}
