package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// FindFiles lists the .gpl files under the paths, sorted and without
// duplicates. A file argument is taken as is; below a directory argument,
// hidden files and directories (.git among them) and directories named
// testdata or vendor are skipped, as the go command skips them: they hold
// fixtures (bad inputs, golden pairs, files only an importer may read),
// not suites. A directory named as an argument is always walked.
func FindFiles(args []string) ([]string, error) {
	seen := map[string]bool{}
	var files []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			if os.IsNotExist(err) {
				return nil, fmt.Errorf("%s: no such file or directory", arg)
			}
			return nil, err
		}
		if !info.IsDir() {
			add(filepath.Clean(arg))
			continue
		}
		root := filepath.Clean(arg)
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p != root && skipWalk(p, d) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			// Only regular files, or links to one: a FIFO or a device
			// named *.gpl would block or never end when read.
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".gpl") && regular(p, d) {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

// skipWalk reports whether the walk leaves p out: hidden entries (editor
// and tool state, gpl's own temporary files, .git) and directories named
// testdata or vendor (Go's convention), whose files are fixtures.
func skipWalk(p string, d fs.DirEntry) bool {
	if strings.HasPrefix(d.Name(), ".") {
		return true
	}
	return d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor")
}

// regular reports whether the walked entry is a regular file, following a
// symbolic link.
func regular(p string, d fs.DirEntry) bool {
	if d.Type().IsRegular() {
		return true
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}
