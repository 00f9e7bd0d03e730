package repl

import (
	"bytes"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/lang"
)

// TestCompletionKeywords checks that the words completion offers, names
// and functions aside, are the reserved words and every statement keyword
// of lang.Statements: no statement is missing, and none offered that the
// language does not have.
func TestCompletionKeywords(t *testing.T) {
	var out, errOut bytes.Buffer
	r := newTestRepl(&out, &errOut)
	offered := map[string]bool{}
	for c := 'a'; c <= 'z'; c++ {
		_, items, _ := r.complete(string(c), 1)
		for _, it := range items {
			if !slices.Contains(functions(), it) {
				offered[it] = true
			}
		}
	}
	want := map[string]bool{}
	for _, k := range lang.Keywords {
		want[k] = true
	}
	for _, st := range lang.Statements {
		want[st.Keyword] = true
	}
	if diff := cmp.Diff(sortedKeys(want), sortedKeys(offered)); diff != "" {
		t.Errorf("completion keywords (-want +offered):\n%s", diff)
	}
}

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestStatementInputs checks how the REPL reads each statement of
// lang.Statements: its example is a statement, not an expression; its
// entry is of its kind, keyed by the name it declares; and only the
// reserved words that stand nowhere but at the top level start a
// declaration, which ends an open input.
func TestStatementInputs(t *testing.T) {
	var declarations []string
	for _, st := range lang.Statements {
		if !startsStatement(st.Example) {
			t.Errorf("%q is not read as a statement", st.Example)
		}
		if startsDeclaration(st.Example) {
			declarations = append(declarations, st.Keyword)
		}
		f, ds := lang.Parse("e.gpl", []byte(st.Example))
		if ds.HasErrors() || len(f.Stmts) != 1 {
			t.Fatalf("%q: %v", st.Example, ds)
		}
		entries := splitEntries([]byte(st.Example), f.Stmts, lang.Position{Filename: "e.gpl", Line: 1, Column: 1}, true)
		if len(entries) != 1 {
			t.Fatalf("%q: %d entries", st.Example, len(entries))
		}
		e := entries[0]
		if e.kind != st.Keyword || e.isDecl() != (st.Name != nil) {
			t.Errorf("%q: entry of kind %q, declaring %v", st.Example, e.kind, e.isDecl())
		}
		if st.Name != nil {
			if e.key != st.Name(f.Stmts[0]).Name {
				t.Errorf("%q: entry keyed %q", st.Example, e.key)
			}
			if kindWords()[st.Noun] != st.Keyword {
				t.Errorf("kindWords()[%q] = %q, want %q", st.Noun, kindWords()[st.Noun], st.Keyword)
			}
		}
	}
	sort.Strings(declarations)
	want := []string{"import", "job", "let", "param", "pool", "request", "rules"}
	if diff := cmp.Diff(want, declarations); diff != "" {
		t.Errorf("statements that start a declaration (-want +got):\n%s", diff)
	}
}
