package main

import (
	"errors"
	"io"
	"syscall"
	"time"
)

// againReader reads stdin, retrying a read that fails with EAGAIN. Under
// wasip1 a runtime may hand a program its stdin in non-blocking mode (a
// pipe from head, say), and Go's wasip1 port then returns "read
// /dev/stdin: Try again" whenever the writer is slower than the reader,
// where a blocking read would wait. Elsewhere Go's poller waits itself and
// EAGAIN never reaches the caller, so the wrapper changes nothing there.
type againReader struct{ r io.Reader }

// againWait is how long a read waits before trying again.
const againWait = time.Millisecond

func (a againReader) Read(p []byte) (int, error) {
	for {
		n, err := a.r.Read(p)
		if n > 0 || !errors.Is(err, syscall.EAGAIN) {
			return n, err
		}
		time.Sleep(againWait)
	}
}
