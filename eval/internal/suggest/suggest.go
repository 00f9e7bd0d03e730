// Package suggest finds the likely misspellings behind the "did you mean"
// of a diagnostic. Its input is a fixed set of candidate names (a file's
// declarations, a block's fields, the built-ins); its output, for a name
// that is none of them, the candidate it was most likely meant to be, or
// nothing. It knows nothing of the language but its edit distance.
package suggest

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/lang"
)

// Closest returns the candidate closest to name by edit distance, when it
// is close enough to be a likely misspelling.
func Closest(name string, cands []string) string {
	return New(cands).Suggest(name, nil)
}

// Suggester finds likely misspellings among a fixed set of candidates.
// The candidates are grouped by length, and only those whose length is
// within the allowed distance are compared. A file with many unknown names
// must not cost their number times the candidates', so after a few
// queries the suggester indexes each candidate under itself and every
// spelling with one character left out: every candidate one edit away
// from a name shares one of those keys with it, and is found without a
// scan. The scan, for what is further away, has a budget of comparisons
// per suggester; once it is spent, names with nothing one edit away get
// no suggestion.
type Suggester struct {
	byLen  map[int][]string // lower-cased candidates by rune count, sorted
	sorted []string         // every lower-cased candidate, sorted (the prefix search)
	orig   map[string]string

	queries int
	near    map[string][]string // nil until built: one-deletion keys → candidates
	budget  int                 // comparisons the scan may still make
}

const (
	// nearAfter is how many queries a suggester answers by scanning alone
	// before it builds its index.
	nearAfter = 16
	// nearKeysMax bounds the index (keys, about 50 bytes each); past it the
	// suggester keeps scanning within its budget.
	nearKeysMax = 2_000_000
	// scanBudget is how many candidates the scans of one suggester compare
	// in all: about a second of work at most.
	scanBudget = 5_000_000
)

// New makes a suggester among cands.
func New(cands []string) *Suggester {
	sg := &Suggester{byLen: map[int][]string{}, orig: map[string]string{}, budget: scanBudget}
	sorted := append([]string(nil), cands...)
	sort.Strings(sorted)
	for _, c := range sorted {
		lc := strings.ToLower(c)
		if _, dup := sg.orig[lc]; dup {
			continue
		}
		sg.orig[lc] = c
		n := len([]rune(lc))
		sg.byLen[n] = append(sg.byLen[n], lc)
		sg.sorted = append(sg.sorted, lc)
	}
	sort.Strings(sg.sorted)
	return sg
}

// oneDeleted calls fn with s and with s less each one of its runes.
func oneDeleted(s string, fn func(string)) {
	fn(s)
	for i, r := range s {
		fn(s[:i] + s[i+utf8.RuneLen(r):])
	}
}

// buildNear indexes the candidates by their one-deletion keys, unless
// there would be too many keys.
func (sg *Suggester) buildNear() {
	keys := 0
	for _, c := range sg.sorted {
		keys += utf8.RuneCountInString(c) + 1
	}
	if keys > nearKeysMax {
		return
	}
	sg.near = make(map[string][]string, keys)
	for _, c := range sg.sorted {
		oneDeleted(c, func(k string) {
			if l := sg.near[k]; len(l) == 0 || l[len(l)-1] != c {
				sg.near[k] = append(l, c)
			}
		})
	}
}

// Suggest returns the candidate closest to name by edit distance when it
// is close enough to be a likely misspelling, or the one candidate that
// name begins (prio → priority, sla → sla_deadline). Of candidates equally
// close, the first in sorted order wins. A candidate skip reports true for
// (by its spelling as given) is never suggested.
func (sg *Suggester) Suggest(name string, skip func(string) bool) string {
	lname := strings.ToLower(name)
	n := utf8.RuneCountInString(lname)
	limit := max(1, n/3+1)
	best, bestD := "", limit+1
	consider := func(c string) {
		if c == lname || skip != nil && skip(sg.orig[c]) {
			return
		}
		if d := lang.EditDistance(lname, c); d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	sg.queries++
	if sg.near == nil && sg.queries > nearAfter {
		sg.buildNear()
	}
	if sg.near != nil {
		oneDeleted(lname, func(k string) {
			for _, c := range sg.near[k] {
				consider(c)
			}
		})
	}
	if bestD > 1 { // nothing one edit away: scan what is further
		cost := 0
		for l := n - limit; l <= n+limit; l++ {
			cost += len(sg.byLen[l])
		}
		if cost <= sg.budget {
			sg.budget -= cost
			for l := n - limit; l <= n+limit; l++ {
				for _, c := range sg.byLen[l] {
					consider(c)
				}
			}
		}
	}
	if best != "" {
		return sg.orig[best]
	}
	if n < 3 {
		return ""
	}
	prefixed := ""
	for i := sort.SearchStrings(sg.sorted, lname); i < len(sg.sorted) && strings.HasPrefix(sg.sorted[i], lname); i++ {
		if c := sg.sorted[i]; c != lname && (skip == nil || !skip(sg.orig[c])) {
			if prefixed != "" {
				return "" // more than one: no guess
			}
			prefixed = c
		}
	}
	return sg.orig[prefixed]
}

// suggestName suggests a declared name, class or (inJob) job result for a
// misspelt one; the candidates are gathered once per program. A
// declaration whose check is under way is never suggested: reading it
