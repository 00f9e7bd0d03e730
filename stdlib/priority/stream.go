package priority

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math/bits"
	"strconv"
)

// Problem is why a line of a request stream cannot be used.
type Problem uint8

// The problems a line of a request stream can have.
const (
	NoProblem       Problem = iota // the line is usable
	BlankLine                      // nothing but spaces, tabs or carriage returns
	InvalidJSON                    // not valid JSON
	NotAnObject                    // valid JSON, but not an object
	TrailingGarbage                // more after the object
	UnknownKey                     // a key that is not one of kapsl's
	DuplicateKey                   // a key given twice
	NotANumber                     // a value that is not a number (or a null for a required key)
	Negative                       // a negative number
	Fractional                     // a number that is not an integer
	TooLarge                       // a number at or above 2^53
	PriorityRange                  // a priority above 255
	LineTooLong                    // a line longer than the reader's limit (SetMaxLineSize)
)

// NumProblems is the number of Problems, NoProblem included; valid
// Problems are 0 through NumProblems-1.
const NumProblems = 13

var problemNames = [NumProblems]string{"no problem", "blank line", "invalid JSON", "not an object",
	"trailing garbage", "unknown key", "duplicate key", "not a number", "negative number",
	"fractional number", "number too large", "priority above 255", "line too long"}

// String names the problem in a few words, such as "blank line".
func (p Problem) String() string {
	if p < NumProblems {
		return problemNames[p]
	}
	return "Problem(" + strconv.Itoa(int(p)) + ")"
}

