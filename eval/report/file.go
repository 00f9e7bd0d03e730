package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// File is the report of one scenario file: its values, pools, jobs,
// planning (groups, compares, sweeps, solves), rulesets, requests and
// expectations. A file that did not load has its diagnostics and empty
// lists.
type File struct {
	File         string           `json:"file"`
	Loaded       bool             `json:"loaded"`
	Diagnostics  []Diagnostic     `json:"diagnostics"`
	Values       map[string]Named `json:"values"`
	Pools        []Pool           `json:"pools"`
	Jobs         []Job            `json:"jobs"`
	Rulesets     []Ruleset        `json:"rulesets"`
	Requests     []Request        `json:"requests"`
	Expectations []Expectation    `json:"expectations"`
	Planning
	// Uncertainty is an uncertain file's sampling (uncertain.go);
	// absent for a file without a distribution.
	Uncertainty *Uncertainty `json:"uncertainty,omitempty"`

	// Lets are the file's lets and params in source order, with their
	// values.
	Lets []eval.Named `json:"-"`

	s       *eval.Scenario
	sources lang.Sources // the texts Rendered quotes, copied when first needed
	// lazy says that Jobs is not filled: AllJobs builds them from s.
	lazy bool
}

// Diagnostic is an error or warning, placed as the text renders it; a
// position of line 0 is nil.
type Diagnostic struct {
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

// Pool is a pool: devices (a count), hours (hours) and rate (USD per
// device-hour), nil where not set.
type Pool struct {
	Name         string   `json:"name"`
	Devices      *float64 `json:"devices"`
	Hours        *float64 `json:"hours_h"`
	Rate         *float64 `json:"rate_usd_per_device_hour"`
	Denomination          // of the pool's rate
	// Reservation is a reserved pool's figures (one with a term or a
	// window), nil for a pool paid per use; Months its figures by
	// calendar month when it or its jobs lie in time.
	// Term is a reservation's term in hours; From and To its window's
	// dates; absent when not set.
	Term        *float64 `json:"term_h,omitempty"`
	From        *string  `json:"from,omitempty"`
	To          *string  `json:"to,omitempty"`
	Reservation *Period  `json:"reservation,omitempty"`
	Months      []Period `json:"months,omitempty"`
	// Fields are the fields set, in the order devices, hours, rate, with
	// their values.
	Fields []Field `json:"-"`
	// Figures are the pool as eval computed it, unrounded.
	Figures eval.Pool `json:"-"`
}

// Period is a pool's or group's figures over its whole time or one
// calendar month: device-hours, the utilisation and mpg (fractions), and
// USD (nil without a rate); Jobs (whole time only) the jobs on the pool.
type Period struct {
	Month             *string  `json:"month,omitempty"`
	OfferedHours      float64  `json:"offered_hours_h"`
	AllocatedHours    float64  `json:"allocated_hours_h"`
	IdleHours         float64  `json:"idle_hours_h"`
	UsefulHours       float64  `json:"useful_hours_h"`
	Utilisation       *float64 `json:"utilisation"`
	MPG               *float64 `json:"mpg"`
	Cost              *float64 `json:"cost_usd"`
	IdleCost          *float64 `json:"idle_cost_usd"`
	CostPerUsefulHour *float64 `json:"cost_per_useful_hour_usd"`
	Jobs              []string `json:"jobs,omitempty"`
}

// periodOf is the report of a period.
func periodOf(p eval.Period) Period {
	out := Period{OfferedHours: units.Clean(p.OfferedHours), AllocatedHours: units.Clean(p.AllocatedHours),
		IdleHours: units.Clean(p.IdleHours), UsefulHours: units.Clean(p.UsefulHours)}
	if p.Month != "" {
		out.Month = optional(p.Month)
	}
	if p.OfferedHours > 0 {
		out.Utilisation, out.MPG = finite(p.Utilisation()), finite(p.MPG())
	}
	if p.HasCost {
		out.Cost = finite(p.Cost)
		if c, ok := p.CostPerUsefulHour(); ok {
			out.CostPerUsefulHour = finite(c)
		}
	}
	if p.HasIdleCost {
		out.IdleCost = finite(p.IdleCost)
	}
	return out
}

func periodsOf(ps []eval.Period) []Period {
	var out []Period
	for _, p := range ps {
		out = append(out, periodOf(p))
	}
	return out
}

// Field is a named value: a pool's field.
type Field struct {
	Name  string
	Value eval.Value
}

// Ruleset is a ruleset: its rules in order, the class it gives when none
// matches, and the classes it can give.
type Ruleset struct {
	Name    string   `json:"name"`
	File    string   `json:"file"`
	Rules   []Rule   `json:"rules"`
	Else    string   `json:"else"`
	Classes []string `json:"classes"`
	// Tested counts, per rule and then else, the requests of the file's
	// classify calls that rule gave the class to.
	Tested []RuleCount `json:"-"`

	rs *priority.Ruleset
}

// RuleCount is a rule ("else" last), the class it gives, and how many
// requests it gave it to.
type RuleCount struct {
	Name, Class string
	Fired       int
}

// Rule is one rule: its name as reports give it ("small", "rule 2",
// "else"), its label when it has one, its line, and the class it gives.
type Rule struct {
	Name  string  `json:"name"`
	Label *string `json:"label"`
	Line  int     `json:"line"`
	Class string  `json:"class"`
}

// Request is a request declaration, its fields under kapsl's keys (the
// sla_deadline in milliseconds, the input size in bytes, the flops a
// count), nil when absent, and its class by every ruleset of the file.
type Request struct {
	Name        string              `json:"name"`
	Priority    float64             `json:"priority"`
	SLADeadline *float64            `json:"sla_deadline_ms"`
	BatchSize   float64             `json:"batch_size"`
	InputSize   *float64            `json:"input_size_bytes"`
	Flops       *float64            `json:"estimated_flops"`
	Classes     map[string]ClassHit `json:"classes"`
}

// ClassHit is the class a ruleset gives a request, and the rule that
// gave it by its name; Ref names the rule as the text report does
// ("rule small", "rule 2", "else").
type ClassHit struct {
	Class string `json:"class"`
	Rule  string `json:"rule"`
	Ref   string `json:"-"`
}

// Expectation is one expect and how it went. Got and Want are nil when it
// could not be evaluated; Tolerance is nil but for ≈, and WithinPercent
// but for "within P%"; Message is the one-line summary of a failure or
// error, nil on a pass.
type Expectation struct {
	Name          string   `json:"name"`
	File          string   `json:"file"`
	Line          int      `json:"line"`
	Column        int      `json:"column"`
	Source        string   `json:"source"`
	Status        string   `json:"status"`
	Operator      *string  `json:"operator"`
	Got           *Value   `json:"got"`
	Want          *Value   `json:"want"`
	Tolerance     *Value   `json:"tolerance"`
	WithinPercent *float64 `json:"within_percent"`
	Message       *string  `json:"message"`
	// Outcome is eval's, with the values compared and the diagnostic.
	Outcome eval.Outcome `json:"-"`
}

// Build is the whole report of a loaded scenario.
func Build(s *eval.Scenario) *File { return Outline(s).Judge().WithJobs() }

// Judge checks the file's expectations, filling Expectations with how
// each went, and returns f.
func (f *File) Judge() *File {
	if f.s != nil {
		f.Expectations = []Expectation{}
		for _, o := range f.s.Test() {
			f.Expectations = append(f.Expectations, expectationOf(o))
		}
	}
	return f
}

// WithJobs is f with its jobs built, for an f from Outline; f itself is
// left as it is.
func (f *File) WithJobs() *File {
	out := *f
	if f.lazy {
		out.Jobs, out.lazy = []Job{}, false
		for j := range f.AllJobs() {
			out.Jobs = append(out.Jobs, j)
		}
	}
	return &out
}

// Outline is the report of a loaded scenario without its expectations,
// which Judge checks, and without its jobs, which AllJobs yields one at a
// time (a report of 100,000 jobs need not hold them all); its sweeps'
// tables are computed as they are read.
func Outline(s *eval.Scenario) *File {
	name := ""
	if fs := s.Files(); len(fs) > 0 {
		name = fs[0].Name
	}
	out := empty(name, Warnings(s))
	out.Loaded, out.s, out.lazy = true, s, true
	out.Lets = s.Lets()
	for _, l := range out.Lets {
		out.Values[l.Name] = Named{Param: l.Param, Value: valueOf(l.Value)}
	}
	for p := range s.AllPools() {
		out.Pools = append(out.Pools, PoolOf(p))
	}
	for _, name := range s.Rulesets() {
		out.Rulesets = append(out.Rulesets, rulesetOf(s, name))
	}
	for _, q := range s.Requests() {
		out.Requests = append(out.Requests, requestOf(out.Rulesets, q))
	}
	out.Planning = PlanningOf(s)
	out.Uncertainty = uncertaintyOf(s)
	return out
}

// AllJobs yields the report of each job of the file in source order.
func (f *File) AllJobs() iter.Seq[Job] { return f.allJobs(true) }

// allJobs is AllJobs; a job a lazy file makes has its Figures only when
// figures is set (jobOf).
func (f *File) allJobs(figures bool) iter.Seq[Job] {
	return func(yield func(Job) bool) {
		if !f.lazy {
			for _, j := range f.Jobs {
				if !yield(j) {
					return
				}
			}
			return
		}
		for j := range f.s.AllJobs() {
			if !yield(jobOf(j, figures)) {
				return
			}
		}
	}
}

// Rendered is the diagnostic of an expectation's failure or error as gpl
// test prints it, without colour, or "" when it has none.
func (f *File) Rendered(e Expectation) string {
	if e.Outcome.Diagnostic == nil || f.s == nil {
		return ""
	}
	if f.sources == nil {
		f.sources = f.s.Sources() // a copy: taken once for the file
	}
	var b bytes.Buffer
	e.Outcome.Diagnostic.Render(&b, f.sources, lang.Style{})
	return strings.TrimRight(b.String(), "\n")
}

// Warnings are the warnings of a scenario that loaded.
func Warnings(s *eval.Scenario) lang.Diagnostics {
	var ws lang.Diagnostics
	for _, d := range s.Diagnostics() {
		if d.Severity == lang.Warning {
			ws = append(ws, d)
		}
	}
	return ws
}

// empty is the report of a file with nothing evaluated: its name and
// diagnostics.
func empty(name string, diags lang.Diagnostics) *File {
	return &File{File: name, Diagnostics: diagnosticsOf(diags), Values: map[string]Named{},
		Pools: []Pool{}, Jobs: []Job{}, Rulesets: []Ruleset{}, Requests: []Request{},
		Expectations: []Expectation{}}
}

// Failed is the report of a file that did not load because of err: the
// diagnostics of an *eval.Error, else err's text as an error.
func Failed(name string, err error) *File {
	var le *eval.Error
	if errors.As(err, &le) {
		return empty(name, le.Diagnostics)
	}
	return Unloaded(name, strings.TrimSpace(err.Error()))
}

// Unloaded is the report of a file that was not loaded, for the reason
// summary says.
func Unloaded(name, summary string) *File {
	return empty(name, lang.Diagnostics{{Severity: lang.Error, Summary: summary}})
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func diagnosticsOf(ds lang.Diagnostics) []Diagnostic {
	out := []Diagnostic{}
	for _, d := range ds {
		jd := Diagnostic{Severity: "error", Summary: d.Summary, Label: d.Label, Notes: append([]string{}, d.Notes...)}
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

// PoolOf is the report of an evaluated pool.
func PoolOf(p eval.Pool) Pool {
	jp := Pool{Name: p.Name, Figures: p, Months: periodsOf(p.Months)}
	if p.Reserved {
		r := periodOf(p.Total)
		r.Jobs = append([]string{}, p.Jobs...)
		jp.Reservation = &r
	}
	for _, k := range []string{"devices", "hours", "rate", "term"} {
		if v, ok := p.Fields[k]; ok {
			jp.Fields = append(jp.Fields, Field{k, v})
		}
	}
	if v, ok := p.Fields["devices"]; ok {
		jp.Devices = finite(v.Num)
	}
	if v, ok := p.Fields["hours"]; ok {
		jp.Hours = finite(units.ToUnit(v.Num, units.Hour))
	}
	if v, ok := p.Fields["rate"]; ok {
		jp.Rate = finite(units.ToUnit(v.Num, units.USDPerHour))
	}
	jp.Currency = foreign(p.Currency)
	if v, ok := p.Fields["term"]; ok {
		jp.Term = finite(units.ToUnit(v.Num, units.Hour))
	}
	if p.From != "" {
		jp.From, jp.To = optional(p.From), optional(p.To)
	}
	return jp
}

// RulesetOf is the report of the named ruleset of s; ok is false when s
// has no such compiled ruleset.
func RulesetOf(s *eval.Scenario, name string) (r Ruleset, ok bool) {
	if _, ok := s.Ruleset(name); !ok {
		return Ruleset{}, false
	}
	return rulesetOf(s, name), true
}

func rulesetOf(s *eval.Scenario, name string) Ruleset {
	rs, _ := s.Ruleset(name)
	file, lines := s.RulesetLines(name)
	out := Ruleset{Name: name, File: file, Rules: []Rule{}, Else: string(rs.Otherwise()), Classes: []string{}, rs: rs}
	seen := map[priority.Class]bool{}
	class := func(c priority.Class) {
		if !seen[c] {
			seen[c] = true
			out.Classes = append(out.Classes, string(c))
		}
	}
	for i, r := range rs.Rules() {
		jr := Rule{Name: rs.RuleName(i), Label: optional(r.Label), Class: string(r.Class)}
		if i < len(lines) {
			jr.Line = lines[i]
		}
		out.Rules = append(out.Rules, jr)
		class(r.Class)
	}
	class(rs.Otherwise())
	names, fired, _ := s.RuleCoverage(name, nil)
	rules := rs.Rules()
	for i, n := range names {
		c := rs.Otherwise()
		if i < len(rules) {
			c = rules[i].Class
		}
		rc := RuleCount{Name: n, Class: string(c)}
		if i < len(fired) {
			rc.Fired = fired[i]
		}
		out.Tested = append(out.Tested, rc)
	}
	return out
}

// ruleRef names the rule that gave a class: "rule small" by its label,
// "rule 2" by its number when it has none, "else" when no rule matched.
func ruleRef(rs *priority.Ruleset, i int) string {
	n := rs.RuleName(i) // the label, "rule N" or "else"
	if i < 0 || rs.Rules()[i].Label == "" {
		return n
	}
	return "rule " + n
}

func requestOf(sets []Ruleset, q eval.NamedRequest) Request {
	field := func(f priority.Field) *float64 {
		if v, ok := q.Request.Get(f); ok {
			return &v
		}
		return nil
	}
	out := Request{Name: q.Name, Priority: q.Request.Values[priority.Priority], BatchSize: q.Request.Values[priority.BatchSize],
		SLADeadline: field(priority.SLADeadline), InputSize: field(priority.InputSize), Flops: field(priority.Flops),
		Classes: map[string]ClassHit{}}
	for _, set := range sets {
		class, rule := set.rs.Classify(&q.Request)
		out.Classes[set.Name] = ClassHit{Class: string(class), Rule: set.rs.RuleName(rule), Ref: ruleRef(set.rs, rule)}
	}
	return out
}

func expectationOf(o eval.Outcome) Expectation {
	ex := o.Expectation
	je := Expectation{Name: ex.Name(), File: ex.File(), Line: ex.Line(), Column: ex.Column(), Source: ex.Source,
		Status: o.Status(), Operator: optional(ex.Operator()), Outcome: o}
	if !o.Err {
		got, want := valueOf(o.Got), valueOf(o.Want)
		je.Got, je.Want = &got, &want
		if ex.Operator() == "≈" {
			tol := valueOf(eval.NumberValue(o.Tolerance, o.Want.Type.Dim))
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

// StreamCounts classifies every line of a JSON Lines request stream with
// every ruleset of the file, counting per ruleset and rule (else last)
// the requests each gave the class to; lines counts the lines read,
// unusable those that could not be classified, which are counted, not
// fatal.
func (f *File) StreamCounts(r io.Reader) (fired [][]int, lines, unusable int, err error) {
	sets := f.Rulesets
	fired = make([][]int, len(sets))
	for i, set := range sets {
		fired[i] = make([]int, len(set.Rules)+1)
	}
	sr := priority.NewStreamReader(r)
	for sr.Next() {
		lines++
		if sr.LineErr() != nil {
			unusable++
			continue
		}
		for i, set := range sets {
			_, rule := set.rs.Classify(sr.Request())
			if rule < 0 {
				rule = len(fired[i]) - 1
			}
			fired[i][rule]++
		}
	}
	return fired, lines, unusable, sr.IOErr()
}

// MarshalJSON writes the pool; the keys of its money name its currency
// (cost_usd, cost_eur).
func (p Pool) MarshalJSON() ([]byte, error) {
	type plain Pool
	b, err := json.Marshal(plain(p))
	if err != nil {
		return b, err
	}
	return p.rename(b), nil
}
