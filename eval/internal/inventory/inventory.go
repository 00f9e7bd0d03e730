// Package inventory reads a CSV inventory — a scheduler's export, a
// spreadsheet saved as CSV, or what gpl table wrote — into the statements
// a .gpl file would hold: one job per row when the first header is job,
// one pool per row when it is pool. The file is RFC 4180 (encoding/csv:
// quoted cells, commas and line breaks inside quotes, CRLF, a leading byte
// order mark).
//
// The other headers are the fields as the language writes them: on,
// extends, devices, hours, rate, term (pools), from, to, for, a factor by
// its long or short name (scheduling or S), ceiling.F and owner.F. A cell
// is a constant as the language writes it (720h, 2.10 USD/h, 95%,
// 2027-01-04), read by the language's own expression parser, and placed
// where it stands in the CSV text, so that every diagnostic the checker
// gives it is at FILE:LINE:COLUMN under the cell, with the hint a .gpl
// file would get. An empty cell leaves its field unset.
//
// The headers gpl table writes for the jobs and pools tables are read
// too: pool for on, hours_h, term_h and rate_CUR_per_device_hour, whose
// cells are numbers in the header's unit, factors.F and ceilings.F; the
// columns of results (mpg, cost_usd, loss.F, …) are read past, so that a
// table of jobs imports back as the jobs it lists.
//
// The package builds syntax (lang nodes) and reports what is wrong with
// the file's shape: its headers, a row's count of cells, a name. What the
// values mean is the checker's, as for any file.
package inventory

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// IsInventory reports whether an import path names a CSV inventory.
func IsInventory(path string) bool { return strings.HasSuffix(path, ".csv") }

// column is what one header means.
type column struct {
	header string
	role   role
	field  string // the field's name as the language writes it (hours, S, scheduling, program)
	unit   string // for a header that names its unit (hours_h): the unit a bare number is in
	pos    lang.Position
}

type role uint8

const (
	roleSkip    role = iota // a result column of gpl table, or a header told unknown
	roleName                // job or pool
	roleOn                  // on (pool, in gpl table's jobs)
	roleExtends             // extends
	roleField               // devices, hours, rate, term
	roleFactor              // a factor
	roleCeiling             // ceiling.F
	roleOwner               // owner.F
	roleFrom                // from
	roleTo                  // to
	roleFor                 // for
)

// factorSpellings are the names a factor is written by, long and short.
var factorSpellings = []string{"scheduling", "runtime", "program", "S", "R", "P"}

// resultHeaders are the columns of results gpl table writes for jobs and
// pools; an import reads past them.
var resultHeaders = map[string]bool{
	"mpg": true, "badput": true, "offered_hours_h": true, "useful_hours_h": true,
	"best_lever": true, "ceiling_mpg": true, "headroom": true, "currency": true,
	"allocated_hours_h": true, "idle_hours_h": true, "utilisation": true,
}

// resultPrefixes are the prefixes of the result columns gpl table writes.
var resultPrefixes = []string{"loss.", "lever.", "gain.", "waterfall.", "results.", "reservation.",
	"cost_", "badput_cost_", "idle_cost_", "cost_per_useful_hour_"}

func isResult(h string) bool {
	if resultHeaders[h] {
		return true
	}
	for _, p := range resultPrefixes {
		if strings.HasPrefix(h, p) && !strings.HasPrefix(h, "rate_") {
			return true
		}
	}
	return false
}

// kindOf is what a table's rows declare.
type kindOf struct {
	noun   string   // job or pool
	fields []string // its fields set by name = value
	hint   string   // its headers, for a header that is none of them
}

var (
	jobKind = kindOf{"job", []string{"devices", "hours", "rate"},
		"a job's headers are on (or extends), devices, hours, rate, from, to (or for), S, R, P (or scheduling, runtime, program), ceiling.F and owner.F for a factor F"}
	poolKind = kindOf{"pool", []string{"devices", "hours", "rate", "term"},
		"a pool's headers are devices, hours, rate, term, from, to (or for) and owner.F for a factor F"}
)

// headers are what a table of kind k may head a column with, for the
// "did you mean".
func (k kindOf) headers() []string {
	hs := append([]string{}, k.fields...)
	hs = append(hs, "from", "to", "for")
	if k.noun == "job" {
		hs = append(hs, "on", "extends", "pool")
		hs = append(hs, factorSpellings...)
		for _, f := range factorSpellings {
			hs = append(hs, "ceiling."+f)
		}
	}
	for _, f := range factorSpellings {
		hs = append(hs, "owner."+f)
	}
	return hs
}

