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
// duplicates. A file argument is taken as is; a directory argument stands
// for the files WalkDir finds under it. A directory named as an argument
// is always walked.
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
		found, err := WalkDir(arg)
		if err != nil {
			return nil, err
		}
		for _, p := range found {
			add(p)
		}
	}
	sort.Strings(files)
	return files, nil
}

// WalkDir lists the .gpl files below the directory root, in lexical order:
// the one walk of every verb that takes a directory (check, test, fmt).
// Hidden files and directories (editor and tool state, gpl's own temporary
// files, .git) and directories named testdata or vendor (fixtures, as the
// go command takes them) are skipped, and only regular
// files, or symbolic links to one, are listed: a named pipe or a device
// named *.gpl would block or never end when read, and the walk opens
// nothing to find out (it reads what the directory says, and stats a
// link).
func WalkDir(root string) ([]string, error) {
	root = filepath.Clean(root)
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != root && skipWalk(p, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".gpl") && regular(p, d) {
			files = append(files, p)
		}
		return nil
	})
	return files, err
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
