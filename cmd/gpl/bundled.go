package main

import "github.com/gpl-lang/gpl/stdlib/priority"

//go:generate go run ./internal/genrules bundled_rules.go

// bundledRules is one ruleset of the bundled library as priority rules,
// written out at build time (bundled_rules.go), and its rules written out
// as Go (internal/bundledgo), as gpl gen go writes them.
type bundledRules struct {
	name      string
	rules     []priority.Rule
	otherwise priority.Class
	// classify gives the class and rule the compiled ruleset's Classify
	// gives, without reading a table (TestBundledGo).
	classify func(*priority.Request) (priority.Class, int)
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

// bundledGo returns the bundled library's ruleset of that name as
// generated Go, or nil for a name the library does not declare.
func bundledGo(name string) func(*priority.Request) (priority.Class, int) {
	for _, b := range bundledRulesets {
		if b.name == name {
			return b.classify
		}
	}
	return nil
}
