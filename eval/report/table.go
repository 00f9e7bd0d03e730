package report

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

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
type Table struct {
	// Name is the table's name: jobs, pools, owners, months, groups, or
	// the name of a group, compare, sweep or solve.
	Name    string
	Headers []string
	Rows    [][]Cell
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

// Table builds the table named name; ok is false when f has no such
// table (TableNames lists those it has). A sweep's table costs a run of
// the engine per point.
func (f *File) Table(name string) (t *Table, ok bool, err error) {
	b := &tableBuilder{}
	switch name {
	case "jobs":
		var scratch tableRow
		for j := range f.AllJobs() {
			// A job's row is written from the model, as its JSON
			// flattened would be (TestJobRowIsItsJSON); a job whose
			// JSON is not plain (another currency, a number JSON cannot
			// hold, a result of another kind) is flattened from its JSON.
			row, ok := jobRow(&j, scratch[:0])
			scratch = row
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
		for j := range f.AllJobs() {
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
		if len(b.rows) == 0 {
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
			return true, sw.Each(func(p SweepPoint) bool {
				var row tableRow
				for _, e := range sw.pointJSON(p) {
					data, err := json.Marshal(e.v)
					if err != nil {
						continue
					}
					row = append(row, flatten(e.key, data)...)
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
// so that a table of 100,000 jobs holds its cells and little else.
type tableBuilder struct {
	rows    [][]Cell
	headers []string
	col     map[string]int
	// The keys of the row added last and their columns: the rows of a
	// table mostly have the same keys, looked up once.
	lastKeys []string
	lastCols []int
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
			}
			b.lastKeys = append(b.lastKeys, c.key)
			b.lastCols = append(b.lastCols, i)
		}
	}
	cells := make([]Cell, len(b.headers))
	for k, c := range r {
		cells[b.lastCols[k]] = c.cell
	}
	b.rows = append(b.rows, cells)
}

// last moves the headers that start with prefix after the others.
func (b *tableBuilder) last(prefix string) {
	var order []int
	for pass := range 2 {
		for i, h := range b.headers {
			if strings.HasPrefix(h, prefix) == (pass == 1) {
				order = append(order, i)
			}
		}
	}
	headers := make([]string, len(order))
	for j, i := range order {
		headers[j] = b.headers[i]
	}
	for k, r := range b.rows {
		cells := make([]Cell, len(order))
		for j, i := range order {
			if i < len(r) {
				cells[j] = r[i]
			}
		}
		b.rows[k] = cells
	}
	b.headers = headers
	for j, h := range headers {
		b.col[h] = j
	}
}

func (b *tableBuilder) table(name string) *Table {
	t := &Table{Name: name, Headers: b.headers, Rows: b.rows}
	for i, r := range t.Rows {
		if len(r) < len(b.headers) {
			t.Rows[i] = append(r, make([]Cell, len(b.headers)-len(r))...)
		}
	}
	return t
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

// String is the cell's text, as a CSV cell holds it.
func (c Cell) String() string { return c.Text }
