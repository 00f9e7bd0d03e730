package format

// Alignment for the printer: render pads the collected lines so that keys,
// = signs, rule arrows, the fields of one-line blocks and trailing comments
// line up, and joins them.

import (
	"strings"
	"unicode/utf8"
)

// render pads the collected lines and appends them to the output.
func (p *printer) render() {
	code := make([]string, len(p.out))
	p.alignKeys()
	p.alignRules()
	for i, l := range p.out {
		if l.kind != codeLine {
			continue
		}
		var b strings.Builder
		b.WriteString(strings.Repeat("  ", l.depth))
		switch {
		case l.rule:
			if l.key != "" {
				b.WriteString(l.key)
				b.WriteByte(' ')
			}
			b.WriteString(l.cond)
			b.WriteString(" -> ")
		case l.cells != nil:
			b.WriteString(l.key)
			b.WriteString(" { ")
			b.WriteString(strings.Join(l.cells, "  "))
			b.WriteString(" }")
		default:
			b.WriteString(l.key)
		}
		b.WriteString(l.text)
		code[i] = b.String()
	}
	buf := &p.done
	for i := 0; i < len(p.out); {
		j := p.trailRun(i)
		col := 0
		for k := i; k < j; k++ {
			if p.out[k].trail != "" && p.out[k].kind == codeLine {
				col = max(col, utf8.RuneCountInString(code[k])+1)
			}
		}
		for k := i; k < j; k++ {
			l := p.out[k]
			switch l.kind {
			case blankLine:
			case commentLine:
				buf.WriteString(strings.Repeat("  ", l.depth))
				buf.WriteString(l.trail)
			case contLine:
				buf.WriteString(strings.Repeat(" ", col))
				buf.WriteString(l.trail)
			case codeLine:
				buf.WriteString(code[k])
				if l.trail != "" {
					buf.WriteString(strings.Repeat(" ", col-utf8.RuneCountInString(code[k])))
					buf.WriteString(l.trail)
				}
			}
			buf.WriteByte('\n')
		}
		i = j
	}
	clear(p.out)
	p.out = p.out[:0]
}

// settleAt is how many collected lines wait before settle renders them.
var settleAt = 4096

// settle renders, between two top-level statements, the lines that no
// later line can align with: those before the last blank line at the top
// level, where every run of keys, rules and trailing comments ends. The
// printer then holds the lines of the last few statements, not the file's.
func (p *printer) settle() {
	// The last such line is kept as it is emitted (cut): looking for it
	// here would cost the lines collected at every statement.
	k := p.cut
	if len(p.out) < settleAt || k == 0 {
		return
	}
	// The blank line stays: the next statement's blank-line check reads
	// the last line collected.
	rest := append([]outLine(nil), p.out[k:]...)
	p.out = p.out[:k]
	p.render()
	p.out = append(p.out, rest...)
	p.cut = 0 // the blank line kept is first now
}

// trailRun is the end of the run of lines starting at i whose trailing
// comments align: consecutive code lines of one block, with the comments
// that continue their trailing comments. A blank line, a comment on a line
// of its own, or a line of another block ends a run; unlike gofmt, a line
// without a comment does not.
func (p *printer) trailRun(i int) int {
	first := p.out[i]
	if first.kind != codeLine {
		return i + 1
	}
	j := i + 1
	for j < len(p.out) {
		l := p.out[j]
		if l.block != first.block || l.kind != codeLine && l.kind != contLine {
			break
		}
		j++
	}
	return j
}

// alignKeys pads the keys of each run of consecutive code lines of one
// class and block to the widest; comments that continue a trailing comment
// do not break a run. In consecutive one-line blocks that name the same
// fields in the same order, the fields line up in columns too.
func (p *printer) alignKeys() {
	for i := 0; i < len(p.out); {
		first := p.out[i]
		if first.class == "" || first.kind != codeLine {
			i++
			continue
		}
		width := 0
		var run []int
		j := i
		for ; j < len(p.out); j++ {
			l := p.out[j]
			if l.kind == contLine {
				continue
			}
			if l.kind != codeLine || l.class != first.class || l.block != first.block {
				break
			}
			run = append(run, j)
			width = max(width, utf8.RuneCountInString(l.key))
		}
		for _, k := range run {
			p.out[k].key = padRight(p.out[k].key, width)
		}
		for a := 0; a < len(run); {
			b := a + 1
			for b < len(run) && (p.out[run[a]].cells == nil) == (p.out[run[b]].cells == nil) {
				b++
			}
			if p.out[run[a]].cells != nil && b-a > 1 {
				p.alignCells(run[a:b])
			}
			a = b
		}
		i = j
	}
}

// alignCells pads the fields of one-line blocks into columns, if every
// block names the same fields in the same order; the last field of each is
// left as it is.
func (p *printer) alignCells(run []int) {
	first := p.out[run[0]].cells
	for _, k := range run[1:] {
		cells := p.out[k].cells
		if len(cells) != len(first) {
			return
		}
		for c := range cells {
			if fieldName(cells[c]) != fieldName(first[c]) {
				return
			}
		}
	}
	for c := 0; c < len(first)-1; c++ {
		width := 0
		for _, k := range run {
			width = max(width, utf8.RuneCountInString(p.out[k].cells[c]))
		}
		for _, k := range run {
			p.out[k].cells[c] = padRight(p.out[k].cells[c], width)
		}
	}
}

func fieldName(cell string) string {
	name, _, _ := strings.Cut(cell, " ")
	return name
}

// alignRules pads the labels and conditions of every ruleset so that its
// "when"s and arrows line up.
func (p *printer) alignRules() {
	labels, conds := map[int]int{}, map[int]int{}
	for _, l := range p.out {
		if l.rule {
			labels[l.block] = max(labels[l.block], utf8.RuneCountInString(l.key))
			conds[l.block] = max(conds[l.block], utf8.RuneCountInString(l.cond))
		}
	}
	for i := range p.out {
		if l := &p.out[i]; l.rule {
			l.key = padRight(l.key, labels[l.block])
			l.cond = padRight(l.cond, conds[l.block])
		}
	}
}

func padRight(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}
