package main

import (
	"io"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/testrun"
	"github.com/gpl-lang/gpl/eval"
)

func init() {
	register("test", testrun.Summary, cmdTest)
}

// cmdTest is gpl test: the runner in internal/testrun, with the text
// report as the golden files' contents and the command's safe writes.
func cmdTest(e *env) int {
	return testrun.Main(&testrun.Env{Args: e.args, Stdout: e.stdout, Stderr: e.stderr, Getenv: e.getenv}, testrun.Hooks{
		Report: func(w io.Writer, name string, s *eval.Scenario) {
			writeText(w, &report{file: name, s: s}) // no outcomes: no expectation tally
		},
		WriteFile:   writeFileAtomic,
		WriteReport: writeReportFile,
		OnPanic:     exitOnPanic,
	})
}
