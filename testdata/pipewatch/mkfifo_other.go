//go:build !unix

package pipewatch

import "errors"

// Mkfifo makes a named pipe at path; this system has none, so it returns
// errors.ErrUnsupported.
func Mkfifo(path string, mode uint32) error { return errors.ErrUnsupported }

// MknodNull makes a character device at path; this system cannot, so it
// returns errors.ErrUnsupported.
func MknodNull(path string) error { return errors.ErrUnsupported }

// oNonblock is no flag here: without named pipes nothing waits.
const oNonblock = 0
