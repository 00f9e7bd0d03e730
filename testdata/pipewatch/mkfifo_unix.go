//go:build unix

package pipewatch

import "syscall"

// Mkfifo makes a named pipe at path.
func Mkfifo(path string, mode uint32) error { return syscall.Mkfifo(path, mode) }

// MknodNull makes a character device at path with /dev/null's numbers
// (1, 3); it needs the privilege to.
func MknodNull(path string) error { return syscall.Mknod(path, syscall.S_IFCHR|0o644, 1<<8|3) }

// oNonblock opens without waiting for the other end.
const oNonblock = syscall.O_NONBLOCK