// readColumn is what header h means in a table of kind k; ok is false
// for a header that is none of its fields.
func (k kindOf) readColumn(h string) (c column, ok bool) {
	c.header = h
	has := func(name string) bool {
		for _, f := range k.fields {
			if f == name {
				return true
			}
		}
		return false
	}
	isFactor := func(f string) bool { _, ok := goodput.ParseFactor(f); return ok }
	switch {
	case has(h):
		c.role, c.field = roleField, h
	case h == "from":
		c.role = roleFrom
	case h == "to":
		c.role = roleTo
	case h == "for":
		c.role = roleFor
	case (h == "on" || h == "pool") && k.noun == "job":
		c.role = roleOn
	case h == "extends" && k.noun == "job":
		c.role = roleExtends
	case isFactor(h) && k.noun == "job":
		c.role, c.field = roleFactor, h
	case strings.HasPrefix(h, "factors.") && isFactor(h[len("factors."):]) && k.noun == "job":
		c.role, c.field = roleFactor, h[len("factors."):]
	case (strings.HasPrefix(h, "ceiling.") || strings.HasPrefix(h, "ceilings.")) && k.noun == "job":
		f := h[strings.IndexByte(h, '.')+1:]
		if !isFactor(f) {
			return c, false
		}
		c.role, c.field = roleCeiling, f
	case strings.HasPrefix(h, "owner.") || strings.HasPrefix(h, "owners."):
		f := h[strings.IndexByte(h, '.')+1:]
		if !isFactor(f) {
			return c, false
		}
		c.role, c.field = roleOwner, f
	case strings.HasSuffix(h, "_h") && has(strings.TrimSuffix(h, "_h")) && h != "rate_h" && h != "devices_h":
		c.role, c.field, c.unit = roleField, strings.TrimSuffix(h, "_h"), "h"
	case strings.HasPrefix(h, "rate_") && strings.HasSuffix(h, "_per_device_hour"):
		cur := strings.ToUpper(strings.TrimSuffix(strings.TrimPrefix(h, "rate_"), "_per_device_hour"))
		if x, ds := lang.ParseExpr("", "1 "+cur+"/h"); len(ds) > 0 || !isNumberWithUnit(x) {
			return c, false
		}
		c.role, c.field, c.unit = roleField, "rate", cur+"/h"
	case k.noun == "job" && isResult(h), k.noun == "pool" && isResult(h):
		c.role = roleSkip
	default:
		return c, false
	}
	return c, true
}

func isNumberWithUnit(x lang.Expr) bool {
	n, ok := x.(*lang.NumberLit)
	return ok && n.UnitOf() != nil
}

// reader is the state of one file's reading.
type reader struct {
	name  string
	src   []byte
	bom   int // bytes of a leading byte order mark, which the CSV reader is not given
	kind  kindOf
	cols  []column
	diags lang.Diagnostics
	file  *lang.File
	// partial is set when a header was refused: every row lacks a field
	// it may have meant, so no row is told it lacks one.
	partial bool

	// The line cursor: the start offset of line curLine of src (past the
	// byte order mark), the offset in src of its end (-1 until found) and
	// whether it is ASCII, its columns its bytes.
	curLine, curStart, curEnd int
	curASCII                  bool

	// The nodes of the rows, allocated together (lang.Slab), and the
	// scratch lists of a row.
	idents  lang.Slab[lang.Ident]
	fields  lang.Slab[lang.Field]
	strs    lang.Slab[lang.StringLit]
	nums    lang.Slab[lang.NumberLit]
	jobs    lang.Slab[lang.Job]
	pools   lang.Slab[lang.Pool]
	blocks  lang.Slab[lang.FactorBlock]
	owners  lang.Slab[lang.Owners]
	windows lang.Slab[lang.Window]
	lists   lang.Slab[*lang.Field]
	items   lang.Slab[lang.JobItem]
	scratch [4][]*lang.Field  // fields, factors, ceilings, owners
	quoted  map[string]string // an owner's cell, quoted
	numbers map[string]bool   // the cells read as one number token, whole
	itemBuf []lang.JobItem
}

