package lang

import "strings"

// The planning statements (language.md §13–16): groups, compares, sweeps
// and solves. Like the rest of the grammar, these structs are the syntax
// tree.

// Group sums the results of jobs: group NAME { a, b, … }.
type Group struct {
	StartAt StartMark `parser:"\"group\" @@"`
	Name    *Ident    `parser:"@@"`
	Jobs    []*Ident  `parser:"\"{\" ( @@ ( \",\" @@ )* )? \"}\""`
	EndAt   EndMark   `parser:"@@"`
}

// Compare sets jobs side by side: compare NAME [by min|max RESULT] { a, b, … }.
// Without by, the best job is the one with the lowest cost_per_useful_hour.
type Compare struct {
	StartAt StartMark `parser:"\"compare\" @@"`
	Name    *Ident    `parser:"@@"`
	Order   string    `parser:"( \"by\" @(\"min\" | \"max\")"`
	By      []*Ident  `parser:"  @@ ( \".\" @@ )* )?"`
	Jobs    []*Ident  `parser:"\"{\" ( @@ ( \",\" @@ )* )? \"}\""`
	EndAt   EndMark   `parser:"@@"`
}

// ByName is the result a compare ranks by, as written ("" when it has no
// by clause).
func (n *Compare) ByName() string { return joinIdents(n.By) }

// Sweep evaluates a job, or the whole file, over a grid of inputs:
// sweep NAME over JOB { vary … show … }, or sweep NAME over file { … }.
// Its vary and show lines may come in any order; each list keeps its
// own.
type Sweep struct {
	StartAt StartMark `parser:"\"sweep\" @@"`
	Name    *Ident    `parser:"@@"`
	Job     *Ident    `parser:"\"over\" @@ \"{\""` // the job, or the word file (OverFile)
	Varies  []*Vary   `parser:"( @@"`
	Shows   []*Show   `parser:"| @@ )* \"}\""`
	EndAt   EndMark   `parser:"@@"`
}

// OverFile reports whether the sweep is over the whole file: its over
// names the word file, which is never a job's name there.
func (n *Sweep) OverFile() bool { return n.Job != nil && n.Job.Name == OverFileWord }

// OverFileWord is the word after over that names the whole file rather
// than a job: sweep NAME over file { … }, solve NAME over file { … }.
const OverFileWord = "file"

// Show is a sweep's show line: the columns its table gives, each an
// expression read at every point: show runtime, cost, saving.program.
type Show struct {
	StartAt StartMark `parser:"\"show\" @@"`
	Columns []Expr    `parser:"@@ ( \",\" @@ )*"`
	EndAt   EndMark   `parser:"@@"`
}

// Vary is one axis of a sweep: vary INPUT from A to B step C, or
// vary INPUT in [v, …].
type Vary struct {
	StartAt StartMark `parser:"\"vary\" @@"`
	Input   []*Ident  `parser:"@@ ( \".\" @@ )*"`
	From    Expr      `parser:"( \"from\" @@"`
	To      Expr      `parser:"  \"to\" @@"`
	Step    Expr      `parser:"  \"step\" @@"`
	In      bool      `parser:"| @\"in\""`
	Values  []Expr    `parser:"  \"[\" ( @@ ( \",\" @@ )* )? \"]\" )"`
	EndAt   EndMark   `parser:"@@"`
}

// InputName is the varied input as written: program, S, ceiling.runtime,
// devices, a param's name.
func (n *Vary) InputName() string { return joinIdents(n.Input) }

// Solve finds the input a target needs: solve NAME over JOB { find … },
// or solve NAME over file { find PARAM … }.
type Solve struct {
	StartAt StartMark `parser:"\"solve\" @@"`
	Name    *Ident    `parser:"@@"`
	Job     *Ident    `parser:"\"over\" @@ \"{\""` // the job, or the word file (OverFile)
	Find    *Find     `parser:"@@ \"}\""`
	EndAt   EndMark   `parser:"@@"`
}

