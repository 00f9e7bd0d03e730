package eval

import (
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file defines the results of the waterfall and of money per owner
// (language §12): the device-hours left at each step from offered to
// useful, and per factor what its shortfall costs and what reaching its
// ceiling is worth, with the team that owns it.

func moneyValue(v float64) Value { return NumberValue(v, lang.Money) }

// addWaterfall adds the waterfall's results to the job results, through
// add (the name, then its aliases).
func addWaterfall(add func(d *resultDef, aliases ...string)) {
	duration := numType(lang.Duration)
	money := numType(lang.Money)
	add(&resultDef{name: "held_hours", typ: duration, doc: "offered_hours × S: device-hours with all the job's devices held", inputs: []string{"offered_hours", "S"},
		get: func(j *jobState) (Value, error) { return hoursValue(j.result().HeldHours), nil }})
	add(&resultDef{name: "productive_hours", typ: duration, doc: "held_hours × R: held device-hours whose progress was kept", inputs: []string{"held_hours", "R"},
		get: func(j *jobState) (Value, error) { return hoursValue(j.result().ProductiveHours), nil }})
	for i := range goodput.NumFactors {
		f := goodput.Factor(i)
		long, short := factorNames[f], f.Short()
		add(&resultDef{name: "loss_hours." + long, typ: duration, doc: "offered_hours × loss." + long + ": the device-hours " + long + "'s shortfall costs", inputs: []string{"offered_hours", "loss." + long},
			get: func(j *jobState) (Value, error) { return hoursValue(j.result().LossHours[f]), nil }}, "loss_hours."+short)
		add(&resultDef{name: "loss_cost." + long, typ: money, doc: "cost × loss." + long + ": the spend " + long + "'s shortfall costs", inputs: []string{"cost", "loss." + long},
			get: func(j *jobState) (Value, error) {
				if !j.result().HasCost {
					return Value{}, errNoRate
				}
				return moneyValue(j.result().LossCost[f]), nil
			}}, "loss_cost."+short)
		add(&resultDef{name: "gain_hours." + long, typ: duration, doc: "offered_hours × gain." + long + ": useful device-hours gained for the same spend when " + long + " reaches its ceiling", inputs: []string{"offered_hours", "gain." + long},
			get: func(j *jobState) (Value, error) { return hoursValue(j.result().GainHours[f]), nil }}, "gain_hours."+short)
		add(&resultDef{name: "saving." + long, typ: money, doc: "cost × (1 − mpg / lever." + long + "): spend saved for the same useful work when " + long + " reaches its ceiling", inputs: []string{"cost", "mpg", "lever." + long},
			get: func(j *jobState) (Value, error) {
				if !j.result().HasCost {
					return Value{}, errNoRate
				}
				return moneyValue(j.result().Saving[f]), nil
			}}, "saving."+short)
		add(&resultDef{name: "owner." + long, typ: StringType, doc: "the team that owns the " + long + " factor (an owners block, else \"" + long + "\")",
			get: func(j *jobState) (Value, error) { return Value{Type: StringType, Str: j.owner(f)}, nil }}, "owner."+short)
	}
}

// The waterfall's formulas, for Explain.
func init() {
	formulas["held_hours"] = "{offered_hours} × {S}"
	formulas["productive_hours"] = "{held_hours} × {R}"
	for _, f := range factorNames {
		formulas["loss_hours."+f] = "{offered_hours} × {loss." + f + "}"
		formulas["loss_cost."+f] = "{cost} × {loss." + f + "}"
		formulas["gain_hours."+f] = "{offered_hours} × {gain." + f + "}"
		formulas["saving."+f] = "{cost} × (1 − {mpg} / {lever." + f + "})"
	}
}
