package eval

import (
	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/lang"
)

// This file is the table of the kinds of declaration: for each, the
// statement that declares it, the noun messages name it by, and what each
// pass does with it. The passes read their step from the row instead of
// switching on the kind, so a new kind of declaration is a row here and
// the functions it names.

// declKindDef is one kind of declaration.
type declKindDef struct {
	// keyword is the statement that declares it (lang.Statements).
	keyword string
	// noun is what messages call it: "value", "pool", "ruleset", … (the
	// statement's lang.Statement.Noun).
	noun string
	// declare, when set, records what the statement holds besides its
	// name, as it is declared (a ruleset's classes, a sweep's plan).
	declare func(p *program, d *decl, st lang.Stmt)
	// check checks and compiles the declaration (the check pass); it
	// reports whether it has no errors.
	check func(p *program, d *decl) bool
	// eval computes it in one evaluation; it reports whether it has a
	// value.
	eval func(s *Scenario, d *decl) bool
	// name resolves NAME (rest "") or NAME.rest written in an expression.
	name func(cp *exprChecker, n *lang.Name, d *decl, rest string) (Type, ast.Node)
	// fields lists what may follow "NAME." (completion); nil for none.
	fields func(s *Scenario, d *decl) []string
}

// declKinds is the table, by declKind. It is filled by init because its
// rows' functions reach back to it.
var declKinds [numDeclKinds]declKindDef

// kindOfKeyword is the declKind each declaring statement's keyword makes.
var kindOfKeyword = map[string]declKind{}

func init() {
	declKinds = [numDeclKinds]declKindDef{
		declLet: {keyword: "let", noun: "value",
			check: (*program).checkLet, eval: (*Scenario).evalLet, name: (*exprChecker).letName},
		declParam: {keyword: "param", noun: "param",
			check: (*program).checkLet, eval: (*Scenario).evalLet, name: (*exprChecker).letName},
		declPool: {keyword: "pool", noun: "pool",
			check: (*program).checkPool, eval: (*Scenario).evalPool, name: (*exprChecker).poolName,
			fields: func(*Scenario, *decl) []string { return sortedKeys(poolFields) }},
		declJob: {keyword: "job", noun: "job",
			check: (*program).checkJob, eval: (*Scenario).evalJob, name: (*exprChecker).jobName,
			fields: func(*Scenario, *decl) []string { return ResultNames() }},
		declRules: {keyword: "rules", noun: "ruleset", declare: declareClasses,
			check: (*program).checkRules, eval: (*Scenario).evalRules, name: (*exprChecker).rulesName},
		declRequest: {keyword: "request", noun: "request",
			check: (*program).checkRequest, eval: (*Scenario).evalRequest, name: (*exprChecker).requestName,
			fields: func(*Scenario, *decl) []string { return sortedKeys(requestFields) }},
		declGroup: {keyword: "group", noun: "group", declare: declarePlan,
			check: (*program).checkGroup, eval: (*Scenario).evalMembers, name: (*exprChecker).planningName,
			fields: (*Scenario).planningFieldNames},
		declCompare: {keyword: "compare", noun: "compare", declare: declarePlan,
			check: (*program).checkCompare, eval: (*Scenario).evalMembers, name: (*exprChecker).planningName,
			fields: (*Scenario).planningFieldNames},
		declSweep: {keyword: "sweep", noun: "sweep", declare: declarePlan,
			check: (*program).checkSweep, eval: (*Scenario).evalSweep, name: (*exprChecker).planningName,
			fields: (*Scenario).planningFieldNames},
		declSolve: {keyword: "solve", noun: "solve", declare: declarePlan,
			check: (*program).checkSolve, eval: (*Scenario).evalSolve, name: (*exprChecker).planningName,
			fields: (*Scenario).planningFieldNames},
	}
	for k, row := range declKinds {
		kindOfKeyword[row.keyword] = declKind(k)
	}
}

// declareClasses records the classes a ruleset names, which an expression
// may then write bare (classify(r, q) == throughput).
func declareClasses(p *program, _ *decl, st lang.Stmt) {
	rs := st.(*lang.Rules)
	for _, r := range rs.Rules {
		p.classes[r.Class.Name] = true
	}
	p.classes[rs.Else.Name] = true
}
