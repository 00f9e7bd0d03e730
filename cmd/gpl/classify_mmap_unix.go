//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// mappedFile is a file mapped into memory, read-only.
type mappedFile struct {
	all     []byte // the whole file
	at      int    // where the input starts in it
	dropped int    // all[:dropped] has been given back
}

// mapFile maps a regular file into memory and moves its offset to the end
// as reading it would; the input is the rest of the file from its current
// offset. ok is false when f is not a regular file, nothing of it is left
// or the system refuses; then f is untouched and is to be read.
func mapFile(f *os.File) (m *mappedFile, ok bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() != int64(int(st.Size())) {
		return nil, false
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil || at >= st.Size() {
		return nil, false
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, false
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		_ = syscall.Munmap(data)
		return nil, false
	}
	// The file is read once, front to back.
	_ = syscall.Madvise(data, syscall.MADV_SEQUENTIAL)
	return &mappedFile{all: data, at: int(at)}, true
}

// data returns the input: the file from the offset it had.
func (m *mappedFile) data() []byte { return m.all[m.at:] }

// release tells the system that the input's first n bytes are done with,
// so that the pages holding them no longer count towards the process's
// memory: it stays the same however large the file. Touching them again
// would only read them again.
func (m *mappedFile) release(n int) {
	end := (m.at + n) &^ (os.Getpagesize() - 1)
	if end > m.dropped {
		_ = syscall.Madvise(m.all[m.dropped:end], syscall.MADV_DONTNEED)
		m.dropped = end
	}
}

// unmap ends the mapping.
func (m *mappedFile) unmap() { _ = syscall.Munmap(m.all) }
