package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"syscall"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// classifier streams request lines through a ruleset. Everything that is
// the same for every line — each rule's output bytes, its class — is
// worked out once, and counts are kept in slices indexed by rule number,
// so the per-line work is parsing, the rules and an append.
type classifier struct {
	rs *priority.Ruleset
	// gen, when set, is rs written out as Go (a bundled ruleset's,
	// generated at build time): it gives what rs.Classify gives, without
	// reading a table.
	gen func(*priority.Request) (priority.Class, int)
	o   classifyOptions

	jsonl bool
	// For rule index i (len(rules) for else): text[i] is "class\n",
	// members[i] the encoded "class":…,"rule":… members, ruleClass[i] the
	// index of its class in classes.
	text      [][]byte
	members   [][]byte
	ruleClass []int
	classes   []priority.Class
	ruleNames []string

	ruleCount []int
	problems  [priority.NumProblems]int
	lines     int             // every line read, usable or not
	ignored   int             // keys that are not kapsl's, skipped (without --strict-keys)
	ignoredIn int             // lines with such a key
	warned    map[string]bool // ignored keys that look like a misspelt kapsl key, warned of once

	out     outWriter
	stderr  io.Writer
	bar     *progress
	scratch []byte
}

func newClassifier(rs *priority.Ruleset, o classifyOptions, stdout, stderr io.Writer) *classifier {
	c := &classifier{rs: rs, o: o, jsonl: o.format == "jsonl", stderr: stderr}
	c.out = outWriter{w: stdout, buf: make([]byte, 0, outBufSize+4<<10)}
	rules := rs.Rules()
	n := len(rules) + 1 // else last
	classIndex := map[priority.Class]int{}
	for i := range n {
		rule := i
		if i == len(rules) {
			rule = -1
		}
		class := rs.Otherwise()
		if rule >= 0 {
			class = rules[rule].Class
		}
		k, ok := classIndex[class]
		if !ok {
			k = len(c.classes)
			classIndex[class] = k
			c.classes = append(c.classes, class)
		}
		name := rs.RuleName(rule)
		c.ruleNames = append(c.ruleNames, name)
		c.ruleClass = append(c.ruleClass, k)
		c.text = append(c.text, []byte(string(class)+"\n"))
		c.members = append(c.members, priority.AppendJSONMembers(nil, "class", string(class), "rule", name))
	}
	c.ruleCount = make([]int, n)
	return c
}

// outBufSize is how many bytes of results are gathered before a write.
const outBufSize = 64 << 10

// outWriter gathers output in a buffer and keeps the first write error.
type outWriter struct {
	w   io.Writer
	buf []byte
	err error
}

// flush writes out what is gathered; after an error it discards it.
func (o *outWriter) flush() {
	if len(o.buf) > 0 && o.err == nil {
		_, o.err = o.w.Write(o.buf)
	}
	o.buf = o.buf[:0]
}

// input is one request stream to read.
type input struct {
	name string // as diagnostics name it: the path, or "stdin"
	arg  string // as given: a path or "-"
}

// run classifies every input in order and reports the end of the run.
func (c *classifier) run(e *env, args []string) int {
	var ins []input
	for _, a := range args {
		name := a
		if a == "-" {
			name = "stdin"
		}
		ins = append(ins, input{name: name, arg: a})
	}
	if len(ins) == 0 {
		ins = []input{{name: "stdin", arg: "-"}}
	}
	c.bar = newProgress(c.o, e, ins)
	status := exitOK
	for _, in := range ins {
		st := c.readInput(e, in, len(ins) > 1)
		if st != exitOK {
			status = st
			break
		}
	}
	c.bar.finish()
	if c.o.summary && c.out.err == nil {
		c.writeSummary()
	}
	c.out.flush()
	if err := c.out.err; err != nil {
		if errors.Is(err, syscall.EPIPE) {
			return exitRuntime // the reader has gone; nothing to tell it
		}
		fmt.Fprintf(c.stderr, "gpl classify: writing the results: %v\n", err)
		return exitRuntime
	}
	if status != exitOK {
		return status
	}
	if bad := c.unusable(); bad > 0 {
		// Every one was reported and has its placeholder: the output is
		// whole, line for line, so the run has done its job unless the
		// caller asked for a failure (--bad-lines-exit).
		fmt.Fprintf(c.stderr, "gpl classify: %d of %s unusable; each has a placeholder in the output\n", bad, units.CountOf(float64(c.lines), "line", "lines"))
		return c.o.badLinesExit
	}
	return exitOK
}

