package lang

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang/units"
)

// limitView is a diagnostic as the limit tests compare it: summary, range
// and notes.
type limitView struct {
	Summary  string
	Pos, End string // line:column
	Notes    []string
}

func viewLimits(ds Diagnostics) []limitView {
	var out []limitView
	for _, d := range ds {
		out = append(out, limitView{
			Summary: d.Summary,
			Pos:     fmt.Sprintf("%d:%d", d.Pos.Line, d.Pos.Column),
			End:     fmt.Sprintf("%d:%d", d.End.Line, d.End.Column),
			Notes:   d.Notes,
		})
	}
	return out
}

const (
	depthSummary = "expression nested more than 200 levels deep (the limit on nesting)"
	depthHint    = "hint: name inner parts of it with let"
	termsSummary = "expression longer than 4000 operands and operators (the limit on one expression)"
	termsHint    = "hint: split it into parts named with let"
)

// plusChain is 1 + 1 + … with n operands: 2n-1 terms.
func plusChain(n int) string { return "1" + strings.Repeat(" + 1", n-1) }

// col is the 1-based column of the byte at offset off of a one-line
// ASCII expression.
func col(off int) string { return fmt.Sprintf("1:%d", off+1) }

// large is n, or n/div under the race detector, where parsing is many
// times slower: the inputs made from it stay far beyond the limits.
func large(n, div int) int {
	if raceEnabled {
		return n / div
	}
	return n
}

