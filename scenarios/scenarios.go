// Package scenarios holds gpl's bundled scenario files, each a worked,
// commented example that `gpl test scenarios` keeps true; `gpl run NAME`
// runs one by name.
package scenarios

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// Files holds NAME.gpl for every bundled scenario.
//
//go:embed *.gpl
var Files embed.FS

// Default is the scenario the README's first command runs.
const Default = "llama2_70b_shared_pool_128"

// Names lists the bundled scenarios, without the .gpl suffix.
func Names() []string {
	entries, _ := fs.ReadDir(Files, ".")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".gpl"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Summary is the first comment line of a scenario, for listings.
func Summary(name string) string {
	b, err := fs.ReadFile(Files, name+".gpl")
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(strings.TrimPrefix(line, "#"))
}
