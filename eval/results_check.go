package eval

import (
	"sort"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// resultDef is one row of the table of a job's results: what the name
// means, how it is computed and explained, and what a group makes of it.
type resultDef struct {
	// name is the canonical name, as notes and :explain print it;
	// aliases are the other names it is read by (a factor's short name).
	name    string
	aliases []string
	// listed is the name ResultNames lists, when it is not name: a
	// factor is listed by its long name.
	listed string
	typ    Type
	// doc is what it means; :explain says it of an input.
	doc string
	// formula spells how it is computed, for :explain: a name in braces
	// is an operand, printed once by name and once by value.
	formula string
	// index is the row's place in resultTable, where the evaluator's
	// half of the row is in its own table (resultRuns).
	index int
	// inputs are the names its value is computed from, for notes and for
	// :explain's walk; nil means the operands of formula.
	inputs []string
	// input marks one of the job's inputs, which :explain answers with
	// where it was set.
	input bool
	// needsRate: the result is undefined when the job has no rate.
	needsRate bool
	// of is the engine's figure, in engine units (device-hours, USD, USD
	// per device-hour); a result that has none is computed by the
	// evaluator (resultRun.calc).
	of func(r *goodput.Result) float64
	// group is what a group makes of the result: nothing, the sum over
	// its jobs of of, or the ratio of two of its sums (ratio: the
	// numerator's and the denominator's names).
	group groupRule
	ratio [2]string
}

// groupRule is how a group computes a result of its jobs.
type groupRule uint8

const (
	groupNone groupRule = iota
	groupSum
	groupRatio
)

var factorNames = [goodput.NumFactors]string{"scheduling", "runtime", "program"}

// resultDefs maps every result name, aliases included, to its row;
// resultTable lists the rows and resultNames the names, sorted.
var resultTable, resultDefs, resultNames = buildResultDefs()

func buildResultDefs() ([]*resultDef, map[string]*resultDef, []string) {
	hours, money, price := value.NumType(lang.Duration), value.NumType(lang.Money), value.NumType(lang.Price)
	defs := []*resultDef{
		{name: "mpg", typ: CountType, doc: "S×R×P, the useful fraction of offered device-hours", formula: "{S} × {R} × {P}",
			of: func(r *goodput.Result) float64 { return r.MPG }, group: groupRatio, ratio: [2]string{"useful_hours", "offered_hours"}},
		{name: "badput", typ: CountType, doc: "1 − mpg", formula: "1 − {mpg}",
			of: func(r *goodput.Result) float64 { return r.Badput }},
		{name: "offered_hours", typ: hours, doc: "devices × hours, in device-hours", formula: "{devices} × {hours}",
			of: func(r *goodput.Result) float64 { return r.OfferedHours }, group: groupSum},
		{name: "useful_hours", typ: hours, doc: "offered_hours × mpg", formula: "{offered_hours} × {mpg}",
			of: func(r *goodput.Result) float64 { return r.UsefulHours }, group: groupSum},
		{name: "cost", typ: money, doc: "offered_hours × rate", formula: "{offered_hours} × {rate}", needsRate: true,
			of: func(r *goodput.Result) float64 { return r.Cost }, group: groupSum},
		{name: "badput_cost", typ: money, doc: "cost × badput", formula: "{cost} × {badput}", needsRate: true,
			of: func(r *goodput.Result) float64 { return r.BadputCost }, group: groupSum},
		{name: "cost_per_useful_hour", typ: price, doc: "rate / mpg", formula: "{rate} / {mpg}", needsRate: true,
			group: groupRatio, ratio: [2]string{"cost", "useful_hours"}},
		{name: "best_lever", typ: StringType, doc: `the factor whose ceiling gains most: "scheduling", "runtime", "program", or ""`,
			inputs: []string{"gain.scheduling", "gain.runtime", "gain.program"}},
		{name: "ceiling_mpg", typ: CountType, doc: "the product with every factor at its ceiling",
			inputs: []string{"ceiling.scheduling", "ceiling.runtime", "ceiling.program"},
			of:     func(r *goodput.Result) float64 { return r.CeilingMPG }},
		{name: "headroom", typ: CountType, doc: "ceiling_mpg / mpg", formula: "{ceiling_mpg} / {mpg}"},
		{name: "devices", typ: CountType, doc: "devices offered to the job", input: true},
		{name: "hours", typ: hours, doc: "wall time the pool is offered to the job", input: true},
		{name: "rate", typ: price, doc: "price of one offered device-hour", input: true},
		// The waterfall (language §12): the device-hours left at each
		// step from offered to useful.
		{name: "held_hours", typ: hours, doc: "offered_hours × S: device-hours with all the job's devices held", formula: "{offered_hours} × {S}",
			of: func(r *goodput.Result) float64 { return r.HeldHours }, group: groupSum},
		{name: "productive_hours", typ: hours, doc: "held_hours × R: held device-hours whose progress was kept", formula: "{held_hours} × {R}",
			of: func(r *goodput.Result) float64 { return r.ProductiveHours }, group: groupSum},
	}
	// Each factor's rows are read by its long name, and by its short one
	// after the prefix.
	for i := range goodput.NumFactors {
		f := goodput.Factor(i)
		long, short := factorNames[f], f.Short()
		perFactor := []*resultDef{
			{name: short, aliases: []string{long}, listed: long, typ: CountType, doc: long + " goodput factor", input: true},
			{name: "ceiling." + long, typ: CountType, doc: long + " ceiling (the factor when none is set)", input: true},
			{name: "loss." + long, typ: CountType, doc: "fraction of offered hours lost to " + long, formula: lossFormula(f),
				of: func(r *goodput.Result) float64 { return r.Loss[f] }},
			{name: "lever." + long, typ: CountType, doc: "mpg with " + long + " alone at its ceiling", inputs: []string{short, "ceiling." + long, "mpg"},
				of: func(r *goodput.Result) float64 { return r.Lever[f] }},
			{name: "gain." + long, typ: CountType, doc: "lever." + long + " − mpg", formula: "{lever." + long + "} − {mpg}",
				of: func(r *goodput.Result) float64 { return r.Gain[f] }},
			// Money per owner (language §12): per factor, what its
			// shortfall costs and what reaching its ceiling is worth.
			{name: "loss_hours." + long, typ: hours, doc: "offered_hours × loss." + long + ": the device-hours " + long + "'s shortfall costs",
				formula: "{offered_hours} × {loss." + long + "}",
				of:      func(r *goodput.Result) float64 { return r.LossHours[f] }, group: groupSum},
			{name: "loss_cost." + long, typ: money, doc: "cost × loss." + long + ": the spend " + long + "'s shortfall costs",
				formula: "{cost} × {loss." + long + "}", needsRate: true,
				of: func(r *goodput.Result) float64 { return r.LossCost[f] }, group: groupSum},
			{name: "gain_hours." + long, typ: hours, doc: "offered_hours × gain." + long + ": useful device-hours gained for the same spend when " + long + " reaches its ceiling",
				formula: "{offered_hours} × {gain." + long + "}",
				of:      func(r *goodput.Result) float64 { return r.GainHours[f] }, group: groupSum},
			{name: "saving." + long, typ: money, doc: "cost × (1 − mpg / lever." + long + "): spend saved for the same useful work when " + long + " reaches its ceiling",
				formula: "{cost} × (1 − {mpg} / {lever." + long + "})", needsRate: true,
				of: func(r *goodput.Result) float64 { return r.Saving[f] }, group: groupSum},
			{name: "owner." + long, typ: StringType, doc: "the team that owns the " + long + " factor (an owners block, else \"" + long + "\")"},
		}
		for _, d := range perFactor[1:] { // PREFIX.S for PREFIX.scheduling
			prefix, _, _ := strings.Cut(d.name, ".")
			d.aliases = []string{prefix + "." + short}
		}
		defs = append(defs, perFactor...)
	}
	m := map[string]*resultDef{}
	var names []string
	for i, d := range defs {
		d.index = i
		if d.inputs == nil {
			d.inputs = operands(d.formula)
		}
		for _, n := range append([]string{d.name}, d.aliases...) {
			m[n] = d
		}
		if d.listed == "" {
			d.listed = d.name
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

// ResultNames lists the names of a job's results, for completion and docs.
func ResultNames() []string { return append([]string(nil), resultNames...) }
