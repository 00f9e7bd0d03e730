package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/gpl-lang/gpl/stdlib/priority"
)

// classifySummary is the JSON form of gpl classify --summary. Shares are
// fractions of the classified requests, from 0 to 1.
type classifySummary struct {
	Lines    int `json:"lines"`    // every input line
	Requests int `json:"requests"` // lines classified
	Unusable int `json:"unusable"` // lines that could not be used
	// Keys that are not kapsl's, ignored (without --strict-keys), and the
	// classified lines that had one.
	IgnoredKeys         int            `json:"ignored_keys"`
	LinesWithIgnoredKey int            `json:"lines_with_ignored_keys"`
	Classes             []summaryCount `json:"classes"`
	Rules               []summaryCount `json:"rules"`
	Reasons             []reasonCount  `json:"unusable_by_reason"`
}

type summaryCount struct {
	Class string  `json:"class"`
	Rule  string  `json:"rule,omitempty"`
	Count int     `json:"count"`
	Share float64 `json:"share"`
}

type reasonCount struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// summary gathers the counts of the run.
func (c *classifier) summary() classifySummary {
	s := classifySummary{Lines: c.lines, Unusable: c.unusable(), IgnoredKeys: c.ignored, LinesWithIgnoredKey: c.ignoredIn, Classes: []summaryCount{}, Rules: []summaryCount{}, Reasons: []reasonCount{}}
	for _, n := range c.ruleCount {
		s.Requests += n
	}
	share := func(n int) float64 {
		if s.Requests == 0 {
			return 0
		}
		return float64(n) / float64(s.Requests)
	}
	classCount := make([]int, len(c.classes))
	for i, n := range c.ruleCount {
		classCount[c.ruleClass[i]] += n
	}
	for k, class := range c.classes {
		s.Classes = append(s.Classes, summaryCount{Class: string(class), Count: classCount[k], Share: share(classCount[k])})
	}
	for i, n := range c.ruleCount {
		s.Rules = append(s.Rules, summaryCount{Class: string(c.classes[c.ruleClass[i]]), Rule: c.ruleNames[i], Count: n, Share: share(n)})
	}
	for p, n := range c.problems {
		if n > 0 {
			s.Reasons = append(s.Reasons, reasonCount{Reason: priority.Problem(p).String(), Count: n})
		}
	}
	return s
}

// writeSummary writes the summary in the chosen format.
func (c *classifier) writeSummary() {
	s := c.summary()
	var b bytes.Buffer
	switch c.o.format {
	case "json":
		j, _ := json.MarshalIndent(s, "", "  ")
		b.Write(j)
		b.WriteByte('\n')
	case "jsonl":
		j, _ := json.Marshal(s)
		b.Write(j)
		b.WriteByte('\n')
	default:
		writeTextSummary(&b, s)
	}
	c.out.buf = append(c.out.buf, b.Bytes()...)
}

// writeTextSummary writes the summary as right-aligned columns.
func writeTextSummary(b *bytes.Buffer, s classifySummary) {
	share := func(n int) string {
		if s.Requests == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f%%", float64(n)*100/float64(s.Requests))
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "requests\t%d\t\t\n", s.Requests)
	if s.Unusable > 0 {
		fmt.Fprintf(tw, "unusable\t%d\t\t\n", s.Unusable)
	}
	if s.IgnoredKeys > 0 {
		fmt.Fprintf(tw, "ignored keys\t%d\t\t\n", s.IgnoredKeys)
	}
	fmt.Fprintln(tw, "class\tcount\tshare\t")
	for _, c := range s.Classes {
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", c.Class, c.Count, share(c.Count))
	}
	fmt.Fprintln(tw, "rule\tcount\tshare\t")
	for _, r := range s.Rules {
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", r.Rule, r.Count, share(r.Count))
	}
	if s.Unusable > 0 {
		fmt.Fprintln(tw, "unusable line\tcount\t\t")
		for _, r := range s.Reasons {
			fmt.Fprintf(tw, "%s\t%d\t\t\n", r.Reason, r.Count)
		}
	}
	tw.Flush()
}
