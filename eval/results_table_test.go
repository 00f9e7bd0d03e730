package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResultTable checks each row of the job results: one row per name,
// what computes it, formulas whose operands are results, and group rules
// a group can compute.
func TestResultTable(t *testing.T) {
	var problems []string
	owner := map[string]string{}
	for _, d := range resultTable {
		for _, n := range append([]string{d.name}, d.aliases...) {
			if prev, ok := owner[n]; ok {
				problems = append(problems, n+": a name of "+prev+" and of "+d.name)
			}
			owner[n] = d.name
		}
		if d.typ.Kind == Invalid || d.doc == "" {
			problems = append(problems, d.name+": no type or no doc")
		}
		if (d.of == nil) == (resultRuns[d.index].calc == nil) {
			problems = append(problems, d.name+": needs exactly one of of and calc")
		}
		if d.input && (d.formula != "" || resultRuns[d.index].explain != nil) {
			problems = append(problems, d.name+": an input has no formula")
		}
		for _, in := range d.inputs {
			if resultDefs[in] == nil {
				problems = append(problems, d.name+": input "+in+" is no result")
			}
		}
		switch d.group {
		case groupSum:
			if d.of == nil {
				problems = append(problems, d.name+": a group sums the engine's figure, of")
			}
		case groupRatio:
			for _, part := range d.ratio {
				if p := resultDefs[part]; p == nil || p.group != groupSum {
					problems = append(problems, d.name+": "+part+" is no sum of a group")
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
		Group         groupRule
	}
	got := map[string]row{}
	want := map[string]row{
		"mpg":                  {"mpg", "{S} × {R} × {P}", []string{"S", "R", "P"}, false, groupRatio},
		"cost_per_useful_hour": {"cost_per_useful_hour", "{rate} / {mpg}", []string{"rate", "mpg"}, true, groupRatio},
		"loss.R":               {"loss.runtime", "{S} × (1 − {R})", []string{"S", "R"}, false, groupNone},
		"loss.scheduling":      {"loss.scheduling", "1 − {S}", []string{"S"}, false, groupNone},
		"saving.P":             {"saving.program", "{cost} × (1 − {mpg} / {lever.program})", []string{"cost", "mpg", "lever.program"}, true, groupSum},
		"scheduling":           {"S", "", nil, false, groupNone},
	}
	for name := range want {
		d := resultDefs[name]
		got[name] = row{d.name, d.formula, d.inputs, d.needsRate, d.group}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got\n%s", diff)
	}
}