// grouped writes n with commas between groups of three digits: 1,000,000.
func grouped(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func TestExpressionLimits(t *testing.T) {
	type tc struct {
		name string
		expr string
		want []limitView // nil: parses
	}
	// The error is at the token at byte offset at, n bytes long.
	depthErr := func(at, n int) []limitView {
		return []limitView{{depthSummary, col(at), col(at + n), []string{depthHint}}}
	}
	termsErr := func(at int) []limitView {
		return []limitView{{termsSummary, col(at), col(at + 1), []string{termsHint}}}
	}
	parens := func(n int) string { return strings.Repeat("(", n) + "1" + strings.Repeat(")", n) }
	calls := func(n int) string { return strings.Repeat("max(", n) + "1" + strings.Repeat(")", n) }
	conds := func(n int) string { return strings.Repeat("a ? 1 : ", n) + "1" }
	// 4000 terms: -1 and 1999 times + 1; one more operand makes 4002,
	// and the 4001st term is the last "+".
	terms4000 := "-1" + strings.Repeat(" + 1", 1999)
	terms4001 := terms4000 + " + 1"
	manyParens := large(1_000_000, 20)
	longChain := large(250_000, 10) // 1 MB: 4 bytes an operand
	tests := []tc{
		{"200 parentheses", parens(200), nil},
		{"201 parentheses", parens(201), depthErr(200, 1)},
		{"200 minus signs", strings.Repeat("-", 200) + "1", nil},
		{"201 minus signs", strings.Repeat("-", 201) + "1", depthErr(200, 1)},
		{"200 nots", strings.Repeat("not ", 200) + "true", nil},
		{"201 nots", strings.Repeat("not ", 201) + "true", depthErr(800, 3)},
		{"200 nested calls", calls(200), nil},
		{"201 nested calls", calls(201), depthErr(200*4+3, 1)},
		{"200 conditionals", conds(200), nil},
		{"201 conditionals", conds(201), depthErr(200*8+2, 1)},
		{"4000 terms", terms4000, nil},
		{"4001 terms", terms4001, termsErr(len(terms4000) + 1)},
		{"2000 operands of +", plusChain(2000), nil}, // 3999 terms
		{grouped(manyParens) + " parentheses", parens(manyParens), depthErr(200, 1)},
		{"a chain of " + grouped(longChain) + " operands of +", plusChain(longChain), termsErr(4 * 2000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := ParseExpr("t.gpl", tt.expr)
			if diff := cmp.Diff(tt.want, viewLimits(ds)); diff != "" {
				t.Errorf("ParseExpr diagnostics (-want +got):\n%s", diff)
			}
			// The same expression in a file: the columns move by "let x = ".
			_, ds = Parse("t.gpl", []byte("let x = "+tt.expr+"\n"))
			want := shift(tt.want, len("let x = "))
			if diff := cmp.Diff(want, viewLimits(ds)); diff != "" {
				t.Errorf("Parse diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// shift moves one-line diagnostics right by n columns.
func shift(vs []limitView, n int) []limitView {
	var out []limitView
	for _, v := range vs {
		var l, c int
		fmt.Sscanf(v.Pos, "%d:%d", &l, &c)
		v.Pos = fmt.Sprintf("%d:%d", l, c+n)
		fmt.Sscanf(v.End, "%d:%d", &l, &c)
		v.End = fmt.Sprintf("%d:%d", l, c+n)
		out = append(out, v)
	}
	return out
}

func TestRaisedLimits(t *testing.T) {
	lim := Limits{MaxExprDepth: 300, MaxExprTerms: 10}
	if _, ds := ParseExprWith(lim, "t.gpl", strings.Repeat("(", 300)+"1"+strings.Repeat(")", 300)); ds != nil {
		t.Errorf("300 parentheses under a depth limit of 300: %v", ds)
	}
	_, ds := ParseExprWith(lim, "t.gpl", plusChain(6)) // 11 terms
	want := []limitView{{
		"expression longer than 10 operands and operators (the limit on one expression)",
		"1:21", "1:22", []string{termsHint},
	}}
	if diff := cmp.Diff(want, viewLimits(ds)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestFileSizeLimit(t *testing.T) {
	src := []byte("let a = 1\nlet b = 22\n") // 21 bytes
	tests := []struct {
		name string
		max  int
		want []limitView
	}{
		{"at the limit", 21, nil},
		{"one byte over", 20, []limitView{{
			"source file larger than 20 bytes (the limit on a source file's size)", "2:11", "2:12",
			[]string{"hint: split it into files that import one another"},
		}}},
		{"in KiB", 1024, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := ParseWith(Limits{MaxFileSize: tt.max}, "t.gpl", src)
			if diff := cmp.Diff(tt.want, viewLimits(ds)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
	if got, want := byteSize(DefaultMaxFileSize), "64 MiB"; got != want {
		t.Errorf("byteSize(DefaultMaxFileSize) = %q, want %q", got, want)
	}
	big := make([]byte, DefaultMaxFileSize+1)
	for i := range big {
		big[i] = '\n'
	}
	_, ds := Parse("big.gpl", big)
	want := []limitView{{
		"source file larger than 64 MiB (the limit on a source file's size)",
		fmt.Sprintf("%d:1", DefaultMaxFileSize+1), fmt.Sprintf("%d:2", DefaultMaxFileSize+1),
		[]string{"hint: split it into files that import one another"},
	}}
	if diff := cmp.Diff(want, viewLimits(ds)); diff != "" {
		t.Errorf("a file of 64 MiB + 1 (-want +got):\n%s", diff)
	}
}

// TestLargeFiles feeds the shapes that once overflowed the stack: each
// parses, or fails with a positioned error, within seconds.
func TestLargeFiles(t *testing.T) {
	nLets, nFields, nBraces := large(200_000, 10), large(200_000, 10), large(1_000_000, 20)
	var lets strings.Builder
	lets.WriteString("let a0 = 1\n")
	for i := 1; i < nLets; i++ {
		fmt.Fprintf(&lets, "let a%d = a%d + 1\n", i, i-1)
	}
	var fields strings.Builder
	fields.WriteString("pool p {\n")
	for i := range nFields {
		fmt.Fprintf(&fields, "  f%d = %d\n", i, i)
	}
	fields.WriteString("}\n")
	tests := []struct {
		name  string
		src   string
		stmts int
		want  []limitView
	}{
		{grouped(nLets) + " lets", lets.String(), nLets, nil},
		{"a block of " + grouped(nFields) + " fields", fields.String(), 1, nil},
		{grouped(nBraces) + " braces", "pool p " + strings.Repeat("{", nBraces), 0, []limitView{{
			`syntax error: unexpected "{", expected "}"`, "1:9", "1:10", nil,
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ds := Parse("t.gpl", []byte(tt.src))
			if diff := cmp.Diff(tt.want, viewLimits(ds)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if len(f.Stmts) != tt.stmts {
				t.Errorf("%d statements, want %d", len(f.Stmts), tt.stmts)
			}
		})
	}
}

func TestNumberErrors(t *testing.T) {
	underscore := func(text string, col int) []limitView {
		return []limitView{{
			"syntax error: malformed number " + fmt.Sprintf("%q", text) + ": an underscore must sit between two digits",
			fmt.Sprintf("1:%d", col), fmt.Sprintf("1:%d", col+1),
			[]string{"hint: group digits with single underscores, as in 1_000_000, or remove it"},
		}}
	}
	tooLarge := func(text, base, end string) []limitView {
		return []limitView{{
			fmt.Sprintf("number %q is too large: beyond ±1.8e308, the largest number gpl holds%s", text, base),
			"1:1", end, []string{"hint: check its exponent: no plan needs a quantity this large"},
		}}
	}
	tooSmall := func(text, base, end string) []limitView {
		return []limitView{{
			fmt.Sprintf("number %q is too small: it would round to 0%s (the smallest number gpl holds is about 5e-324)", text, base),
			"1:1", end, []string{"hint: write 0 if zero is meant; no plan needs a quantity this small"},
		}}
	}
	tests := []struct {
		name string
		src  string
		want []limitView
	}{
		{"trailing underscore", "1_", underscore("1_", 2)},
		{"double underscore", "1__0", underscore("1__0", 2)},
		{"underscore before the point", "1_.5", underscore("1_.5", 2)},
		{"underscore after the point", "1._5", nil}, // 1. is not a numeral: the name ._5 follows
		{"underscore before a unit", "2_ GB", underscore("2_ GB", 2)},
		{"underscore in money", "$1_", underscore("$1_", 3)},
		{"grouped digits", "1_000_000", nil},
		{"a leading underscore is a name", "_1", nil},
		{"overflow", "1e400", tooLarge("1e400", "", "1:6")},
		{"overflow after the unit", "1e308 TB", tooLarge("1e308 TB", " once converted to B", "1:9")},
		{"overflow of a long numeral", "$" + strings.Repeat("9", 400), tooLarge("$"+strings.Repeat("9", 400), "", "1:402")},
		{"largest", "1.7e308", nil},
		{"underflow", "1e-400", tooSmall("1e-400", "", "1:7")},
		{"underflow after the unit", "1e-322 ms", tooSmall("1e-322 ms", " once converted to s", "1:10")},
		{"underflow of a price", "1e-321 USD/h", tooSmall("1e-321 USD/h", " once converted to USD per second", "1:13")},
		{"smallest", "5e-324", nil},
		{"zero with an exponent", "0e-400", nil},
		{"zero", "0.000", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := ParseExpr("t.gpl", tt.src)
			if tt.name == "underscore after the point" {
				// "1._5" is the number 1 followed by ._5: a syntax error,
				// but not one about underscores.
				if len(ds) != 1 || strings.Contains(ds[0].Summary, "underscore") {
					t.Errorf("diagnostics %v", viewLimits(ds))
				}
				return
			}
			if diff := cmp.Diff(tt.want, viewLimits(ds)); diff != "" {
				t.Errorf("ParseExpr(%q) diagnostics (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestDimensionsDoNotWrap(t *testing.T) {
	d := units.Count
	for range 256 {
		d = d.Mul(units.Duration)
	}
	if want := (units.Dim{256, 0, 0, 0}); d != want || !d.Valid() {
		t.Errorf("256 factors of a duration: %v (valid %v), want %v", d, d.Valid(), want)
	}
	for range 2000 {
		d = d.Mul(d)
	}
	if want := (units.Dim{units.MaxExponent + 1, 0, 0, 0}); d != want || d.Valid() {
		t.Errorf("squared 2000 times: %v (valid %v), want %v, invalid", d, d.Valid(), want)
	}
	q := units.Count
	for range 5000 {
		q = q.Div(units.Data)
	}
	if want := (units.Dim{0, -units.MaxExponent - 1, 0, 0}); q != want || q.Valid() {
		t.Errorf("5000 divisions by data: %v (valid %v), want %v, invalid", q, q.Valid(), want)
	}
	if got := (units.Dim{units.MaxExponent, 0, 0, 0}); !got.Valid() {
		t.Errorf("%v is not valid", got)
	}
}

func TestLineEndings(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"LF", "# one\nlet a = 1\n\nlet b = a @ 2\n"},
		{"CRLF", "# one\r\nlet a = 1\r\n\r\nlet b = a @ 2\r\n"},
		{"CR", "# one\rlet a = 1\r\rlet b = a @ 2\r"},
		{"mixed", "# one\rlet a = 1\r\n\nlet b = a @ 2"},
	}
	const want = `error: unexpected character "@"
  --> t.gpl:4:11
   |
 4 | let b = a @ 2
   |           ^
`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ds := Parse("t.gpl", []byte(tt.src))
			var b strings.Builder
			ds.RenderAll(&b, Sources{"t.gpl": f.Src}, Style{})
			if diff := cmp.Diff(want, b.String()); diff != "" {
				t.Errorf("rendered (-want +got):\n%s", diff)
			}
			if len(f.Stmts) != 1 {
				t.Fatalf("%d statements, want the first let", len(f.Stmts))
			}
			if p := f.Stmts[0].(*Let).Start(); p.Line != 2 || p.Column != 1 {
				t.Errorf("let a at %d:%d, want 2:1", p.Line, p.Column)
			}
		})
	}
	// The formatting of these line endings is tested in lang/format.
}

func TestByteOrderMark(t *testing.T) {
	src := []byte(bom + "let a = 1\nlet b = a @ 2\nlet c = @\n")
	f, ds := Parse("t.gpl", src)
	var b strings.Builder
	ds.RenderAll(&b, Sources{"t.gpl": f.Src}, Style{})
	want := `error: unexpected character "@"
  --> t.gpl:2:11
   |
 2 | let b = a @ 2
   |           ^

error: unexpected character "@"
  --> t.gpl:3:9
   |
 3 | let c = @
   |         ^
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("rendered (-want +got):\n%s", diff)
	}
	if p := f.Stmts[0].(*Let).Start(); p.Line != 1 || p.Column != 1 || p.Offset != 3 {
		t.Errorf("let a at %d:%d offset %d, want 1:1 offset 3", p.Line, p.Column, p.Offset)
	}
	// The formatting of a file with the mark is tested in lang/format.
	// On line 1 the mark is no part of the line shown.
	_, ds = Parse("t.gpl", []byte(bom+"let a = @"))
	b.Reset()
	ds.RenderAll(&b, Sources{"t.gpl": []byte(bom + "let a = @")}, Style{})
	want = "error: unexpected character \"@\"\n  --> t.gpl:1:9\n   |\n 1 | let a = @\n   |         ^\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("rendered (-want +got):\n%s", diff)
	}
}

// fileHolder is what participle reads in one pass: the whole file.
type fileHolder struct {
	Stmts []Stmt `parser:"@@*"`
}

// wholeFileParser is participle's parser of a whole file, built once.
var wholeFileParser = sync.OnceValue(func() *participle.Parser[fileHolder] {
	return participle.MustBuild[fileHolder](grammarOptions(DefaultLimits)...)
})

// parseWhole is participle reading src in one pass, as Parse did before it
// read one statement at a time; the tests hold Parse to it.
func parseWhole(name string, src []byte) (_ []Stmt, err error) {
	defer recoverLimit(&err)
	toks := scanForParser(name, string(src))
	pl, err := lexer.Upgrade(&sliceLexer{toks: toks[:len(toks)-1], eof: toks[len(toks)-1]}, elided...)
	if err != nil {
		return nil, err
	}
	h, err := wholeFileParser().ParseFromLexer(pl)
	if err != nil {
		return nil, err
	}
	return h.Stmts, nil
}

func TestParseMatchesWholeFileParse(t *testing.T) {
	files := repositoryGPL(t)
	extra := map[string]string{
		"keyword as a name":   "let let = 1\njob j on let {}\npool import { let = 2 }\n",
		"adjacent statements": "pool p {}let a = 1;let b = (2)expect a == 1 let c = \"s\"import \"x\"",
		"only comments":       "# a\n\n# b",
		"empty":               "",
		"trailing blanks":     "let a = 1   \n\n  # c\n",
		// Each node's end is just past its last token, whatever follows:
		// a comment, blank lines, a CRLF, the next rule, the brace.
		"rules among comments": "rules r {\n  a: when priority == 0 -> x # c\n\n  # lead\n  when batch_size <= 4 -> y\r\n  else z}\n",
		"non-ASCII ends":       "let ä = \"é\" # ü\nexpect ä == \"é\"\t\npool p { devices = 8 } # end",
	}
	for k, v := range extra {
		files[k] = v
	}
	for path, src := range files {
		whole, err := parseWhole(path, []byte(src))
		f, ds := Parse(path, []byte(src))
		if err != nil {
			if !ds.HasErrors() {
				t.Errorf("%s: the whole-file parse fails (%v), Parse does not", path, err)
			}
			continue
		}
		if ds != nil {
			t.Errorf("%s: Parse: %v; the whole-file parse succeeds", path, ds)
			continue
		}
		if diff := cmp.Diff(whole, f.Stmts); diff != "" {
			t.Errorf("%s: Parse differs from the whole-file parse (-whole +Parse):\n%s", path, diff)
		}
	}
}

// A query's argument list is a level of nesting like a call's, so queries
// nested in queries meet the depth limit too.
func TestQueriesNestedMeetTheDepthLimit(t *testing.T) {
	src := strings.Repeat("s.max(", 300) + "1" + strings.Repeat(")", 300)
	_, ds := ParseExpr("t.gpl", src)
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Column, d.Summary))
	}
	want := []string{"1:1206 expression nested more than 200 levels deep (the limit on nesting)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDeclarationsCountedBeforeParsing holds the scan that counts a file's
// declarations to the statements Parse reads: under a limit of 10, ten
// declarations (one a sweep named sweep, one after statements that declare
// nothing, two on one line) parse, and an eleventh is refused at its name,
// with nothing parsed.
func TestDeclarationsCountedBeforeParsing(t *testing.T) {
	lim := Limits{MaxDeclarations: 10}
	ten := "let a = 1\nlet b = a + 1\npool p { devices = 8  hours = 1h }\n" +
		"job j on p { factors { S = 1  R = 1  P = 1 } }\nexpect j.mpg > 0\nimport \"std/kapsl\"\n" +
		"sweep sweep over j { vary devices in [1, 2] }\nlet c = 1 let d = 2\n" +
		"rules r { when batch_size <= 4 -> small  else large }\nrequest q { batch_size = 1 }\n" +
		"param z = 1\n# a comment that says let x = 1\n"
	f, ds := ParseWith(lim, "ten.gpl", []byte(ten))
	if ds != nil {
		t.Fatalf("ten declarations: %v", ds)
	}
	n := 0
	for _, st := range f.Stmts {
		if DeclaredName(st) != nil {
			n++
		}
	}
	if n != 10 {
		t.Fatalf("Parse read %d declarations, the scan counted 10", n)
	}
	f, ds = ParseWith(lim, "eleven.gpl", []byte(ten+"group g { j }\n"))
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%d:%d-%d %s %v", d.Pos.Line, d.Pos.Column, d.End.Column, d.Summary, d.Notes))
	}
	want := []string{"13:7-8 more than 10 declarations (the limit on one program) [hint: split the plan into files loaded on their own: no program holds more]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("eleven declarations (-want +got):\n%s", diff)
	}
	if len(f.Stmts) != 0 {
		t.Errorf("%d statements parsed from a file over the limit, want none", len(f.Stmts))
	}
}

// TestLimitCostsItsItem checks that an expression over its limit is one
// error, wherever the grammar holds it (a rule's condition used to come
// back as "expected else", after 65 readings of the statement, and the
// errors its repairs made), that it costs only the block item that holds
// it, and that the statements after it are still read.
func TestLimitCostsItsItem(t *testing.T) {
	rule := "rules r {\n  x: when " + strings.Repeat("priority == 1 or ", 1500) + "priority == 2 -> a\n  else b\n}\nlet after = 1\n"
	f, ds := Parse("rule.gpl", []byte(rule))
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Column, d.Summary))
	}
	want := []string{"2:17011 expression longer than 4000 operands and operators (the limit on one expression)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var kept []string
	for _, st := range f.Stmts {
		kept = append(kept, st.Keyword()+" "+DeclaredName(st).Name)
	}
	if diff := cmp.Diff([]string{"rules r", "let after"}, kept); diff != "" {
		t.Errorf("statements kept (-want +got):\n%s", diff)
	}
	if rs := f.Stmts[0].(*Rules); len(rs.Rules) != 0 || rs.Else == nil || rs.Else.Name != "b" {
		t.Errorf("the ruleset kept %d rules and else %v; want none, and else b", len(rs.Rules), rs.Else)
	}
	// One operand under the limit parses.
	ok := "let x = 1" + strings.Repeat(" + 1", 1999) + "\n" // 3,999 terms
	if _, ds := Parse("ok.gpl", []byte(ok)); ds != nil {
		t.Errorf("3,999 terms: %v", ds)
	}
}