// Parse reads the CSV inventory src of the file named name into a file of
// statements, and the diagnostics of its shape. The returned file holds
// every row that could be read; a row that could not is in its Lost, so
// that a use of its name is not told as unknown.
func Parse(name string, src []byte) (*lang.File, lang.Diagnostics) {
	r := &reader{name: name, src: src, curLine: 1, curEnd: -1}
	r.file = &lang.File{Name: name, Src: src}
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		r.bom = 3
	}
	cr := csv.NewReader(bytes.NewReader(src[r.bom:]))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			r.errorAt(r.at(1, 1), r.at(1, 1), "the inventory is empty: its first line is the header, job,on,… or pool,…")
		} else {
			r.csvError(err)
		}
		return r.file, r.diags
	}
	if !r.readHeader(cr, head) {
		return r.file, r.diags
	}
	// A row a line, or fewer (a quoted cell may hold a line break): the
	// statements' list made once, not grown by doubling.
	r.file.Stmts = make([]lang.Stmt, 0, bytes.Count(src, []byte{'\n'}))
	lastLine := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			line := r.csvError(err)
			if line <= lastLine { // no progress: the reader is stuck
				break
			}
			lastLine = line
			continue
		}
		line, _ := cr.FieldPos(0)
		lastLine = line
		r.readRow(cr, rec)
	}
	return r.file, r.diags
}

// csvError records an error of the CSV reader; it returns its line.
func (r *reader) csvError(err error) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		pos := r.at(pe.Line, max(pe.Column, 1))
		d := r.errorAt(pos, pos, "the CSV does not parse: "+pe.Err.Error())
		if errors.Is(pe.Err, csv.ErrBareQuote) || errors.Is(pe.Err, csv.ErrQuote) {
			d.Notes = []string{`hint: a cell with a quote in it is quoted whole, its quotes doubled: "say ""hi"""`}
		}
		return pe.Line
	}
	r.errorAt(lang.Position{Filename: r.name}, lang.Position{Filename: r.name}, "the CSV does not parse: "+err.Error())
	return 1 << 30
}

// readHeader reads the header line; false when no row can be read.
func (r *reader) readHeader(cr *csv.Reader, head []string) bool {
	first := strings.TrimSpace(head[0])
	pos0 := r.cellPos(cr, 0)
	switch first {
	case "job":
		r.kind = jobKind
	case "pool":
		r.kind = poolKind
	default:
		d := r.errorAt(pos0, endOf(pos0, head[0]), fmt.Sprintf("the first header of an inventory is job or pool, not %q", first))
		d.Label = "job or pool"
		d.Notes = []string{"hint: a row is one job (job,on,devices,hours,…) or one pool (pool,devices,rate,…)"}
		return false
	}
	cands := r.kind.headers()
	seen := map[string]lang.Position{}
	hasBase := r.kind.noun == "pool"
	for i, h := range head {
		h = strings.TrimSpace(h)
		pos := r.cellPos(cr, i)
		end := endOf(pos, head[i])
		c := column{header: h, pos: pos}
		if i == 0 {
			c.role = roleName
		} else if cc, ok := r.kind.readColumn(h); ok {
			cc.pos = pos
			c = cc
		} else {
			msg := fmt.Sprintf("unknown header %q in an inventory of %ss", h, r.kind.noun)
			if h == "" {
				msg = "a header is empty; every column is named"
			} else if sug := suggest.Closest(h, cands); sug != "" {
				msg += "; did you mean " + sug + "?"
			}
			d := r.errorAt(pos, end, msg)
			d.Notes = []string{"hint: " + r.kind.hint}
			r.partial = true
		}
		if c.role != roleSkip && c.role != roleName {
			key := c.header
			if c.field != "" {
				key = fmt.Sprint(c.role, ".", canonical(c.field))
			}
			if prev, ok := seen[key]; ok {
				d := r.errorAt(pos, end, fmt.Sprintf("column %q says again what an earlier one does", h))
				d.Related = []lang.Related{{Pos: prev, End: prev, Label: "first here"}}
				c.role = roleSkip
				r.partial = true
			}
			seen[key] = pos
		}
		if c.role == roleOn || c.role == roleExtends {
			hasBase = true
		}
		r.cols = append(r.cols, c)
	}
	if !hasBase {
		d := r.errorAt(pos0, endOf(pos0, head[0]), "an inventory of jobs needs an on column (the pool each job runs on) or an extends column")
		d.Label = "no on column"
		return false
	}
	return true
}

// canonical is a factor's long name, or the field as it is.
func canonical(field string) string {
	if f, ok := goodput.ParseFactor(field); ok {
		return f.String()
	}
	return field
}

