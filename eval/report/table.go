package report

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/lang/units"
)

// Table is one table of a file as gpl table writes it: a header per
// column and a row of cells per job, pool, owner, month, point or row.
// The headers are the JSON report's keys, their units in the key
// (useful_hours_h, cost_usd, rate_usd_per_device_hour); a nested object's
// keys are joined with a dot (factors.scheduling, waterfall.held_hours_h)
// and a typed value's unit is appended to its name (results.point_value_usd).
// A cell holds the same number the JSON report holds, written plainly
// (full precision, no exponent, no thousands separator).
//
// A table from File.Table holds its rows in Rows. One from File.OpenTable
// or JoinTables does not: Each reads them one at a time from where the
// table keeps them (a temporary file past 1 MiB), and Close removes
// that.
type Table struct {
	// Name is the table's name: jobs, pools, owners, months, groups, or
	// the name of a group, compare, sweep or solve.
	Name    string
	Headers []string
	Rows    [][]Cell

	// Without Rows: each yields the rows, n counts them, mixed says
	// which columns hold a cell that is neither a number nor empty, and
	// close releases them.
	each  func(fn func(row []Cell) bool) error
	n     int
	mixed []bool
	close func() error
	spool *rowSpool // where each reads from, for a test to see
}

// Each calls fn with each row of the table in order, every column's cell
// in the order of Headers, until fn returns false. The row is reused
// once fn returns: fn copies what it keeps. The error is one of reading
// back the rows the table kept in a temporary file.
func (t *Table) Each(fn func(row []Cell) bool) error {
	if t.each == nil {
		for _, r := range t.Rows {
			if !fn(r) {
				return nil
			}
		}
		return nil
	}
	return t.each(fn)
}

// Len is the number of rows.
func (t *Table) Len() int {
	if t.each == nil {
		return len(t.Rows)
	}
	return t.n
}

// Numeric reports whether column i is a column of numbers: the table has
// rows, and each cell of the column is a number or empty (the columns a
// Markdown table aligns right).
func (t *Table) Numeric(i int) bool {
	if t.Len() == 0 {
		return false
	}
	if t.each != nil {
		return i >= len(t.mixed) || !t.mixed[i]
	}
	for _, r := range t.Rows {
		if i < len(r) && r[i].Kind != CellNumber && r[i].Kind != CellEmpty {
			return false
		}
	}
	return true
}

// Close releases the rows of a table from File.OpenTable or JoinTables
// (its temporary file); it does nothing for a table that holds its Rows.
func (t *Table) Close() error {
	if t.close == nil {
		return nil
	}
	err := t.close()
	t.close = nil
	return err
}

// Cell is one cell of a table: empty (an unset or undefined value), a
// number, a string or a truth value, its text as a CSV cell holds it.
type Cell struct {
	Kind CellKind
	Text string
}

// CellKind is what a cell holds.
type CellKind uint8

// The kinds of Cell.
const (
	CellEmpty CellKind = iota
	CellNumber
	CellString
	CellBool
)

// TableNames lists the tables of f that gpl table can print: jobs, pools
// and owners; months when a pool has months; groups; then each group,
// compare, sweep and solve by its name.
func (f *File) TableNames() []string {
	names := []string{"jobs", "pools", "owners"}
	for _, p := range f.Pools {
		if len(p.Months) > 0 {
			names = append(names, "months")
			break
		}
	}
	if len(f.Groups) > 0 {
		names = append(names, "groups")
	}
	if f.Uncertainty != nil {
		names = append(names, "uncertainty")
	}
	for _, g := range f.Groups {
		names = append(names, g.Name)
	}
	for _, c := range f.Compares {
		names = append(names, c.Name)
	}
	for _, sw := range f.Sweeps {
		names = append(names, sw.Name)
	}
	for _, sv := range f.Solves {
		names = append(names, sv.Name)
	}
	return names
}

