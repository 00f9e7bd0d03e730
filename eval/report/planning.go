package report

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// Planning is the planning part of a file's report: groups with their
// tables by owner, compares, sweeps and solves.
type Planning struct {
	Groups   []Group   `json:"groups,omitempty"`
	Compares []Compare `json:"compares,omitempty"`
	Sweeps   []Sweep   `json:"sweeps,omitempty"`
	Solves   []Solve   `json:"solves,omitempty"`
}

// Group is jobs taken together: summed device-hours at each step of the
// waterfall, mpg (a fraction), cost and badput cost in USD and cost per
// useful device-hour in USD (nil when some job has no rate), and the
// table by owner, largest saving first.
type Group struct {
	Name              string       `json:"name"`
	Jobs              []string     `json:"jobs"`
	OfferedHours      float64      `json:"offered_hours_h"`
	HeldHours         float64      `json:"held_hours_h"`
	ProductiveHours   float64      `json:"productive_hours_h"`
	UsefulHours       float64      `json:"useful_hours_h"`
	MPG               float64      `json:"mpg"`
	Cost              *float64     `json:"cost_usd,omitempty"`
	BadputCost        *float64     `json:"badput_cost_usd,omitempty"`
	CostPerUsefulHour *float64     `json:"cost_per_useful_hour_usd,omitempty"`
	Owners            []GroupOwner `json:"owners"`
	// Results and Listed are the listed results a group has a figure
	// for, as a job's are (Job.Results, Job.Listed).
	Results map[string]*Value `json:"results,omitempty"`
	Listed  []Metric          `json:"-"`
	// IdleHours (device-hours) and IdleCost (USD) are those of the
	// reservations whose every job is in the group, absent when none is;
	// Months, its figures by calendar month when its jobs lie in time.
	IdleHours *float64 `json:"idle_hours_h,omitempty"`
	IdleCost  *float64 `json:"idle_cost_usd,omitempty"`
	Months    []Period `json:"months,omitempty"`
	Denomination
	// Figures are the group's as eval computes them, unrounded:
	// device-hours, USD, USD per useful device-hour.
	Figures eval.Group `json:"-"`
}

// GroupOwner is one team's losses and levers across a group's jobs:
// device-hours, and USD when the group has a cost.
type GroupOwner struct {
	Owner     string   `json:"owner"`
	Factors   []string `json:"factors"`
	LossHours float64  `json:"loss_hours_h"`
	LossCost  *float64 `json:"loss_cost_usd,omitempty"`
	GainHours float64  `json:"gain_hours_h"`
	Saving    *float64 `json:"saving_usd,omitempty"`
}

// Compare is jobs set side by side, ranked by the result By, the highest
// first when Order is "max", else the lowest ("min"); Best is the winner.
type Compare struct {
	Name         string       `json:"name"`
	By           string       `json:"by"`
	Order        string       `json:"order"`
	Best         string       `json:"best"`
	Rows         []CompareRow `json:"rows"`
	Denomination              // of its jobs' money
	// Figures are the compare's as eval computes them, unrounded.
	Figures eval.Compare `json:"-"`
}

// CompareRow is one job of a compare: mpg (a fraction), useful
// device-hours, cost (USD) and cost per useful device-hour (USD) when it
// has a rate, its mpg over the first job's, and its cost per useful hour
// less the first's.
type CompareRow struct {
	Job                     string   `json:"job"`
	MPG                     float64  `json:"mpg"`
	UsefulHours             float64  `json:"useful_hours_h"`
	Cost                    *float64 `json:"cost_usd,omitempty"`
	CostPerUsefulHour       *float64 `json:"cost_per_useful_hour_usd,omitempty"`
	TradeRatio              float64  `json:"trade_ratio"`
	CostPerUsefulHourChange *float64 `json:"cost_per_useful_hour_change_usd,omitempty"`
}

