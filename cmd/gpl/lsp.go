package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/lsp"
	"github.com/gpl-lang/gpl/scenarios"
)

func init() {
	register("lsp", "the language server for editors: diagnostics, values on hover and inline, completion, rename, quick fixes (stdio)", cmdLSP)
}

func cmdLSP(e *env) int {
	fset := flag.NewFlagSet("gpl lsp", flag.ContinueOnError)
	debounce := fset.Duration("debounce", 10*time.Millisecond, "how long after a change the document is checked again")
	fset.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl lsp [--debounce=10ms]")
		fmt.Fprintln(e.stderr, "Speaks the Language Server Protocol on standard input and output; an editor starts it (docs/editors).")
		fset.PrintDefaults()
	}
	args, code, ok := parseFlags(fset, e)
	if !ok {
		return code
	}
	if len(args) > 0 {
		fset.Usage()
		return exitUsage
	}
	if err := lsp.Serve(e.stdin, e.stdout, lsp.Config{Scenarios: scenarios.Files, Debounce: *debounce, Log: e.stderr}); err != nil {
		fmt.Fprintln(e.stderr, "gpl lsp:", err)
		return exitRuntime
	}
	return exitOK
}
