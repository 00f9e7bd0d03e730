package lang

// Owners names the team that owns each goodput factor:
// owners { scheduling = "capacity" runtime = "training infra" }. It may
// stand at top level, in a pool or in a job; the innermost wins, factor
// by factor.
type Owners struct {
	StartAt StartMark `parser:"\"owners\" @@"`
	Fields  []*Field  `parser:"\"{\" @@* \"}\""`
	EndAt   EndMark   `parser:"@@"`
}

// Keyword is the word the statement starts with.
func (*Owners) Keyword() string { return "owners" }

// Span returns the node's source range.
func (n *Owners) Start() Position            { return n.StartAt.Position() }
func (n *Owners) End() Position              { return n.EndAt.Position() }
func (n *Owners) Span() (Position, Position) { return n.Start(), n.End() }