// Find is the question of a solve:
// find INPUT [in [LO, HI]] such that RESULT OP TARGET.
type Find struct {
	StartAt StartMark `parser:"\"find\" @@"`
	Input   []*Ident  `parser:"@@ ( \".\" @@ )*"`
	Lo      Expr      `parser:"( \"in\" \"[\" @@"`
	Hi      Expr      `parser:"  \",\" @@ \"]\" )?"`
	Cond    Expr      `parser:"\"such\" \"that\" @@"`
	EndAt   EndMark   `parser:"@@"`
}

// OverFile reports whether the solve is over the whole file.
func (n *Solve) OverFile() bool { return n.Job != nil && n.Job.Name == OverFileWord }

// InputName is the input searched, as written.
func (n *Find) InputName() string { return joinIdents(n.Input) }

// Query is a question put to a sweep or a compare, with the field of the
// point it gives when it gives one: program_sweep.max(mpg),
// fleet_size.argmax(useful_hours).devices, tuning.ratio(llama2_70b_tuned),
// program_sweep.at(program = 0.40).mpg.
type Query struct {
	Pos, EndPos Position
	Target      *Name // what is asked: the name before the method
	Method      *Ident
	Args        []*QueryArg
	Field       []*Ident // the point's field read after the call, if any
}

// FieldName is the field read from the query's point, "" when none is.
func (n *Query) FieldName() string { return joinIdents(n.Field) }

// QueryArg is one argument of a query: an expression, or INPUT = VALUE in
// at(…).
type QueryArg struct {
	Pos, EndPos Position
	Input       []*Ident // nil for a plain argument
	Value       Expr
}

// InputName is the input an INPUT = VALUE argument names, "" for a plain
// argument.
func (n *QueryArg) InputName() string { return joinIdents(n.Input) }

func joinIdents(ids []*Ident) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.Name
	}
	return strings.Join(s, ".")
}

// Keyword methods give the word each planning statement starts with.
func (*Group) Keyword() string   { return "group" }
func (*Compare) Keyword() string { return "compare" }
func (*Sweep) Keyword() string   { return "sweep" }
func (*Solve) Keyword() string   { return "solve" }

// Span methods give each planning node's source range.
func (n *Group) Start() Position               { return n.StartAt.Position() }
func (n *Group) End() Position                 { return n.EndAt.Position() }
func (n *Group) Span() (Position, Position)    { return n.Start(), n.End() }
func (n *Compare) Start() Position             { return n.StartAt.Position() }
func (n *Compare) End() Position               { return n.EndAt.Position() }
func (n *Compare) Span() (Position, Position)  { return n.Start(), n.End() }
func (n *Sweep) Start() Position               { return n.StartAt.Position() }
func (n *Sweep) End() Position                 { return n.EndAt.Position() }
func (n *Sweep) Span() (Position, Position)    { return n.Start(), n.End() }
func (n *Show) Start() Position                { return n.StartAt.Position() }
func (n *Show) End() Position                  { return n.EndAt.Position() }
func (n *Show) Span() (Position, Position)     { return n.Start(), n.End() }
func (n *Vary) Start() Position                { return n.StartAt.Position() }
func (n *Vary) End() Position                  { return n.EndAt.Position() }
func (n *Vary) Span() (Position, Position)     { return n.Start(), n.End() }
func (n *Solve) Start() Position               { return n.StartAt.Position() }
func (n *Solve) End() Position                 { return n.EndAt.Position() }
func (n *Solve) Span() (Position, Position)    { return n.Start(), n.End() }
func (n *Find) Start() Position                { return n.StartAt.Position() }
func (n *Find) End() Position                  { return n.EndAt.Position() }
func (n *Find) Span() (Position, Position)     { return n.Start(), n.End() }
func (n *Query) Span() (Position, Position)    { return n.Pos, n.EndPos }
func (n *QueryArg) Span() (Position, Position) { return n.Pos, n.EndPos }
