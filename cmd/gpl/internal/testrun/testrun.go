// Package testrun is gpl test: it finds the scenario files under the
// paths it is given, checks each one's expects and golden report as test
// cases on parallel workers, rewrites them with -update, and writes what
// it found as text, TAP, JSON or JSON Lines, a JUnit XML report, GitHub
// Actions annotations and rule coverage. The judging itself (tolerances,
// wanted units, rewrites) is eval's; this package runs and reports.
// docs/ci.md is its user's manual.
package testrun

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/scenarios"
)

// Env is what a run may touch: its arguments, streams and environment.
type Env struct {
	Args           []string
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

// Hooks are what the runner borrows from the gpl command, which owns them.
type Hooks struct {
	// Report writes the text report gpl run prints for a file that loaded,
	// as name, without the expectation tally: what a golden file holds.
	Report func(w io.Writer, name string, s *eval.Scenario)
	// WriteFile replaces a file's contents safely (a temporary file renamed
	// over it, its permissions kept, a symbolic link followed).
	WriteFile func(path string, data []byte) error
	// WriteReport writes a report (--junit): "-" is standard output, a
	// regular file is replaced whole, anything else (/dev/stdout, a FIFO)
	// is written to directly.
	WriteReport func(path string, data []byte) error
	// PrepareReport, called before the tests run, creates the missing
	// directories above the report's path, or says why it cannot.
	PrepareReport func(path string) error
	// OnPanic, deferred in each worker goroutine, reports a panic there as
	// an internal error of gpl and ends the process.
	OnPanic func()
}

// options are gpl test's flags.
type options struct {
	parallel   int
	run        *regexp.Regexp
	verbose    bool
	failfast   bool
	update     bool
	force      bool
	junit      string
	format     string
	cover      bool            // report which priority rules each file's tests made fire
	coverMin   float64         // --cover-min: fail below this percentage of rules fired; <0 when unset
	strict     bool            // warnings fail
	load       *cli.LoadFlags  // --set, --allow-imports, --max-points, --samples, --seed
	noProgress bool            // never draw the progress bar (drawn only when stderr is a terminal)
	github     bool            // GITHUB_ACTIONS=true: print workflow annotations
	ci         string          // the CI environment variable
	named      map[string]bool // files given as arguments, for which -update creates a golden
	hooks      Hooks
}

// Summary is the one-line description of gpl test, for gpl's usage.
const Summary = "run the expectations of every .gpl file under the paths (CI)"

const usage = `usage: gpl test [flags] [PATH...]

Runs the expectations of every *.gpl file under the paths (default "."), and
compares X.golden with the text report of X.gpl where one stands beside it.
Directories named testdata or vendor (Go's convention: they hold fixtures)
and hidden files and directories are skipped while walking; a path given as
an argument is always taken as is.

exit codes: 0 all pass · 1 usage · 2 parse/check error (or a warning, with --strict) · 3 runtime error · 4 an expectation failed
docs/ci.md describes the output formats, the JUnit report and the -update rule.

flags:`

// Main runs gpl test with e.Args and returns its exit code.
func Main(e *Env, h Hooks) int {
	fs := flag.NewFlagSet("gpl test", flag.ContinueOnError)
	o := options{hooks: h, coverMin: -1}
	parallel := cli.IntFlag(fs, "p", runtime.NumCPU(), 1, math.MaxInt32, "evaluate up to `N` files in parallel")
	runRE := fs.String("run", "", "run only the expectations whose name (file:line: source) matches `REGEX`")
	fs.BoolVar(&o.verbose, "v", false, "list every expectation with its status")
	fs.BoolVar(&o.failfast, "failfast", false, "stop after the first file with a failure or error")
	fs.BoolVar(&o.update, "update", false, "rewrite the wanted value of failing ≈ and == expects, and .golden files, with what was got")
	fs.BoolVar(&o.force, "force", false, "allow -update when the CI environment variable is set")
	fs.StringVar(&o.junit, "junit", "", "also write a JUnit XML report to `FILE` (- for standard output; missing directories are created)")
	fs.StringVar(&o.format, "format", "text", "output format: text, tap, json (one document) or jsonl (a JSON object per line)")
	fs.BoolVar(&o.cover, "cover", false, "report, per ruleset, which rules each file's tests made fire")
	coverMin := fs.String("cover-min", "", "with --cover, fail (exit 4) when fewer than `PERCENT` of the rules fired (0 to 100)")
	fs.BoolVar(&o.strict, "strict", false, "fail on warnings (a rule that can never fire, ...), as check errors")
	o.load = cli.AddLoadFlags(fs, true, "replace a param's value in every file: `NAME=VALUE` (repeatable)")
	fs.BoolVar(&o.noProgress, "no-progress", false, "never draw the progress bar of files done, drawn on stderr when it is a terminal")
	fs.Usage = func() {
		fmt.Fprintln(e.Stderr, usage)
		fs.PrintDefaults()
	}
	args, code, ok := cli.ParseFlags(fs, e.Args, e.Stderr)
	if !ok {
		return code
	}
	if !cli.OneOf(e.Stderr, "format", o.format, "text", "tap", "json", "jsonl") {
		return cli.ExitUsage
	}
	o.parallel = *parallel
	if *coverMin != "" {
		p, err := strconv.ParseFloat(strings.TrimSuffix(*coverMin, "%"), 64)
		if err != nil || p < 0 || p > 100 || math.IsNaN(p) {
			fmt.Fprintf(e.Stderr, "gpl test: --cover-min takes a percentage from 0 to 100, not %q\n", *coverMin)
			return cli.ExitUsage
		}
		o.coverMin, o.cover = p, true
	}
	if *runRE != "" {
		re, err := regexp.Compile(*runRE)
		if err != nil {
			fmt.Fprintf(e.Stderr, "gpl test: invalid -run pattern: %v\n", err)
			return cli.ExitUsage
		}
		o.run = re
	}
	if o.update && o.failfast {
		fmt.Fprintln(e.Stderr, "gpl test: -update visits every file; it cannot be combined with -failfast")
		return cli.ExitUsage
	}
	o.ci = e.Getenv("CI")
	if o.update && o.ci != "" && !o.force {
		fmt.Fprintf(e.Stderr, "gpl test: refusing to -update with CI=%s set: an update rewrites the expectations CI is meant to check; pass --force to update anyway\n", o.ci)
		return cli.ExitUsage
	}
	o.github = e.Getenv("GITHUB_ACTIONS") == "true"
	if len(args) == 0 {
		args = []string{"."}
	}
	files, err := findTestFiles(args)
	if err != nil {
		fmt.Fprintf(e.Stderr, "gpl test: %v\n", err)
		return cli.ExitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(e.Stderr, "gpl test: no .gpl files in %s\n", strings.Join(args, " "))
		return cli.ExitUsage
	}
	o.named = namedFiles(args)
	if o.junit != "" && h.PrepareReport != nil {
		if err := h.PrepareReport(o.junit); err != nil {
			fmt.Fprintf(e.Stderr, "gpl test: cannot write the JUnit report: %v; no test was run\n", err)
			return cli.ExitRuntime
		}
	}

	out := newTestWriter(e, &o)
	start := time.Now()
	bar := newTestProgress(o.noProgress, e.Stderr, len(files))
	results := runTestFiles(files, &o, bar.write(out.file))
	bar.finish()
	sum := summarize(results)
	cov := totalCoverage(results)
	if o.coverMin >= 0 && cov.percent() < o.coverMin {
		sum.exit = cli.Worse(sum.exit, cli.ExitExpected)
		sum.coverBelow = true
	}
	out.finish(results, sum, cov)
	worst := sum.exit
	if o.junit != "" {
		if err := writeJUnitFile(o.junit, results, time.Since(start), h.WriteReport); err != nil {
			fmt.Fprintf(e.Stderr, "gpl test: %v\n", err)
			worst = cli.Worse(worst, cli.ExitRuntime) // a failed write
		}
	}
	if o.run != nil && sum.cases == 0 && sum.loadErrors == 0 {
		fmt.Fprintf(e.Stderr, "gpl test: warning: no expectation matches -run %s\n", o.run)
	}
	return worst
}

// namedFiles are the arguments that are files rather than directories.
func namedFiles(args []string) map[string]bool {
	named := map[string]bool{}
	for _, a := range args {
		if info, err := os.Stat(a); err == nil && !info.IsDir() {
			named[filepath.Clean(a)] = true
		}
	}
	return named
}

// findTestFiles lists the .gpl files under the paths, as cli.FindFiles
// walks them.
func findTestFiles(args []string) ([]string, error) { return cli.FindFiles(args) }

// runTestFiles tests the files on o.parallel workers and hands each result
// to emit in the files' order, as soon as it and every earlier one are
// done. With -failfast, nothing after the first failing file is emitted,
// and files after it not yet started are not run.
func runTestFiles(files []string, o *options, emit func(*fileResult)) []*fileResult {
	results := make([]*fileResult, len(files))
	done := make([]chan struct{}, len(files))
	for i := range done {
		done[i] = make(chan struct{})
	}
	var next atomic.Int64
	var stop atomic.Int64 // index of the first failing file, with -failfast
	stop.Store(int64(len(files)))
	var wg sync.WaitGroup
	for range min(o.parallel, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if o.hooks.OnPanic != nil {
				defer o.hooks.OnPanic()
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				if o.failfast && int64(i) > stop.Load() {
					close(done[i])
					continue
				}
				r := testFile(files[i], o)
				results[i] = r
				if o.failfast && r.failed() {
					for {
						cur := stop.Load()
						if int64(i) >= cur || stop.CompareAndSwap(cur, int64(i)) {
							break
						}
					}
				}
				close(done[i])
			}
		}()
	}
	var emitted []*fileResult
	for i := range files {
		<-done[i]
		r := results[i]
		if r == nil {
			break // skipped by -failfast
		}
		emit(r)
		emitted = append(emitted, r)
		if o.failfast && r.failed() {
			stop.Store(int64(i))
			break
		}
	}
	wg.Wait()
	return emitted
}

