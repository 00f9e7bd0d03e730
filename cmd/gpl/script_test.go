package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gpl-lang/gpl/testdata/pipewatch"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the gpl command inside scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gpl": func() { os.Exit(runMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)) },
	})
}

var updateScripts = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar with what the commands print")

// TestScripts runs every testdata/script/*.txtar: each is a command-line
// session with the exact output expected.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "../../testdata/script",
		UpdateScripts: *updateScripts,
		Setup: func(env *testscript.Env) error {
			if raceEnabled {
				env.Setenv("GORACE", childGORACE())
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":     cmdExits,
			"untime":    cmdUntime,
			"watchfifo": cmdWatchFIFO,
			"unopened":  cmdUnopened,
		},
	})
}

// childGORACE is GORACE for the gpl processes a test starts, which are
// the test binary again: as set for the test, but with no pause at exit.
// The race detector otherwise waits a second before each process ends
// (atexit_sleep_ms=1000), most of the time a script takes.
func childGORACE() string {
	v := os.Getenv("GORACE")
	if strings.Contains(v, "atexit_sleep_ms=") {
		return v
	}
	return strings.TrimSpace(v + " atexit_sleep_ms=0")
}

// timings matches the measured times in reports: JUnit time="0.012" and
// JSON "duration":0.000123 (or "duration": 0.000123, indented).
var timings = regexp.MustCompile(`time="[0-9.]+"|"duration": ?[0-9.e-]+`)

// cmdUntime rewrites the files named so that every measured time reads 0:
// untime FILE...
func cmdUntime(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! untime")
	}
	for _, name := range args {
		p := ts.MkAbs(name)
		b, err := os.ReadFile(p)
		ts.Check(err)
		b = timings.ReplaceAllFunc(b, func(m []byte) []byte {
			if m[0] == 't' {
				return []byte(`time="0"`)
			}
			if bytes.Contains(m, []byte(" ")) {
				return []byte(`"duration": 0`)
			}
			return []byte(`"duration":0`)
		})
		ts.Check(os.WriteFile(p, b, 0o666))
	}
}

// cmdExits runs a program, as exec does, and checks its exit code:
// exits CODE PROGRAM [ARGS...]
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// pipeWatches are the named pipes watchfifo watches, by absolute path
// (each script has a directory of its own).
var pipeWatches sync.Map // string → *pipewatch.Watch

// cmdWatchFIFO starts watching named pipes for a reader:
// watchfifo FILE...
// A program that opens one of them while it is watched does not wait on
// it: it reads it as empty.
func cmdWatchFIFO(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: watchfifo FILE...")
	}
	for _, name := range args {
		p := ts.MkAbs(name)
		w, err := pipewatch.Start(p)
		ts.Check(err)
		if _, dup := pipeWatches.LoadOrStore(p, w); dup {
			ts.Fatalf("watchfifo %s: already watched", name)
		}
		ts.Defer(func() {
			w.Stop()
			pipeWatches.Delete(p)
		})
	}
}

// cmdUnopened ends the watch of named pipes and checks that nothing
// opened them since watchfifo: unopened FILE...
func cmdUnopened(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: unopened FILE...")
	}
	for _, name := range args {
		v, ok := pipeWatches.Load(ts.MkAbs(name))
		if !ok {
			ts.Fatalf("unopened %s: not watched (watchfifo first)", name)
		}
		opened, err := v.(*pipewatch.Watch).Stop()
		ts.Check(err)
		if opened {
			ts.Fatalf("%s was opened for reading", name)
		}
	}
}
