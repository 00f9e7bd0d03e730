package priority

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
)

// LineError is the error for one bad line of a request stream.
type LineError struct {
	Line   int    // 1-based line number, counting blank lines
	Column int    // 1-based byte column of the problem in the line
	Msg    string // what is wrong
}

// Error returns "line L, column C: msg".
func (e *LineError) Error() string {
	return "line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ": " + e.Msg
}

// StreamReader reads request metadata in JSON Lines form: one JSON object
// per line with any of kapsl's keys priority, sla_deadline (milliseconds),
// batch_size, input_size_bytes (bytes) and estimated_flops. A missing key,
// or null for one of the three optional keys, leaves the field absent;
// priority and batch_size default to 1. Values must be integers in
// [0, 2^53), priority at most 255; integral numbers may be written in
// exponent or decimal form (1e3, 2.0).
//
// Lines end in "\n" or "\r\n"; the last line need not end in a newline;
// a UTF-8 byte order mark at the start of the stream is ignored. Lines
// holding only spaces, tabs or carriage returns are blank: they are counted
// in line numbers but otherwise skipped, without error.
//
// A bad line does not stop the stream: Next returns true for it and Err
// describes its first problem. Lines may be of any length; memory use is
// bounded by the longest line, not by the length of the stream.
type StreamReader struct {
	br       *bufio.Reader
	long     []byte // holds a line longer than br's buffer
	line     []byte
	lineNo   int
	req      Request
	err      *LineError
	ioErr    error
	eof      bool
	slowOnly bool // for tests: skip the fast scanner
}

// NewStreamReader returns a StreamReader reading from r.
func NewStreamReader(r io.Reader) *StreamReader {
	return &StreamReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// Next advances to the next non-blank line. It returns false at the end of
// the stream or when reading fails (see IOErr); it returns true for a line
// that does not parse (see Err).
func (s *StreamReader) Next() bool {
	s.err = nil
	s.line = nil
	for !s.eof {
		line, err := s.readLine()
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.ioErr = err
				return false
			}
			if len(line) == 0 {
				return false
			}
		}
		s.lineNo++
		if s.lineNo == 1 && bytes.HasPrefix(line, bom) {
			line = line[len(bom):]
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if skipWS(line, 0) == len(line) {
			continue
		}
		s.line = line
		if s.slowOnly || !parseFast(line, &s.req) {
			if s.err = parseSlow(line, &s.req); s.err != nil {
				s.err.Line = s.lineNo
				s.req = NewRequest()
			}
		}
		return true
	}
	return false
}

var bom = []byte("\xef\xbb\xbf")

func (s *StreamReader) readLine() ([]byte, error) {
	b, err := s.br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return b, err
	}
	s.long = append(s.long[:0], b...)
	for {
		b, err = s.br.ReadSlice('\n')
		s.long = append(s.long, b...)
		if err != bufio.ErrBufferFull {
			return s.long, err
		}
	}
}

// Request returns the current line's request. It is valid until the next
// call to Next; when Err is not nil it holds the defaults of NewRequest.
func (s *StreamReader) Request() *Request { return &s.req }

// Line returns the current line without its line ending (or byte order
// mark). It is valid until the next call to Next.
func (s *StreamReader) Line() []byte { return s.line }

// LineNumber returns the current line's 1-based number in the stream.
func (s *StreamReader) LineNumber() int { return s.lineNo }

// Err returns the current line's parse error, a *LineError, or nil if the
// line parsed.
func (s *StreamReader) Err() error {
	if s.err == nil {
		return nil
	}
	return s.err
}

// IOErr returns the error, other than io.EOF, that ended the stream.
func (s *StreamReader) IOErr() error { return s.ioErr }

// skipWS returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// keyField returns the field kapsl's JSON key names.
func keyField[T string | []byte](key T) (Field, bool) {
	switch string(key) {
	case "priority":
		return Priority, true
	case "sla_deadline":
		return SLADeadline, true
	case "batch_size":
		return BatchSize, true
	case "input_size_bytes":
		return InputSize, true
	case "estimated_flops":
		return Flops, true
	}
	return 0, false
}

