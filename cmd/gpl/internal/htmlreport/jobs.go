package htmlreport

import (
	"github.com/gpl-lang/gpl/eval/report"
)

// Job is what the page draws of one evaluated job: its names, and the
// job as the report model arranges it for the views, its factors with
// their owners, the waterfall's steps in device-hours and the costs in
// USD.
type Job struct {
	Name, Pool, Extends string
	View                report.JobView
	// Listed are the job's listed results (report.Job.Listed).
	Listed []report.Metric
}

// WaterfallChart draws offered → held → productive → useful device-hours,
// each step's loss stacked above it, labelled with its owner and hours.
func WaterfallChart(j Job) Chart {
	v := j.View
	var groups []barGroup
	for i, st := range v.Steps {
		g := barGroup{Category: st.Name, Bars: []bar{{Class: "bar " + st.Name, Name: st.Name, High: hoursToBase(st.Hours), Show: true}}}
		if st.HasFactor {
			f := v.Factors[st.Factor]
			g.Note, g.Note2 = "−"+formatValue(DeviceHours, hoursToBase(f.LossHours)), "lost to "+f.Owner
			g.Bars = append(g.Bars, bar{Class: "loss", Name: "lost to " + f.Owner,
				Low: hoursToBase(st.Hours), High: hoursToBase(v.Steps[i-1].Hours), Stack: true})
		}
		groups = append(groups, g)
	}
	c := barChart("waterfall-"+j.Name, "Waterfall of "+j.Name, "step, and the loss before it with its owner", DeviceHours, groups)
	c.legend([2]string{"bar useful", "device-hours kept"}, [2]string{"loss", "lost in the step"})
	c.Table = Table{Caption: "Waterfall of " + j.Name, Marked: -1,
		Head: []string{"step", "device-hours", "lost before this step", "owner", "cost of the loss"}}
	for _, st := range v.Steps {
		row := []string{st.Name, formatValue(DeviceHours, hoursToBase(st.Hours)), "—", "—", "—"}
		if st.HasFactor {
			f := v.Factors[st.Factor]
			row[2] = formatValue(DeviceHours, hoursToBase(f.LossHours))
			row[3] = f.Owner
			if v.HasCost {
				row[4] = v.Money(f.LossCost).String()
			}
		}
		c.Table.Rows = append(c.Table.Rows, row)
	}
	return c
}

// LeversChart draws, per owner, the device-hours lost and the device-hours
// its lever (the factor alone at its ceiling) would win back, sorted by
// saving, with the best lever marked.
func LeversChart(id, name string, v report.JobView) Chart {
	var groups []barGroup
	for _, fi := range v.ByOwner {
		f := v.Factors[fi]
		groups = append(groups, barGroup{Category: f.Owner, Note: f.Name,
			Best: v.HasBestLever && v.BestLever == fi,
			Bars: []bar{
				{Class: "bar loss", Name: "lost to " + f.Owner, High: hoursToBase(f.LossHours)},
				{Class: "bar gain", Name: "won back by " + f.Owner + "'s lever", High: hoursToBase(f.GainHours)},
			}})
	}
	c := barChart(id, "Losses and levers of "+name+", by owner", "owner (factor), largest saving first; ★ best lever", DeviceHours, groups)
	c.legend([2]string{"bar loss", "lost"}, [2]string{"bar gain", "won back at the ceiling"})
	c.Table = Table{Caption: "Losses and levers of " + name, Marked: -1,
		Head: []string{"owner", "factor", "value", "ceiling", "lost", "cost of the loss", "mpg at the ceiling", "won back", "saving"}}
	for i, fi := range v.ByOwner {
		f := v.Factors[fi]
		ceil := "—"
		if f.HasCeiling {
			ceil = number(f.Ceiling)
		}
		lossCost, saving := "—", "—"
		if v.HasCost {
			lossCost, saving = v.Money(f.LossCost).String(), v.Money(f.Saving).String()
		}
		c.Table.Rows = append(c.Table.Rows, []string{f.Owner, f.Name,
			number(f.Value), ceil,
			formatValue(DeviceHours, hoursToBase(f.LossHours)), lossCost,
			number(f.Lever),
			formatValue(DeviceHours, hoursToBase(f.GainHours)), saving})
		if v.HasBestLever && v.BestLever == fi {
			c.Table.Marked = i
		}
	}
	return c
}
