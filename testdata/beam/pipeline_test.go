package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	//lint:ignore SA1019 the direct runner runs the pipeline in process, without prism's job server: what a unit test needs
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"
	"github.com/google/go-cmp/cmp"
)

// shards writes the requests of testdata/gen/requests, with unusable
// lines and keys that are not kapsl's among them, as shards of the
// directory dir, every other one gzipped.
func shards(t *testing.T, dir string, n, count int) []string {
	t.Helper()
	cmd := exec.Command("go", "run", "./testdata/gen/requests", "-n", strconv.Itoa(n), "-seed", "25")
	cmd.Dir = "../.."
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(out), "\n")
	lines = lines[:len(lines)-1]
	bad := []string{"\n", "{\"batch_size\":\"4\"}\n", "{\"priority\":0} x\n", "{\"priority\":2,\"request_id\":\"r-17\"}\n", "not json\n"}
	for i := 0; i < len(lines); i += 211 {
		lines[i] = bad[(i/211)%len(bad)]
	}
	var names []string
	per := (len(lines) + count - 1) / count
	for i := 0; i*per < len(lines); i++ {
		data := []byte(strings.Join(lines[i*per:min(len(lines), (i+1)*per)], ""))
		name := filepath.Join(dir, fmt.Sprintf("part-%05d.jsonl", i))
		if i%2 == 1 {
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(data)
			zw.Close()
			name, data = name+".gz", z.Bytes()
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// summary is what gpl classify --summary --format json counts, as the
// pipeline's keys.
func summary(t *testing.T, files []string) map[string]int {
	t.Helper()
	args := append([]string{"run", "./cmd/gpl", "classify", "--rules", "kapsl", "--keep-going", "--summary", "--format", "json"}, files...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gpl classify: %v", err)
	}
	var s struct {
		Lines, Requests, Unusable int
		Classes                   []struct {
			Class string
			Count int
		}
		Rules []struct {
			Rule  string
			Count int
		}
		UnusableByReason []struct {
			Reason string
			Count  int
		} `json:"unusable_by_reason"`
	}
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatal(err)
	}
	m := map[string]int{"lines": s.Lines, "requests": s.Requests, "unusable": s.Unusable}
	for _, c := range s.Classes {
		m["class/"+c.Class] = c.Count
	}
	for _, r := range s.Rules {
		m["rule/"+r.Rule] = r.Count
	}
	for _, u := range s.UnusableByReason {
		m["unusable/"+u.Reason] = u.Count
	}
	for k, v := range m {
		if v == 0 {
			delete(m, k) // the pipeline writes no count of 0
		}
	}
	return m
}

// TestPipelineMatchesClassify runs the pipeline on Beam's direct runner
// over shards (plain and gzip) and compares its counts with gpl classify
// --summary's over the same files.
func TestPipelineMatchesClassify(t *testing.T) {
	dir := t.TempDir()
	files := shards(t, dir, 20_000, 6)
	want := summary(t, files)

	out := filepath.Join(dir, "counts.txt")
	p, s := beam.NewPipelineWithRoot()
	textio.Write(s, out, Counts(s, filepath.Join(dir, "part-*.jsonl*"), "kapsl", ""))
	if _, err := direct.Execute(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		i := strings.LastIndexByte(sc.Text(), ' ')
		n, err := strconv.Atoi(sc.Text()[i+1:])
		if err != nil {
			t.Fatalf("bad count line %q", sc.Text())
		}
		got[sc.Text()[:i]] = n
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the pipeline's counts differ from gpl classify --summary's (-gpl +beam):\n%s", diff)
	}
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%s %d", k, got[k])
	}
}
