package htmlreport

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
)

var update = flag.Bool("update", false, "rewrite testdata/*.html with what the page renders")

// solve evaluates a job of the default scenario's figures, with or
// without its rate, and returns it as the report model arranges it; each
// factor's owner is the factor's name.
func solve(t *testing.T, rate bool) report.JobView {
	t.Helper()
	pool := "pool p { devices = 128 }"
	if rate {
		pool = "pool p { devices = 128  rate = 2.50 USD/h }"
	}
	s, err := eval.LoadSource("default.gpl", []byte(pool+`
job llama2_70b on p {
  hours    = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = 0.45 }
}
`))
	if err != nil {
		t.Fatal(err)
	}
	return report.Build(s).Jobs[0].View
}

// marks is what a test compares of a chart's marks: class, name, value.
func marks(c Chart) [][3]string {
	var out [][3]string
	for _, m := range c.Marks {
		out = append(out, [3]string{m.Class, m.Name, m.Value})
	}
	return out
}

func TestWaterfallChart(t *testing.T) {
	c := WaterfallChart(Job{Name: "llama2_70b", View: solve(t, true)})
	want := [][3]string{
		{"bar offered", "offered", "92160"},
		{"bar held", "held", "87552"},
		{"loss", "lost to scheduling", "4608"},
		{"bar productive", "productive", "78796.8"},
		{"loss", "lost to runtime", "8755.2"},
		{"bar useful", "useful", "26002.944"},
		{"loss", "lost to program", "52793.856"},
	}
	if d := cmp.Diff(want, marks(c)); d != "" {
		t.Errorf("marks (-want +got):\n%s", d)
	}
	wantRows := [][]string{
		{"offered", "92,160 h", "—", "—", "—"},
		{"held", "87,552 h", "4,608 h", "scheduling", "$11,520.00"},
		{"productive", "78,797 h", "8,755 h", "runtime", "$21,888.00"},
		{"useful", "26,003 h", "52,794 h", "program", "$131,984.64"},
	}
	if d := cmp.Diff(wantRows, c.Table.Rows); d != "" {
		t.Errorf("table (-want +got):\n%s", d)
	}
	if c.YLabel != "device-hours (h)" {
		t.Errorf("y label = %q", c.YLabel)
	}
	// The useful bar stands on the axis and reaches its value: the axis
	// runs 0..100000 over the plot's height.
	a := newArea(chartWidth, chartHeight)
	u := c.Marks[5]
	if got, want := u.Y+u.H, a.bottom; got != want {
		t.Errorf("useful bar ends at y=%v, want the axis at %v", got, want)
	}
	if got, want := u.H, (a.bottom-a.top)*26002.944/100000; !near(got, want) {
		t.Errorf("useful bar is %v high, want %v", got, want)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

func TestLeversChartSortsBySavingAndMarksBest(t *testing.T) {
	for _, rate := range []bool{true, false} {
		v := solve(t, rate)
		for f, owner := range [report.NumFactors]string{"pool team", "infra", "model team"} {
			v.Factors[f].Owner = owner
		}
		c := LeversChart("levers-j", "j", v)
		var cats []string
		for _, l := range c.Labels {
			if l.Class == "category" {
				cats = append(cats, l.Text)
			}
		}
		if d := cmp.Diff([]string{"★ model team", "infra", "pool team"}, cats); d != "" {
			t.Errorf("rate %v: categories (-want +got):\n%s", rate, d)
		}
		if c.Table.Marked != 0 {
			t.Errorf("rate %v: marked row %d, want 0", rate, c.Table.Marked)
		}
		want := [][3]string{
			{"bar loss", "lost to model team", "52793.856"}, {"bar gain", "won back by model team's lever", "9455.616"},
			{"bar loss", "lost to infra", "8755.2"}, {"bar gain", "won back by infra's lever", "1444.608"},
			{"bar loss", "lost to pool team", "4608"}, {"bar gain", "won back by pool team's lever", "821.1456"},
		}
		if d := cmp.Diff(want, marks(c)); d != "" {
			t.Errorf("rate %v: marks (-want +got):\n%s", rate, d)
		}
	}
}

func TestCompareCharts(t *testing.T) {
	cs := CompareCharts(Compare{Name: "tuning", Entries: []CompareEntry{
		{Job: "base", CostPerUsefulHour: 8.8605, HasCost: true, UsefulHours: 26002.944},
		{Job: "tuned", CostPerUsefulHour: 7.3099, HasCost: true, UsefulHours: 31518.72},
		{Job: "free", UsefulHours: 1000},
	}})
	if len(cs) != 2 {
		t.Fatalf("%d charts, want 2", len(cs))
	}
	got := [][][3]string{marks(cs[0]), marks(cs[1])}
	want := [][][3]string{
		{{"bar cost", "base", "8.8605"}, {"bar cost", "tuned", "7.3099"}},
		{{"bar useful", "base", "26002.944"}, {"bar useful", "tuned", "31518.72"}, {"bar useful", "free", "1000"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("marks (-want +got):\n%s", d)
	}
	wantCost := [][]string{{"base", "$8.8605/h"}, {"tuned", "$7.3099/h"}, {"free", "—"}}
	if d := cmp.Diff(wantCost, cs[0].Table.Rows); d != "" {
		t.Errorf("cost table (-want +got):\n%s", d)
	}
	if cs[0].Table.Marked != 1 || cs[1].Table.Marked != 1 {
		t.Errorf("marked rows %d, %d; want tuned (1) in both", cs[0].Table.Marked, cs[1].Table.Marked)
	}
	if cs[0].YLabel != "cost per useful hour (USD/h)" {
		t.Errorf("cost axis = %q", cs[0].YLabel)
	}
}

var program = Quantity{"program", report.Count}

func TestSweepLine(t *testing.T) {
	price := Quantity{"cost per useful hour", report.Price}
	ph := func(v float64) float64 { return priceToBase(v) }
	c, err := SweepChart(Sweep{Name: "mfu", Inputs: []Quantity{program}, Output: price,
		Points: [][]float64{{0.40, ph(7.3099)}, {0.33, ph(8.8605)}, {0.45, ph(6.4977)}},
		Base:   []float64{0.33, ph(8.8605)},
		Refs:   []Ref{{Axis: 0, At: 0.45, Label: "ceiling 0.45"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]string{
		{"point", "program 0.33", "8.8605"}, {"point", "program 0.4", "7.3099"}, {"point", "program 0.45", "6.4977"},
		{"point base", "program 0.33", "8.8605"},
	}
	if d := cmp.Diff(want, marks(c)); d != "" {
		t.Errorf("marks (-want +got):\n%s", d)
	}
	if c.Table.Marked != 0 || c.XLabel != "program" || c.YLabel != "cost per useful hour (USD/h)" {
		t.Errorf("marked %d, x %q, y %q", c.Table.Marked, c.XLabel, c.YLabel)
	}
	if strings.Count(c.Path, ",") != 3 {
		t.Errorf("path %q joins %d points, want 3", c.Path, strings.Count(c.Path, ","))
	}
	refs := 0
	for _, l := range c.Lines {
		if l.Class == "ref" {
			refs++
		}
	}
	if refs != 1 {
		t.Errorf("%d reference lines, want 1", refs)
	}
}

func TestSweepHeatmap(t *testing.T) {
	var pts [][]float64
	for _, s := range []float64{0.9, 0.95} {
		for _, p := range []float64{0.3, 0.4, 0.5} {
			pts = append(pts, []float64{s, p, s * p})
		}
	}
	sched := Quantity{"scheduling", report.Count}
	c, err := SweepChart(Sweep{Name: "grid", Inputs: []Quantity{sched, program}, Output: Quantity{"mpg", report.Count},
		Points: pts, Base: []float64{0.95, 0.3, 0.285}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]string{
		{"cell", "scheduling 0.9, program 0.3", "0.27"}, {"cell", "scheduling 0.9, program 0.4", "0.36"},
		{"cell", "scheduling 0.9, program 0.5", "0.45"}, {"cell base", "scheduling 0.95, program 0.3", "0.285"},
		{"cell", "scheduling 0.95, program 0.4", "0.38"}, {"cell", "scheduling 0.95, program 0.5", "0.475"},
	}
	if d := cmp.Diff(want, marks(c)); d != "" {
		t.Errorf("cells (-want +got):\n%s", d)
	}
	if c.Marks[0].Fill != "#eef3fa" || c.Marks[5].Fill != "#08306b" {
		t.Errorf("lowest cell %s, highest %s; want the ends of the scale", c.Marks[0].Fill, c.Marks[5].Fill)
	}
	// The table is the grid as drawn: a row per program value, the
	// highest first, a column per scheduling value; the base job's cell
	// marked.
	wantTable := Table{Caption: "Sweep grid: mpg by scheduling and program (rows: program, columns: scheduling)",
		Head: []string{"program \\ scheduling", "0.9", "0.95"},
		Rows: [][]string{{"0.5", "0.45", "0.475"}, {"0.4", "0.36", "0.38"}, {"0.3", "0.27", "0.285"}},
		Grid: true, Marked: 2, MarkedCol: 2}
	if d := cmp.Diff(wantTable, c.Table); d != "" {
		t.Errorf("table (-want +got):\n%s", d)
	}
	// The colour scale: its swatches from the palest up, and its ticks
	// at round values of mpg between the lowest and the highest cell.
	swatches := 0
	for _, a := range c.Areas {
		if a.Class == "swatch" {
			swatches++
		}
	}
	if swatches != scaleSteps || c.Areas[0].Fill != shade(0.5/scaleSteps) || c.Areas[scaleSteps-1].Fill != shade(1-0.5/scaleSteps) {
		t.Errorf("%d swatches from %s to %s", swatches, c.Areas[0].Fill, c.Areas[scaleSteps-1].Fill)
	}
	if d := cmp.Diff([]string{"0.3", "0.35", "0.4", "0.45"}, labelTexts(c, "scale-label")); d != "" {
		t.Errorf("scale ticks (-want +got):\n%s", d)
	}
	// Every cell shows its value, as the text report prints it.
	if d := cmp.Diff([]string{"0.27", "0.36", "0.45", "0.285", "0.38", "0.475"}, labelTexts(c, "cell-value", "cell-value dark")); d != "" {
		t.Errorf("cell labels (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"colour: mpg, darker is more"}, labelTexts(c, "note")); d != "" {
		t.Errorf("note (-want +got):\n%s", d)
	}
	if _, err := SweepChart(Sweep{Name: "x", Inputs: []Quantity{sched, sched, sched}}); err == nil {
		t.Errorf("a sweep of three inputs drew")
	}
}

// labelTexts are the texts of a chart's labels of the given classes, in
// order.
func labelTexts(c Chart, classes ...string) []string {
	var out []string
	for _, l := range c.Labels {
		if slices.Contains(classes, l.Class) {
			out = append(out, l.Text)
		}
	}
	return out
}

// The solve chart marks its target: a line of its own with the condition
// as its label, the side where the condition holds shaded, and the answer
// on the curve with a line down to the input axis and its value; the
// table has the answer among the curve's rows, marked.
func TestSolveChart(t *testing.T) {
	c := SolveChart(Solve{Name: "mfu", Input: program, Output: Quantity{"mpg", report.Count},
		Curve: [][]float64{{0.3, 0.2565}, {0.4, 0.342}, {0.5, 0.4275}}, Op: ">=", Target: 0.3,
		Answer: []float64{0.350877, 0.3}, Found: true})
	got := marks(c)
	if len(got) != 4 || got[3] != [3]string{"point answer", "program 0.35088", "0.3"} {
		t.Errorf("marks = %q, want three points and the answer", got)
	}
	if d := cmp.Diff([]string{"target: mpg ≥ 0.3"}, labelTexts(c, "target-label")); d != "" {
		t.Errorf("target label (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"answer: program 0.35088"}, labelTexts(c, "answer-label")); d != "" {
		t.Errorf("answer label (-want +got):\n%s", d)
	}
	var target, answer Line
	for _, l := range c.Lines {
		switch l.Class {
		case "target":
			target = l
		case "answer-line":
			answer = l
		}
	}
	a := newArea(chartWidth, chartHeight)
	// mpg runs 0.25 to 0.45 up the plot: 0.3 is a quarter of the way.
	y := a.bottom - (a.bottom-a.top)*0.25
	if target != (Line{Class: "target", X1: a.left, Y1: y, X2: a.right, Y2: y}) {
		t.Errorf("target line %+v, want across the plot at y %v", target, y)
	}
	// ≥: the condition holds above the line.
	if d := cmp.Diff([]Area{{Class: "target-zone", X: a.left, Y: a.top, W: a.right - a.left, H: y - a.top}}, c.Areas); d != "" {
		t.Errorf("zone (-want +got):\n%s", d)
	}
	if answer.X1 != answer.X2 || answer.Y2 != a.bottom || answer.Y1 != y {
		t.Errorf("answer line %+v, want from the answer down to the axis", answer)
	}
	wantTable := Table{Caption: c.Title, Head: []string{"program", "mpg"},
		Rows:   [][]string{{"0.3", "0.2565"}, {"0.35088", "0.3"}, {"0.4", "0.342"}, {"0.5", "0.4275"}},
		Marked: 1}
	if d := cmp.Diff(wantTable, c.Table); d != "" {
		t.Errorf("table (-want +got):\n%s", d)
	}
	// ≤ shades below the line; with no answer there is none to mark.
	c = SolveChart(Solve{Name: "x", Input: program, Output: Quantity{"mpg", report.Count},
		Curve: [][]float64{{0.3, 0.25}, {0.5, 0.45}}, Op: "<", Target: 0.3})
	if len(c.Areas) != 1 || c.Areas[0].Y != y || c.Areas[0].Y+c.Areas[0].H != a.bottom || c.Table.Marked != -1 || len(labelTexts(c, "answer-label")) != 0 {
		t.Errorf("below: areas %+v, marked %d, labels %q", c.Areas, c.Table.Marked, labelTexts(c, "answer-label", "target-label"))
	}
}

func TestNiceScale(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi float64
		want   []float64
	}{
		{"device-hours", 0, 92160, []float64{0, 20000, 40000, 60000, 80000, 100000}},
		{"fractions", 0.33, 0.45, []float64{0.3, 0.35, 0.4, 0.45}},
		{"flat", 0, 0, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, niceScale(tt.lo, tt.hi, tt.lo == 0, 0, 1).ticks()); d != "" {
				t.Errorf("ticks (-want +got):\n%s", d)
			}
		})
	}
}

func TestWaterfallBar(t *testing.T) {
	v := solve(t, true)
	for _, tt := range []struct {
		name string
		utf8 bool
		want string
	}{
		{"utf8", true, "  " + strings.Repeat("█", 11) + strings.Repeat("▓", 23) + strings.Repeat("▒", 4) + strings.Repeat("░", 2) +
			" useful 0.28215 · lost: program 0.57285, runtime 0.095, scheduling 0.05\n"},
		{"ascii", false, "  " + strings.Repeat("#", 11) + strings.Repeat("=", 23) + strings.Repeat("-", 4) + strings.Repeat(".", 2) +
			" useful 0.28215 | lost: program 0.57285, runtime 0.095, scheduling 0.05\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WaterfallBar(&b, &v, tt.utf8); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, b.String()); d != "" {
				t.Errorf("bar (-want +got):\n%s", d)
			}
		})
	}
}

func TestCells(t *testing.T) {
	tests := []struct {
		name  string
		parts [4]float64
		want  [4]int
	}{
		{"default", [4]float64{0.28215, 0.57285, 0.095, 0.05}, [4]int{11, 23, 4, 2}},
		{"all useful", [4]float64{1, 0, 0, 0}, [4]int{40, 0, 0, 0}},
		{"thirds", [4]float64{1.0 / 3, 1.0 / 3, 1.0 / 3, 0}, [4]int{14, 13, 13, 0}},
		{"a sliver keeps none", [4]float64{0.999, 0.001, 0, 0}, [4]int{40, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, cells(tt.parts, BarWidth)); d != "" {
				t.Errorf("cells (-want +got):\n%s", d)
			}
		})
	}
}

func TestTerminalUTF8(t *testing.T) {
	tests := []struct {
		name string
		tty  bool
		env  map[string]string
		want bool
	}{
		{"utf8 terminal", true, map[string]string{"LANG": "en_GB.UTF-8"}, true},
		{"LC_ALL wins", true, map[string]string{"LC_ALL": "C", "LANG": "en_GB.UTF-8"}, false},
		{"utf8 spelt short", true, map[string]string{"LC_CTYPE": "C.utf8"}, true},
		{"no locale", true, nil, false},
		{"a pipe", false, map[string]string{"LANG": "en_GB.UTF-8"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TerminalUTF8(tt.tty, func(k string) string { return tt.env[k] }); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPageGolden renders the default scenario's page, and a page of
// made-up planning sections, against golden files.
func TestPageGolden(t *testing.T) {
	s, err := eval.LoadFile("../../../../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromScenario(s, []string{"gpu_rate=2.50USD/h"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Name = "llama2_70b_shared_pool_128.gpl"
	v := solve(t, true)
	plan := File{Name: "plan.gpl",
		Groups: []Group{{Name: "training", Jobs: []string{"a", "b"}, HasCost: true, Offered: v.Steps[0].Hours, Held: v.Steps[1].Hours,
			Productive: v.Steps[2].Hours, Useful: v.Steps[3].Hours, Cost: v.Cost, CostPerUsefulHour: 8.8605, MPG: v.MPG,
			Owners: []GroupOwner{{Owner: "infra", Factors: []string{"scheduling", "runtime"}, LossHours: 13363.2, LossCost: 33408, GainHours: 2265.7536, Saving: 19179.38},
				{Owner: "program", Factors: []string{"program"}, LossHours: 52793.856, LossCost: 131984.64, GainHours: 9455.616, Saving: 61440}}}},
		Compares: []Compare{{Name: "tuning", Entries: []CompareEntry{{Job: "a", CostPerUsefulHour: 8.8605, HasCost: true, UsefulHours: 26002.944}, {Job: "b", CostPerUsefulHour: 7.3099, HasCost: true, UsefulHours: 31518.72}}}},
		Sweeps:   []Sweep{{Name: "mfu", Inputs: []Quantity{program}, Output: Quantity{"mpg", report.Count}, Points: [][]float64{{0.3, 0.2565}, {0.4, 0.342}}, Base: []float64{0.3, 0.2565}, Refs: []Ref{{Axis: 0, At: 0.45, Label: "ceiling 0.45"}}}},
		Solves:   []Solve{{Name: "reach", Input: program, Output: Quantity{"mpg", report.Count}, Curve: [][]float64{{0.3, 0.2565}, {0.4, 0.342}}, Target: 0.3, Answer: []float64{0.350877, 0.3}, Found: true}},
		Rulesets: []Ruleset{{Name: "serving", Rules: []RuleCount{{Name: "urgent", Class: "latency", Tested: 1, Streamed: 7}, {Name: "else", Class: "throughput", Streamed: 3}},
			Samples: []Sample{{Request: "chat", Class: "latency", Rule: "urgent"}}, StreamLines: 11, Unusable: 1}},
		Stream:       "requests.jsonl",
		Expectations: []Expectation{{Name: "plan.gpl:3: expect x == 1", Status: "fail", Got: "2", Want: "1", Diagnostic: "error: x is 2, want 1 <here>"}},
	}
	var langFiles []File
	for _, name := range planningFiles {
		lf := load(t, name)
		lf.Name = name
		langFiles = append(langFiles, lf)
	}
	for _, tt := range []struct {
		golden string
		files  []File
	}{{"default.html", []File{f}}, {"planning.html", []File{plan}}, {"planning_lang.html", langFiles}} {
		t.Run(tt.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, Report{Files: tt.files}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tt.golden)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if d := cmp.Diff(string(want), b.String()); d != "" {
				t.Errorf("%s (-want +got; go test -update rewrites it):\n%s", path, d)
			}
			checkSelfContained(t, b.String())
		})
	}
}

// checkSelfContained fails on anything in a page that could make the
// browser fetch: a URL in an attribute, a CSS url() or @import, a script.
func checkSelfContained(t *testing.T, page string) {
	t.Helper()
	for _, bad := range []string{"http:", "https:", "//", "src=", "srcset=", "url(", "@import", "<script", "<link", "<iframe", "<object"} {
		if strings.Contains(page, bad) {
			i := strings.Index(page, bad)
			t.Errorf("the page holds %q: …%s…", bad, page[max(i-40, 0):min(i+40, len(page))])
		}
	}
	for _, part := range strings.Split(page, `href="`)[1:] {
		if !strings.HasPrefix(part, "#") {
			t.Errorf("a link leaves the page: href=%q", part[:strings.IndexByte(part, '"')])
		}
	}
}

func TestCheckSelfContainedCatches(t *testing.T) {
	for _, page := range []string{`<img src="x.png">`, `<a href="https://x">`, `<style>p{background:url(x)}</style>`, `<a href="other.html">`} {
		ft := &testing.T{}
		done := make(chan bool)
		go func() { defer close(done); checkSelfContained(ft, page) }()
		<-done
		if !ft.Failed() {
			t.Errorf("checkSelfContained passed %q", page)
		}
	}
}

// A heatmap labels every cell or none: in full when every value fits its
// cell, rounded to 3 significant digits when only that fits, else none.
func TestCellTexts(t *testing.T) {
	mpg := Quantity{"mpg", report.Count}
	pts := [][]float64{{0, 0, 0.27778}, {0, 1, 0.3}, {1, 0, 1234.5678}}
	tests := []struct {
		name    string
		cw, ch  float64
		want    []string
		rounded bool
	}{
		{"wide", 120, 20, []string{"0.27778", "0.3", "1,234.6"}, false},
		{"narrow", 44, 20, []string{"0.278", "0.3", "1,230"}, true},
		{"too narrow", 30, 20, nil, false},
		{"too low", 120, 15, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			texts, rounded := cellTexts(pts, mpg, 1234.5678, tt.cw, tt.ch)
			if d := cmp.Diff(tt.want, texts); d != "" || rounded != tt.rounded {
				t.Errorf("rounded %v, want %v; texts (-want +got):\n%s", rounded, tt.rounded, d)
			}
		})
	}
}
