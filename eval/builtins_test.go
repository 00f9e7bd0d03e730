package eval

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/lang/units"
)

// numbers are k parameters of exact dimensions, named a, b, c, ….
func numbers(k int) []funcs.Param {
	ps := make([]funcs.Param, k)
	for i := range ps {
		ps[i] = funcs.Param{Dim: units.Duration, Word: string(rune('a' + i)), Noun: "a " + string(rune('a'+i))}
	}
	return ps
}

// TestArityWords spells the arity of built-ins of one to five parameters,
// with optional and repeating ones.
func TestArityWords(t *testing.T) {
	tests := []struct {
		b     funcs.Func
		words string
		usage string
	}{
		{funcs.Func{Name: "f", Params: numbers(1)}, "one argument", "f(a)"},
		{funcs.Func{Name: "f", Params: numbers(2)}, "two arguments", "f(a, b)"},
		{funcs.Func{Name: "f", Params: numbers(3)}, "three arguments", "f(a, b, c)"},
		{funcs.Func{Name: "f", Params: numbers(4)}, "four arguments", "f(a, b, c, d)"},
		{funcs.Func{Name: "f", Params: numbers(5)}, "five arguments", "f(a, b, c, d, e)"},
		{funcs.Func{Name: "f", Params: numbers(4), Optional: 1}, "three or four arguments", "f(a, b, c) or f(a, b, c, d)"},
		{funcs.Func{Name: "f", Params: numbers(5), Optional: 2}, "three to five arguments", "f(a, b, c) or f(a, b, c, d) or f(a, b, c, d, e)"},
		{funcs.Func{Name: "f", Params: numbers(1), Repeats: true}, "at least one argument", "f(a, …)"},
		{funcs.Func{Name: "f", Params: numbers(2), Repeats: true}, "pairs of a a and a b", "f(a₁, b₁, a₂, b₂, …)"},
		{funcs.Func{Name: "f", Params: numbers(3), Repeats: true}, "triples of a a, a b and a c", "f(a₁, b₁, c₁, a₂, b₂, c₂, …)"},
	}
	for _, tt := range tests {
		got := [2]string{tt.b.ArityWords(), tt.b.Usage()}
		if diff := cmp.Diff([2]string{tt.words, tt.usage}, got); diff != "" {
			t.Errorf("%d parameters (optional %d, repeats %v): -want +got\n%s", len(tt.b.Params), tt.b.Optional, tt.b.Repeats, diff)
		}
	}
}

