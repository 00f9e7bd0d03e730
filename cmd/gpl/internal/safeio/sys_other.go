//go:build !unix

package safeio

import (
	"errors"
	"io/fs"
	"os"
)

// fileID is what a rewrite keeps of a file besides its mode; this system
// reports none of it, so a rewrite renames its copy into place.
type fileID struct {
	uid, gid int
	links    uint64
}

var errOwner = errors.New("cannot keep the owner")

func identity(fs.FileInfo) (*fileID, bool) { return nil, false }

func chown(*os.File, *fileID) error { return nil }

// checkWritable refuses a file without a write permission bit.
func checkWritable(target string, fi fs.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&0o200 == 0 {
		return &modeError{err: ErrReadOnly, what: "mode " + perm.String()}
	}
	return nil
}

func dupFile(fd int) (*os.File, error) {
	return nil, errors.New("writing to an open file descriptor by name is not supported here")
}
