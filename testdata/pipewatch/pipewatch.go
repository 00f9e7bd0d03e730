// Package pipewatch tells tests whether a named pipe was opened for
// reading while it was watched, without waiting on the clock.
//
// A goroutine opens the pipe for writing, which returns only once
// something opens it to read; a reader that opened it reads it as empty,
// and does not hang. The reader cannot see the end of the pipe before
// the writer closes it, and the writer records the open before it
// closes: so once the reader is done, its open is recorded. Stop opens
// the pipe itself to let the writer go, and is told apart by a flag set
// before it does.
package pipewatch

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

// A Watch watches one named pipe.
type Watch struct {
	path     string
	released atomic.Bool
	opened   atomic.Bool
	openErr  error // the writer's; read only after done
	done     chan struct{}
	stopOnce sync.Once
	stopErr  error
}

// Start watches the named pipe at path.
func Start(path string) (*Watch, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if info.Mode()&os.ModeNamedPipe == 0 {
		return nil, fmt.Errorf("%s is not a named pipe", path)
	}
	w := &Watch{path: path, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			w.openErr = err
			return
		}
		w.opened.Store(!w.released.Load())
		f.Close()
	}()
	return w, nil
}

// Stop ends the watch and reports whether something opened the pipe to
// read it since Start. It may be called more than once.
func (w *Watch) Stop() (opened bool, err error) {
	w.stopOnce.Do(func() {
		w.released.Store(true)
		// Opening to read without waiting succeeds with no writer, and
		// lets the writer's open return.
		r, err := os.OpenFile(w.path, os.O_RDONLY|oNonblock, 0)
		if err != nil {
			w.stopErr = err
			return
		}
		<-w.done
		r.Close()
		w.stopErr = w.openErr
	})
	return w.opened.Load(), w.stopErr
}
