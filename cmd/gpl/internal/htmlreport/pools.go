package htmlreport

import (
	"strings"

	"github.com/gpl-lang/gpl/eval/report"
)

// Pool is what the page shows of a pool: for a reservation its figures
// and utilisation, and its table by calendar month when it or its jobs
// lie in time. A pool paid per use without dates is not shown: its
// figures are its jobs'.
type Pool struct {
	Name  string
	Facts [][2]string
	// Months is the table by month: its header, then a row a month.
	Months [][]string
}

// poolOf is the page's view of a pool of the report model, and false for
// a pool it does not show.
func poolOf(p report.Pool) (Pool, bool) {
	if p.Reservation == nil && len(p.Months) == 0 {
		return Pool{}, false
	}
	fig := p.Figures
	out := Pool{Name: p.Name}
	if fig.From != "" {
		out.Facts = append(out.Facts, [2]string{"window", fig.From + " to " + fig.To})
	}
	if p.Reservation != nil {
		t := fig.Total
		h := func(v float64) string { return formatValue(DeviceHours, hoursToBase(v)) }
		out.Facts = append(out.Facts,
			[2]string{"offered", h(t.OfferedHours)},
			[2]string{"allocated", h(t.AllocatedHours)},
			[2]string{"idle", h(t.IdleHours)},
			[2]string{"utilisation", sixDigits(t.Utilisation())},
			[2]string{"useful", h(t.UsefulHours)},
			[2]string{"mpg", sixDigits(t.MPG())})
		if t.HasCost {
			out.Facts = append(out.Facts, [2]string{"cost", p.Money(t.Cost).String()}, [2]string{"idle cost", p.Money(t.IdleCost).String()})
			if c, ok := t.CostPerUsefulHour(); ok {
				out.Facts = append(out.Facts, [2]string{"cost per useful hour", p.Price(c).String()})
			}
		}
		out.Facts = append(out.Facts, [2]string{"jobs", strings.Join(fig.Jobs, ", ")})
	}
	if len(fig.Months) > 0 {
		h := func(v float64) string { return formatValue(DeviceHours, hoursToBase(v)) }
		out.Months = [][]string{{"month", "offered", "allocated", "idle", "useful", "utilisation", "cost", "idle cost"}}
		for _, m := range fig.Months {
			cost, idle := "—", "—"
			if m.HasCost {
				cost = p.Money(m.Cost).String()
			}
			if m.HasIdleCost {
				idle = p.Money(m.IdleCost).String()
			}
			out.Months = append(out.Months, []string{m.Month, h(m.OfferedHours), h(m.AllocatedHours), h(m.IdleHours), h(m.UsefulHours),
				sixDigits(m.Utilisation()), cost, idle})
		}
	}
	return out, true
}
