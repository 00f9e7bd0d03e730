package priority

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// oracleLine decides independently, with encoding/json and math/big,
// whether a line is a valid request and what it holds. decided is false
// for numbers too extreme for the oracle to check cheaply.
func oracleLine(line []byte) (r Request, valid, decided bool) {
	if !json.Valid(line) {
		return Request{}, false, true
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return Request{}, false, true
	}
	keys := map[string]Field{"priority": Priority, "sla_deadline": SLADeadline, "batch_size": BatchSize,
		"input_size_bytes": InputSize, "estimated_flops": Flops}
	seen := map[string]bool{}
	r = NewRequest()
	for dec.More() {
		tok, _ := dec.Token()
		key := tok.(string)
		f, ok := keys[key]
		if !ok || seen[key] {
			return Request{}, false, true
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			panic(err)
		}
		switch {
		case string(raw) == "null":
			if !f.Optional() {
				return Request{}, false, true
			}
		case raw[0] == '-' || '0' <= raw[0] && raw[0] <= '9':
			v, ok, decided := oracleNumber(string(raw))
			if !decided {
				return Request{}, false, false
			}
			if !ok || f == Priority && v > 255 {
				return Request{}, false, true
			}
			r.Set(f, v)
		default:
			return Request{}, false, true
		}
	}
	return r, true, true
}

func oracleNumber(s string) (v float64, ok, decided bool) {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > 10_000 || e < -10_000 {
			return 0, false, false
		}
		exp = e
	}
	if len(mant) > 10_000 {
		return 0, false, false
	}
	var x big.Rat
	if _, ok := x.SetString(mant + "e" + strconv.Itoa(exp)); !ok {
		panic("bad number " + s)
	}
	limit := new(big.Rat).SetInt64(MaxExact)
	if !x.IsInt() || x.Sign() < 0 || x.Cmp(limit) >= 0 {
		return 0, false, true
	}
	f, _ := x.Float64()
	return f, true, true
}

func FuzzStreamReader(f *testing.F) {
	for _, s := range []string{
		`{"priority":1,"sla_deadline":200,"batch_size":16,"input_size_bytes":10000000,"estimated_flops":10000000000}`,
		"{}\n\n{\"priority\":0}\r\n",
		`{"sla_deadline":null,"estimated_flops":1e3,"batch_size":2.50e1}`,
		`{"prio\u0072ity":3, "batch_size" : 0 }`,
		`{"priority":-0,"batch_size":-1}`,
		`{"priority":256}`,
		`{"batch_size":9007199254740993}`,
		`{"batch_size":1.5}`,
		`{"batch_size":"1"}`,
		`{"batch_size":[1]} x`,
		`{"a":1,"a":2}`,
		"\xef\xbb\xbf{\"priority\":1}",
		`[1]`,
		`{"priority":1`,
		`{"estimated_flops":1e-400}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ioErr := readAll(t, string(data), false)
		if ioErr != nil {
			t.Fatal(ioErr)
		}
		slow, _ := readAll(t, string(data), true)
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Fatalf("fast scanner disagrees with encoding/json path (-slow +fast):\n%s", diff)
		}
		// Split the stream the way StreamReader documents.
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		lines := bytes.Split(data, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		k := 0
		for i, line := range lines {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if k >= len(fast) {
				t.Fatalf("line %d %q not reported", i+1, line)
			}
			got := fast[k]
			k++
			if got.Line != i+1 || got.Text != string(line) {
				t.Fatalf("reported line %d %q, want line %d %q", got.Line, got.Text, i+1, line)
			}
			if len(bytes.Trim(line, " \t\r")) == 0 {
				if got.Err == "" || !strings.Contains(got.Err, "blank line") {
					t.Fatalf("blank line %d %q: error %q, want a blank-line error", i+1, line, got.Err)
				}
				continue
			}
			want, valid, decided := oracleLine(line)
			if !decided {
				continue
			}
			if valid != (got.Err == "") {
				t.Fatalf("line %q: oracle valid=%v, StreamReader error %q", line, valid, got.Err)
			}
			if valid && want != got.Request {
				t.Fatalf("line %q: request %+v, oracle %+v", line, got.Request, want)
			}
		}
		if k != len(fast) {
			t.Fatalf("%d lines reported, %d expected", len(fast), k)
		}
	})
}

// TestKeyEveryByte changes each byte of each known key in turn: the fast
// scanner must then read an unknown key, as the encoding/json path does
// (it once compared only a key's first and last eight bytes, and took
// "input_si0e_bytes" for input_size_bytes).
func TestKeyEveryByte(t *testing.T) {
	for f := Field(0); f < NumFields; f++ {
		key := f.JSONKey()
		for i := range len(key) {
			for _, c := range []byte{'0', 'z', '"' + 1} {
				if key[i] == c {
					continue
				}
				bad := key[:i] + string(c) + key[i+1:]
				line := `{"` + bad + `":1}`
				fast, err := readAll(t, line, false)
				if err != nil {
					t.Fatal(err)
				}
				slow, _ := readAll(t, line, true)
				if diff := cmp.Diff(slow, fast); diff != "" {
					t.Errorf("%s: fast scanner disagrees with encoding/json path (-slow +fast):\n%s", line, diff)
				}
				if len(fast) != 1 || fast[0].Err == "" {
					t.Errorf("%s: read as a known key: %+v", line, fast)
				}
			}
		}
	}
}
