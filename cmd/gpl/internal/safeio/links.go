package safeio

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxLinks is how many symbolic links are followed before giving up, as
// Linux does for one path.
const maxLinks = 40

// linkTarget is the file that path names once symbolic links are followed;
// it need not exist (a link may point to a file not yet written).
func linkTarget(path string) (string, error) {
	target, _, err := follow(path, false)
	return target, err
}

// reportTarget is like linkTarget, but stops at a name for one of the
// process's open file descriptors and returns its number (else -1).
func reportTarget(path string) (target string, fd int, err error) {
	return follow(path, true)
}

// follow resolves path one symbolic link at a time. With fds, a name for
// an open descriptor ends the walk: /dev/stdout is a link to
// /proc/self/fd/1, which is in turn a link to whatever fd 1 is — a
// regular file when the shell redirected it, whose name would lose the
// offset the shell's writes have reached.
func follow(path string, fds bool) (string, int, error) {
	for range maxLinks {
		if fds {
			if fd, ok := descriptorName(path); ok {
				return path, fd, nil
			}
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return path, -1, nil // not a link (or not there): path is the file
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", -1, fmt.Errorf("too many levels of symbolic links")
}

// descriptorName reports whether path names one of this process's open
// file descriptors, and which.
func descriptorName(path string) (int, bool) {
	path = filepath.Clean(path)
	switch path {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"} {
		if n, ok := strings.CutPrefix(path, dir); ok {
			if fd, err := strconv.Atoi(n); err == nil && fd >= 0 {
				return fd, true
			}
		}
	}
	return 0, false
}
