package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/eval"
)

// wholeJSON is the document as json.Encoder writes it in one piece, the
// way WriteJSON wrote it before it streamed: the bytes WriteJSON must
// still write.
func wholeJSON(t *testing.T, d *Document) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func loadFile(t *testing.T, path string) *eval.Scenario {
	t.Helper()
	s, err := eval.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// streamPlan is a job and a sweep of 40 × 100 points over it, some above
// the job's ceiling.
const streamPlan = `pool p {
  devices = 1000
  rate = 2.50 USD/h
}
job train on p {
  devices = 64
  hours = 720h
  factors { S = 0.95  R = 0.90  P = 0.33 }
  ceilings { P = 0.45 }
}
sweep big over train {
  vary devices from 1 to 40 step 1
  vary P from 0.01 to 1.00 step 0.01
}
`

func writePlan(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "plan.gpl")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The streamed document is, byte for byte, the one json.Encoder writes
// whole, for files with groups, compares, sweeps (over a job, over the
// file, with show columns, with points that cannot be evaluated), solves,
// rulesets, uncertainty, another currency, a file that did not load, and
// several files in one document; for a document of no file and one of
// nil files too.
func TestWriteJSONIsTheEncodersDocument(t *testing.T) {
	paths := []string{
		"../../scenarios/llama2_70b_shared_pool_128.gpl",
		"../../scenarios/fleet_quarter.gpl",
		"../../scenarios/fleet_inventory.gpl",
		"../../scenarios/llama3_405b_pretraining.gpl",
		"../../testdata/lang/planning_sweep.gpl",
		"../../testdata/lang/planning_whatif.gpl",
		"../../testdata/lang/language_md_15_sweeps.gpl",
		"../../testdata/bad/sweep_point_fails.gpl",
		writePlan(t, streamPlan),
	}
	more, _ := filepath.Glob("../../testdata/lang/*.gpl")
	paths = append(paths, more...)
	var all []*File
	for _, p := range paths {
		var f *File
		if s, err := eval.LoadFile(p); err != nil {
			f = Failed(p, err)
		} else {
			f = Build(s)
		}
		all = append(all, f)
		// Sweep.MarshalJSON, which the encoder calls, writes what
		// main's did, a row as a map's encoding.
		for _, sw := range f.Sweeps {
			got, err := sw.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(mapSweepJSON(t, sw), compact.String()); diff != "" {
				t.Errorf("%s: sweep %s (-maps +MarshalJSON):\n%s", p, sw.Name, diff)
			}
		}
		d := NewDocument([]*File{f}, 0)
		var got bytes.Buffer
		if err := d.WriteJSON(&got); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if diff := cmp.Diff(wholeJSON(t, d), got.String()); diff != "" {
			t.Errorf("%s (-encoder +streamed):\n%s", p, diff)
		}
	}
	// Outline's jobs are built as they are written: the same document.
	lazy := []*File{Outline(loadFile(t, paths[0])).Judge(), Failed("missing.gpl", errors.New("no such file"))}
	for _, d := range []*Document{NewDocument(all, 4), NewDocument(lazy, 0), NewDocument([]*File{}, 0), {}} {
		want := wholeJSON(t, &Document{Files: withJobs(d.Files), Summary: d.Summary})
		var got bytes.Buffer
		if err := d.WriteJSON(&got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got.String()); diff != "" {
			t.Errorf("a document of %d files (-encoder +streamed):\n%s", len(d.Files), diff)
		}
	}
}

func withJobs(fs []*File) []*File {
	if fs == nil {
		return nil
	}
	out := make([]*File, len(fs))
	for i, f := range fs {
		out[i] = f.WithJobs()
	}
	return out
}

// The file's members, written by hand, are its JSON fields in order: a
// field added to File or Planning is a member to add.
func TestFileMembersAreItsFields(t *testing.T) {
	var want []string
	var fields func(t reflect.Type)
	fields = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			switch {
			case f.Anonymous && tag == "":
				fields(f.Type)
			case tag != "" && tag != "-":
				want = append(want, strings.Split(tag, ",")[0])
			}
		}
	}
	fields(reflect.TypeFor[File]())
	var got []string
	for _, m := range newJSONWriter(nil).fileMembers(&File{}, func(any) func(string) { return nil }) {
		got = append(got, m.key)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("File's JSON fields (-fields +members):\n%s", diff)
	}
}

// countingWriter records, at each write it is given, how many points of
// the sweep had been made.
type countingWriter struct {
	made   *int
	writes []int // points made at each write
	bytes  int   // written in all
	large  int   // writes of more than 64 KiB
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, *w.made)
	w.bytes += len(p)
	if len(p) > 64<<10 {
		w.large++
	}
	return len(p), nil
}

