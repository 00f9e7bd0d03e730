package eval

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpl-lang/gpl/lang"
)

// FuzzLoad loads arbitrary bytes as a scenario: whatever the input, Load
// returns a scenario and at most an *Error, never panics, and everything it
// returns can be rendered, tested and queried.
//
// Imports are read from the repository through an fs.FS rather than the
// operating system: that is LoadSource's code path, but a generated
// import "../../../dev/zero" cannot leave the repository and read forever.
func FuzzLoad(f *testing.F) {
	for _, glob := range []string{"../testdata/lang/*.gpl", "../testdata/bad/*.gpl", "../scenarios/*.gpl", "../stdlib/*.gpl"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Add([]byte("let a = ((((1))))\nexpect a ≈ 1 ± 0 within 0%\n"))
	f.Add([]byte("request r { priority = 255  sla_deadline = 0ms }\nrules q { when has(sla_deadline) and not (flops > 1e300 FLOP) -> a\n else b }\nexpect classify(q, r) == a\n"))

	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := LoadWith(Options{FS: repoFS}, "testdata/fuzz.gpl", src)
		if s == nil {
			t.Fatalf("Load returned no scenario (error %v)", err)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load returned %T, want *eval.Error: %v", err, err)
			}
			if !e.Diagnostics.HasErrors() {
				t.Fatalf("*eval.Error without an error diagnostic: %v", e)
			}
			e.Diagnostics.RenderAll(io.Discard, s.Sources(), lang.Style{})
			_ = e.Error()
		} else if s.Diagnostics().HasErrors() {
			t.Fatalf("Load succeeded with error diagnostics: %v", s.Diagnostics())
		}
		s.Diagnostics().RenderAll(io.Discard, s.Sources(), lang.Style{Color: true})

		for _, o := range s.Test() {
			// After a failed load, an expect that reads a declaration with
			// errors fails without a diagnostic of its own: the load's
			// diagnostics already say why.
			if !o.Pass && o.Diagnostic == nil && err == nil {
				t.Fatalf("%s fails without a diagnostic", o.Expectation.Name())
			}
			if o.Diagnostic != nil {
				o.Diagnostic.Render(io.Discard, s.Sources(), lang.Style{})
			}
		}
		for _, j := range s.Jobs() {
			for _, name := range ResultNames() {
				if v, err := j.Get(name); err == nil {
					_ = v.String()
				}
			}
		}
		for _, n := range s.Names() {
			if v, err := s.Value(n[0]); err == nil {
				_ = v.Precise(nil)
			}
		}
		for _, p := range s.Pools() {
			for _, v := range p.Fields {
				_ = v.String()
			}
		}
		for _, l := range s.Lets() {
			_ = l.Value.String()
		}
	})
}
