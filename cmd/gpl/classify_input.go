package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/schollz/progressbar/v3"
)

// The magic bytes that start a compressed stream.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// requestSource is one opened input: a reader, or, for a regular file
// that is not compressed, the file mapped into memory.
type requestSource struct {
	r      io.Reader
	mapped *mappedFile
	close  func()
}

// openRequests opens one input and, when its first bytes say it is gzip
// or zstd, decompresses it. A regular file is mapped into memory where the
// system allows, which saves copying it into a buffer; anything else is
// read. Reading the first bytes never waits for more than the first read
// brings unless they could start a compressed stream, so a live stream's
// first line is not held back.
func openRequests(e *env, in input, bar *progress) (*requestSource, error) {
	src := &requestSource{r: e.stdin, close: func() {}}
	var f *os.File // the file to map, if it is one
	if in.arg == "-" {
		f, _ = e.stdin.(*os.File)
	} else {
		var err error
		if f, err = os.Open(in.arg); err != nil {
			return nil, errors.New(errorText(err))
		}
		src.r, src.close = f, func() { f.Close() }
	}
	if f != nil {
		if m, ok := mapFile(f); ok {
			closeIn := src.close
			src.close = func() { m.unmap(); closeIn() }
			if data := m.data(); !bytes.HasPrefix(data, gzipMagic) && !bytes.HasPrefix(data, zstdMagic) {
				src.mapped = m
				return src, nil
			}
			src.r = bytes.NewReader(m.data())
		}
	}
	r := src.r
	if bar != nil {
		r = &countingReader{r: r, bar: bar}
	}
	head, err := readMagic(r)
	if err != nil {
		src.close()
		return nil, err
	}
	r = io.MultiReader(bytes.NewReader(head), r)
	closeIn := src.close
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		zr, err := gzip.NewReader(r)
		if err != nil {
			closeIn()
			return nil, fmt.Errorf("gzip: %v", err)
		}
		ra, stop := readAhead(zr, "gzip")
		src.r, src.close = ra, func() { stop(); zr.Close(); closeIn() }
	case bytes.HasPrefix(head, zstdMagic):
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
		if err != nil {
			closeIn()
			return nil, fmt.Errorf("zstd: %v", err)
		}
		ra, stop := readAhead(zr, "zstd")
		src.r, src.close = ra, func() { stop(); zr.Close(); closeIn() }
	default:
		src.r = r
	}
	return src, nil
}

// readMagic reads the first bytes of r: up to four, but it stops as soon
// as what it has read cannot start gzip or zstd magic, or at the end of
// the input.
func readMagic(r io.Reader) ([]byte, error) {
	head := make([]byte, 0, len(zstdMagic))
	for len(head) < cap(head) && couldBeMagic(head) {
		n, err := r.Read(head[len(head):cap(head)])
		head = head[:len(head)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return head, nil
}

// couldBeMagic reports whether head is a proper prefix of some magic.
func couldBeMagic(head []byte) bool {
	return bytes.HasPrefix(gzipMagic, head) && len(head) < len(gzipMagic) ||
		bytes.HasPrefix(zstdMagic, head) && len(head) < len(zstdMagic)
}

// readAhead decompresses r on a goroutine of its own, a few buffers ahead
// of the reader, so that on a machine with a second core decompression
// and classification overlap. Errors name the format. stop ends the
// goroutine and returns once it has stopped reading r.
func readAhead(r io.Reader, format string) (ra io.Reader, stop func()) {
	const nbuf, size = 4, 256 << 10
	a := &aheadReader{full: make(chan chunk, nbuf), free: make(chan []byte, nbuf), format: format}
	for range nbuf {
		a.free <- make([]byte, size)
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			var buf []byte
			select {
			case buf = <-a.free:
			case <-quit:
				return
			}
			n, err := fillFrom(r, buf)
			a.full <- chunk{buf[:n], err}
			if err != nil {
				return
			}
		}
	}()
	return a, func() { close(quit); <-done }
}

// fillFrom reads from r until buf is full or r fails; unlike io.ReadFull
// it keeps r's own error, so a clean end stays io.EOF and a truncated
// stream stays io.ErrUnexpectedEOF.
func fillFrom(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		k, err := r.Read(buf[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

type chunk struct {
	b   []byte
	err error
}

// aheadReader is the reading end of readAhead.
type aheadReader struct {
	full   chan chunk
	free   chan []byte
	cur    chunk
	off    int
	format string
}

func (a *aheadReader) Read(p []byte) (int, error) {
	for a.off == len(a.cur.b) {
		if a.cur.err != nil {
			if a.cur.err == io.EOF {
				return 0, io.EOF
			}
			return 0, fmt.Errorf("%s: %w", a.format, a.cur.err)
		}
		if a.cur.b != nil {
			a.free <- a.cur.b[:cap(a.cur.b)]
		}
		a.cur, a.off = <-a.full, 0
	}
	n := copy(p, a.cur.b[a.off:])
	a.off += n
	return n, nil
}

// progress draws a progress bar on stderr: bytes of input read, their
// share of the total, lines per second and the time left. Bytes may be
// counted on any goroutine; the bar is drawn from the classifying one.
type progress struct {
	bar   *progressbar.ProgressBar
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
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionSetDescription("classifying"),
	)
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
	p.bar.Set64(p.read.Load())
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

// isTerminalWriter reports whether w is a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
