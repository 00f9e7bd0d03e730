package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/stdlib"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

func init() {
	register("classify", "classify a JSON Lines request stream on stdin with a ruleset", cmdClassify)
}

const classifyUsage = `usage: gpl classify --rules NAME [--format text|jsonl] [--summary] [--keep-going] [FILE.gpl] < requests.jsonl

Reads one JSON object per line with kapsl's keys (priority, sla_deadline in ms,
batch_size, input_size_bytes, estimated_flops; a missing key is an absent field)
and writes one result per input line, in order. The ruleset NAME is read from
FILE.gpl, or from the bundled library (std/kapsl) when no file is given.
`

func cmdClassify(e *env) int {
	fs := flag.NewFlagSet("gpl classify", flag.ContinueOnError)
	rulesName := fs.String("rules", "", "the ruleset to classify with (required)")
	format := fs.String("format", "text", "output: text (the class) or jsonl (the input object with class and rule added)")
	summary := fs.Bool("summary", false, "print only the count and share of each class and rule")
	keepGoing := fs.Bool("keep-going", false, "report a bad line on stderr and go on, instead of stopping")
	fs.Usage = func() { fmt.Fprint(e.stderr, classifyUsage); fs.PrintDefaults() }
	args, code, ok := parseFlags(fs, e)
	if !ok {
		return code
	}
	if *rulesName == "" || len(args) > 1 || !oneOf(e, "format", *format, "text", "jsonl") {
		fs.Usage()
		return exitUsage
	}
	st := styleFor(e.stderr, e.getenv)
	var (
		s   *eval.Scenario
		err error
	)
	if len(args) == 1 {
		s, err = loadScenario(args[0])
	} else {
		s, err = eval.LoadSource("<std>", []byte(stdImports()))
	}
	if err != nil {
		renderError(e.stderr, s, err, st)
		return exitCheck
	}
	rs, ok := s.Ruleset(*rulesName)
	if !ok {
		fmt.Fprintf(e.stderr, "gpl: no ruleset %s", *rulesName)
		if names := rulesetNames(s); len(names) > 0 {
			fmt.Fprintf(e.stderr, "; the file declares %v", names)
		}
		fmt.Fprintln(e.stderr)
		return exitCheck
	}
	c := classifier{rs: rs, jsonl: *format == "jsonl", summary: *summary, keepGoing: *keepGoing}
	return c.run(e)
}

// stdImports is a root file importing every bundled library.
func stdImports() string {
	out := ""
	for _, n := range stdlib.Names(stdlib.Files) {
		out += "import " + n + "\n"
	}
	return out
}

func rulesetNames(s *eval.Scenario) []string {
	var out []string
	for _, n := range s.Names() {
		if n[1] == "ruleset" {
			out = append(out, n[0])
		}
	}
	return out
}

type classifier struct {
	rs                        *priority.Ruleset
	jsonl, summary, keepGoing bool
}

// run streams stdin to stdout: one output line per input line, in order,
// with a reused buffer, so memory stays flat however long the input.
func (c *classifier) run(e *env) int {
	rules := c.rs.Rules()
	names := make([]string, len(rules)+1) // the last is else
	for i := range rules {
		names[i] = c.rs.RuleName(i)
	}
	names[len(rules)] = "else"
	ruleCount := make([]int, len(names))
	classCount := map[priority.Class]int{}
	var classOrder []priority.Class
	for _, r := range rules {
		if _, ok := classCount[r.Class]; !ok {
			classCount[r.Class] = 0
			classOrder = append(classOrder, r.Class)
		}
	}
	if _, ok := classCount[c.rs.Otherwise()]; !ok {
		classOrder = append(classOrder, c.rs.Otherwise())
	}
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	defer out.Flush()
	var buf []byte
	sr := priority.NewStreamReader(e.stdin)
	total, skipped := 0, 0
	for sr.Next() {
		if err := sr.Err(); err != nil {
			var le *priority.LineError
			msg := err.Error()
			if errors.As(err, &le) {
				msg = fmt.Sprintf("stdin:%d:%d: %s", le.Line, le.Column, le.Msg)
			}
			if !c.keepGoing {
				out.Flush()
				fmt.Fprintf(e.stderr, "error: %s\n", msg)
				fmt.Fprintf(e.stderr, "  (stopped at line %d; --keep-going reports bad lines and goes on)\n", sr.LineNumber())
				return exitRuntime
			}
			fmt.Fprintf(e.stderr, "skipped: %s\n", msg)
			skipped++
			continue
		}
		class, rule := c.rs.Classify(sr.Request())
		idx := rule
		if idx < 0 {
			idx = len(names) - 1
		}
		total++
		ruleCount[idx]++
		classCount[class]++
		if c.summary {
			continue
		}
		buf = buf[:0]
		if c.jsonl {
			buf = priority.AppendJSONL(buf, sr.Line(), class, names[idx])
		} else {
			buf = append(buf, class...)
		}
		buf = append(buf, '\n')
		out.Write(buf)
	}
	if err := sr.IOErr(); err != nil {
		out.Flush()
		fmt.Fprintf(e.stderr, "error: reading stdin: %v\n", err)
		return exitRuntime
	}
	if c.summary {
		writeSummary(out, total, skipped, classOrder, classCount, names, ruleCount)
	}
	if skipped > 0 {
		out.Flush()
		fmt.Fprintf(e.stderr, "%d line(s) skipped\n", skipped)
		return exitRuntime
	}
	return exitOK
}

func writeSummary(w io.Writer, total, skipped int, classes []priority.Class, classCount map[priority.Class]int, rules []string, ruleCount []int) {
	share := func(n int) string {
		if total == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f%%", float64(n)*100/float64(total))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "requests\t%d\t\t\n", total)
	if skipped > 0 {
		fmt.Fprintf(tw, "skipped\t%d\t\t\n", skipped)
	}
	fmt.Fprintln(tw, "class\tcount\tshare\t")
	for _, c := range classes {
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", c, classCount[c], share(classCount[c]))
	}
	fmt.Fprintln(tw, "rule\tcount\tshare\t")
	for i, r := range rules {
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", r, ruleCount[i], share(ruleCount[i]))
	}
	tw.Flush()
}