// Table builds the table named name, its rows in Rows; ok is false when
// f has no such table (TableNames lists those it has). A sweep's table
// costs a run of the engine per point. OpenTable is the same table
// without its rows held.
func (f *File) Table(name string) (t *Table, ok bool, err error) {
	o, ok, err := f.OpenTable(name)
	if !ok || err != nil {
		return nil, ok, err
	}
	defer o.Close()
	t = &Table{Name: o.Name, Headers: o.Headers, Rows: [][]Cell{}}
	err = o.Each(func(row []Cell) bool {
		t.Rows = append(t.Rows, append([]Cell(nil), row...))
		return true
	})
	if len(t.Rows) == 0 {
		t.Rows = nil
	}
	return t, true, err
}

// OpenTable builds the table named name, as Table does, but keeps its
// rows as bytes, in a temporary file past 1 MiB, for Each to
// read back once they are all made: a table of a sweep of a million
// points, or of a fleet of 100,000 jobs, is not held in memory. Every
// row is made before OpenTable returns, because the headers are those
// of all the rows (the columns of a point that cannot be evaluated, for
// one); a sweep that fails at a point fails here, before anything is
// written. The caller closes the table.
func (f *File) OpenTable(name string) (t *Table, ok bool, err error) {
	b := &tableBuilder{}
	switch name {
	case "jobs":
		var w rowWriter
		for j := range f.allJobs(false) {
			// A job's row is written from the model, as its JSON
			// flattened would be (TestJobRowIsItsJSON); a job whose
			// JSON is not plain (another currency, a number JSON cannot
			// hold, a result of another kind) is flattened from its JSON.
			row, ok := w.jobRow(&j)
			if !ok {
				row = b.row(j)
				row.rename("name", "job")
				row.insertAfter("ceilings.program", jobOwners(&j))
			}
			b.add(row)
		}
	case "pools":
		for _, p := range f.Pools {
			row := b.row(p)
			row.rename("name", "pool")
			b.add(row)
		}
	case "owners":
		for j := range f.allJobs(false) {
			for _, o := range j.Owners {
				row := append(tableRow{{"job", Cell{CellString, j.Name}}}, b.row(o)...)
				b.add(row)
			}
		}
	case "months":
		for _, p := range f.Pools {
			for _, m := range p.Months {
				b.add(append(tableRow{{"pool", Cell{CellString, p.Name}}}, b.row(m)...))
			}
		}
		if b.spool.rows == 0 {
			return nil, false, nil
		}
	case "groups":
		if len(f.Groups) == 0 {
			return nil, false, nil
		}
		for _, g := range f.Groups {
			b.add(b.row(g))
		}
	case "uncertainty":
		// An uncertain file's results, one a row: the statistics over
		// its samples, in the unit the row's unit cell names.
		if f.Uncertainty == nil {
			return nil, false, nil
		}
		for _, u := range f.Uncertainty.Results {
			b.add(b.row(u))
		}
	default:
		found, err := f.namedTable(b, name)
		if !found || err != nil {
			b.spool.close()
			return nil, found, err
		}
	}
	return b.table(name), true, nil
}

// namedTable fills b with the table of the group, compare, sweep or solve
// named name.
func (f *File) namedTable(b *tableBuilder, name string) (bool, error) {
	for _, g := range f.Groups {
		if g.Name == name {
			// A group's table is its rollup by owner, as the text
			// prints it under the group.
			for _, o := range g.Owners {
				b.add(b.row(o).inCurrency(g.Currency))
			}
			return true, nil
		}
	}
	for _, c := range f.Compares {
		if c.Name == name {
			for _, r := range c.Rows {
				b.add(b.row(r).inCurrency(c.Currency))
			}
			return true, nil
		}
	}
	for _, sw := range f.Sweeps {
		if sw.Name == name {
			// The columns of a point that cannot be evaluated (why, and
			// where) go last, whichever point comes first.
			defer b.last("error.")
			var row tableRow
			return true, sw.Each(func(p SweepPoint) bool {
				row = row[:0]
				for _, e := range sw.pointJSON(p) {
					row = e.appendCells(row)
				}
				b.add(row)
				return true
			})
		}
	}
	for _, sv := range f.Solves {
		if sv.Name == name {
			row := b.row(sv)
			// value and unit: one column, named by the input and its unit.
			if i := row.index("unit"); i >= 0 {
				row = append(row[:i], row[i+1:]...)
			}
			if sv.Unit != "" {
				row.rename("value", "value_"+sv.Unit)
			}
			b.add(row)
			return true, nil
		}
	}
	return false, nil
}

