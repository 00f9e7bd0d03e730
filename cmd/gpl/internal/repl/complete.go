package repl

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// functions are the functions an expression may call.
var functions = sync.OnceValue(eval.BuiltinNames)

// complete offers the completions of the word before the cursor: a
// command after ":", a file after :load or :save, a param after :set, a
// declared name after :drop, a result or field after "NAME.", else a
// keyword, a declared name or a function. After a sweep's query that
// gives a point, "NAME.at(…).", it offers the point's results. pos counts
// characters (runes). A completion goes between head and tail.
func (r *repl) complete(line string, pos int) (head string, items []string, tail string) {
	rs := []rune(line)
	pos = max(0, min(pos, len(rs)))
	before, tail := string(rs[:pos]), string(rs[pos:])
	trimmed := strings.TrimLeft(before, " \t")
	if strings.HasPrefix(trimmed, ":") {
		name, arg, hasArg := strings.Cut(trimmed[1:], " ")
		if !hasArg {
			indent := before[:len(before)-len(trimmed)]
			for _, c := range replCommands {
				if strings.HasPrefix(c.name, name) {
					items = append(items, ":"+c.name+" ")
				}
			}
			return indent, items, tail
		}
		switch arg = strings.TrimLeft(arg, " "); name {
		case "load", "save":
			h, items := completeFile(arg)
			return before[:len(before)-len(arg)] + h, items, tail
		case "set", "drop":
			if strings.ContainsAny(arg, " \t") {
				break // the value of :set, an expression
			}
			var cands []string
			if name == "set" {
				for _, p := range r.s.scn().Params() {
					cands = append(cands, p.Name)
				}
			} else {
				for _, e := range r.s.entries {
					if e.isDecl() {
						cands = append(cands, e.key)
					}
				}
			}
			for _, c := range cands {
				if strings.HasPrefix(c, arg) {
					items = append(items, c+" ")
				}
			}
			sort.Strings(items)
			return before[:len(before)-len(arg)], items, tail
		}
	}
	start := len(before)
	for start > 0 && isWordByte(before[start-1]) {
		start--
	}
	word := before[start:]
	if first, field, dotted := strings.Cut(word, "."); dotted {
		fields := r.s.scn().FieldNames(first)
		if first == "" {
			fields = r.s.scn().PointFieldNames(queryTarget(before[:start]))
		}
		for _, f := range fields {
			if strings.HasPrefix(f, field) {
				items = append(items, f)
			}
		}
		return before[:start] + first + ".", items, tail
	}
	var cands []string
	for _, n := range r.s.scn().Names() {
		cands = append(cands, n[0])
	}
	if word != "" {
		cands = append(cands, lang.Keywords...)
		cands = append(cands, planningStatements()...)
		cands = append(cands, functions()...)
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, word) && !seen[c] {
			seen[c] = true
			items = append(items, c)
		}
	}
	sort.Strings(items)
	return before[:start], items, tail
}

// queryTarget is the sweep whose query ends text, "program_sweep" for
// "x + program_sweep.at(program = 0.40)", when the query gives a point
// (at, first, argmin, argmax); "" otherwise.
func queryTarget(text string) string {
	if !strings.HasSuffix(text, ")") {
		return ""
	}
	depth := 0
	for i := len(text) - 1; i >= 0; i-- {
		switch text[i] {
		case ')':
			depth++
		case '(':
			depth--
		}
		if depth > 0 {
			continue
		}
		start := i
		for start > 0 && isWordByte(text[start-1]) {
			start--
		}
		name, method, ok := strings.Cut(text[start:i], ".")
		switch method {
		case "at", "first", "argmin", "argmax":
			if ok {
				return name
			}
		}
		return ""
	}
	return ""
}

func isWordByte(b byte) bool {
	return b == '_' || b == '.' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// completeFile offers the .gpl files and the directories that complete a
// path.
func completeFile(arg string) (head string, items []string) {
	dir, prefix := filepath.Split(arg)
	list := dir
	if list == "" {
		list = "."
	}
	des, err := os.ReadDir(list)
	if err != nil {
		return dir, nil
	}
	for _, de := range des {
		n := de.Name()
		if !strings.HasPrefix(n, prefix) || strings.HasPrefix(n, ".") && !strings.HasPrefix(prefix, ".") {
			continue
		}
		switch {
		case de.IsDir():
			items = append(items, n+string(filepath.Separator))
		case strings.HasSuffix(n, ".gpl"):
			items = append(items, n)
		}
	}
	return dir, items
}
