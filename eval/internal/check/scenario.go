package check

import (
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gpl-lang/gpl/eval/internal/source"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/stdlib/goodput"

	"github.com/gpl-lang/gpl/lang"
)

// declKind is the kind of a declaration: its row of declKinds (kinds.go).
type declKind uint8

// The kinds of declaration, in the order of DeclKinds.
const (
	DeclLet declKind = iota
	DeclPool
	DeclJob
	DeclRules
	DeclRequest
	DeclParam
	// the planning declarations: planning.go
	DeclGroup
	DeclCompare
	DeclSweep
	DeclSolve
	NumDeclKinds
)

// EvalState is the state of a declaration in a walk: the check pass's,
// or an evaluation's.
type EvalState uint8

// The states of a walk: not reached, being visited (a cycle when reached
// again), done, failed.
const (
	Unvisited EvalState = iota
	Visiting
	Done
	Failed
)

// Decl is a declaration and what the check and compile passes learnt of
// it. Nothing here changes after the program is built.
type Decl struct {
	// (Pointers first, then the rest by size: a program holds a decl per
	// declaration, 128 bytes so laid out.)
	Name  *lang.Ident
	syn   lang.Stmt // its statement, for a let, param, pool, job, rules or request (letStmt, …)
	Value *Compiled // a let's or param's expression
	// Pool is a pool's checked fields; nil for another kind.
	Pool *poolPlan
	// Job is a job's plan: its pool, the job it extends, where each
	// input is set, its owners; nil for another kind.
	Job *jobPlan
	// Rules is a ruleset's compiled rules; nil for another kind.
	Rules *rulesPlan
	// Request is a request's checked fields; nil for another kind.
	Request   *requestPlan
	Plan      *planDecl  // a group's, compare's, sweep's or solve's (planning.go)
	Type      value.Type // a let's or param's type
	Slot      int32      // index of its values in a Scenario (vals)
	ValueSlot int32      // a let's or param's index in a Scenario's values
	// Kind is the kind of declaration, a row of DeclKinds.
	Kind    declKind
	checked EvalState // the check pass's walk
	Ok      bool      // checked without errors
	Partial bool      // read without a block item that did not parse (lang.File.Partial)
	// Uncertain: it reads a distribution, directly or through another
	// declaration, so that its values vary from sample to sample.
	Uncertain bool
	// FiguresUncertain, for a pool, says that a job on it is uncertain,
	// so that its figures (mpg, useful_hours, …) are, though its own
	// fields may be plain (uncertain.go).
	FiguresUncertain bool
}

// stmt is the statement that declares d.
func (d *Decl) stmt() lang.Stmt {
	switch {
	case d.syn != nil:
		return d.syn
	case d.Plan != nil && d.Plan.group != nil:
		return d.Plan.group
	case d.Plan != nil && d.Plan.compare != nil:
		return d.Plan.compare
	case d.Plan != nil && d.Plan.sweep != nil:
		return d.Plan.sweep
	case d.Plan != nil && d.Plan.Solve != nil:
		return d.Plan.Solve
	}
	return nil
}

// The statement of a let or param, pool, job, rules or request; nil for
// a declaration of another kind.
func (d *Decl) letStmt() *lang.Let         { n, _ := d.syn.(*lang.Let); return n }
func (d *Decl) poolStmt() *lang.Pool       { n, _ := d.syn.(*lang.Pool); return n }
func (d *Decl) JobStmt() *lang.Job         { n, _ := d.syn.(*lang.Job); return n }
func (d *Decl) RulesStmt() *lang.Rules     { n, _ := d.syn.(*lang.Rules); return n }
func (d *Decl) RequestStmt() *lang.Request { n, _ := d.syn.(*lang.Request); return n }

// Program is a resolved, checked and compiled file with its imports.
type Program struct {
	declSlab   lang.Slab[Decl] // the long-lived objects of a program, allocated together (lang.Slab)
	jobSlab    lang.Slab[jobPlan]
	ownerSlab  lang.Slab[jobOwners]
	chainSlab  lang.Slab[[goodput.NumFactors]chainOwner]
	expectSlab lang.Slab[Expectation]
	// Options are the options the program was loaded with.
	Options Options
	// Sources are the texts of every file read, by name, for
	// diagnostics.
	Sources   lang.Sources
	FileNamed map[string]*lang.File // p.files by name
	// Files are the files read: the file loaded and its imports, in
	// the order read.
	Files []*lang.File
	// Loaded is the set of the names of the files read so far.
	Loaded map[string]bool
	// Decls are the declarations by name.
	Decls map[string]*Decl
	// Order is every declaration in the order declared.
	Order []*Decl
	// Params are the param declarations in the order declared.
	Params []*Decl
	// Classes is the set of the classes the rulesets name.
	Classes map[string]bool
	// ExpectNodes are the expect statements found, in file order,
	// before they are compiled.
	ExpectNodes []expectSite
	// Expects are the compiled expects, in file order.
	Expects      []*Expectation
	Diags        lang.Diagnostics                   // of every pass before evaluation
	NumValues    int32                              // lets and params declared (Decl.ValueSlot)
	Fields       map[*lang.Field]*Compiled          // each checked field's compiled (nil: it has errors), but for a number that checked (fieldValue reads it)
	konsts       map[value.Value]*value.Value       // while checking: the values of constant expressions, each kept once
	lost         map[string]bool                    // names declared by statements that did not parse (lang.File.Lost)
	unitWords    map[lang.Position]*lang.Diagnostic // syntax errors of a unit word read as a unit, by where the literal starts (addSyntax)
	literals     map[value.Value]*Compiled          // while checking: the compiled of each constant value written as a number, shared (literal)
	NumFields    int                                // fields compiled; each has its index in Scenario.fieldVals
	poolJobs     atomic.Pointer[poolIndex]          // the jobs each pool's statements put on it (statedJobsOn)
	pricedOn     map[*Decl]*Decl                    // the first job checked with a rate of its own on each pool without one (poolCurrency)
	stack        []*Decl                            // the check pass's walk
	stackAt      []lang.Expr                        // the reference each of stack was entered by (nil for none)
	namesMu      sync.Mutex                         // guards names, kindNames and their counts
	names        *suggest.Suggester                 // candidates for "did you mean", built when first needed
	namesFor     int                                // len(order) when names was built
	kindNames    map[declKind]*suggest.Suggester    // the declarations of each kind, for "did you mean" of a job or pool named
	kindNamesFor int                                // len(order) when kindNames was built
	libNames     map[string]string                  // what the bundled libraries declare, by name
	owners       ownerTable                         // owners blocks, checked (owners.go)
	imports      *source.Reader
	importDepth  int // imports being read, one inside another
	// bundled are the files read from a bundled file system (a scenario
	// by name, a library file), by name: their relative imports are read
	// from it too (bundledImport).
	bundled     map[string]bundledDir
	tooMany     bool           // MaxDeclarations was reached (and told)
	tooDeepTold bool           // MaxDependencyDepth was reached (and told)
	unc         uncertainState // distributions and tracked quantities (uncertain.go)
}

// sortExpects puts the compiled expectations in file order, then source
// order.
func (p *Program) sortExpects() {
	fileIndex := map[string]int{}
	for i, f := range p.Files {
		fileIndex[f.Name] = i
	}
	sort.SliceStable(p.Expects, func(i, j int) bool {
		a, b := p.Expects[i].Syntax.Start(), p.Expects[j].Syntax.Start()
		if a.Filename != b.Filename {
			return fileIndex[a.Filename] < fileIndex[b.Filename]
		}
		return a.Offset < b.Offset
	})
}
