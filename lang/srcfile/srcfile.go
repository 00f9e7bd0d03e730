// Package srcfile is the one way gpl opens a file it reads as source: a
// .gpl file named on the command line or imported, a file the REPL's
// :load reads, a golden file gpl test compares with. Every verb reads
// through it, so that none of them can block on a named pipe, read a
// device without end or hold more than the size limit:
//
//   - the file is looked at (stat, which follows symbolic links) before
//     it is opened, and anything that is not a regular file — a directory,
//     a named pipe, a socket, a character or block device — is refused
//     without being opened, since opening a named pipe waits for a writer;
//   - a regular file larger than the limit is refused from its size, before
//     any of it is read;
//   - the file is opened without waiting (O_NONBLOCK, where the system has
//     it) and looked at again through the open descriptor: a file swapped
//     for another between the two looks is refused;
//   - the read stops at the limit plus one byte, so a file that grows, or
//     one whose size says less than it holds (/proc), is refused rather
//     than read without end.
//
// Kind names a file's type in the words every refusal uses, here and in
// the writes of cmd/gpl/internal/safeio.
package srcfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/gpl-lang/gpl/lang"
)

// MaxSize is the largest source file, in bytes: the language's limit
// (lang.DefaultMaxFileSize, 64 MiB).
const MaxSize = lang.DefaultMaxFileSize

// ErrNotRegular is why a file that is not a regular file is refused.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is why a file over the size limit is refused.
var ErrTooLarge = errors.New("over the size limit")

// ErrChanged is why a file is refused that was swapped for another between
// being looked at and being opened.
var ErrChanged = errors.New("it changed while being opened")

// Error is a file that could not be read, or was refused.
type Error struct {
	Path string // as the caller named it
	// Kind is what the file is (Kind's words), when it is not a regular
	// file.
	Kind string
	// Size is the file's size in bytes when it is over Max; -1 when its
	// size was within Max but reading it went past (a file that grew, or
	// one whose size says less than it holds, as in /proc).
	Size, Max int64
	Err       error // ErrNotRegular, ErrTooLarge, ErrChanged or the system's
}

// Error is "cannot read PATH: " and the Reason.
func (e *Error) Error() string { return "cannot read " + e.Path + ": " + e.Reason() }

// Reason says why, without the path: "it is a named pipe, not a regular
// file", "it is 68157451 bytes, over the limit of 64 MiB", "no such file".
func (e *Error) Reason() string {
	switch {
	case errors.Is(e.Err, ErrNotRegular):
		return "it is " + e.Kind + ", not a regular file"
	case errors.Is(e.Err, ErrTooLarge) && e.Size < 0:
		return "it holds more than the limit of " + Bytes(e.Max)
	case errors.Is(e.Err, ErrTooLarge):
		return "it is " + strconv.FormatInt(e.Size, 10) + " bytes, over the limit of " + Bytes(e.Max)
	case errors.Is(e.Err, fs.ErrNotExist):
		return "no such file"
	}
	var pe *fs.PathError
	if errors.As(e.Err, &pe) {
		return pe.Err.Error()
	}
	return e.Err.Error()
}

// Unwrap is the reason, for errors.Is(err, ErrNotRegular) and
// errors.Is(err, fs.ErrNotExist).
func (e *Error) Unwrap() error { return e.Err }

// Hint is what to do about a refusal of ReadFile, Read or ReadFS, as a
// diagnostic's note ("hint: …"), or "" for an error that is not one.
func Hint(err error) string {
	var e *Error
	switch {
	case !errors.As(err, &e):
		return ""
	case errors.Is(err, ErrNotRegular) && e.Kind == "a directory":
		return "hint: name a .gpl file; gpl check and gpl test read every .gpl file under a directory"
	case errors.Is(err, ErrNotRegular):
		return "hint: gpl reads source only from a regular file, which it can read whole (a pipe or a device could block or never end); save the text to a file and name that"
	case errors.Is(err, ErrTooLarge):
		return "hint: split it into files that import one another"
	}
	return ""
}

// Bytes words a size limit in the largest binary unit that divides it:
// "64 MiB".
func Bytes(n int64) string {
	for _, u := range []struct {
		sym  string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n > 0 && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + " " + u.sym
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Kind names a file's type in the user's words: "a regular file", "a
// directory", "a named pipe", "a socket", "a character device", "a block
// device", "a symbolic link", else "a special file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

// Check refuses, from what a stat says, a file that is not a regular file
// or is larger than max bytes; path names it in the error.
func Check(path string, info fs.FileInfo, max int64) error {
	if !info.Mode().IsRegular() {
		return &Error{Path: path, Kind: Kind(info.Mode()), Err: ErrNotRegular}
	}
	if info.Size() > max {
		return &Error{Path: path, Size: info.Size(), Max: max, Err: ErrTooLarge}
	}
	return nil
}

// ReadFile reads the regular file at path, following symbolic links, and
// no more than max bytes of it; see the package comment for what it
// refuses. The error is an *Error naming path.
func ReadFile(path string, max int64) ([]byte, error) {
	b, _, err := Read(path, max)
	return b, err
}

// Read is ReadFile that also returns what the file is, as stat said
// before it was opened (for telling two names of one file apart).
func Read(path string, max int64) ([]byte, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, &Error{Path: path, Err: err}
	}
	if err := Check(path, info, max); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, &Error{Path: path, Err: err}
	}
	defer f.Close()
	now, err := f.Stat()
	if err != nil {
		return nil, nil, &Error{Path: path, Err: err}
	}
	if !os.SameFile(info, now) {
		return nil, nil, &Error{Path: path, Err: ErrChanged}
	}
	if err := Check(path, now, max); err != nil {
		return nil, nil, err
	}
	b, err := readAtMost(f, path, max, now.Size())
	return b, info, err
}

// ReadFS reads the regular file name of fsys, no more than max bytes of
// it, refusing what ReadFile refuses (the stat comes from fs.Stat, then
// from the opened file).
func ReadFS(fsys fs.FS, name string, max int64) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, &Error{Path: name, Err: err}
	}
	if err := Check(name, info, max); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, &Error{Path: name, Err: err}
	}
	defer f.Close()
	now, err := f.Stat()
	if err != nil {
		return nil, &Error{Path: name, Err: err}
	}
	if err := Check(name, now, max); err != nil {
		return nil, err
	}
	return readAtMost(f, name, max, now.Size())
}

// ReadStream reads r, standard input for instance, refusing it past max
// bytes: it reads max+1 at most.
func ReadStream(r io.Reader, name string, max int64) ([]byte, error) {
	return readAtMost(r, name, max, 0)
}

// readAtMost reads r to its end, or to max+1 bytes, which is an error.
// size is what stat said the file holds (0 when unknown): the buffer is
// made that large at once, not grown by doubling from nothing.
func readAtMost(r io.Reader, name string, max, size int64) ([]byte, error) {
	lr := io.LimitReader(r, max+1)
	size = min(size, max)
	if size < 0 {
		size = 0
	}
	b := make([]byte, 0, 512+size)
	for {
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &Error{Path: name, Err: err}
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew since its stat
		}
	}
	if int64(len(b)) > max {
		return nil, &Error{Path: name, Size: -1, Max: max, Err: ErrTooLarge}
	}
	return b, nil
}