// jobOwners are the owner of each factor of j, as an inventory writes
// them: the jobs table's columns after the ceilings.
func jobOwners(j *Job) []kv {
	owners := make([]kv, 0, NumFactors)
	for fac := Factor(0); fac < NumFactors; fac++ {
		owners = append(owners, kv{ownerKeys[fac], Cell{CellString, j.View.Factors[fac].Owner}})
	}
	return owners
}

var ownerKeys = func() (keys [NumFactors]string) {
	for fac := Factor(0); fac < NumFactors; fac++ {
		keys[fac] = "owner." + fac.String()
	}
	return keys
}()

// kv is one cell under its header.
type kv struct {
	key  string
	cell Cell
}

// tableRow is a row's cells in the order of its JSON keys.
type tableRow []kv

func (r tableRow) index(key string) int {
	for i, c := range r {
		if c.key == key {
			return i
		}
	}
	return -1
}

// inCurrency is r with the keys of USD money named for the currency c
// (MoneyKey: cost_usd to cost_eur), as the JSON of a group or compare in
// that currency names them.
func (r tableRow) inCurrency(c *string) tableRow {
	for i, cell := range r {
		r[i].key = MoneyKey(cell.key, c)
	}
	return r
}

func (r tableRow) rename(from, to string) {
	if i := r.index(from); i >= 0 {
		r[i].key = to
	}
}

func (r *tableRow) insertAfter(key string, cells []kv) {
	i := r.index(key)
	if i < 0 {
		*r = append(*r, cells...)
		return
	}
	*r = append((*r)[:i+1], append(cells, (*r)[i+1:]...)...)
}

// tableBuilder gathers rows and the union of their headers, in the order
// they first appear. A row is kept as its cells by column, not by name,
// in a rowSpool, so that a table of 100,000 jobs holds little more than
// its cells' text, and past a few megabytes not even that.
type tableBuilder struct {
	spool   rowSpool
	headers []string
	col     map[string]int
	// mixed says which columns have a cell that is neither a number
	// nor empty.
	mixed []bool
	// order, once last has moved headers, is the column each header's
	// cells were added in.
	order []int
	// The keys of the row added last and their columns: the rows of a
	// table mostly have the same keys, looked up once.
	lastKeys []string
	lastCols []int
	cells    []Cell
}

// row is v's JSON, flattened.
func (b *tableBuilder) row(v any) tableRow {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return flatten("", data)
}

func (b *tableBuilder) add(r tableRow) {
	if b.col == nil {
		b.col = map[string]int{}
	}
	same := len(r) == len(b.lastKeys)
	for k := 0; same && k < len(r); k++ {
		same = r[k].key == b.lastKeys[k]
	}
	if !same {
		b.lastKeys, b.lastCols = b.lastKeys[:0], b.lastCols[:0]
		for _, c := range r {
			i, ok := b.col[c.key]
			if !ok {
				i = len(b.headers)
				b.col[c.key] = i
				b.headers = append(b.headers, c.key)
				b.mixed = append(b.mixed, false)
			}
			b.lastKeys = append(b.lastKeys, c.key)
			b.lastCols = append(b.lastCols, i)
		}
	}
	cells := b.cells[:0]
	for range b.headers {
		cells = append(cells, Cell{})
	}
	for k, c := range r {
		i := b.lastCols[k]
		cells[i] = c.cell
		if c.cell.Kind != CellNumber && c.cell.Kind != CellEmpty {
			b.mixed[i] = true
		}
	}
	b.cells = cells
	b.spool.add(cells)
}

