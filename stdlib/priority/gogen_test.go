package priority_test

import (
	"bytes"
	"flag"
	"go/parser"
	"go/token"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/stdlib/priority"
	"github.com/gpl-lang/gpl/stdlib/priority/internal/kapslgo"
)

var updateGo = flag.Bool("update-go", false, "rewrite internal/kapslgo from the kapsl rules")

const kapslGoFile = "internal/kapslgo/kapsl.go"

func kapsl(t testing.TB) *priority.Ruleset {
	t.Helper()
	rs, err := priority.Compile(priority.KapslRules(), priority.KapslElse)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestKapslGoUpToDate holds internal/kapslgo to what WriteGo writes for
// the kapsl rules today (go test -run KapslGoUpToDate -update-go
// rewrites it).
func TestKapslGoUpToDate(t *testing.T) {
	var b bytes.Buffer
	if err := priority.WriteGo(&b, kapsl(t), priority.GoOptions{Package: "kapslgo", Source: "std/kapsl"}); err != nil {
		t.Fatal(err)
	}
	if *updateGo {
		if err := os.WriteFile(kapslGoFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(kapslGoFile)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(b.String(), string(got)); d != "" {
		t.Errorf("%s is stale; run go test -run KapslGoUpToDate -update-go ./stdlib/priority (-want +got):\n%s", kapslGoFile, d)
	}
}

// TestKapslGoAgrees compares the generated Classify with the Ruleset's
// on 1,000,000 generated requests.
func TestKapslGoAgrees(t *testing.T) {
	rs := kapsl(t)
	n := 1_000_000
	if testing.Short() {
		n = 10_000
	}
	for i, r := range priority.GenRequests(n, 7) {
		wc, wr := rs.Classify(&r)
		gc, gr := kapslgo.Classify(&r)
		if wc != gc || wr != gr {
			t.Fatalf("request %d %+v: generated %q rule %d, Ruleset %q rule %d", i, r, gc, gr, wc, wr)
		}
	}
	if d := cmp.Diff(rs.Otherwise(), kapslgo.Else); d != "" {
		t.Errorf("Else (-want +got):\n%s", d)
	}
	for i := range kapslgo.Rules {
		if kapslgo.Rules[i] != rs.RuleName(i) {
			t.Errorf("Rules[%d] = %q, want %q", i, kapslgo.Rules[i], rs.RuleName(i))
		}
	}
}

// TestWriteGoConditions generates every kind of condition and checks the
// output parses as Go; the differential tests in cmd/gpl compile and run
// generated code for every ruleset of the repository.
func TestWriteGoConditions(t *testing.T) {
	f := func(x priority.Field) priority.NumExpr { return priority.FieldRef{Field: x} }
	c := func(v float64) priority.NumExpr { return priority.Const{Value: v} }
	rules := []priority.Rule{
		{Label: "neg", When: priority.Compare{Op: priority.NE, L: f(priority.Priority), R: c(-3)}, Class: "a"},
		{When: priority.Not{X: priority.Has{Field: priority.Flops}}, Class: "b"},
		{When: priority.Compare{Op: priority.LT, L: priority.Arith{Op: priority.Div, L: f(priority.Flops), R: f(priority.InputSize)}, R: c(2.5)}, Class: "c"},
		{When: priority.Or{L: priority.Compare{Op: priority.GT, L: priority.Neg{X: f(priority.BatchSize)}, R: f(priority.SLADeadline)},
			R: priority.Bool{Value: false}}, Class: "d"},
	}
	rs, err := priority.Compile(rules, "else")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := priority.WriteGo(&b, rs, priority.GoOptions{Package: "x", Source: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "x.go", b.Bytes(), 0); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	for _, want := range []string{
		"case (p&1 != 0 && v[0] != (-3)): // neg",
		"case !(p&16 != 0): // rule 2",
		"case ((p&16 != 0 && p&8 != 0 && v[3] != 0) && (v[4]/v[3]) < 2.5): // rule 3",
		"case (p&4 != 0 && p&2 != 0 && (-v[2]) > v[1]): // rule 4", // Compile folds "or false"
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("generated code lacks %q:\n%s", want, b.String())
		}
	}
	if err := priority.WriteGo(io.Discard, rs, priority.GoOptions{Package: "func"}); err == nil || !strings.Contains(err.Error(), "not a Go identifier") {
		t.Errorf("package func: err = %v", err)
	}
}

// BenchmarkClassifyGenerated runs the kapsl rules as the generated Go
// (gpl gen go) beside the Ruleset and the hand-written function, on the
// request sets of BenchmarkClassify (priority.ClassifyBenches).
func BenchmarkClassifyGenerated(b *testing.B) {
	rs := kapsl(b)
	for _, set := range priority.ClassifyBenches() {
		reqs, order := set.Reqs, set.Order
		mask := len(order) - 1
		b.Run(set.Name+"/ruleset", func(b *testing.B) {
			var s int
			for i := 0; b.Loop(); i++ {
				_, rule := rs.Classify(&reqs[order[i&mask]])
				s += rule
			}
			sink = s
		})
		b.Run(set.Name+"/generated", func(b *testing.B) {
			var s int
			for i := 0; b.Loop(); i++ {
				_, rule := kapslgo.Classify(&reqs[order[i&mask]])
				s += rule
			}
			sink = s
		})
		b.Run(set.Name+"/handwritten", func(b *testing.B) {
			var s int
			for i := 0; b.Loop(); i++ {
				s += priority.HandWrittenKapslRule(&reqs[order[i&mask]])
			}
			sink = s
		})
	}
}

var sink int
