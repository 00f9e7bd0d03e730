package check

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/inventory"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/srcfile"
	"github.com/gpl-lang/gpl/stdlib"
)

// Error is what Load returns when a file cannot be evaluated: every
// diagnostic found, in source order. Runtime is true when all of them arose
// while computing values (each has Stage lang.Running: a division by zero,
// an mpg of 0 used as a divisor) rather than from the text itself (syntax,
// names, dimensions, inputs out of range); the command line exits 3 rather
// than 2 for those.
type Error struct {
	// Diagnostics are every diagnostic found, in source order.
	Diagnostics lang.Diagnostics
	// Runtime is true when every diagnostic arose while computing
	// values.
	Runtime bool
	// Sources, when set, holds every text the diagnostics quote: the
	// scenario's files and the expression given to Eval or TypeOf.
	Sources lang.Sources
	// Internal is true when the error is a bug in gpl, not in the input:
	// a panic recovered at the API's boundary (package eval's entry
	// points never panic). Its one diagnostic says so; Stack is the trace
	// of the panic, for the bug report. The command line exits 5.
	Internal bool
	Stack    []byte
}

// Error is the diagnostics, one a line.
func (e *Error) Error() string { return e.Diagnostics.Error() }

// Options tune loading.
type Options struct {
	// FS, when set, is where the file and its relative imports are read;
	// otherwise the operating system's file system is used.
	FS fs.FS
	// Std is the bundled library that import "std/NAME" reads NAME.gpl
	// from; it defaults to stdlib.Files.
	Std fs.FS
	// Scenarios, when set, is where import "scenarios/NAME" (no .gpl
	// suffix) reads a bundled scenario NAME.gpl from; the gpl command
	// sets it to the scenarios it carries.
	Scenarios fs.FS
	// MaxPoints caps the points of one sweep; 0 means DefaultMaxPoints.
	MaxPoints int
	// AllowImports are directories, besides the loaded file's own, that
	// relative imports may read from and below (paths inside FS when it is
	// set). Without them an import stays inside the directory of the file
	// loaded; see MaxImportSize for what else it must be.
	AllowImports []string
	// Samples is how many samples an uncertain file is evaluated over
	// (language.md §23); 0 means DefaultSamples.
	Samples int
	// Seed seeds the samples' streams; 0 means the default, 1.
	Seed uint64
}

// DefaultSamples is the number of samples of an uncertain file unless
// Options.Samples says otherwise.
const DefaultSamples = 10000

// SampleCount is opts.Samples, or DefaultSamples.
func (o Options) SampleCount() int {
	if o.Samples > 0 {
		return o.Samples
	}
	return DefaultSamples
}

// SampleSeed is opts.Seed, or 1.
func (o Options) SampleSeed() uint64 {
	if o.Seed != 0 {
		return o.Seed
	}
	return 1
}

// NewProgram is an empty program loaded with opts, its standard library
// the embedded one unless opts.Std says otherwise.
func NewProgram(opts Options) *Program {
	if opts.Std == nil {
		opts.Std = stdlib.Files
	}
	return &Program{
		Options:   opts,
		Sources:   lang.Sources{},
		FileNamed: map[string]*lang.File{},
		Loaded:    map[string]bool{},
		Decls:     map[string]*Decl{},
		Classes:   map[string]bool{},
		Fields:    map[*lang.Field]*Compiled{},
		konsts:    map[value.Value]*value.Value{},
		lost:      map[string]bool{},
		literals:  map[value.Value]*Compiled{},
	}
}

// ReadFile reads the file named from Options.FS, or from the operating
// system's files when that is nil, as every source file is read (package
// srcfile): a file that is not a regular file is refused without being
// opened, one over the size limit from its size, and the read stops one
// byte past the limit. The error says "cannot read NAME: " and why.
func (p *Program) ReadFile(name string) ([]byte, error) {
	if p.Options.FS != nil {
		return srcfile.ReadFS(p.Options.FS, path.Clean(filepath.ToSlash(name)), srcfile.MaxSize)
	}
	return srcfile.ReadFile(name, srcfile.MaxSize)
}

// ReadError is the diagnostic of a file that ReadFile could not read:
// placed nowhere, since none of the file was read, and with a hint when
// it was refused (srcfile.Hint).
func ReadError(name string, err error) *lang.Diagnostic {
	d := &lang.Diagnostic{Severity: lang.Error, Summary: err.Error()}
	var se *srcfile.Error
	if errors.As(err, &se) {
		se.Path = name
		d.Summary = se.Error()
	}
	if h := srcfile.Hint(err); h != "" {
		d.Notes = []string{h}
	}
	return d
}

