package eval

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval/internal/check"
)

// TestListed checks that a message lists a few names and counts the rest.
func TestListed(t *testing.T) {
	var many []string
	for i := range 1234 {
		many = append(many, fmt.Sprintf("p%d", i))
	}
	got := []string{check.Listed([]string{"a", "b"}), check.Listed(many)}
	want := []string{"a, b", "p0, p1, p2, p3, p4, p5, p6, p7, p8, p9 and 1,224 more"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestNoSuggestionOfACycle checks that "did you mean" never offers a
// declaration whose check is under way where the misspelling is: reading
// it there would be a cycle. Another declaration as close still is.
func TestNoSuggestionOfACycle(t *testing.T) {
	got := loadErrors(t, nil, "cycle.gpl", []byte(
		"let speed = spede + 1\n"+
			"let rate = 2\n"+
			"let total = totl + rat\n"+
			"let totl2 = 1\n"))
	want := []string{
		"1:13 unknown name spede",
		"3:13 unknown name totl; did you mean totl2?",
		"3:20 unknown name rat; did you mean rate?",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestKeptOnce checks what a job that a large file repeats keeps: its
// numbers no entry in the field map (bare 0 and a folded constant do), and
// its expect of its own result no compiled expression.
func TestKeptOnce(t *testing.T) {
	s, err := LoadSource("kept.gpl", []byte(`pool p {
  devices = 8
  rate    = 2.50 USD/h
}
let f = 0.9 * 0.99
job j on p {
  hours = 720h
  factors { S = 0.95  R = f  P = (0.33) }
  ceilings { P = 0.45 }
  expect mpg ≈ 0.2
  expect j.mpg ≈ 0.2
}
job k on p {
  hours = 1h
  factors { S = 0  R = 0.5  P = 0.5 }
}
`))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for f := range s.p.Fields {
		kept = append(kept, f.Name.Name)
	}
	sort.Strings(kept)
	var own []string
	for _, e := range s.p.Expects {
		own = append(own, fmt.Sprintf("%q %v", e.Own, e.X == nil))
	}
	want := [][]string{{"R", "S"}, {`"mpg" true`, `"" false`}}
	if diff := cmp.Diff(want, [][]string{kept, own}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
