// Package stdlib holds gpl's bundled library files, the ones a scenario
// reads with import "std/NAME". The engines live in its subpackages
// (goodput, priority), which know nothing of the language.
package stdlib

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// Files is the bundled library: NAME.gpl for each import "std/NAME".
//
//go:embed *.gpl
var Files embed.FS

// Names lists the libraries in fsys as import paths, e.g. "std/kapsl".
func Names(fsys fs.FS) []string {
	entries, _ := fs.ReadDir(fsys, ".")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".gpl"); ok {
			names = append(names, `"std/`+n+`"`)
		}
	}
	sort.Strings(names)
	return names
}