// readRow reads one row into a statement.
func (r *reader) readRow(cr *csv.Reader, rec []string) {
	name := strings.TrimSpace(rec[0])
	namePos := r.cellPos(cr, 0)
	if len(rec) != len(r.cols) {
		var pos, end lang.Position
		msg := fmt.Sprintf("the row has %d cells; the header has %d", len(rec), len(r.cols))
		var note string
		if len(rec) > len(r.cols) {
			pos = r.cellPos(cr, len(r.cols))
			end = endOf(pos, rec[len(r.cols)])
			note = "hint: a cell with a comma in it is quoted whole: \"a, b\""
		} else {
			last := len(rec) - 1
			pos = endOf(r.cellPos(cr, last), rec[last])
			end = pos
			note = "hint: write an empty cell (two commas, ,,) for each field left unset"
		}
		d := r.errorAt(pos, end, msg)
		d.Notes = []string{note}
		if name != "" {
			r.lose(name)
		}
		return
	}
	if name == "" {
		r.errorAt(namePos, namePos, fmt.Sprintf("the %s has no name: its %s cell is empty", r.kind.noun, r.kind.noun))
		return
	}
	id, ok := r.ident(namePos, rec[0], "name")
	if !ok {
		r.lose(name)
		return
	}
	for i := range r.scratch {
		r.scratch[i] = r.scratch[i][:0]
	}
	fields, factors, ceils, owners := r.scratch[0], r.scratch[1], r.scratch[2], r.scratch[3]
	var (
		on, extends *lang.Ident
		from, until lang.Expr
		forLen      bool
		fromPos     lang.Position
		bad         bool
		untilAt     lang.Position
		untilText   string
		haveUntil   bool
	)
	lastPos, lastCell := namePos, rec[0]
	for i := 1; i < len(rec); i++ {
		c := &r.cols[i]
		cell := rec[i]
		if c.role == roleSkip || strings.TrimSpace(cell) == "" {
			continue
		}
		pos := r.cellPos(cr, i)
		lastPos, lastCell = pos, cell
		switch c.role {
		case roleOn, roleExtends:
			x, ok := r.ident(pos, cell, c.header)
			if !ok {
				bad = true
				continue
			}
			if c.role == roleOn {
				on = x
			} else {
				extends = x
			}
		case roleOwner:
			v := strings.TrimSpace(cell)
			lead := len(cell) - len(strings.TrimLeft(cell, " \t"))
			p := advance(pos, cell[:lead])
			owners = append(owners, r.fields.Put(lang.Field{
				Name:  lang.Ident{At: lang.PosOf(p), Name: c.field},
				Value: r.strs.Put(lang.StringLit{Pos: p, EndPos: endOf(p, v), Raw: r.quote(v), Value: v}),
			}))
		default:
			x, ok := r.constant(pos, cell, c)
			if !ok {
				bad = true
				continue
			}
			xs, _ := x.Span()
			f := r.fields.Put(lang.Field{Name: lang.Ident{At: lang.PosOf(xs), Name: c.field}, Value: x})
			switch c.role {
			case roleField:
				fields = append(fields, f)
			case roleFactor:
				factors = append(factors, f)
			case roleCeiling:
				ceils = append(ceils, f)
			case roleFrom:
				from, fromPos = x, pos
			case roleTo, roleFor:
				if haveUntil {
					d := r.errorAt(pos, endOf(pos, cell), "a row gives to and for; write one")
					d.Related = []lang.Related{{Pos: untilAt, End: endOf(untilAt, untilText), Label: "the other"}}
					bad = true
					continue
				}
				until, forLen, haveUntil, untilAt, untilText = x, c.role == roleFor, true, pos, cell
			}
		}
	}
	switch {
	case from != nil && until == nil:
		r.errorAt(fromPos, endOf(fromPos, "x"), fmt.Sprintf("%s %s has a from date and no to (or for) cell", r.kind.noun, name))
		bad = true
	case from == nil && until != nil:
		r.errorAt(untilAt, endOf(untilAt, untilText), fmt.Sprintf("%s %s has a to (or for) cell and no from date", r.kind.noun, name))
		bad = true
	}
	if r.kind.noun == "job" && on == nil && extends == nil && !bad {
		r.errorAt(id.Start(), id.End(), fmt.Sprintf("job %s names no pool: its on cell is empty (or write the job it extends)", name))
		bad = true
	}
	r.scratch = [4][]*lang.Field{fields, factors, ceils, owners} // keep what the appends grew
	if bad {
		r.lose(name)
		return
	}
	end := endOf(lastPos, lastCell)
	start, stop := lang.MarkStart(namePos), lang.MarkEnd(end)
	var window *lang.Window
	if from != nil {
		window = r.windows.Put(lang.Window{StartAt: lang.MarkStart(fromPos), From: from, For: forLen, Until: until, EndAt: stop})
	}
	var ownersBlock *lang.Owners
	if len(owners) > 0 {
		s, _ := owners[0].Span()
		ownersBlock = r.owners.Put(lang.Owners{StartAt: lang.MarkStart(s), Fields: r.lists.Copy(owners), EndAt: stop})
	}
	var st lang.Stmt
	if r.kind.noun == "pool" {
		p := r.pools.Put(lang.Pool{StartAt: start, Name: id, Fields: r.lists.Copy(fields), EndAt: stop})
		if window != nil {
			p.Windows = []*lang.Window{window}
		}
		if ownersBlock != nil {
			p.Owners = []*lang.Owners{ownersBlock}
		}
		st = p
	} else {
		j := r.jobs.Put(lang.Job{StartAt: start, Name: id, EndAt: stop})
		if extends != nil {
			j.Extends, j.ExtendsOn = extends, on
		} else {
			j.On = on
		}
		items := r.itemBuf[:0]
		if ownersBlock != nil {
			items = append(items, ownersBlock)
		}
		for _, f := range fields {
			items = append(items, f)
		}
		if window != nil {
			items = append(items, window)
		}
		for i, fs := range [][]*lang.Field{factors, ceils} {
			if len(fs) == 0 {
				continue
			}
			s, _ := fs[0].Span()
			items = append(items, r.blocks.Put(lang.FactorBlock{Ceilings: i == 1, StartAt: lang.MarkStart(s), Fields: r.lists.Copy(fs), EndAt: stop}))
		}
		r.itemBuf = items
		j.Items = r.items.Copy(items)
		st = j
	}
	if r.partial {
		if r.file.Partial == nil {
			r.file.Partial = map[lang.Stmt]bool{}
		}
		r.file.Partial[st] = true
	}
	r.file.Stmts = append(r.file.Stmts, st)
}

