package main

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClassifyFileStdin checks a regular file as stdin: reading starts at
// the file's offset and leaves the offset at the end.
func TestClassifyFileStdin(t *testing.T) {
	in := "{\"priority\":0}\n{\"batch_size\":64}\n{\"batch_size\":2}\n"
	f, err := os.Open(writeFile(t, t.TempDir(), "req.jsonl", []byte(in)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(int64(len("{\"priority\":0}\n")), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runMain([]string{"classify", "--rules", "kapsl", "--line-numbers"}, f, &out, &errb, func(string) string { return "" }); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if diff := cmp.Diff("1\tthroughput\n2\tlatency_critical\n", out.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if at, _ := f.Seek(0, io.SeekCurrent); at != int64(len(in)) {
		t.Errorf("offset after the run = %d, want %d (the end)", at, len(in))
	}
}
