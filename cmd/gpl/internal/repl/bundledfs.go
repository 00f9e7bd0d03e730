package repl

import (
	"io/fs"
	"os"
	"strings"

	"github.com/gpl-lang/gpl/scenarios"
)

// bundledFS is where a session that loaded a bundled scenario reads its
// imports: the working directory, as any session does, except for the
// CSV inventories bundled beside the scenarios (scenarios.Files), which a
// bundled scenario's relative imports name (import "fleet_inventory.csv").
// Links in the working directory are followed under the import rules, as
// on the operating system (fs.ReadLinkFS).
type bundledFS struct{ dir fs.FS }

func newBundledFS() bundledFS { return bundledFS{os.DirFS(".")} }

// bundled reports whether name is an inventory the scenarios carry.
func bundled(name string) bool {
	if !strings.HasSuffix(name, ".csv") {
		return false
	}
	_, err := fs.Stat(scenarios.Files, name)
	return err == nil
}

func (b bundledFS) Open(name string) (fs.File, error) {
	if bundled(name) {
		return scenarios.Files.Open(name)
	}
	return b.dir.Open(name)
}

func (b bundledFS) Stat(name string) (fs.FileInfo, error) {
	if bundled(name) {
		return fs.Stat(scenarios.Files, name)
	}
	return fs.Stat(b.dir, name)
}

// Lstat is Stat for a bundled file (the scenarios hold no links).
func (b bundledFS) Lstat(name string) (fs.FileInfo, error) {
	if bundled(name) {
		return fs.Stat(scenarios.Files, name)
	}
	if rl, ok := b.dir.(fs.ReadLinkFS); ok {
		return rl.Lstat(name)
	}
	return fs.Stat(b.dir, name)
}

func (b bundledFS) ReadLink(name string) (string, error) {
	if rl, ok := b.dir.(fs.ReadLinkFS); ok && !bundled(name) {
		return rl.ReadLink(name)
	}
	return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
}
