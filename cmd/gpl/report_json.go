package main

// gpl run --format json: one JSON document, whatever the number of files
// and whether they loaded, of the shape docs/report.schema.json fixes.
// Every number is a JSON number under a key that names its unit; a value
// that was not set, or that is not defined (the headroom of a job whose
// mpg is 0), is null rather than absent.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// jsonRun is the whole document.
type jsonRun struct {
	Files   []jsonFile     `json:"files"`
	Summary jsonRunSummary `json:"summary"`
}

// jsonRunSummary counts the files and expectations of a run; Exit is the
// exit code gpl run returns.
type jsonRunSummary struct {
	Files  int `json:"files"`
	Loaded int `json:"loaded"`
	Passed int `json:"passed"`
	Failed int `json:"failed"`
	Errors int `json:"errors"`
	Exit   int `json:"exit"`
}

// jsonFile is one file given to gpl run. A file that did not load has its
// diagnostics and empty lists.
type jsonFile struct {
	File         string               `json:"file"`
	Loaded       bool                 `json:"loaded"`
	Diagnostics  []jsonDiagnostic     `json:"diagnostics"`
	Values       map[string]jsonNamed `json:"values"`
	Pools        []jsonPool           `json:"pools"`
	Jobs         []jsonJob            `json:"jobs"`
	Rulesets     []jsonRuleset        `json:"rulesets"`
	Requests     []jsonRequest        `json:"requests"`
	Expectations []jsonExpectation    `json:"expectations"`
	jsonPlanning                      // groups, compares, sweeps, solves: report_planning.go
}

// jsonDiagnostic is an error or warning, placed as the text renders it.
type jsonDiagnostic struct {
	Severity  string   `json:"severity"`
	Summary   string   `json:"summary"`
	Label     string   `json:"label"`
	File      *string  `json:"file"`
	Line      *int     `json:"line"`
	Column    *int     `json:"column"`
	EndLine   *int     `json:"end_line"`
	EndColumn *int     `json:"end_column"`
	Notes     []string `json:"notes"`
}

// jsonValue is a typed value: {"type": "price", "usd_per_device_hour":
// 2.5}. The second key names the unit the number is in; see unitKey.
type jsonValue struct {
	typ string
	key string
	val any // *float64 (nil when not finite), string or bool
}

// jsonNamed is a let or a param: its value, and whether it is a param.
type jsonNamed struct {
	Param bool
	Value jsonValue
}

type jsonPool struct {
	Name    string   `json:"name"`
	Devices *float64 `json:"devices"`
	Hours   *float64 `json:"hours_h"`
	Rate    *float64 `json:"rate_usd_per_device_hour"`
}

type jsonFactors struct {
	Scheduling float64 `json:"scheduling"`
	Runtime    float64 `json:"runtime"`
	Program    float64 `json:"program"`
}

// jsonCeilings are the ceilings as written: null for one not set.
type jsonCeilings struct {
	Scheduling *float64 `json:"scheduling"`
	Runtime    *float64 `json:"runtime"`
	Program    *float64 `json:"program"`
}

type jsonJob struct {
	Name              string       `json:"name"`
	Pool              *string      `json:"pool"`
	Extends           *string      `json:"extends"`
	Devices           float64      `json:"devices"`
	Hours             float64      `json:"hours_h"`
	Rate              *float64     `json:"rate_usd_per_device_hour"`
	Factors           jsonFactors  `json:"factors"`
	Ceilings          jsonCeilings `json:"ceilings"`
	MPG               float64      `json:"mpg"`
	Badput            float64      `json:"badput"`
	Loss              jsonFactors  `json:"loss"`
	OfferedHours      float64      `json:"offered_device_hours"`
	UsefulHours       float64      `json:"useful_device_hours"`
	Cost              *float64     `json:"cost_usd"`
	BadputCost        *float64     `json:"badput_cost_usd"`
	CostPerUsefulHour *float64     `json:"cost_per_useful_hour_usd"`
	Lever             jsonFactors  `json:"lever"`
	Gain              jsonFactors  `json:"gain"`
	BestLever         *string      `json:"best_lever"`
	CeilingMPG        float64      `json:"ceiling_mpg"`
	Headroom          *float64     `json:"headroom"`
	// The waterfall and the owner table (report_waterfall.go).
	Waterfall *jsonWaterfall `json:"waterfall"`
	Owners    []jsonOwner    `json:"owners"`
}