// quote is v as a string literal writes it; the few owners of a large
// inventory are quoted once each.
func (r *reader) quote(v string) string {
	if q, ok := r.quoted[v]; ok {
		return q
	}
	q := strconv.Quote(v)
	if r.quoted == nil {
		r.quoted = map[string]string{}
	}
	if len(r.quoted) < 1024 {
		r.quoted[v] = q
	}
	return q
}

// lose records a name a row would have declared.
func (r *reader) lose(name string) {
	if r.file.Lost == nil {
		r.file.Lost = map[string]bool{}
	}
	r.file.Lost[name] = true
}

// ident reads a cell that holds a name: a job's, a pool's.
func (r *reader) ident(pos lang.Position, cell, what string) (*lang.Ident, bool) {
	lead := len(cell) - len(strings.TrimLeft(cell, " \t"))
	name := strings.TrimSpace(cell)
	pos = advance(pos, cell[:lead])
	ok := name != "" && !(name[0] >= '0' && name[0] <= '9')
	for i := 0; i < len(name) && ok; i++ {
		c := name[i]
		ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
	}
	if !ok {
		d := r.errorAt(pos, endOf(pos, name), fmt.Sprintf("%q is not a name: a %s is letters, digits and _, not starting with a digit", name, what))
		d.Label = "not a name"
		return nil, false
	}
	if lang.IsKeyword(name) {
		r.errorAt(pos, endOf(pos, name), name+" is a keyword and cannot be declared")
		return nil, false
	}
	return r.idents.Put(lang.Ident{At: lang.PosOf(pos), Name: name}), true
}

