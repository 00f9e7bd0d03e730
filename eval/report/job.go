package report

import (
	"encoding/json"
	"errors"
	"sort"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// Job is one evaluated job: its inputs, factors and ceilings, losses,
// levers and gains, device-hours and costs, best lever, waterfall and
// owner table. The fields with a JSON key are the JSON report's, rounded
// so that they show no float noise; View and Figures are what the other
// views print, unrounded.
type Job struct {
	Name    string  `json:"name"`
	Pool    *string `json:"pool"`
	Extends *string `json:"extends"`
	// From and To are the dates the job runs between, absent when it is
	// not placed in time.
	From *string `json:"from,omitempty"`
	To   *string `json:"to,omitempty"`
	// Devices is a count; Hours is in hours; Rate in USD per device-hour,
	// nil when the job has none.
	Devices float64  `json:"devices"`
	Hours   float64  `json:"hours_h"`
	Rate    *float64 `json:"rate_usd_per_device_hour"`
	// Factors, and the Ceilings as written (nil where not set), are
	// fractions.
	Factors  Factors  `json:"factors"`
	Ceilings Ceilings `json:"ceilings"`
	// MPG is the useful fraction of the offered device-hours, Badput the
	// rest; Loss is what each factor loses of the offered device-hours, as
	// a fraction.
	MPG    float64 `json:"mpg"`
	Badput float64 `json:"badput"`
	Loss   Factors `json:"loss"`
	// OfferedHours and UsefulHours are device-hours.
	OfferedHours float64 `json:"offered_hours_h"`
	UsefulHours  float64 `json:"useful_hours_h"`
	// Cost and BadputCost are USD, CostPerUsefulHour USD per useful
	// device-hour; nil without a rate (and the last when mpg is 0).
	Cost              *float64 `json:"cost_usd"`
	BadputCost        *float64 `json:"badput_cost_usd"`
	CostPerUsefulHour *float64 `json:"cost_per_useful_hour_usd"`
	// Lever is the mpg with each factor alone at its ceiling, Gain what
	// that adds to the mpg.
	Lever Factors `json:"lever"`
	Gain  Factors `json:"gain"`
	// BestLever names the factor whose lever gains most, nil when none
	// gains.
	BestLever *string `json:"best_lever"`
	// CeilingMPG is the mpg with every factor at its ceiling, Headroom how
	// many times the mpg that is (nil when the mpg is 0).
	CeilingMPG float64    `json:"ceiling_mpg"`
	Headroom   *float64   `json:"headroom"`
	Waterfall  *Waterfall `json:"waterfall"`
	// Owners is the owner table, by saving, largest first.
	Owners []Owner `json:"owners"`
	// Results are the listed results (eval.Job.Listed), by name, each a
	// typed value in its unit; null when undefined (no rate, a zero mpg).
	// Absent when the table of results lists none.
	Results map[string]*Value `json:"results,omitempty"`
	// Listed are those results in table order, unrounded, for the other
	// views.
	Listed []Metric `json:"-"`

	// View is the job as the engine figured it, arranged for the views.
	View JobView `json:"-"`
	Denomination
	// Figures are the job's results as eval reads them by name, each with
	// its unit. JobOf fills them; the JSON and the tables of a file read
	// from the model, without them, and leave them zero.
	Figures JobFigures `json:"-"`
}

// Factors is a fraction per factor, indexed by Factor; in JSON, an
// object with the keys scheduling, runtime and program.
type Factors [NumFactors]float64

// MarshalJSON writes {"scheduling": S, "runtime": R, "program": P}.
func (f Factors) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Scheduling float64 `json:"scheduling"`
		Runtime    float64 `json:"runtime"`
		Program    float64 `json:"program"`
	}{f[Scheduling], f[Runtime], f[Program]})
}

// Ceilings are the ceilings as written: a fraction, nil for one not set.
type Ceilings struct {
	Scheduling *float64 `json:"scheduling"`
	Runtime    *float64 `json:"runtime"`
	Program    *float64 `json:"program"`
}

// Waterfall is device-hours (hours) at each step, offered → held →
// productive → useful, and their cost in USD when the job has a rate.
type Waterfall struct {
	OfferedHours    float64  `json:"offered_hours_h"`
	HeldHours       float64  `json:"held_hours_h"`
	ProductiveHours float64  `json:"productive_hours_h"`
	UsefulHours     float64  `json:"useful_hours_h"`
	OfferedCost     *float64 `json:"offered_cost_usd,omitempty"`
	HeldCost        *float64 `json:"held_cost_usd,omitempty"`
	ProductiveCost  *float64 `json:"productive_cost_usd,omitempty"`
	UsefulCost      *float64 `json:"useful_cost_usd,omitempty"`
}

