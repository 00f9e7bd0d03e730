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

// Files holds NAME.gpl for every bundled scenario, and the CSV
// inventories (NAME.csv) that scenarios import.
//
//go:embed *.gpl *.csv
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

// Summary is the first paragraph of a scenario's opening comment, on one
// line, for listings: the # lines at the top of the file up to the first
// empty # line.
func Summary(name string) string {
	b, err := fs.ReadFile(Files, name+".gpl")
	if err != nil {
		return ""
	}
	return firstParagraph(string(b))
}

// firstParagraph joins the comment lines that open src, up to the first
// empty comment line or the first line that is not a comment, with single
// spaces.
func firstParagraph(src string) string {
	var words []string
	for line := range strings.Lines(src) {
		text, ok := strings.CutPrefix(strings.TrimSpace(line), "#")
		if !ok {
			break
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			break
		}
		words = append(words, fields...)
	}
	return strings.Join(words, " ")
}