type jsonRuleset struct {
	Name    string     `json:"name"`
	File    string     `json:"file"`
	Rules   []jsonRule `json:"rules"`
	Else    string     `json:"else"`
	Classes []string   `json:"classes"`
}

// jsonRule is one rule: its name as reports give it ("small", "rule 2",
// "else"), its label when it has one, its line, and the class it gives.
type jsonRule struct {
	Name  string  `json:"name"`
	Label *string `json:"label"`
	Line  int     `json:"line"`
	Class string  `json:"class"`
}

// jsonRequest is a request declaration, its fields under kapsl's keys
// (the sla_deadline in milliseconds), null when absent, and its class by
// every ruleset of the file.
type jsonRequest struct {
	Name        string                  `json:"name"`
	Priority    float64                 `json:"priority"`
	SLADeadline *float64                `json:"sla_deadline_ms"`
	BatchSize   float64                 `json:"batch_size"`
	InputSize   *float64                `json:"input_size_bytes"`
	Flops       *float64                `json:"estimated_flops"`
	Classes     map[string]jsonClassHit `json:"classes"`
}

type jsonClassHit struct {
	Class string `json:"class"`
	Rule  string `json:"rule"`
}

// jsonExpectation is one expect and how it went. Got and want are null
// when it could not be evaluated; tolerance is null but for ≈, and
// within_percent but for "within P%"; message is the one-line summary of a
// failure or error, null on a pass.
type jsonExpectation struct {
	Name          string     `json:"name"`
	File          string     `json:"file"`
	Line          int        `json:"line"`
	Column        int        `json:"column"`
	Source        string     `json:"source"`
	Status        string     `json:"status"`
	Operator      *string    `json:"operator"`
	Got           *jsonValue `json:"got"`
	Want          *jsonValue `json:"want"`
	Tolerance     *jsonValue `json:"tolerance"`
	WithinPercent *float64   `json:"within_percent"`
	Message       *string    `json:"message"`
}

// unitKey is the key under which a number of dimension d is written, and
// the unit it is converted to: "count"; "h" for durations, in hours;
// "bytes"; "flop"; "usd"; "usd_per_device_hour" for prices; and, for any
// other dimension, its base unit spelled as lang does ("B/s"), in base
// units.
func unitKey(d lang.Dim) (string, float64) {
	switch d {
	case lang.Count:
		return "count", 1
	case lang.Duration:
		return "h", 3600
	case lang.Data:
		return "bytes", 1
	case lang.Compute:
		return "flop", 1
	case lang.Money:
		return "usd", 1
	case lang.Price:
		return "usd_per_device_hour", 1.0 / 3600
	}
	return d.BaseUnit(), 1
}

func valueJSON(v eval.Value) jsonValue {
	switch v.Type.Kind {
	case eval.Number:
		key, per := unitKey(v.Type.Dim)
		n := v.Num
		if per != 1 {
			n = lang.ToUnit(n, lang.Unit{Factor: per})
		}
		return jsonValue{typ: v.Type.String(), key: key, val: finite(n)}
	case eval.Bool:
		return jsonValue{typ: "bool", key: "bool", val: v.Bool}
	case eval.String:
		return jsonValue{typ: "string", key: "string", val: v.Str}
	case eval.Class:
		return jsonValue{typ: "class", key: "class", val: v.Str}
	}
	return jsonValue{typ: "invalid", key: "invalid", val: nil}
}

// MarshalJSON writes {"type": T, KEY: VALUE} in that order.
func (v jsonValue) MarshalJSON() ([]byte, error) {
	return v.marshal(nil)
}

