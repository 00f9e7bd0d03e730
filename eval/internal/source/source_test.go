package source

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestReaderFS reads imports inside an fs.FS: one inside the tree, one
// already loaded under another spelling, and the refusals, each with the
// words the diagnostics show.
func TestReaderFS(t *testing.T) {
	fsys := fstest.MapFS{
		"proj/main.gpl":    {Data: []byte("import \"lib/a.gpl\"\n")},
		"proj/lib/a.gpl":   {Data: []byte("let a = 1\n")},
		"proj/notes.txt":   {Data: []byte("x")},
		"other/secret.gpl": {Data: []byte("let s = 1\n")},
	}
	loaded := map[string]bool{"proj/main.gpl": true}
	r := &Reader{FS: fsys, Loaded: func(n string) bool { return loaded[n] }}
	type result struct {
		Name, Text, Err      string
		Summary, Label, Note string
	}
	read := func(from, path0 string) result {
		name, src, err := r.Import(from, path0)
		res := result{Name: name, Text: string(src)}
		var ref *Refusal
		if errors.As(err, &ref) {
			res.Summary, res.Label, res.Note = ref.Summary, ref.Label, ref.Note
		} else if err != nil {
			res.Err = err.Error()
		}
		if name != "" {
			loaded[name] = true
		}
		return res
	}
	got := map[string]result{
		"inside":         read("proj/main.gpl", "lib/a.gpl"),
		"again":          read("proj/main.gpl", "lib/../lib/a.gpl"),
		"outside":        read("proj/main.gpl", "../other/secret.gpl"),
		"absolute":       read("proj/main.gpl", "/etc/a.gpl"),
		"not gpl":        read("proj/main.gpl", "notes.txt"),
		"missing":        read("proj/main.gpl", "lib/none.gpl"),
		"from an import": read("proj/lib/a.gpl", "../../other/secret.gpl"),
	}
	note := "imports stay inside the directory of proj/main.gpl and below it; --allow-imports DIR adds a tree"
	want := map[string]result{
		"inside":   {Name: "proj/lib/a.gpl", Text: "let a = 1\n"},
		"again":    {},
		"outside":  {Summary: "the path leaves the import tree", Label: "outside the tree", Note: note},
		"absolute": {Summary: "an import path is relative to the importing file's directory, never absolute", Label: "absolute path"},
		"not gpl":  {Summary: "only .gpl source files and .csv inventories can be imported", Label: "not a .gpl or .csv file"},
		"missing":  {Err: "cannot read proj/lib/none.gpl: no such file"},
		// An imported file's imports stay in the tree of the file loaded.
		"from an import": {Summary: "the path leaves the import tree", Label: "outside the tree", Note: note},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("imports (-want +got):\n%s", diff)
	}
}
