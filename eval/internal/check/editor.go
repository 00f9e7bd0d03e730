package check

import (
	"sort"

	"github.com/gpl-lang/gpl/lang/units"
)

// FieldDoc is one field a block may set, as an editor offers it.
type FieldDoc struct {
	Name string
	Dim  units.Dim
	Doc  string
}

// BlockFields lists, sorted by name, the fields a block of the given kind
// sets: "pool", "job", "request", "factors", "ceilings", or "rules" (what a
// rule's condition reads, a request's fields); nil for another kind.
func BlockFields(kind string) []FieldDoc {
	var defs map[string]fieldDef
	switch kind {
	case "pool":
		defs = poolFieldDefs()
	case "job":
		defs = PoolFields
	case "request", "rules":
		defs = RequestFields
	case "factors", "ceilings":
		defs = map[string]fieldDef{
			"scheduling": {units.Count, "", "the fraction of the offered time the devices are held (S)"},
			"runtime":    {units.Count, "", "the fraction of held time spent making progress (R)"},
			"program":    {units.Count, "", "the fraction of peak FLOPs the program reaches (P, its MFU)"},
		}
	default:
		return nil
	}
	out := make([]FieldDoc, 0, len(defs))
	for n, d := range defs {
		out = append(out, FieldDoc{Name: n, Dim: d.Dim, Doc: d.doc})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
