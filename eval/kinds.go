package eval

import (
	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/lang"
)

// This file is the table of the kinds of declaration: for each, the
// statement that declares it, the noun messages name it by, and what the
// passes that build the program do with it. The passes read their step from the row instead of
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
	// name resolves NAME (rest "") or NAME.rest written in an expression.
	name func(cp *exprChecker, n *lang.Name, d *decl, rest string) (Type, ast.Node)
}

// declKinds is the table, by declKind. It is filled by init because its
// rows' functions reach back to it. What an evaluation does with each
// kind is the evaluator's table, evalKinds (evaluate.go).
var declKinds [numDeclKinds]declKindDef

// kindOfKeyword is the declKind each declaring statement's keyword makes.
var kindOfKeyword = map[string]declKind{}

func init() {
	declKinds = [numDeclKinds]declKindDef{
		declLet: {keyword: "let", noun: "value",
			check: (*program).checkLet, name: (*exprChecker).letName},
		declParam: {keyword: "param", noun: "param",
			check: (*program).checkLet, name: (*exprChecker).letName},
		declPool: {keyword: "pool", noun: "pool",
			check: (*program).checkPool, name: (*exprChecker).poolName},
		declJob: {keyword: "job", noun: "job",
			check: (*program).checkJob, name: (*exprChecker).jobName},
		declRules: {keyword: "rules", noun: "ruleset", declare: declareClasses,
			check: (*program).checkRules, name: (*exprChecker).rulesName},
		declRequest: {keyword: "request", noun: "request",
			check: (*program).checkRequest, name: (*exprChecker).requestName},
		declGroup: {keyword: "group", noun: "group", declare: declarePlan,
			check: (*program).checkGroup, name: (*exprChecker).planningName},
		declCompare: {keyword: "compare", noun: "compare", declare: declarePlan,
			check: (*program).checkCompare, name: (*exprChecker).planningName},
		declSweep: {keyword: "sweep", noun: "sweep", declare: declarePlan,
			check: (*program).checkSweep, name: (*exprChecker).planningName},
		declSolve: {keyword: "solve", noun: "solve", declare: declarePlan,
			check: (*program).checkSolve, name: (*exprChecker).planningName},
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
