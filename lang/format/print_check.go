package format

// The printer's self-check: formatting may change only layout, so the
// output must lex to the tokens and comments of the source.

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/lang"
)

// sameTokens checks that out holds the tokens of the source, in order, up
// to the canonical spellings, and its comments, in order (a comment inside
// an expression moves above its statement, so the two lists are compared
// apart). Source and output are scanned side by side, a token at a time. A
// file with syntax errors fails the check (its broken statements are not
// in the tree); its diagnostics are returned then.
func sameTokens(name string, source, out []byte) error {
	src := string(source)
	if sameSequence(src, string(out), codeToken) && sameSequence(src, string(out), commentToken) {
		return nil
	}
	if _, diags := lang.Parse(name, source); diags.HasErrors() {
		return diags
	}
	return fmt.Errorf("internal error: formatting %s would change more than its layout; please report it", name)
}

// sameSequence reports whether a and b hold the same tokens as spelled by
// pick, which returns false for a token it leaves out.
func sameSequence(a, b string, pick func(*lang.Token) (string, bool)) bool {
	sa, sb := lang.NewScanner("", a), lang.NewScanner("", b)
	for {
		x, okA := nextPicked(&sa, pick)
		y, okB := nextPicked(&sb, pick)
		if okA != okB || x != y {
			return false
		}
		if !okA {
			return true
		}
	}
}

func nextPicked(s *lang.Scanner, pick func(*lang.Token) (string, bool)) (string, bool) {
	for {
		t, ok := s.Next()
		if !ok {
			return "", false
		}
		if v, ok := pick(&t); ok {
			return v, true
		}
	}
}

var canonicalToken = map[string]string{"~=": "≈", "+-": "±", "&&": "and", "||": "or", "!": "not"}

// codeToken is a token that carries meaning, as the printer spells it.
func codeToken(t *lang.Token) (string, bool) {
	switch {
	case lang.IsBlank(*t):
		return "", false
	case lang.IsNumber(*t):
		return numberText(t.Value), true
	case lang.IsOp(*t) && canonicalToken[t.Value] != "":
		return canonicalToken[t.Value], true
	}
	return t.Value, true
}

// commentToken is a comment, without trailing blanks.
func commentToken(t *lang.Token) (string, bool) {
	if !lang.IsComment(*t) {
		return "", false
	}
	return strings.TrimRight(t.Value, " \t\r"), true
}
