package safeio

import (
	"io"
	"sync"
)

// Writer passes writes on to a stream and remembers the first that fails;
// after it, every write fails at once with the same error and writes
// nothing. A verb prints through it without checking each print, and its
// caller checks Err once at the end. It is safe for concurrent use.
type Writer struct {
	name string
	mu   sync.Mutex
	w    io.Writer
	err  error
}

// NewWriter wraps w, which the messages call name (e.g. "standard output").
func NewWriter(w io.Writer, name string) *Writer {
	return &Writer{name: name, w: w}
}

// Write writes p to the stream unless an earlier write failed.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.err = &Error{Path: w.name, Op: "write to", Err: cause(err)}
	}
	return n, w.err
}

// Err is the first write's error, an *Error naming the stream, or nil.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Unwrap is the stream written to, for a caller that needs to know
// whether it is a terminal.
func (w *Writer) Unwrap() io.Writer { return w.w }
