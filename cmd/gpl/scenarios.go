package main

import (
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/gpl-lang/gpl/scenarios"
)

func init() {
	register("scenarios", "list the bundled scenarios; gpl run NAME runs one", cmdScenarios)
}

func cmdScenarios(e *env) int {
	fs := flag.NewFlagSet("gpl scenarios", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl scenarios\n\nLists the scenarios bundled with gpl, each with its summary; gpl run NAME\nruns one, gpl test scenarios checks them all. It takes no flags.")
	}
	if _, code, ok := parseFlags(fs, e); !ok {
		return code
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, n := range scenarios.Names() {
		fmt.Fprintf(tw, "%s\t%s\n", n, scenarios.Summary(n))
	}
	tw.Flush()
	return exitOK
}
