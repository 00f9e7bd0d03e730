package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// factorOwner names the team that owns factor f of the job d: the
// innermost owners block that names it (owners.go), else a team named
// after the factor. It is the one place the rollups by owner ask.
func (s *Scenario) factorOwner(d *check.Decl, f goodput.Factor) string {
	if js := s.of(d).job; js != nil && js.owner(f) != "" {
		return js.owner(f)
	}
	return results.FactorNames[f]
}

func (s *Scenario) figureValue(g check.GroupRef, r *check.Ref, out *sink) (Value, bool) {
	v, err := s.groupValue(r.Decl, g.Figure)
	if err != nil {
		pos, end := r.Node.Span()
		out.runtimeErrorAt(pos, end, err.Error())
		return Value{}, false
	}
	return v, true
}

// groupSums adds up a figure over the group's jobs, in engine units.
func (s *Scenario) groupSums(d *check.Decl, fig *check.GroupFigure) (float64, error) {
	total := 0.0
	for i, m := range d.Plan.Members {
		if i&63 == 63 {
			s.checkStop()
		}
		js := s.of(m).job
		r := js.result()
		if fig.Def.NeedsRate && !r.HasCost {
			return 0, fmt.Errorf("job %s of group %s has no rate, so the group's %s is undefined", m.Name.Name, d.Name.Name, fig.Name)
		}
		if fig.Def.HasFigure() {
			total += fig.Def.Of(&r)
			continue
		}
		v, err := resultGet(fig.Def, js)
		if err != nil {
			return 0, fmt.Errorf("the %s of job %s is undefined, so group %s's is: %w", fig.Name, m.Name.Name, d.Name.Name, err)
		}
		total += engineUnits(v)
	}
	return total, nil
}

// groupValue computes one figure of a group.
func (s *Scenario) groupValue(d *check.Decl, fig *check.GroupFigure) (Value, error) {
	switch {
	case fig.Def == nil:
		return count(float64(len(d.Plan.Members))), nil
	case fig.Def.Group == results.GroupRatio:
		// A ratio of sums is undefined while the useful hours are 0.
		useful, _ := s.groupSums(d, check.GroupFigures()["useful_hours"])
		if useful == 0 {
			return Value{}, fmt.Errorf("the %s of group %s is undefined: its useful hours are 0", fig.Name, d.Name.Name)
		}
		num, err := s.groupSums(d, check.GroupFigures()[fig.Def.Ratio[0]])
		if err != nil {
			return Value{}, err
		}
		den, err := s.groupSums(d, check.GroupFigures()[fig.Def.Ratio[1]])
		if err != nil {
			return Value{}, err
		}
		return engineValue(num/den, check.InCurrency(fig.Type, d.Plan.Currency)), nil
	}
	v, err := s.groupSums(d, fig)
	if err != nil {
		return Value{}, err
	}
	return engineValue(v, check.InCurrency(fig.Type, d.Plan.Currency)), nil
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
func (s *Scenario) ownerRows(d *check.Decl) []OwnerRow {
	byOwner := map[string]*OwnerRow{}
	var order []string
	for _, m := range d.Plan.Members {
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
			if !check.Contains(row.Factors, results.FactorNames[f]) {
				row.Factors = append(row.Factors, results.FactorNames[f])
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

func (s *Scenario) ownerValue(o check.OwnerRef, r *check.Ref, out *sink) (Value, bool) {
	var owners []string
	for _, row := range s.ownerRows(r.Decl) {
		owners = append(owners, row.Owner)
	}
	if check.Contains(owners, o.Team) {
		for _, m := range r.Decl.Plan.Members {
			if !s.of(m).job.result().HasCost {
				pos, end := r.Node.Span()
				out.runtimeErrorAt(pos, end, fmt.Sprintf("job %s of group %s has no rate, so %s is undefined", m.Name.Name, r.Decl.Name.Name, r.Text))
				return Value{}, false
			}
		}
		// The result o rolls up, over the factors the team owns, job by
		// job: owner_saving adds saving.F.
		money := 0.0
		for _, m := range r.Decl.Plan.Members {
			for i, long := range results.FactorNames {
				if s.factorOwner(m, goodput.Factor(i)) != o.Team {
					continue
				}
				v, err := resultGet(results.ByName()[o.Rolls+"."+long], s.of(m).job)
				if err != nil {
					pos, end := r.Node.Span()
					out.runtimeErrorAt(pos, end, fmt.Sprintf("%s of job %s is undefined, so %s is: %v", o.Rolls+"."+long, m.Name.Name, r.Text, err))
					return Value{}, false
				}
				money += v.Num
			}
		}
		return NumberValue(money, units.MoneyIn(r.Decl.Plan.Currency)), true
	}
	pos, end := r.Node.(*lang.Call).Args[1].Span()
	msg := fmt.Sprintf("no factor of a job in group %s is owned by %q", r.Decl.Name.Name, o.Team)
	if sug := suggest.Closest(o.Team, owners); sug != "" {
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
