package safeio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gpl-lang/gpl/lang/srcfile"
)

// newFileMode is the mode of a file that did not exist before.
const newFileMode fs.FileMode = 0o644

// keptModeBits are the bits of a file's mode a rewrite keeps.
const keptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// RewriteSource replaces the contents of the source file at path with data,
// keeping its mode, owner where it can, and hard links. It refuses a path
// that is not a regular file and a file the user may not write, leaving it
// untouched. A missing file is created with mode 0644. The error, if any,
// is an *Error naming path.
func RewriteSource(path string, data []byte) error {
	if err := rewriteSource(path, data); err != nil {
		return &Error{Path: path, Op: "rewrite", Err: err}
	}
	return nil
}

func rewriteSource(path string, data []byte) error {
	target, err := linkTarget(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createFile(target, data)
	case err != nil:
		return failed("stat", err)
	case !fi.Mode().IsRegular():
		return &modeError{err: ErrNotRegular, what: srcfile.Kind(fi.Mode())}
	}
	return replaceRegular(target, fi, data)
}

// WriteReport writes data, a report gpl generated, to path. A path that
// names one of the process's open file descriptors (/dev/stdout,
// /dev/fd/N, /proc/self/fd/N) is written through that descriptor, at its
// current offset; an existing file that is not a regular file is opened
// and written directly; a regular file is replaced as by RewriteSource,
// and a missing one created. The error, if any, is an *Error naming path.
func WriteReport(path string, data []byte) error {
	if err := writeReport(path, data); err != nil {
		return &Error{Path: path, Op: "write", Err: err}
	}
	return nil
}

func writeReport(path string, data []byte) error {
	target, fd, err := reportTarget(path)
	if err != nil {
		return err
	}
	if fd >= 0 {
		return writeDescriptor(fd, data)
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createFile(target, data)
	case err != nil:
		return failed("stat", err)
	case fi.IsDir():
		return &modeError{err: ErrNotRegular, what: srcfile.Kind(fi.Mode())}
	case !fi.Mode().IsRegular():
		return writeSpecial(target, data)
	}
	return replaceRegular(target, fi, data)
}

// writeSpecial writes data to a named pipe or a device by opening it,
// without creating or truncating anything.
func writeSpecial(target string, data []byte) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return failed("open", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil {
		return failed("write", werr)
	}
	if cerr != nil {
		return failed("close", cerr)
	}
	return nil
}

// createFile creates target, which does not exist, with data: through a
// temporary copy renamed into place, so no half-written file appears.
func createFile(target string, data []byte) error {
	tmp, err := writeCopy(target, data, newFileMode, nil)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return failed("rename the new copy into place", err)
	}
	return nil
}

// replaceRegular replaces the regular file target, whose information is fi.
func replaceRegular(target string, fi fs.FileInfo, data []byte) error {
	if err := checkWritable(target, fi); err != nil {
		return err
	}
	id, hasID := identity(fi)
	tmp, err := writeCopy(target, data, fi.Mode()&keptModeBits, id)
	ownerKept := err == nil || !errors.Is(err, errOwner)
	if errors.Is(err, errOwner) {
		err = nil
	}
	if err != nil {
		return err
	}
	if !hasID || id.links <= 1 && ownerKept {
		if err := os.Rename(tmp, target); err != nil {
			os.Remove(tmp)
			return failed("rename the new copy into place", err)
		}
		return nil
	}
	if err := copyInPlace(target, data); err != nil {
		return fmt.Errorf("%w; the new text is in %s", err, tmp)
	}
	os.Remove(tmp)
	return nil
}

// writeCopy writes data to a new temporary file beside target, with mode
// and, when id is not nil, id's owner and group, and syncs it. It returns
// the temporary file's name; on failure it removes the file, except that
// an error wrapping errOwner means only the owner could not be set and the
// copy is complete.
func writeCopy(target string, data []byte, mode fs.FileMode, id *fileID) (name string, err error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.gpl-new")
	if err != nil {
		return "", failed("create a temporary copy in "+dir, err)
	}
	name = f.Name()
	defer func() {
		if err != nil && !errors.Is(err, errOwner) {
			f.Close()
			os.Remove(name)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return "", failed("write the temporary copy", err)
	}
	var ownerErr error
	if id != nil {
		ownerErr = chown(f, id) // before chmod: chown clears set-user-ID
	}
	if err := f.Chmod(mode); err != nil {
		return "", failed("chmod the temporary copy", err)
	}
	if err := f.Sync(); err != nil {
		return "", failed("sync the temporary copy", err)
	}
	if err := f.Close(); err != nil {
		return "", failed("close the temporary copy", err)
	}
	if ownerErr != nil {
		return name, ownerErr
	}
	return name, nil
}

// copyInPlace overwrites target's contents with data without replacing the
// file: the same inode, so its hard links, owner and mode stay.
func copyInPlace(target string, data []byte) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return failed("open", err)
	}
	defer f.Close()
	if _, err := f.WriteAt(data, 0); err != nil {
		return failed("write", err)
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return failed("truncate", err)
	}
	if err := f.Sync(); err != nil {
		return failed("sync", err)
	}
	if err := f.Close(); err != nil {
		return failed("close", err)
	}
	return nil
}

// writeDescriptor writes data to the open file descriptor fd through a
// duplicate of it, which shares its offset, so the write lands where the
// process's own output has got to.
func writeDescriptor(fd int, data []byte) error {
	f, err := dupFile(fd)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil {
		return failed("write", werr)
	}
	if cerr != nil {
		return failed("close", cerr)
	}
	return nil
}

// MakeReportDir creates the missing directories above path, the
// destination of a report (gpl test --junit reports/gpl.xml, gpl report -o
// out/page.html), with mode 0755, so that a report can be written where
// no directory stands yet. Callers call it before the work whose result
// is the report, so that a destination that can never be written is told
// before the tests run. Nothing existing is changed: a component that
// exists and is not a directory is an error, as is a directory that
// cannot be created. The file itself is not created. The error, if any,
// is an *Error naming path.
func MakeReportDir(path string) error {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &Error{Path: path, Op: "create the directory for", Err: err}
	}
	return nil
}
