package eval

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// This file is the builder of programs without text, for an embedder
// that holds its inventory elsewhere (a database): pools, jobs, groups,
// params, lets and rulesets made by Go calls. It is honest about what it
// is: it writes the program's text, one line per call, and loads it as
// LoadWith does, so the program is checked by the same passes with the
// same diagnostics; each diagnostic is then moved to the Go line of the
// call that wrote the line it is about (runtime.Caller), and the Go
// file's text is added to the sources, so an error renders with a caret
// under that call.

// Builder makes a program from Go calls; Load checks and evaluates it.
// Values are typed (Quantity, Count, BoolValue, or a float64 for a
// count); a field may also read a param or let by name (Ref). A Builder is not safe for concurrent use.
type Builder struct {
	name  string
	lines []string
	sites []callSite // by line of the text, from 0
	errs  []builderErr
	last  *Block // the pool or job being written
}

type callSite struct {
	file string
	line int
}

type builderErr struct {
	at  callSite
	msg string
}

// NewBuilder starts a program; name is the name its text is loaded under
// ("inventory.gpl"), which Scenario.Files and diagnostics of what has no
// call site show.
func NewBuilder(name string) *Builder { return &Builder{name: name} }

// site is the call site skip frames above the builder method.
func site(skip int) callSite {
	_, file, line, ok := runtime.Caller(skip + 1)
	if !ok {
		return callSite{}
	}
	return callSite{file, line}
}

func (b *Builder) add(at callSite, line string) {
	b.lines = append(b.lines, line)
	b.sites = append(b.sites, at)
}

func (b *Builder) fail(at callSite, format string, args ...any) {
	b.errs = append(b.errs, builderErr{at, fmt.Sprintf(format, args...)})
}

// ident checks a name given to the builder; a bad one is an error at the
// call.
func (b *Builder) ident(at callSite, what, name string) bool {
	if !lang.IsIdent(name) {
		b.fail(at, "%s name %q is not a name: letters, digits and _, not starting with a digit", what, name)
		return false
	}
	return true
}

// Ref is a reference to a param or let of the program by name, as what a
// field or let is set to.
type Ref string

// literal writes what a field is set to: a Value, a Ref, or a float64 or
// int (a count).
func literal(x any) (string, error) {
	switch x := x.(type) {
	case Value:
		return valueLiteral(x)
	case Ref:
		if !lang.IsIdent(string(x)) {
			return "", fmt.Errorf("Ref(%q) is not a name", string(x))
		}
		return string(x), nil
	case float64:
		return valueLiteral(Count(x))
	case int:
		return valueLiteral(Count(float64(x)))
	}
	return "", fmt.Errorf("%T is not a value: give an eval.Value (Quantity, Count, BoolValue), an eval.Ref, or a number", x)
}

// valueLiteral writes v as the language reads it: a number in a unit of
// its dimension (the base unit, or the one unit there is: USD/h for a
// price).
func valueLiteral(v Value) (string, error) {
	switch v.Type.Kind {
	case Bool:
		return strconv.FormatBool(v.Bool), nil
	case String:
		return strconv.Quote(v.Str), nil
	case Class:
		return v.Str, nil
	case Number:
	default:
		return "", fmt.Errorf("an invalid value")
	}
	if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
		return "", fmt.Errorf("%v is not a finite number", v.Num)
	}
	if v.Type.Dim == units.Count {
		return number(v.Num), nil
	}
	u, ok := unitFor(v.Type.Dim)
	if !ok {
		return "", fmt.Errorf("%s has no unit a literal can carry", v.Type.Phrase())
	}
	x := v.Num / u.Factor
	if u.Factor < 1 {
		x = v.Num * (1 / u.Factor)
	}
	return number(x) + " " + u.Symbol, nil
}

// number writes x as a numeral, exactly, without an exponent.
func number(x float64) string {
	s := strconv.FormatFloat(math.Abs(x), 'f', -1, 64)
	if x < 0 {
		return "(-" + s + ")"
	}
	return s
}