// last moves the headers that start with prefix after the others. It is
// called once every row is added.
func (b *tableBuilder) last(prefix string) {
	var order []int
	for pass := range 2 {
		for i, h := range b.headers {
			if strings.HasPrefix(h, prefix) == (pass == 1) {
				order = append(order, i)
			}
		}
	}
	headers, mixed := make([]string, len(order)), make([]bool, len(order))
	for j, i := range order {
		headers[j], mixed[j] = b.headers[i], b.mixed[i]
	}
	b.headers, b.mixed, b.order = headers, mixed, order
}

// table is the table of the rows added: each row as long as the headers
// (a row added before a header first appeared has an empty cell under
// it), its cells in the order of the headers.
func (b *tableBuilder) table(name string) *Table {
	sp, order, width := &b.spool, b.order, len(b.headers)
	out := make([]Cell, width)
	each := func(fn func(row []Cell) bool) error {
		return sp.each(func(cells []Cell) bool {
			for j := range out {
				i := j
				if order != nil {
					i = order[j]
				}
				out[j] = Cell{}
				if i < len(cells) {
					out[j] = cells[i]
				}
			}
			return fn(out)
		})
	}
	return &Table{Name: name, Headers: b.headers, each: each, n: sp.rows, mixed: b.mixed, close: sp.close, spool: sp}
}

// JoinTables is one table of the tables of several files, named files:
// a first column, file, names each row's file, and the headers are every
// table's, in the order they first appear. Its rows are read from the
// tables as Each reaches them; Close closes the tables.
func JoinTables(files []string, tables []*Table) *Table {
	out := &Table{Name: tables[0].Name, Headers: []string{"file"}, mixed: []bool{true}}
	col := map[string]int{"file": 0}
	cols := make([][]int, len(tables)) // per table, the joined column of each of its own
	for k, t := range tables {
		for i, h := range t.Headers {
			j, ok := col[h]
			if !ok {
				j = len(out.Headers)
				col[h] = j
				out.Headers = append(out.Headers, h)
				out.mixed = append(out.mixed, false)
			}
			cols[k] = append(cols[k], j)
			if t.Len() > 0 && !t.Numeric(i) {
				out.mixed[j] = true
			}
		}
		out.n += t.Len()
	}
	row := make([]Cell, len(out.Headers))
	out.each = func(fn func(row []Cell) bool) error {
		for k, t := range tables {
			more := true
			err := t.Each(func(r []Cell) bool {
				clear(row)
				row[0] = Cell{Kind: CellString, Text: files[k]}
				for i, c := range r {
					row[cols[k][i]] = c
				}
				more = fn(row)
				return more
			})
			if err != nil || !more {
				return err
			}
		}
		return nil
	}
	out.close = func() error {
		var errs []error
		for _, t := range tables {
			errs = append(errs, t.Close())
		}
		return errors.Join(errs...)
	}
	return out
}

// flatten reads JSON data into cells: an object's keys joined to prefix
// with a dot; a typed value ({"type": T, UNIT: V}) as one cell under its
// name and unit; an array of strings or numbers as one cell, its items
// joined by ";"; an array of objects is left out (its rows are another
// table: owners, months). The data is what encoding/json wrote, read in
// one pass in the order written (encoding/json's maps would sort the
// keys); a table of 100,000 jobs reads 100,000 such documents.
func flatten(prefix string, data []byte) tableRow {
	sc := jsonScan{data: data}
	var out tableRow
	sc.value(&out, prefix, true)
	return out
}

// jsonScan reads a JSON document that encoding/json wrote.
type jsonScan struct {
	data []byte
	i    int
}

func (sc *jsonScan) space() {
	for sc.i < len(sc.data) && (sc.data[sc.i] == ' ' || sc.data[sc.i] == '\n' || sc.data[sc.i] == '\t' || sc.data[sc.i] == '\r') {
		sc.i++
	}
}