// Sweep is a job, or the whole file (Over "file", Job ""), run over a
// grid of inputs. Its table, one row per point, is computed as it is read
// (Each, Results, or writing the JSON), so that a large sweep is not held
// in memory. Columns are its show columns as written (nil: over a job,
// mpg, useful hours, cost per useful hour and best lever).
type Sweep struct {
	Name    string   `json:"name"`
	Over    string   `json:"over"`
	Job     string   `json:"job,omitempty"`
	Inputs  []string `json:"inputs"`
	Columns []string `json:"columns,omitempty"`
	// Points counts the points of the grid, Failed those that cannot
	// be evaluated when the load counted them (eval.Sweep.Failed).
	Points       int `json:"points"`
	Failed       int `json:"failed_points,omitempty"`
	Denomination     // of its job's money: the key of the cost per useful hour names it

	s *eval.Scenario
}

// Solve is the value of an input at which a job, or the whole file (Over
// "file", Job ""), meets a condition: Value in the unit Unit names ("h",
// "usd", "usd_per_device_hour", or "" for a count); what the condition
// compares (ResultOf) and its value there (Result), as the text prints
// them; whether it is above the job's ceiling of that factor; and Border,
// why the file cannot be evaluated at the value next to the answer when
// it cannot.
type Solve struct {
	Name         string        `json:"name"`
	Over         string        `json:"over"`
	Job          string        `json:"job,omitempty"`
	Input        string        `json:"input"`
	Value        float64       `json:"value"`
	Unit         string        `json:"unit,omitempty"`
	Condition    string        `json:"condition"`
	ResultOf     string        `json:"result_of"`
	Result       *Value        `json:"result"`
	AboveCeiling bool          `json:"above_ceiling,omitempty"`
	Above        []string      `json:"factors_above_ceiling,omitempty"`
	Border       *PointFailure `json:"border,omitempty"`
	// Figures are the solve's as eval has it: the input's value and the
	// result there, with their units.
	Figures eval.Solve `json:"-"`

	s *eval.Scenario
}

// jsonNumber is a value in the unit the JSON report uses for its
// dimension, and that unit's key suffix.
func jsonNumber(v float64, d units.Dim) (float64, string) {
	switch {
	case d == units.Duration:
		return units.Clean(v / 3600), "_h"
	case units.IsPrice(d):
		c, _ := d.Currency()
		return units.Clean(v * 3600), "_" + strings.ToLower(c) + "_per_device_hour"
	case units.IsMoney(d):
		c, _ := d.Currency()
		return units.Clean(v), "_" + strings.ToLower(c)
	}
	return units.Clean(v), ""
}

// PlanningOf is the planning part of the report of s.
func PlanningOf(s *eval.Scenario) Planning {
	var out Planning
	for _, g := range s.Groups() {
		out.Groups = append(out.Groups, groupOf(g))
	}
	for _, c := range s.Compares() {
		out.Compares = append(out.Compares, compareOf(c))
	}
	for _, sw := range s.Sweeps() {
		out.Sweeps = append(out.Sweeps, Sweep{Name: sw.Name, Over: over(sw.OverFile), Job: sw.Job, Inputs: sw.Inputs,
			Columns: sw.Columns, Points: sw.Points, Failed: sw.Failed, Denomination: Denomination{foreign(sw.Currency)}, s: s})
	}
	for _, sv := range s.Solves() {
		n, suffix := jsonNumber(sv.Value.Num, sv.Value.Type.Dim)
		res := valueOf(sv.Result)
		out.Solves = append(out.Solves, Solve{Name: sv.Name, Over: over(sv.OverFile), Job: sv.Job, Input: sv.Input, Value: n,
			Unit: strings.TrimPrefix(suffix, "_"), Condition: sv.Condition, ResultOf: sv.Subject, Result: &res,
			AboveCeiling: sv.AboveCeiling, Above: sv.Above, Border: failureOf(sv.Border), Figures: sv, s: s})
	}
	return out
}

