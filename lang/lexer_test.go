package lang

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang/units"
)

// lexedToken is a token as the tests compare it: its type's name, its
// text and where it starts.
type lexedToken struct {
	Type   string
	Value  string
	Line   int
	Column int
}

var tokenTypeNames = func() map[int]string {
	m := map[int]string{}
	for name, t := range regexpLexer.Symbols() {
		m[int(t)] = name
	}
	return m
}()

// lexAll returns every token of src up to EOF, whitespace left out, as
// the scanner behind Parse reads them; it checks that the regular-expression
// definition Lexer reads the same.
func lexAll(t *testing.T, src string) []lexedToken {
	t.Helper()
	var scanned []lexedToken
	toks, diag := tokenize("t.gpl", []byte(src))
	if diag != nil {
		t.Fatalf("tokenize(%q): %v", src, diag)
	}
	for _, tok := range toks {
		if tok.EOF() {
			break
		}
		if tok.Type != tokSpace {
			scanned = append(scanned, lexedToken{tokenTypeNames[int(tok.Type)], tok.Value, tok.Pos.Line, tok.Pos.Column})
		}
	}

	oracle, err := oracleTokens("t.gpl", src)
	if err != nil {
		t.Fatalf("Lexer on %q: %v", src, err)
	}
	var defined []lexedToken
	for _, tok := range oracle {
		if tok.EOF() {
			break
		}
		if tok.Type != tokSpace {
			defined = append(defined, lexedToken{tokenTypeNames[int(tok.Type)], tok.Value, tok.Pos.Line, tok.Pos.Column})
		}
	}
	if diff := cmp.Diff(defined, scanned); diff != "" {
		t.Errorf("the scanner and Lexer differ on %q (-Lexer +scanner):\n%s", src, diff)
	}
	return scanned
}