// Owner is one row of the owner table: who owns a factor, the
// device-hours (hours) it loses and its lever would win back, and those
// in USD (nil without a rate).
type Owner struct {
	Owner     string   `json:"owner"`
	Factor    string   `json:"factor"`
	LossHours float64  `json:"loss_hours_h"`
	LossCost  *float64 `json:"loss_cost_usd,omitempty"`
	GainHours float64  `json:"gain_hours_h"`
	Saving    *float64 `json:"saving_usd,omitempty"`
}

// JobView is a job as the goodput engine figured it, unrounded, arranged
// as the views show it.
type JobView struct {
	// Devices is a count, Hours the hours booked.
	Devices, Hours float64
	// Factors are the rows of the factor table, in the order scheduling,
	// runtime, program (indexed by Factor).
	Factors [NumFactors]FactorRow
	// Steps are the waterfall's four steps.
	Steps [4]Step
	// ByOwner lists the factors as the owner table does: by saving,
	// largest first (by gain hours without a rate); ties keep the order
	// scheduling, runtime, program.
	ByOwner [NumFactors]Factor
	// MPG, Badput and CeilingMPG are fractions.
	MPG, Badput, CeilingMPG float64
	// HasRate is true when the job has a rate, Rate in USD per
	// device-hour; HasCost when its figures have a cost.
	HasRate, HasCost bool
	Rate             float64
	// Currency is the code of the currency of the job's rate, in which
	// its money is ("USD" without a rate).
	Currency string
	// Cost and BadputCost are USD; CostPerUsefulHour is USD per useful
	// device-hour, defined (HasCostPerUsefulHour) when there is a cost
	// and the mpg is not 0.
	Cost, BadputCost     float64
	CostPerUsefulHour    float64
	HasCostPerUsefulHour bool
	// Headroom is CeilingMPG over MPG when HasHeadroom; ZeroMPG says the
	// ratio is undefined because the mpg is 0 (else it is too large).
	Headroom     float64
	HasHeadroom  bool
	ZeroMPG      bool
	BestLever    Factor
	HasBestLever bool
}

// FactorRow is one factor of a job: its name, one-letter name and owner;
// its value and ceiling (fractions); the mpg lost to it, its lever (the
// mpg with it alone at its ceiling) and the gain of that; the
// device-hours lost and won back; and those in USD.
type FactorRow struct {
	Factor               Factor
	Name, Short, Owner   string
	Value, Ceiling       float64
	HasCeiling           bool
	Loss, Lever, Gain    float64
	LossHours, GainHours float64
	LossCost, Saving     float64
}

// Step is one step of the waterfall: its name, the factor that leads to
// it from the step before (HasFactor is false for offered), its
// device-hours, and their cost in USD when the job has a cost.
type Step struct {
	Name      string
	Factor    Factor
	HasFactor bool
	Hours     float64
	Cost      float64
}

// JobFigures are a job's results as eval reads them by name ("hours",
// "cost_per_useful_hour"), in base units with their dimension; a figure
// that is undefined (no rate, a zero mpg) is not OK.
type JobFigures struct {
	Devices, Hours, Rate                Figure
	MPG, CeilingMPG, BestLever          Figure
	OfferedHours, UsefulHours           Figure
	Cost, BadputCost, CostPerUsefulHour Figure
	Loss, Gain                          [NumFactors]Figure
}

// Metric is a result by name: a listed result of a job or a group.
type Metric struct {
	Name   string
	Figure Figure
}

// metrics are results as the report lists them, and as the JSON
// report's results object holds them (nil when there are none).
func metrics(rs []eval.Result) ([]Metric, map[string]*Value) {
	if len(rs) == 0 {
		return nil, nil
	}
	var list []Metric
	byName := map[string]*Value{}
	for _, r := range rs {
		list = append(list, Metric{r.Name, Figure{Value: r.Value, OK: r.Err == nil, Err: r.Err}})
		var v *Value
		if r.Err == nil {
			jv := valueOf(r.Value)
			v = &jv
		}
		byName[r.Name] = v
	}
	return list, byName
}

// Figure is one result of a job, with its unit; OK is false when it is
// undefined, and Err then says why.
type Figure struct {
	Value eval.Value
	OK    bool
	Err   error
}

