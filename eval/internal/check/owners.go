package check

import (
	"fmt"
	"strconv"

	"github.com/gpl-lang/gpl/eval/internal/results"
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
	decls map[*Decl]ownerSites
}

// checkOwners checks every owners block of the program: its keys are
// factors, each set once per level, and its values quoted team names.
func (p *Program) checkOwners() {
	p.owners = ownerTable{decls: map[*Decl]ownerSites{}}
	for _, f := range p.Files {
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
	for _, d := range p.Order {
		var blocks []*lang.Owners
		switch d.Kind {
		case DeclPool:
			blocks = d.poolStmt().Owners
		case DeclJob:
			for _, it := range d.JobStmt().Items {
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
func (p *Program) ownerBlocks(blocks []*lang.Owners) ownerSites {
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
			if _, ok := Unparen(f.Value).(*lang.StringLit); !ok {
				pos, end := f.Value.Span()
				p.errorAt(pos, end, fmt.Sprintf("an owner is a team's name in quotes, e.g. %s = %s", f.Name.Name, strconv.Quote(results.FactorNames[fac])))
				continue
			}
			sites[fac] = f
		}
	}
	return sites
}

// jobOwners are the owners of a job's factors, and where each was named.
type jobOwners struct {
	Names [goodput.NumFactors]string
	From  [goodput.NumFactors]string // "set in job j", "from pool p", …; "" for a default
}

// defaultOwners is the owners of a job no owners block speaks of: each
// factor's owner is named after it.
var defaultOwners = jobOwners{Names: results.FactorNames}

// hasDecl reports whether d has owners blocks of its own.
func (t *ownerTable) hasDecl(d *Decl) bool {
	_, ok := t.decls[d]
	return ok
}

// chainOwner is the nearest owners line along a job's extends chain for
// one factor, and the job whose block holds it.
type chainOwner struct {
	site *lang.Field
	job  *Decl
}

// ownersOf finds the owner of each factor of a job: from its own blocks,
// then those of the jobs it extends, nearest first, then its pool's, then
// those at top level, else the factor's name. What the chain gives is kept
// on the plan (jobPlan.chain) and read by the jobs that extend this one, so
// a chain of n jobs costs n steps, not n².
func (p *Program) ownersOf(d *Decl, jp *jobPlan) *jobOwners {
	if jp.Parent != nil && jp.Parent.Job != nil {
		jp.chain = jp.Parent.Job.chain // shared until this job names an owner of its own
	}
	if own, ok := p.owners.decls[d]; ok {
		chain := new([goodput.NumFactors]chainOwner)
		if jp.chain != nil {
			*chain = *jp.chain
		}
		for f, site := range own {
			if site != nil {
				chain[f] = chainOwner{site, d}
			}
		}
		jp.chain = chain
	}
	if jp.chain == nil && (jp.Pool == nil || !p.owners.hasDecl(jp.Pool)) && len(p.owners.top) == 0 {
		return &defaultOwners // no owners block names any factor of this job
	}
	out := new(jobOwners)
	for f := range goodput.NumFactors {
		out.Names[f] = results.FactorNames[f]
		var link chainOwner
		if jp.chain != nil {
			link = jp.chain[f]
		}
		site, from := link.site, ""
		switch {
		case site != nil && link.job == d:
			from = "set in job " + d.Name.Name
		case site != nil:
			from = "inherited from job " + link.job.Name.Name
		case jp.Pool != nil && p.owners.decls[jp.Pool][f] != nil:
			site, from = p.owners.decls[jp.Pool][f], "from pool "+jp.Pool.Name.Name
		default:
			for _, top := range p.owners.top {
				if top[f] != nil {
					site, from = top[f], "from the top-level owners block"
					break
				}
			}
		}
		if site != nil {
			out.Names[f] = Unparen(site.Value).(*lang.StringLit).Value
			out.From[f] = fmt.Sprintf("%s (%s:%d)", from, site.Start().Filename, site.Start().Line)
		}
	}
	return out
}
