package main

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/cmd/gpl/internal/termbar"
)

// progress draws a progress bar on stderr: bytes of input read, their
// share of the total, lines per second and the time left. Bytes may be
// counted on any goroutine; the bar is drawn from the classifying one.
type progress struct {
	bar   *termbar.Bar
	read  atomic.Int64
	start time.Time
	last  time.Time
}

// newProgress returns a progress bar when one is wanted: stderr is a
// terminal, every input is a regular file, and --no-progress is not
// given. Otherwise it returns nil, on which every method does nothing.
func newProgress(o classifyOptions, e *env, ins []input) *progress {
	if o.noProgress || !isTerminalWriter(e.stderr) {
		return nil
	}
	var total int64
	for _, in := range ins {
		if in.arg == "-" {
			return nil
		}
		st, err := os.Stat(in.arg)
		if err != nil || !st.Mode().IsRegular() {
			return nil
		}
		total += st.Size()
	}
	return startProgress(e.stderr, total)
}

// startProgress draws a bar for total bytes of input on w.
func startProgress(w io.Writer, total int64) *progress {
	bar := termbar.New(w, total, termbar.Options{
		Description: "classifying",
		Width:       30,
		Throttle:    100 * time.Millisecond,
		Bytes:       true,
	})
	now := time.Now()
	return &progress{bar: bar, start: now, last: now}
}

// add counts n more bytes of input read; it may be called on any
// goroutine.
func (p *progress) add(n int) {
	if p != nil {
		p.read.Add(int64(n))
	}
}

// update redraws the bar, at most a few times a second, with the lines
// classified so far.
func (p *progress) update(lines int) {
	if p == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	rate := float64(lines) / now.Sub(p.start).Seconds()
	p.bar.Describe(fmt.Sprintf("%d lines, %.2fM lines/s", lines, rate/1e6))
	p.bar.Set(p.read.Load())
}

// clear takes the bar off the terminal before a message is written; the
// next update draws it again.
func (p *progress) clear() {
	if p != nil {
		p.bar.Clear()
	}
}

// finish takes the bar away for good.
func (p *progress) finish() {
	if p != nil {
		p.bar.Exit()
		p.bar.Clear()
	}
}

// countingReader tells a progress bar how many bytes have been read.
type countingReader struct {
	r   io.Reader
	bar *progress
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.bar.add(n)
	return n, err
}

// isTerminalWriter reports whether w is a terminal (see cli.IsTerminal).
func isTerminalWriter(w io.Writer) bool { return cli.IsTerminal(w) }
