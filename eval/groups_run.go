package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// factorOwner names the team that owns factor f of the job d: the
// innermost owners block that names it (owners.go), else a team named
// after the factor. It is the one place the rollups by owner ask.
func (s *Scenario) factorOwner(d *decl, f goodput.Factor) string {
	if js := s.of(d).job; js != nil && js.owner(f) != "" {
		return js.owner(f)
	}
	return factorNames[f]
}

func (s *Scenario) figureValue(g groupRef, r *ref, out *sink) (Value, bool) {
	v, err := s.groupValue(r.d, g.fig)
	if err != nil {
		pos, end := r.node.Span()
		out.runtimeErrorAt(pos, end, err.Error())
		return Value{}, false
	}
	return v, true
}

// groupSums adds up a figure over the group's jobs, in engine units.
func (s *Scenario) groupSums(d *decl, fig *groupFigure) (float64, error) {
	total := 0.0
	for _, m := range d.plan.members {
		js := s.of(m).job
		r := js.result()
		if fig.def.needsRate && !r.HasCost {
			return 0, fmt.Errorf("job %s of group %s has no rate, so the group's %s is undefined", m.name.Name, d.name.Name, fig.name)
		}
		total += fig.def.of(&r)
	}
	return total, nil
}

// groupValue computes one figure of a group.
func (s *Scenario) groupValue(d *decl, fig *groupFigure) (Value, error) {
	switch {
	case fig.def == nil:
		return count(float64(len(d.plan.members))), nil
	case fig.def.group == groupRatio:
		// A ratio of sums is undefined while the useful hours are 0.
		useful, _ := s.groupSums(d, groupFigures["useful_hours"])
		if useful == 0 {
			return Value{}, fmt.Errorf("the %s of group %s is undefined: its useful hours are 0", fig.name, d.name.Name)
		}
		num, err := s.groupSums(d, groupFigures[fig.def.ratio[0]])
		if err != nil {
			return Value{}, err
		}
		den, err := s.groupSums(d, groupFigures[fig.def.ratio[1]])
		if err != nil {
			return Value{}, err
		}
		return engineValue(num/den, fig.typ), nil
	}
	v, err := s.groupSums(d, fig)
	if err != nil {
		return Value{}, err
	}
	return engineValue(v, fig.typ), nil
}

// OwnerRow is what one team's factors lose and could gain across a
// group's jobs (or one job's).
type OwnerRow struct {
	Owner string
	// Factors are the factors the team owns in some job, long names.
	Factors []string
	// LossHours and GainHours are device-hours; LossCost and Saving USD.
	LossHours, LossCost, GainHours, Saving float64
}

// ownerRows rolls a group's losses and gains up by owner, sorted by
// saving, largest first (ties by name).
func (s *Scenario) ownerRows(d *decl) []OwnerRow {
	byOwner := map[string]*OwnerRow{}
	var order []string
	for _, m := range d.plan.members {
		r := s.of(m).job.result()
		for i := range goodput.NumFactors {
			f := goodput.Factor(i)
			owner := s.factorOwner(m, f)
			row := byOwner[owner]
			if row == nil {
				row = &OwnerRow{Owner: owner}
				byOwner[owner] = row
				order = append(order, owner)
			}
			if !contains(row.Factors, factorNames[f]) {
				row.Factors = append(row.Factors, factorNames[f])
			}
			row.LossHours += r.LossHours[f]
			row.LossCost += r.LossCost[f]
			row.GainHours += r.GainHours[f]
			row.Saving += r.Saving[f]
		}
	}
	rows := make([]OwnerRow, 0, len(order))
	for _, o := range order {
		rows = append(rows, *byOwner[o])
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Saving != rows[j].Saving {
			return rows[i].Saving > rows[j].Saving
		}
		return rows[i].Owner < rows[j].Owner
	})
	return rows
}

func (s *Scenario) ownerValue(o ownerRef, r *ref, out *sink) (Value, bool) {
	var owners []string
	for _, row := range s.ownerRows(r.d) {
		owners = append(owners, row.Owner)
		if row.Owner != o.team {
			continue
		}
		money := row.LossCost
		if o.saving {
			money = row.Saving
		}
		for _, m := range r.d.plan.members {
			if !s.of(m).job.result().HasCost {
				pos, end := r.node.Span()
				out.runtimeErrorAt(pos, end, fmt.Sprintf("job %s of group %s has no rate, so %s is undefined", m.name.Name, r.d.name.Name, r.text))
				return Value{}, false
			}
		}
		return NumberValue(money, lang.Money), true
	}
	pos, end := r.node.(*lang.Call).Args[1].Span()
	msg := fmt.Sprintf("no factor of a job in group %s is owned by %q", r.d.name.Name, o.team)
	if sug := suggest.Closest(o.team, owners); sug != "" {
		msg += fmt.Sprintf("; did you mean %q?", sug)
	}
	sort.Strings(owners)
	out.errorAt(pos, end, msg).Notes = []string{"the owners are " + strings.Join(quoteAll(owners), ", ")}
	return Value{}, false
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}
