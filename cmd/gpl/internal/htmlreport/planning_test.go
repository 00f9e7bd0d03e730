package htmlreport

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
	"github.com/gpl-lang/gpl/scenarios"
)

// TestGrouped checks that the page's figures carry thousands separators
// (the report model's, as the text report's) and its data-values none.
func TestGrouped(t *testing.T) {
	if got := formatValue(DeviceHours, hoursToBase(92160)); got != "92,160 h" {
		t.Errorf("92160 device-hours print as %q", got)
	}
	if got := formatValue(Quantity{Dim: report.Money}, 230400); got != "$230,400.00" {
		t.Errorf("money prints as %q", got)
	}
	if got := tickText(100000); got != "100,000" {
		t.Errorf("tick prints as %q", got)
	}
	if got := count(1024); got != "1,024" {
		t.Errorf("a count prints as %q", got)
	}
	if got := attrNumber(92160); got != "92160" {
		t.Errorf("a data-value prints as %q", got)
	}
}

func TestKept(t *testing.T) {
	if d := cmp.Diff([]bool{true, true, true}, kept(3, 5)); d != "" {
		t.Errorf("a small axis (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]bool{true, false, true, false, true}, kept(5, 3)); d != "" {
		t.Errorf("every other (-want +got):\n%s", d)
	}
	if n := countKept(kept(1_000_001, maxLinePoints)); n != maxLinePoints {
		t.Errorf("a huge axis keeps %d, want %d", n, maxLinePoints)
	}
}

// planningFiles are the language's test files with groups, compares,
// sweeps and solves: the golden page planning_lang.html and the browser
// test draw them.
var planningFiles = []string{"planning_groups.gpl", "planning_compare.gpl", "planning_sweep.gpl", "planning_solve.gpl", "planning_whatif.gpl"}

// load evaluates one of the language's planning test files.
func load(t *testing.T, name string) File {
	t.Helper()
	s, err := eval.LoadFile("../../../../testdata/lang/" + name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromScenario(s, nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestGroupFromEval(t *testing.T) {
	f := load(t, "planning_groups.gpl")
	if len(f.Groups) != 1 {
		t.Fatalf("%d groups, want 1", len(f.Groups))
	}
	c := GroupChart(f.Groups[0])
	want := [][3]string{
		// 52,793.856 + 1,536 × 0.98 × 0.95 × (1 − 0.30); 9,455.616 + 1,536 × 0.98 × 0.95 × 0.10
		{"bar loss", "lost to program", "53794.8672"}, {"bar gain", "won back by program's lever", "9598.6176"},
		// mixtral_sft has no runtime or scheduling ceiling: no gain of its own
		{"bar loss", "lost to runtime", "8830.464"}, {"bar gain", "won back by runtime's lever", "1444.608"},
		{"bar loss", "lost to scheduling", "4638.72"}, {"bar gain", "won back by scheduling's lever", "821.1456"},
	}
	if d := cmp.Diff(want, marks(c)); d != "" {
		t.Errorf("marks (-want +got):\n%s", d)
	}
	if c.Table.Marked != 0 || c.Table.Rows[0][0] != "program" || c.Table.Rows[0][5] != "$62,400.00" {
		t.Errorf("marked row %d, first row %q; want program's, saving $62,400.00", c.Table.Marked, c.Table.Rows[0])
	}
	facts := GroupFacts(f.Groups[0])
	if got, want := facts[1][1], "93,696 h offered → 89,057 h held → 80,227 h productive → 26,432 h useful"; got != want {
		t.Errorf("device-hours %q, want %q", got, want)
	}
}

func TestCompareFromEval(t *testing.T) {
	f := load(t, "planning_compare.gpl")
	var names []string
	for _, c := range f.Compares {
		names = append(names, c.Name+":"+c.Best)
	}
	if d := cmp.Diff([]string{"tuning:llama2_70b_tuned", "options:llama2_70b_spot", "by_work:llama2_70b_tuned", "by_spend:llama2_70b_spot", "tie:llama2_70b_tuned"}, names); d != "" {
		t.Errorf("compares (-want +got):\n%s", d)
	}
	cs := CompareCharts(f.Compares[1])
	got := [][][3]string{marks(cs[0]), marks(cs[1])}
	want := [][][3]string{
		{{"bar cost", "llama2_70b", "8.860535176"}, {"bar cost", "llama2_70b_tuned", "7.30994152"}, {"bar cost", "llama2_70b_spot", "5.050505051"}},
		{{"bar useful", "llama2_70b", "26002.944"}, {"bar useful", "llama2_70b_tuned", "31518.72"}, {"bar useful", "llama2_70b_spot", "21897.216"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("marks (-want +got):\n%s", d)
	}
	if cs[0].Table.Marked != 2 || cs[1].Table.Marked != 1 {
		t.Errorf("marked rows %d, %d; want the spot job's cost, the tuned job's hours", cs[0].Table.Marked, cs[1].Table.Marked)
	}
	if want := "compare options picks llama2_70b_spot (lowest cost_per_useful_hour)."; cs[0].Note != want {
		t.Errorf("note %q, want %q", cs[0].Note, want)
	}
}

func TestSweepFromEval(t *testing.T) {
	f := load(t, "planning_sweep.gpl")
	sw := map[string]Sweep{}
	for _, s := range f.Sweeps {
		sw[s.Name] = s
	}
	c, err := SweepChart(sw["program_sweep"])
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]string{
		{"point", "program 0.3", "0.2565"}, {"point", "program 0.35", "0.29925"}, {"point", "program 0.4", "0.342"},
		{"point", "program 0.45", "0.38475"}, {"point", "program 0.5", "0.4275"},
		{"point base", "program 0.33", "0.28215"},
	}
	if d := cmp.Diff(want, marks(c)); d != "" {
		t.Errorf("program_sweep marks (-want +got):\n%s", d)
	}
	var refs []string
	for _, l := range c.Labels {
		if l.Class == "ref-label" {
			refs = append(refs, l.Text)
		}
	}
	if d := cmp.Diff([]string{"program ceiling 0.45", "ceiling mpg 0.41895"}, refs); d != "" {
		t.Errorf("reference lines (-want +got):\n%s", d)
	}

	c, err = SweepChart(sw["fleet_size"])
	if err != nil {
		t.Fatal(err)
	}
	// useful hours = devices × 720 h × 0.95 × runtime × 0.33; the base
	// job's own point (runtime 0.9, 128 devices) is a cell of the grid.
	want = [][3]string{
		{"cell base", "runtime 0.9, devices 128", "26002.944"}, {"cell", "runtime 0.9, devices 256", "52005.888"},
		{"cell", "runtime 0.93, devices 128", "26869.7088"}, {"cell", "runtime 0.93, devices 256", "53739.4176"},
		{"cell", "runtime 0.95, devices 128", "27447.552"}, {"cell", "runtime 0.95, devices 256", "54895.104"},
	}
	if d := cmp.Diff(want, marks(c)); d != "" {
		t.Errorf("fleet_size cells (-want +got):\n%s", d)
	}
	if c.YLabel != "devices" || !strings.HasPrefix(c.Title, "Sweep fleet_size: useful hours by runtime and devices") {
		t.Errorf("fleet_size y %q, title %q", c.YLabel, c.Title)
	}

	// A sweep of the rate draws cost per useful hour; one of hours,
	// useful hours.
	if q := sw["pricing"].Output; q != costQ {
		t.Errorf("pricing draws %v", q)
	}
	if q := sw["booking"].Output; q != usefulQ || len(sw["booking"].Points) != 30 {
		t.Errorf("booking draws %v over %d points", q, len(sw["booking"].Points))
	}
	if q := sw["reach"].Output; q != ceilingMPGQ {
		t.Errorf("reach draws %v", q)
	}
}

func TestHugeSweepIsCapped(t *testing.T) {
	src := []byte(`pool p { devices = 8 }
job j on p { hours = 10h  factors { scheduling = 0.9  runtime = 0.9  program = 0.3 } }
sweep line over j { vary program from 0 to 1 step 0.00001 }
sweep grid over j { vary program from 0 to 1 step 0.001  vary runtime from 0 to 1 step 0.01 }
`)
	s, err := eval.LoadWith(eval.Options{}, "huge.gpl", src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromScenario(s, nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	line, grid := f.Sweeps[0], f.Sweeps[1]
	if len(line.Points) != maxLinePoints || line.Points[0][0] != 0 || line.Points[maxLinePoints-1][0] != 1 {
		t.Errorf("line: %d points from %v to %v", len(line.Points), line.Points[0], line.Points[len(line.Points)-1])
	}
	wantNote := "The sweep has 100,001 points; drawn and tabulated here are 200, at evenly spaced values of each input (the first and last among them). gpl run --format json lists them all."
	if line.Note != wantNote {
		t.Errorf("line note %q", line.Note)
	}
	if len(grid.Points) != maxGridSide*maxGridSide {
		t.Errorf("grid: %d points, want %d", len(grid.Points), maxGridSide*maxGridSide)
	}
	c, err := SweepChart(grid)
	if err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, m := range c.Marks {
		if strings.HasPrefix(m.Class, "cell") {
			cells++
		}
	}
	if cells != maxGridSide*maxGridSide || len(c.Table.Rows) != maxGridSide || len(c.Table.Head) != maxGridSide+1 {
		t.Errorf("grid: %d cells, a table of %d rows and %d columns", cells, len(c.Table.Rows), len(c.Table.Head))
	}
	for _, r := range c.Table.Rows {
		if len(r) != maxGridSide+1 {
			t.Errorf("a row of %d cells, want %d", len(r), maxGridSide+1)
		}
	}
}

func TestSolveFromEval(t *testing.T) {
	f := load(t, "planning_solve.gpl")
	sv := map[string]Solve{}
	for _, s := range f.Solves {
		sv[s.Name] = s
	}
	s := sv["devices_needed"]
	c := SolveChart(s)
	answer := c.Marks[len(c.Marks)-1]
	if got := [3]string{answer.Class, answer.Name, answer.Value}; got != [3]string{"point answer", "devices 148", "30065.904"} {
		t.Errorf("answer %q", got)
	}
	if len(s.Curve) != solveSamples || s.Curve[0][0] != 1 || s.Curve[len(s.Curve)-1][0] != 1024 {
		t.Errorf("curve of %d points from %v to %v", len(s.Curve), s.Curve[0], s.Curve[len(s.Curve)-1])
	}
	if d := cmp.Diff([]string{"target: useful hours ≥ 30,000 h", "answer: devices 148"}, labelTexts(c, "target-label", "answer-label")); d != "" {
		t.Errorf("target and answer labels (-want +got):\n%s", d)
	}
	if m := c.Table.Marked; m < 0 || c.Table.Rows[m][0] != "148" || c.Table.Rows[m][1] != "30,066 h" || len(c.Table.Rows) != solveSamples+1 {
		t.Errorf("table of %d rows, marked %d", len(c.Table.Rows), m)
	}
	if want := "solve devices_needed over llama2_70b: devices = 148 gives useful_hours >= 30000h (30,066 h there). The curve is the result at 41 values across the range searched."; s.Note != want {
		t.Errorf("note %q\nwant %q", s.Note, want)
	}
	r := sv["runtime_needed"]
	if len(r.Refs) != 1 || r.Refs[0] != (Ref{Axis: 0, At: 0.95, Label: "runtime ceiling 0.95"}) || !strings.Contains(r.Note, "above the job's ceiling") {
		t.Errorf("runtime_needed refs %v, note %q", r.Refs, r.Note)
	}
}

// TestReportMdScenarios keeps docs/report.md's account of the bundled
// scenarios true of the tree: each that has groups, compares, sweeps or
// solves is named, with just the kinds it has ("`NAME` has groups and
// compares"), and none is said to have none (issue 18).
func TestReportMdScenarios(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/report.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	if strings.Contains(text, "no bundled scenario") {
		t.Errorf("docs/report.md says no bundled scenario has some planning statement")
	}
	for _, name := range scenarios.Names() {
		src, _ := scenarios.Files.ReadFile(name + ".gpl")
		s, err := eval.LoadWith(eval.Options{FS: scenarios.Files, Scenarios: scenarios.Files}, name+".gpl", src)
		if err != nil {
			t.Fatal(err)
		}
		p := report.PlanningOf(s)
		has := map[string]bool{"group": len(p.Groups) > 0, "compare": len(p.Compares) > 0, "sweep": len(p.Sweeps) > 0, "solve": len(p.Solves) > 0}
		_, said, named := strings.Cut(text, "`"+name+"` ")
		if !has["group"] && !has["compare"] && !has["sweep"] && !has["solve"] {
			continue
		}
		if !named {
			t.Errorf("docs/report.md does not name %s, which has %v", name, has)
			continue
		}
		said, _, _ = strings.Cut(said, "`") // up to the next name
		for kind, h := range has {
			if strings.Contains(said, kind) != h {
				t.Errorf("docs/report.md on %s: %q; it has %v", name, said, has)
			}
		}
	}
}

// TestWhatIfFromEval draws a sweep over the whole file by its first
// numeric show column, lists its point that cannot be evaluated with why,
// and notes a solve's answer over the file.
func TestWhatIfFromEval(t *testing.T) {
	s, err := eval.LoadSource("whatif.gpl", []byte(`param ckpt_cost = 1min
pool p { devices = 2048  rate = 2 USD/h }
job pretrain on p {
  devices = 1024
  hours   = 720h
  factors { S = 0.95  R = runtime_goodput(4h, ckpt_cost, 10min)  P = 0.40 }
}
group fleet { pretrain }
sweep storage over file {
  vary ckpt_cost in [10s, 1min, 4h]
  show pretrain.best_lever, fleet.mpg, fleet.useful_hours
}
solve max_ckpt over file {
  find ckpt_cost in [1s, 4h] such that fleet.mpg >= 0.32
}
`))
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromScenario(s, nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	sw := f.Sweeps[0]
	c, err := SweepChart(sw)
	if err != nil {
		t.Fatal(err)
	}
	// pretrain.runtime at 10 s and 1 min: 0.921066, 0.867046 (language.md
	// §21); fleet.mpg = 0.95 × R × 0.40. The file's own point is 1 min.
	want := [][3]string{{"point", "ckpt_cost 10 s", "0.3500049028"}, {"point", "ckpt_cost 1 min", "0.3294775714"},
		{"point base", "ckpt_cost 1 min", "0.3294775714"}}
	if d := cmp.Diff(want, marks(c)); d != "" {
		t.Errorf("storage marks (-want +got):\n%s", d)
	}
	fail := "runtime_goodput would be -0.456, below 0: failures come faster than the job keeps progress; checkpoint faster, restart faster or raise the MTBF (whatif.gpl:6:27)"
	wantFailed := Table{Caption: "Points of sweep storage that cannot be evaluated", Head: []string{"point", "why it cannot be evaluated"},
		Rows: [][]string{{"ckpt_cost = 4 h", fail}}, Marked: -1}
	if d := cmp.Diff(wantFailed, c.Failed); d != "" {
		t.Errorf("storage's failed points (-want +got):\n%s", d)
	}
	if wantNote := "Drawn is its first numeric column, fleet.mpg; gpl run prints every column (pretrain.best_lever, fleet.mpg, fleet.useful_hours)."; c.Note != wantNote {
		t.Errorf("note %q\nwant %q", c.Note, wantNote)
	}
	sv := f.Solves[0]
	if !strings.HasPrefix(sv.Note, "solve max_ckpt over file: ckpt_cost = ") || sv.Output.Name != "fleet.mpg" {
		t.Errorf("solve note %q, output %q", sv.Note, sv.Output.Name)
	}
	// The curve's values from 1 s to 4 h where pretrain cannot be evaluated.
	if len(sv.Failed) == 0 || sv.Failed[len(sv.Failed)-1] != [2]string{"ckpt_cost = 4 h", fail} {
		t.Errorf("solve's failed values %q", sv.Failed)
	}
}
