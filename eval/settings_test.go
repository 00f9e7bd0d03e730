package eval

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

// TestWithSettings applies --set style settings: good ones give a new
// evaluation, bad ones one *Error telling each, none the scenario itself.
func TestWithSettings(t *testing.T) {
	s := loadParams(t)
	if n, err := s.WithSettings(); n != s || err != nil {
		t.Errorf("WithSettings(nil) = %p, %v; want s itself, nil", n, err)
	}
	n, err := s.WithSettings("measured_runtime=0.85", "gpu_rate=3.10USD/h")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, name := range []string{"measured_runtime", "gpu_rate", "j.mpg"} {
		v, err := n.Value(name)
		if err != nil {
			t.Fatal(err)
		}
		got[name] = v.String()
	}
	want := map[string]string{"measured_runtime": "0.85", "gpu_rate": "$3.10/h", "j.mpg": "0.266475"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("values after settings (-want +got):\n%s", diff)
	}
	if n.Err() != nil {
		t.Errorf("Err() = %v, want nil", n.Err())
	}

	n, err = s.WithSettings("peak=0.5", "gpu_rat=3USD/h", "measured_runtime=0.85")
	var le *Error
	if n != nil || !errors.As(err, &le) {
		t.Fatalf("bad settings gave %p, %v; want nil and an *Error", n, err)
	}
	var summaries []string
	for _, d := range le.Diagnostics {
		summaries = append(summaries, d.Summary)
	}
	wantSummaries := []string{
		"peak is a let, not a param; declare it with param to set it from outside the file",
		"unknown param gpu_rat; did you mean gpu_rate?",
	}
	if diff := cmp.Diff(wantSummaries, summaries); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	// Each diagnostic quotes its own setting, the Nth setting as line N.
	var b strings.Builder
	le.Diagnostics.RenderAll(&b, le.Sources, lang.Style{})
	wantText := `error: peak is a let, not a param; declare it with param to set it from outside the file
  --> --set:1:1
   |
 1 | peak=0.5
   | ^^^^

error: unknown param gpu_rat; did you mean gpu_rate?
  --> --set:2:1
   |
 2 | gpu_rat=3USD/h
   | ^^^^^^^
`
	if diff := cmp.Diff(wantText, b.String()); diff != "" {
		t.Errorf("rendered (-want +got):\n%s", diff)
	}
}
