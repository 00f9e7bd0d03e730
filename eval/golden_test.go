package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpl-lang/gpl/lang"
)

// repoFS is the repository root, so that file names in diagnostics read
// as they do from there: testdata/lang/units.gpl.
var repoFS = os.DirFS("..")

// renderDiagnostics is the plain-text rendering of diagnostics, as gpl
// prints them.
func renderDiagnostics(s *Scenario, ds lang.Diagnostics) string {
	var b strings.Builder
	var src lang.Sources
	if s != nil {
		src = s.Sources
	}
	ds.RenderAll(&b, src, lang.Style{})
	return b.String()
}

// TestGolden loads every testdata/lang/*.gpl: each is a valid scenario
// whose expects must all pass.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/lang/*.gpl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/lang/*.gpl files")
	}
	for _, file := range files {
		base := filepath.Base(file)
		t.Run(strings.TrimSuffix(base, ".gpl"), func(t *testing.T) {
			t.Parallel()
			s, err := Load(repoFS, "testdata/lang/"+base)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("Load: %v", err)
				}
				t.Fatalf("Load failed:\n%s", renderDiagnostics(s, e.Diagnostics))
			}
			if ds := s.Diagnostics(); len(ds) > 0 {
				t.Errorf("unexpected warnings:\n%s", renderDiagnostics(s, ds))
			}
			outcomes := s.Test()
			if len(outcomes) == 0 {
				t.Fatal("no expectations")
			}
			for _, o := range outcomes {
				if o.Pass && !o.Err && o.Diagnostic == nil {
					continue
				}
				msg := "(no diagnostic)"
				if o.Diagnostic != nil {
					msg = renderDiagnostics(s, lang.Diagnostics{o.Diagnostic})
				}
				t.Errorf("%s: pass %v, err %v\n%s", o.Expectation.Name, o.Pass, o.Err, msg)
			}
			if n := countExpects(s.Files()[0]); n != len(outcomes) {
				t.Errorf("the file has %d expect statements but %d outcomes", n, len(outcomes))
			}
		})
	}
}

// countExpects counts the expect statements of a file, those inside job
// blocks included.
func countExpects(f *lang.File) int {
	n := 0
	for _, st := range f.Stmts {
		switch st := st.(type) {
		case *lang.Expect:
			n++
		case *lang.Job:
			for _, it := range st.Items {
				if _, ok := it.(*lang.Expect); ok {
					n++
				}
			}
		}
	}
	return n
}