// over is what a sweep or solve is over, as the JSON report says it:
// "file" or "job".
func over(file bool) string {
	if file {
		return "file"
	}
	return "job"
}

// OverWhat is what the sweep is over as the text names it: its job, or
// "file".
func (sw Sweep) OverWhat() string { return overWhat(sw.Over, sw.Job) }

// OverWhat is what the solve is over as the text names it: its job, or
// "file".
func (sv Solve) OverWhat() string { return overWhat(sv.Over, sv.Job) }

func overWhat(over, job string) string {
	if over == "file" {
		return "file"
	}
	return job
}

// PointFailure is why a point cannot be evaluated: the error, and where
// it is in the file (File "" and Line 0 when it has no place there).
type PointFailure struct {
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	// Text is the message with its place, as the text report prints it:
	// "… (plan.gpl:10:40)".
	Text string `json:"-"`
}

// Amount is the figure as an amount with its unit, when it is a defined
// number; false for text, truth or an undefined figure.
func (f Figure) Amount() (Amount, bool) {
	if !f.OK || f.Value.Type.Kind != eval.Number {
		return Amount{}, false
	}
	return amountOf(f.Value.Num, f.Value.Type.Dim), true
}

func failureOf(f *eval.PointFailure) *PointFailure {
	if f == nil {
		return nil
	}
	return &PointFailure{Message: f.Message, File: f.Pos.Filename, Line: f.Pos.Line, Column: f.Pos.Column, Text: f.Error()}
}

// groupOf is the report of a group.
func groupOf(g eval.Group) Group {
	jg := Group{Name: g.Name, Jobs: g.Jobs, OfferedHours: units.Clean(g.OfferedHours), HeldHours: units.Clean(g.HeldHours),
		ProductiveHours: units.Clean(g.ProductiveHours), UsefulHours: units.Clean(g.UsefulHours), MPG: units.Clean(g.MPG),
		Owners: []GroupOwner{}, Denomination: Denomination{foreign(g.Currency)}, Figures: g}
	jg.Listed, jg.Results = metrics(g.Listed)
	jg.Months = periodsOf(g.Months)
	if g.IdleHours != 0 {
		jg.IdleHours = finite(g.IdleHours)
		if g.HasIdleCost {
			jg.IdleCost = finite(g.IdleCost)
		}
	}
	if g.HasCost {
		jg.Cost, jg.BadputCost, jg.CostPerUsefulHour = finite(g.Cost), finite(g.BadputCost), finite(g.CostPerUsefulHour)
	}
	for _, o := range g.Owners {
		jo := GroupOwner{Owner: o.Owner, Factors: o.Factors, LossHours: units.Clean(o.LossHours), GainHours: units.Clean(o.GainHours)}
		if g.HasCost {
			jo.LossCost, jo.Saving = finite(o.LossCost), finite(o.Saving)
		}
		jg.Owners = append(jg.Owners, jo)
	}
	return jg
}

// compareOf is the report of a compare.
func compareOf(c eval.Compare) Compare {
	jc := Compare{Name: c.Name, By: c.By, Order: "min", Best: c.Best, Denomination: Denomination{foreign(c.Currency)}, Figures: c}
	if c.Max {
		jc.Order = "max"
	}
	for _, r := range c.Rows {
		jr := CompareRow{Job: r.Job, MPG: units.Clean(r.MPG), UsefulHours: units.Clean(r.UsefulHours), TradeRatio: units.Clean(r.TradeRatio)}
		if r.HasCost {
			jr.Cost, jr.CostPerUsefulHour, jr.CostPerUsefulHourChange = finite(r.Cost), finite(r.CostPerUsefulHour), finite(r.CostPerUsefulHourChange)
		}
		jc.Rows = append(jc.Rows, jr)
	}
	return jc
}

