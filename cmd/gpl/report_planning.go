package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// The report's planning part: groups with their tables by owner, compares,
// sweeps (one row per point) and solves, in text and JSON.

func hoursText(h float64) string { return eval.NumberValue(h*3600, lang.Duration).String() }
func money(v float64) string     { return eval.NumberValue(v, lang.Money).String() }
func price(v float64) string     { return eval.NumberValue(v/3600, lang.Price).String() }

// writePlanning writes the groups, compares, sweeps and solves of s.
func writePlanning(w io.Writer, s *eval.Scenario) {
	for _, g := range s.Groups() {
		writeGroup(w, g)
	}
	for _, c := range s.Compares() {
		writeCompare(w, c)
	}
	for _, sw := range s.Sweeps() {
		writeSweep(w, s, sw)
	}
	for _, sv := range s.Solves() {
		line := fmt.Sprintf("\nsolve %s over %s: %s = %s gives %s (%s there)", sv.Name, sv.Job, sv.Input, sv.Value, sv.Condition, sv.Result)
		if sv.AboveCeiling {
			line += ", above the job's ceiling"
		}
		fmt.Fprintln(w, line)
	}
}

func writeGroup(w io.Writer, g eval.Group) {
	fmt.Fprintf(w, "\ngroup %s: %s\n", g.Name, strings.Join(g.Jobs, ", "))
	fmt.Fprintf(w, "  offered %s → held %s → productive %s → useful %s (mpg %s)\n",
		hoursText(g.OfferedHours), hoursText(g.HeldHours), hoursText(g.ProductiveHours), hoursText(g.UsefulHours), fix(g.MPG))
	if g.HasCost {
		fmt.Fprintf(w, "  cost %s, badput_cost %s, cost_per_useful_hour %s\n", money(g.Cost), money(g.BadputCost), price(g.CostPerUsefulHour))
	}
	// Owners and factors are names, left-aligned; the figures right-aligned.
	rows := [][]string{{"owner", "factors", "loss_hours", "gain_hours"}}
	if g.HasCost {
		rows[0] = []string{"owner", "factors", "loss_hours", "loss_cost", "gain_hours", "saving"}
	}
	for _, o := range g.Owners {
		if g.HasCost {
			rows = append(rows, []string{o.Owner, strings.Join(o.Factors, " "), hoursText(o.LossHours), money(o.LossCost), hoursText(o.GainHours), money(o.Saving)})
		} else {
			rows = append(rows, []string{o.Owner, strings.Join(o.Factors, " "), hoursText(o.LossHours), hoursText(o.GainHours)})
		}
	}
	writeTable(w, rows, 2)
}

func writeCompare(w io.Writer, c eval.Compare) {
	order := "lowest"
	if c.Max {
		order = "highest"
	}
	fmt.Fprintf(w, "\ncompare %s: best %s (%s %s)\n", c.Name, c.Best, order, c.By)
	rows := [][]string{{"job", "mpg", "useful_hours", "cost", "cost_per_useful_hour", "trade_ratio", "change"}}
	for i, r := range c.Rows {
		cost, cpuh, change := "—", "—", "—"
		if r.HasCost {
			cost, cpuh = money(r.Cost), price(r.CostPerUsefulHour)
			if i > 0 {
				change = price(r.CostPerUsefulHourChange)
				if r.CostPerUsefulHourChange >= 0 {
					change = "+" + change
				}
			}
		}
		rows = append(rows, []string{r.Job, fix(r.MPG), hoursText(r.UsefulHours), cost, cpuh, fix(r.TradeRatio) + "×", change})
	}
	writeTable(w, rows, 1)
}