func (v jsonValue) marshal(param *bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{`)
	if param != nil {
		b.WriteString(`"param":`)
		b.WriteString(map[bool]string{true: "true", false: "false"}[*param])
		b.WriteString(`,`)
	}
	b.WriteString(`"type":`)
	t, _ := json.Marshal(v.typ)
	b.Write(t)
	b.WriteString(`,`)
	k, _ := json.Marshal(v.key)
	b.Write(k)
	b.WriteString(`:`)
	val, err := json.Marshal(v.val)
	if err != nil {
		return nil, err
	}
	b.Write(val)
	b.WriteString(`}`)
	return b.Bytes(), nil
}

// MarshalJSON writes {"param": P, "type": T, KEY: VALUE}.
func (n jsonNamed) MarshalJSON() ([]byte, error) { return n.Value.marshal(&n.Param) }

// finite is v cleaned of float noise, or nil when it is not a finite
// number, which JSON cannot hold.
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	c := lang.Clean(v)
	return &c
}

// Every number in the JSON report is rounded so that it shows no float
// noise: products and quotients with lang.Clean (15 significant digits),
// and the fractions computed as differences (badput, losses, gains) with
// lang.CleanFraction (15 decimals), since a difference keeps the absolute
// error of its operands: gain.scheduling is 0.00891, not
// 0.00891000000000003.

func triple(a [goodput.NumFactors]float64) jsonFactors {
	return jsonFactors{lang.Clean(a[0]), lang.Clean(a[1]), lang.Clean(a[2])}
}

// differences is triple for fractions computed by subtraction.
func differences(a [goodput.NumFactors]float64) jsonFactors {
	return jsonFactors{lang.CleanFraction(a[0]), lang.CleanFraction(a[1]), lang.CleanFraction(a[2])}
}

func ceilingsJSON(in goodput.Inputs) jsonCeilings {
	var a [goodput.NumFactors]*float64
	for i := range a {
		if c := in.Ceilings[i]; c.Set {
			a[i] = finite(c.Value)
		}
	}
	return jsonCeilings{a[0], a[1], a[2]}
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// diagnosticsJSON places each diagnostic; a position of line 0 is null.
func diagnosticsJSON(ds lang.Diagnostics) []jsonDiagnostic {
	out := []jsonDiagnostic{}
	for _, d := range ds {
		jd := jsonDiagnostic{Severity: "error", Summary: d.Summary, Label: d.Label, Notes: append([]string{}, d.Notes...)}
		if d.Severity == lang.Warning {
			jd.Severity = "warning"
		}
		if d.Pos.Filename != "" {
			jd.File = &d.Pos.Filename
		}
		if d.Pos.Line > 0 {
			jd.Line, jd.Column = &d.Pos.Line, &d.Pos.Column
			if d.End.Line > 0 {
				jd.EndLine, jd.EndColumn = &d.End.Line, &d.End.Column
			}
		}
		out = append(out, jd)
	}
	return out
}

// emptyFile is the entry of a file with nothing evaluated.
func emptyFile(name string, diags lang.Diagnostics) jsonFile {
	return jsonFile{File: name, Diagnostics: diagnosticsJSON(diags), Values: map[string]jsonNamed{},
		Pools: []jsonPool{}, Jobs: []jsonJob{}, Rulesets: []jsonRuleset{}, Requests: []jsonRequest{},
		Expectations: []jsonExpectation{}}
}

// toJSON is the entry of a file that loaded; warnings are its diagnostics.
func toJSON(r *report, warnings lang.Diagnostics) jsonFile {
	out := emptyFile(r.file, warnings)
	out.Loaded = true
	for _, l := range r.s.Lets() {
		out.Values[l.Name] = jsonNamed{Param: l.Param, Value: valueJSON(l.Value)}
	}
	for _, p := range r.s.Pools() {
		jp := jsonPool{Name: p.Name}
		if v, ok := p.Fields["devices"]; ok {
			jp.Devices = finite(v.Num)
		}
		if v, ok := p.Fields["hours"]; ok {
			jp.Hours = finite(lang.ToUnit(v.Num, lang.Units["h"]))
		}
		if v, ok := p.Fields["rate"]; ok {
			jp.Rate = finite(lang.ToUnit(v.Num, lang.Units["USD/h"]))
		}
		out.Pools = append(out.Pools, jp)
	}
	for _, j := range r.s.Jobs() {
		out.Jobs = append(out.Jobs, jobJSON(j))
	}
	for _, name := range r.s.Rulesets() {
		out.Rulesets = append(out.Rulesets, rulesetJSON(r.s, name))
	}
	for _, q := range r.s.Requests() {
		out.Requests = append(out.Requests, requestJSON(r.s, q))
	}
	for _, o := range r.outcomes {
		out.Expectations = append(out.Expectations, expectationJSON(o))
	}
	out.jsonPlanning = toJSONPlanning(r.s)
	return out
}

func jobJSON(j *eval.Job) jsonJob {
	res := j.Result
	in := j.Inputs
	jj := jsonJob{
		Name: j.Name, Pool: optional(j.Pool), Extends: optional(j.Extends),
		Devices: lang.Clean(in.Devices), Hours: lang.Clean(in.Hours),
		Factors:  triple([goodput.NumFactors]float64{in.Factors[0].Value, in.Factors[1].Value, in.Factors[2].Value}),
		Ceilings: ceilingsJSON(in),
		MPG:      lang.Clean(res.MPG), Badput: lang.CleanFraction(res.Badput), Loss: differences(res.Loss),
		OfferedHours: lang.Clean(res.OfferedHours), UsefulHours: lang.Clean(res.UsefulHours),
		Lever: triple(res.Lever), Gain: differences(res.Gain), CeilingMPG: lang.Clean(res.CeilingMPG),
	}
	if in.Rate.Set {
		jj.Rate = finite(in.Rate.Value)
		jj.Cost, jj.BadputCost = finite(res.Cost), finite(res.BadputCost)
		if v, err := res.CostPerUsefulHour(); err == nil {
			jj.CostPerUsefulHour = finite(v)
		}
	}
	if res.HasBestLever {
		jj.BestLever = optional(res.BestLever.String())
	}
	if h, err := res.Headroom(); err == nil {
		jj.Headroom = finite(h)
	}
	jj.Waterfall, jj.Owners = waterfallJSON(j)
	return jj
}

func rulesetJSON(s *eval.Scenario, name string) jsonRuleset {
	rs, _ := s.Ruleset(name)
	file, lines := s.RulesetLines(name)
	out := jsonRuleset{Name: name, File: file, Rules: []jsonRule{}, Else: string(rs.Otherwise()), Classes: []string{}}
	seen := map[priority.Class]bool{}
	class := func(c priority.Class) {
		if !seen[c] {
			seen[c] = true
			out.Classes = append(out.Classes, string(c))
		}
	}
	for i, r := range rs.Rules() {
		jr := jsonRule{Name: rs.RuleName(i), Label: optional(r.Label), Class: string(r.Class)}
		if i < len(lines) {
			jr.Line = lines[i]
		}
		out.Rules = append(out.Rules, jr)
		class(r.Class)
	}
	class(rs.Otherwise())
	return out
}

func requestJSON(s *eval.Scenario, q eval.NamedRequest) jsonRequest {
	field := func(f priority.Field) *float64 {
		if v, ok := q.Request.Get(f); ok {
			return &v
		}
		return nil
	}
	out := jsonRequest{Name: q.Name, Priority: q.Request.Values[priority.Priority], BatchSize: q.Request.Values[priority.BatchSize],
		SLADeadline: field(priority.SLADeadline), InputSize: field(priority.InputSize), Flops: field(priority.Flops),
		Classes: map[string]jsonClassHit{}}
	for _, name := range s.Rulesets() {
		rs, _ := s.Ruleset(name)
		class, rule := rs.Classify(&q.Request)
		out.Classes[name] = jsonClassHit{Class: string(class), Rule: rs.RuleName(rule)}
	}
	return out
}

func expectationJSON(o eval.Outcome) jsonExpectation {
	ex := o.Expectation
	je := jsonExpectation{Name: ex.Name(), File: ex.File(), Line: ex.Line(), Column: ex.Column(), Source: ex.Source,
		Status: o.Status(), Operator: optional(ex.Operator())}
	if !o.Err {
		got, want := valueJSON(o.Got), valueJSON(o.Want)
		je.Got, je.Want = &got, &want
		if ex.Operator() == "≈" {
			tol := valueJSON(eval.NumberValue(o.Tolerance, o.Want.Type.Dim))
			je.Tolerance = &tol
		}
	}
	if p, ok := o.WithinPercent(); ok {
		je.WithinPercent = &p
	}
	if !o.Pass && o.Diagnostic != nil {
		msg := o.Diagnostic.Summary
		if o.Diagnostic.Label != "" {
			msg += ": " + o.Diagnostic.Label
		}
		je.Message = &msg
	}
	return je
}

// summarizeRun counts the files and outcomes of a run.
func summarizeRun(files []jsonFile, exit int) jsonRunSummary {
	s := jsonRunSummary{Files: len(files), Exit: exit}
	for _, f := range files {
		if f.Loaded {
			s.Loaded++
		}
		for _, e := range f.Expectations {
			switch e.Status {
			case "pass":
				s.Passed++
			case "fail":
				s.Failed++
			default:
				s.Errors++
			}
		}
	}
	return s
}

// writeJSON prints the one document of a run.
func writeJSON(w io.Writer, files []jsonFile, exit int) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(jsonRun{Files: files, Summary: summarizeRun(files, exit)})
}

// loadDiagnostics are the diagnostics of an error that stopped a file.
func loadDiagnostics(err error) lang.Diagnostics {
	var le *eval.Error
	if errors.As(err, &le) {
		return le.Diagnostics
	}
	return lang.Diagnostics{{Severity: lang.Error, Summary: strings.TrimSpace(err.Error())}}
}
