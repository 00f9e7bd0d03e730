package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

func init() {
	register("classify", "classify JSON Lines request streams with a ruleset", cmdClassify)
}

const classifyUsage = `usage: gpl classify --rules NAME [flags] [RULES.gpl] [REQUESTS ...]

Reads one JSON object per line with kapsl's keys (priority, sla_deadline in ms,
batch_size, input_size_bytes, estimated_flops; a missing key is an absent field)
and writes one result per input line, in order, flushing whenever it waits for
more input, so results of a live stream appear as their lines arrive. Other keys
(a request id, a model name, nested objects) are ignored, and counted by
--summary; --strict-keys makes one an unusable line.

Which argument is which:
  --rules NAME          names the ruleset (required).
  --rules-file FILE     gives the file that declares it; every argument is then
                        a request file, whatever its name.
  Without --rules-file, an argument ending in .gpl is the file that declares the
  ruleset (at most one), and every other argument is a request file. With no
  ruleset file the ruleset comes from the bundled library (std/kapsl).
  Request files are read in order; "-" is stdin, and with no request file
  stdin is read. gzip and zstd input is recognised by its first bytes, whatever
  the file is called.

With several request files, --line-numbers numbers each file's lines from 1
and names the file: "file":NAME in jsonl, NAME:N before the class in text.

A line that cannot be used (blank, not JSON, a bad value) stops the run at its
line and column, exit 3. With --keep-going it is reported on stderr and its
output line is a placeholder: "error" in text, {"line":N,"column":C,"error":"…"}
in jsonl; the run then exits 0 (every line has its output line, and every
unusable one was reported), or the code --bad-lines-exit gives. One line out
per line in, in order, is the contract a batch engine's pipe relies on
(Spark's rdd.pipe, Hadoop Streaming). --summary prints counts and shares per class and per rule, and the
unusable lines by reason, instead of the results (--format json for JSON).

A progress bar is drawn on stderr when stderr is a terminal and every input is
a regular file (--no-progress turns it off).

Exit codes: 0 ok (with --keep-going, also when lines were unusable) · 1 usage
· 2 ruleset errors · 3 an unusable line without --keep-going, unreadable input
or unwritable output · N --bad-lines-exit N, a --keep-going run with unusable
lines.

Flags:
`

// classifyOptions are the flags of gpl classify.
type classifyOptions struct {
	rules, rulesFile, format                    string
	summary, keepGoing, lineNumbers, noProgress bool
	strictKeys                                  bool // a key that is not kapsl's is an unusable line
	maxLine                                     int  // the longest request line read, in bytes
	badLinesExit                                int  // the exit code of a --keep-going run with unusable lines
}

