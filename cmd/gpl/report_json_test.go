package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gpl-lang/gpl/scenarios"
)

// reportSchema compiles docs/report.schema.json.
func reportSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../../docs/report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("docs/report.schema.json: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatalf("docs/report.schema.json does not compile: %v", err)
	}
	return sch
}

// runJSON runs gpl run --format json in dir and decodes its output.
func runJSON(t *testing.T, dir string, args ...string) (any, int) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var stdout, stderr bytes.Buffer
	code := runMain(append([]string{"run", "--format", "json"}, args...), strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(stdout.Bytes()))
	if err != nil {
		t.Fatalf("gpl run %v printed no JSON document: %v\n%s", args, err, stdout.String())
	}
	return doc, code
}

const schemaPlan = `param rate = 2.50 USD/h
let budget = $2720047.41
let speed  = 10GB / 1s
let label  = "plan"
let big    = 1 < 2
pool p { devices = 128  rate = rate }
pool bare { devices = 8 }
job j on p {
  hours    = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98 }
  expect mpg ≈ 0.282
  expect mpg ≈ 0.29 within 1%
  expect cost_per_useful_hour < $5/h
}
job idle on p {
  hours   = 10h
  factors { S = 0.9  R = 0.9  P = 0 }
}
rules serving {
  fast: when batch_size <= 4 -> latency_critical
  else throughput
}
request small { batch_size = 2  input_size = 500KB }
expect idle.cost_per_useful_hour < 5 USD/h
expect big
`

// schemaWhatIfs has the what-ifs the schema describes: sweeps over a job
// and over the file, with and without show columns, a point that cannot be
// evaluated, and solves over a job and over the file, one whose answer
// borders values where the job cannot be evaluated.
const schemaWhatIfs = `param mtbf = 4h
pool p { devices = 128  rate = 2 USD/h }
job j on p {
  hours    = 720h
  factors  { S = 0.95  R = runtime_goodput(mtbf, 1min, 10min)  P = 0.40 }
  ceilings { R = 0.97 }
}
group fleet { j }
sweep by_mtbf over j { vary mtbf in [4h, 5min, 8h] }
sweep shown over j {
  vary program in [0.4, 0.5]
  show cost, saving.program, best_lever
}
sweep whole over file {
  vary mtbf in [5min, 4h, 1000h]
  show fleet.mpg, j.best_lever, fleet.cost_per_useful_hour
}
solve needs over file { find mtbf in [10min, 1000h] such that fleet.mpg >= 0.35 }
solve any over j { find mtbf in [10min, 1000h] such that runtime >= 0 }
`

// schemaEUR has money in euros everywhere it can be: a reservation by
// month, a group, a compare, sweeps over a job and over the file.
const schemaEUR = `param na = 32
pool p { devices = 64  rate = 2.50 EUR/h  from 2027-01-01 to 2027-03-01 }
job a on p { devices = na  from 2027-01-01 to 2027-02-01  factors { S = 0.9  R = 0.9  P = 0.4 } }
job b on p { devices = 16  from 2027-01-15 to 2027-02-15  factors { S = 0.9  R = 0.9  P = 0.4 } }
group g { a, b }
compare c { a, b }
sweep s over a { vary rate in [2 EUR/h, 3 EUR/h] }
sweep f over file { vary na in [8, 16]  show g.cost, p.idle_cost }
`

// TestRunJSONSchema validates gpl run --format json against the schema
// the docs ship, on one file, two files, a file that does not load, and
// every bundled scenario.
func TestRunJSONSchema(t *testing.T) {
	sch := reportSchema(t)
	dir := t.TempDir()
	for name, src := range map[string]string{
		"plan.gpl":   schemaPlan,
		"whatif.gpl": schemaWhatIfs,
		"eur.gpl":    schemaEUR,
		"bad.gpl":    "let x =\njob j on nowhere { hours = 1h }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"one file", []string{"plan.gpl"}, exitRuntime},
		{"two files", []string{"plan.gpl", "plan.gpl"}, exitRuntime},
		{"does not load", []string{"bad.gpl"}, exitCheck},
		{"loaded and not", []string{"bad.gpl", "plan.gpl"}, exitCheck},
		{"bad setting", []string{"--set", "nosuch=1", "plan.gpl"}, exitCheck},
		{"bundled scenarios", scenarios.Names(), exitOK},
		{"what-ifs", []string{"whatif.gpl"}, exitOK},
		{"euros", []string{"eur.gpl"}, exitOK},
	}
	t.Chdir(dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, code := runJSON(t, "", tt.args...)
			if code != tt.exit {
				t.Errorf("exit %d, want %d", code, tt.exit)
			}
			if err := sch.Validate(doc); err != nil {
				t.Errorf("output does not validate against docs/report.schema.json:\n%v", err)
			}
			files := doc.(map[string]any)["files"].([]any)
			if len(files) != len(tt.args) && tt.args[0] != "--set" {
				t.Errorf("%d file entries for %d files", len(files), len(tt.args))
			}
		})
	}
}