// peek is the next byte past spaces, 0 at the end.
func (sc *jsonScan) peek() byte {
	sc.space()
	if sc.i >= len(sc.data) {
		return 0
	}
	return sc.data[sc.i]
}

// value reads the next value into out under prefix (keep: false reads
// past it).
func (sc *jsonScan) value(out *tableRow, prefix string, keep bool) {
	switch sc.peek() {
	case '{':
		sc.i++
		var keys [3]string
		n := 0
		for sc.peek() != '}' && sc.peek() != 0 {
			if sc.peek() == ',' {
				sc.i++
				continue
			}
			k := sc.str()
			if sc.peek() == ':' {
				sc.i++
			}
			if n < len(keys) {
				keys[n] = k
			}
			n++
			if unit, ok := typedValue(keys[:min(n, len(keys))]); ok && n <= 3 {
				// A typed value: its number (or text) is under its
				// unit's key, the object's last.
				name := prefix
				if suffix := unitSuffix(unit); suffix != "" {
					name += "_" + suffix
				}
				c := sc.scalar()
				if keep {
					*out = append(*out, kv{name, c})
				}
				continue
			}
			if n == 1 && (k == "type" || k == "param") || n == 2 && keys[0] == "param" && k == "type" {
				sc.value(nil, "", false) // a typed value's type: its unit follows
				continue
			}
			if prefix != "" {
				k = prefix + "." + k
			}
			sc.value(out, k, keep)
		}
		sc.i++ // }
	case '[':
		sc.i++
		var texts []string
		scalars := true
		for sc.peek() != ']' && sc.peek() != 0 {
			switch c := sc.peek(); {
			case c == ',':
				sc.i++
			case c == '{' || c == '[':
				scalars = false // rows of another table
				sc.value(nil, "", false)
			default:
				texts = append(texts, sc.scalar().Text)
			}
		}
		sc.i++ // ]
		if keep && scalars {
			*out = append(*out, kv{prefix, Cell{CellString, strings.Join(texts, ";")}})
		}
	default:
		c := sc.scalar()
		if keep {
			*out = append(*out, kv{prefix, c})
		}
	}
}

