package eval

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

var update = flag.Bool("update", false, "rewrite testdata/bad/*.out from the current output")

// runtimeCases are the bad inputs whose errors arise while computing
// values (exit 3), not from the text (exit 2).
var runtimeCases = map[string]bool{
	"negative_tolerance":   true,
	"let_division_by_zero": true,
	"zero_mpg_cost":        true,
	// planning functions meet these while computing values
	"log_of_zero":              true,
	"mtbf_not_positive":        true,
	"runtime_goodput_negative": true,
	"expect_on_broken_let":     true,
	"trade_ratio_undefined":    true,
	// a sample of an uncertain file that cannot be evaluated
	"uncertain_factor_out_of_range": true,
}

// loadingCases load without error; what they show is a failed expect or a
// warning.
var loadingCases = map[string]bool{
	"negative_tolerance": true, // the expect is judged, and errs
	"expect_failure":     true,
	"shadowed_rules":     true,
	// a what-if's point that cannot be evaluated is a warning, and fails
	// the expects that read it
	"sweep_point_fails":        true,
	"solve_borders_failure":    true,
	"over_file_job_named_file": true,
}

// badOutput is what gpl prints for a file: its load diagnostics, then the
// diagnostics of the expects that fail, each rendered in plain text.
func badOutput(t *testing.T, s *Scenario, err error) (string, *Error) {
	t.Helper()
	var b strings.Builder
	var loadErr *Error
	if err != nil {
		if !errors.As(err, &loadErr) {
			t.Fatalf("error %T is not an *eval.Error: %v", err, err)
		}
		b.WriteString(renderDiagnostics(s, loadErr.Diagnostics))
	} else {
		b.WriteString(renderDiagnostics(s, s.Diagnostics()))
	}
	for _, o := range s.Test() {
		if o.Pass {
			continue
		}
		if o.Diagnostic == nil {
			t.Errorf("%s fails without a diagnostic", o.Expectation.Name())
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(renderDiagnostics(s, lang.Diagnostics{o.Diagnostic}))
	}
	return b.String(), loadErr
}

// TestBadInputs is the bad-input catalogue: testdata/bad/NAME.gpl with the
// whole expected output in NAME.out. Run with -update to rewrite the .out
// files.
func TestBadInputs(t *testing.T) {
	files, err := filepath.Glob("../testdata/bad/*.gpl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/bad/*.gpl files")
	}
	for _, file := range files {
		base := strings.TrimSuffix(filepath.Base(file), ".gpl")
		t.Run(base, func(t *testing.T) {
			name := "testdata/bad/" + base + ".gpl"
			s, err := Load(repoFS, name)
			got, loadErr := badOutput(t, s, err)

			outFile := strings.TrimSuffix(file, ".gpl") + ".out"
			if *update {
				if err := os.WriteFile(outFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(outFile)
			if err != nil {
				t.Fatalf("%v (run go test ./eval -run TestBadInputs -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("output of %s (-want +got):\n%s", name, diff)
			}

			switch {
			case loadingCases[base]:
				if loadErr != nil {
					t.Errorf("Load failed; want it to load")
				}
			case loadErr == nil:
				t.Errorf("Load succeeded; want an *eval.Error")
			case loadErr.Runtime != runtimeCases[base]:
				t.Errorf("Error.Runtime = %v, want %v", loadErr.Runtime, runtimeCases[base])
			}

			// LoadFile, on the operating system's file system, reports the
			// same, under the name it was given.
			s2, err2 := LoadFile("../" + name)
			got2, _ := badOutput(t, s2, err2)
			got2 = strings.ReplaceAll(got2, "../testdata/", "testdata/")
			if diff := cmp.Diff(got, got2); diff != "" {
				t.Errorf("LoadFile differs from Load (-Load +LoadFile):\n%s", diff)
			}
		})
	}
}
