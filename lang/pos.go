package lang

import (
	"sync"
	"sync/atomic"

	"github.com/alecthomas/participle/v2/lexer"
)

// Pos is a Position in 16 bytes instead of 40: the leaves of a syntax tree
// (names and number literals) keep one each, and a file of 100,000 jobs
// holds well over a million of them. It keeps the byte offset, line and
// column, and names its file by an index into a table of the file names
// this process has parsed (each name is kept once, for the life of the
// process). The zero Pos is the zero Position.
type Pos struct {
	file              uint32 // 0: no name; else index+1 in fileNames
	off, line, column uint32
}

// PosOf compacts p. An offset, line or column beyond 4 GiB does not occur:
// a source file is refused long before (Limits.MaxFileSize).
func PosOf(p Position) Pos {
	return Pos{file: fileIndex(p.Filename), off: uint32(p.Offset), line: uint32(p.Line), column: uint32(p.Column)}
}

// Position expands p.
func (p Pos) Position() Position {
	return Position{Filename: fileName(p.file), Offset: int(p.off), Line: int(p.line), Column: int(p.column)}
}

// fileNames is the table Pos names its file by: append-only, so that an
// index, once handed out, means the same name for good.
var fileNames struct {
	mu     sync.RWMutex
	index  map[string]uint32
	names  []string
	recent atomic.Pointer[fileEntry]
}

type fileEntry struct {
	name string
	idx  uint32
}

// fileIndex is name's index in the table, adding it when new. The name
// last asked for is answered without the lock: a parse asks for its own
// file's name at every leaf.
func fileIndex(name string) uint32 {
	if name == "" {
		return 0
	}
	if e := fileNames.recent.Load(); e != nil && e.name == name {
		return e.idx
	}
	fileNames.mu.Lock()
	defer fileNames.mu.Unlock()
	idx, ok := fileNames.index[name]
	if !ok {
		if fileNames.index == nil {
			fileNames.index = map[string]uint32{}
		}
		fileNames.names = append(fileNames.names, name)
		idx = uint32(len(fileNames.names))
		fileNames.index[name] = idx
	}
	fileNames.recent.Store(&fileEntry{name, idx})
	return idx
}

func fileName(idx uint32) string {
	if idx == 0 {
		return ""
	}
	if e := fileNames.recent.Load(); e != nil && e.idx == idx {
		return e.name // the file named last: no lock
	}
	fileNames.mu.RLock()
	defer fileNames.mu.RUnlock()
	return fileNames.names[idx-1]
}

// Equal reports whether p and q are the same place (go-cmp compares
// positions with it).
func (p Pos) Equal(q Pos) bool { return p == q }

// StartMark records where a node starts, read by the grammar just after
// the node's first token (its keyword, or its operator): the position of
// that token. A node keeps one, 16 bytes, where participle would fill a
// 40-byte Position; the node's Start gives it.
type StartMark struct{ at Pos }

// Parse reads nothing: it records the position of the token just read.
func (m *StartMark) Parse(lex *lexer.PeekingLexer) error {
	if cur := lex.RawCursor(); cur > 0 {
		m.at = PosOf(lex.Range(cur-1, cur)[0].Pos)
	}
	return nil
}

// Position is the node's start.
func (m StartMark) Position() Position { return m.at.Position() }

// Equal reports whether m and o mark the same place (go-cmp compares marks
// with it).
func (m StartMark) Equal(o StartMark) bool { return m == o }

// EndMark records where a node ends, read by the grammar after the node's
// last token: the position just past that token. The statement lexer
// hands the parser no blanks, so the token that follows may be lines
// away; a token a repair inserted (recover.go) occupies no text, so the
// end never runs past the token that follows it.
type EndMark struct{ at Pos }

// Parse reads nothing: it records the position just past the token just
// read (or, before any, of the next token), and at most the next token's.
func (m *EndMark) Parse(lex *lexer.PeekingLexer) error {
	next := lex.RawPeek().Pos
	if cur := lex.RawCursor(); cur > 0 {
		if end := tokenEnd(&lex.Range(cur-1, cur)[0]); end.Offset < next.Offset {
			next = end
		}
	}
	m.at = PosOf(next)
	return nil
}

// Position is the node's end.
func (m EndMark) Position() Position { return m.at.Position() }

// Equal reports whether m and o mark the same place.
func (m EndMark) Equal(o EndMark) bool { return m == o }

// MarkStart is a StartMark at p: for a node built by a reader other than
// the parser (a row of a CSV inventory), whose start is where its text is.
func MarkStart(p Position) StartMark { return StartMark{PosOf(p)} }

// MarkEnd is an EndMark at p, as MarkStart is a StartMark.
func MarkEnd(p Position) EndMark { return EndMark{PosOf(p)} }