// String prints the figure as the text report does, "—" when undefined.
func (f Figure) String() string {
	if !f.OK {
		return "—"
	}
	return f.Value.String()
}

// Readable prints the figure at a report's precision (Amount.Readable),
// "—" when undefined.
func (f Figure) Readable() string {
	if !f.OK {
		return "—"
	}
	return Readable(f.Value)
}

// Readable prints a value at a report's precision: a number as
// Amount.Readable prints it, anything else as its String.
func Readable(v eval.Value) string {
	if v.Type.Kind != eval.Number {
		return v.String()
	}
	return amountOf(v.Num, v.Type.Dim).Readable()
}

func figure(j *eval.Job, name string) Figure {
	v, err := j.Get(name)
	return Figure{Value: v, OK: err == nil, Err: err}
}

// newJobView arranges the engine's inputs and result of a job, whose
// factors owners own, for the views.
func newJobView(in goodput.Inputs, r goodput.Result, owners [NumFactors]string) JobView {
	v := JobView{Devices: in.Devices, Hours: in.Hours, MPG: r.MPG, Badput: r.Badput, CeilingMPG: r.CeilingMPG,
		HasRate: in.Rate.Set, Rate: in.Rate.Value, HasCost: r.HasCost, Cost: r.Cost, BadputCost: r.BadputCost,
		BestLever: Factor(r.BestLever), HasBestLever: r.HasBestLever}
	for f := range Factor(NumFactors) {
		v.Factors[f] = FactorRow{Factor: f, Name: f.String(), Short: goodput.Factor(f).Short(), Owner: owners[f],
			Value: in.Factors[f].Value, Ceiling: in.Ceilings[f].Value, HasCeiling: in.Ceilings[f].Set,
			Loss: r.Loss[f], Lever: r.Lever[f], Gain: r.Gain[f], LossHours: r.LossHours[f], GainHours: r.GainHours[f],
			LossCost: r.LossCost[f], Saving: r.Saving[f]}
	}
	hours := [4]float64{r.OfferedHours, r.HeldHours, r.ProductiveHours, r.UsefulHours}
	for i, name := range [4]string{"offered", "held", "productive", "useful"} {
		st := Step{Name: name, Hours: hours[i]}
		if i > 0 {
			st.Factor, st.HasFactor = Factor(i-1), true
		}
		if r.HasCost {
			st.Cost = hours[i] * in.Rate.Value
		}
		v.Steps[i] = st
	}
	v.ByOwner = [NumFactors]Factor{Scheduling, Runtime, Program}
	key := r.GainHours
	if r.HasCost {
		key = r.Saving
	}
	sort.SliceStable(v.ByOwner[:], func(a, b int) bool { return units.Clean(key[v.ByOwner[a]]) > units.Clean(key[v.ByOwner[b]]) })
	if c, err := r.CostPerUsefulHour(); err == nil {
		v.CostPerUsefulHour, v.HasCostPerUsefulHour = c, true
	}
	h, err := r.Headroom()
	v.Headroom, v.HasHeadroom, v.ZeroMPG = h, err == nil, errors.Is(err, goodput.ErrZeroMPG)
	return v
}

// JobOf is the report of an evaluated job.
func JobOf(j *eval.Job) Job { return jobOf(j, true) }

// jobOf is JobOf, with the Figures only when figures is set: the JSON
// and the tables, which do not show them, skip seventeen lookups by name
// a job (a fifth of a table's time).
func jobOf(j *eval.Job, figures bool) Job {
	var owners [NumFactors]string
	for f := range Factor(NumFactors) {
		owners[f] = j.Owner(goodput.Factor(f))
	}
	v := newJobView(j.Inputs, j.Result, owners)
	v.Currency = j.Currency()
	out := jobJSON(j.Name, j.Pool, j.Extends, j.Inputs, j.Result, v)
	if v.Currency != "USD" {
		out.Currency = &v.Currency
	}
	out.View = v
	if j.From != "" {
		out.From, out.To = optional(j.From), optional(j.To)
	}
	out.Listed, out.Results = metrics(j.Listed())
	if !figures {
		return out
	}
	out.Figures = JobFigures{Devices: figure(j, "devices"), Hours: figure(j, "hours"), Rate: figure(j, "rate"),
		MPG: figure(j, "mpg"), CeilingMPG: figure(j, "ceiling_mpg"), BestLever: figure(j, "best_lever"),
		OfferedHours: figure(j, "offered_hours"), UsefulHours: figure(j, "useful_hours"),
		Cost: figure(j, "cost"), BadputCost: figure(j, "badput_cost"), CostPerUsefulHour: figure(j, "cost_per_useful_hour")}
	for f := range Factor(NumFactors) {
		out.Figures.Loss[f] = figure(j, "loss."+f.String())
		out.Figures.Gain[f] = figure(j, "gain."+f.String())
	}
	return out
}

