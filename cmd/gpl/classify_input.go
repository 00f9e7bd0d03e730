package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// The magic bytes that start a compressed stream.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// requestSource is one opened input: a reader and what closes it.
type requestSource struct {
	r     io.Reader
	close func()
}

// openRequests opens one input and, when its first bytes say it is gzip
// or zstd, decompresses it. Every input, a regular file too, is read with
// read() into the stream reader's one reused buffer: mapping a file
// instead, with its pages given back behind the reader, cost more in
// system time and page faults than the copy it saved. Reading the first
// bytes never waits for more than the first read brings unless they could
// start a compressed stream, so a live stream's first line is not held
// back.
func openRequests(e *env, in input, bar *progress) (*requestSource, error) {
	src := &requestSource{r: againReader{e.stdin}, close: func() {}}
	if in.arg != "-" {
		f, err := os.Open(in.arg)
		if err != nil {
			return nil, errors.New(errorText(err))
		}
		src.r, src.close = f, func() { f.Close() }
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
