package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClosestKey(t *testing.T) {
	got := map[string]string{}
	for _, k := range []string{"input_size", "prio", "sla", "flops", "bacth_size", "zzz", "batch"} {
		got[k] = closestKey(k)
	}
	want := map[string]string{
		"input_size": "input_size_bytes", "prio": "priority", "sla": "sla_deadline",
		"flops": "estimated_flops", "bacth_size": "batch_size", "zzz": "", "batch": "batch_size",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestClassifyExtraKeys classifies a request log whose lines carry keys
// beyond kapsl's five — a request id, a model name, nested objects and
// arrays, one holding a "priority" of its own — placed before, between and
// after kapsl's: by default every line gets the shared reference's class,
// exit 0, and --summary counts the keys ignored; --strict-keys refuses the
// first, exit 3.
func TestClassifyExtraKeys(t *testing.T) {
	in, want := requestStream(2000, 7)
	extras := []string{
		`"request_id":"r-%d"`,
		`"model":"llama2-70b","tenant":{"id":%d,"priority":0,"tags":["a",{"batch_size":1}]}`,
		`"trace":[%d,[0,{"sla_deadline":1}],null,true,"x"]`,
		`"latency_ms":%d.5,"ok":false,"none":null`,
	}
	var log strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
		extra := fmt.Sprintf(extras[i%len(extras)], i)
		switch i % 3 {
		case 0: // first
			line = "{" + extra + "," + line[1:]
		case 1: // last
			line = line[:len(line)-1] + "," + extra + "}"
		default: // between
			comma := strings.Index(line, ",")
			line = line[:comma+1] + extra + line[comma:]
		}
		log.WriteString(line + "\n")
	}
	out, stderr, code := classifyRun(t, log.String(), "--rules", "kapsl")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if diff := cmp.Diff(want, strings.Split(strings.TrimSuffix(out, "\n"), "\n")); diff != "" {
		t.Errorf("classes differ from the reference's (-want +got):\n%s", diff)
	}

	out, stderr, code = classifyRun(t, log.String(), "--rules", "kapsl", "--summary", "--format", "json")
	if code != 0 || stderr != "" {
		t.Fatalf("--summary: exit %d, stderr %q", code, stderr)
	}
	var sum struct {
		Lines       int `json:"lines"`
		Requests    int `json:"requests"`
		IgnoredKeys int `json:"ignored_keys"`
		LinesWith   int `json:"lines_with_ignored_keys"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	// Per four lines: 1 + 2 + 1 + 3 keys at the top level.
	wantSum := struct{ Lines, Requests, IgnoredKeys, LinesWith int }{2000, 2000, 500 * 7, 2000}
	gotSum := struct{ Lines, Requests, IgnoredKeys, LinesWith int }{sum.Lines, sum.Requests, sum.IgnoredKeys, sum.LinesWith}
	if diff := cmp.Diff(wantSum, gotSum); diff != "" {
		t.Errorf("--summary (-want +got):\n%s", diff)
	}

	_, stderr, code = classifyRun(t, log.String(), "--rules", "kapsl", "--strict-keys")
	wantErr := `error: stdin:1:2: unknown key "request_id"; known keys are priority, sla_deadline, batch_size, input_size_bytes, estimated_flops (--strict-keys refuses keys that are not kapsl's; without it they are ignored)` + "\n" +
		"  (stopped at line 1; --keep-going reports unusable lines and goes on)\n"
	if diff := cmp.Diff(result{3, "", wantErr}, result{code, "", stderr}); diff != "" {
		t.Errorf("--strict-keys (-want +got):\n%s", diff)
	}
}