// str reads a string.
func (sc *jsonScan) str() string {
	if sc.peek() != '"' {
		return ""
	}
	start := sc.i
	sc.i++
	escaped := false
	for sc.i < len(sc.data) && sc.data[sc.i] != '"' {
		if sc.data[sc.i] == '\\' {
			escaped = true
			sc.i++
		}
		sc.i++
	}
	sc.i++
	raw := sc.data[start:min(sc.i, len(sc.data))]
	if len(raw) < 2 || raw[len(raw)-1] != '"' {
		return "" // unterminated: not what encoding/json writes
	}
	if !escaped {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// scalar reads a string, number, truth value or null as a cell: null is
// empty, a number plain.
func (sc *jsonScan) scalar() Cell {
	switch c := sc.peek(); {
	case c == '"':
		return Cell{CellString, sc.str()}
	case c == 't' || c == 'f' || c == 'n':
		start := sc.i
		for sc.i < len(sc.data) && sc.data[sc.i] >= 'a' && sc.data[sc.i] <= 'z' {
			sc.i++
		}
		switch w := string(sc.data[start:sc.i]); w {
		case "true", "false":
			return Cell{CellBool, w}
		}
		return Cell{}
	case c == '-' || c >= '0' && c <= '9':
		start := sc.i
		for sc.i < len(sc.data) && strings.IndexByte("+-.eE0123456789", sc.data[sc.i]) >= 0 {
			sc.i++
		}
		return Cell{CellNumber, PlainNumber(string(sc.data[start:sc.i]))}
	case c == '{' || c == '[':
		sc.value(nil, "", false)
		return Cell{}
	}
	sc.i++ // not JSON: move on
	return Cell{}
}

// typedValue reports whether an object's keys are a Value's ("type" and
// its unit's key, a named value's "param" before them) and returns the
// unit's key.
func typedValue(keys []string) (string, bool) {
	switch {
	case len(keys) == 2 && keys[0] == "type":
		return keys[1], true
	case len(keys) == 3 && keys[0] == "param" && keys[1] == "type":
		return keys[2], true
	}
	return "", false
}

// unitSuffix is what a typed value's unit key adds to its column's name:
// nothing for a count, a string, a truth value or a class.
func unitSuffix(key string) string {
	switch key {
	case "count", "string", "bool", "class", "invalid":
		return ""
	}
	return key
}

// PlainNumber writes a JSON number without an exponent: 1e+21 as
// 1000000000000000000000, 1e-7 as 0.0000001, the same float64.
func PlainNumber(s string) string {
	if !strings.ContainsAny(s, "eE") {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return s
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// sweepCell is one entry of a sweep point's JSON row, in table order.
type sweepCell struct {
	key    string
	v      any
	column bool // a show column: under "columns" in the JSON row
}

// pointJSON is a point of the sweep as its JSON table row holds it, in
// the order of the table's columns: each input under its name with its
// unit's suffix (hours_h); at a point that cannot be evaluated, error;
// else with a show line its columns, each a typed value (nil where
// undefined) under its name as written, else mpg, useful_hours_h,
// best_lever and cost_per_useful_hour_usd when defined; then
// above_ceiling when some factor is. MarshalJSON writes these entries
// (as an object whose show columns are under "columns"); gpl table writes
// them as one row.
func (sw Sweep) pointJSON(p SweepPoint) []sweepCell {
	var out []sweepCell
	for i, v := range p.Inputs {
		n, suffix := jsonNumber(v.Base, v.Dim.d)
		out = append(out, sweepCell{key: sw.Inputs[i] + suffix, v: n})
	}
	switch {
	case p.Failure != nil:
		out = append(out, sweepCell{key: "error", v: p.Failure})
	case sw.Columns != nil:
		for _, c := range p.Columns {
			var v *Value
			if c.Figure.OK {
				jv := valueOf(c.Figure.Value)
				v = &jv
			}
			out = append(out, sweepCell{c.Name, v, true})
		}
	default:
		out = append(out, sweepCell{key: "mpg", v: units.Clean(p.MPG)}, sweepCell{key: "useful_hours_h", v: units.Clean(p.UsefulHours)},
			sweepCell{key: "best_lever", v: p.BestLever})
		if p.HasCostPerUsefulHour {
			out = append(out, sweepCell{key: "cost_per_useful_hour_" + strings.ToLower(sw.Money(0).Dim.Currency()), v: units.Clean(p.CostPerUsefulHour)})
		}
	}
	if len(p.AboveCeiling) > 0 {
		out = append(out, sweepCell{key: "above_ceiling", v: append([]string(nil), p.AboveCeiling...)})
	}
	return out
}

// appendCells appends the entry's cells to row: its JSON flattened (a
// typed value's one cell, an error's four), with a number, a text and a
// list of texts written directly, as flattening their JSON would write
// them (TestSweepCellsAreTheirJSON). An entry JSON cannot hold (a number
// that is not finite) has no cell.
func (e sweepCell) appendCells(row tableRow) tableRow {
	switch v := e.v.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return row
		}
		return append(row, kv{e.key, Cell{CellNumber, strconv.FormatFloat(v, 'f', -1, 64)}})
	case string:
		if utf8.ValidString(v) {
			return append(row, kv{e.key, Cell{CellString, v}})
		}
	case []string:
		if v != nil && slices.IndexFunc(v, func(s string) bool { return !utf8.ValidString(s) }) < 0 {
			return append(row, kv{e.key, Cell{CellString, strings.Join(v, ";")}})
		}
	}
	data, err := json.Marshal(e.v)
	if err != nil {
		return row
	}
	return append(row, flatten(e.key, data)...)
}

// String is the cell's text, as a CSV cell holds it.
func (c Cell) String() string { return c.Text }
