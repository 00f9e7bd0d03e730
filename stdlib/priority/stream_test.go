package priority

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// lineResult is what a StreamReader reports for one line.
type lineResult struct {
	Line    int
	Text    string
	Request Request
	Err     string
}

// readAll reads a whole stream, optionally with the fast scanner disabled.
func readAll(t testing.TB, input string, slowOnly bool) ([]lineResult, error) {
	t.Helper()
	s := NewStreamReader(strings.NewReader(input))
	s.slowOnly = slowOnly
	var out []lineResult
	for s.Next() {
		res := lineResult{Line: s.LineNumber(), Text: string(s.Line()), Request: *s.Request()}
		if err := s.Err(); err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Line != s.LineNumber() {
				t.Fatalf("Err() = %#v, want a *LineError for line %d", err, s.LineNumber())
			}
			res.Err = err.Error()
		}
		out = append(out, res)
	}
	return out, s.IOErr()
}

func req(fields ...any) Request {
	r := NewRequest()
	for i := 0; i < len(fields); i += 2 {
		r.Set(fields[i].(Field), fields[i+1].(float64))
	}
	return r
}

func TestStreamLines(t *testing.T) {
	def := NewRequest()
	tests := []struct {
		name string
		line string
		want Request
		err  string
	}{
		{"kapsl example", `{"priority":1,"sla_deadline":200,"batch_size":16,"input_size_bytes":10000000,"estimated_flops":10000000000}`,
			req(Priority, 1.0, SLADeadline, 200.0, BatchSize, 16.0, InputSize, 1e7, Flops, 1e10), ""},
		{"empty object", `{}`, def, ""},
		{"spaces everywhere", " \t{ \"batch_size\" :\t8 , \"priority\" : 0 } \t", req(BatchSize, 8.0, Priority, 0.0), ""},
		{"null optional", `{"sla_deadline":null,"estimated_flops":5}`, req(Flops, 5.0), ""},
		{"exponent", `{"input_size_bytes":1e3,"estimated_flops":2.5E9}`, req(InputSize, 1000.0, Flops, 2.5e9), ""},
		{"integral decimal", `{"batch_size":2.0,"sla_deadline":1.50e1}`, req(BatchSize, 2.0, SLADeadline, 15.0), ""},
		{"negative zero", `{"sla_deadline":-0}`, req(SLADeadline, 0.0), ""},
		{"largest", `{"estimated_flops":9007199254740991,"priority":255}`, req(Flops, 9007199254740991.0, Priority, 255.0), ""},
		{"escaped key", `{"prio\u0072ity":0,"batch_\u0073ize":3}`, req(Priority, 0.0, BatchSize, 3.0), ""},

		{"malformed", `{"priority":1,}`, def, "line 1, column 15: invalid JSON: invalid character '}' looking for beginning of object key string"},
		{"truncated", `{"priority":1`, def, "line 1, column 14: invalid JSON: unexpected end of line"},
		{"bad literal", `{"priority":01}`, def, "line 1, column 14: invalid JSON: invalid character '1' after object key:value pair"},
		{"not an object", `[1,2]`, def, "line 1, column 1: expected a JSON object, found an array"},
		{"not an object, number", ` 42`, def, "line 1, column 2: expected a JSON object, found a number"},
		{"unknown key", `{"priority":1,"deadline":5}`, def,
			`line 1, column 15: unknown key "deadline"; known keys are priority, sla_deadline, batch_size, input_size_bytes, estimated_flops`},
		{"language name is not a key", `{"input_size":5}`, def,
			`line 1, column 2: unknown key "input_size"; known keys are priority, sla_deadline, batch_size, input_size_bytes, estimated_flops`},
		{"duplicate key", `{"batch_size":1, "batch_size":2}`, def, `line 1, column 18: duplicate key "batch_size"`},
		{"duplicate escaped key", `{"batch_size":1,"batch\u005fsize":2}`, def, `line 1, column 17: duplicate key "batch_size"`},
		{"negative", `{"sla_deadline":-5}`, def, "line 1, column 17: sla_deadline: -5 is negative: values must be non-negative integers"},
		{"fractional", `{"batch_size":1.5}`, def, "line 1, column 15: batch_size: 1.5 is fractional: values must be integers"},
		{"tiny fraction", `{"batch_size":1e-400}`, def, "line 1, column 15: batch_size: 1e-400 is fractional: values must be integers"},
		{"too large", `{"input_size_bytes":9007199254740993}`, def,
			"line 1, column 21: input_size_bytes: 9007199254740993 is too large: numbers must be below 2^53"},
		{"2^53", `{"estimated_flops":9007199254740992}`, def,
			"line 1, column 20: estimated_flops: 9007199254740992 is too large: numbers must be below 2^53"},
		{"huge exponent", `{"estimated_flops":1e400}`, def, "line 1, column 20: estimated_flops: 1e400 is too large: numbers must be below 2^53"},
		{"long literal", `{"estimated_flops":` + strings.Repeat("9", 60) + `}`, def,
			"line 1, column 20: estimated_flops: " + strings.Repeat("9", 37) + "... is too large: numbers must be below 2^53"},
		{"priority range", `{"priority":256}`, def, "line 1, column 13: priority: 256 is out of range: priority must be at most 255"},
		{"null priority", `{"priority":null}`, def, "line 1, column 13: priority must be a number, not null"},
		{"null batch size", `{"batch_size":null}`, def, "line 1, column 15: batch_size must be a number, not null"},
		{"string", `{"batch_size":"4"}`, def, "line 1, column 15: batch_size must be a number, not a string"},
		{"bool", `{"sla_deadline":true}`, def, "line 1, column 17: sla_deadline must be a number, not a boolean"},
		{"array", `{"estimated_flops":[1]}`, def, "line 1, column 20: estimated_flops must be a number, not an array"},
		{"object", `{"input_size_bytes":{"a":1}}`, def, "line 1, column 21: input_size_bytes must be a number, not an object"},
		{"trailing garbage", `{"priority":1} x`, def, "line 1, column 16: trailing garbage after the JSON object"},
		{"two objects", `{}{}`, def, "line 1, column 3: trailing garbage after the JSON object"},
		{"first problem wins", `{"priority":-1,"foo":1}`, def, "line 1, column 13: priority: -1 is negative: values must be non-negative integers"},
		{"syntax before meaning", `{"priority":-1,"foo":}`, def, "line 1, column 22: invalid JSON: invalid character '}' looking for beginning of value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := []lineResult{{Line: 1, Text: tt.line, Request: tt.want, Err: tt.err}}
			for _, slow := range []bool{false, true} {
				got, ioErr := readAll(t, tt.line, slow)
				if ioErr != nil {
					t.Fatal(ioErr)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("slowOnly=%v: mismatch (-want +got):\n%s", slow, diff)
				}
			}
		})
	}
}

