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
// level, and those of each pool and job. The files the program was given
// (the file loaded; a session's pieces) are one level, which wins over the
// imported files, each a level of its own, in the order read (an
// importing file before the files it imports).
type ownerTable struct {
	given    ownerSites
	hasGiven bool
	imported []ownerSites
	decls    map[*Decl]ownerSites
	// importedFiles are the files read by an import statement.
	importedFiles map[*lang.File]bool
}

// topSite is the field of the winning top-level block that names factor
// f's owner, nil when none does.
func (t *ownerTable) topSite(f goodput.Factor) *lang.Field {
	if t.given[f] != nil { // all nil unless hasGiven
		return t.given[f]
	}
	for _, top := range t.imported {
		if top[f] != nil {
			return top[f]
		}
	}
	return nil
}

// hasTop reports whether any top-level block names an owner.
func (t *ownerTable) hasTop() bool { return t.hasGiven || len(t.imported) > 0 }

// checkOwners checks every owners block of the program: its keys are
// factors, each set once per level, and its values quoted team names.
func (p *Program) checkOwners() {
	p.owners.given, p.owners.hasGiven, p.owners.imported = ownerSites{}, false, nil
	p.owners.decls = map[*Decl]ownerSites{}
	p.addOwners(p.Files, p.Order)
}

// addOwners checks the owners blocks of files and decls and adds them to
// the table; it reports whether any file had a top-level block.
func (p *Program) addOwners(files []*lang.File, decls []*Decl) (top bool) {
	if p.owners.decls == nil {
		p.owners.decls = map[*Decl]ownerSites{}
	}
	for _, f := range files {
		var blocks []*lang.Owners
		for _, st := range f.Stmts {
			if o, ok := st.(*lang.Owners); ok {
				blocks = append(blocks, o)
			}
		}
		if len(blocks) == 0 {
			continue
		}
		top = true
		if p.owners.importedFiles[f] {
			p.owners.imported = append(p.owners.imported, p.ownerBlocks(ownerSites{}, blocks))
			continue
		}
		p.owners.given, p.owners.hasGiven = p.ownerBlocks(p.owners.given, blocks), true
	}
	var jobBlocks []*lang.Owners // reused from job to job: ownerBlocks keeps no list
	for _, d := range decls {
		var blocks []*lang.Owners
		switch d.Kind {
		case DeclPool:
			blocks = d.poolStmt().Owners
		case DeclJob:
			blocks = jobBlocks[:0]
			for _, it := range d.JobStmt().Items {
				if o, ok := it.(*lang.Owners); ok {
					blocks = append(blocks, o)
				}
			}
			jobBlocks = blocks
		}
		if len(blocks) > 0 {
			p.owners.decls[d] = p.ownerBlocks(ownerSites{}, blocks)
		}
	}
	return top
}

// OwnersMark is the state of a program's owners table before AddOwners,
// which DropOwners returns it to.
type OwnersMark struct {
	given    ownerSites
	hasGiven bool
	imported int
}

// AddOwners checks the owners blocks of the files p.Files[files:] and the
// declarations p.Order[order:], added since the program was checked, as
// Check does for all (a session adds pieces this way). It reports whether
// any of those files has a top-level block: that block names owners of
// the jobs declared before as well, which were checked without it.
func (p *Program) AddOwners(files, order int) (OwnersMark, bool) {
	mark := OwnersMark{p.owners.given, p.owners.hasGiven, len(p.owners.imported)}
	return mark, p.addOwners(p.Files[files:], p.Order[order:])
}

// DropOwners takes out what AddOwners added: the table returns to mark,
// and the declarations p.Order[order:] and files p.Files[files:] lose
// their blocks. Call it before those are taken out of the program.
func (p *Program) DropOwners(mark OwnersMark, files, order int) {
	p.owners.given, p.owners.hasGiven, p.owners.imported = mark.given, mark.hasGiven, p.owners.imported[:mark.imported]
	for _, d := range p.Order[order:] {
		delete(p.owners.decls, d)
	}
	for _, f := range p.Files[files:] {
		delete(p.owners.importedFiles, f)
	}
}

// ownerBlocks checks the owners blocks of one level, adding them to the
// sites it already has.
func (p *Program) ownerBlocks(sites ownerSites, blocks []*lang.Owners) ownerSites {
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
		chain := p.chainSlab.Put([goodput.NumFactors]chainOwner{})
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
	if jp.chain == nil && (jp.Pool == nil || !p.owners.hasDecl(jp.Pool)) && !p.owners.hasTop() {
		return &defaultOwners // no owners block names any factor of this job
	}
	out := p.ownerSlab.Put(jobOwners{})
	for f := range goodput.NumFactors {
		out.Names[f] = results.FactorNames[f]
		var link chainOwner
		if jp.chain != nil {
			link = jp.chain[f]
		}
		site, from, whose := link.site, "", ""
		switch {
		case site != nil && link.job == d:
			from, whose = "set in job ", d.Name.Name
		case site != nil:
			from, whose = "inherited from job ", link.job.Name.Name
		case jp.Pool != nil && p.owners.decls[jp.Pool][f] != nil:
			site, from, whose = p.owners.decls[jp.Pool][f], "from pool ", jp.Pool.Name.Name
		case p.owners.topSite(goodput.Factor(f)) != nil:
			site, from = p.owners.topSite(goodput.Factor(f)), "from the top-level owners block"
		}
		if site != nil {
			out.Names[f] = Unparen(site.Value).(*lang.StringLit).Value
			at := site.Start()
			var line [20]byte
			out.From[f] = from + whose + " (" + at.Filename + ":" + string(strconv.AppendInt(line[:0], int64(at.Line), 10)) + ")"
		}
	}
	return out
}
