package safeio

import (
	"errors"
	"io/fs"
	"syscall"
)

// ErrNotRegular is the reason a source rewrite is refused when the path
// names a directory, a named pipe, a device or a socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrReadOnly is the reason a write is refused when the file's mode gives
// the user no write permission, or the system denies it.
var ErrReadOnly = errors.New("the file is read-only")

// Error is a write to a file or stream that failed or was refused. Its
// message names the file as the user gave it, never a temporary file.
type Error struct {
	Path string // the file or stream, as the caller named it
	Op   string // what was being done: "rewrite", "write", "write to"
	Err  error  // why: ErrNotRegular, ErrReadOnly, or the system's error
}

// Error returns "Op Path: reason", e.g. "rewrite plan.gpl: the file is
// read-only (mode -r--r--r--)".
func (e *Error) Error() string {
	return e.Op + " " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns the reason, so that errors.Is(err, ErrReadOnly) and
// errors.Is(err, syscall.ENOSPC) work.
func (e *Error) Unwrap() error { return e.Err }

// IsBrokenPipe reports whether err is a write to a pipe whose reader has
// gone away (EPIPE), which a command-line tool ends on quietly.
func IsBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }

// failed describes a step that failed by what it was doing and the
// system's error, dropping the path of a *fs.PathError, which would name a
// temporary file the user never sees.
func failed(step string, err error) error {
	return &opError{op: step, err: cause(err)}
}

// cause is the system's error inside a *fs.PathError, or err.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// opError is a system call's failure without the path it was given.
type opError struct {
	op  string
	err error
}

func (e *opError) Error() string { return e.op + ": " + e.err.Error() }
func (e *opError) Unwrap() error { return e.err }

// modeError is a refusal with the mode it was judged by.
type modeError struct {
	err  error
	what string // e.g. "mode -r--r--r--" or "a named pipe"
}

func (e *modeError) Error() string { return e.err.Error() + " (" + e.what + ")" }
func (e *modeError) Unwrap() error { return e.err }
