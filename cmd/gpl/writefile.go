package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeFileAtomic replaces the contents of the file at path with data so
// that a reader sees the old contents or the new, never a mix: it writes a
// temporary file in the same directory and renames it over the file. The
// file keeps its permission bits; a new one gets 0644. A symbolic link is
// followed, so its target is what changes (and is created if missing), and
// the link stays a link. On failure the temporary file is removed and the
// file is left as it was. gpl fmt -w, gpl test -update, the JUnit report,
// the REPL's :save and its history all write through it.
func writeFileAtomic(path string, data []byte) (err error) {
	path, err = linkTarget(path)
	if err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// maxLinks is how many symbolic links linkTarget follows before it gives
// up, as Linux does for a path.
const maxLinks = 40

// linkTarget is the file that path names once symbolic links are followed;
// it need not exist (a link may point to a file not yet written).
func linkTarget(path string) (string, error) {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		return p, nil
	}
	for range maxLinks {
		dest, err := os.Readlink(path)
		if err != nil {
			return path, nil // not a link: path is the file
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}
