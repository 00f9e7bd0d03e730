package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// jsonIndent is one level of the JSON report's indentation.
const jsonIndent = "  "

// jsonWriter writes an indented JSON document piece by piece, as
// json.Encoder with SetIndent("", "  ") and SetEscapeHTML(false) writes
// it whole: the structure that holds many parts (the document, a file, a
// file's jobs and sweeps, a sweep's table) is written here, and each part
// (a pool, a job, a table's row) is encoded with encoding/json, indented
// as deep as it stands, and written before the next part is made. The
// first error, of a write or of a part that cannot be made, stops it:
// every later call does nothing.
type jsonWriter struct {
	w   io.Writer
	buf bytes.Buffer
	// encs are the encoders into buf by the indentation they write at.
	encs map[string]*json.Encoder
	err  error
	num  []byte // a number's text, reused
	// points walks a sweep's points: Sweep.Each; a test counts the
	// points made through it.
	points func(sw Sweep, fn func(p SweepPoint) bool) error
}

func newJSONWriter(w io.Writer) *jsonWriter {
	return &jsonWriter{w: w, encs: map[string]*json.Encoder{}, points: Sweep.Each}
}

// raw writes s as it is.
func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = io.WriteString(j.w, s)
	}
}

// value writes v as encoding/json encodes it, its lines after the first
// starting with indent (the indentation of the line v starts on).
func (j *jsonWriter) value(v any, indent string) {
	if j.err != nil {
		return
	}
	enc, ok := j.encs[indent]
	if !ok {
		enc = json.NewEncoder(&j.buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent(indent, jsonIndent)
		j.encs[indent] = enc
	}
	j.buf.Reset()
	if j.err = enc.Encode(v); j.err != nil {
		return
	}
	_, j.err = j.w.Write(bytes.TrimSuffix(j.buf.Bytes(), []byte("\n")))
}

// member is one key of an object and how its value is written; omit
// leaves it out (a field tagged omitempty that is empty).
type member struct {
	key   string
	omit  bool
	write func(indent string)
}

// object writes an object of members, at indent.
func (j *jsonWriter) object(indent string, members ...member) {
	inner := indent + jsonIndent
	n := 0
	for _, m := range members {
		if m.omit {
			continue
		}
		if n == 0 {
			j.raw("{")
		} else {
			j.raw(",")
		}
		n++
		j.raw("\n" + inner)
		j.key(m.key)
		j.raw(": ")
		m.write(inner)
	}
	if n == 0 {
		j.raw("{}")
		return
	}
	j.raw("\n" + indent + "}")
}

// key writes an object's key as encoding/json writes a map's: quoted,
// escaped where it must be.
func (j *jsonWriter) key(k string) {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			j.value(k, "")
			return
		}
	}
	j.raw(`"` + k + `"`)
}

// array writes the items seq yields, at indent: each written by item at
// the indentation of its line, [] when there is none.
func array[T any](j *jsonWriter, indent string, seq func(yield func(T) bool), item func(v T, indent string)) {
	inner := indent + jsonIndent
	n := 0
	for v := range seq {
		if n == 0 {
			j.raw("[")
		} else {
			j.raw(",")
		}
		n++
		j.raw("\n" + inner)
		item(v, inner)
		if j.err != nil {
			break
		}
	}
	if j.err != nil {
		return // left open: the document stops where the error came
	}
	if n == 0 {
		j.raw("[]")
		return
	}
	j.raw("\n" + indent + "]")
}

// slice writes s as encoding/json writes a slice, null when nil, each item
// by item.
func slice[T any](j *jsonWriter, indent string, s []T, item func(v T, indent string)) {
	if s == nil {
		j.raw("null")
		return
	}
	array(j, indent, func(yield func(T) bool) {
		for _, v := range s {
			if !yield(v) {
				return
			}
		}
	}, item)
}

// encoded writes v as encoding/json does: the item of a slice whose items
// are written whole.
func encoded[T any](j *jsonWriter) func(v T, indent string) {
	return func(v T, indent string) { j.value(v, indent) }
}

// document writes d.
func (j *jsonWriter) document(d *Document) {
	j.object("",
		member{key: "files", write: func(in string) { slice(j, in, d.Files, j.file) }},
		member{key: "summary", write: func(in string) { j.value(d.Summary, in) }})
	j.raw("\n")
}

// file writes f with its members in the order of File's fields (each
// json-tagged field of File and of the Planning it embeds:
// TestFileMembersAreItsFields), its jobs one at a time as AllJobs yields
// them and each sweep's table a row at a time.
func (j *jsonWriter) file(f *File, indent string) {
	if f == nil {
		j.raw("null")
		return
	}
	val := func(v any) func(string) { return func(in string) { j.value(v, in) } }
	j.object(indent, j.fileMembers(f, val)...)
}

