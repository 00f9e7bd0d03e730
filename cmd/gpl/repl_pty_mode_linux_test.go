package main

import "golang.org/x/sys/unix"

// readsKeys reports whether the terminal behind the pty master fd is in
// the line editor's mode, where Ctrl-C is a key and not a signal (ISIG
// off); Linux reads the pair's termios through the master.
func readsKeys(fd uintptr) bool {
	tio, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil && tio.Lflag&unix.ISIG == 0
}
