package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	model "github.com/gpl-lang/gpl/eval/report"
)

// writePool prints a pool: its fields and window, and for a reservation
// its figures and utilisation; then its table by month when it or its
// jobs lie in time.
func writePool(w io.Writer, p model.Pool) {
	var parts []string
	for _, fd := range p.Fields {
		parts = append(parts, fd.Name+" "+fd.Value.String())
	}
	fig := p.Figures
	if fig.From != "" {
		parts = append(parts, "from "+fig.From+" to "+fig.To)
	}
	if len(fig.Schedule) > 0 {
		var steps []string
		for _, st := range fig.Schedule {
			steps = append(steps, fmt.Sprintf("%s from %s", model.Number(st.Devices).String(), st.From))
		}
		parts = append(parts, "devices "+strings.Join(steps, ", "))
	}
	fmt.Fprintf(w, "\npool %s: %s\n", p.Name, strings.Join(parts, ", "))
	if p.Reservation != nil {
		t := fig.Total
		fmt.Fprintf(w, "  reserved: offered %s, allocated %s, idle %s (utilisation %s)\n",
			hoursText(t.OfferedHours), hoursText(t.AllocatedHours), hoursText(t.IdleHours), fix(t.Utilisation()))
		line := fmt.Sprintf("  useful %s (mpg %s)", hoursText(t.UsefulHours), fix(t.MPG()))
		if t.HasCost {
			line += ", cost " + p.Money(t.Cost).String() + ", idle_cost " + p.Money(t.IdleCost).String()
			if c, ok := t.CostPerUsefulHour(); ok {
				line += ", cost_per_useful_hour " + p.Price(c).String()
			}
		}
		fmt.Fprintln(w, line)
	}
	writeMonths(w, fig.Months, p.Reservation != nil, p.Money)
}

// writeGroupMonths prints a group's table by calendar month: its jobs'
// device-hours and cost, and the idle cost of the reservations whose
// every job is in it, when there are any.
func writeGroupMonths(w io.Writer, mg model.Group) {
	g := mg.Figures
	if len(g.Months) == 0 {
		return
	}
	idle := g.IdleHours != 0
	head := []string{"month", "offered_hours", "useful_hours", "cost"}
	if idle {
		head = append(head, "idle_cost")
	}
	rows := [][]string{head}
	for _, m := range g.Months {
		row := []string{m.Month, hoursText(m.OfferedHours), hoursText(m.UsefulHours), orDash(m.HasCost, mg.Money(m.Cost))}
		if idle {
			row = append(row, orDash(m.HasIdleCost, mg.Money(m.IdleCost)))
		}
		rows = append(rows, row)
	}
	writeTable(w, rows, 1)
}

// orDash prints money when it is defined, else "—".
func orDash(ok bool, v model.Amount) string {
	if !ok {
		return "—"
	}
	return v.String()
}

// writeMonths prints a pool's table by calendar month; with idle (a
// reservation), the allocated and idle device-hours and cost too.
func writeMonths(w io.Writer, months []eval.Period, idle bool, money func(float64) model.Amount) {
	if len(months) == 0 {
		return
	}
	head := []string{"month", "offered_hours", "allocated_hours", "idle_hours", "useful_hours", "utilisation", "cost", "idle_cost"}
	if !idle {
		head = []string{"month", "offered_hours", "useful_hours", "cost"}
	}
	rows := [][]string{head}
	for _, m := range months {
		cost, idleCost := orDash(m.HasCost, money(m.Cost)), orDash(m.HasIdleCost, money(m.IdleCost))
		if idle {
			rows = append(rows, []string{m.Month, hoursText(m.OfferedHours), hoursText(m.AllocatedHours), hoursText(m.IdleHours),
				hoursText(m.UsefulHours), fix(m.Utilisation()), cost, idleCost})
		} else {
			rows = append(rows, []string{m.Month, hoursText(m.OfferedHours), hoursText(m.UsefulHours), cost})
		}
	}
	writeTable(w, rows, 1)
}
