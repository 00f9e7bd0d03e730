package lang

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkFastParse asserts that whenever the fast parser accepts a file,
// participle accepts it too and builds the identical tree.
func checkFastParse(t *testing.T, name, src string) bool {
	t.Helper()
	toks := scanTokens(name, src)
	fast, ok := fastParse(scan(name, src, false))
	if !ok {
		return false
	}
	slow, diags := parseStatements(toks)
	if len(diags) > 0 {
		t.Fatalf("%s: the fast parser accepted what participle rejects: %v\n%s", name, diags, src)
	}
	if diff := cmp.Diff(slow, fast); diff != "" {
		t.Fatalf("%s: trees differ (-participle +fast):\n%s\n%s", name, diff, src)
	}
	return true
}

func repositoryGPL(t *testing.T) map[string]string {
	files := map[string]string{}
	filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".gpl") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files[path] = string(b)
		return nil
	})
	return files
}

func TestFastParserMatchesParticiple(t *testing.T) {
	accepted := 0
	for name, src := range repositoryGPL(t) {
		if checkFastParse(t, name, src) {
			accepted++
		} else if _, diags := parseStatements(scanTokens(name, src)); len(diags) == 0 {
			t.Errorf("%s: participle parses it but the fast parser fell back", name)
		}
	}
	if accepted < 10 {
		t.Fatalf("the fast parser accepted only %d repository files", accepted)
	}
}

// TestFastParserMatchesParticipleOnMutations deletes, duplicates and swaps
// tokens of the repository's files; wherever the fast parser still accepts
// the result, participle must build the same tree.
func TestFastParserMatchesParticipleOnMutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var corpus []string
	for _, src := range repositoryGPL(t) {
		corpus = append(corpus, src)
	}
	n := 3000
	if testing.Short() {
		n = 300
	}
	accepted := 0
	for i := range n {
		src := corpus[rng.IntN(len(corpus))]
		toks := scanTokens("m", src)
		toks = toks[:len(toks)-1]
		for range rng.IntN(3) + 1 {
			j := rng.IntN(len(toks))
			switch rng.IntN(3) {
			case 0:
				toks = append(toks[:j:j], toks[j+1:]...)
			case 1:
				toks = append(toks[:j+1:j+1], toks[j:]...)
			default:
				k := rng.IntN(len(toks))
				toks[j], toks[k] = toks[k], toks[j]
			}
		}
		var b strings.Builder
		for _, tk := range toks {
			b.WriteString(tk.Value)
		}
		if checkFastParse(t, "mutation", b.String()) {
			accepted++
		}
		_ = i
	}
	t.Logf("%d of %d mutations parsed", accepted, n)
}
