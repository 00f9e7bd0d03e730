package main

import (
	"context"
	"fmt"
	"os"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(string, int), error](&classifyFn{})
	register.Emitter2[string, int]()
	register.Function2x1[string, int, string](formatCount)
	beam.RegisterType(reflect.TypeOf((*classifyFn)(nil)).Elem())
}

// Counts classifies the request lines of the files that glob matches
// with the ruleset and counts them, by key: "lines", "requests",
// "class/NAME", "rule/NAME" (the rule that decided, "else" for the
// ruleset's otherwise), "unusable" and "unusable/REASON" (blank line,
// invalid JSON, …). Each count is a line "KEY COUNT".
//
// Each file is one element, read whole by one DoFn call: a shard of a
// log is the unit of work. (textio.Read splits a file into byte ranges,
// and with Beam Go 2.77 it reads a gzipped file's range as a range of
// the compressed bytes, so that it stops early; reading whole files
// avoids that, and reads each line as gpl classify does.)
func Counts(s beam.Scope, glob, rules, rulesFile string) beam.PCollection {
	s = s.Scope("gpl.Counts")
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob))
	counts := beam.ParDo(s, &classifyFn{Rules: rules, RulesFile: rulesFile}, files)
	return beam.ParDo(s, formatCount, stats.SumPerKey(s, counts))
}

// classifyFn classifies the lines of one file: the ruleset is compiled
// once per instance, in Setup, and the lines are read by the stream
// reader gpl classify reads with (keys that are not kapsl's ignored).
type classifyFn struct {
	Rules, RulesFile string
	rs               *priority.Ruleset
	names            []string // rule/NAME and class/NAME of each rule, then of else
}

func (fn *classifyFn) Setup() error {
	var (
		s   *eval.Scenario
		err error
	)
	if fn.RulesFile != "" {
		var src []byte
		if src, err = os.ReadFile(fn.RulesFile); err != nil {
			return err
		}
		s, err = eval.LoadSource(fn.RulesFile, src)
	} else {
		s, err = eval.LoadLibrary(eval.Options{})
	}
	if err != nil {
		return fmt.Errorf("loading the ruleset: %w", err)
	}
	rs, ok := s.Ruleset(fn.Rules)
	if !ok {
		return fmt.Errorf("no ruleset %s", fn.Rules)
	}
	fn.rs = rs
	for i, r := range rs.Rules() {
		fn.names = append(fn.names, "rule/"+rs.RuleName(i), "class/"+string(r.Class))
	}
	fn.names = append(fn.names, "rule/else", "class/"+string(rs.Otherwise()))
	return nil
}

func (fn *classifyFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(string, int)) error {
	rc, err := file.Open(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()
	sr := priority.NewStreamReader(rc)
	sr.SetIgnoreUnknownKeys(true)
	byRule := make([]int, len(fn.names)/2)
	unusable := map[string]int{}
	lines := 0
	for sr.Next() {
		lines++
		if le := sr.LineErr(); le != nil {
			unusable[le.Problem.String()]++
			continue
		}
		_, rule := fn.rs.Classify(sr.Request())
		if rule < 0 {
			rule = len(byRule) - 1
		}
		byRule[rule]++
	}
	if err := sr.IOErr(); err != nil {
		return fmt.Errorf("reading %s: %w", file.Metadata.Path, err)
	}
	emit("lines", lines)
	requests := 0
	for i, n := range byRule {
		if n > 0 {
			emit(fn.names[2*i], n)
			emit(fn.names[2*i+1], n)
			requests += n
		}
	}
	if requests > 0 {
		emit("requests", requests)
	}
	for reason, n := range unusable {
		emit("unusable", n)
		emit("unusable/"+reason, n)
	}
	return nil
}

func formatCount(key string, n int) string { return fmt.Sprintf("%s %d", key, n) }
