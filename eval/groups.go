package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is the group (language.md §13): sums of its jobs' figures,
// the ratios of those sums, and the rollup of losses and savings by the
// team that owns each factor.

func (p *program) checkGroup(d *decl) bool {
	return p.memberJobs(d, d.plan.group.Jobs)
}

// factorOwner names the team that owns factor f of the job d: the
// innermost owners block that names it (owners.go), else a team named
// after the factor. It is the one place the rollups by owner ask.
func (s *Scenario) factorOwner(d *decl, f goodput.Factor) string {
	if js := s.of(d).job; js != nil && js.owner(f) != "" {
		return js.owner(f)
	}
	return factorNames[f]
}

// groupFigure is one figure of a group, under the name it is read by: a
// job result the group sums or divides (its row's group says which), or
// the group's count of jobs (def nil).
type groupFigure struct {
	name string
	typ  Type
	def  *resultDef
}

// groupFigures are a group's figures by name, short factor names
// included: jobs, and each result whose row has a group rule.
var groupFigures = func() map[string]*groupFigure {
	m := map[string]*groupFigure{"jobs": {name: "jobs", typ: CountType}}
	for _, d := range resultTable {
		if d.group == groupNone {
			continue
		}
		for _, n := range append([]string{d.name}, d.aliases...) {
			m[n] = &groupFigure{name: n, typ: d.typ, def: d}
		}
	}
	return m
}()

// groupFigureNames are the long names of a group's figures, for
// messages.
var groupFigureNames = func() []string {
	var names []string
	for name := range groupFigures {
		if i := strings.IndexByte(name, '.'); i < 0 || len(name)-i > 2 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}()

// groupRef reads a group's figure.
type groupRef struct{ fig *groupFigure }

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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ownerCall checks owner_loss_cost(GROUP, "team") and
// owner_saving(GROUP, "team").
func (cp *exprChecker) ownerCall(n *lang.Call, b *funcs.Func) (Type, ast.Node) {
	fn := n.Func.Name
	if !b.Fits(len(n.Args)) {
		return cp.errorf(n, "%s takes %s: a group and a team, e.g. %s(training, \"capacity\")", fn, b.ArityWords(), fn)
	}
	nm, ok := unparen(n.Args[0]).(*lang.Name)
	if !ok || len(nm.Parts) != 1 {
		return cp.errorf(n.Args[0], "%s's first argument must name a group", fn)
	}
	d, ok := cp.p.decls[nm.Parts[0].Name]
	if !ok {
		return cp.unknownName(nm)
	}
	if d.kind != declGroup {
		return cp.errorf(n.Args[0], "%s is a %s, but %s's first argument must be a group", d.name.Name, declKinds[d.kind].noun, fn)
	}
	team, ok := unparen(n.Args[1]).(*lang.StringLit)
	if !ok {
		return cp.errorf(n.Args[1], "%s's second argument must be a team's name, as a string: \"capacity\"", fn)
	}
	if !cp.p.dependOn(d, n.Args[0], cp.diags) {
		cp.ok = false
		return Type{}, nil
	}
	t := value.NumType(lang.Money)
	return t, cp.addRef(&ref{kind: refPlan, d: d, text: fn, node: n, typ: t, plan: ownerRef{saving: fn == "owner_saving", team: team.Value}})
}

// ownerRef reads a group's loss cost or saving for one team.
type ownerRef struct {
	saving bool
	team   string
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
