package report

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A sweep entry's cells written directly are those its JSON flattened
// gives: numbers of every size, texts that JSON escapes, lists.
func TestSweepCellsAreTheirJSON(t *testing.T) {
	entries := []any{0.0, math.Copysign(0, -1), 1e-7, 2.5e-300, 1e21, 123.456, -7.0, 0.1 + 0.2, math.MaxFloat64,
		math.NaN(), math.Inf(1),
		"", "program", "<a & b>", "tab\there", "line\u2028sep", "quote \" back \\", "bad \xff utf-8",
		[]string{"runtime", "program"}, []string{}, []string(nil), []string{"a", "b\xfe"},
		&Value{Type: "money", Key: "usd", Val: ptr(2.5)}, (*Value)(nil), &PointFailure{Message: "no", File: "p.gpl", Line: 3, Column: 4}}
	for _, v := range entries {
		e := sweepCell{key: "k", v: v}
		var want tableRow
		if data, err := json.Marshal(v); err == nil {
			want = flatten("k", data)
		}
		if diff := cmp.Diff(cellsOf(want), cellsOf(e.appendCells(nil))); diff != "" {
			t.Errorf("%#v (-json +direct):\n%s", v, diff)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// spoolFile is the temporary file t keeps its rows in, nil for none.
func (t *Table) spoolFile() *os.File {
	if t.spool == nil {
		return nil
	}
	return t.spool.file
}

// spoolMemory is how many bytes of rows t keeps in memory.
func (t *Table) spoolMemory() int {
	if t.spool == nil {
		return 0
	}
	return t.spool.mem.Len()
}

// tableOf is every row of t, copied.
func tableOf(t *testing.T, tab *Table) [][]Cell {
	t.Helper()
	var rows [][]Cell
	if err := tab.Each(func(r []Cell) bool { rows = append(rows, append([]Cell(nil), r...)); return true }); err != nil {
		t.Fatal(err)
	}
	return rows
}

// A table past spillBytes keeps its rows in a temporary file, none in
// memory, and reads them back as they were made; the table of a sweep
// with points that cannot be evaluated, whose error columns go last,
// too.
func TestOpenTableSpills(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // where the spools' files are made
	failing := `param mtbf = 4h
pool p { devices = 128  rate = 2 USD/h }
job j on p {
  hours    = 720h
  factors  { S = 0.95  R = runtime_goodput(mtbf, 1min, 10min)  P = 0.40 }
  ceilings { R = 0.97 }
}
sweep s over j {
  vary mtbf in [4h, 5min, 8h, 2min, 9h]
  vary P from 0.1 to 0.9 step 0.1
}
`
	plans := []struct{ plan, table string }{{streamPlan, "big"}, {failing, "s"}, {streamPlan, "jobs"}}
	defer func(n int) { spillBytes = n }(spillBytes)
	for _, p := range plans {
		f := Outline(loadFile(t, writePlan(t, p.plan))).Judge()
		spillBytes = 1 << 30
		held, ok, err := f.OpenTable(p.table)
		if !ok || err != nil {
			t.Fatalf("%s: %v %v", p.table, ok, err)
		}
		spillBytes = 100
		spilled, _, err := f.OpenTable(p.table)
		if err != nil {
			t.Fatal(err)
		}
		type kept struct {
			Rows      int
			InFile    bool
			InMemory  int // bytes
			Headers   []string
			Numeric   []bool
			SameCells bool
		}
		of := func(tab *Table) kept {
			k := kept{Rows: tab.Len(), InFile: tab.spoolFile() != nil, InMemory: tab.spoolMemory(), Headers: tab.Headers}
			for i := range tab.Headers {
				k.Numeric = append(k.Numeric, tab.Numeric(i))
			}
			return k
		}
		got, want := of(spilled), of(held)
		want.InFile, want.InMemory = true, 0
		got.SameCells = cmp.Equal(tableOf(t, held), tableOf(t, spilled))
		want.SameCells = true
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", p.table, diff)
		}
		if p.table == "s" && got.Headers[len(got.Headers)-1] != "error.column" {
			t.Errorf("%s: headers %v, want the error's last", p.table, got.Headers)
		}
		for _, tab := range []*Table{held, spilled} {
			if err := tab.Close(); err != nil || tab.spoolFile() != nil {
				t.Errorf("%s: Close: %v, file %v", p.table, err, tab.spoolFile())
			}
		}
	}
}

// Joined tables: the file column first, every header in the order it
// first appears, a row's missing cells empty, and a column numeric when
// every table's cells in it are numbers or empty.
func TestJoinTables(t *testing.T) {
	num := func(s string) Cell { return Cell{CellNumber, s} }
	str := func(s string) Cell { return Cell{CellString, s} }
	a := &Table{Name: "pools", Headers: []string{"pool", "devices"}, Rows: [][]Cell{{str("p"), num("8")}}}
	b := &Table{Name: "pools", Headers: []string{"pool", "rate", "devices"}, Rows: [][]Cell{{str("q"), num("2.5"), str("many")}, {str("r"), {}, num("1")}}}
	empty := &Table{Name: "pools", Headers: []string{"pool", "note"}}
	j := JoinTables([]string{"a.gpl", "b.gpl", "c.gpl"}, []*Table{a, b, empty})
	type joined struct {
		Headers []string
		Rows    [][]Cell
		Len     int
		Numeric []bool
	}
	got := joined{Headers: j.Headers, Rows: tableOf(t, j), Len: j.Len()}
	for i := range j.Headers {
		got.Numeric = append(got.Numeric, j.Numeric(i))
	}
	want := joined{
		Headers: []string{"file", "pool", "devices", "rate", "note"},
		Rows: [][]Cell{
			{str("a.gpl"), str("p"), num("8"), {}, {}},
			{str("b.gpl"), str("q"), str("many"), num("2.5"), {}},
			{str("b.gpl"), str("r"), num("1"), {}, {}},
		},
		Len:     3,
		Numeric: []bool{false, false, false, true, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := j.Close(); err != nil {
		t.Error(err)
	}
}

// TestRowSpoolRoundTrip reads back rows the spool was given, in memory
// and from its file, each row's cells kept past the next row (they share
// one string a row, which the next row does not overwrite).
func TestRowSpoolRoundTrip(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // where the spool's file is made
	rows := [][]Cell{
		{{CellString, "a"}, {CellNumber, "1.5"}, {}, {CellBool, "true"}},
		{},
		{{CellString, ""}, {CellString, strings.Repeat("x", 300)}},
		{{CellNumber, "-0"}, {CellString, "é\n\"q\""}},
	}
	for _, spill := range []bool{false, true} {
		var s rowSpool
		for _, r := range rows {
			s.add(r)
		}
		if spill {
			s.spill()
		}
		var got [][]Cell
		if err := s.each(func(cells []Cell) bool {
			got = append(got, append([]Cell{}, cells...))
			return true
		}); err != nil {
			t.Fatal(err)
		}
		want := [][]Cell{rows[0], {}, rows[2], rows[3]}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("spilled %v: rows (-want +got):\n%s", spill, diff)
		}
		if err := s.close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRowSpoolDamaged reads a spool whose file says a cell is longer than
// any row added: an error, not an allocation of that size.
func TestRowSpoolDamaged(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var s rowSpool
	s.add([]Cell{{CellString, "abc"}})
	s.spill()
	if err := s.w.Flush(); err != nil {
		t.Fatal(err)
	}
	// A row of one cell, of kind 0 and length 2⁶² (a varint of 9 bytes).
	if _, err := s.file.WriteAt([]byte{1, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}, 0); err != nil {
		t.Fatal(err)
	}
	err := s.each(func([]Cell) bool { return true })
	if got, want := fmt.Sprint(err), "the table's rows, kept in a temporary file: a cell longer than any row added"; got != want {
		t.Errorf("each = %q, want %q", got, want)
	}
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
}
