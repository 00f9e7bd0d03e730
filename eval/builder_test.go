package eval_test

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// buildDefault builds the default scenario's pool and jobs from Go.
func buildDefault() *eval.Builder {
	b := eval.NewBuilder("inventory.gpl")
	b.Let("peak_mfu", 0.45)
	b.Param("measured_runtime", eval.Count(0.90))
	b.Pool("shared_h100").
		Set("devices", 128).
		Set("rate", eval.MustQuantity(2.50, "USD/h"))
	b.Job("llama2_70b", "shared_h100").
		Set("hours", eval.MustQuantity(720, "h")).
		Factor("scheduling", 0.95).
		Factor("runtime", eval.Ref("measured_runtime")).
		Factor("program", 0.33).
		Ceiling("scheduling", 0.98).
		Ceiling("runtime", 0.95).
		Ceiling("program", eval.Ref("peak_mfu"))
	b.JobExtends("llama2_70b_tuned", "llama2_70b", "").Factor("program", 0.40)
	b.Group("both", "llama2_70b", "llama2_70b_tuned")
	return b
}

// A program built from Go has the figures of the same program written as
// text.
func TestBuilderMatchesText(t *testing.T) {
	built, err := buildDefault().Load(eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text, err := eval.LoadFile("../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, path := range []string{"llama2_70b.mpg", "llama2_70b.cost_per_useful_hour", "llama2_70b.ceiling_mpg",
		"llama2_70b_tuned.useful_hours", "llama2_70b.best_lever"} {
		w, err := text.Value(path)
		if err != nil {
			t.Fatal(err)
		}
		g, err := built.Value(path)
		if err != nil {
			t.Fatal(err)
		}
		want, got = append(want, path+" "+w.String()), append(got, path+" "+g.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-text +built):\n%s", diff)
	}
	if v, err := built.Value("both.useful_hours"); err != nil || v.String() != "57,521.664 h" {
		t.Errorf("both.useful_hours = %v, %v", v, err)
	}
}

// A diagnostic of a built program is at the Go call that wrote the line
// it is about, and renders with that line of Go.
func TestBuilderDiagnostics(t *testing.T) {
	_, file, line, _ := runtime.Caller(0)
	b := eval.NewBuilder("inventory.gpl")
	b.Pool("p").Set("devices", 8)
	b.Job("j", "p").
		Set("hours", eval.MustQuantity(10, "h")).
		Factor("scheduling", 1.5). // line+5: a factor above 1
		Factor("runtime", 0.9).
		Factor("program", 0.3)
	b.Job("k", "nope").Set("hours", eval.MustQuantity(1, "h")) // line+8: no such pool
	_, err := b.Load(eval.Options{})
	var le *eval.Error
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want an *eval.Error", err)
	}
	var got []string
	for _, d := range le.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%d %s", filepath.Base(d.Pos.Filename), d.Pos.Line-line, d.Summary))
	}
	base := filepath.Base(file)
	if len(got) != 2 || !strings.HasPrefix(got[0], fmt.Sprintf("%s:5 ", base)) || !strings.HasPrefix(got[1], fmt.Sprintf("%s:8 ", base)) {
		t.Errorf("diagnostics not at the builder's calls:\n%s", strings.Join(got, "\n"))
	}
	var out bytes.Buffer
	for _, d := range le.Diagnostics {
		d.Render(&out, le.Sources, lang.Style{})
	}
	if !strings.Contains(out.String(), `Factor("scheduling", 1.5)`) {
		t.Errorf("the rendered error does not quote the Go call:\n%s", out.String())
	}
}

// A name that is not one, or a value without a literal, is the builder's
// own error, at its call.
func TestBuilderOwnErrors(t *testing.T) {
	_, _, line, _ := runtime.Caller(0)
	b := eval.NewBuilder("inventory.gpl")
	b.Pool("my pool")                                                                                                                      // line+2
	b.Let("x", struct{}{})                                                                                                                 // line+3
	b.Let("y", eval.Ref("not a name"))                                                                                                     // line+4
	b.Ruleset("r", []eval.Rule{{Label: "a", When: eval.When("batch_size", "=>", eval.Count(4)), Class: "throughput"}}, "latency_critical") // line+5
	_, err := b.Load(eval.Options{})
	var le *eval.Error
	if !errors.As(err, &le) {
		t.Fatalf("got %v", err)
	}
	var got []string
	for _, d := range le.Diagnostics {
		got = append(got, fmt.Sprintf("+%d %s", d.Pos.Line-line, d.Summary))
	}
	want := []string{
		`+2 pool name "my pool" is not a name: letters, digits and _, not starting with a digit`,
		`+3 struct {} is not a value: give an eval.Value (Quantity, Count, BoolValue), an eval.Ref, or a number`,
		`+4 Ref("not a name") is not a name`,
		`+5 rule a: "=>" is not a comparison: use == != < <= > >=`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A ruleset built from Go classifies as the same ruleset written as text.
func TestBuilderRuleset(t *testing.T) {
	b := eval.NewBuilder("rules.gpl")
	small := eval.When("batch_size", "<=", eval.Count(4))
	b.Ruleset("serving", []eval.Rule{
		{Label: "urgent", When: eval.When("priority", "==", eval.Count(0)), Class: "latency_critical"},
		{Label: "small", When: small.Or(eval.When("sla_deadline", "<", eval.MustQuantity(250, "ms"))), Class: "latency_critical"},
	}, "throughput")
	s, err := b.Load(eval.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, b.Source())
	}
	if _, ok := s.Ruleset("serving"); !ok {
		t.Fatalf("no ruleset serving in:\n%s", b.Source())
	}
	want := "rules serving {\n  urgent: when priority == 0 -> latency_critical\n  small: when (batch_size <= 4) or (sla_deadline < 0.25 s) -> latency_critical\n  else throughput\n}\n"
	if diff := cmp.Diff(want, string(b.Source())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A program built from Go: an inventory read from elsewhere becomes
// pools and jobs without any text, checked as a file is.
func ExampleBuilder() {
	b := eval.NewBuilder("inventory.gpl")
	b.Pool("shared_h100").Set("devices", 128).Set("rate", eval.MustQuantity(2.50, "USD/h"))
	for _, j := range []struct {
		name    string
		devices float64
		mfu     float64
	}{{"pretrain", 96, 0.38}, {"finetune", 32, 0.30}} {
		b.Job(j.name, "shared_h100").
			Set("devices", j.devices).
			Set("hours", eval.MustQuantity(720, "h")).
			Factor("scheduling", 0.95).Factor("runtime", 0.9).Factor("program", j.mfu)
	}
	b.Group("fleet", "pretrain", "finetune")
	s, err := b.Load(eval.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := s.Value("fleet.mpg")
	fmt.Println(v)
	// Output:
	// 0.3078
}
