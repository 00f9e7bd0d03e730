package main

import (
	"io"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/testrun"
	"github.com/gpl-lang/gpl/eval"
	model "github.com/gpl-lang/gpl/eval/report"
)

func init() {
	register("test", testrun.Summary, cmdTest)
}

// cmdTest is gpl test: the runner in internal/testrun, with the text
// report as the golden files' contents and the command's safe writes.
func cmdTest(e *env) int {
	return testrun.Main(&testrun.Env{Args: e.args, Stdout: e.stdout, Stderr: e.stderr, Getenv: e.getenv}, testrun.Hooks{
		Report: func(w io.Writer, name string, s *eval.Scenario) {
			f := model.Outline(s) // not judged: no expectation tally
			f.File = name
			writeText(w, &report{s: s, f: f})
		},
		WriteFile: writeFileAtomic,
		WriteReport: func(path string, data []byte) error {
			// What the run printed goes first: the report may be
			// standard output itself (--junit - or /dev/stdout).
			return writeOutput(e.stdout, path, data)
		},
		PrepareReport: func(path string) error { return prepareOutput(path) },
		OnPanic:       exitOnPanic,
	})
}
