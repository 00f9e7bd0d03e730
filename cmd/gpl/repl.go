package main

import "github.com/gpl-lang/gpl/cmd/gpl/internal/repl"

func init() {
	register("repl", "interactive session: declare, evaluate and explain, line by line", cmdRepl)
}

// cmdRepl runs the REPL, which lives in its own package; it writes files
// and job reports through the command's own functions.
func cmdRepl(e *env) int {
	return repl.Run(repl.Config{
		Args:      e.args,
		Stdin:     e.stdin,
		Stdout:    e.stdout,
		Stderr:    e.stderr,
		Getenv:    e.getenv,
		WriteFile: writeFileAtomic,
		WriteJob:  writeJob,
	})
}
