package format

import (
	"sort"
	"strings"

	"github.com/gpl-lang/gpl/lang"
)

// This file prints owners blocks, and pools that hold them, for gpl fmt.

// owners prints an owners block; class is how its line aligns with its
// neighbours when it stays on one line ("field" inside a block).
func (p *printer) owners(o *lang.Owners, class string) {
	p.fieldBlock(o.Start(), o.Start().Offset, class, "owners", o.Fields, o.End())
}

// window prints from A to B, or from A for D.
func (p *printer) window(w *lang.Window) {
	word := " to "
	if w.For {
		word = " for "
	}
	p.leaf(w.Start(), w.End(), outLine{text: "from" + " " + exprString(w.From) + word + exprString(w.Until)})
}

// schedule prints devices { DATE: N … }: on one line when written on one,
// else a step a line.
func (p *printer) schedule(s *lang.Schedule) {
	steps := make([]string, len(s.Steps))
	for i, st := range s.Steps {
		steps[i] = exprString(st.At) + ": " + exprString(st.Devices)
	}
	if len(s.Steps) > 0 && s.Start().Line == s.End().Line {
		p.leaf(s.Start(), s.End(), outLine{text: "devices { " + strings.Join(steps, "  ") + " }"})
		return
	}
	p.blockStmt(s.Start(), s.Start().Offset, "devices", len(s.Steps) == 0, s.End(), func() {
		for i, st := range s.Steps {
			start, end := st.Span()
			p.leaf(start, end, outLine{text: steps[i]})
		}
	})
}

// poolWithOwners prints a pool whose body holds owners blocks, windows or
// schedules among its fields, each item where it was written.
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
	for _, w := range s.Windows {
		items = append(items, item{w.Start().Offset, func() { p.window(w) }})
	}
	for _, sc := range s.Schedules {
		items = append(items, item{sc.Start().Offset, func() { p.schedule(sc) }})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].at < items[j].at })
	p.blockStmt(s.Start(), s.Name.End().Offset, "pool "+s.Name.Name, false, s.End(), func() {
		for _, it := range items {
			it.print()
		}
	})
}
