package eval

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib"
)

// Error is what Load returns when a file cannot be evaluated: every
// diagnostic found, in source order. Runtime is true when all of them arose
// while computing values (a division by zero, an mpg of 0 used as a
// divisor) rather than from the text itself (syntax, names, dimensions,
// inputs out of range); the command line exits 3 rather than 2 for those.
type Error struct {
	Diagnostics lang.Diagnostics
	Runtime     bool
}

func (e *Error) Error() string { return e.Diagnostics.Error() }

// Options tune loading.
type Options struct {
	// FS, when set, is where the file and its relative imports are read;
	// otherwise the operating system's file system is used.
	FS fs.FS
	// Std is the bundled library that import "std/NAME" reads NAME.gpl
	// from; it defaults to stdlib.Files.
	Std fs.FS
}

// LoadFile reads, checks and evaluates the scenario in the named file. On
// failure the returned *Scenario is still usable for what did evaluate and
// the error is an *Error.
func LoadFile(name string) (*Scenario, error) {
	return loadWith(Options{}, name, nil)
}

// Load reads a scenario from fsys; imports are resolved inside fsys.
func Load(fsys fs.FS, name string) (*Scenario, error) {
	return loadWith(Options{FS: fsys}, name, nil)
}

// LoadSource evaluates source text under the given file name; relative
// imports are resolved against the name's directory on the OS file system.
func LoadSource(name string, src []byte) (*Scenario, error) {
	return loadWith(Options{}, name, src)
}

// LoadWith is Load with options; src, when non-nil, is the text of name.
func LoadWith(opts Options, name string, src []byte) (*Scenario, error) {
	return loadWith(opts, name, src)
}

func loadWith(opts Options, name string, src []byte) (*Scenario, error) {
	s := newScenario(opts)
	if src == nil {
		b, err := s.readFile(name)
		if err != nil {
			return s, &Error{Diagnostics: lang.Diagnostics{{Severity: lang.Error, Summary: err.Error()}}}
		}
		src = b
	}
	s.addFile(name, src, nil)
	s.evaluateAll()
	return s, s.err()
}

func (s *Scenario) readFile(name string) ([]byte, error) {
	var (
		b   []byte
		err error
	)
	if s.opts.FS != nil {
		b, err = fs.ReadFile(s.opts.FS, path.Clean(filepath.ToSlash(name)))
	} else {
		b, err = os.ReadFile(name)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: no such file", name)
	}
	return b, err
}

// addFile parses a file and its imports and declares their names.
func (s *Scenario) addFile(name string, src []byte, from *lang.Import) {
	if s.loaded[name] {
		return
	}
	s.loaded[name] = true
	f, diags := lang.Parse(name, src)
	s.Sources[name] = src
	s.files = append(s.files, f)
	s.diags = append(s.diags, diags...)
	for _, st := range f.Stmts {
		switch st := st.(type) {
		case *lang.Import:
			s.importFile(f, st)
		case *lang.Let:
			s.declare(&decl{kind: declLet, name: st.Name, let: st})
		case *lang.Pool:
			s.declare(&decl{kind: declPool, name: st.Name, pool: st})
		case *lang.Job:
			s.declare(&decl{kind: declJob, name: st.Name, job: st})
		case *lang.Rules:
			s.declare(&decl{kind: declRules, name: st.Name, rules: st})
			for _, r := range st.Rules {
				s.classes[r.Class.Name] = true
			}
			s.classes[st.Else.Name] = true
		case *lang.Request:
			s.declare(&decl{kind: declRequest, name: st.Name, request: st})
		case *lang.Expect:
			s.expectNodes = append(s.expectNodes, expectSite{node: st})
		}
	}
}

func (s *Scenario) importFile(f *lang.File, imp *lang.Import) {
	p, err := strconv.Unquote(imp.Path)
	if err != nil {
		s.errorAt(imp.Pos, imp.EndPos, "malformed import path")
		return
	}
	var (
		name string
		src  []byte
	)
	if lib, ok := strings.CutPrefix(p, "std/"); ok {
		name = "std/" + lib + ".gpl"
		src, err = fs.ReadFile(s.opts.Std, lib+".gpl")
		if err != nil {
			s.errorAt(imp.Pos, imp.EndPos, fmt.Sprintf("there is no bundled library %q; the bundled ones are %s", p, strings.Join(stdlib.Names(s.opts.Std), ", ")))
			return
		}
	} else {
		if s.opts.FS != nil {
			name = path.Join(path.Dir(f.Name), p)
		} else {
			name = filepath.Join(filepath.Dir(f.Name), filepath.FromSlash(p))
		}
		if s.loaded[name] {
			return
		}
		src, err = s.readFile(name)
		if err != nil {
			s.errorAt(imp.Pos, imp.EndPos, fmt.Sprintf("cannot import %q: %v", p, err))
			return
		}
	}
	s.addFile(name, src, imp)
}

func (s *Scenario) declare(d *decl) {
	if prev, ok := s.decls[d.name.Name]; ok {
		s.diags = append(s.diags, &lang.Diagnostic{
			Severity: lang.Error, Summary: d.name.Name + " is declared twice",
			Pos: d.name.Pos, End: d.name.EndPos, Label: "declared again here",
			Related: []lang.Related{{Pos: prev.name.Pos, End: prev.name.EndPos, Label: "first declared here"}},
		})
		return
	}
	if lang.IsKeyword(d.name.Name) {
		s.errorAt(d.name.Pos, d.name.EndPos, d.name.Name+" is a keyword and cannot be declared")
		return
	}
	s.decls[d.name.Name] = d
	s.order = append(s.order, d)
}

// errorAt records an error found in the text (exit 2).
func (s *Scenario) errorAt(pos, end lang.Position, msg string) *lang.Diagnostic {
	d := &lang.Diagnostic{Severity: lang.Error, Summary: msg, Pos: pos, End: end}
	s.diags = append(s.diags, d)
	return d
}

// runtimeErrorAt records an error found while computing a value (exit 3).
func (s *Scenario) runtimeErrorAt(pos, end lang.Position, msg string) *lang.Diagnostic {
	d := s.errorAt(pos, end, msg)
	s.runtime[d] = true
	return d
}

func (s *Scenario) err() error {
	s.diags.Sort()
	if !s.diags.HasErrors() {
		return nil
	}
	runtime := true
	for _, d := range s.diags {
		if d.Severity == lang.Error && !s.runtime[d] {
			runtime = false
		}
	}
	return &Error{Diagnostics: s.diags, Runtime: runtime}
}
