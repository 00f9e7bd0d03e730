package eval

import (
	"fmt"
	"strconv"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is the check pass over owners blocks (language §12): which
// team owns each goodput factor of each job. A block may stand at top
// level (every job of the program, imported ones included), in a pool (the
// jobs on it) or in a job (it and the jobs that extend it); the innermost
// wins, factor by factor, and a factor nobody names is owned by a team
// named after it. Between top-level blocks of different files, the file
// that imports wins over the files it imports: the scenario being run
// names its teams over a library's defaults.

// ownerSites are, per factor, the field that names its owner; nil where
// the blocks name none.
type ownerSites [goodput.NumFactors]*lang.Field

// ownerTable holds the checked owners blocks of a program: those at top
// level, a file's blocks together, in the order of program.files (the
// loaded file first), and those of each pool and job.
type ownerTable struct {
	top   []ownerSites
	decls map[*decl]ownerSites
}

// checkOwners checks every owners block of the program: its keys are
// factors, each set once per level, and its values quoted team names.
func (p *program) checkOwners() {
	p.owners = ownerTable{decls: map[*decl]ownerSites{}}
	for _, f := range p.files {
		var blocks []*lang.Owners
		for _, st := range f.Stmts {
			if o, ok := st.(*lang.Owners); ok {
				blocks = append(blocks, o)
			}
		}
		if len(blocks) > 0 {
			p.owners.top = append(p.owners.top, p.ownerBlocks(blocks))
		}
	}
	for _, d := range p.order {
		var blocks []*lang.Owners
		switch d.kind {
		case declPool:
			blocks = d.pool.Owners
		case declJob:
			for _, it := range d.job.Items {
				if o, ok := it.(*lang.Owners); ok {
					blocks = append(blocks, o)
				}
			}
		}
		if len(blocks) > 0 {
			p.owners.decls[d] = p.ownerBlocks(blocks)
		}
	}
}

// ownerBlocks checks the owners blocks of one level.
func (p *program) ownerBlocks(blocks []*lang.Owners) ownerSites {
	var sites ownerSites
	for _, b := range blocks {
		for _, f := range b.Fields {
			fac, known := goodput.ParseFactor(f.Name.Name)
			if !known {
				p.unknownFieldDecl(f, "an owners block", []string{"scheduling", "runtime", "program", "S", "R", "P"})
				continue
			}
			if prev := sites[fac]; prev != nil {
				p.duplicateField(f, prev)
				continue
			}
			if _, ok := unparen(f.Value).(*lang.StringLit); !ok {
				pos, end := f.Value.Span()
				p.errorAt(pos, end, fmt.Sprintf("an owner is a team's name in quotes, e.g. %s = %s", f.Name.Name, strconv.Quote(factorNames[fac])))
				continue
			}
			sites[fac] = f
		}
	}
	return sites
}

// jobOwners is the owner of each factor of a job: from its own blocks,
// then those of the jobs it extends, nearest first, then its pool's, then
// those at top level, else the factor's name.
func (p *program) jobOwners(d *decl, jp *jobPlan) [goodput.NumFactors]string {
	levels := []ownerSites{}
	for j := d; j != nil; {
		levels = append(levels, p.owners.decls[j])
		if j.jb == nil {
			break
		}
		j = j.jb.parent
	}
	if jp.pool != nil {
		levels = append(levels, p.owners.decls[jp.pool])
	}
	levels = append(levels, p.owners.top...)
	var out [goodput.NumFactors]string
	for f := range goodput.NumFactors {
		out[f] = factorNames[f]
		for _, l := range levels {
			if s := l[f]; s != nil {
				out[f] = unparen(s.Value).(*lang.StringLit).Value
				break
			}
		}
	}
	return out
}
