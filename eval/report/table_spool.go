package report

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// spillBytes is how much of a table's rows a spool keeps in memory
// before it moves them to a temporary file.
var spillBytes = 1 << 20

// rowSpool holds a table's rows, in the order added, as bytes: in memory
// up to spillBytes (1 MiB), then in a temporary file, so that a table of a
// million rows (a sweep's points, a fleet's jobs) is not held in memory.
// gpl table must know every header before it writes its first row, and a
// table's headers are those of all its rows (a point that cannot be
// evaluated adds its error's columns), so the rows are kept until the
// last is made and then read back once, in order.
//
// A row is its number of cells, then each cell: its kind, the length of
// its text and the text (the lengths unsigned varints).
type rowSpool struct {
	mem  bytes.Buffer
	file *os.File // nil while the rows fit in mem
	name string   // the file's name while it could not be removed
	w    *bufio.Writer
	rows int
	err  error // the first error writing the file
	// inMemory is set once a temporary file could not be made: the
	// rows stay in mem, and no other file is tried.
	inMemory bool
	// scratch is the row being encoded.
	scratch []byte
	// longest is the length of the longest row encoded, in bytes.
	longest int
}

// add appends the row.
func (s *rowSpool) add(cells []Cell) {
	b := binary.AppendUvarint(s.scratch[:0], uint64(len(cells)))
	for _, c := range cells {
		b = append(b, byte(c.Kind))
		b = binary.AppendUvarint(b, uint64(len(c.Text)))
		b = append(b, c.Text...)
	}
	s.scratch = b
	s.longest = max(s.longest, len(b))
	s.rows++
	if s.err != nil {
		return
	}
	if s.file == nil {
		s.mem.Write(b)
		if s.mem.Len() > spillBytes && !s.inMemory {
			s.spill()
		}
		return
	}
	_, s.err = s.w.Write(b)
}

// spill moves the rows to a temporary file, which is removed at once
// where the system allows it (it stays readable while open) and else by
// close. A file that cannot be made leaves the rows in memory.
func (s *rowSpool) spill() {
	f, err := os.CreateTemp("", "gpl-table-*")
	if err != nil {
		s.inMemory = true
		return
	}
	if os.Remove(f.Name()) != nil {
		s.name = f.Name()
	}
	s.file, s.w = f, bufio.NewWriterSize(f, 64<<10)
	_, s.err = s.w.Write(s.mem.Bytes())
	s.mem = bytes.Buffer{}
}

// each reads the rows back in order, calling fn with each until it
// returns false; cells is reused from row to row. A row's texts are one
// string, which its cells share, not a string a cell.
func (s *rowSpool) each(fn func(cells []Cell) bool) error {
	if s.err != nil {
		return s.failed(s.err)
	}
	var r *bufio.Reader
	if s.file == nil {
		r = bufio.NewReader(bytes.NewReader(s.mem.Bytes()))
	} else {
		if err := s.w.Flush(); err != nil {
			return s.failed(err)
		}
		if _, err := s.file.Seek(0, io.SeekStart); err != nil {
			return s.failed(err)
		}
		r = bufio.NewReaderSize(s.file, 64<<10)
	}
	var cells []Cell
	var ends []int // where each cell's text ends in text
	var text []byte
	for range s.rows {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return s.failed(err)
		}
		cells, ends, text = cells[:0], ends[:0], text[:0]
		for range n {
			kind, err := r.ReadByte()
			if err != nil {
				return s.failed(err)
			}
			size, err := binary.ReadUvarint(r)
			if err != nil {
				return s.failed(err)
			}
			if size > uint64(s.longest) { // no cell added was longer
				return s.failed(errors.New("a cell longer than any row added"))
			}
			start := len(text)
			text = append(text, make([]byte, size)...)
			if _, err := io.ReadFull(r, text[start:]); err != nil {
				return s.failed(err)
			}
			cells = append(cells, Cell{Kind: CellKind(kind)})
			ends = append(ends, len(text))
		}
		row, start := string(text), 0
		for i, end := range ends {
			cells[i].Text = row[start:end]
			start = end
		}
		if !fn(cells) {
			return nil
		}
	}
	return nil
}

// failed is err as the spool's: an error of the temporary file's.
func (s *rowSpool) failed(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("the table's rows, kept in a temporary file: %w", err)
}

// close removes the temporary file, if any.
func (s *rowSpool) close() error {
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	if s.name != "" {
		if rerr := os.Remove(s.name); err == nil {
			err = rerr
		}
	}
	s.file, s.w, s.name = nil, nil, ""
	return err
}