func cmdClassify(e *env) int {
	var o classifyOptions
	fs := flag.NewFlagSet("gpl classify", flag.ContinueOnError)
	fs.StringVar(&o.rules, "rules", "", "the `NAME` of the ruleset to classify with (required)")
	fs.StringVar(&o.rulesFile, "rules-file", "", "the .gpl `FILE` declaring the ruleset; every argument is then a request file")
	fs.StringVar(&o.format, "format", "text", "output: text (the class), jsonl (the input object with class and rule added), or json (with --summary)")
	fs.BoolVar(&o.summary, "summary", false, "print only the count and share of each class and rule, and the unusable lines by reason")
	fs.BoolVar(&o.keepGoing, "keep-going", false, "report an unusable line on stderr, write a placeholder for it and go on, instead of stopping")
	fs.BoolVar(&o.lineNumbers, "line-numbers", false, `add the input line number to every result: "line":N in jsonl, "N<tab>" before the class in text`)
	fs.BoolVar(&o.noProgress, "no-progress", false, "never draw a progress bar")
	fs.BoolVar(&o.strictKeys, "strict-keys", false, "make a line with a key that is not one of kapsl's five an unusable line, instead of ignoring the key")
	maxLine := cli.IntFlag(fs, "max-line-bytes", priority.DefaultMaxLineSize, 1, 1<<30, "the longest request line read, in `N` bytes; a longer one is an unusable line, skipped without being held")
	badExit := cli.IntFlag(fs, "bad-lines-exit", 0, 0, 125, "with --keep-going, the exit `CODE` of a run that had unusable lines (0: they are not a failure)")
	fs.Usage = func() { fmt.Fprint(e.stderr, classifyUsage); fs.PrintDefaults() }
	args, code, ok := parseFlags(fs, e)
	if !ok {
		return code
	}
	o.maxLine, o.badLinesExit = *maxLine, *badExit
	if o.rules == "" {
		fmt.Fprintln(e.stderr, "gpl classify: --rules NAME is required")
		fs.Usage()
		return exitUsage
	}
	if !oneOf(e, "format", o.format, "text", "jsonl", "json") {
		return exitUsage
	}
	if o.format == "json" && !o.summary {
		fmt.Fprintln(e.stderr, "gpl classify: --format json is for --summary; per-line results in JSON are --format jsonl")
		return exitUsage
	}
	rulesFile, inputs, ok := splitClassifyArgs(e, o.rulesFile, args)
	if !ok {
		return exitUsage
	}
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		if _, err := os.Stat(in); err != nil {
			fmt.Fprintf(e.stderr, "gpl classify: %s: %s\n", in, errorText(err))
			return exitUsage
		}
	}
	if rulesFile == "" {
		if rs, ok := bundledRuleset(o.rules); ok {
			c := newClassifier(rs, o, e.stdout, e.stderr)
			c.gen = bundledGo(o.rules)
			return c.run(e, inputs)
		}
	}
	st := styleFor(e.stderr, e.getenv)
	var (
		s   *eval.Scenario
		err error
	)
	if rulesFile != "" {
		s, err = loadScenario(rulesFile)
	} else {
		s, err = eval.LoadLibrary(eval.Options{})
	}
	if err != nil {
		renderError(e.stderr, s, err, st)
		if loadExit(err) == exitInternal {
			return exitInternal
		}
		return exitCheck
	}
	rs, ok := s.Ruleset(o.rules)
	if !ok {
		fmt.Fprintln(e.stderr, unknownRuleset("classify", o.rules, rulesFile, rulesetNames(s)))
		return exitCheck
	}
	c := newClassifier(rs, o, e.stdout, e.stderr)
	return c.run(e, inputs)
}

// splitClassifyArgs tells the ruleset file from the request files: with
// --rules-file every argument is a request file; without it an argument
// ending in .gpl is the ruleset file, and there may be only one.
func splitClassifyArgs(e *env, rulesFile string, args []string) (string, []string, bool) {
	if rulesFile != "" {
		return rulesFile, args, true
	}
	var inputs []string
	for _, a := range args {
		if !strings.HasSuffix(a, ".gpl") {
			inputs = append(inputs, a)
			continue
		}
		if rulesFile != "" {
			fmt.Fprintf(e.stderr, "gpl classify: two ruleset files, %s and %s; give one (a request file ending in .gpl needs --rules-file for the ruleset)\n", rulesFile, a)
			return "", nil, false
		}
		rulesFile = a
	}
	return rulesFile, inputs, true
}

// errorText is an error's message without the operation and path that
// os errors repeat.
func errorText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// unknownRuleset explains to the verb ("classify", "gen") that no
// ruleset has the name, suggesting the nearest declared one and listing
// them all in words.
func unknownRuleset(verb, name, file string, declared []string) string {
	msg := "gpl " + verb + ": no ruleset " + name
	if s := nearestName(name, declared); s != "" {
		msg += "; did you mean " + s + "?"
	}
	where := "the bundled library"
	if file != "" {
		where = file
	}
	switch len(declared) {
	case 0:
		msg += "\n  " + where + " declares no rulesets"
	case 1:
		msg += "\n  " + where + " declares one ruleset: " + declared[0]
	default:
		msg += fmt.Sprintf("\n  %s declares %d rulesets: %s", where, len(declared), wordList(declared))
	}
	if strings.HasSuffix(name, ".gpl") || strings.ContainsRune(name, '/') {
		msg += "\n  --rules names a ruleset; a file of rulesets is an argument: gpl " + verb + " --rules NAME " + name
		if verb == "classify" {
			msg += " [REQUESTS…]"
		}
	}
	return msg
}

// wordList joins names as a sentence does: "a", "a and b", "a, b and c".
func wordList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// nearestName returns the candidate a few edits from name, the closest
// one, or "" when none is a likely misspelling.
func nearestName(name string, cands []string) string {
	best, bestDist := "", min(3, len(name)/2+1)
	for _, c := range cands {
		if d := cli.EditDistance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
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