// writeSweep writes one row per point as the sweep streams them, so that
// a large sweep's table is not held in memory. It goes over the points
// twice, the first time only to size the columns to their widest cell and
// to learn whether any point is marked: a point costs one engine run.
func writeSweep(w io.Writer, s *eval.Scenario, sw eval.Sweep) {
	heads := append(append([]string(nil), sw.Inputs...), "mpg", "useful_hours", "cost_per_useful_hour", "best_lever")
	widths := make([]int, len(heads))
	for i, h := range heads {
		widths[i] = len(h)
	}
	marked := false
	cells := make([]string, 0, len(heads))
	err := s.SweepPoints(sw.Name, func(p eval.SweepPoint) bool {
		cells = sweepCells(cells[:0], p)
		for i, c := range cells {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
		marked = marked || len(p.AboveCeiling) > 0
		return true
	})
	legend := ""
	if marked {
		legend = " (* a factor above its ceiling)"
	}
	fmt.Fprintf(w, "\nsweep %s over %s: %s%s\n", sw.Name, sw.Job, lang.CountOf(float64(sw.Points), "point", "points"), legend)
	if err != nil {
		fmt.Fprintf(w, "  (no table: %v)\n", err)
		return
	}
	var b strings.Builder
	row := func(mark string, cells []string) string {
		b.Reset()
		b.WriteString(mark)
		for i, c := range cells {
			b.WriteString("  ")
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)))
			b.WriteString(c)
		}
		return b.String()
	}
	fmt.Fprintln(w, row(" ", heads))
	err = s.SweepPoints(sw.Name, func(p eval.SweepPoint) bool {
		mark := " "
		if len(p.AboveCeiling) > 0 {
			mark = "*"
		}
		cells = sweepCells(cells[:0], p)
		_, err := fmt.Fprintln(w, row(mark, cells))
		return err == nil
	})
	if err != nil {
		fmt.Fprintf(w, "  (the table stops: %v)\n", err)
	}
}

// sweepCells appends the cells of p's row to cells: the varied inputs,
// mpg, useful_hours, cost_per_useful_hour and best_lever.
func sweepCells(cells []string, p eval.SweepPoint) []string {
	for _, v := range p.Inputs {
		cells = append(cells, v.String())
	}
	cpuh := "—"
	if p.HasCostPerUsefulHour {
		cpuh = price(p.CostPerUsefulHour)
	}
	lever := p.BestLever
	if lever == "" {
		lever = "—"
	}
	return append(cells, fix(p.MPG), hoursText(p.UsefulHours), cpuh, lever)
}

// jsonPlanning is the planning part of the JSON report.
type jsonPlanning struct {
	Groups   []jsonGroup   `json:"groups,omitempty"`
	Compares []jsonCompare `json:"compares,omitempty"`
	Sweeps   []jsonSweep   `json:"sweeps,omitempty"`
	Solves   []jsonSolve   `json:"solves,omitempty"`
}

type jsonGroupOwner struct {
	Owner     string   `json:"owner"`
	Factors   []string `json:"factors"`
	LossHours float64  `json:"loss_device_hours"`
	LossCost  *float64 `json:"loss_cost_usd,omitempty"`
	GainHours float64  `json:"gain_device_hours"`
	Saving    *float64 `json:"saving_usd,omitempty"`
}

type jsonGroup struct {
	Name              string           `json:"name"`
	Jobs              []string         `json:"jobs"`
	OfferedHours      float64          `json:"offered_device_hours"`
	HeldHours         float64          `json:"held_device_hours"`
	ProductiveHours   float64          `json:"productive_device_hours"`
	UsefulHours       float64          `json:"useful_device_hours"`
	MPG               float64          `json:"mpg"`
	Cost              *float64         `json:"cost_usd,omitempty"`
	BadputCost        *float64         `json:"badput_cost_usd,omitempty"`
	CostPerUsefulHour *float64         `json:"cost_per_useful_hour_usd,omitempty"`
	Owners            []jsonGroupOwner `json:"owners"`
}

type jsonCompareRow struct {
	Job                     string   `json:"job"`
	MPG                     float64  `json:"mpg"`
	UsefulHours             float64  `json:"useful_device_hours"`
	Cost                    *float64 `json:"cost_usd,omitempty"`
	CostPerUsefulHour       *float64 `json:"cost_per_useful_hour_usd,omitempty"`
	TradeRatio              float64  `json:"trade_ratio"`
	CostPerUsefulHourChange *float64 `json:"cost_per_useful_hour_change_usd,omitempty"`
}

type jsonCompare struct {
	Name  string           `json:"name"`
	By    string           `json:"by"`
	Order string           `json:"order"`
	Best  string           `json:"best"`
	Rows  []jsonCompareRow `json:"rows"`
}

type jsonSweep struct {
	Name   string           `json:"name"`
	Job    string           `json:"job"`
	Inputs []string         `json:"inputs"`
	Points int              `json:"points"`
	Table  []map[string]any `json:"table"`
}

