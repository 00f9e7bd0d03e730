// Command alternate runs commands in turn, one run of each per round,
// and prints for each the median and the range of its CPU time (user +
// system, from the kernel's accounting of the child) over the rounds.
// Running the commands alternately, rather than all runs of one and then
// all of the next as hyperfine does, spreads a noisy spell of a shared
// machine over every command instead of one:
//
//	go run ./testdata/bench/alternate -n 15 './gpl classify --rules kapsl req1000000.jsonl' './handclassify req1000000.jsonl'
//
// A command is split on spaces (no shell: no quotes, no redirection); its
// standard output goes to the null device, as with > /dev/null, and its
// standard error is shown. The first
// round is a warm-up and is not counted.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 15, "rounds counted (after one warm-up round)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: alternate [-n ROUNDS] 'COMMAND ARGS...' ...")
		flag.PrintDefaults()
	}
	flag.Parse()
	cmds := flag.Args()
	if len(cmds) == 0 || *n < 1 {
		flag.Usage()
		os.Exit(2)
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		fmt.Fprintf(os.Stderr, "alternate: %v\n", err)
		os.Exit(1)
	}
	cpu := make([][]time.Duration, len(cmds))
	for round := 0; round <= *n; round++ {
		for i, c := range cmds {
			d, err := run(c, null)
			if err != nil {
				fmt.Fprintf(os.Stderr, "alternate: %s: %v\n", c, err)
				os.Exit(1)
			}
			if round > 0 {
				cpu[i] = append(cpu[i], d)
			}
		}
	}
	base := median(cpu[0])
	for i, c := range cmds {
		m := median(cpu[i])
		fmt.Printf("%8.1f ms CPU median (%.1f–%.1f), %.2f× the first  %s\n",
			ms(m), ms(slices.Min(cpu[i])), ms(slices.Max(cpu[i])), float64(m)/float64(base), c)
	}
}

// run runs the command c once, its output to out, and returns the CPU
// time its process used.
func run(c string, out *os.File) (time.Duration, error) {
	args := strings.Fields(c)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout = out // a file, not a pipe the child would write through
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return 0, err
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
