package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	junit "github.com/joshdk/go-junit"
)

// junitSchema is Jenkins' junit-10.xsd, kept in the repository with its
// source and licence (testdata/junit/README.md).
const junitSchema = "../../testdata/junit/junit-10.xsd"

// junitSuite is a suite with every kind of case a JUnit report holds: a
// pass, failed expects, a runtime error and a file that does not load.
var junitSuite = map[string]string{
	"llama.gpl": `pool shared_h100 {
  devices = 128
  rate    = 2.50 USD/h
}
job llama2_70b on shared_h100 {
  hours    = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = 0.45 }
  expect mpg ≈ 0.282
  expect mpg ≈ 0.29
  expect best_lever == "runtime"
}
`,
	"idle.gpl": `pool p { devices = 8  rate = 2 USD/h }
job idle on p {
  hours   = 10h
  factors { S = 0.9  R = 0.9  P = 0 }
}
expect idle.cost_per_useful_hour < 5 USD/h
`,
	"typo.gpl": "let a = 1\nexpect b == 1\n",
}

// writeJUnit runs gpl test --junit on the paths, in dir, and returns the
// report's path.
func writeJUnit(t *testing.T, dir string, paths ...string) string {
	t.Helper()
	out := filepath.Join(dir, "report.xml")
	r := run(append([]string{"test", "--junit", out}, paths...)...)
	if r.Code == 5 || r.Code == 1 {
		t.Fatalf("gpl test exited %d: %s", r.Code, r.Stderr)
	}
	return out
}

// TestJUnitSchema validates the JUnit report of every bundled scenario,
// and of a suite with failures, runtime errors and load errors, against
// junit-10.xsd with xmllint (Debian's libxml2-utils; CI installs it).
func TestJUnitSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint is not installed (apt-get install libxml2-utils): the JUnit report is not validated against junit-10.xsd")
	}
	scenarios, err := filepath.Glob("../../scenarios/*.gpl")
	if err != nil || len(scenarios) == 0 {
		t.Fatalf("no bundled scenarios: %v", err)
	}
	suite := t.TempDir()
	for name, src := range junitSuite {
		if err := os.WriteFile(filepath.Join(suite, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name  string
		paths []string
	}{
		{"bundled scenarios", scenarios},
		{"failures and errors", []string{suite}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			report := writeJUnit(t, t.TempDir(), tt.paths...)
			out, err := exec.Command(xmllint, "--noout", "--schema", junitSchema, report).CombinedOutput()
			if err != nil {
				b, _ := os.ReadFile(report)
				t.Fatalf("xmllint --schema junit-10.xsd: %v\n%s\nthe report:\n%s", err, out, b)
			}
		})
	}
}

// TestJUnitReadBack reads the report of the suite with failures and
// errors back with go-junit, a parser CI tools use, and checks what it
// finds: every case, its status, and the place in its message.
func TestJUnitReadBack(t *testing.T) {
	dir := t.TempDir()
	for name, src := range junitSuite {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	suites, err := junit.IngestFile(writeJUnit(t, dir, "."))
	if err != nil {
		t.Fatal(err)
	}
	type testCase struct {
		Suite, Classname, Name string
		Status                 junit.Status
		Message                string
	}
	var got []testCase
	for _, s := range suites {
		for _, c := range s.Tests {
			got = append(got, testCase{s.Name, c.Classname, c.Name, c.Status, c.Message})
		}
	}
	want := []testCase{
		{"idle.gpl", "idle.gpl", "idle.gpl:6: expect idle.cost_per_useful_hour < 5 USD/h", junit.StatusError,
			"idle.gpl:6:8: cost_per_useful_hour of job idle is undefined: its mpg is 0"},
		{"llama.gpl", "llama.gpl", "llama.gpl:9: expect mpg ≈ 0.282", junit.StatusPassed, ""},
		{"llama.gpl", "llama.gpl", "llama.gpl:10: expect mpg ≈ 0.29", junit.StatusFailed,
			"llama.gpl:10:10: expectation failed: got 0.28215, want 0.29 ± 0.005 (off by 0.00785)"},
		{"llama.gpl", "llama.gpl", `llama.gpl:11: expect best_lever == "runtime"`, junit.StatusFailed,
			`llama.gpl:11:10: expectation failed: got "program", want "runtime"`},
		{"typo.gpl", "typo.gpl", "typo.gpl", junit.StatusError, "typo.gpl:2:8: does not load"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the JUnit report read back by go-junit (-want +got):\n%s", diff)
	}
}
