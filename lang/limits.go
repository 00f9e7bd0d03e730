package lang

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/alecthomas/participle/v2"
)

// Limits bound what the parser accepts, so that hostile or generated input
// gets an error at its position instead of exhausting the stack or memory.
// A zero field takes its default (DefaultLimits); a caller may raise any of
// them.
type Limits struct {
	// MaxFileSize is the largest source file, in bytes.
	MaxFileSize int
	// MaxExprDepth is how deeply one expression may nest. Each
	// parenthesis, unary - or not, ?: branch and call's argument list
	// opens a level.
	MaxExprDepth int
	// MaxExprTerms is how many operands and operators (every literal,
	// name, call, unary, binary and ?: operator; parentheses do not count)
	// one expression may have.
	//
	// eval compiles an expression with expr, which refuses programs of more
	// than 10,000 nodes (expr's conf.DefaultMaxNodes) and reports that in
	// its own words. A gpl term becomes at most two of expr's nodes on
	// average (measured with expr v1.17.8 through eval: 1+1+… reaches
	// expr's limit at 5,000 operands, 9,999 terms; 1/1/…, where each
	// division is a call with an index argument, at 2,500 operands, 4,999
	// terms), so the default of 4,000 terms is always caught here first.
	// Raising it past 4,999 lets expr's limit show through.
	MaxExprTerms int
	// MaxDeclarations is how many statements that declare a name (let,
	// param, pool, job, rules, request, group, compare, sweep, solve) one
	// file may hold. They are counted by a scan of the file's tokens
	// before any statement is parsed, so that a file over the limit costs
	// a scan, not the parse of a million statements (eval applies the
	// same limit to a whole program, imports included).
	MaxDeclarations int
}

// Default limits: no real file comes near them.
const (
	// DefaultMaxFileSize is the default largest source file: 64 MiB.
	DefaultMaxFileSize = 64 << 20
	// DefaultMaxExprDepth is the default deepest nesting of an expression.
	DefaultMaxExprDepth = 200
	// DefaultMaxExprTerms is the default largest number of operands and
	// operators in one expression.
	DefaultMaxExprTerms = 4000
	// DefaultMaxDeclarations is the default most declarations in one
	// file, and eval's in one program.
	DefaultMaxDeclarations = 1_000_000
)

// DefaultLimits are the limits Parse and ParseExpr apply.
var DefaultLimits = Limits{
	MaxFileSize:     DefaultMaxFileSize,
	MaxExprDepth:    DefaultMaxExprDepth,
	MaxExprTerms:    DefaultMaxExprTerms,
	MaxDeclarations: DefaultMaxDeclarations,
}

// WithDefaults fills the zero fields of l with their defaults
// (DefaultMaxFileSize, DefaultMaxExprDepth, DefaultMaxExprTerms,
// DefaultMaxDeclarations).
func (l Limits) WithDefaults() Limits {
	if l.MaxDeclarations <= 0 {
		l.MaxDeclarations = DefaultMaxDeclarations
	}
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = DefaultMaxFileSize
	}
	if l.MaxExprDepth <= 0 {
		l.MaxExprDepth = DefaultMaxExprDepth
	}
	if l.MaxExprTerms <= 0 {
		l.MaxExprTerms = DefaultMaxExprTerms
	}
	return l
}

// parsers are the participle parsers of one set of expression limits: the
// expression parser participle calls is built into the grammar, so each
// set of limits has its own. Each is built on first use: a file needs only
// the statement parser, and building a grammar is most of the cost of
// reading a small file (gpl classify with a ruleset file, gpl check).
type parsers struct {
	stmt func() *participle.Parser[stmtHolder]
	expr func() *participle.Parser[exprHolder]
}

var (
	parsersMu    sync.Mutex
	parsersBuilt = map[Limits]*parsers{}
)