func TestStreamMixed(t *testing.T) {
	input := "\xef\xbb\xbf{\"priority\":0}\r\n" +
		"\n" +
		"{\"batch_size\":-1}\n" +
		"  \t\r\n" +
		"not json\n" +
		"{\"sla_deadline\":100}\r\n" +
		"{\"batch_size\":2,\"batch_size\":3}\n" +
		"{\"estimated_flops\":7}" // no final newline
	want := []lineResult{
		{Line: 1, Text: `{"priority":0}`, Request: req(Priority, 0.0)},
		{Line: 2, Request: NewRequest(), Err: "line 2, column 1: blank line: expected a JSON object"},
		{Line: 3, Text: `{"batch_size":-1}`, Request: NewRequest(),
			Err: "line 3, column 15: batch_size: -1 is negative: values must be non-negative integers"},
		{Line: 4, Text: "  \t", Request: NewRequest(), Err: "line 4, column 1: blank line: expected a JSON object"},
		{Line: 5, Text: "not json", Request: NewRequest(),
			Err: "line 5, column 2: invalid JSON: invalid character 'o' in literal null (expecting 'u')"},
		{Line: 6, Text: `{"sla_deadline":100}`, Request: req(SLADeadline, 100.0)},
		{Line: 7, Text: `{"batch_size":2,"batch_size":3}`, Request: NewRequest(), Err: `line 7, column 17: duplicate key "batch_size"`},
		{Line: 8, Text: `{"estimated_flops":7}`, Request: req(Flops, 7.0)},
	}
	got, err := readAll(t, input, false)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestStreamLongLines(t *testing.T) {
	pad := strings.Repeat(" ", 300_000)
	long := "{" + pad + `"batch_size":` + pad + "7" + pad + "}"
	input := long + "\n" + `{"priority":3}` + "\n" + long + "x\n"
	got, err := readAll(t, input, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []lineResult{
		{Line: 1, Text: long, Request: req(BatchSize, 7.0)},
		{Line: 2, Text: `{"priority":3}`, Request: req(Priority, 3.0)},
		{Line: 3, Text: long + "x", Request: NewRequest(), Err: "line 3, column 900017: trailing garbage after the JSON object"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%.2000s", diff)
	}
}

func TestStreamIOError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("{\"priority\":2}\n{\"prio"), iotest.ErrReader(boom))
	s := NewStreamReader(r)
	var lines []string
	for s.Next() {
		lines = append(lines, string(s.Line()))
	}
	if diff := cmp.Diff([]string{`{"priority":2}`}, lines); diff != "" {
		t.Errorf("lines mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(s.IOErr(), boom) {
		t.Errorf("IOErr() = %v, want %v", s.IOErr(), boom)
	}
	if s.Next() {
		t.Error("Next after the error returned true")
	}
	empty := NewStreamReader(strings.NewReader(""))
	if empty.Next() || empty.IOErr() != nil {
		t.Errorf("empty stream: Next true or IOErr %v", empty.IOErr())
	}
}

// TestStreamReaderFlat checks that reading allocates nothing per line.
func TestStreamReaderFlat(t *testing.T) {
	data := genStream(20_000, 3)
	allocs := testing.AllocsPerRun(5, func() {
		s := NewStreamReader(bytes.NewReader(data))
		for s.Next() {
			if s.Err() != nil {
				t.Fatal(s.Err())
			}
		}
	})
	if allocs > 5 { // the reader and its buffer
		t.Errorf("reading 20,000 lines allocated %v times", allocs)
	}
}

// TestBytesStreamReader checks that reading a stream in place, a window at
// a time, reports every line exactly as reading it from a reader does,
// including lines that cross a window's end and a line longer than one.
func TestBytesStreamReader(t *testing.T) {
	long := `{"priority":1,"batch_size":` + strings.Repeat(" ", BytesWindow+100) + `3}`
	var crossing strings.Builder
	for i := 0; crossing.Len() < 2*BytesWindow+500; i++ {
		fmt.Fprintf(&crossing, "{\"priority\":%d,\"batch_size\":%d,\"estimated_flops\":%d}\n", i%4, i%64, i*7919)
	}
	for _, tt := range []struct{ name, in string }{
		{"empty", ""},
		{"one line, no newline", `{"priority":0}`},
		{"bom only", "\xef\xbb\xbf"},
		{"bom, crlf, blank, bad", "\xef\xbb\xbf{\"priority\":2}\r\n\n{\"priority\":-1}\n  \n{\"x\":1}"},
		{"lines across windows", crossing.String()},
		{"a line longer than a window", "{\"priority\":0}\n" + long + "\n{\"priority\":3}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, err := readAll(t, tt.in, false)
			if err != nil {
				t.Fatal(err)
			}
			s := NewBytesStreamReader([]byte(tt.in))
			waits := 0
			s.OnWait(func() { waits++ })
			var got []lineResult
			for s.Next() {
				res := lineResult{Line: s.LineNumber(), Text: string(s.Line()), Request: *s.Request()}
				if err := s.Err(); err != nil {
					res.Err = err.Error()
				}
				got = append(got, res)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("lines (-reader +bytes):\n%s", diff)
			}
			if s.IOErr() != nil {
				t.Errorf("IOErr() = %v", s.IOErr())
			}
			if s.InputOffset() != int64(len(tt.in)) {
				t.Errorf("InputOffset() = %d at the end, want %d", s.InputOffset(), len(tt.in))
			}
			// One wait per window; an empty input is one window.
			if want := max(1, (len(tt.in)+BytesWindow-1)/BytesWindow); waits != want {
				t.Errorf("OnWait called %d times, want %d", waits, want)
			}
		})
	}
}

// TestStreamReaderInputOffset checks InputOffset of a reader: the bytes
// read so far, however the reader splits them.
func TestStreamReaderInputOffset(t *testing.T) {
	in := "{\"priority\":0}\n{\"priority\":1}\n{\"priority\":2}\n"
	s := NewStreamReader(iotest.OneByteReader(strings.NewReader(in)))
	var offsets []int64
	for s.Next() {
		offsets = append(offsets, s.InputOffset())
	}
	// A byte at a time, a line is returned as soon as its newline is read.
	if diff := cmp.Diff([]int64{15, 30, 45}, offsets); diff != "" {
		t.Errorf("offsets after each line (-want +got):\n%s", diff)
	}
}

// A line over the reader's limit is one LineTooLong error at its own line,
// skipped without being held, and the lines after it are read as usual.
func TestStreamLineTooLong(t *testing.T) {
	long := `{"batch_size":` + strings.Repeat(" ", 100) + `8}`
	in := "{\"priority\":0}\n" + long + "\n{\"batch_size\":2}\n" + long
	for _, name := range []string{"reader", "bytes"} {
		t.Run(name, func(t *testing.T) {
			var s *StreamReader
			if name == "reader" {
				s = NewStreamReader(strings.NewReader(in))
			} else {
				s = NewBytesStreamReader([]byte(in))
			}
			s.SetMaxLineSize(64)
			var got []string
			for s.Next() {
				if e := s.Err(); e != nil {
					got = append(got, e.Error())
					continue
				}
				got = append(got, fmt.Sprintf("ok batch %v", s.Request().Values[BatchSize]))
			}
			want := []string{"ok batch 1",
				"line 2, column 65: the line is longer than 64 bytes, the limit on one request line",
				"ok batch 2",
				"line 4, column 65: the line is longer than 64 bytes, the limit on one request line"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestStreamIgnoreUnknownKeys reads lines of a request log that carry keys
// beyond kapsl's five — strings, numbers, null, nested objects and arrays,
// a nested "priority" — with SetIgnoreUnknownKeys(true): every line is
// usable, its request is made of kapsl's keys alone, and each skipped key
// is counted and reported with its column. A duplicate known key, and a
// line that is not JSON, are still bad lines.
func TestStreamIgnoreUnknownKeys(t *testing.T) {
	type ignored struct {
		Line   int
		Key    string
		Column int
	}
	type result struct {
		Line    int
		Request Request
		Ignored int
		Err     string
	}
	input := `{"request_id":"r1","priority":0}
{"batch_size":8,"meta":{"priority":255,"tags":["a",{"b":null}]},"estimated_flops":1e9}
{"sla_deadline":100,"trace":[1,2,[3]],"ok":true,"none":null,"n":-1.5e3}
{"priority":1}
{"batch_size":2,"batch_size":3,"x":1}
{"x":{"unclosed":1}
{"input_size_bytes":1000,"input_size":5}
`
	want := []result{
		{1, req(Priority, 0.0), 1, ""},
		{2, req(BatchSize, 8.0, Flops, 1e9), 1, ""},
		{3, req(SLADeadline, 100.0), 4, ""},
		{4, req(Priority, 1.0), 0, ""},
		{5, NewRequest(), 0, `line 5, column 17: duplicate key "batch_size"`},
		{6, NewRequest(), 0, "line 6, column 20: invalid JSON: unexpected end of line"},
		{7, req(InputSize, 1000.0), 1, ""},
	}
	wantIgnored := []ignored{{1, "request_id", 2}, {2, "meta", 17}, {3, "trace", 21}, {3, "ok", 39}, {3, "none", 49}, {3, "n", 61}, {7, "input_size", 26}}
	for _, slow := range []bool{false, true} {
		s := NewStreamReader(strings.NewReader(input))
		s.slowOnly = slow
		s.SetIgnoreUnknownKeys(true)
		var gotIgnored []ignored
		s.OnIgnoredKey(func(key string, column int) { gotIgnored = append(gotIgnored, ignored{s.LineNumber(), key, column}) })
		var got []result
		for s.Next() {
			r := result{Line: s.LineNumber(), Request: *s.Request(), Ignored: s.IgnoredKeys()}
			if err := s.Err(); err != nil {
				r.Err = err.Error()
			}
			got = append(got, r)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("slowOnly=%v: lines (-want +got):\n%s", slow, diff)
		}
		if diff := cmp.Diff(wantIgnored, gotIgnored); diff != "" {
			t.Errorf("slowOnly=%v: ignored keys (-want +got):\n%s", slow, diff)
		}
	}

	// The default refuses the first unknown key, as before.
	got, err := readAll(t, `{"request_id":"r1","priority":0}`+"\n", false)
	if err != nil {
		t.Fatal(err)
	}
	wantErr := `line 1, column 2: unknown key "request_id"; known keys are priority, sla_deadline, batch_size, input_size_bytes, estimated_flops`
	if len(got) != 1 || got[0].Err != wantErr {
		t.Errorf("without SetIgnoreUnknownKeys: %+v, want one line with error %q", got, wantErr)
	}
}
