package main

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
	model "github.com/gpl-lang/gpl/eval/report"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/scenarios"
)

// jobsTable is the jobs table of the scenario s, as gpl table writes it.
func jobsTable(t *testing.T, s *eval.Scenario) *model.Table {
	t.Helper()
	tab, ok, err := model.Build(s).Table("jobs")
	if err != nil || !ok {
		t.Fatalf("jobs table: %v, %v", ok, err)
	}
	return tab
}

// withoutJobs is src with only its pools, lets, params, owners and
// imports kept, and an import of inventory.csv: the jobs come from the
// CSV, and what reads them (groups, compares, sweeps, solves, expects) is
// left out, since a sweep over a param that a job's factor reads cannot
// vary a factor the CSV holds as a constant.
func withoutJobs(t *testing.T, name string, src []byte) []byte {
	t.Helper()
	f, ds := lang.Parse(name, src)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	var out bytes.Buffer
	last := 0
	for _, st := range f.Stmts {
		switch st := st.(type) {
		case *lang.Pool, *lang.Let, *lang.Owners:
			continue
		case *lang.Import:
			if !strings.HasSuffix(st.Path, `.csv"`) { // the scenario's own inventory is the table's
				continue
			}
		}
		start, end := st.Span()
		out.Write(src[last:start.Offset])
		last = end.Offset
	}
	out.Write(src[last:])
	out.WriteString("\nimport \"inventory.csv\"\n")
	return out.Bytes()
}

// TestTableRoundTrip is the round trip of language §20: the jobs table of
// every bundled scenario, written as CSV and imported by a file that holds
// only the scenario's pools, lets, params and owners, gives the same jobs
// table: every input and every figure of every job.
func TestTableRoundTrip(t *testing.T) {
	for _, name := range scenarios.Names() {
		t.Run(name, func(t *testing.T) {
			s, err := loadScenario(name)
			if err != nil {
				t.Fatal(err)
			}
			want := jobsTable(t, s)
			var inv bytes.Buffer
			writeTableCSV(&inv, want, ',')
			src, _ := scenarios.Files.ReadFile(name + ".gpl")
			plan := withoutJobs(t, name+".gpl", src)
			fsys := fstest.MapFS{
				"plan.gpl":      {Data: plan},
				"inventory.csv": {Data: inv.Bytes()},
			}
			for _, n := range scenarios.Names() {
				b, _ := scenarios.Files.ReadFile(n + ".gpl")
				fsys[n+".gpl"] = &fstest.MapFile{Data: b}
			}
			s2, err := eval.LoadWith(eval.Options{FS: fsys, Scenarios: scenarios.Files}, "plan.gpl", nil)
			if err != nil {
				var b strings.Builder
				renderError(&b, s2, err, lang.Style{})
				t.Fatalf("the plan importing its jobs table does not load:\n%s\n%s", b.String(), inv.String())
			}
			got := jobsTable(t, s2)
			if diff := cmp.Diff(want.Headers, got.Headers); diff != "" {
				t.Fatalf("headers (-want +got):\n%s", diff)
			}
			if len(got.Rows) != len(want.Rows) {
				t.Fatalf("%d jobs imported, want %d", len(got.Rows), len(want.Rows))
			}
			for i, row := range want.Rows {
				for j, c := range row {
					if !sameCell(c, got.Rows[i][j]) {
						t.Errorf("job %s, %s: got %q, want %q", row[0].Text, want.Headers[j], got.Rows[i][j].Text, c.Text)
					}
				}
			}
		})
	}
}

// sameCell compares two cells, numbers to 1e-9 of their size: a factor
// the table writes as the JSON report rounds it (0.958333333333333 for
// a runtime_goodput) is read back as that constant.
func sameCell(a, b model.Cell) bool {
	if a.Kind != model.CellNumber || b.Kind != model.CellNumber {
		return a == b
	}
	x, err1 := strconv.ParseFloat(a.Text, 64)
	y, err2 := strconv.ParseFloat(b.Text, 64)
	return err1 == nil && err2 == nil && math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))
}

// TestTableFormats prints one table in each format.
func TestTableFormats(t *testing.T) {
	tab := &model.Table{Headers: []string{"name", "cost_usd", "note"}, Rows: [][]model.Cell{
		{{Kind: model.CellString, Text: "a"}, {Kind: model.CellNumber, Text: "1000000.5"}, {Kind: model.CellString, Text: "x, \"y\"|z"}},
		{{Kind: model.CellString, Text: "b"}, {}, {Kind: model.CellBool, Text: "true"}},
	}}
	for _, c := range []struct {
		format string
		write  func(*bytes.Buffer)
		want   string
	}{
		{"csv", func(b *bytes.Buffer) { writeTableCSV(b, tab, ',') }, "name,cost_usd,note\na,1000000.5,\"x, \"\"y\"\"|z\"\nb,,true\n"},
		{"tsv", func(b *bytes.Buffer) { writeTableTSV(b, tab) }, "name\tcost_usd\tnote\na\t1000000.5\tx, \"y\"|z\nb\t\ttrue\n"},
		{"json", func(b *bytes.Buffer) { writeTableJSON(b, tab) }, "[\n  {\"name\": \"a\", \"cost_usd\": 1000000.5, \"note\": \"x, \\\"y\\\"|z\"},\n  {\"name\": \"b\", \"cost_usd\": null, \"note\": true}\n]\n"},
		{"markdown", func(b *bytes.Buffer) { writeTableMarkdown(b, tab) }, "| name | cost_usd | note |\n| --- | ---: | --- |\n| a | 1000000.5 | x, \"y\"\\|z |\n| b |  | true |\n"},
	} {
		var b bytes.Buffer
		c.write(&b)
		if diff := cmp.Diff(c.want, b.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.format, diff)
		}
	}
	// The CSV reads back as written.
	var b bytes.Buffer
	writeTableCSV(&b, tab, ',')
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || recs[1][2] != "x, \"y\"|z" {
		t.Errorf("CSV read back: %q, %v", recs, err)
	}
}

// TestInventoryExample runs the worked example of "From a spreadsheet"
// (testdata/inventory) as gpl test does, and checks that the inventory
// docs/language.md shows is that example's, byte for byte.
func TestInventoryExample(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runMain([]string{"test", "../../testdata/inventory"}, strings.NewReader(""), &out, &errb, func(string) string { return "" }); code != 0 {
		t.Fatalf("gpl test testdata/inventory: exit %d\n%s%s", code, out.String(), errb.String())
	}
	inv, err := os.ReadFile("../../testdata/inventory/inventory.csv")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, _ := strings.Cut(string(doc), "\n## From a spreadsheet\n")
	_, block, _ := strings.Cut(sec, "```text\n")
	block, _, _ = strings.Cut(block, "```")
	if block != string(inv) {
		t.Errorf("docs/language.md's inventory differs from testdata/inventory/inventory.csv:\n%s", block)
	}
}