// unitFor is the unit a literal of dimension d is written in: the one of
// factor 1, else the first by symbol (a price: USD/h).
func unitFor(d units.Dim) (units.Unit, bool) {
	var cands []units.Unit
	for _, u := range units.Units() {
		if u.Dim == d && !strings.HasPrefix(u.Symbol, "$") {
			cands = append(cands, u)
		}
	}
	if len(cands) == 0 {
		return units.Unit{}, false
	}
	sort.Slice(cands, func(i, j int) bool {
		if (cands[i].Factor == 1) != (cands[j].Factor == 1) {
			return cands[i].Factor == 1
		}
		return cands[i].Symbol < cands[j].Symbol
	})
	return cands[0], true
}

// operand writes x, or records its error at the call.
func (b *Builder) operand(at callSite, x any) (string, bool) {
	s, err := literal(x)
	if err != nil {
		b.fail(at, "%v", err)
		return "", false
	}
	return s, true
}

// Param declares a param with its default.
func (b *Builder) Param(name string, v Value) {
	at := site(1)
	b.close()
	if lit, ok := b.operand(at, v); ok && b.ident(at, "param", name) {
		b.add(at, "param "+name+" = "+lit)
	}
}

// Let declares a let of a value (a Value, a number) or of another name
// (a Ref).
func (b *Builder) Let(name string, o any) {
	at := site(1)
	b.close()
	if lit, ok := b.operand(at, o); ok && b.ident(at, "let", name) {
		b.add(at, "let "+name+" = "+lit)
	}
}

// Block is a pool or a job being built: each Set, Factor or Ceiling is
// one line of it, written when the next declaration starts or Load runs.
type Block struct {
	b                         *Builder
	at                        callSite
	head                      string
	fields, factors, ceilings []blockLine
	open                      bool // its lines are being gathered
	ok                        bool
}

type blockLine struct {
	at   callSite
	text string
}

// Pool declares a pool; set its fields with Set (devices, rate, …).
func (b *Builder) Pool(name string) *Block {
	at := site(1)
	return b.block(at, b.ident(at, "pool", name), "pool "+name+" {")
}

// Job declares a job on a pool ("" for none, when it extends a job whose
// pool it inherits); set its fields with Set and its factors with Factor
// and Ceiling.
func (b *Builder) Job(name, pool string) *Block {
	at := site(1)
	ok := b.ident(at, "job", name) && (pool == "" || b.ident(at, "pool", pool))
	head := "job " + name
	if pool != "" {
		head += " on " + pool
	}
	return b.block(at, ok, head+" {")
}

// JobExtends declares a job that varies another (and, when pool is not
// "", runs on another pool).
func (b *Builder) JobExtends(name, parent, pool string) *Block {
	at := site(1)
	ok := b.ident(at, "job", name) && b.ident(at, "job", parent) && (pool == "" || b.ident(at, "pool", pool))
	head := "job " + name + " extends " + parent
	if pool != "" {
		head += " on " + pool
	}
	return b.block(at, ok, head+" {")
}

func (b *Builder) block(at callSite, ok bool, head string) *Block {
	b.close()
	blk := &Block{b: b, at: at, head: head, open: true, ok: ok}
	b.last = blk
	return blk
}

// line adds a line to one part of the block.
func (k *Block) line(at callSite, part *[]blockLine, text string) *Block {
	if !k.ok {
		return k
	}
	if !k.open {
		k.b.fail(at, "the block was closed by a later declaration; set its fields before declaring the next")
		return k
	}
	*part = append(*part, blockLine{at, text})
	return k
}

