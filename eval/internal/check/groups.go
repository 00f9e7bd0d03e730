package check

import (
	"sort"
	"strings"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is the group (language.md §13): sums of its jobs' figures,
// the ratios of those sums, and the rollup of losses and savings by the
// team that owns each factor.

func (p *Program) checkGroup(d *Decl) bool {
	return p.memberJobs(d, d.Plan.group.Jobs)
}

// GroupFigure is one figure of a group, under the name it is read by: a
// job result the group sums or divides (its row's group says which), or
// the group's count of jobs (def nil).
type GroupFigure struct {
	// Name is the name the figure is read by.
	Name string
	// Type is the figure's type.
	Type value.Type
	// Def is the job result the group sums or divides; nil for the
	// count of jobs.
	Def *results.Def
}

// GroupFigures are a group's figures by name, short factor names
// included: jobs, and each result whose row has a group rule.
// The map is built on first use and shared: callers must not change it.
var GroupFigures = sync.OnceValue(func() map[string]*GroupFigure {
	m := map[string]*GroupFigure{"jobs": {Name: "jobs", Type: value.CountType}}
	for _, d := range results.Table() {
		if d.Group == results.GroupNone {
			continue
		}
		for _, n := range append([]string{d.Name}, d.Aliases...) {
			m[n] = &GroupFigure{Name: n, Type: d.Type, Def: d}
		}
	}
	return m
})

// GroupFigureNames are the long names of a group's figures, for
// messages.
var GroupFigureNames = sync.OnceValue(func() []string {
	var names []string
	for name := range GroupFigures() {
		if i := strings.IndexByte(name, '.'); i < 0 || len(name)-i > 2 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
})

// GroupRef reads a group's figure.
type GroupRef struct {
	// Figure is the figure read.
	Figure *GroupFigure
}

// Contains reports whether s is in list.
func Contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ownerCall checks owner_loss_cost(GROUP, "team"), owner_saving(GROUP,
// "team") and owner_point_value(GROUP, "team"): a call whose row rolls a
// per-factor result up by owner (funcs.Func.Rolls).
func (cp *exprChecker) ownerCall(n *lang.Call, b *funcs.Func) (value.Type, ast.Node) {
	fn := n.Func.Name
	if !b.Fits(len(n.Args)) {
		return cp.errorf(n, "%s takes %s: a group and a team, e.g. %s(training, \"capacity\")", fn, b.ArityWords(), fn)
	}
	nm, ok := Unparen(n.Args[0]).(*lang.Name)
	if !ok || len(nm.Parts) != 1 {
		return cp.errorf(n.Args[0], "%s's first argument must name a group", fn)
	}
	d, ok := cp.p.Decls[nm.Parts[0].Name]
	if !ok {
		return cp.unknownName(nm)
	}
	if d.Kind != DeclGroup {
		return cp.errorf(n.Args[0], "%s is a %s, but %s's first argument must be a group", d.Name.Name, DeclKinds[d.Kind].Noun, fn)
	}
	team, ok := Unparen(n.Args[1]).(*lang.StringLit)
	if !ok {
		return cp.errorf(n.Args[1], "%s's second argument must be a team's name, as a string: \"capacity\"", fn)
	}
	if !cp.p.dependOn(d, n.Args[0], cp.diags) {
		cp.ok = false
		return value.Type{}, nil
	}
	t := value.NumType(units.MoneyIn(d.Plan.Currency))
	return t, cp.addRef(&Ref{Kind: RefPlan, Decl: d, Text: fn, Node: n, Type: t, Plan: OwnerRef{Rolls: b.Rolls, Team: team.Value}})
}

// OwnerRef reads a group's loss cost, saving or point value for one
// team.
type OwnerRef struct {
	// Rolls is the per-factor job result added up, in USD: "loss_cost",
	// "saving" or "point_value" (the call's funcs.Func.Rolls).
	Rolls string
	// Team is the owner the figure is for.
	Team string
}