// parsersFor returns the parsers of l, each built once per process, when
// first called for.
func parsersFor(l Limits) *parsers {
	key := Limits{MaxExprDepth: l.MaxExprDepth, MaxExprTerms: l.MaxExprTerms}
	parsersMu.Lock()
	defer parsersMu.Unlock()
	if p, ok := parsersBuilt[key]; ok {
		return p
	}
	opts := grammarOptions(key)
	p := &parsers{
		stmt: sync.OnceValue(func() *participle.Parser[stmtHolder] { return participle.MustBuild[stmtHolder](opts...) }),
		expr: sync.OnceValue(func() *participle.Parser[exprHolder] { return participle.MustBuild[exprHolder](opts...) }),
	}
	parsersBuilt[key] = p
	return p
}

// hintError is an error in the input whose diagnostic carries a hint:
// input beyond one of the Limits (Summary names the limit, Hint says how to
// stay within it), or a malformed or out-of-range number.
type hintError struct {
	Pos, EndPos Position
	Summary     string
	Hint        string
	limit       bool // one of the Limits: the statement is not read further (overLimit)
}

func (e *hintError) Error() string { return e.Pos.String() + ": " + e.Summary }

func (e *hintError) diagnostic() *Diagnostic {
	return &Diagnostic{Severity: Error, Summary: e.Summary, Pos: e.Pos, End: e.EndPos, Notes: []string{"hint: " + e.Hint}}
}

// fileTooLarge reports a source larger than max bytes, at the first byte
// past the limit.
func fileTooLarge(name string, src []byte, max int) *Diagnostic {
	pos := positionAt(name, src, max)
	end := pos
	end.Offset++
	end.Column++
	return (&hintError{
		Pos: pos, EndPos: end,
		Summary: fmt.Sprintf("source file larger than %s (the limit on a source file's size)", byteSize(max)),
		Hint:    "split it into files that import one another",
	}).diagnostic()
}

// byteSize writes n bytes in the largest binary unit that divides it.
func byteSize(n int) string {
	for _, u := range []struct {
		sym  string
		size int
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n%u.size == 0 {
			return strconv.Itoa(n/u.size) + " " + u.sym
		}
	}
	return strconv.Itoa(n) + " bytes"
}

// minDeclarationBytes is the fewest bytes a statement that declares a name
// takes, its separator from the next included: "let a\n" (broken, but
// counted). A file of fewer than MaxDeclarations times as many bytes
// cannot be over the limit, and is not scanned for it.
const minDeclarationBytes = 5

// tooManyDeclarations reports, at the name of the first declaration past
// max, a file that declares more than max names, or returns nil. It
// scans the tokens once, dividing the statements as eachStatement does
// (a statement keyword at brace depth 0 after a token that can end a
// statement starts the next), and parses nothing.
func tooManyDeclarations(name, src string, max int) *Diagnostic {
	if len(src)/minDeclarationBytes <= max {
		return nil
	}
	sc := newTokenScanner(name, src)
	depth, ends, first, started := 0, false, false, false
	count := 0
	for {
		t, ok := sc.next()
		if !ok {
			return nil
		}
		if isBlank(t.Type) {
			continue
		}
		starts := !started || t.Type == tokIdent && statementKeywords[t.Value] && depth == 0 && ends
		started = true
		if starts && declaringKeywords[t.Value] {
			if count++; count > max {
				at := t // the caret goes under the name it declares, when there is one
				for n, more := sc.next(); more; n, more = sc.next() {
					if !isBlank(n.Type) {
						if n.Type == tokIdent {
							at = n
						}
						break
					}
				}
				return (&hintError{
					Pos: at.Pos, EndPos: tokenEnd(&at),
					Summary: fmt.Sprintf("more than %s declarations (the limit on one program)", strconv.FormatInt(int64(max), 10)),
					Hint:    "split the plan into files loaded on their own: no program holds more",
				}).diagnostic()
			}
		}
		first = starts
		if t.Type == tokOp {
			switch t.Value {
			case "{":
				depth++
			case "}":
				depth--
			}
		}
		// As stmtLexer.note: a declaring keyword wants its name next, even
		// one spelt like a statement keyword.
		ends = endsStatement(&t) && !(first && declaringKeywords[t.Value])
	}
}