// SweepPoint is one point of a sweep: the values of its inputs with
// their units; Failure, when the point cannot be evaluated, and nothing
// else then; the factors above their ceilings there; the show columns'
// values (Columns, in the order of Sweep.Columns), or without a show line
// mpg (a fraction), useful device-hours, cost per useful device-hour
// (USD, when HasCostPerUsefulHour) and the best lever's name ("" when
// none gains).
type SweepPoint struct {
	Inputs                              []Amount
	Failure                             *PointFailure
	AboveCeiling                        []string
	Columns                             []Metric
	MPG, UsefulHours, CostPerUsefulHour float64
	HasCostPerUsefulHour                bool
	BestLever                           string
}

// SweepAxis is one varied input of a sweep: its name; its kind,
// "factor", "ceiling", "devices", "hours", "rate" or "param"; its
// dimension; how many values it takes; the base job's own value (base
// units); and, for a factor with one, the base job's ceiling.
type SweepAxis struct {
	Input, Kind string
	Dim         Dim
	N           int
	Base        float64
	Ceiling     float64
	HasCeiling  bool
}

// SweepResult is the job's figures at one point of a sweep: the varied
// inputs' values (base units, in the order of Sweep.Inputs), mpg and
// ceiling mpg (fractions), useful device-hours, and the cost per useful
// device-hour in USD, defined (HasCostPerUsefulHour) when the job has a
// rate and the mpg is not 0.
type SweepResult struct {
	Values               []float64
	MPG, CeilingMPG      float64
	UsefulHours          float64
	CostPerUsefulHour    float64
	HasCostPerUsefulHour bool
}

// Each calls fn with each point of the sweep in order, until it returns
// false; each point costs one run of the engine (over the file, or
// varying a param, one evaluation of the file). fn must not keep
// p.Inputs or p.Columns, which are reused.
func (sw Sweep) Each(fn func(p SweepPoint) bool) error {
	var inputs []Amount
	var cols []Metric
	return sw.s.SweepPoints(sw.Name, func(p eval.SweepPoint) bool {
		inputs, cols = inputs[:0], cols[:0]
		for _, v := range p.Inputs {
			inputs = append(inputs, amountOf(v.Num, v.Type.Dim))
		}
		if p.Failure == nil {
			for _, c := range p.Columns {
				cols = append(cols, Metric{c.Name, Figure{Value: c.Value, OK: c.Err == nil, Err: c.Err}})
			}
		}
		return fn(SweepPoint{Inputs: inputs, Failure: failureOf(p.Failure), AboveCeiling: p.AboveCeiling, Columns: cols,
			MPG: p.MPG, UsefulHours: p.UsefulHours,
			CostPerUsefulHour: p.CostPerUsefulHour, HasCostPerUsefulHour: p.HasCostPerUsefulHour, BestLever: p.BestLever})
	})
}

// BaseColumns are the sweep's show columns at the file's own point (over
// a job, the job's own inputs), as a point's Columns are.
func (sw Sweep) BaseColumns() ([]Metric, error) {
	cols, err := sw.s.SweepBaseColumns(sw.Name)
	var out []Metric
	for _, c := range cols {
		out = append(out, Metric{c.Name, Figure{Value: c.Value, OK: c.Err == nil, Err: c.Err}})
	}
	return out, err
}

// Axes describes the sweep's varied inputs, outermost first.
func (sw Sweep) Axes() ([]SweepAxis, error) {
	axes, err := sw.s.SweepAxes(sw.Name)
	if err != nil {
		return nil, err
	}
	out := make([]SweepAxis, len(axes))
	for i, a := range axes {
		out[i] = SweepAxis{Input: a.Input, Kind: a.Kind, Dim: Dim{a.Dim}, N: a.N, Base: a.Base, Ceiling: a.Ceiling, HasCeiling: a.HasCeiling}
	}
	return out, nil
}

