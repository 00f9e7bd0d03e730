//go:build !unix

package srcfile

// openFlags: this system opens files without such flags.
const openFlags = 0
