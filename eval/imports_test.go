package eval

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/testdata/pipewatch"
)

// secret is what files outside the import tree hold: not gpl, so that a
// diagnostic quoting it would show it.
const secret = "SECRET=hunter2\n"

// loadOutput loads file with opts and returns what gpl would print for
// its load error ("" when it loads) and the names of the files loaded.
// It waits for the load however long it takes; a named pipe among the
// files is made with unreadPipe, so that opening it cannot block.
func loadOutput(t *testing.T, opts Options, file string) (string, []string) {
	t.Helper()
	s, err := LoadWith(opts, file, nil)
	var files []string
	for _, f := range s.Files() {
		files = append(files, f.Name)
	}
	if err == nil {
		return "", files
	}
	le, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %T is not an *Error: %v", err, err)
	}
	return renderDiagnostics(s, le.Diagnostics), files
}

// unreadPipe makes a named pipe at path, and fails the test if anything
// opens it to read before the test ends. Opened, it reads as empty rather
// than blocking.
func unreadPipe(t *testing.T, path string) {
	t.Helper()
	if err := pipewatch.Mkfifo(path, 0o644); errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no named pipes here: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	w, err := pipewatch.Start(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		opened, err := w.Stop()
		if err != nil {
			t.Error(err)
		}
		if opened {
			t.Errorf("%s was opened for reading", path)
		}
	})
}