// Results calls fn with the job's figures at each point of a sweep over
// a job, until it returns false; r is nil at a point that cannot be
// evaluated. fn must not keep r, which is reused.
func (sw Sweep) Results(fn func(vals []float64, r *SweepResult) bool) error {
	var out SweepResult
	return sw.s.SweepResults(sw.Name, func(vals []float64, r *goodput.Result) bool {
		if r == nil {
			return fn(vals, nil)
		}
		out = SweepResult{Values: vals, MPG: r.MPG, CeilingMPG: r.CeilingMPG, UsefulHours: r.UsefulHours}
		if c, err := r.CostPerUsefulHour(); err == nil {
			out.CostPerUsefulHour, out.HasCostPerUsefulHour = c, true
		}
		return fn(vals, &out)
	})
}

// MarshalJSON writes the sweep with its table: one row per point, each
// input under its name with its unit's suffix ("hours_h"); then, at a
// point that cannot be evaluated, error (why, and where); else with a
// show line its columns, each a typed value (null where undefined) under
// its name as written; else mpg, useful_hours_h, best_lever and
// cost_per_useful_hour_usd when defined; and above_ceiling when some
// factor is.
func (sw Sweep) MarshalJSON() ([]byte, error) {
	// As WriteJSON writes it, a row at a time as the points stream;
	// encoding/json then takes the bytes whole.
	var b bytes.Buffer
	j := newJSONWriter(&b)
	j.sweep(sw, "")
	return b.Bytes(), j.err
}

// SolveCurve is a solve's result sampled across the range it searched:
// the input searched and what its condition compares (their names and
// dimensions), the comparison Op with Target, the range Lo to Hi, the
// (input, result) points in input order (a value where the result is
// undefined, or the file cannot be evaluated, is left out), and the
// job's ceiling for a searched factor; every number in base units.
// Failed are the values where the file cannot be evaluated, each with
// why.
type SolveCurve struct {
	Input, Result, Op   string
	InputDim, ResultDim Dim
	Lo, Hi, Target      float64
	Points              [][2]float64
	Ceiling             float64
	HasCeiling          bool
	Failed              []FailedValue
}

// FailedValue is a value of a solve's input where the file cannot be
// evaluated, and why.
type FailedValue struct {
	X       Amount
	Failure *PointFailure
}

// Curve samples the solve's result at n evenly spaced values of its input
// across its range.
func (sv Solve) Curve(n int) (SolveCurve, error) {
	c, err := sv.s.SolveCurve(sv.Name, n)
	if err != nil {
		return SolveCurve{}, err
	}
	out := SolveCurve{Input: c.Input, Result: c.Result, Op: c.Op, InputDim: Dim{c.InputDim}, ResultDim: Dim{c.ResultDim},
		Lo: c.Lo, Hi: c.Hi, Target: c.Target, Points: c.Points, Ceiling: c.Ceiling, HasCeiling: c.HasCeiling}
	for _, f := range c.Failed {
		out.Failed = append(out.Failed, FailedValue{amountOf(f.X, c.InputDim), failureOf(f.Failure)})
	}
	return out, nil
}

// foreign is the code c when it names a currency other than USD, else
// nil: the JSON report names a currency only when it is not USD.
func foreign(c string) *string {
	if c == "" || c == "USD" {
		return nil
	}
	return &c
}

// currency is the code a JSON currency field holds, "USD" when absent.
func currency(c *string) string {
	if c == nil {
		return "USD"
	}
	return *c
}

// MarshalJSON writes the group; the keys of its money name its currency
// (cost_usd, cost_eur).
func (g Group) MarshalJSON() ([]byte, error) {
	type plain Group
	b, err := json.Marshal(plain(g))
	if err != nil {
		return b, err
	}
	return g.rename(b), nil
}

// MarshalJSON writes the compare; the keys of its jobs' money name their
// currency (cost_usd, cost_eur).
func (c Compare) MarshalJSON() ([]byte, error) {
	type plain Compare
	b, err := json.Marshal(plain(c))
	if err != nil {
		return b, err
	}
	return c.rename(b), nil
}
