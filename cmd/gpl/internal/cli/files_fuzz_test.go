package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/testdata/pipewatch"
)

// FuzzFindFiles builds a directory tree from the input, one entry a byte —
// .gpl files and others, directories (hidden, testdata, vendor), FIFOs,
// character devices and symbolic links (to files, to directories, broken,
// looping) — and checks that FindFiles finds exactly the regular .gpl
// files a walk should, opens nothing, and ends.
func FuzzFindFiles(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{2, 0, 0, 7, 3, 8, 0})
	f.Add([]byte{5, 9, 9, 6, 0})
	f.Fuzz(func(t *testing.T, plan []byte) {
		if len(plan) > 64 {
			plan = plan[:64]
		}
		root := t.TempDir()
		dirs := []string{root}
		var want []string
		hidden := map[string]bool{} // directories the walk leaves out
		fifos := map[string]*pipewatch.Watch{}
		defer func() {
			for _, w := range fifos {
				w.Stop()
			}
		}()
		for i, b := range plan {
			dir := dirs[int(b>>4)%len(dirs)]
			skipped := hidden[dir]
			name := filepath.Join(dir, fmt.Sprintf("e%d", i))
			var err error
			switch b % 10 {
			case 0: // a plan
				err = os.WriteFile(name+".gpl", []byte("let a = 1\n"), 0o644)
				if !skipped {
					want = append(want, name+".gpl")
				}
			case 1: // not a plan
				err = os.WriteFile(name+".txt", nil, 0o644)
			case 2: // a directory
				err = os.Mkdir(name, 0o755)
				dirs = append(dirs, name)
				hidden[name] = skipped
			case 3: // a hidden directory
				err = os.Mkdir(filepath.Join(dir, fmt.Sprintf(".h%d", i)), 0o755)
				dirs = append(dirs, filepath.Join(dir, fmt.Sprintf(".h%d", i)))
				hidden[dirs[len(dirs)-1]] = true
			case 4: // testdata or vendor, whose files are fixtures
				skip := "testdata"
				if i%2 == 1 {
					skip = "vendor"
				}
				fixtures := filepath.Join(dir, fmt.Sprintf("t%d", i), skip)
				err = os.MkdirAll(fixtures, 0o755)
				dirs = append(dirs, fixtures)
				hidden[fixtures] = true
			case 5: // a FIFO named like a plan, watched for a reader
				if err = pipewatch.Mkfifo(name+".gpl", 0o644); err == nil {
					var w *pipewatch.Watch
					if w, err = pipewatch.Start(name + ".gpl"); err == nil {
						fifos[name+".gpl"] = w
					}
				}
			case 6: // a character device named like a plan (tests run as root)
				err = pipewatch.MknodNull(name + ".gpl")
			case 7: // a link to a plan written before, if any
				target := filepath.Join(root, "e0.gpl")
				err = os.Symlink(target, name+".gpl")
				if st, serr := os.Stat(target); serr == nil && st.Mode().IsRegular() && !skipped {
					want = append(want, name+".gpl")
				}
			case 8: // a broken link
				err = os.Symlink(filepath.Join(root, "missing.gpl"), name+".gpl")
			case 9: // a link to a directory above: walks do not follow it
				err = os.Symlink(root, name)
			}
			if err != nil {
				t.Skipf("cannot make the tree here: %v", err)
			}
		}
		got, ferr := FindFiles([]string{root})
		if ferr != nil {
			t.Fatal(ferr)
		}
		for name, w := range fifos {
			if opened, err := w.Stop(); err != nil || opened {
				t.Errorf("FIFO %s: opened %v, %v; want it never opened", strings.ReplaceAll(name, root, "ROOT"), opened, err)
			}
		}
		sort.Strings(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("plan %v (-want +got):\n%s", plan, strings.ReplaceAll(diff, root, "ROOT"))
		}
	})
}
