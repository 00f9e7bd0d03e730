package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/testdata/pipewatch"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// writeFile writes data to name in dir and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClassifyCompressedInput checks that gzip and zstd input, as files
// (whatever their names) and on stdin, gives the uncompressed file's
// output byte for byte.
func TestClassifyCompressedInput(t *testing.T) {
	in, _ := requestStream(5000, 3)
	var gz bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write([]byte(in[:len(in)/2]))
	gw.Close()
	gw = gzip.NewWriter(&gz) // a second member, as from cat a.gz b.gz
	gw.Write([]byte(in[len(in)/2:]))
	gw.Close()
	zw, _ := zstd.NewWriter(nil)
	zst := zw.EncodeAll([]byte(in), nil)
	dir := t.TempDir()
	plain := writeFile(t, dir, "requests.jsonl", []byte(in))
	want, _, code := classifyRun(t, "", "--rules", "kapsl", "--format", "jsonl", plain)
	if code != 0 {
		t.Fatalf("plain file: exit %d", code)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{{"requests.jsonl.gz", gz.Bytes()}, {"requests.zst", zst}, {"misnamed.jsonl", gz.Bytes()}} {
		p := writeFile(t, dir, tc.name, tc.data)
		for _, how := range []string{"file", "stdin"} {
			var out, stderr string
			if how == "file" {
				out, stderr, code = classifyRun(t, "", "--rules", "kapsl", "--format", "jsonl", p)
			} else {
				out, stderr, code = classifyRun(t, string(tc.data), "--rules", "kapsl", "--format", "jsonl", "-")
			}
			if code != 0 || stderr != "" {
				t.Fatalf("%s via %s: exit %d, stderr %q", tc.name, how, code, stderr)
			}
			if out != want {
				t.Errorf("%s via %s: output differs from the uncompressed file's", tc.name, how)
			}
		}
	}
	bad := writeFile(t, dir, "broken.gz", gz.Bytes()[:gz.Len()/2])
	_, stderr, code := classifyRun(t, "", "--rules", "kapsl", bad)
	if diff := cmp.Diff("gpl classify: reading "+bad+": gzip: unexpected EOF\n", stderr); diff != "" || code != exitRuntime {
		t.Errorf("truncated gzip: exit %d, stderr (-want +got):\n%s", code, diff)
	}
}

// TestClassifyFiles checks request files in order with stdin among them,
// diagnostics naming the file, and the two ways to give the ruleset file.
func TestClassifyFiles(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.jsonl", []byte("{\"priority\":0}\n{\"batch_size\":64}\n"))
	b := writeFile(t, dir, "b.jsonl", []byte("{\"batch_size\":2}\n\n"))
	rules := writeFile(t, dir, "serving.gpl", []byte("rules serving {\n  when batch_size <= 4 -> fast\n  else slow\n}\nrules kapsl2 {\n  else slow\n}\n"))
	odd := writeFile(t, dir, "odd.gpl", []byte("{\"batch_size\":1}\n"))
	tests := []struct {
		name, stdin  string
		args         []string
		out, errText string
		code         int
	}{
		{"files and stdin in order", "{\"priority\":0}\n", []string{"--rules", "kapsl", a, "-", b, "--keep-going"},
			"latency_critical\nthroughput\nlatency_critical\nlatency_critical\nerror\n",
			"error: " + b + ":2:1: blank line: expected a JSON object\ngpl classify: 1 of 5 lines unusable; each has a placeholder in the output\n", 0},
		{"several files: jsonl names the file", "", []string{"--rules", "kapsl", "--format", "jsonl", "--line-numbers", "--keep-going", a, b},
			`{"priority":0,"file":"` + a + `","line":1,"class":"latency_critical","rule":"override"}
{"batch_size":64,"file":"` + a + `","line":2,"class":"throughput","rule":"else"}
{"batch_size":2,"file":"` + b + `","line":1,"class":"latency_critical","rule":"small"}
{"file":"` + b + `","line":2,"column":1,"error":"blank line: expected a JSON object"}
`, "error: " + b + ":2:1: blank line: expected a JSON object\ngpl classify: 1 of 4 lines unusable; each has a placeholder in the output\n", 0},
		{"ruleset file by suffix", "", []string{"--rules", "serving", rules, a}, "fast\nslow\n", "", 0},
		{"ruleset file by flag; every argument a request file", "", []string{"--rules", "serving", "--rules-file", rules, odd}, "fast\n", "", 0},
		{"did you mean, with the rulesets in words", "", []string{"--rules", "servng", rules}, "",
			"gpl classify: no ruleset servng; did you mean serving?\n  " + rules + " declares 2 rulesets: serving and kapsl2\n", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := classifyRun(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if diff := cmp.Diff(tc.out, out); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.errText, stderr); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestClassifyWriteErrors checks that output that cannot be written ends
// the run with exit 3: with a message for a full disk, quietly for a
// reader that has gone (a closed pipe).
func TestClassifyWriteErrors(t *testing.T) {
	var stderr bytes.Buffer
	code := runMain([]string{"classify", "--rules", "kapsl"}, strings.NewReader("{}\n"), failingWriter{}, &stderr, func(string) string { return "" })
	if diff := cmp.Diff("gpl classify: writing the results: write to standard output: no space left on device\n", stderr.String()); diff != "" || code != exitRuntime {
		t.Errorf("full disk: exit %d, stderr (-want +got):\n%s", code, diff)
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	in, _ := requestStream(50_000, 1)
	stderr.Reset()
	code = runMain([]string{"classify", "--rules", "kapsl"}, strings.NewReader(in), w, &stderr, func(string) string { return "" })
	if code != exitRuntime || stderr.Len() != 0 {
		t.Errorf("closed pipe: exit %d, stderr %q; want 3 and nothing", code, stderr.String())
	}
}

// TestClassifyLiveStream checks that each result is written as soon as its
// line has arrived, before the next line exists, on a pipe and on a FIFO
// named as a request file.
func TestClassifyLiveStream(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "requests")
	if err := pipewatch.Mkfifo(fifo, 0o600); errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no named pipes here: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	for _, via := range []string{"pipe", "fifo"} {
		t.Run(via, func(t *testing.T) {
			inR, inW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			outR, outW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"classify", "--rules", "kapsl"}
			var stdin io.Reader = inR
			if via == "fifo" {
				args = append(args, fifo)
				stdin = strings.NewReader("")
			}
			done := make(chan int)
			go func() {
				code := runMain(args, stdin, outW, io.Discard, func(string) string { return "" })
				outW.Close()
				done <- code
			}()
			var feed io.WriteCloser = inW
			if via == "fifo" {
				f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				feed = f
				inW.Close()
			}
			results := bufio.NewReader(outR)
			for _, step := range []struct{ line, want string }{
				{"{\"priority\":0}\n", "latency_critical\n"},
				{"{\"batch_size\":64}\n", "throughput\n"},
			} {
				if _, err := io.WriteString(feed, step.line); err != nil {
					t.Fatal(err)
				}
				got := make(chan string, 1)
				go func() { s, _ := results.ReadString('\n'); got <- s }()
				select {
				case s := <-got:
					if diff := cmp.Diff(step.want, s); diff != "" {
						t.Errorf("result (-want +got):\n%s", diff)
					}
				case <-beforeDeadline(t):
					t.Fatalf("no result for %q by the test's deadline while the stream stays open", step.line)
				}
			}
			feed.Close()
			if code := <-done; code != 0 {
				t.Errorf("exit %d", code)
			}
			if rest, err := io.ReadAll(results); err != nil || len(rest) != 0 {
				t.Errorf("after the end: %q, %v", rest, err)
			}
			inR.Close()
			outR.Close()
		})
	}
}

// TestClassifyProgress checks the progress bar's own drawing, and that no
// bar is drawn when stderr is not a terminal.
func TestClassifyProgress(t *testing.T) {
	var buf bytes.Buffer
	p := startProgress(&buf, 1000)
	p.add(1000)
	p.last = time.Time{}
	p.update(10)
	if !strings.Contains(buf.String(), "100%") || !strings.Contains(buf.String(), "10 lines") {
		t.Errorf("progress bar drew %q; want 100%% and the line count", buf.String())
	}
	if got := newProgress(classifyOptions{}, &env{stderr: &buf}, []input{{name: "a", arg: "a"}}); got != nil {
		t.Error("a bar on a stderr that is not a terminal")
	}
}
