//go:build unix

package safeio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// fileID is what a rewrite keeps of a file besides its mode.
type fileID struct {
	uid, gid int
	links    uint64
}

// errOwner marks a copy whose owner or group could not be set.
var errOwner = errors.New("cannot keep the owner")

// identity is fi's owner, group and link count, when the system says.
func identity(fi fs.FileInfo) (*fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, false
	}
	return &fileID{uid: int(st.Uid), gid: int(st.Gid), links: uint64(st.Nlink)}, true
}

// chown gives f id's owner and group.
func chown(f *os.File, id *fileID) error {
	if err := f.Chown(id.uid, id.gid); err != nil {
		return fmt.Errorf("%w: %v", errOwner, err)
	}
	return nil
}

// checkWritable refuses a file the user may not write. The mode bits are
// judged first and by gpl itself, since root passes the system's check
// whatever they say: no write bit at all, or none for the owner when the
// user is the owner, means read-only. Then the system is asked, for a user
// the file's group or other bits exclude, or a read-only file system.
func checkWritable(target string, fi fs.FileInfo) error {
	perm := fi.Mode().Perm()
	readOnly := &modeError{err: ErrReadOnly, what: "mode " + perm.String()}
	if perm&0o222 == 0 {
		return readOnly
	}
	if id, ok := identity(fi); ok && id.uid == os.Geteuid() && perm&0o200 == 0 {
		return readOnly
	}
	const wOK = 2 // W_OK of access(2)
	switch err := syscall.Access(target, wOK); {
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return readOnly
	case err != nil:
		return failed("check write permission", err)
	}
	return nil
}

// dupFile is a new *os.File for a duplicate of the descriptor fd, which the
// caller closes without closing fd.
func dupFile(fd int) (*os.File, error) {
	nfd, err := syscall.Dup(fd)
	if err != nil {
		return nil, failed(fmt.Sprintf("duplicate file descriptor %d", fd), err)
	}
	syscall.CloseOnExec(nfd)
	return os.NewFile(uintptr(nfd), fmt.Sprintf("/dev/fd/%d", fd)), nil
}