func (j *jsonWriter) fileMembers(f *File, val func(v any) func(string)) []member {
	jobs := func(in string) {
		if !f.lazy {
			slice(j, in, f.Jobs, encoded[Job](j))
			return
		}
		array(j, in, f.allJobs(false), encoded[Job](j))
	}
	return []member{
		{key: "file", write: val(f.File)},
		{key: "loaded", write: val(f.Loaded)},
		{key: "diagnostics", write: val(f.Diagnostics)},
		{key: "values", write: val(f.Values)},
		{key: "pools", write: val(f.Pools)},
		{key: "jobs", write: jobs},
		{key: "rulesets", write: val(f.Rulesets)},
		{key: "requests", write: val(f.Requests)},
		{key: "expectations", write: val(f.Expectations)},
		{key: "groups", omit: len(f.Groups) == 0, write: val(f.Groups)},
		{key: "compares", omit: len(f.Compares) == 0, write: val(f.Compares)},
		{key: "sweeps", omit: len(f.Sweeps) == 0, write: func(in string) { slice(j, in, f.Sweeps, j.sweep) }},
		{key: "solves", omit: len(f.Solves) == 0, write: val(f.Solves)},
		{key: "uncertainty", omit: f.Uncertainty == nil, write: val(f.Uncertainty)},
	}
}

// sweep writes sw, its table last, a row as each point is evaluated (the
// shape Sweep.MarshalJSON documents).
func (j *jsonWriter) sweep(sw Sweep, indent string) {
	// The sweep's own fields, the object left open for its table.
	type plainSweep Sweep // its fields, without MarshalJSON
	j.buf.Reset()
	enc := json.NewEncoder(&j.buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent, jsonIndent)
	if j.err == nil {
		j.err = enc.Encode(plainSweep(sw))
	}
	if j.err != nil {
		return
	}
	head := strings.TrimSuffix(j.buf.String(), "\n"+indent+"}\n")
	j.raw(head + ",\n" + indent + jsonIndent + `"table": `)
	inner := indent + jsonIndent
	var r jsonRow
	rows := func(yield func(*jsonRow) bool) {
		if sw.s == nil {
			return
		}
		err := j.points(sw, func(p SweepPoint) bool { return yield(r.of(sw.pointJSON(p))) })
		if j.err == nil {
			j.err = err
		}
	}
	array(j, inner, rows, j.row)
	j.raw("\n" + indent + "}")
}

// jsonRow is a point's row of a sweep's JSON table, the object
// encoding/json writes for a map: its keys sorted, a key given twice
// holding its last value, the show columns an object under "columns".
type jsonRow struct {
	top, cols []sweepCell
}

// of fills r with the point's entries (Sweep.pointJSON) and returns it.
func (r *jsonRow) of(entries []sweepCell) *jsonRow {
	r.top, r.cols = r.top[:0], r.cols[:0]
	put := func(list []sweepCell, c sweepCell) []sweepCell {
		for i := range list {
			if list[i].key == c.key {
				list[i] = c
				return list
			}
		}
		return append(list, c)
	}
	for _, c := range entries {
		if c.column {
			r.cols = put(r.cols, c)
		} else {
			r.top = put(r.top, c)
		}
	}
	if len(r.cols) > 0 {
		r.top = put(r.top, sweepCell{key: "columns", column: true})
	}
	byKey := func(a, b sweepCell) int { return strings.Compare(a.key, b.key) }
	slices.SortFunc(r.top, byKey)
	slices.SortFunc(r.cols, byKey)
	return r
}

// row writes r at indent: a number as encoding/json writes a float64
// (appendJSONFloat), any other value encoded by encoding/json.
func (j *jsonWriter) row(r *jsonRow, indent string) {
	var members [16]member
	list := members[:0]
	entry := func(c sweepCell) member {
		return member{key: c.key, write: func(in string) {
			if f, ok := c.v.(float64); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
				j.num = appendJSONFloat(j.num[:0], f)
				if j.err == nil {
					_, j.err = j.w.Write(j.num)
				}
				return
			}
			j.value(c.v, in)
		}}
	}
	for _, c := range r.top {
		if c.column && c.key == "columns" && c.v == nil {
			list = append(list, member{key: "columns", write: func(in string) {
				cols := make([]member, 0, len(r.cols))
				for _, c := range r.cols {
					cols = append(cols, entry(c))
				}
				j.object(in, cols...)
			}})
			continue
		}
		list = append(list, entry(c))
	}
	j.object(indent, list...)
}

// appendJSONFloat appends f as encoding/json writes a float64: the
// shortest decimal that reads back as f, with an exponent below 1e-6 and
// from 1e21 on (1e-07 written 1e-7).
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// writeDocument writes d through a buffer of 64 KiB, flushed at the end
// and after an error, so that w has then received the document up to
// where it stopped.
func writeDocument(w io.Writer, d *Document, j func(w io.Writer) *jsonWriter) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	jw := j(bw)
	jw.document(d)
	ferr := bw.Flush()
	if jw.err != nil {
		return jw.err
	}
	return ferr
}