// LineError is the error for one bad line of a request stream.
type LineError struct {
	Line    int     // 1-based line number, counting blank lines
	Column  int     // 1-based byte column of the problem in the line
	Problem Problem // what kind of problem
	Key     string  // the JSON key the problem concerns, or "" for the whole line
	Msg     string  // what is wrong, in a sentence naming the key
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
// a UTF-8 byte order mark at the start of the stream is ignored. A line
// holding only spaces, tabs or carriage returns is blank, and blank lines
// are bad lines (Problem BlankLine) like any other: every line of the
// stream is reported, so results can be joined back to lines by position.
//
// A key that is not one of kapsl's is a bad line (Problem UnknownKey)
// unless SetIgnoreUnknownKeys(true) was called: then it is skipped, with
// its value, whatever that value is (a string, an object, an array), and
// IgnoredKeys counts it.
//
// A bad line does not stop the stream: Next returns true for it and Err
// describes its first problem. Lines may be of any length; memory use is
// bounded by the longest line, not by the length of the stream.
type StreamReader struct {
	r          io.Reader
	buf        []byte // buf[start:end] is read but not yet returned
	start, end int
	scanned    int // buf[start:scanned] is known to hold no newline
	line       []byte
	lineNo     int
	req        Request
	err        *LineError
	ioErr      error
	eof        bool
	wait       func()
	slowOnly   bool   // for tests: skip the fast scanner
	src        []byte // the whole input, for NewBytesStreamReader; nil for a reader
	offset     int64  // bytes taken from the input so far
	maxLine    int    // the longest line read, in bytes; 0 means DefaultMaxLineSize
	tooLong    bool   // the line readLine returned was cut: it was longer than maxLine
	ignore     bool   // skip keys that are not kapsl's (SetIgnoreUnknownKeys)
	ignored    int    // keys skipped on the current line
	onIgnored  func(key string, column int)
}

// OnIgnoredKey sets a function that Next calls for every key it skips as
// not kapsl's (with SetIgnoreUnknownKeys(true)), with the key and its
// 1-based byte column in the line, so that a caller can warn of a key that
// looks like a misspelt one of kapsl's. It is not called for a line that
// cannot be used.
func (s *StreamReader) OnIgnoredKey(f func(key string, column int)) { s.onIgnored = f }

// SetIgnoreUnknownKeys sets whether a key that is not one of kapsl's is
// skipped, with its value (true), or makes the line a bad one, Problem
// UnknownKey (false, the default). A request log usually carries more than
// the five keys (a request id, a model name, nested objects); reading one
// needs true. A known key given twice is still a bad line either way.
func (s *StreamReader) SetIgnoreUnknownKeys(ignore bool) { s.ignore = ignore }

// IgnoredKeys returns how many keys of the current line were skipped as
// not kapsl's; it is 0 unless SetIgnoreUnknownKeys(true) was called, and
// for a line that cannot be used.
func (s *StreamReader) IgnoredKeys() int { return s.ignored }

// DefaultMaxLineSize is the longest line, in bytes, a StreamReader reads
// unless SetMaxLineSize says otherwise: a request's metadata is a hundred
// bytes or so, and a longer line is reported (Problem LineTooLong) and
// skipped without being held in memory.
const DefaultMaxLineSize = 1 << 20

// SetMaxLineSize sets the longest line, in bytes, the reader reads; a
// longer one is a LineTooLong error, skipped without being held whole.
func (s *StreamReader) SetMaxLineSize(n int) { s.maxLine = n }

func (s *StreamReader) lineLimit() int {
	if s.maxLine > 0 {
		return s.maxLine
	}
	return DefaultMaxLineSize
}

// streamBufSize is the size of a StreamReader's buffer in bytes, and the
// most it asks its reader for at a time; longer lines grow the buffer.
const streamBufSize = 128 << 10

// NewStreamReader returns a StreamReader reading from r.
func NewStreamReader(r io.Reader) *StreamReader {
	return &StreamReader{r: r, buf: make([]byte, streamBufSize)}
}

// BytesWindow is how much more of a NewBytesStreamReader's input each
// step makes visible: the unit in which OnWait is called.
const BytesWindow = 1 << 20

// NewBytesStreamReader returns a StreamReader reading the lines of b, such
// as a memory-mapped file, in place: lines are not copied, and Line
// returns pieces of b. b must not change while the reader is in use. The
// input is taken in steps of a megabyte, with OnWait called before each,
// so a writer of results flushes and a progress bar advances as they do
// for a reader.
func NewBytesStreamReader(b []byte) *StreamReader {
	return &StreamReader{buf: b[:0:len(b)], src: b}
}

// InputOffset returns how many bytes of the input the reader has taken so
// far: read from its reader, or made visible of its bytes.
func (s *StreamReader) InputOffset() int64 { return s.offset }

// OnWait sets a function that Next calls just before it reads more input
// from its reader, that is, whenever every line already read has been
// returned and the next read may wait for more input. A writer of results
// can flush its output there, so that on a pipe or a terminal each result
// appears as soon as its line has arrived. It is called at most once per
// read of the underlying reader.
func (s *StreamReader) OnWait(f func()) { s.wait = f }

// Next advances to the next line. It returns false at the end of the
// stream or when reading fails (see IOErr); it returns true for a line
// that cannot be used (see Err).
func (s *StreamReader) Next() bool {
	s.err, s.ignored = nil, 0
	if s.lineNo > 0 && !s.slowOnly {
		// The usual line, parsed where it lies in the buffer: no separate
		// search for its end.
		b := s.buf[s.start:s.end]
		if end, ok := scanObject(b, &s.req); ok && end < len(b) && b[end] == '\n' && end <= s.lineLimit() {
			line := b[:end]
			if end > 0 && line[end-1] == '\r' {
				line = line[:end-1]
			}
			s.start += end + 1
			s.scanned = max(s.scanned, s.start)
			s.lineNo++
			s.line = line
			return true
		}
	}
	line, ok := s.readLine()
	if !ok && !s.tooLong {
		s.line = nil
		return false
	}
	if s.tooLong {
		s.tooLong = false
		s.lineNo++
		s.line = line
		s.req = NewRequest()
		s.err = &LineError{Line: s.lineNo, Column: s.lineLimit() + 1, Problem: LineTooLong,
			Msg: "the line is longer than " + strconv.Itoa(s.lineLimit()) + " bytes, the limit on one request line"}
		return true
	}
	if s.lineNo == 0 && bytes.HasPrefix(line, bom) {
		if line = line[len(bom):]; len(line) == 0 {
			return false // a byte order mark and nothing else
		}
	}
	s.lineNo++
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	s.line = line
	if s.slowOnly || !parseFast(line, &s.req) {
		if skipWS(line, 0) == len(line) {
			s.err = &LineError{Column: 1, Problem: BlankLine, Msg: "blank line: expected a JSON object"}
		} else {
			var keys []ignoredKey
			s.err, keys = parseSlow(line, &s.req, s.ignore)
			if s.err == nil {
				s.ignored = len(keys)
				if s.onIgnored != nil {
					for _, k := range keys {
						s.onIgnored(k.key, k.column)
					}
				}
			}
		}
		if s.err != nil {
			s.err.Line = s.lineNo
			s.req = NewRequest()
		}
	}
	return true
}

var bom = []byte("\xef\xbb\xbf")

// readLine returns the next line with its newline, if it has one, and
// false at the end of the input or on a read error.
func (s *StreamReader) readLine() ([]byte, bool) {
	for {
		if i := bytes.IndexByte(s.buf[s.scanned:s.end], '\n'); i >= 0 {
			j := s.scanned + i + 1
			line := s.buf[s.start:j]
			if len(bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))) > s.lineLimit() {
				s.tooLong = true
			}
			s.start, s.scanned = j, j
			if s.tooLong {
				line = line[:0]
			}
			return line, true
		}
		s.scanned = s.end
		if s.end-s.start > s.lineLimit() {
			// Too long to be a request: what is read of it is dropped, and
			// the rest is skipped up to its newline.
			s.tooLong = true
			s.start = s.end
		}
		if s.eof {
			if s.start == s.end {
				return nil, false
			}
			line := s.buf[s.start:s.end]
			if len(line) > s.lineLimit() {
				s.tooLong = true
			}
			s.start, s.scanned = s.end, s.end
			if s.tooLong {
				line = line[:0]
			}
			return line, true
		}
		s.fill()
	}
}