// TestRunJSONSchemaRejects makes sure the schema is strict enough to fail:
// documents that break the shape must not validate.
func TestRunJSONSchemaRejects(t *testing.T) {
	sch := reportSchema(t)
	for name, doc := range map[string]string{
		"an array":             `[]`,
		"unknown key":          `{"files": [], "summary": {"files":0,"loaded":0,"passed":0,"failed":0,"errors":0,"exit":0}, "extra": 1}`,
		"money as text":        `{"files": [{"file":"a","loaded":true,"diagnostics":[],"values":{"b":{"param":false,"type":"money","usd":"$5"}},"pools":[],"jobs":[],"rulesets":[],"requests":[],"expectations":[]}], "summary": {"files":1,"loaded":1,"passed":0,"failed":0,"errors":0,"exit":0}}`,
		"value without unit":   `{"files": [{"file":"a","loaded":true,"diagnostics":[],"values":{"b":{"param":false,"type":"money"}},"pools":[],"jobs":[],"rulesets":[],"requests":[],"expectations":[]}], "summary": {"files":1,"loaded":1,"passed":0,"failed":0,"errors":0,"exit":0}}`,
		"solve without result": `{"files": [{"file":"a","loaded":true,"diagnostics":[],"values":{},"pools":[],"jobs":[],"rulesets":[],"requests":[],"expectations":[],"solves":[{"name":"s","over":"job","job":"j","input":"runtime","value":0.9,"condition":"mpg >= 0.3","result_of":"mpg"}]}], "summary": {"files":1,"loaded":1,"passed":0,"failed":0,"errors":0,"exit":0}}`,
		"point error as text":  `{"files": [{"file":"a","loaded":true,"diagnostics":[],"values":{},"pools":[],"jobs":[],"rulesets":[],"requests":[],"expectations":[],"sweeps":[{"name":"s","over":"file","inputs":["m"],"points":1,"table":[{"m_h":1,"error":"no"}]}]}], "summary": {"files":1,"loaded":1,"passed":0,"failed":0,"errors":0,"exit":0}}`,
		"missing expectations": `{"files": [{"file":"a","loaded":true,"diagnostics":[],"values":{},"pools":[],"jobs":[],"rulesets":[],"requests":[]}], "summary": {"files":1,"loaded":1,"passed":0,"failed":0,"errors":0,"exit":0}}`,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sch.Validate(v) == nil {
			t.Errorf("%s: validates, want rejected", name)
		}
	}
}