// write writes the block's lines: its head, its fields, its factors and
// ceilings blocks, its closing brace.
func (k *Block) write() {
	if !k.ok {
		return
	}
	b := k.b
	b.add(k.at, k.head)
	for _, l := range k.fields {
		b.add(l.at, "  "+l.text)
	}
	for _, part := range []struct {
		name  string
		lines []blockLine
	}{{"factors", k.factors}, {"ceilings", k.ceilings}} {
		if len(part.lines) == 0 {
			continue
		}
		b.add(part.lines[0].at, "  "+part.name+" {")
		for _, l := range part.lines {
			b.add(l.at, "    "+l.text)
		}
		b.add(part.lines[len(part.lines)-1].at, "  }")
	}
	b.add(k.at, "}")
}

// Set sets a field (devices, hours, rate, … as the language names them)
// to a Value, a number (a count) or a Ref.
func (k *Block) Set(field string, o any) *Block {
	at := site(1)
	if lit, ok := k.b.operand(at, o); ok && k.b.ident(at, "field", field) {
		k.line(at, &k.fields, field+" = "+lit)
	}
	return k
}

// Factor sets one goodput factor (scheduling, runtime, program).
func (k *Block) Factor(name string, o any) *Block {
	at := site(1)
	if lit, ok := k.b.operand(at, o); ok && k.b.ident(at, "factor", name) {
		k.line(at, &k.factors, name+" = "+lit)
	}
	return k
}

// Ceiling sets the ceiling of one factor.
func (k *Block) Ceiling(name string, o any) *Block {
	at := site(1)
	if lit, ok := k.b.operand(at, o); ok && k.b.ident(at, "factor", name) {
		k.line(at, &k.ceilings, name+" = "+lit)
	}
	return k
}

// close ends the block being written: a later declaration follows it.
func (b *Builder) close() {
	if b.last != nil {
		b.last.open = false
		b.last.write()
		b.last = nil
	}
}

// Group declares a group of jobs.
func (b *Builder) Group(name string, jobs ...string) {
	at := site(1)
	b.close()
	ok := b.ident(at, "group", name)
	for _, j := range jobs {
		ok = b.ident(at, "job", j) && ok
	}
	if ok {
		b.add(at, "group "+name+" { "+strings.Join(jobs, ", ")+" }")
	}
}

// Cond is a condition of a rule: When's comparisons, joined by And and Or.
type Cond struct {
	text string
	err  error
}

// When compares a request field (priority, sla_deadline, batch_size,
// input_size, flops) with a value: op is one of == != < <= > >=.
func When(field, op string, v Value) Cond {
	if !lang.IsIdent(field) {
		return Cond{err: fmt.Errorf("field %q is not a name", field)}
	}
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
	default:
		return Cond{err: fmt.Errorf("%q is not a comparison: use == != < <= > >=", op)}
	}
	lit, err := valueLiteral(v)
	return Cond{text: field + " " + op + " " + lit, err: err}
}

// And is c and d.
func (c Cond) And(d Cond) Cond { return c.join("and", d) }

// Or is c or d.
func (c Cond) Or(d Cond) Cond { return c.join("or", d) }

func (c Cond) join(op string, d Cond) Cond {
	if c.err != nil {
		return c
	}
	if d.err != nil {
		return d
	}
	return Cond{text: "(" + c.text + ") " + op + " (" + d.text + ")"}
}

// Rule is one rule of a ruleset: a label, a condition, the class it
// gives.
type Rule struct {
	Label string
	When  Cond
	Class string
}

// Ruleset declares a ruleset: its rules in order, and the class of a
// request no rule matches.
func (b *Builder) Ruleset(name string, rules []Rule, otherwise string) {
	at := site(1)
	b.close()
	if !b.ident(at, "ruleset", name) || !b.ident(at, "class", otherwise) {
		return
	}
	body := []string{"rules " + name + " {"}
	for _, r := range rules {
		if r.When.err != nil {
			b.fail(at, "rule %s: %v", r.Label, r.When.err)
			return
		}
		if !b.ident(at, "rule", r.Label) || !b.ident(at, "class", r.Class) {
			return
		}
		body = append(body, "  "+r.Label+": when "+r.When.text+" -> "+r.Class)
	}
	body = append(body, "  else "+otherwise, "}")
	for _, l := range body {
		b.add(at, l)
	}
}

