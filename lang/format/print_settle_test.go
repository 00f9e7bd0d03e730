package format

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/lang"
)

// TestSettleKeepsLayout checks that rendering the output in pieces as the
// statements are printed (settle) writes what rendering it all at the end
// does: on every .gpl file of the repository that parses, and on all of
// them joined into one, settling after every statement and never.
func TestSettleKeepsLayout(t *testing.T) {
	var all strings.Builder
	files := RepositoryFiles(t)
	format := func(name string, src []byte, every int) string {
		t.Helper()
		saved := settleAt
		settleAt = every
		defer func() { settleAt = saved }()
		out, err := FormatSource(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(out)
	}
	n := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, ds := lang.Parse(path, src); ds.HasErrors() || strings.HasPrefix(string(src), bom) {
			continue
		}
		n++
		if diff := cmp.Diff(format(path, src, 1<<30), format(path, src, 1)); diff != "" {
			t.Errorf("%s: settled after every statement (-whole +settled):\n%s", path, diff)
		}
		all.Write(src)
		all.WriteString("\n\n")
	}
	// A ruleset and a job with blank lines inside: their rules and fields
	// align across the blank, so a piece must not end there.
	inner := []byte("rules r {\n  a: when tokens > 1 -> x\n\n  longer_label: when tokens > 2 -> y\n  else z\n}\n\njob j on p {\n  hours = 1h  # one\n\n  factors { S = 1  R = 1  P = 1 }  # two\n}\n")
	if diff := cmp.Diff(format("inner.gpl", inner, 1<<30), format("inner.gpl", inner, 1)); diff != "" {
		t.Errorf("blank lines inside blocks (-whole +settled):\n%s", diff)
	}
	all.Write(inner)
	if n < 50 {
		t.Fatalf("only %d files parse", n)
	}
	big := []byte(all.String())
	if diff := cmp.Diff(format("all.gpl", big, 1<<30), format("all.gpl", big, 1)); diff != "" {
		t.Errorf("all files joined (-whole +settled):\n%s", diff)
	}
}

// RepositoryFiles lists every .gpl file of the repository, outside hidden
// directories (for the tests of format_test too). The paths are relative
// to this package's directory.
func RepositoryFiles(t *testing.T) []string {
	t.Helper()
	const root = "../.."
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".gpl") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
