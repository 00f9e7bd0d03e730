package lang

import "reflect"

// Statement describes one kind of top-level statement. Statements is the
// one list of them: the parser's grammar and its resynchronisation after a
// syntax error, the printer's tests and the REPL read it, so that a
// statement added to the language is added here once.
type Statement struct {
	// Keyword is the word the statement starts with. A node's Keyword
	// method returns it.
	Keyword string
	// Doc is the statement's form, on one line.
	Doc string
	// Example is a statement of the kind, as gpl fmt writes it.
	Example string
	// Noun is what a declaring statement declares, as messages name it:
	// "value" for let, "ruleset" for rules; "" for a statement that
	// declares nothing.
	Noun string
	// Name returns the name a statement of the kind declares, which
	// follows the keyword; nil for a kind that declares none. It is
	// called only with a node of the kind.
	Name func(Stmt) *Ident
	// InBlock is true for a statement that can also be an item of a block
	// (a job's expect, a pool's or a job's owners), so that a line
	// starting with its keyword may belong to a block still open.
	InBlock bool
	// EndsOpenBlock is true when, after a syntax error, the keyword in
	// column 1 at the start of a line starts a new statement even inside
	// a block left open: a missing "}" then costs one statement, not the
	// rest of the file. It is true for every statement but expect.
	EndsOpenBlock bool

	node func() Stmt // a node of the kind, for the grammar
}

// Statements are the kinds of top-level statement, in the order the
// parser tries them: the most frequent first. let and param, the two
// spellings of *Let, are two rows.
//
// The keywords of group, compare, sweep and solve are not reserved (they
// are not in Keywords): they may name a declaration, and start a statement
// only where a statement can start.
var Statements = []Statement{
	{
		Keyword: "job", Doc: "job NAME on POOL { … }, or job NAME extends JOB [on POOL] { … }: a job, or a variant of another",
		Example: "job j on p {\n  hours = 1h\n}\n", Noun: "job",
		Name: func(s Stmt) *Ident { return s.(*Job).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Job{} },
	},
	{
		Keyword: "expect", Doc: "expect EXPR [≈ WANT [± TOL | within N%]]: an assertion",
		Example: "expect 1 + 1 == 2\n", InBlock: true,
		node: func() Stmt { return &Expect{} },
	},
	{
		Keyword: "let", Doc: "let NAME = EXPR: a named value",
		Example: "let a = 1\n", Noun: "value",
		Name: func(s Stmt) *Ident { return s.(*Let).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Let{} },
	},
	{
		Keyword: "param", Doc: "param NAME = EXPR: a let the caller may replace (gpl run --set NAME=VALUE)",
		Example: "param a = 1\n", Noun: "param",
		Name: func(s Stmt) *Ident { return s.(*Let).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Let{Param: true} },
	},
	{
		Keyword: "pool", Doc: "pool NAME { devices = … rate = … }: an accelerator pool",
		Example: "pool p {\n  devices = 8\n}\n", Noun: "pool",
		Name: func(s Stmt) *Ident { return s.(*Pool).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Pool{} },
	},
	{
		Keyword: "rules", Doc: "rules NAME { [LABEL:] when COND -> CLASS … else CLASS }: an ordered ruleset",
		Example: "rules r {\n  when priority == 0 -> a\n  else b\n}\n", Noun: "ruleset",
		Name: func(s Stmt) *Ident { return s.(*Rules).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Rules{} },
	},
	{
		Keyword: "request", Doc: "request NAME { FIELD = … }: a sample inference request",
		Example: "request q {\n  priority = 1\n}\n", Noun: "request",
		Name: func(s Stmt) *Ident { return s.(*Request).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Request{} },
	},
	{
		Keyword: "import", Doc: `import "PATH": another file's declarations ("std/NAME" for a bundled one)`,
		Example: "import \"std/goodput\"\n", EndsOpenBlock: true,
		node: func() Stmt { return &Import{} },
	},
	{
		Keyword: "owners", Doc: `owners { FACTOR = "TEAM" … }: the team that owns each goodput factor`,
		Example: "owners {\n  runtime = \"training infra\"\n}\n", InBlock: true, EndsOpenBlock: true,
		node: func() Stmt { return &Owners{} },
	},
	{
		Keyword: "sweep", Doc: "sweep NAME over JOB|file { vary … [show EXPR, …] }: a job, or the whole file, evaluated over a grid of inputs",
		Example: "sweep s over j {\n  vary hours in [1h, 2h]\n}\n", Noun: "sweep",
		Name: func(s Stmt) *Ident { return s.(*Sweep).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Sweep{} },
	},
	{
		Keyword: "solve", Doc: "solve NAME over JOB|file { find … such that … }: the input a target needs",
		Example: "solve v over j {\n  find devices in [1, 64] such that mpg >= 0.5\n}\n", Noun: "solve",
		Name: func(s Stmt) *Ident { return s.(*Solve).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Solve{} },
	},
	{
		Keyword: "group", Doc: "group NAME { JOB, … }: the summed results of jobs",
		Example: "group g { a, b }\n", Noun: "group",
		Name: func(s Stmt) *Ident { return s.(*Group).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Group{} },
	},
	{
		Keyword: "compare", Doc: "compare NAME [by min|max RESULT] { JOB, … }: jobs side by side",
		Example: "compare c by max mpg { a, b }\n", Noun: "compare",
		Name: func(s Stmt) *Ident { return s.(*Compare).Name }, EndsOpenBlock: true,
		node: func() Stmt { return &Compare{} },
	},
}

var statementByKeyword = func() map[string]*Statement {
	m := make(map[string]*Statement, len(Statements))
	for i := range Statements {
		m[Statements[i].Keyword] = &Statements[i]
	}
	return m
}()

// LookupStatement returns the row of Statements whose keyword is word, or
// nil when word starts no statement.
func LookupStatement(word string) *Statement { return statementByKeyword[word] }

// StatementOf returns the row of Statements that s is of (a *Let written
// param NAME = … is of the param row).
func StatementOf(s Stmt) *Statement { return statementByKeyword[s.Keyword()] }

// DeclaredName is the name a statement declares (its row's Name), or nil
// for a statement that declares none.
func DeclaredName(s Stmt) *Ident {
	if row := StatementOf(s); row != nil && row.Name != nil {
		return row.Name(s)
	}
	return nil
}

// statementNodes are the node types of the statements, for the grammar's
// union: one node of each type, in the order of Statements.
func statementNodes() []Stmt {
	var nodes []Stmt
	seen := map[reflect.Type]bool{}
	for _, st := range Statements {
		n := st.node()
		if t := reflect.TypeOf(n); !seen[t] {
			seen[t] = true
			nodes = append(nodes, n)
		}
	}
	return nodes
}

// statementKeywords start a top-level statement; the parser resynchronises
// on them after a syntax error.
var statementKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, st := range Statements {
		m[st.Keyword] = true
	}
	return m
}()

// declaringKeywords are the statement keywords followed by the name the
// statement declares.
var declaringKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, st := range Statements {
		if st.Name != nil {
			m[st.Keyword] = true
		}
	}
	return m
}()

// endsOpenBlock is the statement keywords that, after a syntax error,
// start a new statement in column 1 even inside a block left open.
var endsOpenBlock = func() map[string]bool {
	m := map[string]bool{}
	for _, st := range Statements {
		if st.EndsOpenBlock {
			m[st.Keyword] = true
		}
	}
	return m
}()
