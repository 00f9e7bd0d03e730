package eval

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBadInputsListed keeps the README's "Errors" table and testdata/bad
// the same list: a case added to one is added to the other.
func TestBadInputsListed(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Errors\n")
	if !ok {
		t.Fatal(`README.md has no "## Errors" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^\\| \\[`([a-z0-9_]+)`\\]\\(testdata/bad/([a-z0-9_]+)\\.gpl\\) \\|").FindAllStringSubmatch(section, -1) {
		if m[1] != m[2] {
			t.Errorf("row %s links to testdata/bad/%s.gpl", m[1], m[2])
		}
		listed = append(listed, m[1])
	}
	files, err := filepath.Glob("../testdata/bad/*.gpl")
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, f := range files {
		cases = append(cases, strings.TrimSuffix(filepath.Base(f), ".gpl"))
	}
	if diff := cmp.Diff(cases, listed); diff != "" {
		t.Errorf("README.md's Errors table against testdata/bad (-cases +listed):\n%s", diff)
	}
}
