package lang

// Owners names the team that owns each goodput factor:
// owners { scheduling = "capacity" runtime = "training infra" }. It may
// stand at top level, in a pool or in a job; the innermost wins, factor
// by factor.
type Owners struct {
	Pos, EndPos Position
	Fields      []*Field `parser:"\"owners\" \"{\" @@* \"}\""`
}

// Span returns the node's source range.
func (n *Owners) Span() (Position, Position) { return n.Pos, n.EndPos }
