package format

import (
	"sort"

	"github.com/gpl-lang/gpl/lang"
)

// This file prints owners blocks, and pools that hold them, for gpl fmt.

// owners prints an owners block; class is how its line aligns with its
// neighbours when it stays on one line ("field" inside a block).
func (p *printer) owners(o *lang.Owners, class string) {
	p.fieldBlock(o.Start(), o.Start().Offset, class, "owners", o.Fields, o.End())
}

// poolWithOwners prints a pool whose body holds owners blocks among its
// fields, each item where it was written.
func (p *printer) poolWithOwners(s *lang.Pool) {
	type item struct {
		at    int
		print func()
	}
	var items []item
	for _, f := range s.Fields {
		items = append(items, item{f.Start().Offset, func() { p.fields([]*lang.Field{f}) }})
	}
	for _, o := range s.Owners {
		items = append(items, item{o.Start().Offset, func() { p.owners(o, "field") }})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].at < items[j].at })
	p.blockStmt(s.Start(), s.Name.End().Offset, "pool "+s.Name.Name, false, s.End(), func() {
		for _, it := range items {
			it.print()
		}
	})
}
