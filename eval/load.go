package eval

import (
	"bytes"
	"io/fs"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib"
)

// LoadFile reads, checks and evaluates the scenario in the named file. On
// failure the returned *Scenario is still usable for what did evaluate and
// the error is an *Error.
func LoadFile(name string) (*Scenario, error) {
	return loadWith(Options{}, name, nil)
}

// Load reads a scenario from fsys; relative imports are resolved inside
// fsys, in the directory tree of name (see Options.AllowImports).
func Load(fsys fs.FS, name string) (*Scenario, error) {
	return loadWith(Options{FS: fsys}, name, nil)
}

// LoadSource evaluates source text under the given file name; relative
// imports are resolved against the name's directory on the OS file system.
// The scenario keeps a copy of src: the caller may reuse its buffer.
func LoadSource(name string, src []byte) (*Scenario, error) {
	return loadWith(Options{}, name, src)
}

// LoadWith is Load with options; src, when non-nil, is the text of name,
// copied as by LoadSource.
func LoadWith(opts Options, name string, src []byte) (*Scenario, error) {
	return loadWith(opts, name, src)
}

// LoadLibrary loads every bundled library file (std/NAME, from
// opts.Std or stdlib.Files) as if one file imported them all: what
// gpl classify reads its rulesets from when no file is given.
func LoadLibrary(opts Options) (s *Scenario, err error) {
	defer recoverLoad(opts, &s, &err)
	p := check.NewProgram(opts)
	for _, lib := range stdlib.Names(p.Options.Std) {
		path0, _ := strconv.Unquote(lib) // "std/NAME"
		path0 += ".gpl"
		src, err := fs.ReadFile(p.Options.Std, strings.TrimPrefix(path0, "std/"))
		if err != nil {
			s := &Scenario{p: p, readErr: &Error{Diagnostics: lang.Diagnostics{{Severity: lang.Error, Summary: err.Error()}}}}
			return s, s.readErr
		}
		p.AddFile(path0, src, nil)
	}
	p.Check()
	s = evaluate(p, nil)
	return s, s.err()
}

func loadWith(opts Options, name string, src []byte) (s *Scenario, err error) {
	defer recoverLoad(opts, &s, &err)
	p := check.NewProgram(opts)
	if src == nil {
		b, err := p.ReadFile(name)
		if err != nil {
			s := &Scenario{p: p, readErr: &Error{Diagnostics: lang.Diagnostics{check.ReadError(name, err)}}}
			return s, s.readErr
		}
		src = b
	} else {
		// The caller keeps its buffer; the program reads its own copy in
		// place, as it does the files it reads itself.
		src = bytes.Clone(src)
	}
	p.AddFile(name, src, nil)
	p.Check()
	s = evaluate(p, nil)
	return s, s.err()
}

// err is the load's error: every diagnostic of the program and of this
// evaluation, when any is an error.
// Err is the scenario's load error, as Load returned it (nil when every
// diagnostic is a warning): an *Error, or the error that kept its file
// from being read.
func (s *Scenario) Err() error { return s.err() }

func (s *Scenario) err() error {
	if s.readErr != nil {
		return s.readErr
	}
	all := s.Diagnostics()
	if !all.HasErrors() {
		return nil
	}
	return &Error{Diagnostics: all, Runtime: allRunning(all)}
}
