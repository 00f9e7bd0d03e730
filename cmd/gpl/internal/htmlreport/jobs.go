package htmlreport

import (
	"sort"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// Job is what the page draws of one evaluated job.
type Job struct {
	Name, Pool, Extends string
	// Inputs and Result are the goodput engine's: device-hours, USD, USD
	// per device-hour.
	Inputs goodput.Inputs
	Result goodput.Result
	// Owners names who owns each factor, indexed by goodput.Factor.
	Owners [goodput.NumFactors]string
}

// waterfallSteps are the four steps of the waterfall, and the factor whose
// loss leads to each step after the first.
var waterfallSteps = []string{"offered", "held", "productive", "useful"}

func stepHours(r goodput.Result) [4]float64 {
	return [4]float64{r.OfferedHours, r.HeldHours, r.ProductiveHours, r.UsefulHours}
}

// WaterfallChart draws offered → held → productive → useful device-hours,
// each step's loss stacked above it, labelled with its owner and hours.
func WaterfallChart(j Job) Chart {
	r := j.Result
	h := stepHours(r)
	var groups []barGroup
	for i, step := range waterfallSteps {
		g := barGroup{Category: step, Bars: []bar{{Class: "bar " + step, Name: step, High: hoursToBase(h[i]), Show: true}}}
		if i > 0 {
			f := goodput.Factor(i - 1)
			g.Note, g.Note2 = "−"+formatValue(DeviceHours, hoursToBase(r.LossHours[f])), "lost to "+j.Owners[f]
			g.Bars = append(g.Bars, bar{Class: "loss", Name: "lost to " + j.Owners[f],
				Low: hoursToBase(h[i]), High: hoursToBase(h[i-1]), Stack: true})
		}
		groups = append(groups, g)
	}
	c := barChart("waterfall-"+j.Name, "Waterfall of "+j.Name, "step, and the loss before it with its owner", DeviceHours, groups)
	c.legend([2]string{"bar useful", "device-hours kept"}, [2]string{"loss", "lost in the step"})
	c.Table = Table{Caption: "Waterfall of " + j.Name, Marked: -1,
		Head: []string{"step", "device-hours", "lost before this step", "owner", "cost of the loss"}}
	for i, step := range waterfallSteps {
		row := []string{step, formatValue(DeviceHours, hoursToBase(h[i])), "—", "—", "—"}
		if i > 0 {
			f := goodput.Factor(i - 1)
			row[2] = formatValue(DeviceHours, hoursToBase(r.LossHours[f]))
			row[3] = j.Owners[f]
			if r.HasCost {
				row[4] = lang.Format(r.LossCost[f], lang.Money)
			}
		}
		c.Table.Rows = append(c.Table.Rows, row)
	}
	return c
}

// byOwner lists the factors by saving, largest first: by Saving when the
// job has a price, else by GainHours (the same order, as Saving rises with
// the gain); ties keep S, R, P order.
func byOwner(r goodput.Result) []goodput.Factor {
	fs := []goodput.Factor{goodput.Scheduling, goodput.Runtime, goodput.Program}
	sort.SliceStable(fs, func(a, b int) bool {
		if r.HasCost {
			return r.Saving[fs[a]] > r.Saving[fs[b]]
		}
		return r.GainHours[fs[a]] > r.GainHours[fs[b]]
	})
	return fs
}

// LeversChart draws, per owner, the device-hours lost and the device-hours
// its lever (the factor alone at its ceiling) would win back, sorted by
// saving, with the best lever marked.
func LeversChart(id, name string, r goodput.Result, in goodput.Inputs, owners [goodput.NumFactors]string) Chart {
	var groups []barGroup
	fs := byOwner(r)
	for _, f := range fs {
		groups = append(groups, barGroup{Category: owners[f], Note: f.String(),
			Best: r.HasBestLever && r.BestLever == f,
			Bars: []bar{
				{Class: "bar loss", Name: "lost to " + owners[f], High: hoursToBase(r.LossHours[f])},
				{Class: "bar gain", Name: "won back by " + owners[f] + "'s lever", High: hoursToBase(r.GainHours[f])},
			}})
	}
	c := barChart(id, "Losses and levers of "+name+", by owner", "owner (factor), largest saving first; ★ best lever", DeviceHours, groups)
	c.legend([2]string{"bar loss", "lost"}, [2]string{"bar gain", "won back at the ceiling"})
	c.Table = Table{Caption: "Losses and levers of " + name, Marked: -1,
		Head: []string{"owner", "factor", "value", "ceiling", "lost", "cost of the loss", "mpg at the ceiling", "won back", "saving"}}
	for i, f := range fs {
		ceil := "—"
		if cl := in.Ceilings[f]; cl.Set {
			ceil = lang.FormatNumber(lang.Clean(cl.Value))
		}
		lossCost, saving := "—", "—"
		if r.HasCost {
			lossCost, saving = lang.Format(r.LossCost[f], lang.Money), lang.Format(r.Saving[f], lang.Money)
		}
		c.Table.Rows = append(c.Table.Rows, []string{owners[f], f.String(),
			lang.FormatNumber(lang.Clean(in.Factors[f].Value)), ceil,
			formatValue(DeviceHours, hoursToBase(r.LossHours[f])), lossCost,
			lang.FormatNumber(lang.Clean(r.Lever[f])),
			formatValue(DeviceHours, hoursToBase(r.GainHours[f])), saving})
		if r.HasBestLever && r.BestLever == f {
			c.Table.Marked = i
		}
	}
	return c
}
