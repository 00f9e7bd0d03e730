package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "plan.gpl")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.gpl")
	if err := os.Symlink("plan.gpl", link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := writeFileAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(target)
	linfo, _ := os.Lstat(link)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	got := []string{string(b), info.Mode().Perm().String(), linfo.Mode().Type().String(), strings.Join(names, " ")}
	want := []string{"new", "-rw-r-----", "L---------", "link.gpl plan.gpl"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("[contents mode link-type entries] (-want +got):\n%s", diff)
	}
}
