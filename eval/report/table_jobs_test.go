package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/scenarios"
)

// cellsOf is a row as key=kind:text lines, for a diff.
func cellsOf(r tableRow) []string {
	out := make([]string, len(r))
	for i, c := range r {
		out[i] = fmt.Sprintf("%s=%d:%s", c.key, c.cell.Kind, c.cell.Text)
	}
	return out
}

// TestJobRowIsItsJSON checks that the jobs table's row written from the
// model is the row its JSON flattened gives, cell for cell, for every job
// of every bundled scenario and every file of testdata/lang, and for a
// file of the cases the writer leaves to the JSON (another currency, a
// window, results).
func TestJobRowIsItsJSON(t *testing.T) {
	type plan struct {
		name string
		s    *eval.Scenario
	}
	var plans []plan
	for _, n := range scenarios.Names() {
		s, err := eval.LoadWith(eval.Options{FS: scenarios.Files, Scenarios: scenarios.Files}, n+".gpl", nil)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		plans = append(plans, plan{n, s})
	}
	files, _ := filepath.Glob("../../testdata/lang/*.gpl")
	for _, path := range files {
		if s, err := eval.LoadWith(eval.Options{Scenarios: scenarios.Files}, path, nil); err == nil {
			plans = append(plans, plan{path, s})
		}
	}
	s, err := eval.LoadSource("plan.gpl", []byte(`
pool p { devices = 256  rate = 2 USD/h  from 2027-01-01 to 2027-04-01 }
pool q { devices = 2000000  rate = 3 USD/h }
pool e { devices = 64  rate = 1.5 EUR/h }
owners { program = "ml-infra" }
job a on p { devices = 8  hours = 720h  factors { S = 0.95  R = 0.9  P = 0.3 }  ceilings { P = 0.5 } }
job b extends a { owners { runtime = "sre" }  factors { P = 0.000000001 } }
job c on e { devices = 4  hours = 10h  factors { S = 1  R = 1  P = 0.5 } }
job d on q { devices = 1e6  hours = 1e9 h  factors { S = 1  R = 1  P = 1 } }
`))
	if err != nil {
		t.Fatal(err)
	}
	plans = append(plans, plan{"plan.gpl", s})
	direct, fallback := 0, 0
	for _, p := range plans {
		f := Build(p.s)
		b := &tableBuilder{}
		for j := range f.AllJobs() {
			want := b.row(j)
			want.rename("name", "job")
			want.insertAfter("ceilings.program", jobOwners(&j))
			var w rowWriter
			got, ok := w.jobRow(&j)
			if !ok {
				fallback++
				continue
			}
			direct++
			if diff := cmp.Diff(cellsOf(want), cellsOf(got)); diff != "" {
				t.Errorf("%s: job %s: the row from the model is not its JSON's (-json +model):\n%s", p.name, j.Name, diff)
			}
		}
	}
	if direct == 0 || fallback == 0 {
		t.Errorf("%d rows written from the model, %d from their JSON: both ways should be tried", direct, fallback)
	}
	t.Logf("%d rows from the model, %d from their JSON, in %d files", direct, fallback, len(plans))
	if testing.Verbose() {
		t.Log(strings.Repeat("-", 8))
	}
}
