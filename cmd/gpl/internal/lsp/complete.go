package lsp

import (
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// unitSymbols are the units a number may be written in, sorted.
var unitSymbols = sync.OnceValue(func() []string {
	var out []string
	for u := range units.Units() {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
})

func isWordByte(b byte) bool {
	return b == '_' || b == '.' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// maxCompletions is the most items one completion answers; past it the
// list is marked incomplete, and the editor asks again as more is typed.
const maxCompletions = 200

func (s *Server) completion(params json.RawMessage) (any, error) {
	a, off, err := s.at(params)
	if err != nil {
		return nil, err
	}
	items := a.complete(off)
	if len(items) > maxCompletions {
		return CompletionList{IsIncomplete: true, Items: items[:maxCompletions]}, nil
	}
	return CompletionList{Items: items}, nil
}

// complete offers what may be written at byte offset off: a result or
// field after "NAME.", a unit after a number, a field at the start of a
// block's line, else names in scope, keywords and functions.
func (a *analysis) complete(off int) []CompletionItem {
	start := off
	for start > 0 && isWordByte(a.text[start-1]) {
		start--
	}
	w := a.text[start:off]
	items := []CompletionItem{}
	add := func(label string, kind int, detail string, prefix string) {
		if strings.HasPrefix(label, prefix) {
			items = append(items, CompletionItem{Label: label, Kind: kind, Detail: detail})
		}
	}
	// After a number: its unit.
	if w != "" && '0' <= w[0] && w[0] <= '9' {
		i := 0
		for i < len(w) && ('0' <= w[i] && w[i] <= '9' || w[i] == '.' || w[i] == '_') {
			i++
		}
		for _, u := range unitSymbols() {
			add(u, CompletionUnit, units.Of(u).Dim.String(), w[i:])
		}
		return items
	}
	if first, field, dotted := strings.Cut(w, "."); dotted {
		if a.scn == nil {
			return items
		}
		rest := field
		if i := strings.LastIndexByte(field, '.'); i >= 0 {
			first, rest = first+"."+field[:i], field[i+1:]
		}
		for _, f := range a.fieldNames(first, off) {
			add(f, CompletionField, first+"."+f, rest)
		}
		return items
	}
	// At the start of a line inside a block: the block's fields.
	lineStart := strings.LastIndexByte(a.text[:start], '\n') + 1
	block := a.blockAt(off)
	if strings.TrimSpace(a.text[lineStart:start]) == "" && block != "" {
		for _, f := range eval.BlockFields(block) {
			add(f.Name, CompletionField, f.Dim.String()+": "+f.Doc, w)
		}
		if block == "job" {
			add("factors", CompletionKeyword, "block", w)
			add("ceilings", CompletionKeyword, "block", w)
			add("expect", CompletionKeyword, "keyword", w)
		}
		return items
	}
	if block == "rules" {
		for _, f := range eval.BlockFields("rules") {
			add(f.Name, CompletionField, f.Dim.String()+": "+f.Doc, w)
		}
	}
	if a.scn != nil {
		names := a.declaredNames()
		i := sort.Search(len(names), func(i int) bool { return names[i].Label >= w })
		for ; i < len(names) && strings.HasPrefix(names[i].Label, w) && len(items) <= maxCompletions; i++ {
			items = append(items, names[i])
		}
		if st := enclosing(a, off); st != nil && st.Keyword() == "job" {
			for _, r := range eval.ResultNames() {
				add(r, CompletionValue, "result of this job", w)
			}
		}
	}
	if w != "" {
		for _, k := range lang.Keywords {
			add(k, CompletionKeyword, "keyword", w)
		}
		for _, st := range lang.Statements {
			if !lang.IsKeyword(st.Keyword) {
				add(st.Keyword, CompletionKeyword, "statement", w)
			}
		}
		for _, b := range eval.Builtins() {
			add(b.Name, CompletionFunction, b.Usage, w)
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	seen := map[string]bool{}
	out := items[:0]
	for _, it := range items {
		if !seen[it.Label] {
			seen[it.Label] = true
			out = append(out, it)
		}
	}
	return out
}

// fieldNames are what may follow "NAME." at off: a declaration's results
// or fields; inside a job, those of the job's own results (loss.).
func (a *analysis) fieldNames(first string, off int) []string {
	if fs := a.scn.FieldNames(first); fs != nil {
		return fs
	}
	if st := enclosing(a, off); st != nil {
		if id := declName(st); id != nil {
			return a.scn.FieldNames(id.Name + "." + first)
		}
	}
	return nil
}

// blockAt is the kind of block the offset is inside: "pool", "job",
// "request", "rules", "factors", "ceilings"; "" outside any.
func (a *analysis) blockAt(off int) string {
	depth := 0
	i := a.before(off)
	for ; i >= 0; i-- {
		switch a.tokens()[i].Value {
		case "}":
			depth++
		case "{":
			if depth > 0 {
				depth--
				continue
			}
			for k := i - 1; k >= 0; k-- {
				v := a.tokens()[k].Value
				switch v {
				case "factors", "ceilings":
					if k == i-1 {
						return v
					}
				case "pool", "job", "request", "rules", "owners", "sweep", "solve", "group", "compare":
					if k == 0 || lang.IsLineBreak(a.tokens()[k-1]) || a.tokens()[k-1].Pos.Line < a.tokens()[k].Pos.Line {
						return v
					}
				}
				if k < i-6 {
					break
				}
			}
			return ""
		}
	}
	return ""
}

func (s *Server) signatureHelp(params json.RawMessage) (any, error) {
	a, off, err := s.at(params)
	if err != nil {
		return nil, err
	}
	// The innermost call still open before the cursor.
	i := a.before(off)
	depth, commas := 0, 0
	for ; i >= 0; i-- {
		switch a.tokens()[i].Value {
		case ")", "]":
			depth++
		case "[":
			depth--
		case ",":
			if depth == 0 {
				commas++
			}
		case "(":
			if depth > 0 {
				depth--
				continue
			}
			if i == 0 {
				return nil, nil
			}
			return signature(a.tokens()[i-1].Value, commas), nil
		case "\n", "{", "}":
			if depth == 0 {
				return nil, nil
			}
		}
	}
	return nil, nil
}

// signature is a built-in's signature with its parameters' dimensions,
// nil when name is not a built-in.
func signature(name string, active int) *SignatureHelp {
	params, ok := eval.BuiltinParams(name)
	if !ok {
		return nil
	}
	var b eval.Builtin
	for _, x := range eval.Builtins() {
		if x.Name == name {
			b = x
		}
	}
	sig := SignatureInformation{Label: b.Usage, Documentation: b.Doc, Parameters: []ParameterInformation{}}
	for _, p := range params {
		doc := p.Dim
		if p.Example != "" {
			doc += ", e.g. " + p.Example
		}
		sig.Parameters = append(sig.Parameters, ParameterInformation{Label: p.Word, Documentation: doc})
	}
	if len(params) > 0 {
		active = min(active, len(params)-1)
	}
	return &SignatureHelp{Signatures: []SignatureInformation{sig}, ActiveParameter: active}
}

// declaredNames are the scenario's declared names as completions, sorted,
// made once per check: a completion finds those of its prefix by binary
// search, however many there are.
func (a *analysis) declaredNames() []CompletionItem {
	a.namesOnce.Do(func() {
		for _, n := range a.scn.Names() {
			a.names = append(a.names, CompletionItem{Label: n[0], Kind: CompletionVariable, Detail: n[1]})
		}
		sort.SliceStable(a.names, func(i, j int) bool { return a.names[i].Label < a.names[j].Label })
	})
	return a.names
}

// before is the index of the last token that starts before byte offset
// off, or -1.
func (a *analysis) before(off int) int {
	toks := a.tokens()
	return sort.Search(len(toks), func(i int) bool { return toks[i].Pos.Offset >= off }) - 1
}