// TestRunJSONValues pins the values, nulls and expectation fields of the
// document for schemaPlan.
func TestRunJSONValues(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plan.gpl"), []byte(schemaPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, _ := runJSON(t, dir, "plan.gpl")
	file := doc.(map[string]any)["files"].([]any)[0].(map[string]any)
	type pick struct {
		Path string
		Want any
	}
	get := func(path string) any {
		var cur any = file
		for _, k := range strings.Split(path, ".") {
			switch c := cur.(type) {
			case map[string]any:
				cur = c[k]
			case []any:
				i := int(k[0] - '0')
				cur = c[i]
			}
		}
		return cur
	}
	var got, want []pick
	for _, p := range []pick{
		{"values.budget.usd", 2720047.41},
		{"values.rate.usd_per_device_hour", 2.5},
		{"values.rate.param", true},
		{"values.speed.B/s", 1e10},
		{"values.label.string", "plan"},
		{"values.big.bool", true},
		{"pools.1.rate_usd_per_device_hour", nil},
		{"jobs.0.ceilings.scheduling", 0.98},
		{"jobs.0.ceilings.runtime", nil},
		{"jobs.1.headroom", nil},
		{"jobs.1.cost_per_useful_hour_usd", nil},
		{"requests.0.input_size_bytes", 500000.0},
		{"requests.0.sla_deadline_ms", nil},
		{"requests.0.classes.serving.rule", "fast"},
		{"rulesets.0.classes.1", "throughput"},
		{"expectations.1.operator", "≈"},
		{"expectations.1.within_percent", 1.0},
		{"expectations.1.tolerance.count", 0.0029},
		{"expectations.1.message", "expectation failed: got 0.28215, want 0.29 within 1% (± 0.0029) (off by 0.00785)"},
		{"expectations.2.want.usd_per_device_hour", 5.0},
		{"expectations.3.got", nil},
		{"expectations.4.operator", nil},
	} {
		want = append(want, p)
		got = append(got, pick{p.Path, numberOf(get(p.Path))})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON fields (-want +got):\n%s", diff)
	}
}

// numberOf turns the json.Number the schema library decodes into a
// float64, so that it compares with the wanted literals.
func numberOf(v any) any {
	if n, ok := v.(interface{ Float64() (float64, error) }); ok {
		f, _ := n.Float64()
		return f
	}
	return v
}

// planningFiles are the language's planning test files, which have what
// the bundled scenarios lack: compares by every ranking, a sweep of two
// inputs, solves of every kind of input.
var planningFiles = []string{"planning_groups.gpl", "planning_compare.gpl", "planning_sweep.gpl", "planning_solve.gpl"}

// copyPlanningFiles copies planningFiles into dir.
func copyPlanningFiles(t *testing.T, dir string) {
	t.Helper()
	for _, name := range planningFiles {
		src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "lang", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRunJSONKeys holds the JSON report to one spelling per quantity
// (docs/report.md, "JSON keys"): a key is the quantity's name as the
// language spells it and its unit's suffix, so device-hours are
// offered_hours_h, loss_hours_h and so on in jobs, waterfalls, owner
// rows, groups, compares and sweeps alike, never *_device_hours or a bare
// *_hours (issue 18). It also validates the planning test files against
// the schema.
func TestRunJSONKeys(t *testing.T) {
	sch := reportSchema(t)
	dir := t.TempDir()
	copyPlanningFiles(t, dir)
	doc, code := runJSON(t, dir, append(planningFiles, scenarios.Names()...)...)
	if code != exitOK {
		t.Errorf("exit %d, want %d", code, exitOK)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("output does not validate against docs/report.schema.json:\n%v", err)
	}
	bad := map[string]bool{}
	seen := map[string]bool{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				switch {
				case path == "values" || strings.HasSuffix(path, ".results") || strings.HasSuffix(path, ".classes"):
					// keyed by a declared name or a result's name: a typed value
				case strings.Contains(k, "device_hours") && !strings.Contains(k, "per_device_hour"), strings.HasSuffix(k, "_hours"):
					bad[path+"."+k] = true
				default:
					seen[k] = true
				}
				walk(path+"."+k, x)
			}
		case []any:
			for _, x := range v {
				walk(path, x)
			}
		}
	}
	for _, f := range doc.(map[string]any)["files"].([]any) {
		for k, v := range f.(map[string]any) {
			walk(k, v)
		}
	}
	if len(bad) > 0 {
		t.Errorf("keys that do not name their unit as the others do: %v", bad)
	}
	// Every device-hours key the report has, each spelt one way.
	var hours []string
	for k := range seen {
		if strings.HasSuffix(k, "_hours_h") {
			hours = append(hours, k)
		}
	}
	slices.Sort(hours)
	want := []string{"allocated_hours_h", "gain_hours_h", "held_hours_h", "idle_hours_h", "loss_hours_h", "offered_hours_h", "productive_hours_h", "useful_hours_h"}
	if diff := cmp.Diff(want, hours); diff != "" {
		t.Errorf("device-hours keys (-want +got):\n%s", diff)
	}
}
