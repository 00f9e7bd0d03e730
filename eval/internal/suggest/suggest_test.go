package suggest

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSuggesterIndex checks that the suggestions found through the
// one-deletion index are those a full scan finds, and what they are.
func TestSuggesterIndex(t *testing.T) {
	cands := []string{"priority", "sla_deadline", "batch_size", "input_size_bytes", "kapsl", "serving", "Value"}
	for i := range 300 {
		cands = append(cands, fmt.Sprintf("job%03d", i))
	}
	queries := []string{
		"prioirty", // a transposition
		"servng",   // a deletion
		"kapsk",    // a substitution
		"job0077",  // an insertion
		"jbo100",   // a transposition among many alike
		"valeu",    // case is ignored; the candidate comes back as declared
		"sla",      // the one candidate it begins
		"job",      // begins many: no guess
		"batchsze", // two edits
		"zzzzzz",   // nothing close
	}
	want := []string{"priority", "serving", "kapsl", "job007", "job100", "Value", "sla_deadline", "", "batch_size", ""}

	scan := make([]string, len(queries))
	for i, q := range queries {
		scan[i] = New(cands).Suggest(q, nil) // a fresh suggester scans
	}
	indexed := New(cands)
	for range nearAfter + 1 {
		indexed.Suggest("warm up", nil)
	}
	if indexed.near == nil {
		t.Fatal("the index was not built")
	}
	got := make([]string, len(queries))
	for i, q := range queries {
		got[i] = indexed.Suggest(q, nil)
	}
	if diff := cmp.Diff(want, scan); diff != "" {
		t.Errorf("scanning (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("through the index (-want +got):\n%s", diff)
	}
}

// TestSuggesterBudget checks that once the scans' budget is spent, no
// name is suggested by scanning (before the index is built, that is every
// name), while one edit away is still found through the index.
func TestSuggesterBudget(t *testing.T) {
	sg := New([]string{"priority", "serving"})
	sg.budget = 1
	got := []string{sg.Suggest("prioirty", nil), sg.Suggest("srevnig", nil)}
	for range nearAfter {
		sg.Suggest("x", nil)
	}
	got = append(got, sg.Suggest("srevnig", nil), sg.Suggest("servng", nil))
	if diff := cmp.Diff([]string{"", "", "", "serving"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