// A sweep's rows are written as its points are made, not gathered first:
// the first bytes reach the writer when few of the 4,000 points are made,
// and each write is at most the buffer's 64 KiB.
func TestWriteJSONStreamsASweep(t *testing.T) {
	f := Outline(loadFile(t, writePlan(t, streamPlan))).Judge()
	made := 0
	w := &countingWriter{made: &made}
	err := writeDocument(w, NewDocument([]*File{f}, 0), func(bw io.Writer) *jsonWriter {
		j := newJSONWriter(bw)
		j.points = func(sw Sweep, fn func(SweepPoint) bool) error {
			return sw.Each(func(p SweepPoint) bool { made++; return fn(p) })
		}
		return j
	})
	if err != nil {
		t.Fatal(err)
	}
	type shape struct {
		Points           int
		FirstBeforeTenth bool // the first write came before a tenth of the points were made
		WritesWhileMade  bool // more than 10 writes came before the last point was made
		Over64KiB        int  // writes of more than the buffer
		OverAMegabyte    bool // the document's size
	}
	before := 0
	for _, m := range w.writes {
		if m < made {
			before++
		}
	}
	got := shape{Points: made, FirstBeforeTenth: len(w.writes) > 0 && w.writes[0] < made/10, WritesWhileMade: before > 10,
		Over64KiB: w.large, OverAMegabyte: w.bytes > 1<<20}
	want := shape{Points: 4000, FirstBeforeTenth: true, WritesWhileMade: true, Over64KiB: 0, OverAMegabyte: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A sweep that fails at a point stops the document there with the
// sweep's error: what was written is the document up to that sweep's
// table, left open.
func TestWriteJSONFailingSweep(t *testing.T) {
	plan := `pool p {
  devices = 8
}
job j on p {
  hours = 10h
  factors { S = 0.9  R = 0.9  P = 0.4 }
}
sweep s over j {
  vary P from 0.1 to 0.5 step 0.1
  show mpg, cost_per_useful_hour
}
`
	f := Build(loadFile(t, writePlan(t, plan)))
	var b bytes.Buffer
	err := NewDocument([]*File{f}, 0).WriteJSON(&b)
	tail := b.String()[max(0, b.Len()-40):]
	want := [2]string{"sweep s: column cost_per_useful_hour at program = 0.1: the job has no rate, so cost_per_useful_hour is undefined",
		"\"points\": 5,\n          \"table\": "}
	got := [2]string{fmt.Sprint(err), tail[strings.Index(tail, "\"points\""):]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("error, end of the output (-want +got):\n%s", diff)
	}
}

// mapSweepJSON is the sweep's JSON as it was written before the rows
// were written by hand: its fields, then its table of rows built as maps,
// compact.
func mapSweepJSON(t *testing.T, sw Sweep) string {
	t.Helper()
	type plain struct {
		Name     string           `json:"name"`
		Over     string           `json:"over"`
		Job      string           `json:"job,omitempty"`
		Inputs   []string         `json:"inputs"`
		Columns  []string         `json:"columns,omitempty"`
		Points   int              `json:"points"`
		Failed   int              `json:"failed_points,omitempty"`
		Currency *string          `json:"currency,omitempty"`
		Table    []map[string]any `json:"table"`
	}
	js := plain{Name: sw.Name, Over: sw.Over, Job: sw.Job, Inputs: sw.Inputs, Columns: sw.Columns, Points: sw.Points, Failed: sw.Failed,
		Currency: sw.Currency, Table: []map[string]any{}}
	if err := sw.Each(func(p SweepPoint) bool { js.Table = append(js.Table, mapRow(sw.pointJSON(p))); return true }); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(js); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// mapRow is a point's row as WriteJSON built it before it wrote rows
// itself: a map, its show columns a map under "columns".
func mapRow(entries []sweepCell) map[string]any {
	row := map[string]any{}
	var cols map[string]*Value
	for _, c := range entries {
		if !c.column {
			row[c.key] = c.v
			continue
		}
		if cols == nil {
			cols = map[string]*Value{}
			row["columns"] = cols
		}
		cols[c.key], _ = c.v.(*Value)
	}
	return row
}

// A row written by jsonWriter.row is the map's encoding: keys sorted and
// escaped, a key given twice holding its last value, numbers of every
// size as encoding/json writes them.
func TestSweepRowIsItsMap(t *testing.T) {
	v := &Value{Type: "money", Key: "usd", Val: ptr(2.5)}
	rows := [][]sweepCell{
		{{key: "program", v: 0.45}, {key: "mpg", v: 0.3}, {key: "useful_hours_h", v: 1e21}, {key: "best_lever", v: "<program>"},
			{key: "cost_per_useful_hour_usd", v: 1e-7}, {key: "above_ceiling", v: []string{"program"}}},
		{{key: "d", v: 2.0}, {key: "error", v: &PointFailure{Message: "no \"way\"", File: "p.gpl", Line: 3}}},
		{{key: "columns", v: math.Copysign(0, -1)}, {key: "x", v: 1.0}, {key: "fleet.mpg", v: v, column: true}, {key: "a b\"c", v: (*Value)(nil), column: true},
			{key: "x", v: 5e-324}, {key: "é\u2028", v: v, column: true}, {key: "n", v: 123456789.125}},
		{{key: "only", v: 0.0}},
	}
	for _, entries := range rows {
		for _, indent := range []string{"", "        "} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			enc.SetIndent(indent, "  ")
			if err := enc.Encode(mapRow(entries)); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			j := newJSONWriter(&got)
			var r jsonRow
			j.row(r.of(entries), indent)
			if diff := cmp.Diff(strings.TrimSuffix(want.String(), "\n"), got.String()); diff != "" {
				t.Errorf("(-map +row):\n%s", diff)
			}
		}
	}
}