// Every number in the JSON report is rounded so that it shows no float
// noise: products and quotients with units.Clean (15 significant digits),
// and the fractions computed as differences (badput, losses, gains) with
// units.CleanFraction (15 decimals), since a difference keeps the absolute
// error of its operands: gain.scheduling is 0.00891, not
// 0.00891000000000003.

func triple(a [NumFactors]float64) Factors {
	return Factors{units.Clean(a[0]), units.Clean(a[1]), units.Clean(a[2])}
}

// differences is triple for fractions computed by subtraction.
func differences(a [NumFactors]float64) Factors {
	return Factors{units.CleanFraction(a[0]), units.CleanFraction(a[1]), units.CleanFraction(a[2])}
}

func jobJSON(name, pool, extends string, in goodput.Inputs, res goodput.Result, v JobView) Job {
	jj := Job{
		Name: name, Pool: optional(pool), Extends: optional(extends),
		Devices: units.Clean(in.Devices), Hours: units.Clean(in.Hours),
		Factors: triple([NumFactors]float64{in.Factors[0].Value, in.Factors[1].Value, in.Factors[2].Value}),
		MPG:     units.Clean(res.MPG), Badput: units.CleanFraction(res.Badput), Loss: differences(res.Loss),
		OfferedHours: units.Clean(res.OfferedHours), UsefulHours: units.Clean(res.UsefulHours),
		Lever: triple(res.Lever), Gain: differences(res.Gain), CeilingMPG: units.Clean(res.CeilingMPG),
	}
	var c [NumFactors]*float64
	for i := range c {
		if cl := in.Ceilings[i]; cl.Set {
			c[i] = finite(cl.Value)
		}
	}
	jj.Ceilings = Ceilings{c[0], c[1], c[2]}
	if in.Rate.Set {
		jj.Rate = finite(in.Rate.Value)
		jj.Cost, jj.BadputCost = finite(res.Cost), finite(res.BadputCost)
		if v.HasCostPerUsefulHour {
			jj.CostPerUsefulHour = finite(v.CostPerUsefulHour)
		}
	}
	if res.HasBestLever {
		jj.BestLever = optional(res.BestLever.String())
	}
	if v.HasHeadroom {
		jj.Headroom = finite(v.Headroom)
	}
	w := &Waterfall{
		OfferedHours: units.Clean(res.OfferedHours), HeldHours: units.Clean(res.HeldHours),
		ProductiveHours: units.Clean(res.ProductiveHours), UsefulHours: units.Clean(res.UsefulHours),
	}
	if res.HasCost {
		rate := in.Rate.Value
		w.OfferedCost, w.HeldCost = finite(res.OfferedHours*rate), finite(res.HeldHours*rate)
		w.ProductiveCost, w.UsefulCost = finite(res.ProductiveHours*rate), finite(res.UsefulHours*rate)
	}
	jj.Waterfall = w
	jj.Owners = []Owner{}
	for _, f := range v.ByOwner {
		o := Owner{Owner: v.Factors[f].Owner, Factor: f.String(),
			LossHours: units.Clean(res.LossHours[f]),
			// A gain is a difference of fractions; its float noise is
			// cleaned before it is scaled (821.1456, not 821.145600000003).
			GainHours: units.Clean(res.OfferedHours * units.CleanFraction(res.Gain[f]))}
		if res.HasCost {
			o.LossCost, o.Saving = finite(res.LossCost[f]), finite(res.Saving[f])
		}
		jj.Owners = append(jj.Owners, o)
	}
	return jj
}

// Money is x, an amount in the job's currency, as money.
func (v *JobView) Money(x float64) Amount { return Cash(x, v.Currency) }

// Price is x, in the job's currency per device-hour, as a price.
func (v *JobView) Price(x float64) Amount {
	return PriceOf(x, v.Currency)
}

// MarshalJSON writes the job; the keys of its money name its currency
// (cost_usd, cost_eur).
func (j Job) MarshalJSON() ([]byte, error) {
	type plain Job
	b, err := json.Marshal(plain(j))
	if err != nil {
		return b, err
	}
	return j.rename(b), nil
}
