package testrun

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindTestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		"a.gpl", "notes.txt", "sub/b.gpl", "sub/c.golden",
		"testdata/bad/broken.gpl", "testdata/good.gpl", "bad/kept.gpl", "vendor/v.gpl",
		".git/x.gpl", "sub/.plan.gpl.123.tmp", "sub/.hidden.gpl",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	at := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{name: "directory", args: []string{dir}, want: []string{"a.gpl", "bad/kept.gpl", "sub/b.gpl"}},
		{name: "testdata named", args: []string{at("testdata")}, want: []string{"testdata/bad/broken.gpl", "testdata/good.gpl"}},
		{name: "file taken as is", args: []string{at("testdata/bad/broken.gpl"), at("notes.txt")}, want: []string{"notes.txt", "testdata/bad/broken.gpl"}},
		{name: "skipped directory named", args: []string{at("testdata/bad")}, want: []string{"testdata/bad/broken.gpl"}},
		{name: "duplicates once", args: []string{at("sub"), at("sub/b.gpl"), dir + "/sub/"}, want: []string{"sub/b.gpl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := findTestFiles(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, rel(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := findTestFiles([]string{at("missing")}); err == nil {
		t.Error("a missing path is not an error")
	}
}

func TestWriteAnnotation(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		line, col int
		msg, want string
	}{
		{name: "plain", file: "a.gpl", line: 9, col: 10, msg: "expectation failed: got 1", want: "::error file=a.gpl,line=9,col=10::expectation failed: got 1\n"},
		{name: "escaped", file: "dir,x/a:b.gpl", line: 1, col: 1, msg: "100% off\r\nnext", want: "::error file=dir%2Cx/a%3Ab.gpl,line=1,col=1::100%25 off%0D%0Anext\n"},
		{name: "no line", file: "a.gpl", msg: "cannot read", want: "::error file=a.gpl::cannot read\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			writeAnnotation(&b, "error", tt.file, tt.line, tt.col, tt.msg)
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
