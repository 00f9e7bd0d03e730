package check

import (
	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
)

// This file is the table of the kinds of declaration: for each, the
// statement that declares it, the noun messages name it by, and what the
// passes that build the program do with it. The passes read their step from the row instead of
// switching on the kind, so a new kind of declaration is a row here and
// the functions it names.

// declKindDef is one kind of declaration.
type declKindDef struct {
	// Keyword is the statement that declares it (lang.Statements).
	Keyword string
	// Noun is what messages call it: "value", "pool", "ruleset", … (the
	// statement's lang.Statement.Noun).
	Noun string
	// declare, when set, records what the statement holds besides its
	// name, as it is declared (a ruleset's classes, a sweep's plan).
	declare func(p *Program, d *Decl, st lang.Stmt)
	// Check checks and compiles the declaration (the check pass); it
	// reports whether it has no errors.
	check func(p *Program, d *Decl) bool
	// Name resolves NAME (rest "") or NAME.rest written in an expression.
	name func(cp *exprChecker, n *lang.Name, d *Decl, rest string) (value.Type, ast.Node)
	// WhatIf marks a question asked of the file (a sweep, a solve) rather
	// than a part of its model: a point of a what-if over the whole file
	// evaluates every declaration of the file but these (each only when
	// read), and no declaration of the model may read a what-if over
	// the file, whose every point evaluates it again.
	WhatIf bool
}

// DeclKinds is the table, by declKind. It is filled by init because its
// rows' functions reach back to it. What an evaluation does with each
// kind is the evaluator's table, evalKinds (evaluate.go).
var DeclKinds [NumDeclKinds]declKindDef

// kindOfKeyword is the declKind each declaring statement's keyword makes.
var kindOfKeyword = map[string]declKind{}

func init() {
	DeclKinds = [NumDeclKinds]declKindDef{
		DeclLet: {Keyword: "let", Noun: "value",
			check: (*Program).checkLet, name: (*exprChecker).letName},
		DeclParam: {Keyword: "param", Noun: "param",
			check: (*Program).checkLet, name: (*exprChecker).letName},
		DeclPool: {Keyword: "pool", Noun: "pool",
			check: (*Program).checkPool, name: (*exprChecker).poolName},
		DeclJob: {Keyword: "job", Noun: "job",
			check: (*Program).checkJob, name: (*exprChecker).jobName},
		DeclRules: {Keyword: "rules", Noun: "ruleset", declare: declareClasses,
			check: (*Program).checkRules, name: (*exprChecker).rulesName},
		DeclRequest: {Keyword: "request", Noun: "request",
			check: (*Program).checkRequest, name: (*exprChecker).requestName},
		DeclGroup: {Keyword: "group", Noun: "group", declare: declarePlan,
			check: (*Program).checkGroup, name: (*exprChecker).planningName},
		DeclCompare: {Keyword: "compare", Noun: "compare", declare: declarePlan,
			check: (*Program).checkCompare, name: (*exprChecker).planningName},
		DeclSweep: {Keyword: "sweep", Noun: "sweep", declare: declarePlan,
			check: (*Program).checkSweep, name: (*exprChecker).planningName, WhatIf: true},
		DeclSolve: {Keyword: "solve", Noun: "solve", declare: declarePlan,
			check: (*Program).checkSolve, name: (*exprChecker).planningName, WhatIf: true},
	}
	for k, row := range DeclKinds {
		kindOfKeyword[row.Keyword] = declKind(k)
	}
}

// declareClasses records the classes a ruleset names, which an expression
// may then write bare (classify(r, q) == throughput).
func declareClasses(p *Program, _ *Decl, st lang.Stmt) {
	rs := st.(*lang.Rules)
	for _, r := range rs.Rules {
		p.Classes[r.Class.Name] = true
	}
	p.Classes[rs.Else.Name] = true
}