// TestImportTreeOS loads DIR/tree/main.gpl beside DIR/outside, whose files
// must never be read unless --allow-imports names it.
func TestImportTreeOS(t *testing.T) {
	cases := []struct {
		name  string
		main  string                         // tree/main.gpl; $DIR is the temporary directory
		setup func(t *testing.T, dir string) // makes more files
		allow []string                       // relative to the temporary directory
		want  string                         // $DIR for the temporary directory
		files []string                       // loaded, relative to the temporary directory
	}{
		{
			name: "proc_environ",
			main: `import "../../../../../../proc/self/environ"` + "\n",
			want: `error: cannot import "../../../../../../proc/self/environ": only .gpl source files and .csv inventories can be imported
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "../../../../../../proc/self/environ"
   |        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ not a .gpl or .csv file
`,
		},
		{
			name: "etc_passwd",
			main: `import "/etc/passwd"` + "\n",
			want: `error: cannot import "/etc/passwd": an import path is relative to the importing file's directory, never absolute
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "/etc/passwd"
   |        ^^^^^^^^^^^^^ absolute path
`,
		},
		{
			name: "dotdot_passwd",
			main: `import "../../etc/passwd"` + "\n",
			want: `error: cannot import "../../etc/passwd": only .gpl source files and .csv inventories can be imported
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "../../etc/passwd"
   |        ^^^^^^^^^^^^^^^^^^ not a .gpl or .csv file
`,
		},
		{
			name: "dev_zero",
			main: `import "/dev/zero"` + "\n",
			want: `error: cannot import "/dev/zero": an import path is relative to the importing file's directory, never absolute
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "/dev/zero"
   |        ^^^^^^^^^^^ absolute path
`,
		},
		{
			name: "absolute_gpl_file",
			main: `import "$DIR/outside/secret.gpl"` + "\n",
			want: `error: cannot import "$DIR/outside/secret.gpl": an import path is relative to the importing file's directory, never absolute
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "$DIR/outside/secret.gpl"
   |        $CARETS absolute path
`,
		},
		{
			name: "dotdot_leaves_tree",
			main: "let a = 1\nimport \"../outside/secret.gpl\"\n",
			want: `error: cannot import "../outside/secret.gpl": the path leaves the import tree
  --> $DIR/tree/main.gpl:2:8
   |
 2 | import "../outside/secret.gpl"
   |        ^^^^^^^^^^^^^^^^^^^^^^^ outside the tree
   = imports stay inside the directory of $DIR/tree/main.gpl and below it; --allow-imports DIR adds a tree
`,
		},
		{
			name: "dotdot_to_missing_file_leaves_tree",
			main: `import "../nowhere/x.gpl"` + "\n",
			want: `error: cannot import "../nowhere/x.gpl": the path leaves the import tree
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "../nowhere/x.gpl"
   |        ^^^^^^^^^^^^^^^^^^ outside the tree
   = imports stay inside the directory of $DIR/tree/main.gpl and below it; --allow-imports DIR adds a tree
`,
		},
		{
			name:  "allowed_tree",
			main:  `import "../shared/pools.gpl"` + "\n",
			allow: []string{"shared"},
			files: []string{"tree/main.gpl", "shared/pools.gpl"},
		},
		{
			name: "symlink_to_file_outside",
			main: `import "link.gpl"` + "\n",
			setup: func(t *testing.T, dir string) {
				symlink(t, "../outside/secret.gpl", filepath.Join(dir, "tree/link.gpl"))
			},
			want: `error: cannot import "link.gpl": it is a symbolic link to a file outside the import tree
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "link.gpl"
   |        ^^^^^^^^^^ leads outside the tree
   = imports stay inside the directory of $DIR/tree/main.gpl and below it; --allow-imports DIR adds a tree
`,
		},
		{
			name: "symlink_to_pipe_outside",
			main: `import "link.gpl"` + "\n",
			setup: func(t *testing.T, dir string) {
				unreadPipe(t, filepath.Join(dir, "outside/pipe.gpl"))
				symlink(t, "../outside/pipe.gpl", filepath.Join(dir, "tree/link.gpl"))
			},
			want: `error: cannot import "link.gpl": it is a symbolic link to a file outside the import tree
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "link.gpl"
   |        ^^^^^^^^^^ leads outside the tree
   = imports stay inside the directory of $DIR/tree/main.gpl and below it; --allow-imports DIR adds a tree
`,
		},
		{
			name: "symlinked_directory_outside",
			main: `import "sub/secret.gpl"` + "\n",
			setup: func(t *testing.T, dir string) {
				symlink(t, filepath.Join(dir, "outside"), filepath.Join(dir, "tree/sub"))
			},
			want: `error: cannot import "sub/secret.gpl": it is a symbolic link to a file outside the import tree
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "sub/secret.gpl"
   |        ^^^^^^^^^^^^^^^^ leads outside the tree
   = imports stay inside the directory of $DIR/tree/main.gpl and below it; --allow-imports DIR adds a tree
`,
		},
		{
			name: "symlink_outside_into_allowed_tree",
			main: `import "link.gpl"` + "\n",
			setup: func(t *testing.T, dir string) {
				symlink(t, "../shared/pools.gpl", filepath.Join(dir, "tree/link.gpl"))
			},
			allow: []string{"shared"},
			files: []string{"tree/main.gpl", "tree/link.gpl"},
		},
		{
			// The .gpl rule is the file's, not its link's: with the tree of
			// the file a link named env.gpl leads to allowed, the file is
			// still not source (it stands for /proc/self/environ under
			// --allow-imports /proc), and none of it is shown.
			name: "symlink_named_gpl_to_a_file_that_is_not",
			main: `import "env.gpl"` + "\n",
			setup: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, "procfs/environ"), secret)
				symlink(t, filepath.Join(dir, "procfs/environ"), filepath.Join(dir, "tree/env.gpl"))
			},
			allow: []string{"procfs"},
			want: `error: cannot import "env.gpl": it is a symbolic link to "environ", which is not a .gpl file
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "env.gpl"
   |        ^^^^^^^^^ leads to a file that is not .gpl
   = only .gpl source files and .csv inventories can be imported, whatever a link to one is named
`,
		},
		{
			name: "fifo",
			main: `import "pipe.gpl"` + "\n",
			setup: func(t *testing.T, dir string) {
				unreadPipe(t, filepath.Join(dir, "tree/pipe.gpl"))
			},
			want: `error: cannot import "pipe.gpl": it is a named pipe, not a regular file
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "pipe.gpl"
   |        ^^^^^^^^^^ not a regular file
`,
		},
		{
			name: "device",
			main: `import "null.gpl"` + "\n",
			setup: func(t *testing.T, dir string) {
				// A character device with /dev/null's numbers, made here.
				if err := pipewatch.MknodNull(filepath.Join(dir, "tree/null.gpl")); err != nil {
					t.Skipf("cannot make a device node: %v", err)
				}
			},
			want: `error: cannot import "null.gpl": it is a character device, not a regular file
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "null.gpl"
   |        ^^^^^^^^^^ not a regular file
`,
		},
		{
			name: "directory",
			main: `import "pools.gpl"` + "\n",
			setup: func(t *testing.T, dir string) {
				if err := os.Mkdir(filepath.Join(dir, "tree/pools.gpl"), 0o755); err != nil {
					t.Fatal(err)
				}
			},
			want: `error: cannot import "pools.gpl": it is a directory, not a regular file
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "pools.gpl"
   |        ^^^^^^^^^^^ not a regular file
`,
		},
		{
			name: "too_large",
			main: `import "big.gpl"` + "\n",
			setup: func(t *testing.T, dir string) {
				// Sparse: the size is all that is looked at.
				f, err := os.Create(filepath.Join(dir, "tree/big.gpl"))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if err := f.Truncate(MaxImportSize + 1); err != nil {
					t.Fatal(err)
				}
			},
			want: `error: cannot import "big.gpl": the file is 67108865 bytes, over the limit of 64 MiB on an imported file
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "big.gpl"
   |        ^^^^^^^^^ too large
`,
		},
		{
			name: "missing",
			main: `import "sub/missing.gpl"` + "\n",
			want: `error: cannot import "sub/missing.gpl": cannot read $DIR/tree/sub/missing.gpl: no such file
  --> $DIR/tree/main.gpl:1:8
   |
 1 | import "sub/missing.gpl"
   |        ^^^^^^^^^^^^^^^^^
`,
		},
		{
			name:  "itself_under_another_spelling",
			main:  "import \"../tree/main.gpl\"\nlet a = 1\n",
			files: []string{"tree/main.gpl"},
		},
		{
			name: "one_file_three_spellings",
			main: "import \"a.gpl\"\nimport \"./sub/../a.gpl\"\nimport \"alias.gpl\"\nimport \"hard.gpl\"\nlet b = a\n",
			setup: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, "tree/a.gpl"), "let a = 1\n")
				symlink(t, "a.gpl", filepath.Join(dir, "tree/alias.gpl"))
				if err := os.Link(filepath.Join(dir, "tree/a.gpl"), filepath.Join(dir, "tree/hard.gpl")); err != nil {
					t.Fatal(err)
				}
			},
			files: []string{"tree/main.gpl", "tree/a.gpl"},
		},
		{
			name: "import_cycle_back_to_the_loaded_file",
			main: "import \"sub/b.gpl\"\nlet a = 1\n",
			setup: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, "tree/sub/b.gpl"), "import \"../main.gpl\"\nlet b = a\n")
			},
			files: []string{"tree/main.gpl", "tree/sub/b.gpl"},
		},
		{
			// An error in an imported file quotes that file's line, and
			// nothing of the file that imports it.
			name: "error_in_imported_file",
			main: "import \"sub/b.gpl\"\nlet a = 1\n",
			setup: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, "tree/sub/b.gpl"), "let b = a\nlet c = b +\nlet d = 2\n")
			},
			want: `error: syntax error: expected an expression after "+", found end of statement
  --> $DIR/tree/sub/b.gpl:2:12
   |
 2 | let c = b +
   |            ^
`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "outside/secret.gpl"), secret)
			write(t, filepath.Join(dir, "shared/pools.gpl"), "let shared = 1\n")
			write(t, filepath.Join(dir, "tree/main.gpl"), strings.ReplaceAll(tc.main, "$DIR", dir))
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			opts := Options{}
			for _, a := range tc.allow {
				opts.AllowImports = append(opts.AllowImports, filepath.Join(dir, a))
			}
			got, files := loadOutput(t, opts, filepath.Join(dir, "tree/main.gpl"))
			got = strings.ReplaceAll(got, dir, "$DIR")
			want := strings.ReplaceAll(tc.want, "$CARETS", strings.Repeat("^", len(dir)+len(`""/outside/secret.gpl`)))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if strings.Contains(got, "hunter2") {
				t.Errorf("the output quotes a file outside the tree")
			}
			if tc.want == "" {
				var wantFiles []string
				for _, f := range tc.files {
					wantFiles = append(wantFiles, filepath.Join(dir, f))
				}
				for i := range files {
					files[i] = filepath.Clean(files[i])
				}
				if diff := cmp.Diff(wantFiles, files); diff != "" {
					t.Errorf("files loaded (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestImportTreeRelativeName loads a file by a relative name, as the
// command line does: the tree is that file's directory, and a .. from it
// is refused.
func TestImportTreeRelativeName(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "outside/secret.gpl"), secret)
	write(t, filepath.Join(dir, "tree/main.gpl"), "import \"../outside/secret.gpl\"\n")
	t.Chdir(dir)
	got, _ := loadOutput(t, Options{}, "tree/main.gpl")
	want := `error: cannot import "../outside/secret.gpl": the path leaves the import tree
  --> tree/main.gpl:1:8
   |
 1 | import "../outside/secret.gpl"
   |        ^^^^^^^^^^^^^^^^^^^^^^^ outside the tree
   = imports stay inside the directory of tree/main.gpl and below it; --allow-imports DIR adds a tree
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	// --allow-imports as given on the command line: relative to the
	// working directory.
	got, files := loadOutput(t, Options{AllowImports: []string{"outside"}}, "tree/main.gpl")
	if !strings.Contains(got, "hunter2") || len(files) != 2 {
		t.Errorf("with outside allowed, files %q and output:\n%s\nwant both files loaded and the secret's line quoted", files, got)
	}
}

// TestImportTreeFS is the same rules inside an fs.FS: the tree is the
// directory of the file loaded, .. may not leave it, links are followed
// and must stay in it, and a file is known by its path with links
// followed.
func TestImportTreeFS(t *testing.T) {
	fsys := fstest.MapFS{
		"secret.gpl":         {Data: []byte(secret)},
		"b/x.gpl":            {Data: []byte("let x = 1\n")},
		"a/x.gpl":            {Data: []byte("let y = 1\n")},
		"a/alias.gpl":        {Data: []byte("x.gpl"), Mode: fs.ModeSymlink},
		"a/up.gpl":           {Data: []byte("../secret.gpl"), Mode: fs.ModeSymlink},
		"a/far.gpl":          {Data: []byte("../../../etc/x.gpl"), Mode: fs.ModeSymlink},
		"a/rooted.gpl":       {Data: []byte("/a/x.gpl"), Mode: fs.ModeSymlink},
		"a/pipe.gpl":         {Mode: fs.ModeNamedPipe},
		"a/linkdir":          {Data: []byte("../b"), Mode: fs.ModeSymlink},
		"a/sub/inner.gpl":    {Data: []byte("import \"../x.gpl\"\nimport \"../../a/alias.gpl\"\n")},
		"a/sub/escapes.gpl":  {Data: []byte("import \"../../b/x.gpl\"\n")},
		"a/sub/uncleaned.gd": {Data: []byte("not read")},
	}
	note := "   = imports stay inside the directory of a/main.gpl and below it; --allow-imports DIR adds a tree\n"
	cases := []struct {
		name  string
		main  string
		allow []string
		want  string
		files []string
	}{
		{
			name: "dotdot_out_of_the_fs",
			main: `import "../../etc/passwd.gpl"`,
			want: `error: cannot import "../../etc/passwd.gpl": the path leaves the import tree
  --> a/main.gpl:1:8
   |
 1 | import "../../etc/passwd.gpl"
   |        ^^^^^^^^^^^^^^^^^^^^^^ outside the tree
` + note,
		},
		{
			name: "dotdot_to_a_sibling",
			main: `import "../b/x.gpl"`,
			want: `error: cannot import "../b/x.gpl": the path leaves the import tree
  --> a/main.gpl:1:8
   |
 1 | import "../b/x.gpl"
   |        ^^^^^^^^^^^^ outside the tree
` + note,
		},
		{
			name:  "dotdot_to_an_allowed_sibling",
			main:  `import "../b/x.gpl"`,
			allow: []string{"b"},
			files: []string{"a/main.gpl", "b/x.gpl"},
		},
		{
			name: "absolute",
			main: `import "/a/x.gpl"`,
			want: `error: cannot import "/a/x.gpl": an import path is relative to the importing file's directory, never absolute
  --> a/main.gpl:1:8
   |
 1 | import "/a/x.gpl"
   |        ^^^^^^^^^^ absolute path
`,
		},
		{
			name: "link_up_out_of_the_tree",
			main: `import "up.gpl"`,
			want: `error: cannot import "up.gpl": it is a symbolic link to a file outside the import tree
  --> a/main.gpl:1:8
   |
 1 | import "up.gpl"
   |        ^^^^^^^^ leads outside the tree
` + note,
		},
		{
			name: "link_out_of_the_fs",
			main: `import "far.gpl"`,
			want: `error: cannot import "far.gpl": it is a symbolic link to a file outside the import tree
  --> a/main.gpl:1:8
   |
 1 | import "far.gpl"
   |        ^^^^^^^^^ leads outside the tree
` + note,
		},
		{
			name: "absolute_link",
			main: `import "rooted.gpl"`,
			want: `error: cannot import "rooted.gpl": it is a symbolic link to a file outside the import tree
  --> a/main.gpl:1:8
   |
 1 | import "rooted.gpl"
   |        ^^^^^^^^^^^^ leads outside the tree
` + note,
		},
		{
			name: "linked_directory_out_of_the_tree",
			main: `import "linkdir/x.gpl"`,
			want: `error: cannot import "linkdir/x.gpl": it is a symbolic link to a file outside the import tree
  --> a/main.gpl:1:8
   |
 1 | import "linkdir/x.gpl"
   |        ^^^^^^^^^^^^^^^ leads outside the tree
` + note,
		},
		{
			name: "named_pipe",
			main: `import "pipe.gpl"`,
			want: `error: cannot import "pipe.gpl": it is a named pipe, not a regular file
  --> a/main.gpl:1:8
   |
 1 | import "pipe.gpl"
   |        ^^^^^^^^^^ not a regular file
`,
		},
		{
			name: "not_gpl",
			main: `import "sub/uncleaned.gd"`,
			want: `error: cannot import "sub/uncleaned.gd": only .gpl source files and .csv inventories can be imported
  --> a/main.gpl:1:8
   |
 1 | import "sub/uncleaned.gd"
   |        ^^^^^^^^^^^^^^^^^^ not a .gpl or .csv file
`,
		},
		{
			name:  "one_file_by_three_paths",
			main:  "import \"x.gpl\"\nimport \"sub/inner.gpl\"\nimport \"../a/main.gpl\"",
			files: []string{"a/main.gpl", "a/x.gpl", "a/sub/inner.gpl"},
		},
		{
			// An imported file's own imports stay in the tree of the
			// file loaded.
			name: "imported_file_escapes",
			main: `import "sub/escapes.gpl"`,
			want: `error: cannot import "../../b/x.gpl": the path leaves the import tree
  --> a/sub/escapes.gpl:1:8
   |
 1 | import "../../b/x.gpl"
   |        ^^^^^^^^^^^^^^^ outside the tree
` + note,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := copyFS(fsys)
			fsys["a/main.gpl"] = &fstest.MapFile{Data: []byte(tc.main + "\n")}
			got, files := loadOutput(t, Options{FS: fsys, AllowImports: tc.allow}, "a/main.gpl")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if tc.want == "" {
				if diff := cmp.Diff(tc.files, files); diff != "" {
					t.Errorf("files loaded (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// copyFS copies a MapFS, so that a case can add its main file.
func copyFS(m fstest.MapFS) fstest.MapFS {
	out := fstest.MapFS{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}