// Source is the program's text as the builder wrote it (the block being
// built is written first).
func (b *Builder) Source() []byte {
	b.close()
	return []byte(strings.Join(b.lines, "\n") + "\n")
}

// Load checks and evaluates the program as LoadWith does. An error of
// the builder's own (a bad name, a value that has no literal) or of the
// program is an *Error whose diagnostics are at the Go calls that wrote
// the lines they are about, with the Go files' text in its Sources; so are
// the scenario's own diagnostics (warnings).
func (b *Builder) Load(opts Options) (*Scenario, error) {
	b.close()
	if len(b.errs) > 0 {
		e := &Error{Sources: lang.Sources{}}
		for _, be := range b.errs {
			d := &lang.Diagnostic{Severity: lang.Error, Summary: be.msg}
			b.place(d, be.at, e.Sources)
			e.Diagnostics = append(e.Diagnostics, d)
		}
		return nil, e
	}
	s, err := LoadWith(opts, b.name, b.Source())
	var srcs lang.Sources
	if s != nil && s.p != nil {
		srcs = s.p.Sources
	}
	moved := map[*lang.Diagnostic]bool{}
	move := func(d *lang.Diagnostic, into lang.Sources) {
		if moved[d] {
			return
		}
		moved[d] = true
		if d.Pos.Filename == b.name && d.Pos.Line >= 1 && d.Pos.Line <= len(b.sites) {
			b.place(d, b.sites[d.Pos.Line-1], into)
		}
		for i := range d.Related {
			r := &d.Related[i]
			if r.Pos.Filename == b.name && r.Pos.Line >= 1 && r.Pos.Line <= len(b.sites) {
				r.Pos, r.End = b.span(b.sites[r.Pos.Line-1], into)
			}
		}
	}
	if s != nil && s.p != nil {
		for _, d := range s.Diagnostics() {
			move(d, srcs)
		}
	}
	var le *Error
	if errors.As(err, &le) {
		if le.Sources == nil {
			le.Sources = lang.Sources{}
		}
		for _, d := range le.Diagnostics {
			move(d, le.Sources)
		}
		for name, text := range srcs {
			if _, ok := le.Sources[name]; !ok && name != b.name {
				le.Sources[name] = text
			}
		}
	}
	return s, err
}

// place moves d to the call site at, reading the Go file's text into
// srcs so that the diagnostic renders with it.
func (b *Builder) place(d *lang.Diagnostic, at callSite, srcs lang.Sources) {
	d.Pos, d.End = b.span(at, srcs)
}

// span is the call site's line as a range of the Go file's text (the
// line without its indentation), the file's text read into srcs once.
func (b *Builder) span(at callSite, srcs lang.Sources) (lang.Position, lang.Position) {
	pos := lang.Position{Filename: at.file, Line: at.line, Column: 1}
	text, ok := srcs[at.file]
	if !ok && at.file != "" {
		if t, err := os.ReadFile(at.file); err == nil {
			text, ok = t, true
			if srcs != nil {
				srcs[at.file] = t
			}
		}
	}
	if !ok {
		return pos, pos
	}
	off := 0
	for l := 1; l < at.line && off < len(text); l++ {
		i := strings.IndexByte(string(text[off:]), '\n')
		if i < 0 {
			off = len(text)
			break
		}
		off += i + 1
	}
	end := off
	for end < len(text) && text[end] != '\n' {
		end++
	}
	start := off
	for start < end && (text[start] == ' ' || text[start] == '\t') {
		start++
	}
	pos.Offset, pos.Column = start, 1+start-off
	return pos, lang.Position{Filename: at.file, Line: at.line, Offset: end, Column: 1 + end - off}
}