// TestFits counts the arguments a built-in accepts, 0 to 6.
func TestFits(t *testing.T) {
	tests := []struct {
		b    funcs.Func
		want []int
	}{
		{funcs.Func{Params: numbers(3)}, []int{3}},
		{funcs.Func{Params: numbers(4), Optional: 1}, []int{3, 4}},
		{funcs.Func{Params: numbers(1), Repeats: true}, []int{1, 2, 3, 4, 5, 6}},
		{funcs.Func{Params: numbers(2), Repeats: true}, []int{2, 4, 6}},
	}
	for _, tt := range tests {
		var got []int
		for k := 0; k <= 6; k++ {
			if tt.b.Fits(k) {
				got = append(got, k)
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%d parameters: -want +got\n%s", len(tt.b.Params), diff)
		}
	}
}

// TestBuiltinArityMessages are today's messages for a call with the wrong
// number of arguments, one per kind of arity.
func TestBuiltinArityMessages(t *testing.T) {
	tests := map[string]string{
		"sqrt(1, 2)":                "sqrt takes one argument; write sqrt(x)",
		"young_interval(1h)":        "young_interval takes two arguments; write young_interval(checkpoint_cost, mtbf)",
		"runtime_goodput(1h, 1min)": "runtime_goodput takes three or four arguments; write runtime_goodput(mtbf, checkpoint_cost, restart) or runtime_goodput(mtbf, checkpoint_cost, restart, interval)",
		"fleet_mtbf(1, 1h, 2)":      "fleet_mtbf takes pairs of a count and an MTBF; write fleet_mtbf(count₁, mtbf₁, count₂, mtbf₂, …)",
		"mfu(1)":                    "mfu takes four arguments; write mfu(tokens_per_s, params, devices, peak)",
		"abs()":                     "abs takes one argument",
		"min()":                     "min needs at least one argument",
		"has(x)":                    "has(FIELD) tests a request field; it belongs in a rule's when condition",
		"owner_saving(1)":           `owner_saving takes two arguments: a group and a team, e.g. owner_saving(training, "capacity")`,
	}
	s, err := LoadSource("f.gpl", []byte("let one = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for src := range tests {
		_, err := s.Eval("x", src)
		if err == nil {
			t.Errorf("%s: no error", src)
			continue
		}
		got[src] = strings.TrimPrefix(err.Error(), "x:1:1: ")
	}
	if diff := cmp.Diff(tests, got); diff != "" {
		t.Errorf("-want +got\n%s", diff)
	}
}

// TestBuiltinTable checks each row: a name once, parameters, a doc line,
// and what computes a numeric one; Builtins lists them all, sorted.
func TestBuiltinTable(t *testing.T) {
	var problems []string
	seen := map[string]bool{}
	for _, b := range funcs.Table() {
		if seen[b.Name] {
			problems = append(problems, b.Name+": listed twice")
		}
		seen[b.Name] = true
		if len(b.Params) == 0 || b.Doc == "" {
			problems = append(problems, b.Name+": no parameters or no doc")
		}
		if b.Form == funcs.FormNumeric && (b.Run == nil) == !b.ExprBuiltin {
			problems = append(problems, b.Name+": needs exactly one of run and exprBuiltin")
		}
		if b.Form != funcs.FormNumeric && b.Run != nil {
			problems = append(problems, b.Name+": run is for numeric built-ins")
		}
		for _, p := range b.Params {
			if p.Word == "" || p.Rule == funcs.DimExact && (p.Name == "" || p.Example == "") {
				problems = append(problems, b.Name+": a parameter without its words")
			}
		}
	}
	if diff := cmp.Diff([]string(nil), problems); diff != "" {
		t.Errorf("rows: -want +got\n%s", diff)
	}
	names := BuiltinNames()
	if !sort.StringsAreSorted(names) || len(names) != len(funcs.Table()) {
		t.Errorf("BuiltinNames is not the table, sorted: %q", names)
	}
}

// docSections are the text of docs/language.md's sections of the given
// headings (the line after "## "), up to the next heading.
func docSections(t *testing.T, headings ...string) string {
	t.Helper()
	b, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "#") {
			title := strings.TrimLeft(line, "# ")
			in = false
			for _, h := range headings {
				in = in || title == h
			}
		}
		if in {
			out.WriteString(line + "\n")
		}
	}
	if out.Len() == 0 {
		t.Fatalf("docs/language.md has none of the sections %q", headings)
	}
	return out.String()
}

// TestDocsListBuiltins: the reference documents every built-in, as a
// call written in code: `sqrt(`.
func TestDocsListBuiltins(t *testing.T) {
	text := docSections(t, "Expressions", "Numbers and functions", "Reliability functions", "Uncertainty", "`extends JOB on POOL` and `group`")
	var missing []string
	for _, b := range Builtins() {
		if !strings.Contains(text, "`"+b.Name+"(") {
			missing = append(missing, b.Name)
		}
	}
	if diff := cmp.Diff([]string(nil), missing); diff != "" {
		t.Errorf("built-ins missing from docs/language.md: -want +got\n%s", diff)
	}
}

// documented reports whether text names a result in code, or its
// per-factor row as PREFIX.F.
func documented(text, name string) bool {
	if strings.Contains(text, "`"+name+"`") {
		return true
	}
	prefix, factor, ok := strings.Cut(name, ".")
	return ok && check.Contains(results.FactorNames[:], factor) && strings.Contains(text, "`"+prefix+".F`")
}

// TestDocsListResults: the reference documents every job result, and in
// the group's section every figure of a group.
func TestDocsListResults(t *testing.T) {
	text := docSections(t, "Job results", "The waterfall, owners and money per owner")
	var missing []string
	for _, name := range ResultNames() {
		if !documented(text, name) {
			missing = append(missing, name)
		}
	}
	group := docSections(t, "`extends JOB on POOL` and `group`")
	for _, name := range check.GroupFigureNames() {
		if !documented(group, name) {
			missing = append(missing, "group "+name)
		}
	}
	if diff := cmp.Diff([]string(nil), missing); diff != "" {
		t.Errorf("results missing from docs/language.md: -want +got\n%s", diff)
	}
}
