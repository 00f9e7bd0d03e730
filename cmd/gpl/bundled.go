package main

import "github.com/gpl-lang/gpl/stdlib/priority"

//go:generate go run ./internal/genrules bundled_rules.go

// bundledRules is one ruleset of the bundled library as priority rules,
// written out at build time (bundled_rules.go).
type bundledRules struct {
	name      string
	rules     []priority.Rule
	otherwise priority.Class
}

// bundledRuleset compiles the bundled library's ruleset of that name
// without the language: no grammar built, no file parsed or checked. It
// returns false for a name the library does not declare.
func bundledRuleset(name string) (*priority.Ruleset, bool) {
	for _, b := range bundledRulesets {
		if b.name == name {
			rs, err := priority.Compile(b.rules, b.otherwise)
			return rs, err == nil
		}
	}
	return nil, false
}