// fill reads more input into the buffer, first moving the unreturned bytes
// to its start, or growing it when they fill it.
func (s *StreamReader) fill() {
	if s.src != nil {
		if s.wait != nil {
			s.wait()
		}
		n := min(len(s.src)-s.end, BytesWindow)
		s.end += n
		s.buf = s.src[:s.end]
		s.offset += int64(n)
		s.eof = s.end == len(s.src)
		return
	}
	if s.start > 0 {
		n := copy(s.buf, s.buf[s.start:s.end])
		s.scanned -= s.start
		s.start, s.end = 0, n
	}
	if s.end == len(s.buf) {
		s.buf = append(s.buf, make([]byte, len(s.buf))...)
	}
	if s.wait != nil {
		s.wait()
	}
	// Stop at the first read that returns bytes: on a pipe, waiting for a
	// full buffer would hold back lines that have arrived.
	for {
		n, err := s.r.Read(s.buf[s.end:min(len(s.buf), s.end+streamBufSize)])
		s.end += n
		s.offset += int64(n)
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.ioErr = err
				s.start, s.end, s.scanned = 0, 0, 0 // a partial last line is not a line
			}
			return
		}
		if n > 0 {
			return
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

// Err returns the current line's problem, a *LineError, or nil if the
// line is usable.
func (s *StreamReader) Err() error {
	if s.err == nil {
		return nil
	}
	return s.err
}

// LineErr returns the current line's problem, or nil if the line is
// usable; it is Err without the interface.
func (s *StreamReader) LineErr() *LineError { return s.err }

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
func parseFast(line []byte, req *Request) bool {
	end, ok := scanObject(line, req)
	return ok && end == len(line)
}

// scanObject is the hot path of a stream. It parses the object at the
// start of b, with distinct known keys and valid integer or (for optional
// keys) null values, into req, and returns the index after it and the
// spaces, tabs and carriage returns that follow it; ok is false for
// anything else. It never looks past a newline, so it can run over a
// buffer of many lines: the object's line ends at the returned index if
// b holds a newline there. Keys are matched by their first byte and
// compared whole; integers are converted eight digits at a time.
func scanObject(b []byte, req *Request) (end int, ok bool) {
	req.Values = [NumFields]float64{Priority: 1, BatchSize: 1}
	req.Present = requiredFields
	n := len(b)
	i := 0
	if n == 0 || b[0] != '{' {
		if i = skipSpace(b, 0); i >= n || b[i] != '{' {
			return 0, false
		}
	}
	i++
	if i < n && b[i] != '"' {
		i = skipSpace(b, i)
		if i < n && b[i] == '}' {
			return skipSpace(b, i+1), true
		}
	}
	var seen FieldSet
	for {
		if i >= n || b[i] != '"' {
			return 0, false
		}
		// The key, with its closing quote, compared as words of eight
		// bytes: its first eight, its last eight and, past sixteen, the
		// eight between (keyWord).
		var f Field
		k := 0
		if i+10 <= n {
			switch b[i+1] {
			case 'p':
				f = Priority
			case 'b':
				f = BatchSize
			case 's':
				f = SLADeadline
			case 'i':
				f = InputSize
			case 'e':
				f = Flops
			default:
				return 0, false
			}
			kw := &keyWords[f]
			if k = kw.len; i+1+k > n ||
				word(b, i+1) != kw.first ||
				word(b, i+1+k-8) != kw.last ||
				k > 16 && word(b, i+9) != kw.mid {
				return 0, false
			}
		}
		if k == 0 || seen.Has(f) {
			return 0, false
		}
		seen = seen.With(f)
		i += 1 + k
		if i < n && b[i] == ':' {
			i++
		} else if i = skipSpace(b, i); i < n && b[i] == ':' {
			i++
		} else {
			return 0, false
		}
		if i < n && isSpace(b[i]) {
			i = skipSpace(b, i)
		}
		if i >= n {
			return 0, false
		}
		var v float64
		switch c := b[i]; {
		case '1' <= c && c <= '9':
			var u uint64
			j := i
			if i+8 <= n {
				// Up to eight digits in one step; longer runs go on in scanDigits.
				x := word(b, i)
				d := digitRun(x)
				u, j = eightDigits(x, d), i+d
				if d == 8 && i+16 <= n {
					x = word(b, i+8)
					d = digitRun(x)
					u, j = u*pow10[d]+eightDigits(x, d), j+d
					if d == 8 {
						j = i + 17 // 16 digits or more: numberAt decides
					}
				} else if d == 8 {
					var w uint64
					w, j = scanDigits(b, j)
					u = u*pow10[min(j-i-8, 8)] + w
				}
			} else {
				u, j = scanDigits(b, i)
			}
			if j-i > 15 || j < n && (b[j] == '.' || b[j] == 'e' || b[j] == 'E') {
				// Long, fractional or exponent form.
				if v, j, ok = numberAt(b, i); !ok {
					return 0, false
				}
			} else {
				v = float64(int64(u)) // u < 10^15: the signed conversion is one instruction
			}
			i = j
		case c == 'n':
			if n-i < 4 || string(b[i:i+4]) != "null" || !f.Optional() {
				return 0, false
			}
			i += 4
			goto next
		default:
			if v, i, ok = numberAt(b, i); !ok {
				return 0, false
			}
		}
		if f == Priority && v > MaxPriority {
			return 0, false
		}
		req.Values[f] = v
		req.Present |= 1 << f
	next:
		if i < n && b[i] == ',' {
			i++
			continue
		}
		if i < n && b[i] == '}' {
			if i+1 < n && b[i+1] == '\n' {
				return i + 1, true
			}
			return skipSpace(b, i+1), true
		}
		if i = skipSpace(b, i); i < n && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < n && b[i] == '}' {
			return skipSpace(b, i+1), true
		}
		return 0, false
	}
}

// keyWord is one of kapsl's keys with its closing quote, as the little-
// endian words of its first and last eight bytes and, for a key longer
// than sixteen bytes, of the eight from its ninth (input_size_bytes" is
// seventeen: the first and last words alone leave its ninth byte out).
type keyWord struct {
	first, mid, last uint64
	len              int
}

// keyWords holds each field's keyWord; every key is at least 9 bytes with
// its quote.
var keyWords = func() (kw [NumFields]keyWord) {
	for f := Field(0); f < NumFields; f++ {
		k := f.JSONKey() + `"`
		if len(k) > 24 || len(k) < 9 {
			// scanObject loads the key's words after checking only that
			// the line holds the whole key (word does not check again).
			panic("priority: a key of fewer than nine bytes or more than three words: " + k)
		}
		kw[f] = keyWord{first: binary.LittleEndian.Uint64([]byte(k)), last: binary.LittleEndian.Uint64([]byte(k[len(k)-8:])), len: len(k)}
		if len(k) > 16 {
			kw[f].mid = binary.LittleEndian.Uint64([]byte(k[8:]))
		}
	}
	return kw
}()

// skipSpace returns the index of the first byte at or after i that is not
// a space, tab or carriage return: JSON whitespace within a line.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// scanDigits converts the run of decimal digits at b[i:], returning its
// value (meaningful for runs of up to 15 digits) and the index after it.
// It takes eight digits at a time where the line has room for eight bytes.
func scanDigits(b []byte, i int) (uint64, int) {
	var u uint64
	for i+8 <= len(b) {
		x := word(b, i)
		k := digitRun(x)
		if k == 0 {
			return u, i
		}
		u = u*pow10[k] + eightDigits(x, k)
		i += k
		if k < 8 {
			return u, i
		}
	}
	for i < len(b) {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		u = u*10 + uint64(d)
		i++
	}
	return u, i
}

// digitRun returns how many of the eight bytes of x, first byte lowest,
// are ASCII digits before the first that is not.
func digitRun(x uint64) int {
	const hi, three, six = 0xF0F0F0F0F0F0F0F0, 0x3030303030303030, 0x0606060606060606
	// A byte c is a digit when c and c+6 both have 3 as their high nibble.
	// Adding 6 to a byte above 0xF9 carries into the next byte up, which
	// only ever follows a byte that is not a digit.
	m := ((x & hi) ^ three) | (((x + six) & hi) ^ three)
	return bits.TrailingZeros64(m) >> 3
}

// eightDigits returns the value of the first k (1 to 8) bytes of x, ASCII
// digits with the first lowest, as a decimal number.
func eightDigits(x uint64, k int) uint64 {
	x -= 0x3030303030303030
	x <<= 64 - 8*uint(k) // the digits to the top; zero digits below
	// Combine pairs of digits, then pairs of pairs, then the two halves.
	x = (x*10 + x>>8) & 0x00FF00FF00FF00FF
	x = (x*100 + x>>16) & 0x0000FFFF0000FFFF
	return (x*10000 + x>>32) & 0xFFFFFFFF
}

// numberAt parses the JSON number at b[i], returning its value and the
// index after it; ok is false unless it is a valid field value. It
// returns the value rather than storing it, so that the caller's value
// stays in a register.
func numberAt(b []byte, i int) (v float64, end int, ok bool) {
	end = scanNumber(b, i)
	if end < 0 {
		return 0, 0, false
	}
	x, e := decimalValue(b[i:end])
	if e != numOK {
		return 0, 0, false
	}
	return x, end, true
}

// ignoredKey is a key parseSlow skipped, and its 1-based column.
type ignoredKey struct {
	key    string
	column int
}

// parseSlow parses any line with encoding/json, storing the request in req
// or returning the line's first problem. With ignore, a key that is not
// kapsl's is skipped with its value, and returned in ignored.
func parseSlow(line []byte, req *Request, ignore bool) (_ *LineError, ignored []ignoredKey) {
	err := parseLine(line, req, ignore, &ignored)
	return err, ignored
}

func parseLine(line []byte, req *Request, ignore bool, ignored *[]ignoredKey) *LineError {
	*req = NewRequest()
	fail := func(at int, p Problem, key, msg string) *LineError {
		return &LineError{Column: at + 1, Problem: p, Key: key, Msg: msg}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return &LineError{Column: int(se.Offset), Problem: InvalidJSON, Msg: "invalid JSON: " + se.Error()}
		}
		return fail(len(line), InvalidJSON, "", "invalid JSON: unexpected end of line")
	}
	start := skipWS(line, 0)
	if line[start] != '{' {
		return fail(start, NotAnObject, "", "expected a JSON object, found "+kindOf(line[start]))
	}
	if t := skipWS(line, int(dec.InputOffset())); t < len(line) {
		return fail(t, TrailingGarbage, "", "trailing garbage after the JSON object")
	}
	dec = json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // the '{'
		return fail(start, InvalidJSON, "", "invalid JSON: "+err.Error())
	}
	var seen FieldSet
	for dec.More() {
		keyAt := skipSep(line, int(dec.InputOffset()))
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return fail(keyAt, InvalidJSON, "", "invalid JSON: expected an object key")
		}
		f, ok := keyField(key)
		if !ok && ignore {
			var skip json.RawMessage // the value, of any kind: the line is valid JSON
			if err := dec.Decode(&skip); err != nil {
				return fail(keyAt, InvalidJSON, "", "invalid JSON: "+err.Error())
			}
			*ignored = append(*ignored, ignoredKey{key, keyAt + 1})
			continue
		}
		if !ok {
			return fail(keyAt, UnknownKey, key, "unknown key "+strconv.Quote(key)+
				"; known keys are priority, sla_deadline, batch_size, input_size_bytes, estimated_flops")
		}
		if seen.Has(f) {
			return fail(keyAt, DuplicateKey, key, "duplicate key "+strconv.Quote(key))
		}
		seen = seen.With(f)
		valAt := skipSep(line, int(dec.InputOffset()))
		tok, err = dec.Token()
		if err != nil {
			return fail(valAt, InvalidJSON, "", "invalid JSON: "+err.Error())
		}
		name := f.JSONKey()
		switch tok := tok.(type) {
		case json.Number:
			v, e := decimalValue(string(tok))
			if e == numOK && f == Priority && v > MaxPriority {
				e = numPriorityRange
			}
			if e != numOK {
				return fail(valAt, e.problem(), name, name+": "+numMessage(string(tok), e))
			}
			req.Set(f, v)
		case nil:
			if !f.Optional() {
				return fail(valAt, NotANumber, name, name+" must be a number, not null")
			}
		default:
			return fail(valAt, NotANumber, name, name+" must be a number, not "+kindOf(line[valAt]))
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