type jsonSolve struct {
	Name         string  `json:"name"`
	Job          string  `json:"job"`
	Input        string  `json:"input"`
	Value        float64 `json:"value"`
	Unit         string  `json:"unit,omitempty"`
	Condition    string  `json:"condition"`
	AboveCeiling bool    `json:"above_ceiling,omitempty"`
}

// jsonNumber is a value in the unit the JSON report uses for its
// dimension, and that unit's key suffix.
func jsonNumber(v eval.Value) (float64, string) {
	switch v.Type.Dim {
	case lang.Duration:
		return lang.Clean(v.Num / 3600), "_h"
	case lang.Price:
		return lang.Clean(v.Num * 3600), "_usd_per_device_hour"
	case lang.Money:
		return lang.Clean(v.Num), "_usd"
	}
	return lang.Clean(v.Num), ""
}

func toJSONPlanning(s *eval.Scenario) jsonPlanning {
	var out jsonPlanning
	for _, g := range s.Groups() {
		jg := jsonGroup{Name: g.Name, Jobs: g.Jobs, OfferedHours: lang.Clean(g.OfferedHours), HeldHours: lang.Clean(g.HeldHours),
			ProductiveHours: lang.Clean(g.ProductiveHours), UsefulHours: lang.Clean(g.UsefulHours), MPG: lang.Clean(g.MPG), Owners: []jsonGroupOwner{}}
		if g.HasCost {
			jg.Cost, jg.BadputCost, jg.CostPerUsefulHour = finite(g.Cost), finite(g.BadputCost), finite(g.CostPerUsefulHour)
		}
		for _, o := range g.Owners {
			jo := jsonGroupOwner{Owner: o.Owner, Factors: o.Factors, LossHours: lang.Clean(o.LossHours), GainHours: lang.Clean(o.GainHours)}
			if g.HasCost {
				jo.LossCost, jo.Saving = finite(o.LossCost), finite(o.Saving)
			}
			jg.Owners = append(jg.Owners, jo)
		}
		out.Groups = append(out.Groups, jg)
	}
	for _, c := range s.Compares() {
		jc := jsonCompare{Name: c.Name, By: c.By, Order: "min", Best: c.Best}
		if c.Max {
			jc.Order = "max"
		}
		for _, r := range c.Rows {
			jr := jsonCompareRow{Job: r.Job, MPG: lang.Clean(r.MPG), UsefulHours: lang.Clean(r.UsefulHours), TradeRatio: lang.Clean(r.TradeRatio)}
			if r.HasCost {
				jr.Cost, jr.CostPerUsefulHour, jr.CostPerUsefulHourChange = finite(r.Cost), finite(r.CostPerUsefulHour), finite(r.CostPerUsefulHourChange)
			}
			jc.Rows = append(jc.Rows, jr)
		}
		out.Compares = append(out.Compares, jc)
	}
	for _, sw := range s.Sweeps() {
		js := jsonSweep{Name: sw.Name, Job: sw.Job, Inputs: sw.Inputs, Points: sw.Points, Table: []map[string]any{}}
		s.SweepPoints(sw.Name, func(p eval.SweepPoint) bool {
			row := map[string]any{"mpg": lang.Clean(p.MPG), "useful_device_hours": lang.Clean(p.UsefulHours), "best_lever": p.BestLever}
			for i, v := range p.Inputs {
				n, suffix := jsonNumber(v)
				row[sw.Inputs[i]+suffix] = n
			}
			if p.HasCostPerUsefulHour {
				row["cost_per_useful_hour_usd"] = lang.Clean(p.CostPerUsefulHour)
			}
			if len(p.AboveCeiling) > 0 {
				row["above_ceiling"] = append([]string(nil), p.AboveCeiling...)
			}
			js.Table = append(js.Table, row)
			return true
		})
		out.Sweeps = append(out.Sweeps, js)
	}
	for _, sv := range s.Solves() {
		n, suffix := jsonNumber(sv.Value)
		out.Solves = append(out.Solves, jsonSolve{Name: sv.Name, Job: sv.Job, Input: sv.Input, Value: n,
			Unit: strings.TrimPrefix(suffix, "_"), Condition: sv.Condition, AboveCeiling: sv.AboveCeiling})
	}
	return out
}
