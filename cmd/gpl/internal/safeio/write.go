package safeio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
		return createFile(target, bytesOf(data))
	case err != nil:
		return failed("stat", err)
	case !fi.Mode().IsRegular():
		return &modeError{err: ErrNotRegular, what: srcfile.Kind(fi.Mode())}
	}
	return replaceRegular(target, fi, bytesOf(data))
}

// WriteReport writes data, a report gpl generated, to path. A path that
// names one of the process's open file descriptors (/dev/stdout,
// /dev/fd/N, /proc/self/fd/N) is written through that descriptor, at its
// current offset; an existing file that is not a regular file is opened
// and written directly; a regular file is replaced as by RewriteSource,
// and a missing one created. The error, if any, is an *Error naming path.
func WriteReport(path string, data []byte) error {
	return WriteReportFrom(path, bytesOf(data))
}

// WriteReportFrom is WriteReport for a report written as it is made
// (gpl table -o of a sweep of a million points): write is called once
// with the destination, through a buffer, and writes the report to it,
// so that the report need not be held. The destination is WriteReport's:
// a regular file, or a missing one, gets the report in a temporary copy
// beside it that replaces it only once write has returned nil; a
// descriptor, a named pipe or a device is written directly.
//
// When write returns an error (the report could not be made to the end:
// a sweep failed at some point), a regular file is left exactly as it
// was, a missing one is not created, and the temporary copy is removed;
// a descriptor, a pipe or a device has then received the part written
// before the error, which nothing can take back. That error is returned
// as write returned it, not wrapped; an error writing the destination
// itself is an *Error naming path, as WriteReport's.
func WriteReportFrom(path string, write func(w io.Writer) error) error {
	err := writeReport(path, write)
	var made *madeError
	if errors.As(err, &made) {
		return made.err
	}
	if err != nil {
		return &Error{Path: path, Op: "write", Err: err}
	}
	return nil
}

// content writes a file's new contents to w: a report as it is made, or
// bytes already made (bytesOf). It fails with a *madeError when the
// contents could not be made, with the write's error when w failed.
type content func(w io.Writer) error

// bytesOf is the content data.
func bytesOf(data []byte) content {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// madeError is content's own failure, not a write's: the error write
// returned while the writes it made had all succeeded.
type madeError struct{ err error }

func (e *madeError) Error() string { return e.err.Error() }
func (e *madeError) Unwrap() error { return e.err }

// writeTo writes c to f through a buffer: the error of a write to f, as
// failed(step) describes it, or a *madeError when c failed on its own.
func writeTo(f io.Writer, c content, step string) error {
	tw := &trackedWriter{w: f}
	bw := bufio.NewWriterSize(tw, 64<<10)
	err := c(bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr // and what was made before a failure is written too
	}
	switch {
	case tw.err != nil:
		return failed(step, tw.err)
	case err != nil:
		return &madeError{err}
	}
	return nil
}

// trackedWriter remembers the first error of its writes to w.
type trackedWriter struct {
	w   io.Writer
	err error
}

func (t *trackedWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil && t.err == nil {
		t.err = err
	}
	return n, err
}

func writeReport(path string, c content) error {
	target, fd, err := reportTarget(path)
	if err != nil {
		return err
	}
	if fd >= 0 {
		return writeDescriptor(fd, c)
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createFile(target, c)
	case err != nil:
		return failed("stat", err)
	case fi.IsDir():
		return &modeError{err: ErrNotRegular, what: srcfile.Kind(fi.Mode())}
	case !fi.Mode().IsRegular():
		return writeSpecial(target, c)
	}
	return replaceRegular(target, fi, c)
}

// writeSpecial writes c to a named pipe or a device by opening it,
// without creating or truncating anything.
func writeSpecial(target string, c content) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return failed("open", err)
	}
	werr := writeTo(f, c, "write")
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	if cerr != nil {
		return failed("close", cerr)
	}
	return nil
}

// createFile creates target, which does not exist, with c: through a
// temporary copy renamed into place, so no half-written file appears.
func createFile(target string, c content) error {
	tmp, err := writeCopy(target, c, newFileMode, nil)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return failed("rename the new copy into place", err)
	}
	return nil
}

// replaceRegular replaces the regular file target, whose information is
// fi, with c.
func replaceRegular(target string, fi fs.FileInfo, c content) error {
	if err := checkWritable(target, fi); err != nil {
		return err
	}
	id, hasID := identity(fi)
	tmp, err := writeCopy(target, c, fi.Mode()&keptModeBits, id)
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
	if err := copyInPlace(target, tmp); err != nil {
		return fmt.Errorf("%w; the new text is in %s", err, tmp)
	}
	os.Remove(tmp)
	return nil
}

// writeCopy writes c to a new temporary file beside target, with mode
// and, when id is not nil, id's owner and group, and syncs it. It returns
// the temporary file's name; on failure, c's own included, it removes the
// file, except that an error wrapping errOwner means only the owner could
// not be set and the copy is complete.
func writeCopy(target string, c content, mode fs.FileMode, id *fileID) (name string, err error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.gpl-new")
	if err != nil {
		return "", failed("create a temporary copy in "+dir, err)
	}
	tmp := f.Name() // name is "" once a failure is returned
	defer func() {
		if err != nil && !errors.Is(err, errOwner) {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := writeTo(f, c, "write the temporary copy"); err != nil {
		return "", err
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
		return tmp, ownerErr
	}
	return tmp, nil
}

// copyInPlace overwrites target's contents with those of the complete
// temporary copy tmp without replacing the file: the same inode, so its
// hard links, owner and mode stay.
func copyInPlace(target, tmp string) error {
	src, err := os.Open(tmp)
	if err != nil {
		return failed("open the temporary copy", err)
	}
	defer src.Close()
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return failed("open", err)
	}
	defer f.Close()
	n, err := io.Copy(f, src) // from offset 0 of both
	if err != nil {
		return failed("write", err)
	}
	if err := f.Truncate(n); err != nil {
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

// writeDescriptor writes c to the open file descriptor fd through a
// duplicate of it, which shares its offset, so the write lands where the
// process's own output has got to.
func writeDescriptor(fd int, c content) error {
	f, err := dupFile(fd)
	if err != nil {
		return err
	}
	werr := writeTo(f, c, "write")
	cerr := f.Close()
	if werr != nil {
		return werr
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