// testSummary counts the outcomes of a run.
type testSummary struct {
	passed, failed, errors int
	cases                  int // test cases run, golden comparisons included
	loadErrors             int
	exit                   int
	coverBelow             bool // --cover-min was not reached
}

func summarize(results []*fileResult) testSummary {
	var s testSummary
	for _, r := range results {
		if r.loadErr != nil {
			s.errors++
			s.loadErrors++
			s.exit = cli.Worse(s.exit, r.loadExit)
			continue
		}
		if r.writeErr != nil {
			s.exit = cli.Worse(s.exit, cli.ExitRuntime)
		}
		for _, c := range r.cases {
			s.cases++
			switch c.status {
			case statusPass:
				s.passed++
			case statusFail:
				s.failed++
				if c.warning {
					s.exit = cli.Worse(s.exit, cli.ExitCheck)
				} else {
					s.exit = cli.Worse(s.exit, cli.ExitExpected)
				}
			case statusError:
				s.errors++
				s.exit = cli.Worse(s.exit, cli.ExitRuntime)
			}
		}
	}
	return s
}

// String is the summary line: "1400 passed, 600 failed", with ", 1 error"
// or ", N errors" only when there were runtime or load errors.
func (s testSummary) String() string {
	line := fmt.Sprintf("%d passed, %d failed", s.passed, s.failed)
	if s.errors > 0 {
		line += ", " + units.CountOf(float64(s.errors), "error", "errors")
	}
	return line
}

// loadOptions are the eval options the test flags give.
func (o *options) loadOptions() eval.Options {
	return o.load.Options(eval.Options{Scenarios: scenarios.Files})
}
