package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	suiteFiles        = 200
	suiteExpects      = 10 // per file
	suiteFailsPerFile = 3
)

// suiteJob is the inputs of one generated file's job.
type suiteJob struct {
	devices, hours    int
	s, r, p           float64
	sCeil, rCeil, pCe float64
}

func suiteJobFor(i int) suiteJob {
	return suiteJob{
		devices: 8 * (1 + i%16), hours: 24 * (1 + i%30),
		s: 0.90 + float64(i%5)/100, r: 0.85 + float64(i%7)/100, p: 0.30 + float64(i%11)/100,
		sCeil: 0.98, rCeil: 0.97, pCe: 0.45,
	}
}

func (j suiteJob) mpg() float64          { return j.s * j.r * j.p }
func (j suiteJob) offeredHours() float64 { return float64(j.devices * j.hours) }
func (j suiteJob) cost() float64         { return j.offeredHours() * 2.5 }
func (j suiteJob) usefulHours() float64  { return j.offeredHours() * j.mpg() }

// suiteFile is generated file i: seven expects that hold and three that do
// not (a ≈ at the written precision, an ==, and a ≈ with a tolerance
// tighter than its written precision), or with fixed set, the three as
// gpl test -update should rewrite them.
func suiteFile(i int, fixed bool) string {
	j := suiteJobFor(i)
	var b strings.Builder
	fmt.Fprintf(&b, "# Generated suite file %d.\n", i)
	fmt.Fprintf(&b, "pool pool_%d {\n  devices = %d\n  rate    = 2.50 USD/h\n}\n\n", i, j.devices)
	fmt.Fprintf(&b, "job job_%d on pool_%d {\n  hours    = %dh\n", i, i, j.hours)
	fmt.Fprintf(&b, "  factors  { scheduling = %.2f  runtime = %.2f  program = %.2f }\n", j.s, j.r, j.p)
	fmt.Fprintf(&b, "  ceilings { scheduling = %.2f  runtime = %.2f  program = %.2f }\n", j.sCeil, j.rCeil, j.pCe)
	fmt.Fprintf(&b, "  expect mpg ≈ %.6f\n", j.mpg())
	fmt.Fprintf(&b, "  expect badput ≈ %.6f   # 1 − mpg\n", 1-j.mpg())
	fmt.Fprintf(&b, "  expect offered_hours ≈ %dh\n", j.devices*j.hours)
	fmt.Fprintf(&b, "  expect useful_hours > 0h\n")
	fmt.Fprintf(&b, "  expect cost ≈ $%.2f\n", j.cost())
	fmt.Fprintf(&b, "  expect loss.scheduling ≈ %.2f\n", 1-j.s)
	fmt.Fprintf(&b, "  expect mpg <= ceiling_mpg\n")
	if fixed {
		fmt.Fprintf(&b, "  expect mpg ≈ %.3f          # stale\n", j.mpg())
		fmt.Fprintf(&b, "  expect cost == $%s\n", strconv.FormatFloat(j.cost(), 'f', -1, 64))
		fmt.Fprintf(&b, "  expect useful_hours ≈ %sh ± 0.001h\n", tightLiteral(j.usefulHours(), 0.001))
	} else {
		fmt.Fprintf(&b, "  expect mpg ≈ %.3f          # stale\n", j.mpg()+0.1)
		fmt.Fprintf(&b, "  expect cost == $1\n")
		fmt.Fprintf(&b, "  expect useful_hours ≈ 1h ± 0.001h\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// tightLiteral writes v with as few decimals as bring it within tol.
func tightLiteral(v, tol float64) string {
	for d := 0; ; d++ {
		s := strconv.FormatFloat(v, 'f', d, 64)
		w, _ := strconv.ParseFloat(s, 64)
		if math.Abs(w-v) <= tol {
			return s
		}
	}
}

func writeSuite(tb testing.TB, dir string, files int) {
	tb.Helper()
	for i := range files {
		name := filepath.Join(dir, fmt.Sprintf("plan_%03d.gpl", i))
		if err := os.WriteFile(name, []byte(suiteFile(i, false)), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// gplRun runs the command in-process, with no environment variables set.
func gplRun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runMain(args, strings.NewReader(""), &out, &errb, func(string) string { return "" })
	return code, out.String(), errb.String()
}

func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	return files
}

// TestSuite200 runs gpl test over a generated suite of 200 files with 10
// expects each, 3 of them failing, and counts the failures in every
// output format; then -update makes the suite pass, and a second -update
// changes nothing.
func TestSuite200(t *testing.T) {
	files := suiteFiles
	if raceEnabled {
		files = suiteFiles / 10
		t.Logf("race detector on: %d files", files)
	}
	dir := t.TempDir()
	writeSuite(t, dir, files)
	wantFailed := files * suiteFailsPerFile
	wantPassed := files*suiteExpects - wantFailed

	t.Run("text", func(t *testing.T) {
		code, stdout, stderr := gplRun("test", dir)
		if code != exitExpected {
			t.Errorf("exit code %d, want %d", code, exitExpected)
		}
		if diff := cmp.Diff(fmt.Sprintf("%d passed, %d failed\n", wantPassed, wantFailed), stdout); diff != "" {
			t.Errorf("stdout (-want +got):\n%s", diff)
		}
		if n := strings.Count(stderr, "error: expectation failed\n"); n != wantFailed {
			t.Errorf("%d failure diagnostics on stderr, want %d", n, wantFailed)
		}
	})

	t.Run("junit", func(t *testing.T) {
		report := filepath.Join(t.TempDir(), "report.xml")
		if code, _, _ := gplRun("test", "--junit", report, dir); code != exitExpected {
			t.Errorf("exit code %d, want %d", code, exitExpected)
		}
		b, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Suites   []struct {
				Name     string `xml:"name,attr"`
				Failures int    `xml:"failures,attr"`
				Cases    []struct {
					Classname string `xml:"classname,attr"`
					Name      string `xml:"name,attr"`
					Failure   *struct {
						Message string `xml:"message,attr"`
						Text    string `xml:",chardata"`
					} `xml:"failure"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		failures, cases := 0, 0
		for _, s := range got.Suites {
			perSuite := 0
			for _, c := range s.Cases {
				cases++
				if c.Classname != s.Name || !strings.HasPrefix(c.Name, s.Name+":") {
					t.Errorf("testcase %q of class %q in suite %q", c.Name, c.Classname, s.Name)
				}
				if c.Failure != nil {
					perSuite++
					if !strings.HasPrefix(c.Failure.Message, c.Name[:strings.Index(c.Name, ": ")]+":10: expectation failed: got ") || strings.Contains(c.Failure.Message, "\n") || !strings.HasPrefix(c.Failure.Text, "error: expectation failed\n") {
						t.Errorf("failure of %s: message %q, text %q", c.Name, c.Failure.Message, c.Failure.Text)
					}
				}
			}
			if perSuite != s.Failures {
				t.Errorf("suite %s counts %d failures, has %d", s.Name, s.Failures, perSuite)
			}
			failures += perSuite
		}
		if diff := cmp.Diff([4]int{files, files * suiteExpects, wantFailed, wantFailed},
			[4]int{len(got.Suites), cases, failures, got.Failures}); diff != "" {
			t.Errorf("[suites cases failures failures-attribute] (-want +got):\n%s", diff)
		}
		if got.Tests != cases {
			t.Errorf("tests attribute %d, want %d", got.Tests, cases)
		}
	})

	t.Run("tap", func(t *testing.T) {
		code, stdout, _ := gplRun("test", "--format", "tap", dir)
		if code != exitExpected {
			t.Errorf("exit code %d, want %d", code, exitExpected)
		}
		counts := map[string]int{}
		sc := bufio.NewScanner(strings.NewReader(stdout))
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "ok "):
				counts["ok"]++
			case strings.HasPrefix(line, "not ok "):
				counts["not ok"]++
			case line == "TAP version 13", strings.HasPrefix(line, "1.."):
				counts[line]++
			}
		}
		want := map[string]int{"ok": wantPassed, "not ok": wantFailed, "TAP version 13": 1, fmt.Sprintf("1..%d", wantPassed+wantFailed): 1}
		if diff := cmp.Diff(want, counts); diff != "" {
			t.Errorf("TAP lines (-want +got):\n%s", diff)
		}
	})

	t.Run("json", func(t *testing.T) {
		code, stdout, stderr := gplRun("test", "--format", "json", dir)
		if code != exitExpected {
			t.Errorf("exit code %d, want %d", code, exitExpected)
		}
		var doc struct {
			Cases []struct {
				Status string `json:"status"`
			} `json:"cases"`
			Summary struct {
				Passed, Failed, Errors, Exit int
			} `json:"summary"`
		}
		dec := json.NewDecoder(strings.NewReader(stdout))
		if err := dec.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		if dec.More() {
			t.Errorf("more than one JSON document on stdout")
		}
		counts := map[string]int{}
		for _, c := range doc.Cases {
			counts[c.Status]++
		}
		if diff := cmp.Diff(map[string]int{"pass": wantPassed, "fail": wantFailed}, counts); diff != "" {
			t.Errorf("statuses (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([4]int{wantPassed, wantFailed, 0, exitExpected}, [4]int{doc.Summary.Passed, doc.Summary.Failed, doc.Summary.Errors, doc.Summary.Exit}); diff != "" {
			t.Errorf("summary [passed failed errors exit] (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(fmt.Sprintf("%d passed, %d failed\n", wantPassed, wantFailed), stderr); diff != "" {
			t.Errorf("stderr (-want +got):\n%s", diff)
		}
	})

	t.Run("jsonl", func(t *testing.T) {
		code, stdout, stderr := gplRun("test", "--format", "jsonl", dir)
		if code != exitExpected {
			t.Errorf("exit code %d, want %d", code, exitExpected)
		}
		counts := map[string]int{}
		dec := json.NewDecoder(strings.NewReader(stdout))
		for {
			var c struct {
				Status string `json:"status"`
			}
			if err := dec.Decode(&c); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			counts[c.Status]++
		}
		if diff := cmp.Diff(map[string]int{"pass": wantPassed, "fail": wantFailed}, counts); diff != "" {
			t.Errorf("statuses (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(fmt.Sprintf("%d passed, %d failed\n", wantPassed, wantFailed), stderr); diff != "" {
			t.Errorf("stderr (-want +got):\n%s", diff)
		}
	})

	t.Run("update", func(t *testing.T) {
		code, stdout, stderr := gplRun("test", "-update", dir)
		if code != exitOK {
			t.Fatalf("exit code %d, want 0; stderr:\n%s", code, stderr)
		}
		if n := strings.Count("\n"+stdout, "\nupdated "); n != wantFailed {
			t.Errorf("%d updates reported, want %d", n, wantFailed)
		}
		if !strings.HasSuffix(stdout, fmt.Sprintf("\n%d passed, 0 failed\n", wantPassed+wantFailed)) {
			t.Errorf("stdout does not end with the passing summary:\n%s", stdout[max(0, len(stdout)-200):])
		}
		updated := readDir(t, dir)
		for i := range files {
			name := fmt.Sprintf("plan_%03d.gpl", i)
			if diff := cmp.Diff(suiteFile(i, true), updated[name]); diff != "" {
				t.Fatalf("%s after -update (-want +got):\n%s", name, diff)
			}
		}
		code, stdout, _ = gplRun("test", "-update", dir)
		if code != exitOK || stdout != fmt.Sprintf("%d passed, 0 failed\n", wantPassed+wantFailed) {
			t.Errorf("second -update: exit %d, stdout %q", code, stdout)
		}
		if diff := cmp.Diff(updated, readDir(t, dir)); diff != "" {
			t.Errorf("the second -update changed files (-first +second):\n%s", diff)
		}
	})
}

// BenchmarkTestSuite200 runs gpl test over the 200-file suite, 600 of its
// 2000 expects failing, with output discarded.
func BenchmarkTestSuite200(b *testing.B) {
	dir := b.TempDir()
	writeSuite(b, dir, suiteFiles)
	b.ReportAllocs()
	for b.Loop() {
		code := runMain([]string{"test", dir}, strings.NewReader(""), io.Discard, io.Discard, func(string) string { return "" })
		if code != exitExpected {
			b.Fatalf("exit code %d", code)
		}
	}
}
