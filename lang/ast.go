package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar of gpl is these structs: participle reads the struct tags, and
// the parsed values are the syntax tree. Every node gives its range with
// Span (and most with Start and End): its first character and just past its
// last. A file of 100,000 jobs holds millions of nodes, so a node keeps its
// range as small as it can: derived where it can be (a name ends where its
// text does), else as compact positions (Pos, StartMark, EndMark: 16 bytes
// where a Position is 40). The few rarer nodes that keep Positions are the
// one participle fills (a Rule's start: its first token is its label or
// when) or that are seldom written (strings, truth values, queries).

// File is one parsed .gpl file.
type File struct {
	Name  string
	Src   []byte
	Stmts []Stmt
	// Partial holds the statements that were read without one or more of
	// their block items, which did not parse (nil when none): what such a
	// statement lacks is already told, so a check that it is missing
	// something would tell it again, wrongly.
	Partial map[Stmt]bool
	// Lost names what statements that did not parse at all would have
	// declared (job j in "job j onn p { … }"), so that a use of the name
	// is not told as unknown: its syntax error is the cause.
	Lost map[string]bool
}

// Stmt is a top-level statement: *Import, *Let, *Pool, *Job, *Rules,
// *Request, *Expect, *Owners, or a planning statement (ast_planning.go):
// *Group, *Compare, *Sweep or *Solve. Statements (statements.go) lists
// them; Keyword is the word a statement starts with, which names its row
// there.
type Stmt interface {
	Span() (Position, Position)
	Keyword() string
}

// Ident is a name as written, with its position. It keeps no end: a name
// is one token, so its end is its start advanced past the name (End). Its
// position is compact (Pos): a file holds several names per line.
type Ident struct {
	At   Pos
	Name string
}

// Start is the position of the name's first character.
func (n *Ident) Start() Position { return n.At.Position() }

// End is the position just past the name.
func (n *Ident) End() Position { return endOfText(n.Start(), n.Name) }

// Span returns the node's source range.
func (n *Ident) Span() (Position, Position) {
	start := n.Start()
	return start, endOfText(start, n.Name)
}

// Parse reads a name: one Ident token. participle calls it wherever the
// grammar holds an *Ident, so that the position is kept compact.
func (n *Ident) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokIdent {
		return participle.NextMatch
	}
	lex.Next()
	n.At, n.Name = PosOf(t.Pos), t.Value
	return nil
}

// Import reads another file's declarations: "std/NAME" for a bundled
// library file, otherwise a path relative to the importing file.
type Import struct {
	StartAt StartMark `parser:"\"import\" @@"`
	Path    string    `parser:"@String"`
	EndAt   EndMark   `parser:"@@"`
}

// Let names a value: let NAME = EXPR. Written param NAME = EXPR, it is a
// param: a let whose value the caller may replace without editing the
// file (gpl run --set NAME=VALUE).
type Let struct {
	Param   bool      `parser:"( \"let\" | @\"param\" )"` // written param NAME = EXPR
	StartAt StartMark `parser:"@@"`
	Name    *Ident    `parser:"@@"`
	Value   Expr      `parser:"\"=\" @@"`
	EndAt   EndMark   `parser:"@@"`
}

// IsParam reports whether the let is a param.
func (n *Let) IsParam() bool { return n.Param }

// Keyword is the statement's keyword: "let" or "param".
func (n *Let) Keyword() string {
	if n.Param {
		return "param"
	}
	return "let"
}

// Field is one NAME = EXPR line of a block. It starts where its name does
// and ends where its value does (Span), so it keeps no position of its own.
type Field struct {
	Name  Ident `parser:"@@"` // kept in the field: a file holds a field per line
	Value Expr  `parser:"\"=\" @@"`
}

// Start is the position of the field's first character: its name's.
func (n *Field) Start() Position { return n.Name.Start() }

// Pool is an accelerator pool: pool NAME { devices = … rate = … }, which
// may name the owners of the factors of the jobs on it.
//
// A pool with a term or a window (from … to …) is a reservation, paid
// for whether its devices are used or not; its devices may follow a
// schedule (devices { DATE: N … }).
type Pool struct {
	StartAt   StartMark   `parser:"\"pool\" @@"`
	Name      *Ident      `parser:"@@ \"{\""`
	Owners    []*Owners   `parser:"( @@"`
	Schedules []*Schedule `parser:"| @@"`
	Windows   []*Window   `parser:"| @@"`
	Fields    []*Field    `parser:"| @@ )* \"}\""`
	EndAt     EndMark     `parser:"@@"`
}

