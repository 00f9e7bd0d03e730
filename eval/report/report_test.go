package report_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

func load(t *testing.T, path string) *eval.Scenario {
	t.Helper()
	s, err := eval.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func ptr[T any](v T) *T { return &v }

// jsonPart leaves out of a comparison what only the other views read.
var jsonPart = cmpopts.IgnoreFields(report.Job{}, "View", "Figures", "Listed")

// money is a JSON report's typed value of v USD.
func money(v float64) *report.Value { return &report.Value{Type: "money", Key: "usd", Val: ptr(v)} }

// TestBuildDefaultScenario pins the whole report of the default
// scenario's first job, as the JSON document carries it.
func TestBuildDefaultScenario(t *testing.T) {
	f := report.Build(load(t, "../../scenarios/llama2_70b_shared_pool_128.gpl"))
	if f.File != "../../scenarios/llama2_70b_shared_pool_128.gpl" || !f.Loaded || len(f.Jobs) != 2 {
		t.Fatalf("file %q, loaded %v, %d jobs", f.File, f.Loaded, len(f.Jobs))
	}
	want := report.Job{
		Name: "llama2_70b", Pool: ptr("shared_h100"),
		Devices: 128, Hours: 720, Rate: ptr(2.5),
		Factors:  report.Factors{0.95, 0.9, 0.33},
		Ceilings: report.Ceilings{Scheduling: ptr(0.98), Runtime: ptr(0.95), Program: ptr(0.45)},
		MPG:      0.28215, Badput: 0.71785,
		Loss:         report.Factors{0.05, 0.095, 0.57285},
		OfferedHours: 92160, UsefulHours: 26002.944,
		Cost: ptr(230400.0), BadputCost: ptr(165392.64), CostPerUsefulHour: ptr(8.86053517632465),
		Lever:     report.Factors{0.29106, 0.297825, 0.38475},
		Gain:      report.Factors{0.00891, 0.015675, 0.1026},
		BestLever: ptr("program"), CeilingMPG: 0.41895, Headroom: ptr(1.48484848484848),
		Waterfall: &report.Waterfall{OfferedHours: 92160, HeldHours: 87552, ProductiveHours: 78796.8, UsefulHours: 26002.944,
			OfferedCost: ptr(230400.0), HeldCost: ptr(218880.0), ProductiveCost: ptr(196992.0), UsefulCost: ptr(65007.36)},
		Owners: []report.Owner{
			{Owner: "program", Factor: "program", LossHours: 52793.856, LossCost: ptr(131984.64), GainHours: 9455.616, Saving: ptr(61440.0)},
			{Owner: "runtime", Factor: "runtime", LossHours: 8755.2, LossCost: ptr(21888.0), GainHours: 1444.608, Saving: ptr(12126.3157894737)},
			{Owner: "scheduling", Factor: "scheduling", LossHours: 4608, LossCost: ptr(11520.0), GainHours: 821.1456, Saving: ptr(7053.06122448982)},
		},
		// cost × 0.01 / (F + 0.01) (language.md §21's check values)
		Results: map[string]*report.Value{
			"point_value.scheduling": money(2400), "point_value.runtime": money(2531.86813186813), "point_value.program": money(6776.47058823529),
		},
	}
	if d := cmp.Diff(want, f.Jobs[0], jsonPart); d != "" {
		t.Errorf("job llama2_70b (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]report.Named{
		"peak_mfu":         {Value: report.Value{Type: "count", Key: "count", Val: ptr(0.45)}},
		"measured_runtime": {Param: true, Value: report.Value{Type: "count", Key: "count", Val: ptr(0.9)}},
	}, f.Values); d != "" {
		t.Errorf("values (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]report.Pool{{Name: "shared_h100", Devices: ptr(128.0), Rate: ptr(2.5)}}, f.Pools,
		cmpopts.IgnoreFields(report.Pool{}, "Fields", "Figures")); d != "" {
		t.Errorf("pools (-want +got):\n%s", d)
	}
}

// TestJobView pins what the text and HTML views draw of a job: the
// waterfall's steps with their cost, the owner table's order, the best
// lever and the figures as eval prints them with their units.
func TestJobView(t *testing.T) {
	f := report.Build(load(t, "../../scenarios/llama2_70b_shared_pool_128.gpl"))
	v := f.Jobs[0].View
	approx := cmpopts.EquateApprox(0, 1e-9)
	wantSteps := [4]report.Step{
		{Name: "offered", Hours: 92160, Cost: 230400},
		{Name: "held", Factor: report.Scheduling, HasFactor: true, Hours: 87552, Cost: 218880},
		{Name: "productive", Factor: report.Runtime, HasFactor: true, Hours: 78796.8, Cost: 196992},
		{Name: "useful", Factor: report.Program, HasFactor: true, Hours: 26002.944, Cost: 65007.36},
	}
	if d := cmp.Diff(wantSteps, v.Steps, approx); d != "" {
		t.Errorf("steps (-want +got):\n%s", d)
	}
	if d := cmp.Diff([3]report.Factor{report.Program, report.Runtime, report.Scheduling}, v.ByOwner); d != "" {
		t.Errorf("owner order (-want +got):\n%s", d)
	}
	wantProgram := report.FactorRow{Factor: report.Program, Name: "program", Short: "P", Owner: "program",
		Value: 0.33, Ceiling: 0.45, HasCeiling: true, Loss: 0.57285, Lever: 0.38475, Gain: 0.1026,
		LossHours: 52793.856, GainHours: 9455.616, LossCost: 131984.64, Saving: 61440}
	if d := cmp.Diff(wantProgram, v.Factors[report.Program], approx); d != "" {
		t.Errorf("program row (-want +got):\n%s", d)
	}
	if !v.HasBestLever || v.BestLever != report.Program || !v.HasCost || !v.HasHeadroom || v.ZeroMPG {
		t.Errorf("best lever %v (%v), cost %v, headroom %v, zero mpg %v", v.BestLever, v.HasBestLever, v.HasCost, v.HasHeadroom, v.ZeroMPG)
	}
	fig := f.Jobs[0].Figures
	got := []string{fig.Devices.String(), fig.Hours.String(), fig.OfferedHours.String(), fig.UsefulHours.String(),
		fig.Cost.String(), fig.BadputCost.String(), fig.CostPerUsefulHour.String(), fig.BestLever.String(), fig.Loss[report.Program].String()}
	want := []string{"128", "720 h", "92,160 h", "26,002.944 h", "$230,400.00", "$165,392.64", "$8.8605/h", `"program"`, "0.57285"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("figures (-want +got):\n%s", d)
	}
}

// TestZeroMPG: a job that does no useful work has no headroom ratio and
// no cost per useful hour, said as such.
func TestZeroMPG(t *testing.T) {
	s, err := eval.LoadSource("idle.gpl", []byte(`
pool one { devices = 1  rate = 1250 USD/h }
job idle on one {
  hours    = 2000h
  factors  { scheduling = 0  runtime = 0.9  program = 0.5 }
  ceilings { scheduling = 0.5 }
}
`))
	if err != nil {
		t.Fatal(err)
	}
	j := report.Build(s).Jobs[0]
	type got struct {
		Headroom, CostPerUsefulHour   *float64
		ZeroMPG, HasHeadroom, Defined bool
		Text                          string
	}
	want := got{ZeroMPG: true, Text: "—"}
	g := got{j.Headroom, j.CostPerUsefulHour, j.View.ZeroMPG, j.View.HasHeadroom, j.View.HasCostPerUsefulHour, j.Figures.CostPerUsefulHour.String()}
	if d := cmp.Diff(want, g); d != "" {
		t.Errorf("zero mpg (-want +got):\n%s", d)
	}
}

// TestGroup pins a group of the language's planning test file: its
// device-hours and costs, and its owners by saving.
func TestGroup(t *testing.T) {
	f := report.Build(load(t, "../../testdata/lang/planning_groups.gpl"))
	want := []report.Group{{
		Name: "training", Jobs: []string{"llama2_70b", "mixtral_sft"},
		OfferedHours: 93696, HeldHours: 89057.28, ProductiveHours: 80226.816, UsefulHours: 26431.9488,
		MPG: 0.282103278688525, Cost: ptr(234240.0), BadputCost: ptr(168160.128), CostPerUsefulHour: ptr(8.86200263826177),
		Owners: []report.GroupOwner{
			{Owner: "program", Factors: []string{"program"}, LossHours: 53794.8672, LossCost: ptr(134487.168), GainHours: 9598.6176, Saving: ptr(62400.0)},
			{Owner: "runtime", Factors: []string{"runtime"}, LossHours: 8830.464, LossCost: ptr(22076.16), GainHours: 1444.608, Saving: ptr(12126.3157894737)},
			{Owner: "scheduling", Factors: []string{"scheduling"}, LossHours: 4638.72, LossCost: ptr(11596.8), GainHours: 821.145600000003, Saving: ptr(7053.06122448982)},
		},
		// the jobs' point_value.F summed ($230,400 and $3,840 × 0.01 / (F + 0.01))
		Results: map[string]*report.Value{
			"point_value.scheduling": money(2438.78787878788), "point_value.runtime": money(2571.86813186813), "point_value.program": money(6900.34155597723),
		},
	}}
	if d := cmp.Diff(want, f.Groups, cmpopts.IgnoreFields(report.Group{}, "Figures", "Listed")); d != "" {
		t.Errorf("groups (-want +got):\n%s", d)
	}
}

// TestDocument pins the summary of a run and the JSON shape of a file
// that did not load.
func TestDocument(t *testing.T) {
	ok := report.Build(load(t, "../../scenarios/llama2_70b_shared_pool_128.gpl"))
	missing := report.Unloaded("nope.gpl", "nope.gpl is neither a file nor a bundled scenario")
	doc := report.NewDocument([]*report.File{ok, missing}, 1)
	if d := cmp.Diff(report.Summary{Files: 2, Loaded: 1, Passed: 21, Exit: 1}, doc.Summary); d != "" {
		t.Errorf("summary (-want +got):\n%s", d)
	}
	var b bytes.Buffer
	if err := report.NewDocument([]*report.File{missing}, 1).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"files": []any{map[string]any{
			"file": "nope.gpl", "loaded": false,
			"diagnostics": []any{map[string]any{"severity": "error", "summary": "nope.gpl is neither a file nor a bundled scenario",
				"label": "", "file": nil, "line": nil, "column": nil, "end_line": nil, "end_column": nil, "notes": []any{}}},
			"values": map[string]any{}, "pools": []any{}, "jobs": []any{}, "rulesets": []any{}, "requests": []any{}, "expectations": []any{},
		}},
		"summary": map[string]any{"files": 1.0, "loaded": 0.0, "passed": 0.0, "failed": 0.0, "errors": 0.0, "exit": 1.0},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("document (-want +got):\n%s", d)
	}
}

// TestFactorsAreTheEngines holds the model's factors to the engine's:
// the same number, in the same order, with the same names.
func TestFactorsAreTheEngines(t *testing.T) {
	if report.NumFactors != goodput.NumFactors {
		t.Fatalf("%d factors, the engine has %d", report.NumFactors, goodput.NumFactors)
	}
	for f := range report.Factor(report.NumFactors) {
		if got, want := f.String(), goodput.Factor(f).String(); got != want {
			t.Errorf("factor %d is %q, the engine's %q", f, got, want)
		}
	}
	if report.Scheduling != report.Factor(goodput.Scheduling) || report.Runtime != report.Factor(goodput.Runtime) || report.Program != report.Factor(goodput.Program) {
		t.Errorf("the factors are not in the engine's order")
	}
}

// TestAmount pins how an amount prints with its unit.
func TestAmount(t *testing.T) {
	got := []string{report.Hours(92160).String(), report.Hours(0).String(), report.USD(230400).String(),
		report.PerHour(8.8605).String(), report.Number(0.28215).String(), report.Number(0.1 + 0.2).Clean().Plain(),
		report.Number(0.29106 - 0.28215).CleanFraction().String(), report.Number(1.0 / 3).Fixed(),
		report.Number(1).Of("device", "devices"), report.Number(128).Of("device", "devices"),
		report.PerHour(2.5).Rate()}
	want := []string{"92,160 h", "0 s", "$230,400.00", "$8.8605/h", "0.28215", "0.3", "0.00891", "0.333333",
		"1 device", "128 devices", "$2.50 per device-hour"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("amounts (-want +got):\n%s", d)
	}
	u, ok := report.Hours(720).Unit()
	if !ok || u.Symbol != "h" || u.In(report.Hours(720).Base) != 720 {
		t.Errorf("720 h reads in %v (%v)", u, ok)
	}
	if _, ok := report.Number(3).Unit(); ok {
		t.Errorf("a count has a unit")
	}
}

// TestDims: a count is the zero Dim, and the named dimensions are those
// the figures of a job have.
func TestDims(t *testing.T) {
	f := report.Build(load(t, "../../scenarios/llama2_70b_shared_pool_128.gpl"))
	var zero report.Dim
	if zero != report.Count || report.Count == report.Duration || report.Money == report.Price {
		t.Errorf("dimensions are not distinct")
	}
	fig := f.Jobs[0].Figures
	for _, tt := range []struct {
		name string
		got  string
		want report.Amount
	}{
		{"hours", fig.Hours.String(), report.Hours(720)},
		{"cost", fig.Cost.String(), report.USD(230400)},
		{"rate", fig.Rate.String(), report.PerHour(2.5)},
		{"mpg", fig.MPG.String(), report.Number(0.28215)},
	} {
		if tt.got != tt.want.String() {
			t.Errorf("%s prints %q, its amount %q", tt.name, tt.got, tt.want)
		}
	}
}

// TestReadable: the precision a report prints a figure at.
func TestReadable(t *testing.T) {
	got := map[string]string{}
	for name, a := range map[string]report.Amount{
		"mpg":            report.Number(0.3438998416),
		"gain":           report.Number(0.1412001584),
		"lever":          report.Number(0.297825),
		"factor":         report.Number(0.95),
		"ratio":          report.Number(78.92628247),
		"large count":    report.Number(12345.678),
		"devices":        report.Number(1024),
		"zero":           report.Number(0),
		"negative":       report.Number(-0.00012345678),
		"money":          report.USD(165392.64),
		"price":          report.PerHour(8.86053517632465),
		"device-hours":   report.Hours(26002.944),
		"few hours":      report.Hours(713.1896471),
		"zero hours":     report.Hours(0),
		"minutes":        {Base: 465.2696568, Dim: report.Duration},
		"hours rounding": report.Hours(999.99996),
	} {
		got[name] = a.Readable()
	}
	want := map[string]string{
		"mpg": "0.3439", "gain": "0.1412", "lever": "0.29783", "factor": "0.95", "ratio": "78.926",
		"large count": "12,346", "devices": "1,024", "zero": "0", "negative": "-0.00012346",
		"money": "$165,392.64", "price": "$8.8605/h", "device-hours": "26,003 h", "few hours": "713.19 h",
		"zero hours": "0 h", "minutes": "7.7545 min", "hours rounding": "1,000 h",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
