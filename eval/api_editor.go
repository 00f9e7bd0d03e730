package eval

import (
	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
)

// What an editor's completion and signature help read (gpl lsp): the
// fields each block sets and the parameters of each built-in, with their
// dimensions.

// FieldDoc is one field a block may set: its name, its dimension
// (units.Count for a fraction or a count) and one line on what it is.
type FieldDoc = check.FieldDoc

// BlockFields lists, sorted by name, the fields a block of the given kind
// sets: "pool", "job", "request", "factors", "ceilings", or "rules" (the
// request fields a rule's condition reads); nil for another kind.
func BlockFields(kind string) []FieldDoc { return check.BlockFields(kind) }

// ParamDoc is one parameter of a built-in: the word its usage writes
// ("mtbf"), its dimension in a planner's words ("duration") and an
// argument written with its unit ("720h"), "" when any value serves.
type ParamDoc struct {
	Word, Dim, Example string
}

// BuiltinParams lists the parameters of the built-in named, in order;
// false when there is no such built-in.
func BuiltinParams(name string) ([]ParamDoc, bool) {
	for _, b := range funcs.Table {
		if b.Name != name {
			continue
		}
		out := make([]ParamDoc, len(b.Params))
		for j, p := range b.Params {
			out[j] = ParamDoc{Word: p.Word, Dim: p.Dim.String(), Example: p.Example}
		}
		return out, true
	}
	return nil, false
}

// KindOf is the kind of the declaration named, as Names gives it
// ("value", "pool", "job", "ruleset", "request", …); false when nothing of
// that name is declared. Unlike Names it looks up one name, in constant
// time: what an editor's hover asks on every move of the pointer.
func (s *Scenario) KindOf(name string) (string, bool) {
	d, ok := s.p.Decls[name]
	if !ok {
		return "", false
	}
	return check.DeclKinds[d.Kind].Noun, true
}