// parseFast parses a line that is an object with distinct known keys and
// valid integer or (for optional keys) null values, storing it in req. It
// returns false for anything else, which parseSlow then examines.
func parseFast(b []byte, req *Request) bool {
	*req = NewRequest()
	n := len(b)
	i := skipWS(b, 0)
	if i >= n || b[i] != '{' {
		return false
	}
	i = skipWS(b, i+1)
	if i < n && b[i] == '}' {
		return skipWS(b, i+1) == n
	}
	var seen FieldSet
	for {
		if i >= n || b[i] != '"' {
			return false
		}
		k := i + 1
		for k < n && b[k] != '"' {
			k++
		}
		if k >= n {
			return false
		}
		f, ok := keyField(b[i+1 : k])
		if !ok || seen.Has(f) {
			return false
		}
		seen = seen.With(f)
		i = skipWS(b, k+1)
		if i >= n || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		if i >= n {
			return false
		}
		var v float64
		switch c := b[i]; {
		case '1' <= c && c <= '9':
			u := uint64(c - '0')
			j := i + 1
			for j < n && j-i < 16 && isDigit(b[j]) {
				u = u*10 + uint64(b[j]-'0')
				j++
			}
			if j < n && (isDigit(b[j]) || b[j] == '.' || b[j] == 'e' || b[j] == 'E') {
				// Long, fractional or exponent form.
				if j, ok = numberAt(b, i, &v); !ok {
					return false
				}
			} else {
				if u >= MaxExact {
					return false
				}
				v = float64(u)
			}
			i = j
		case c == 'n':
			if n-i < 4 || string(b[i:i+4]) != "null" || !f.Optional() {
				return false
			}
			i += 4
			goto next
		default:
			if i, ok = numberAt(b, i, &v); !ok {
				return false
			}
		}
		if f == Priority && v > MaxPriority {
			return false
		}
		req.Values[f] = v
		req.Present |= 1 << f
	next:
		i = skipWS(b, i)
		if i < n && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		if i < n && b[i] == '}' {
			return skipWS(b, i+1) == n
		}
		return false
	}
}

// numberAt parses the JSON number at b[i] into *v if it is a valid field
// value, returning the index after it.
func numberAt(b []byte, i int, v *float64) (int, bool) {
	end := scanNumber(b, i)
	if end < 0 {
		return 0, false
	}
	x, e := decimalValue(b[i:end])
	if e != numOK {
		return 0, false
	}
	*v = x
	return end, true
}

// parseSlow parses any line with encoding/json, storing the request in req
// or returning the line's first problem.
func parseSlow(line []byte, req *Request) *LineError {
	*req = NewRequest()
	fail := func(at int, msg string) *LineError { return &LineError{Column: at + 1, Msg: msg} }
	dec := json.NewDecoder(bytes.NewReader(line))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return &LineError{Column: int(se.Offset), Msg: "invalid JSON: " + se.Error()}
		}
		return fail(len(line), "invalid JSON: unexpected end of line")
	}
	start := skipWS(line, 0)
	if line[start] != '{' {
		return fail(start, "expected a JSON object, found "+kindOf(line[start]))
	}
	if t := skipWS(line, int(dec.InputOffset())); t < len(line) {
		return fail(t, "trailing garbage after the JSON object")
	}
	dec = json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // the '{'
		return fail(start, "invalid JSON: "+err.Error())
	}
	var seen FieldSet
	for dec.More() {
		keyAt := skipSep(line, int(dec.InputOffset()))
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return fail(keyAt, "invalid JSON: expected an object key")
		}
		f, ok := keyField(key)
		if !ok {
			return fail(keyAt, "unknown key "+strconv.Quote(key)+
				"; known keys are priority, sla_deadline, batch_size, input_size_bytes, estimated_flops")
		}
		if seen.Has(f) {
			return fail(keyAt, "duplicate key "+strconv.Quote(key))
		}
		seen = seen.With(f)
		valAt := skipSep(line, int(dec.InputOffset()))
		tok, err = dec.Token()
		if err != nil {
			return fail(valAt, "invalid JSON: "+err.Error())
		}
		name := f.JSONKey()
		switch tok := tok.(type) {
		case json.Number:
			v, e := decimalValue(string(tok))
			if e == numOK && f == Priority && v > MaxPriority {
				e = numPriorityRange
			}
			if e != numOK {
				return fail(valAt, name+": "+numMessage(string(tok), e))
			}
			req.Set(f, v)
		case nil:
			if !f.Optional() {
				return fail(valAt, name+" must be a number, not null")
			}
		default:
			return fail(valAt, name+" must be a number, not "+kindOf(line[valAt]))
		}
	}
	return nil
}

// skipSep skips whitespace and the separators ',' and ':'.
func skipSep(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n', ',', ':':
			i++
			continue
		}
		break
	}
	return i
}

// kindOf names the kind of JSON value that starts with c.
func kindOf(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