// constant reads a cell that holds a constant, by the language's
// expression parser, its nodes and diagnostics placed in the CSV text.
func (r *reader) constant(pos lang.Position, cell string, c *column) (lang.Expr, bool) {
	x, ds := r.parseConstant(pos, cell)
	if len(ds) > 0 {
		for _, d := range ds {
			if d.Pos.Line == 0 {
				d.Pos, d.End = pos, endOf(pos, cell)
			}
			r.diags = append(r.diags, d)
		}
		return nil, false
	}
	xs, xe := x.Span()
	switch n := x.(type) {
	case *lang.NumberLit:
		if c.unit != "" {
			if n.UnitOf() != nil {
				d := r.errorAt(xs, xe, fmt.Sprintf("the header %s gives the unit: write the number alone", c.header))
				d.Label = "a number in " + strings.TrimSpace(c.unit)
				d.Notes = []string{fmt.Sprintf("hint: write %s, or head the column %s to write units in the cells", n.Digits(), c.field)}
				return nil, false
			}
			n.Text += " " + c.unit
		}
		return n, true
	case *lang.DateLit, *lang.StringLit, *lang.BoolLit:
		return x, true
	case *lang.Unary:
		if lit, ok := n.X.(*lang.NumberLit); ok && n.Op == "-" {
			if c.unit != "" && lit.UnitOf() == nil {
				lit.Text += " " + c.unit
			}
			return n, true
		}
	}
	d := r.errorAt(xs, xe, "a cell holds a constant as the language writes it, not an expression")
	d.Label = "not a constant"
	d.Notes = []string{"hint: write a number with its unit (720h, 2.10 USD/h, 95%) or a date (2027-01-04)"}
	return nil, false
}

// parseConstant is lang.ParseConstantIn of cell at pos. A cell read
// before as one number token, the whole cell, is that token again, at
// pos: the columns of an inventory repeat their values (24h, 95%, 0.50),
// and what the parser makes of a text does not depend on where it is.
func (r *reader) parseConstant(pos lang.Position, cell string) (lang.Expr, lang.Diagnostics) {
	if r.numbers[cell] {
		return r.nums.Put(lang.NumberLit{At: lang.PosOf(pos), Text: cell}), nil
	}
	x, ds := lang.ParseConstantIn(cell, pos, &r.nums)
	if n, ok := x.(*lang.NumberLit); ok && len(ds) == 0 && n.Text == cell && n.At == lang.PosOf(pos) {
		if r.numbers == nil {
			r.numbers = map[string]bool{}
		}
		if len(r.numbers) < 4096 {
			r.numbers[cell] = true
		}
	}
	return x, ds
}

// errorAt records an error.
func (r *reader) errorAt(pos, end lang.Position, msg string) *lang.Diagnostic {
	d := &lang.Diagnostic{Severity: lang.Error, Summary: msg, Pos: pos, End: end}
	r.diags = append(r.diags, d)
	return d
}

// cellPos is where cell i of the record last read starts: its first
// character, past its opening quote when it is quoted.
func (r *reader) cellPos(cr *csv.Reader, i int) lang.Position {
	line, col := cr.FieldPos(i)
	p := r.at(line, col)
	if p.Offset < len(r.src) && r.src[p.Offset] == '"' {
		p.Offset++
		p.Column++
	}
	return p
}

// at is the position of byte column col (1-based) of line (1-based) of
// the text the CSV reader read, as diagnostics place it: a byte offset in
// src and a column counted in characters. Rows are read in order, so the
// cursor only moves forward; a line before it is found from the start.
func (r *reader) at(line, col int) lang.Position {
	if line < r.curLine {
		r.curLine, r.curStart, r.curEnd = 1, 0, -1
	}
	for r.curLine < line {
		i := bytes.IndexByte(r.src[r.bom+r.curStart:], '\n')
		if i < 0 {
			break
		}
		r.curStart += i + 1
		r.curLine++
		r.curEnd = -1
	}
	start := r.bom + r.curStart
	if r.curEnd < 0 {
		// A column past the end of its line (the CSV reader's place for
		// an unterminated quote) is the line's end.
		line := r.src[start:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		if i := bytes.IndexByte(line, '\r'); i >= 0 {
			line = line[:i]
		}
		r.curEnd = start + len(line)
		r.curASCII = isASCII(line)
	}
	off := min(start+col-1, r.curEnd)
	column := 1 + off - start
	if !r.curASCII {
		column = 1 + utf8.RuneCount(r.src[start:off])
	}
	return lang.Position{Filename: r.name, Offset: off, Line: r.curLine, Column: column}
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// endOf is the position just past text starting at pos, on its line.
func endOf(pos lang.Position, text string) lang.Position {
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text = text[:i]
	}
	return advance(pos, text)
}

func advance(pos lang.Position, text string) lang.Position {
	pos.Offset += len(text)
	pos.Column += utf8.RuneCountInString(text)
	return pos
}

// Headers lists the headers an inventory of jobs (noun "job") or pools
// ("pool") reads as fields, sorted: the documentation's table.
func Headers(noun string) []string {
	k := jobKind
	if noun == "pool" {
		k = poolKind
	}
	hs := k.headers()
	sort.Strings(hs)
	return hs
}
