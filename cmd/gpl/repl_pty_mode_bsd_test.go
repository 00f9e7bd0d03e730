//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package main

import "golang.org/x/sys/unix"

// readsKeys reports whether the terminal behind the pty master fd is in
// the line editor's mode, where Ctrl-C is a key and not a signal (ISIG
// off).
func readsKeys(fd uintptr) bool {
	tio, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	return err == nil && tio.Lflag&unix.ISIG == 0
}