// AddFile parses a file and its imports and declares their names. src is
// the program's own (read by it, or copied from the caller's): the tree
// reads its names from it in place.
func (p *Program) AddFile(name string, src []byte, from *lang.Import) {
	if p.Loaded[name] {
		return
	}
	if inventory.IsInventory(name) {
		// A CSV inventory, imported or named itself: its rows are
		// declarations like any file's.
		f, diags := inventory.Parse(name, src)
		p.AddSyntax(diags)
		p.AddParsed(f, src)
		return
	}
	f, diags := lang.ParseOwned(lang.DefaultLimits, name, src)
	p.AddSyntax(diags)
	p.AddParsed(f, src)
}

// AddSyntax adds a file's syntax diagnostics. Those that read a unit word
// as a unit ("720 gb" as 720GB) are kept by where their literal starts, so
// that a field of another dimension amends their hint instead of telling
// a second error about a literal the user did not write (wrongDimension).
func (p *Program) AddSyntax(ds lang.Diagnostics) {
	p.Diags = append(p.Diags, ds...)
	for _, d := range ds {
		if strings.Contains(d.Summary, "is not a unit") { // unitAsWord, countedThing (lang/hints.go)
			if p.unitWords == nil {
				p.unitWords = map[lang.Position]*lang.Diagnostic{}
			}
			p.unitWords[d.Pos] = d
		}
	}
}

// AddParsed declares the names of a parsed file and reads its imports.
func (p *Program) AddParsed(f *lang.File, src []byte) {
	p.Loaded[f.Name] = true
	p.Sources[f.Name] = src
	p.FileNamed[f.Name] = f
	p.Files = append(p.Files, f)
	if p.importDepth > 0 {
		if p.owners.importedFiles == nil {
			p.owners.importedFiles = map[*lang.File]bool{}
		}
		p.owners.importedFiles[f] = true // its owners blocks yield to the given files' (owners.go)
	}
	for name := range f.Lost {
		p.lost[name] = true
	}
	if n := len(f.Stmts); len(p.Decls) == 0 && n > len(p.Order) || n >= 1024 && n > 2*len(p.Decls) {
		// Most statements declare a name: a table of the right size is
		// not grown, and a grown one is left emptier (about twice the
		// memory a name for a file of 100,000 jobs). A large file
		// imported by a small one (an inventory) is made room for too.
		decls := make(map[string]*Decl, len(p.Decls)+n)
		maps.Copy(decls, p.Decls)
		p.Decls = decls
		p.Order = slices.Grow(p.Order, n)
	}
	first := len(p.Order)
	defer func() {
		if len(f.Partial) == 0 {
			return
		}
		for _, d := range p.Order[first:] {
			if s := d.stmt(); s != nil && f.Partial[s] {
				d.Partial = true
			}
		}
	}()
	for _, st := range f.Stmts {
		switch st := st.(type) {
		case *lang.Import:
			p.importFile(f, st)
		case *lang.Expect:
			p.ExpectNodes = append(p.ExpectNodes, expectSite{node: st})
		default:
			kind, ok := kindOfKeyword[st.Keyword()]
			if !ok {
				continue // owners: checked as a whole (owners.go)
			}
			d := Decl{Kind: kind, Name: lang.StatementOf(st).Name(st)}
			if row := &DeclKinds[kind]; row.declare != nil {
				// On the heap only for a kind that declares more (a
				// pointer given to a function value escapes): a job's is
				// the copy declare keeps.
				dp := new(Decl)
				*dp = d
				row.declare(p, dp, st)
				d = *dp
			}
			if d.Plan == nil {
				d.syn = st
			}
			p.declare(d)
		}
	}
}

func (p *Program) importFile(f *lang.File, imp *lang.Import) {
	path0, err := strconv.Unquote(imp.Path)
	if err != nil {
		pos, end := p.pathSpan(imp)
		p.errorAt(pos, end, "malformed import path")
		return
	}
	var (
		name string
		src  []byte
	)
	if p.importDepth >= MaxImportDepth {
		pos, end := p.pathSpan(imp)
		p.errorAt(pos, end, fmt.Sprintf("imports nest more than %d deep (the limit on import depth)", MaxImportDepth))
		return
	}
	if sc, ok := strings.CutPrefix(path0, "scenarios/"); ok && p.Options.Scenarios != nil && !strings.HasSuffix(sc, ".gpl") {
		// A bundled scenario, by name.
		name = "scenarios/" + sc + ".gpl"
		src, err = fs.ReadFile(p.Options.Scenarios, sc+".gpl")
		if err != nil {
			pos, end := p.pathSpan(imp)
			p.errorAt(pos, end, fmt.Sprintf("there is no bundled scenario %q; gpl scenarios lists them", sc))
			return
		}
		p.noteBundled(name, bundledDir{p.Options.Scenarios, "scenarios/", path.Dir(sc + ".gpl")})
	} else if lib, ok := strings.CutPrefix(path0, "std/"); ok {
		name = "std/" + lib + ".gpl"
		src, err = fs.ReadFile(p.Options.Std, lib+".gpl")
		if err != nil {
			pos, end := p.pathSpan(imp)
			p.errorAt(pos, end, fmt.Sprintf("there is no bundled library %q; the bundled ones are %s", path0, strings.Join(stdlib.Names(p.Options.Std), ", ")))
			return
		}
	} else if b, ok := p.bundled[f.Name]; ok {
		if name, src, ok = p.bundledImport(b, imp, path0); !ok {
			return
		}
	} else {
		var ok bool
		if name, src, ok = p.readImport(f.Name, imp, path0); !ok {
			return
		}
	}
	p.importDepth++
	p.AddFile(name, src, imp)
	p.importDepth--
}

