package repl

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
	"github.com/gpl-lang/gpl/scenarios"
)

// figureTexts are the expressions that read every figure of a scenario:
// each let and param, each field of each declaration (every result of
// every job, a pool's fields, a group's figures, a solve's answer, a
// sweep's point count, a compare's best), and the money of each owner of
// each group.
func figureTexts(s *eval.Scenario) []string {
	var texts []string
	for _, n := range s.Names() {
		name := n[0]
		fields := s.FieldNames(name)
		if len(fields) == 0 {
			texts = append(texts, name)
		}
		for _, f := range fields {
			if !strings.Contains(f, "(") { // a query, which takes arguments
				texts = append(texts, name+"."+f)
			}
		}
	}
	for _, g := range s.Groups() {
		for _, o := range g.Owners {
			for _, fn := range []string{"owner_loss_cost", "owner_saving"} {
				texts = append(texts, fn+"("+g.Name+", "+strconv.Quote(o.Owner)+")")
			}
		}
	}
	return texts
}

// comparable is what a report file says of a scenario's figures, without
// where its statements were written (a REPL entry is a source of its own).
func comparable(t *testing.T, f *report.File) string {
	t.Helper()
	type outcome struct {
		Source, Status string
		Got, Want      *report.Value
	}
	var outcomes []outcome
	for _, e := range f.Expectations {
		outcomes = append(outcomes, outcome{e.Source, e.Status, e.Got, e.Want})
	}
	// In the order of their sources: the REPL's, one a statement, put a
	// job's own expects after the top level's.
	slices.SortStableFunc(outcomes, func(a, b outcome) int { return strings.Compare(a.Source, b.Source) })
	b, err := json.MarshalIndent(struct {
		Values       map[string]report.Named
		Pools        []report.Pool
		Jobs         []report.Job
		Planning     report.Planning
		Requests     []report.Request
		Expectations []outcome
	}{f.Values, f.Pools, f.Jobs, f.Planning, f.Requests, outcomes}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The REPL and gpl run agree on every figure of every bundled scenario:
// each expression that reads one prints in the REPL what the scenario
// loaded as gpl run loads it gives, and the report of the REPL's session
// (jobs, owner tables, waterfalls, groups, compares, sweeps, solves,
// expectations) is the run's. Owners blocks at top level, in pools and in
// jobs are among what they must agree on (issue 18).
func TestReplAgreesWithRun(t *testing.T) {
	for _, name := range scenarios.Names() {
		t.Run(name, func(t *testing.T) {
			src, err := scenarios.Files.ReadFile(name + ".gpl")
			if err != nil {
				t.Fatal(err)
			}
			run, err := eval.LoadWith(eval.Options{FS: scenarios.Files, Scenarios: scenarios.Files}, name+".gpl", src)
			if err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			r := newTestRepl(&out, &errOut)
			if err := r.load(name, false, true); err != nil {
				t.Fatalf("load: %v\n%s", err, errOut.String())
			}

			texts := figureTexts(run)
			if len(texts) < 20 {
				t.Fatalf("only %d figures: %q", len(texts), texts)
			}
			want, got := map[string]string{}, map[string]string{}
			for _, text := range texts {
				if v, err := run.Eval("<expr>", text); err != nil {
					want[text] = "error"
				} else {
					want[text] = v.String()
				}
				out.Reset()
				errOut.Reset()
				r.run(newScriptSource(strings.NewReader(text + "\n")))
				if errOut.Len() > 0 {
					got[text] = "error"
				} else {
					got[text] = strings.TrimSuffix(out.String(), "\n")
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("figures, gpl run (-) and the REPL (+):\n%s", diff)
			}
			if diff := cmp.Diff(comparable(t, report.Build(run)), comparable(t, report.Build(r.s.scn()))); diff != "" {
				t.Errorf("report, gpl run (-) and the REPL (+):\n%s", diff)
			}
		})
	}
}

// The owners blocks of a file the REPL loads, at top level, in a pool and
// in a job, name the owners gpl run names; a top-level block typed at the
// prompt replaces the file's (both of them, when the file has two) and
// names the owners of the jobs declared before it.
func TestReplOwners(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "own.gpl")
	src := `owners { scheduling = "capacity" }
owners { program = "model" }
pool p {
  owners { runtime = "infra" }
  devices = 8
  rate    = 2 USD/h
}
job j on p {
  hours   = 10h
  factors { S = 0.9  R = 0.9  P = 0.5 }
}
job k on p {
  owners  { runtime = "k infra" }
  hours   = 10h
  factors { S = 0.9  R = 0.9  P = 0.5 }
}
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	r := newTestRepl(&out, &errOut)
	r.run(newScriptSource(strings.NewReader(":load " + file + "\n" +
		"j.owner.S\nj.owner.R\nj.owner.P\nk.owner.R\n" +
		"owners { scheduling = \"fleet\" }\n" +
		"j.owner.S\nj.owner.P\nk.owner.R\n" +
		"job m on p {\n  owners { P = \"m team\" }\n  hours = 1h\n  factors { S = 1  R = 1  P = 1 }\n}\n" +
		"m.owner.S\nm.owner.R\nm.owner.P\n")))
	want := "loaded " + file + ": 3 declarations\n" +
		`"capacity"` + "\n" + `"infra"` + "\n" + `"model"` + "\n" + `"k infra"` + "\n" +
		`j: owner.scheduling "fleet" (was "capacity"), owner.program "program" (was "model")` + "\n" +
		`k: owner.scheduling "fleet" (was "capacity"), owner.program "program" (was "model")` + "\n" +
		`"fleet"` + "\n" + `"program"` + "\n" + `"k infra"` + "\n" +
		"job m on p\n  mpg                     1\n  loss                    scheduling 0, runtime 0, program 0\n" +
		"  best_lever              none: no ceiling raises mpg\n  cost_per_useful_hour    $2.00/h\n" +
		"  point_value.scheduling  $0.16\n  point_value.runtime     $0.16\n  point_value.program     $0.16\n" +
		`"fleet"` + "\n" + `"infra"` + "\n" + `"m team"` + "\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s\nstderr:\n%s", diff, errOut.String())
	}
	if errOut.Len() > 0 {
		t.Errorf("stderr: %s", errOut.String())
	}
}
