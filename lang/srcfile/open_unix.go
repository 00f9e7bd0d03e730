//go:build unix

package srcfile

import "syscall"

// openFlags open a file without waiting: were it swapped for a named pipe
// after being looked at, the open would not wait for a writer (and the
// look through the descriptor then refuses it).
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
