package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gplOut runs gpl in-process and returns its standard output, failing
// the test on a nonzero exit.
func gplOut(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if code := runMain(args, strings.NewReader(""), &out, &errb, func(string) string { return "" }); code != 0 {
		t.Fatalf("gpl %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.Bytes()
}

// readBack is a Python program: given the JSON report of gpl run
// --format json and the CSV of gpl table, each read by the standard
// library alone (json, csv), it checks that every number of every row of
// the table is the number the JSON report holds at the same place. The
// JSON is flattened as gpl table flattens it: keys joined by dots, a
// typed value {"type": T, UNIT: V} under NAME_UNIT (NAME for a count).
const readBack = `
import csv, json, sys
report, table, kind, name = sys.argv[1:5]
f = json.load(open(report))["files"][0]
rows = list(csv.DictReader(open(table, newline="")))
def flat(prefix, v, out):
    if isinstance(v, dict):
        ks = list(v)
        if len(ks) == 2 and ks[0] == "type":
            u = ks[1]
            out[prefix + ("" if u in ("count", "string", "bool", "class") else "_" + u)] = v[u]
            return
        for k in ks:
            flat(prefix + "." + k if prefix else k, v[k], out)
    elif not isinstance(v, list):
        out[prefix] = v
def objects():
    if kind == "jobs":
        for j in f["jobs"]:
            o = {}; flat("", j, o); o["job"] = o.pop("name"); yield o
    elif kind == "compare":
        for r in next(c for c in f["compares"] if c["name"] == name)["rows"]:
            o = {}; flat("", r, o); yield o
    elif kind == "group":
        for r in next(g for g in f["groups"] if g["name"] == name)["owners"]:
            o = {}; flat("", r, o); yield o
    elif kind == "sweep":
        for r in next(s for s in f["sweeps"] if s["name"] == name)["table"]:
            o = {}; flat("", {k: v for k, v in r.items() if k != "columns"}, o)
            for k, v in r.get("columns", {}).items():
                flat(k, v, o) if v is not None else o.__setitem__(k, None)
            yield o
objs = list(objects())
assert len(objs) == len(rows), (len(objs), len(rows))
checked = 0
for o, row in zip(objs, rows):
    for k, cell in row.items():
        if k not in o and any(x.startswith(k) for x in o):
            continue
        want = o.get(k)
        if isinstance(want, bool) or not isinstance(want, (int, float)):
            if want is None and k in o:
                assert cell == "", (k, cell)
            continue
        assert float(cell) == float(want), (k, cell, want)
        checked += 1
assert checked > 0
print(checked)
`

// TestTableReadByPython reads gpl table's CSV of jobs, a compare, a group
// and a sweep with Python's csv module and checks every number against
// gpl run --format json (.ci/run installs python3; locally the test is
// skipped without it), and reads one compare row with jq -R.
func TestTableReadByPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	for _, sc := range []string{"fleet_inventory", "fleet_quarter"} {
		report := filepath.Join(dir, sc+".json")
		if err := os.WriteFile(report, reportJSON(t, sc), 0o644); err != nil {
			t.Fatal(err)
		}
		var tables [][2]string // kind, name
		if sc == "fleet_inventory" {
			tables = [][2]string{{"jobs", "jobs"}, {"compare", "pretrain_8b_runs"}, {"group", "evals"}, {"sweep", "pretrain_program"}}
		} else {
			tables = [][2]string{{"jobs", "jobs"}, {"group", "fleet"}, {"sweep", "storage"}}
		}
		for _, tb := range tables {
			csvFile := filepath.Join(dir, sc+"_"+tb[1]+".csv")
			if err := os.WriteFile(csvFile, gplOut(t, "table", sc, tb[1]), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(py, "-c", readBack, report, csvFile, tb[0], tb[1]).CombinedOutput()
			if err != nil {
				t.Errorf("%s %s: python3 reading the CSV back: %v\n%s", sc, tb[1], err, out)
			}
			t.Logf("%s %s: %s numbers read back", sc, tb[1], bytes.TrimSpace(out))
		}
	}
	jq, err := exec.LookPath("jq")
	if err != nil {
		t.Log("jq is not installed: the jq -R read is skipped")
		return
	}
	// jq -R reads the CSV a line at a time: the second line's mpg is the
	// JSON report's.
	csvText := gplOut(t, "table", "fleet_inventory", "pretrain_8b_runs")
	cmd := exec.Command(jq, "-R", "-s", `split("\n") | map(select(. != "") | split(",")) | .[0] as $h | .[1] | .[($h | index("mpg"))] | tonumber`)
	cmd.Stdin = bytes.NewReader(csvText)
	got, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(jq, `.files[0].compares[0].rows[0].mpg`)
	cmd.Stdin = bytes.NewReader(reportJSON(t, "fleet_inventory"))
	want, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("jq -R read mpg %s from the CSV, the JSON report has %s", got, want)
	}
}

func reportJSON(t *testing.T, scenario string) []byte {
	t.Helper()
	return gplOut(t, "run", "--format", "json", scenario)
}
