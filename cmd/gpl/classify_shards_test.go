package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// shardedInput is a request stream with unusable lines and ignored keys
// among its lines: a blank line, a string where a number belongs, trailing
// garbage, a request id.
func shardedInput(n int) []string {
	in, _ := requestStream(n, 7)
	lines := strings.SplitAfter(in, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	bad := []string{"\n", "{\"batch_size\":\"4\"}\n", "{\"priority\":0} x\n", "{\"priority\":2,\"request_id\":\"r-17\",\"model\":{\"name\":\"m\"}}\n"}
	for i := 0; i < len(lines); i += 613 {
		lines[i] = bad[(i/613)%len(bad)]
	}
	return lines
}

var shardLine = regexp.MustCompile(`(?m)^\{"line":[0-9]+,`)

// TestClassifyShards is the filter contract a batch engine's pipe relies
// on (docs/scale-out.md): one line out per line in, in order, and exit 0
// under --keep-going when unusable lines had placeholders. The input is
// split into shards of uneven sizes (some gzipped), the shards are
// classified at once, and their outputs concatenated in order equal the
// run over the whole input, byte for byte, in text; in jsonl too but for
// the line number in an unusable line's placeholder, which counts within
// its shard.
func TestClassifyShards(t *testing.T) {
	n := 60_000
	if testing.Short() {
		n = 6_000
	}
	lines := shardedInput(n)
	whole := strings.Join(lines, "")
	dir := t.TempDir()
	var shards []string
	for i, start := 0, 0; start < len(lines); i++ {
		end := min(len(lines), start+len(lines)/7+i*97) // uneven shards
		name := filepath.Join(dir, fmt.Sprintf("part-%05d.jsonl", i))
		data := []byte(strings.Join(lines[start:end], ""))
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
		shards = append(shards, name)
		start = end
	}
	for _, format := range []string{"text", "jsonl"} {
		t.Run(format, func(t *testing.T) {
			want, wantErr, code := classifyRun(t, whole, "--rules", "kapsl", "--keep-going", "--format", format)
			if code != 0 {
				t.Fatalf("the whole input: exit %d, want 0 (stderr %q)", code, wantErr)
			}
			if got := strings.Count(want, "\n"); got != len(lines) {
				t.Fatalf("%d lines out for %d in", got, len(lines))
			}
			outs := make([]string, len(shards))
			errs := make([]string, len(shards))
			var wg sync.WaitGroup
			for i, sh := range shards {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var c int
					outs[i], errs[i], c = classifyRun(t, "", "--rules", "kapsl", "--keep-going", "--format", format, sh)
					if c != 0 {
						t.Errorf("%s: exit %d, want 0", sh, c)
					}
				}()
			}
			wg.Wait()
			got := strings.Join(outs, "")
			if format == "jsonl" {
				// A placeholder names its line within its own input: the
				// shard's line, not the whole input's.
				got, want = shardLine.ReplaceAllString(got, `{"line":N,`), shardLine.ReplaceAllString(want, `{"line":N,`)
			}
			if got != want {
				t.Errorf("the shards' outputs concatenated differ from the whole run's (%d against %d bytes)", len(got), len(want))
			}
			reported := 0
			for _, e := range errs {
				reported += strings.Count(e, "error: ")
			}
			if wantN := strings.Count(wantErr, "error: "); reported != wantN || wantN == 0 {
				t.Errorf("the shards reported %d unusable lines, the whole run %d", reported, wantN)
			}
		})
	}
}