func TestLexer(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []lexedToken
	}{
		{"duration without space", "250ms", []lexedToken{{"Number", "250ms", 1, 1}}},
		{"duration with space", "250 ms", []lexedToken{{"Number", "250 ms", 1, 1}}},
		{"price with space", "2.5 USD/h", []lexedToken{{"Number", "2.5 USD/h", 1, 1}}},
		{"price without space", "2.5USD/h", []lexedToken{{"Number", "2.5USD/h", 1, 1}}},
		{"dollar prefix", "$2.50", []lexedToken{{"Money", "$2.50", 1, 1}}},
		{"dollar price", "$8.86/h", []lexedToken{{"Money", "$8.86/h", 1, 1}}},
		{"dollar suffix price", "3 $/h", []lexedToken{{"Number", "3 $/h", 1, 1}}},
		{"compute with space", "10 GFLOP", []lexedToken{{"Number", "10 GFLOP", 1, 1}}},
		{"compute without space", "10GFLOP", []lexedToken{{"Number", "10GFLOP", 1, 1}}},
		{"underscores", "1_000_000", []lexedToken{{"Number", "1_000_000", 1, 1}}},
		{"exponent", "1e9", []lexedToken{{"Number", "1e9", 1, 1}}},
		{"negative exponent with unit", "1.5e-3 KiB", []lexedToken{{"Number", "1.5e-3 KiB", 1, 1}}},
		{"exponent then unit without space", "1e9FLOP", []lexedToken{{"Number", "1e9FLOP", 1, 1}}},
		{"fraction", "0.282", []lexedToken{{"Number", "0.282", 1, 1}}},
		{"leading dot", ".5", []lexedToken{{"Number", ".5", 1, 1}}},
		{"every duration unit", "1ms 2 s 3min 4 h 5d", []lexedToken{
			{"Number", "1ms", 1, 1}, {"Number", "2 s", 1, 5}, {"Number", "3min", 1, 9},
			{"Number", "4 h", 1, 14}, {"Number", "5d", 1, 18},
		}},
		{"every data unit", "1B 1KB 1MB 1GB 1TB 1KiB 1MiB 1GiB 1TiB", []lexedToken{
			{"Number", "1B", 1, 1}, {"Number", "1KB", 1, 4}, {"Number", "1MB", 1, 8},
			{"Number", "1GB", 1, 12}, {"Number", "1TB", 1, 16}, {"Number", "1KiB", 1, 20},
			{"Number", "1MiB", 1, 25}, {"Number", "1GiB", 1, 30}, {"Number", "1TiB", 1, 35},
		}},
		{"every compute unit", "1FLOP 1KFLOP 1MFLOP 1GFLOP 1TFLOP 1PFLOP", []lexedToken{
			{"Number", "1FLOP", 1, 1}, {"Number", "1KFLOP", 1, 7}, {"Number", "1MFLOP", 1, 14},
			{"Number", "1GFLOP", 1, 21}, {"Number", "1TFLOP", 1, 28}, {"Number", "1PFLOP", 1, 35},
		}},
		{"money units", "5 USD 5USD", []lexedToken{{"Number", "5 USD", 1, 1}, {"Number", "5USD", 1, 7}}},
		{"a word that starts like a unit is a name", "720 hours", []lexedToken{
			{"Number", "720", 1, 1}, {"Ident", "hours", 1, 5},
		}},
		{"a unit glued to a name is not a unit", "2hx", []lexedToken{
			{"Number", "2", 1, 1}, {"Ident", "hx", 1, 2},
		}},
		{"a unit does not cross a newline", "128\nh", []lexedToken{
			{"Number", "128", 1, 1}, {"Newline", "\n", 1, 4}, {"Ident", "h", 2, 1},
		}},
		{"approx and its ASCII spelling", "a ≈ b ~= c", []lexedToken{
			{"Ident", "a", 1, 1}, {"Op", "≈", 1, 3}, {"Ident", "b", 1, 5},
			{"Op", "~=", 1, 7}, {"Ident", "c", 1, 10},
		}},
		{"plus-minus and its ASCII spelling", "1 ± 2 +- 3", []lexedToken{
			{"Number", "1", 1, 1}, {"Op", "±", 1, 3}, {"Number", "2", 1, 5},
			{"Op", "+-", 1, 7}, {"Number", "3", 1, 10},
		}},
		{"arrow", "x -> latency_critical", []lexedToken{
			{"Ident", "x", 1, 1}, {"Op", "->", 1, 3}, {"Ident", "latency_critical", 1, 6},
		}},
		{"columns count characters after a multi-byte one", "≈≈ x", []lexedToken{
			{"Op", "≈", 1, 1}, {"Op", "≈", 1, 2}, {"Ident", "x", 1, 4},
		}},
		{"operators", "== != <= >= && || < > ! ? : ( ) { } , . % + - * / =", []lexedToken{
			{"Op", "==", 1, 1}, {"Op", "!=", 1, 4}, {"Op", "<=", 1, 7}, {"Op", ">=", 1, 10},
			{"Op", "&&", 1, 13}, {"Op", "||", 1, 16}, {"Op", "<", 1, 19}, {"Op", ">", 1, 21},
			{"Op", "!", 1, 23}, {"Op", "?", 1, 25}, {"Op", ":", 1, 27}, {"Op", "(", 1, 29},
			{"Op", ")", 1, 31}, {"Op", "{", 1, 33}, {"Op", "}", 1, 35}, {"Op", ",", 1, 37},
			{"Op", ".", 1, 39}, {"Op", "%", 1, 41}, {"Op", "+", 1, 43}, {"Op", "-", 1, 45},
			{"Op", "*", 1, 47}, {"Op", "/", 1, 49}, {"Op", "=", 1, 51},
		}},
		{"string with escapes", `"a\"b\n"`, []lexedToken{{"String", `"a\"b\n"`, 1, 1}}},
		{"comment to end of line", "x # ≈ 1\ny", []lexedToken{
			{"Ident", "x", 1, 1}, {"Comment", "# ≈ 1", 1, 3}, {"Newline", "\n", 1, 8}, {"Ident", "y", 2, 1},
		}},
		{"semicolon separates statements", "a;b", []lexedToken{
			{"Ident", "a", 1, 1}, {"Newline", ";", 1, 2}, {"Ident", "b", 1, 3},
		}},
		{"dotted name", "j.loss.program", []lexedToken{
			{"Ident", "j", 1, 1}, {"Op", ".", 1, 2}, {"Ident", "loss", 1, 3}, {"Op", ".", 1, 7}, {"Ident", "program", 1, 8},
		}},
		{"unknown character", "a @ b", []lexedToken{
			{"Ident", "a", 1, 1}, {"Invalid", "@", 1, 3}, {"Ident", "b", 1, 5},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, lexAll(t, tt.src)); diff != "" {
				t.Errorf("tokens of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestKeywords(t *testing.T) {
	for _, k := range []string{"pool", "job", "on", "extends", "factors", "ceilings", "let", "rules", "when",
		"else", "request", "expect", "within", "import", "true", "false", "and", "or", "not"} {
		if !IsKeyword(k) {
			t.Errorf("IsKeyword(%q) = false", k)
		}
	}
	for _, n := range []string{"mpg", "devices", "S", "latency_critical", "Pool"} {
		if IsKeyword(n) {
			t.Errorf("IsKeyword(%q) = true", n)
		}
	}
}

// numberView is what a number literal means, for comparison.
type numberView struct {
	Text     string
	Digits   string
	Value    float64
	Unit     string
	Dim      string
	Base     float64
	Decimals int
}

// secondsPerHour is a variable so that products with it are rounded as
// at run time, not computed exactly as constants.
var secondsPerHour = 3600.0

func TestNumberLiterals(t *testing.T) {
	tests := []struct {
		src  string
		want numberView
	}{
		{"250ms", numberView{"250ms", "250", 250, "ms", "duration", 0.25, 0}},
		{"250 ms", numberView{"250 ms", "250", 250, "ms", "duration", 0.25, 0}},
		{"1.5 s", numberView{"1.5 s", "1.5", 1.5, "s", "duration", 1.5, 1}},
		{"90min", numberView{"90min", "90", 90, "min", "duration", 5400, 0}},
		{"720h", numberView{"720h", "720", 720, "h", "duration", 2592000, 0}},
		{"2 d", numberView{"2 d", "2", 2, "d", "duration", 172800, 0}},
		{"10 MB", numberView{"10 MB", "10", 10, "MB", "data", 1e7, 0}},
		{"500KB", numberView{"500KB", "500", 500, "KB", "data", 5e5, 0}},
		{"1 B", numberView{"1 B", "1", 1, "B", "data", 1, 0}},
		{"1GB", numberView{"1GB", "1", 1, "GB", "data", 1e9, 0}},
		{"2TB", numberView{"2TB", "2", 2, "TB", "data", 2e12, 0}},
		{"1KiB", numberView{"1KiB", "1", 1, "KiB", "data", 1024, 0}},
		{"1MiB", numberView{"1MiB", "1", 1, "MiB", "data", 1 << 20, 0}},
		{"1 GiB", numberView{"1 GiB", "1", 1, "GiB", "data", 1 << 30, 0}},
		{"1TiB", numberView{"1TiB", "1", 1, "TiB", "data", 1 << 40, 0}},
		{"10 GFLOP", numberView{"10 GFLOP", "10", 10, "GFLOP", "compute", 1e10, 0}},
		{"1FLOP", numberView{"1FLOP", "1", 1, "FLOP", "compute", 1, 0}},
		{"3KFLOP", numberView{"3KFLOP", "3", 3, "KFLOP", "compute", 3e3, 0}},
		{"3MFLOP", numberView{"3MFLOP", "3", 3, "MFLOP", "compute", 3e6, 0}},
		{"3TFLOP", numberView{"3TFLOP", "3", 3, "TFLOP", "compute", 3e12, 0}},
		{"3PFLOP", numberView{"3PFLOP", "3", 3, "PFLOP", "compute", 3e15, 0}},
		{"1e9FLOP", numberView{"1e9FLOP", "1e9", 1e9, "FLOP", "compute", 1e9, -9}},
		{"5 USD", numberView{"5 USD", "5", 5, "USD", "money", 5, 0}},
		{"$2.50", numberView{"$2.50", "2.50", 2.5, "$", "money", 2.5, 2}},
		{"$230_400", numberView{"$230_400", "230_400", 230400, "$", "money", 230400, 0}},
		{"2.5 USD/h", numberView{"2.5 USD/h", "2.5", 2.5, "USD/h", "price", 2.5 / 3600, 1}},
		{"2.50USD/h", numberView{"2.50USD/h", "2.50", 2.5, "USD/h", "price", 2.5 / 3600, 2}},
		{"$8.86/h", numberView{"$8.86/h", "8.86", 8.86, "$/h", "price", 8.86 / 3600, 2}},
		{"3 $/h", numberView{"3 $/h", "3", 3, "$/h", "price", 3.0 / 3600, 0}},
		{"1_000_000", numberView{"1_000_000", "1_000_000", 1e6, "", "count", 1e6, 0}},
		{"1e9", numberView{"1e9", "1e9", 1e9, "", "count", 1e9, -9}},
		{"0.282", numberView{"0.282", "0.282", 0.282, "", "count", 0.282, 3}},
		{"0.2820", numberView{"0.2820", "0.2820", 0.282, "", "count", 0.282, 4}},
		{"2.5e3", numberView{"2.5e3", "2.5e3", 2500, "", "count", 2500, -2}},
		{"28215e-5", numberView{"28215e-5", "28215e-5", 0.28215, "", "count", 0.28215, 5}},
		{"1.5E+2", numberView{"1.5E+2", "1.5E+2", 150, "", "count", 150, -1}},
		{".5", numberView{".5", ".5", 0.5, "", "count", 0.5, 1}},
		{"26002.944h", numberView{"26002.944h", "26002.944", 26002.944, "h", "duration", 26002.944 * secondsPerHour, 3}},
		{"1_000.000_1", numberView{"1_000.000_1", "1_000.000_1", 1000.0001, "", "count", 1000.0001, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			x, diags := ParseExpr("t.gpl", tt.src)
			if diags != nil {
				t.Fatalf("ParseExpr(%q): %v", tt.src, diags)
			}
			n, ok := x.(*NumberLit)
			if !ok {
				t.Fatalf("ParseExpr(%q) = %T, want *NumberLit", tt.src, x)
			}
			got := numberView{Text: n.Text, Digits: n.Digits(), Value: n.Amount(), Dim: n.Dim().String(), Base: n.Base(), Decimals: n.Decimals()}
			if n.UnitOf() != nil {
				got.Unit = n.UnitOf().Symbol
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%q (-want +got):\n%s", tt.src, diff)
			}
			if n.Start().Column != 1 || n.End().Column != 1+len([]rune(tt.src)) {
				t.Errorf("%q spans columns %d–%d, want 1–%d", tt.src, n.Start().Column, n.End().Column, 1+len([]rune(tt.src)))
			}
		})
	}
}

// TestEveryUnit writes every unit of language.md section 3 after a number,
// with and without a space, and checks that it is one token whose literal
// carries that unit.
func TestEveryUnit(t *testing.T) {
	for sym, u := range units.Units() {
		if sym == "$" || strings.HasPrefix(sym, "€") || strings.HasPrefix(sym, "£") {
			continue // a prefix: $2.50, €2.50/h
		}
		for _, sep := range []string{"", " ", "\t", "  "} {
			src := "2.5" + sep + sym
			t.Run(src, func(t *testing.T) {
				toks := lexAll(t, src)
				if diff := cmp.Diff([]lexedToken{{"Number", src, 1, 1}}, toks); diff != "" {
					t.Fatalf("tokens (-want +got):\n%s", diff)
				}
				x, diags := ParseExpr("t.gpl", src)
				if diags != nil {
					t.Fatal(diags)
				}
				n := x.(*NumberLit)
				if n.UnitOf() == nil || n.UnitOf().Symbol != sym || n.Digits() != "2.5" || n.Base() != units.FromUnit(2.5, u) {
					t.Errorf("literal %q: unit %v, digits %q, base %v", src, n.UnitOf(), n.Digits(), n.Base())
				}
			})
		}
	}
	for _, src := range []string{"$2.50", "$2.50/h", "$.5", "$1_000", "€2.50", "€2.50/h", "£.5", "£1_000/h"} {
		if toks := lexAll(t, src); len(toks) != 1 || toks[0].Type != "Money" {
			t.Errorf("%q lexes as %v, want one Money token", src, toks)
		}
	}
}
