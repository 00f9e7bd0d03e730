package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func init() {
	register("test", "run the expectations of every .gpl file under the paths (CI)", cmdTest)
}

// testOptions are gpl test's flags.
type testOptions struct {
	parallel int
	run      *regexp.Regexp
	verbose  bool
	failfast bool
	update   bool
	force    bool
	junit    string
	format   string
	cover    bool // report which priority rules each file's tests made fire
	sets     settings
	github   bool // GITHUB_ACTIONS=true: print workflow annotations

	noProgress bool // never draw the progress bar (drawn only when stderr is a terminal)
}

const testUsage = `usage: gpl test [flags] [PATH...]

Runs the expectations of every *.gpl file under the paths (default "."), and
compares X.golden with the text report of X.gpl where one stands beside it.
Directories named testdata/bad and hidden files and directories are skipped
while walking; a path given as an argument is always taken as is.

exit codes: 0 all pass · 1 usage · 2 parse/check error · 3 runtime error · 4 an expectation failed
docs/ci.md describes the output formats, the JUnit report and the -update rule.

flags:`

func cmdTest(e *env) int {
	fs := flag.NewFlagSet("gpl test", flag.ContinueOnError)
	var o testOptions
	fs.IntVar(&o.parallel, "p", runtime.NumCPU(), "evaluate up to `N` files in parallel")
	runRE := fs.String("run", "", "run only the expectations whose name (file:line: source) matches `REGEX`")
	fs.BoolVar(&o.verbose, "v", false, "list every expectation with its status")
	fs.BoolVar(&o.failfast, "failfast", false, "stop after the first file with a failure or error")
	fs.BoolVar(&o.update, "update", false, "rewrite the wanted value of failing ≈ and == expects, and .golden files, with what was got")
	fs.BoolVar(&o.force, "force", false, "allow -update when the CI environment variable is set")
	fs.StringVar(&o.junit, "junit", "", "also write a JUnit XML report to `FILE`")
	fs.StringVar(&o.format, "format", "text", "output format: text, tap or json")
	fs.BoolVar(&o.cover, "cover", false, "report, per ruleset, which rules each file's tests made fire")
	fs.BoolVar(&o.noProgress, "no-progress", false, "never draw the progress bar of files done, drawn on stderr when it is a terminal")
	fs.Var(&o.sets, "set", "replace a param's value in every file: `NAME=VALUE` (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, testUsage)
		fs.PrintDefaults()
	}
	args, code, ok := parseFlags(fs, e)
	if !ok {
		return code
	}
	if !oneOf(e, "format", o.format, "text", "tap", "json") {
		return exitUsage
	}
	if o.parallel < 1 {
		fmt.Fprintf(e.stderr, "gpl test: -p must be at least 1, not %d\n", o.parallel)
		return exitUsage
	}
	if *runRE != "" {
		re, err := regexp.Compile(*runRE)
		if err != nil {
			fmt.Fprintf(e.stderr, "gpl test: invalid -run pattern: %v\n", err)
			return exitUsage
		}
		o.run = re
	}
	if o.update && o.failfast {
		fmt.Fprintln(e.stderr, "gpl test: -update visits every file; it cannot be combined with -failfast")
		return exitUsage
	}
	if o.update && e.getenv("CI") != "" && !o.force {
		fmt.Fprintf(e.stderr, "gpl test: refusing to -update with CI=%s set: an update rewrites the expectations CI is meant to check; pass --force to update anyway\n", e.getenv("CI"))
		return exitUsage
	}
	o.github = e.getenv("GITHUB_ACTIONS") == "true"
	if len(args) == 0 {
		args = []string{"."}
	}
	files, err := findTestFiles(args)
	if err != nil {
		fmt.Fprintf(e.stderr, "gpl test: %v\n", err)
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(e.stderr, "gpl test: no .gpl files in %s\n", strings.Join(args, " "))
		return exitUsage
	}

	out := newTestWriter(e, &o)
	start := time.Now()
	bar := newTestProgress(o.noProgress, e.stderr, len(files))
	results := runTestFiles(files, &o, bar.write(out.file))
	bar.finish()
	sum := summarize(results)
	out.finish(results, sum)
	worst := sum.exit
	if o.junit != "" {
		if err := writeJUnitFile(o.junit, results, time.Since(start)); err != nil {
			fmt.Fprintf(e.stderr, "gpl test: %v\n", err)
			worst = worse(worst, exitUsage)
		}
	}
	if o.run != nil && sum.cases == 0 && sum.loadErrors == 0 {
		fmt.Fprintf(e.stderr, "gpl test: warning: no expectation matches -run %s\n", o.run)
	}
	return worst
}

// findTestFiles lists the .gpl files under the paths, sorted and without
// duplicates. A file argument is taken as is; below a directory argument,
// hidden files and directories and directories named testdata/bad are
// skipped.
func findTestFiles(args []string) ([]string, error) {
	seen := map[string]bool{}
	var files []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			if os.IsNotExist(err) {
				return nil, fmt.Errorf("%s: no such file or directory", arg)
			}
			return nil, err
		}
		if !info.IsDir() {
			add(filepath.Clean(arg))
			continue
		}
		root := filepath.Clean(arg)
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p != root && skipWalk(p, d) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".gpl") {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

// skipWalk reports whether the walk leaves p out: hidden entries (editor
// and tool state, gpl's own temporary files) and the bad-input catalogue
// testdata/bad, whose files fail on purpose.
func skipWalk(p string, d fs.DirEntry) bool {
	if strings.HasPrefix(d.Name(), ".") {
		return true
	}
	return d.IsDir() && d.Name() == "bad" && filepath.Base(filepath.Dir(p)) == "testdata"
}

// runTestFiles tests the files on o.parallel workers and hands each result
// to emit in the files' order, as soon as it and every earlier one are
// done. With -failfast, nothing after the first failing file is emitted,
// and files after it not yet started are not run.
func runTestFiles(files []string, o *testOptions, emit func(*fileResult)) []*fileResult {
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
}

func summarize(results []*fileResult) testSummary {
	var s testSummary
	for _, r := range results {
		if r.loadErr != nil {
			s.errors++
			s.loadErrors++
			s.exit = worse(s.exit, r.loadExit)
			continue
		}
		for _, c := range r.cases {
			s.cases++
			switch c.status {
			case statusPass:
				s.passed++
			case statusFail:
				s.failed++
				s.exit = worse(s.exit, exitExpected)
			case statusError:
				s.errors++
				s.exit = worse(s.exit, exitRuntime)
			}
		}
	}
	return s
}

// String is the summary line: "1400 passed, 600 failed", with ", N errors"
// only when there were runtime or load errors.
func (s testSummary) String() string {
	line := fmt.Sprintf("%d passed, %d failed", s.passed, s.failed)
	if s.errors > 0 {
		line += fmt.Sprintf(", %d errors", s.errors)
	}
	return line
}
