// Package results is the table of a job's results: each result's name and
// aliases, type, doc, formula and inputs, the engine's figure it reads, and
// what a group makes of it. The check pass (eval/internal/check) reads it to
// resolve and check result names; the evaluator (eval) to compute, group
// and explain results, with run-time columns of its own by Def.Index.
package results

import (
	"sort"
	"strings"
	"sync"

	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// Def is one row of the table of a job's results: what the name
// means, how it is computed and explained, and what a group makes of it.
type Def struct {
	// Name is the canonical name, as notes and :explain print it;
	// aliases are the other names it is read by (a factor's short name).
	Name    string
	Aliases []string
	// Listed is the name Names lists, when it is not name: a
	// factor is listed by its long name.
	listed string
	// Type is the result's type; a number's value is in base units of
	// its dimension (units.Dim).
	Type value.Type
	// Doc is what it means; :explain says it of an input.
	Doc string
	// Formula spells how it is computed, for :explain: a name in braces
	// is an operand, printed once by name and once by value.
	Formula string
	// Index is the row's place in Table, where the evaluator's
	// half of the row is in its own table (resultRuns).
	Index int
	// Inputs are the names its value is computed from, for notes and for
	// :explain's walk; nil means the operands of formula.
	Inputs []string
	// Input marks one of the job's inputs, which :explain answers with
	// where it was set.
	Input bool
	// NeedsRate: the result is undefined when the job has no rate.
	NeedsRate bool
	// Figure is the engine's figure the result is, read by Of (for the
	// factor Factor, where the engine keeps one per factor); NoFigure for
	// a result the evaluator computes (resultRun.calc).
	Figure Figure
	Factor goodput.Factor
	// Group is what a group makes of the result: nothing, the sum over
	// its jobs of of, or the ratio of two of its sums (ratio: the
	// numerator's and the denominator's names).
	Group GroupRule
	Ratio [2]string
	// Listed: every report view (text, JSON, HTML, the REPL's summary)
	// lists the result by name with the job's results, and with a
	// group's when Group is not GroupNone. The results the views give a
	// place of their own (mpg, cost, the waterfall, …) are not Listed; a
	// new result that should be seen is, and needs no view changed.
	Listed bool
}

// GroupRule is how a group computes a result of its jobs.
type GroupRule uint8

const (
	GroupNone  GroupRule = iota // a group has no figure for the result
	GroupSum                    // the sum over the group's jobs of Of
	GroupRatio                  // the ratio of the two sums Ratio names
)

// FactorNames are the long names of the goodput factors, by factor.
var FactorNames = [goodput.NumFactors]string{"scheduling", "runtime", "program"}

// Table lists the rows, in order (Def.Index).
func Table() []*Def { return tables().rows }

// ByName maps every result name, aliases included, to its row. The map is
// shared: callers must not change it.
func ByName() map[string]*Def { return tables().byName }

// builtTables are the rows, by index and by name, and the names Names
// lists, sorted.
type builtTables struct {
	rows   []*Def
	byName map[string]*Def
	sorted []string
}

// tables builds the table once, on first use: a run that evaluates
// nothing (gpl classify) does not pay for it at start-up.
var tables = sync.OnceValue(func() builtTables {
	rows, byName, sorted := buildTable()
	return builtTables{rows, byName, sorted}
})

// Figure names a figure of the engine's result (goodput.Result).
type Figure uint8

// The engine's figures a result can be.
const (
	NoFigure Figure = iota
	FigMPG
	FigBadput
	FigOfferedHours
	FigUsefulHours
	FigCost
	FigBadputCost
	FigCeilingMPG
	FigHeldHours
	FigProductiveHours
	FigLoss
	FigLever
	FigGain
	FigLossHours
	FigLossCost
	FigGainHours
	FigSaving
)

// HasFigure reports whether the result is one of the engine's figures.
func (d *Def) HasFigure() bool { return d.Figure != NoFigure }

// Of is the result's figure in r, in engine units (device-hours, USD, USD
// per device-hour); 0 for a result that is none. It reads r in place: a
// sweep reads one per point, and a copy of r, or r escaping through a
// function value, would cost each point an allocation or 400 bytes.
func (d *Def) Of(r *goodput.Result) float64 {
	f := d.Factor
	switch d.Figure {
	case FigMPG:
		return r.MPG
	case FigBadput:
		return r.Badput
	case FigOfferedHours:
		return r.OfferedHours
	case FigUsefulHours:
		return r.UsefulHours
	case FigCost:
		return r.Cost
	case FigBadputCost:
		return r.BadputCost
	case FigCeilingMPG:
		return r.CeilingMPG
	case FigHeldHours:
		return r.HeldHours
	case FigProductiveHours:
		return r.ProductiveHours
	case FigLoss:
		return r.Loss[f]
	case FigLever:
		return r.Lever[f]
	case FigGain:
		return r.Gain[f]
	case FigLossHours:
		return r.LossHours[f]
	case FigLossCost:
		return r.LossCost[f]
	case FigGainHours:
		return r.GainHours[f]
	case FigSaving:
		return r.Saving[f]
	}
	return 0
}

func buildTable() ([]*Def, map[string]*Def, []string) {
	hours, money, price := value.NumType(units.Duration), value.NumType(units.Money), value.NumType(units.Price)
	defs := []*Def{
		{Name: "mpg", Type: value.CountType, Doc: "S×R×P, the useful fraction of offered device-hours", Formula: "{S} × {R} × {P}",
			Figure: FigMPG, Group: GroupRatio, Ratio: [2]string{"useful_hours", "offered_hours"}},
		{Name: "badput", Type: value.CountType, Doc: "1 − mpg", Formula: "1 − {mpg}",
			Figure: FigBadput},
		{Name: "offered_hours", Type: hours, Doc: "devices × hours, in device-hours", Formula: "{devices} × {hours}",
			Figure: FigOfferedHours, Group: GroupSum},
		{Name: "useful_hours", Type: hours, Doc: "offered_hours × mpg", Formula: "{offered_hours} × {mpg}",
			Figure: FigUsefulHours, Group: GroupSum},
		{Name: "cost", Type: money, Doc: "offered_hours × rate", Formula: "{offered_hours} × {rate}", NeedsRate: true,
			Figure: FigCost, Group: GroupSum},
		{Name: "badput_cost", Type: money, Doc: "cost × badput", Formula: "{cost} × {badput}", NeedsRate: true,
			Figure: FigBadputCost, Group: GroupSum},
		{Name: "cost_per_useful_hour", Type: price, Doc: "rate / mpg", Formula: "{rate} / {mpg}", NeedsRate: true,
			Group: GroupRatio, Ratio: [2]string{"cost", "useful_hours"}},
		{Name: "best_lever", Type: value.StringType, Doc: `the factor whose ceiling gains most: "scheduling", "runtime", "program", or ""`,
			Inputs: []string{"gain.scheduling", "gain.runtime", "gain.program"}},
		{Name: "ceiling_mpg", Type: value.CountType, Doc: "the product with every factor at its ceiling",
			Inputs: []string{"ceiling.scheduling", "ceiling.runtime", "ceiling.program"},
			Figure: FigCeilingMPG},
		{Name: "headroom", Type: value.CountType, Doc: "ceiling_mpg / mpg", Formula: "{ceiling_mpg} / {mpg}"},
		{Name: "devices", Type: value.CountType, Doc: "devices offered to the job", Input: true},
		{Name: "hours", Type: hours, Doc: "wall time the pool is offered to the job", Input: true},
		{Name: "rate", Type: price, Doc: "price of one offered device-hour", Input: true},
		// The waterfall (language §12): the device-hours left at each
		// step from offered to useful.
		{Name: "held_hours", Type: hours, Doc: "offered_hours × S: device-hours with all the job's devices held", Formula: "{offered_hours} × {S}",
			Figure: FigHeldHours, Group: GroupSum},
		{Name: "productive_hours", Type: hours, Doc: "held_hours × R: held device-hours whose progress was kept", Formula: "{held_hours} × {R}",
			Figure: FigProductiveHours, Group: GroupSum},
	}
	// Each factor's rows are read by its long name, and by its short one
	// after the prefix.
	for i := range goodput.NumFactors {
		f := goodput.Factor(i)
		long, short := FactorNames[f], f.Short()
		perFactor := []*Def{
			{Name: short, Aliases: []string{long}, listed: long, Type: value.CountType, Doc: long + " goodput factor", Input: true},
			{Name: "ceiling." + long, Type: value.CountType, Doc: long + " ceiling (the factor when none is set)", Input: true},
			{Name: "loss." + long, Type: value.CountType, Doc: "fraction of offered hours lost to " + long, Formula: lossFormula(f),
				Figure: FigLoss, Factor: f},
			{Name: "lever." + long, Type: value.CountType, Doc: "mpg with " + long + " alone at its ceiling", Inputs: []string{short, "ceiling." + long, "mpg"},
				Figure: FigLever, Factor: f},
			{Name: "gain." + long, Type: value.CountType, Doc: "lever." + long + " − mpg", Formula: "{lever." + long + "} − {mpg}",
				Figure: FigGain, Factor: f},
			// Money per owner (language §12): per factor, what its
			// shortfall costs and what reaching its ceiling is worth.
			{Name: "loss_hours." + long, Type: hours, Doc: "offered_hours × loss." + long + ": the device-hours " + long + "'s shortfall costs",
				Formula: "{offered_hours} × {loss." + long + "}",
				Figure:  FigLossHours, Factor: f, Group: GroupSum},
			{Name: "loss_cost." + long, Type: money, Doc: "cost × loss." + long + ": the spend " + long + "'s shortfall costs",
				Formula: "{cost} × {loss." + long + "}", NeedsRate: true,
				Figure: FigLossCost, Factor: f, Group: GroupSum},
			{Name: "gain_hours." + long, Type: hours, Doc: "offered_hours × gain." + long + ": useful device-hours gained for the same spend when " + long + " reaches its ceiling",
				Formula: "{offered_hours} × {gain." + long + "}",
				Figure:  FigGainHours, Factor: f, Group: GroupSum},
			{Name: "saving." + long, Type: money, Doc: "cost × (1 − mpg / lever." + long + "): spend saved for the same useful work when " + long + " reaches its ceiling",
				Formula: "{cost} × (1 − {mpg} / {lever." + long + "})", NeedsRate: true,
				Figure: FigSaving, Factor: f, Group: GroupSum},
			// The value of a point (language §21): what one more point
			// (0.01) of the factor is worth, in spend for the same work.
			{Name: "point_value." + long, Type: money, Doc: "cost × (1 − " + short + " / (" + short + " + 0.01)): spend saved for the same useful work when " + long + " rises by one point (0.01)",
				Formula: "{cost} × 0.01 / ({" + short + "} + 0.01)", NeedsRate: true, Group: GroupSum, Listed: true},
			{Name: "owner." + long, Type: value.StringType, Doc: "the team that owns the " + long + " factor (an owners block, else \"" + long + "\")"},
		}
		for _, d := range perFactor[1:] { // PREFIX.S for PREFIX.scheduling
			prefix, _, _ := strings.Cut(d.Name, ".")
			d.Aliases = []string{prefix + "." + short}
		}
		defs = append(defs, perFactor...)
	}
	m := map[string]*Def{}
	var names []string
	for i, d := range defs {
		d.Index = i
		if d.Inputs == nil {
			d.Inputs = operands(d.Formula)
		}
		for _, n := range append([]string{d.Name}, d.Aliases...) {
			m[n] = d
		}
		if d.listed == "" {
			d.listed = d.Name
		}
		names = append(names, d.listed)
	}
	sort.Strings(names)
	return defs, m, names
}

// operands are the names in braces in a formula, in order.
func operands(formula string) []string {
	var out []string
	for {
		open := strings.IndexByte(formula, '{')
		if open < 0 {
			return out
		}
		end := strings.IndexByte(formula[open:], '}') + open
		out = append(out, formula[open+1:end])
		formula = formula[end+1:]
	}
}

// lossFormula is S × R × (1 − P) as far as factor f: the fraction of
// offered hours the earlier factors keep that f loses.
func lossFormula(f goodput.Factor) string {
	if f == 0 {
		return "1 − {" + f.Short() + "}"
	}
	var parts []string
	for i := range f {
		parts = append(parts, "{"+goodput.Factor(i).Short()+"}")
	}
	return strings.Join(append(parts, "(1 − {"+f.Short()+"})"), " × ")
}

// ListedRows are the rows marked Listed, in table order.
func ListedRows() []*Def {
	var out []*Def
	for _, d := range Table() {
		if d.Listed {
			out = append(out, d)
		}
	}
	return out
}

// Names lists the names of a job's results, for completion and docs.
func Names() []string { return append([]string(nil), tables().sorted...) }
