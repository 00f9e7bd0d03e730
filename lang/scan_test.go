package lang

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/google/go-cmp/cmp"
)

// regexTokens lexes with the regular-expression definition, the
// specification the hand-written scanner must match.
func regexTokens(t testing.TB, name, src string) []lexer.Token {
	toks, err := oracleTokens(name, src)
	if err != nil {
		t.Fatalf("regex lexer: %v", err)
	}
	return toks
}

func TestScannerMatchesLexerOnRepositoryFiles(t *testing.T) {
	files := repositoryGPL(t)
	if len(files) == 0 {
		t.Fatal("no .gpl files found")
	}
	for path, src := range files {
		if diff := cmp.Diff(regexTokens(t, path, src), scanTokens(path, src)); diff != "" {
			t.Errorf("%s: tokens differ (-regex +scanner):\n%s", path, diff)
		}
	}
}

func TestScannerMatchesLexerOnRandomInput(t *testing.T) {
	pieces := []string{"0", "1", "9", "_", ".", "e", "E", "+", "-", " ", "\t", "\n", ";", "#", "\"", "\\", "$", "/h", "h", "s", "ms", "min",
		"USD", "USD/h", "$/h", "KiB", "MB", "B", "GFLOP", "FLOP", "d", "x", "≈", "~=", "±", "->", "==", "<", "=", "&", "|", "!", "(", ")",
		"{", "}", ",", "%", "é", "\xff", "\r", "\r\n", "\uFEFF", "pool", "a_1"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range large(20_000, 10) {
		var b strings.Builder
		for range rng.IntN(12) + 1 {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		src := b.String()
		if diff := cmp.Diff(regexTokens(t, "f", src), scanTokens("f", src)); diff != "" {
			t.Fatalf("case %d %q: tokens differ (-regex +scanner):\n%s", i, src, diff)
		}
	}
}