// bundledDir is where a bundled file was read: the file system, the
// prefix its names are shown with, and its directory inside it.
type bundledDir struct {
	fsys   fs.FS
	prefix string
	dir    string
}

func (p *Program) noteBundled(name string, b bundledDir) {
	if p.bundled == nil {
		p.bundled = map[string]bundledDir{}
	}
	p.bundled[name] = b
}

// bundledImport reads a relative import of a bundled file (a scenario
// that imports its CSV inventory) from the file system it came from,
// inside it and with the suffix rules of any import.
func (p *Program) bundledImport(b bundledDir, imp *lang.Import, path0 string) (string, []byte, bool) {
	inner := path.Join(b.dir, path0)
	bad := ""
	switch {
	case path.IsAbs(path0) || !fs.ValidPath(inner):
		bad = "the path leaves the bundled files"
	case !strings.HasSuffix(path0, ".gpl") && !inventory.IsInventory(path0):
		bad = "only .gpl source files and .csv inventories can be imported"
	}
	src, err := fs.ReadFile(b.fsys, inner)
	if bad == "" && err != nil {
		bad = "there is no such bundled file"
	}
	if bad != "" {
		pos, end := p.pathSpan(imp)
		p.errorAt(pos, end, fmt.Sprintf("cannot import %q: %s", path0, bad))
		return "", nil, false
	}
	name := b.prefix + inner
	p.noteBundled(name, bundledDir{b.fsys, b.prefix, path.Dir(inner)})
	return name, src, !p.Loaded[name]
}

// MaxImportDepth is how deep imports may nest: a file importing one that
// imports another, and so on.
const MaxImportDepth = 64

// MaxDependencyDepth is how long a chain of references the passes follow
// at once: a declaration reading one declared after it, which reads one
// declared after that, and so on. A chain declared in the order it is read
// is followed one link at a time and has no limit.
const MaxDependencyDepth = 10_000

// MaxDeclarations is the most declarations one program may hold, its
// files and imports together (lang.DefaultMaxDeclarations). One file over
// it is refused by the parser from a scan of its tokens; the count here
// is of the program's.
const MaxDeclarations = lang.DefaultMaxDeclarations

func (p *Program) declare(v Decl) {
	if len(p.Order) >= MaxDeclarations {
		if !p.tooMany { // told once
			d := p.errorAt(v.Name.Start(), v.Name.End(), fmt.Sprintf("more than %d declarations (the limit on one program)", MaxDeclarations))
			d.Notes = []string{"hint: split the plan into files loaded on their own: no program holds more"}
			p.tooMany = true
		}
		return
	}
	if prev, ok := p.Decls[v.Name.Name]; ok {
		p.Diags = append(p.Diags, &lang.Diagnostic{
			Severity: lang.Error, Summary: v.Name.Name + " is declared twice",
			Pos: v.Name.Start(), End: v.Name.End(), Label: "declared again here",
			Related: []lang.Related{{Pos: prev.Name.Start(), End: prev.Name.End(), Label: "first declared here"}},
		})
		return
	}
	if lang.IsKeyword(v.Name.Name) {
		p.errorAt(v.Name.Start(), v.Name.End(), v.Name.Name+" is a keyword and cannot be declared")
		return
	}
	d := p.declSlab.Put(v)
	d.Slot = int32(len(p.Order))
	if d.Kind == DeclLet || d.Kind == DeclParam {
		d.ValueSlot = p.NumValues
		p.NumValues++
	}
	p.Decls[d.Name.Name] = d
	p.Order = append(p.Order, d)
	if d.Kind == DeclParam {
		p.Params = append(p.Params, d)
	}
}

// errorAt records an error found in the text (exit 2).
func (p *Program) errorAt(pos, end lang.Position, msg string) *lang.Diagnostic {
	d := &lang.Diagnostic{Severity: lang.Error, Summary: msg, Pos: pos, End: end}
	p.Diags = append(p.Diags, d)
	return d
}
