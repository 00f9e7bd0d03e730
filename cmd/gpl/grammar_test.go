package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

const grammarFile = "../../docs/editors/gpl.tmLanguage.json"

// TestGrammarCoversTokens: the TextMate grammar names every keyword and
// statement word, and every unit the scanner reads after a number.
func TestGrammarCoversTokens(t *testing.T) {
	b, err := os.ReadFile(grammarFile)
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		ScopeName  string                     `json:"scopeName"`
		Repository map[string]json.RawMessage `json:"repository"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("the grammar is not JSON: %v", err)
	}
	if g.ScopeName != "source.gpl" {
		t.Errorf("scopeName %q", g.ScopeName)
	}
	var number struct {
		Match string `json:"match"`
	}
	json.Unmarshal(g.Repository["number"], &number)
	unitRE := regexp.MustCompile(`\[ \\t\]\*\((.*)\)\(\?!`).FindStringSubmatch(number.Match)
	if unitRE == nil {
		t.Fatalf("no unit alternation in the number rule %q", number.Match)
	}
	alts := map[string]bool{}
	for _, u := range strings.Split(unitRE[1], "|") {
		alts[strings.ReplaceAll(u, `\$`, "$")] = true
	}
	for _, u := range strings.Split(units.Pattern(), "|") {
		if u = strings.ReplaceAll(u, `\$`, "$"); !alts[u] {
			t.Errorf("the grammar's number rule has no unit %s", u)
		}
	}
	text := string(b)
	words := append([]string{}, lang.Keywords...)
	for _, st := range lang.Statements {
		words = append(words, st.Keyword)
	}
	words = append(words, "over", "vary", "show", "find", "such", "that", "in", "by", "min", "max", "from", "to", "step")
	for _, w := range words {
		if !regexp.MustCompile(`[(|]` + w + `[|)]|\\\\b` + w + `\\\\b`).MatchString(text) {
			t.Errorf("the grammar does not name the word %s", w)
		}
	}
	if len(eval.BuiltinNames()) == 0 {
		t.Fatal("no built-ins")
	}
}

// TestGrammarSamples runs vscode-tmgrammar-test on the annotated samples
// under testdata/editors; .ci/run installs it with npm.
func TestGrammarSamples(t *testing.T) {
	tool, err := exec.LookPath("vscode-tmgrammar-test")
	if err != nil {
		t.Skip("vscode-tmgrammar-test is not installed (npm install -g vscode-tmgrammar-test); .ci/run installs it")
	}
	out, err := exec.Command(tool, "--grammar", grammarFile, "../../testdata/editors/grammar_sample.gpl").CombinedOutput()
	if err != nil {
		t.Fatalf("vscode-tmgrammar-test: %v\n%s", err, out)
	}
}