// unusable returns the number of unusable lines read.
func (c *classifier) unusable() int {
	n := 0
	for _, k := range c.problems[1:] {
		n += k
	}
	return n
}

// readInput classifies one input; it returns exitOK to go on to the next.
func (c *classifier) readInput(e *env, in input, several bool) int {
	src, err := openRequests(e, in, c.bar)
	if err != nil {
		c.out.flush()
		c.bar.clear()
		fmt.Fprintf(c.stderr, "gpl classify: %s: %v\n", in.name, err)
		return exitRuntime
	}
	defer src.close()
	var prefix []byte // "file":…, before "line" in jsonl
	if several {
		prefix = append(priority.AppendJSONMembers(nil, "file", in.name), ',')
	}
	sr := priority.NewStreamReader(src.r)
	sr.SetMaxLineSize(c.o.maxLine)
	c.ignoreKeys(sr, in)
	sr.OnWait(func() { c.out.flush(); c.bar.update(c.lines) })
	if c.stream(sr, in, prefix) {
		return exitRuntime
	}
	if err := sr.IOErr(); err != nil {
		c.out.flush()
		c.bar.clear()
		fmt.Fprintf(c.stderr, "gpl classify: reading %s: %v\n", in.name, err)
		return exitRuntime
	}
	return exitOK
}

// ignoreKeys sets the reader to skip keys that are not kapsl's, unless
// --strict-keys, and to warn, once per key, of one that looks like a
// misspelt kapsl key (input_size for input_size_bytes): ignoring it
// changes the class.
func (c *classifier) ignoreKeys(sr *priority.StreamReader, in input) {
	if c.o.strictKeys {
		return
	}
	sr.SetIgnoreUnknownKeys(true)
	sr.OnIgnoredKey(func(key string, column int) {
		if c.warned[key] || len(c.warned) >= maxKeyWarnings {
			return
		}
		k := closestKey(key)
		if k == "" {
			return
		}
		if c.warned == nil {
			c.warned = map[string]bool{}
		}
		c.warned[key] = true
		c.out.flush()
		c.bar.clear()
		fmt.Fprintf(c.stderr, "warning: %s:%d:%d: key %q ignored, as keys that are not kapsl's are; did you mean %q? (--strict-keys refuses such keys)\n",
			in.name, sr.LineNumber(), column, key, k)
	})
}

// maxKeyWarnings bounds the warnings of ignored keys that look misspelt.
const maxKeyWarnings = 20

// stream is the hot loop. It returns true when the run must stop: at an
// unusable line without --keep-going, or when the output cannot be
// written.
func (c *classifier) stream(sr *priority.StreamReader, in input, prefix []byte) bool {
	nrules := len(c.ruleCount) - 1
	out := &c.out
	for sr.Next() {
		c.lines++
		if le := sr.LineErr(); le != nil {
			c.problems[le.Problem]++
			if !c.badLine(in, prefix, le) {
				return true
			}
			continue
		}
		if n := sr.IgnoredKeys(); n > 0 {
			c.ignored += n
			c.ignoredIn++
		}
		var rule int
		if c.gen != nil {
			_, rule = c.gen(sr.Request())
		} else {
			_, rule = c.rs.Classify(sr.Request())
		}
		if rule < 0 {
			rule = nrules
		}
		c.ruleCount[rule]++
		if c.o.summary {
			continue
		}
		switch {
		case c.o.lineNumbers:
			c.appendNumbered(sr, in, prefix, rule)
		case c.jsonl:
			out.buf = priority.AppendWithMembers(out.buf, sr.Line(), c.members[rule])
			out.buf = append(out.buf, '\n')
		default:
			out.buf = append(out.buf, c.text[rule]...)
		}
		if len(out.buf) >= outBufSize {
			out.flush()
			if out.err != nil {
				return true
			}
		}
	}
	return false
}