// Window is when a job runs or a pool is reserved: from DATE to DATE, or
// from DATE for DURATION (For).
type Window struct {
	StartAt StartMark `parser:"\"from\" @@"`
	From    Expr      `parser:"@@"`
	For     bool      `parser:"( \"to\" | @\"for\" )"`
	Until   Expr      `parser:"@@"`
	EndAt   EndMark   `parser:"@@"`
}

// Schedule is a pool's devices over its window: devices { DATE: N … },
// N devices from each date until the next.
type Schedule struct {
	StartAt StartMark `parser:"\"devices\" @@ \"{\""`
	Steps   []*Step   `parser:"@@* \"}\""`
	EndAt   EndMark   `parser:"@@"`
}

// Step is one DATE: N of a schedule.
type Step struct {
	At      Expr `parser:"@@ \":\""`
	Devices Expr `parser:"@@"`
}

// Span gives the step's range: from its date to past its devices.
func (n *Step) Span() (Position, Position) {
	start, _ := n.At.Span()
	_, end := n.Devices.Span()
	return start, end
}

// Job is a job on a pool, or a variant of another job:
// job NAME on POOL { … }, job NAME extends JOB { … }, or
// job NAME extends JOB on POOL { … }.
type Job struct {
	StartAt   StartMark `parser:"\"job\" @@"`
	Name      *Ident    `parser:"@@"`
	On        *Ident    `parser:"( \"on\" @@"`
	Extends   *Ident    `parser:"| \"extends\" @@"`
	ExtendsOn *Ident    `parser:"  ( \"on\" @@ )? )"` // extends JOB on POOL: the pool it runs on instead
	Items     []JobItem `parser:"\"{\" @@* \"}\""`
	EndAt     EndMark   `parser:"@@"`
}

// JobItem is what a job block holds: *Field, *FactorBlock, *Expect,
// *Owners or *Window.
type JobItem interface{ Span() (Position, Position) }

// FactorBlock is factors { … } or ceilings { … } in a job.
type FactorBlock struct {
	Ceilings bool      `parser:"( \"factors\" | @\"ceilings\" )"` // false for factors { … }
	StartAt  StartMark `parser:"@@ \"{\""`
	Fields   []*Field  `parser:"@@* \"}\""`
	EndAt    EndMark   `parser:"@@"`
}

// Kind is the block's keyword: "factors" or "ceilings".
func (n *FactorBlock) Kind() string {
	if n.Ceilings {
		return "ceilings"
	}
	return "factors"
}

// Rules is an ordered ruleset: the first rule whose condition holds gives
// the class; else gives the class when none does.
type Rules struct {
	StartAt StartMark `parser:"\"rules\" @@"`
	Name    *Ident    `parser:"@@ \"{\""`
	Rules   []*Rule   `parser:"@@*"`
	Else    *Ident    `parser:"\"else\" @@ \"}\""`
	EndAt   EndMark   `parser:"@@"`
}

// Rule is [LABEL:] when CONDITION -> CLASS.
type Rule struct {
	Pos   Position // where the rule starts: its label, or when
	Label *Ident   `parser:"( @@ \":\" )?"`
	When  Expr     `parser:"\"when\" @@"`
	Class *Ident   `parser:"\"->\" @@"`
	EndAt EndMark  `parser:"@@"`
}

// Request is a sample inference request: request NAME { field = … }.
type Request struct {
	StartAt StartMark `parser:"\"request\" @@"`
	Name    *Ident    `parser:"@@ \"{\""`
	Fields  []*Field  `parser:"@@* \"}\""`
	EndAt   EndMark   `parser:"@@"`
}

// Expect is an assertion: expect EXPR, or expect EXPR ≈ WANT [± TOL | within N%].
type Expect struct {
	StartAt StartMark `parser:"\"expect\" @@"`
	X       Expr      `parser:"@@"`
	Approx  *Approx   `parser:"@@?"`
}

