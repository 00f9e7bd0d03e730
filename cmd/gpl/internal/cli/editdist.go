package cli

import "github.com/gpl-lang/gpl/lang"

// EditDistance is the edit distance between a and b (lang.EditDistance):
// the "did you mean" suggestions of gpl classify and the REPL rank names
// by it.
func EditDistance(a, b string) int { return lang.EditDistance(a, b) }
