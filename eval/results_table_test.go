package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval/internal/results"
)

// TestResultTable checks each row of the job results: one row per name,
// what computes it, formulas whose operands are results, and group rules
// a group can compute.
func TestResultTable(t *testing.T) {
	var problems []string
	owner := map[string]string{}
	for _, d := range results.Table() {
		for _, n := range append([]string{d.Name}, d.Aliases...) {
			if prev, ok := owner[n]; ok {
				problems = append(problems, n+": a name of "+prev+" and of "+d.Name)
			}
			owner[n] = d.Name
		}
		if d.Type.Kind == Invalid || d.Doc == "" {
			problems = append(problems, d.Name+": no type or no doc")
		}
		if !d.HasFigure() == (resultRuns()[d.Index].calc == nil) {
			problems = append(problems, d.Name+": needs exactly one of of and calc")
		}
		if d.Input && (d.Formula != "" || resultRuns()[d.Index].explain != nil) {
			problems = append(problems, d.Name+": an input has no formula")
		}
		for _, in := range d.Inputs {
			if results.ByName()[in] == nil {
				problems = append(problems, d.Name+": input "+in+" is no result")
			}
		}
		switch d.Group {
		case results.GroupSum:
			if d.Type.Kind != Number {
				problems = append(problems, d.Name+": a group sums numbers")
			}
		case results.GroupRatio:
			for _, part := range d.Ratio {
				if p := results.ByName()[part]; p == nil || p.Group != results.GroupSum {
					problems = append(problems, d.Name+": "+part+" is no sum of a group")
				}
			}
		}
	}
	if diff := cmp.Diff([]string(nil), problems); diff != "" {
		t.Errorf("rows: -want +got\n%s", diff)
	}
}

// TestResultRows spells a few rows as the checker, Explain and the groups
// read them.
func TestResultRows(t *testing.T) {
	type row struct {
		Name, Formula string
		Inputs        []string
		NeedsRate     bool
		Group         results.GroupRule
	}
	got := map[string]row{}
	want := map[string]row{
		"mpg":                  {"mpg", "{S} × {R} × {P}", []string{"S", "R", "P"}, false, results.GroupRatio},
		"cost_per_useful_hour": {"cost_per_useful_hour", "{rate} / {mpg}", []string{"rate", "mpg"}, true, results.GroupRatio},
		"loss.R":               {"loss.runtime", "{S} × (1 − {R})", []string{"S", "R"}, false, results.GroupNone},
		"loss.scheduling":      {"loss.scheduling", "1 − {S}", []string{"S"}, false, results.GroupNone},
		"saving.P":             {"saving.program", "{cost} × (1 − {mpg} / {lever.program})", []string{"cost", "mpg", "lever.program"}, true, results.GroupSum},
		"scheduling":           {"S", "", nil, false, results.GroupNone},
	}
	for name := range want {
		d := results.ByName()[name]
		got[name] = row{d.Name, d.Formula, d.Inputs, d.NeedsRate, d.Group}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got\n%s", diff)
	}
}