// End is the position just past the expectation: past its ≈ part, or
// past its expression.
func (n *Expect) End() Position {
	if n.Approx != nil {
		return n.Approx.End()
	}
	_, end := n.X.Span()
	return end
}

// Approx is the ≈ part of an expectation.
//
// The operators may be written ≈ or ~=, ± or +-; the printer writes the
// first of each, so the tree keeps neither.
type Approx struct {
	StartAt StartMark `parser:"( \"≈\" | \"~=\" ) @@"`
	Want    Expr      `parser:"@@"`
	Abs     Expr      `parser:"( ( \"±\" | \"+-\" ) @@"`
	Within  Expr      `parser:"| \"within\" @@"`
	// Percent is true when the tolerance is written as a number of percent
	// followed by the sign (within tol %); within 1% is a percent literal
	// and has none.
	Percent bool    `parser:"  @\"%\"? )?"`
	EndAt   EndMark `parser:"@@"`
}

// Start and End give the ≈ part's range: from its operator to past its
// tolerance.
func (n *Approx) Start() Position { return n.StartAt.Position() }
func (n *Approx) End() Position   { return n.EndAt.Position() }

// Keyword methods give the word each statement starts with (Let's is
// above): its row in Statements.
func (*Import) Keyword() string  { return "import" }
func (*Pool) Keyword() string    { return "pool" }
func (*Job) Keyword() string     { return "job" }
func (*Rules) Keyword() string   { return "rules" }
func (*Request) Keyword() string { return "request" }
func (*Expect) Keyword() string  { return "expect" }

// Span methods give each statement's source range.
func (n *Import) Start() Position            { return n.StartAt.Position() }
func (n *Import) End() Position              { return n.EndAt.Position() }
func (n *Import) Span() (Position, Position) { return n.Start(), n.End() }
func (n *Let) Start() Position               { return n.StartAt.Position() }
func (n *Let) End() Position                 { return n.EndAt.Position() }
func (n *Let) Span() (Position, Position)    { return n.Start(), n.End() }

// End is the position just past the field's value.
func (n *Field) End() Position { _, end := n.Span(); return end }

func (n *Field) Span() (Position, Position) {
	if n.Value == nil {
		return n.Name.Start(), n.Name.End()
	}
	_, end := n.Value.Span()
	return n.Name.Start(), end
}
func (n *Pool) Start() Position                   { return n.StartAt.Position() }
func (n *Pool) End() Position                     { return n.EndAt.Position() }
func (n *Pool) Span() (Position, Position)        { return n.Start(), n.End() }
func (n *Job) Start() Position                    { return n.StartAt.Position() }
func (n *Job) End() Position                      { return n.EndAt.Position() }
func (n *Job) Span() (Position, Position)         { return n.Start(), n.End() }
func (n *Window) Start() Position                 { return n.StartAt.Position() }
func (n *Window) End() Position                   { return n.EndAt.Position() }
func (n *Window) Span() (Position, Position)      { return n.Start(), n.End() }
func (n *Schedule) Start() Position               { return n.StartAt.Position() }
func (n *Schedule) End() Position                 { return n.EndAt.Position() }
func (n *Schedule) Span() (Position, Position)    { return n.Start(), n.End() }
func (n *FactorBlock) Start() Position            { return n.StartAt.Position() }
func (n *FactorBlock) End() Position              { return n.EndAt.Position() }
func (n *FactorBlock) Span() (Position, Position) { return n.Start(), n.End() }
func (n *Rules) Start() Position                  { return n.StartAt.Position() }
func (n *Rules) End() Position                    { return n.EndAt.Position() }
func (n *Rules) Span() (Position, Position)       { return n.Start(), n.End() }
func (n *Rule) Span() (Position, Position)        { return n.Pos, n.EndAt.Position() }
func (n *Request) Start() Position                { return n.StartAt.Position() }
func (n *Request) End() Position                  { return n.EndAt.Position() }
func (n *Request) Span() (Position, Position)     { return n.Start(), n.End() }
func (n *Expect) Start() Position                 { return n.StartAt.Position() }
func (n *Expect) Span() (Position, Position)      { return n.Start(), n.End() }