// appendNumbered appends a result with its line number.
func (c *classifier) appendNumbered(sr *priority.StreamReader, in input, prefix []byte, rule int) {
	out := &c.out
	if !c.jsonl {
		if prefix != nil {
			out.buf = append(out.buf, in.name...)
			out.buf = append(out.buf, ':')
		}
		out.buf = strconv.AppendInt(out.buf, int64(sr.LineNumber()), 10)
		out.buf = append(out.buf, '\t')
		out.buf = append(out.buf, c.text[rule]...)
		return
	}
	m := append(c.scratch[:0], prefix...)
	m = append(m, `"line":`...)
	m = strconv.AppendInt(m, int64(sr.LineNumber()), 10)
	m = append(m, ',')
	m = append(m, c.members[rule]...)
	c.scratch = m
	out.buf = priority.AppendWithMembers(out.buf, sr.Line(), m)
	out.buf = append(out.buf, '\n')
}

// badLine reports an unusable line. Under --keep-going it writes the
// line's placeholder and returns true; otherwise it returns false.
func (c *classifier) badLine(in input, prefix []byte, le *priority.LineError) bool {
	c.out.flush()
	c.bar.clear()
	where := in.name + ":" + strconv.Itoa(le.Line) + ":" + strconv.Itoa(le.Column)
	msg := le.Msg
	if le.Problem == priority.UnknownKey {
		if k := closestKey(le.Key); k != "" {
			msg = fmt.Sprintf("unknown key %q; did you mean %q?", le.Key, k)
		}
	}
	if le.Problem == priority.UnknownKey {
		msg += " (--strict-keys refuses keys that are not kapsl's; without it they are ignored)"
	}
	fmt.Fprintf(c.stderr, "error: %s: %s\n", where, msg)
	if !c.o.keepGoing {
		fmt.Fprintf(c.stderr, "  (stopped at line %d; --keep-going reports unusable lines and goes on)\n", le.Line)
		return false
	}
	if c.o.summary {
		return true
	}
	out := &c.out
	switch {
	case c.jsonl:
		out.buf = append(out.buf, '{')
		out.buf = append(out.buf, prefix...)
		out.buf = append(out.buf, `"line":`...)
		out.buf = strconv.AppendInt(out.buf, int64(le.Line), 10)
		out.buf = append(out.buf, `,"column":`...)
		out.buf = strconv.AppendInt(out.buf, int64(le.Column), 10)
		out.buf = append(out.buf, ',')
		out.buf = priority.AppendJSONMembers(out.buf, "error", le.Msg)
		out.buf = append(out.buf, "}\n"...)
	case c.o.lineNumbers:
		if prefix != nil {
			out.buf = append(out.buf, in.name...)
			out.buf = append(out.buf, ':')
		}
		out.buf = strconv.AppendInt(out.buf, int64(le.Line), 10)
		out.buf = append(out.buf, "\terror\n"...)
	default:
		out.buf = append(out.buf, "error\n"...)
	}
	return c.out.err == nil
}

// requestKeys are the JSON keys of a request line.
var requestKeys = []string{"priority", "sla_deadline", "batch_size", "input_size_bytes", "estimated_flops"}

// closestKey suggests the request key a misspelt or shortened one meant:
// the one it begins or names the start of (input_size → input_size_bytes,
// prio → priority, sla → sla_deadline, flops → estimated_flops), else the
// nearest by edit distance when it is close.
func closestKey(key string) string {
	if len(key) >= 3 {
		var hit []string
		for _, k := range requestKeys {
			if strings.HasPrefix(k, key) || strings.HasSuffix(k, "_"+key) {
				hit = append(hit, k)
			}
		}
		if len(hit) == 1 {
			return hit[0]
		}
	}
	best, bestD := "", len(key)/3+2
	for _, k := range requestKeys {
		if d := cli.EditDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
