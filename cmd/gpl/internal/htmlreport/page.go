package htmlreport

import (
	_ "embed"
	"html/template"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gpl-lang/gpl/eval/report"
)

//go:embed page.html.tmpl
var pageText string

//go:embed page.css
var pageCSS string

// pageTemplate is parsed on first use, not when the program starts: most
// runs of gpl draw no page.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"coord": coord,
		"count": count,
		"join":  strings.Join,
	}).Parse(pageText))
})

// The page's view of the report: each section with its charts drawn.
type (
	pageView struct {
		CSS   template.CSS
		Files []fileView
	}
	fileView struct {
		File
		ID                     string
		Jobs                   []jobView
		Groups                 []groupView
		Compares               []Chart
		Sweeps, Solves         []Chart
		Rulesets               []rulesetView
		Passed, Failed, Errors int
	}
	jobView struct {
		Job
		ID                string
		Facts             [][2]string
		Waterfall, Levers Chart
	}
	groupView struct {
		Group
		ID    string
		Facts [][2]string
		Chart Chart
	}
	rulesetView struct {
		Ruleset
		ID     string
		Stream string
		Chart  Chart
	}
)

// Write renders the report as one HTML page.
func Write(w io.Writer, r Report) error {
	v := pageView{CSS: template.CSS(pageCSS)}
	ids := map[string]int{}
	for _, f := range r.Files {
		fv, err := viewFile(f, ids)
		if err != nil {
			return err
		}
		v.Files = append(v.Files, fv)
	}
	return pageTemplate().Execute(w, v)
}

// notID matches what an anchor may not hold; compiled on first use.
var notID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]+`) })

// uniqueID makes an anchor from a name, unique on the page.
func uniqueID(ids map[string]int, name string) string {
	id := strings.Trim(notID().ReplaceAllString(name, "-"), "-")
	if id == "" {
		id = "section"
	}
	ids[id]++
	if n := ids[id]; n > 1 {
		id += "-" + strconv.Itoa(n)
	}
	return id
}

func viewFile(f File, ids map[string]int) (fileView, error) {
	fid := uniqueID(ids, "file-"+f.Name)
	v := fileView{File: f, ID: fid}
	prefix := func(c Chart) Chart { c.ID = uniqueID(ids, fid+"-"+c.ID); return c }
	for _, j := range f.Jobs {
		v.Jobs = append(v.Jobs, jobView{Job: j, ID: uniqueID(ids, fid+"-job-"+j.Name), Facts: facts(j),
			Waterfall: prefix(WaterfallChart(j)),
			Levers:    prefix(LeversChart("levers-"+j.Name, j.Name, j.View))})
	}
	for _, g := range f.Groups {
		v.Groups = append(v.Groups, groupView{Group: g, ID: uniqueID(ids, fid+"-group-"+g.Name), Facts: GroupFacts(g), Chart: prefix(GroupChart(g))})
	}
	for _, c := range f.Compares {
		for _, ch := range CompareCharts(c) {
			v.Compares = append(v.Compares, prefix(ch))
		}
	}
	for _, s := range f.Sweeps {
		ch, err := SweepChart(s)
		if err != nil {
			return v, err
		}
		v.Sweeps = append(v.Sweeps, prefix(ch))
	}
	for _, s := range f.Solves {
		v.Solves = append(v.Solves, prefix(SolveChart(s)))
	}
	for _, rs := range f.Rulesets {
		v.Rulesets = append(v.Rulesets, rulesetView{Ruleset: rs, ID: uniqueID(ids, fid+"-rules-"+rs.Name),
			Stream: f.Stream, Chart: prefix(RulesChart(rs, f.Stream))})
	}
	for _, e := range f.Expectations {
		switch e.Status {
		case "pass":
			v.Passed++
		case "fail":
			v.Failed++
		default:
			v.Errors++
		}
	}
	return v, nil
}

// facts are a job's headline figures, printed as the text report does.
func facts(j Job) [][2]string {
	v := j.View
	out := [][2]string{
		{"devices × hours", number(v.Devices) + " devices × " + formatValue(Quantity{Dim: report.Duration}, hoursToBase(v.Hours))},
		{"mpg", number(v.MPG)},
		{"badput", fraction(v.Badput)},
		{"ceiling mpg", number(v.CeilingMPG)},
		{"offered hours", formatValue(DeviceHours, hoursToBase(v.Steps[0].Hours))},
		{"useful hours", formatValue(DeviceHours, hoursToBase(v.Steps[3].Hours))},
	}
	if v.HasCost {
		out = append(out, [2]string{"cost", v.Money(v.Cost).String()},
			[2]string{"badput cost", v.Money(v.BadputCost).String()})
		if v.HasCostPerUsefulHour {
			out = append(out, [2]string{"cost per useful hour", v.Price(v.CostPerUsefulHour).String()})
		}
	}
	best := "none: no ceiling raises mpg"
	if v.HasBestLever {
		f := v.Factors[v.BestLever]
		best = f.Owner + " (" + f.Name + ", +" + fraction(f.Gain) + " mpg, to " + number(f.Lever) + ")"
	}
	return append(listed(out, j.Listed), [2]string{"best lever", best})
}

// listed appends the listed results to a table of facts, by name.
func listed(facts [][2]string, ms []report.Metric) [][2]string {
	for _, m := range ms {
		facts = append(facts, [2]string{m.Name, m.Figure.Readable()})
	}
	return facts
}

// RulesChart draws how many requests each rule gave the class to: in the
// stream when there is one, else among the file's classify calls.
func RulesChart(rs Ruleset, stream string) Chart {
	q := Quantity{Name: "requests", Dim: report.Count}
	title := "Rules of " + rs.Name + " that fired in the file's expectations"
	if stream != "" {
		title = "Rules of " + rs.Name + " that fired on " + stream
	}
	var groups []barGroup
	for _, r := range rs.Rules {
		n := r.Tested
		if stream != "" {
			n = r.Streamed
		}
		groups = append(groups, barGroup{Category: r.Name, Note: "→ " + r.Class,
			Bars: []bar{{Class: "bar count", Name: r.Name, High: float64(n)}}})
	}
	c := barChart("rules-"+rs.Name, title, "rule → class", q, groups)
	c.Table = Table{Caption: title, Head: []string{"rule", "class", "fired in expectations"}, Marked: -1}
	if stream != "" {
		c.Table.Head = append(c.Table.Head, "fired on "+stream)
	}
	for _, r := range rs.Rules {
		row := []string{r.Name, r.Class, count(r.Tested)}
		if stream != "" {
			row = append(row, count(r.Streamed))
		}
		c.Table.Rows = append(c.Table.Rows, row)
	}
	return c
}
