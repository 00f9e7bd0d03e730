package eval

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

// TestUnevaluatedOutcomes checks the diagnostic of an expect that reads a
// declaration with errors after a failed load: it names the declarations,
// with the caret under the first reference to one.
func TestUnevaluatedOutcomes(t *testing.T) {
	s, err := LoadSource("plan.gpl", []byte(`pool p { devices = 8  rate = 250ms }
job base on p {
  hours   = 10h
  factors { S = 0.9  R = 0.9  P = 0.3 }
  expect mpg > 0.2
}
job other on p {
  hours   = 10h
  factors { S = 0.9  R = 0.9  P = 0.3 }
}
pool q { devices = 8 }
job good on q { hours = 10h  factors { S = 0.9  R = 0.9  P = 0.3 } }
expect good.mpg ≈ base.mpg
expect trade_ratio(base, other) > 1
expect good.mpg > 0.2
`))
	if err == nil {
		t.Fatal("loaded; want the error of pool p")
	}
	var got []string
	for _, o := range s.Test() {
		if o.Pass {
			continue
		}
		// Check's own diagnostic, once it asks unevaluated for one.
		d := o.Diagnostic
		if d == nil && o.Err {
			d = s.unevaluated(o.Expectation)
		}
		var b strings.Builder
		d.Render(&b, s.Sources(), lang.Style{})
		got = append(got, b.String())
	}
	want := []string{
		`error: not evaluated: it reads base, which has errors
  --> plan.gpl:5:10
   |
 5 |   expect mpg > 0.2
   |          ^^^
   |
 2 | job base on p {
   |     ^^^^ declared here
`,
		`error: not evaluated: it reads base, which has errors
   --> plan.gpl:13:19
    |
 13 | expect good.mpg ≈ base.mpg
    |                   ^^^^^^^^
    |
  2 | job base on p {
    |     ^^^^ declared here
`,
		`error: not evaluated: it reads base and other, which have errors
   --> plan.gpl:14:8
    |
 14 | expect trade_ratio(base, other) > 1
    |        ^^^^^^^^^^^^^^^^^^^^^^^^
    |
  2 | job base on p {
    |     ^^^^ declared here
    |
  7 | job other on p {
    |     ^^^^^ declared here
`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics of the expects that were not evaluated (-want +got):\n%s", diff)
	}

	// An expect that reads nothing broken still gets a diagnostic.
	last := s.Expectations()[len(s.Expectations())-1]
	d := s.unevaluated(last)
	if diff := cmp.Diff([2]any{"the expectation could not be evaluated", 15}, [2]any{d.Summary, d.Pos.Line}); diff != "" {
		t.Errorf("fallback diagnostic (-want +got):\n%s", diff)
	}
}

func TestJoinAnd(t *testing.T) {
	got := []string{joinAnd(nil), joinAnd([]string{"a"}), joinAnd([]string{"a", "b"}), joinAnd([]string{"a", "b", "c"})}
	if diff := cmp.Diff([]string{"", "a", "a and b", "a, b and c"}, got); diff != "" {
		t.Errorf("joinAnd (-want +got):\n%s", diff)
	}
}
