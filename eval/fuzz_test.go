package eval

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpl-lang/gpl/lang"
)

// FuzzLoad loads arbitrary bytes as a scenario: whatever the input, Load
// returns a scenario and at most an *Error, never panics, and everything it
// returns can be rendered, tested and queried.
//
// Imports are read from the repository through an fs.FS rather than the
// operating system: that is LoadSource's code path, but a generated
// import "../../../dev/zero" cannot leave the repository and read forever.
//
// The seeds are small on purpose. The fuzzer minimizes every input that
// reaches new code before it goes on, one execution per byte it tries to
// drop, and an execution costs about what parsing the input does: seeded
// with whole files of several KiB, it spent its first minute minimizing
// one of them (80 executions a second on the log). So each file of the
// repository is cut into pieces of a few statements (fuzzSeedPieces), the
// cross-kind generator adds short programs that read across declarations,
// and an input past maxFuzzInput is not loaded: the limits on large
// inputs have tests of their own (limits_test.go, lang/limits_test.go).
func FuzzLoad(f *testing.F) {
	for _, glob := range []string{"../testdata/lang/*.gpl", "../testdata/bad/*.gpl", "../scenarios/*.gpl", "../stdlib/*.gpl"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			for _, piece := range fuzzSeedPieces(file, src) {
				f.Add(piece)
			}
		}
	}
	for seed := range uint64(24) {
		if p := genCrossRefs(seed).main; len(p) <= maxFuzzInput {
			f.Add(p)
		}
	}
	f.Add([]byte("let a = ((((1))))\nexpect a ≈ 1 ± 0 within 0%\n"))
	f.Add([]byte("request r { priority = 255  sla_deadline = 0ms }\nrules q { when has(sla_deadline) and not (flops > 1e300 FLOP) -> a\n else b }\nexpect classify(q, r) == a\n"))
	f.Add([]byte("pool p { devices = j.devices }\njob j on p { hours = 1h  factors { S = 1  R = 1  P = 1 } }\n"))

	f.Fuzz(fuzzLoadBody)
}

// fuzzLoadBody is FuzzLoad's test of one input.
func fuzzLoadBody(t *testing.T, src []byte) {
	{
		if len(src) > maxFuzzInput {
			return
		}
		s, err := LoadWith(Options{FS: repoFS}, "testdata/fuzz.gpl", src)
		if s == nil {
			t.Fatalf("Load returned no scenario (error %v)", err)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load returned %T, want *eval.Error: %v", err, err)
			}
			if !e.Diagnostics.HasErrors() {
				t.Fatalf("*eval.Error without an error diagnostic: %v", e)
			}
			e.Diagnostics.RenderAll(io.Discard, s.Sources(), lang.Style{})
			_ = e.Error()
		} else if s.Diagnostics().HasErrors() {
			t.Fatalf("Load succeeded with error diagnostics: %v", s.Diagnostics())
		}
		s.Diagnostics().RenderAll(io.Discard, s.Sources(), lang.Style{Color: true})

		for _, o := range s.Test() {
			// After a failed load, an expect that reads a declaration with
			// errors fails without a diagnostic of its own: the load's
			// diagnostics already say why.
			if !o.Pass && o.Diagnostic == nil && err == nil {
				t.Fatalf("%s fails without a diagnostic", o.Expectation.Name())
			}
			if o.Diagnostic != nil {
				o.Diagnostic.Render(io.Discard, s.Sources(), lang.Style{})
			}
		}
		for _, j := range s.Jobs() {
			for _, name := range ResultNames() {
				if v, err := j.Get(name); err == nil {
					_ = v.String()
				}
			}
		}
		for _, n := range s.Names() {
			if v, err := s.Value(n[0]); err == nil {
				_ = v.Precise(nil)
			}
		}
		for _, p := range s.Pools() {
			for _, v := range p.Fields {
				_ = v.String()
			}
		}
		for _, l := range s.Lets() {
			_ = l.Value.String()
		}
	}
}

// maxFuzzInput is the largest input FuzzLoad loads, in bytes.
const maxFuzzInput = 1 << 10

// fuzzSeedPieces cuts a file into seeds of whole statements, each piece
// as long as the statements that fit in maxFuzzInput/4 bytes (a longer
// statement is a piece alone, cut at maxFuzzInput): the text between
// statements, comments included, goes with the statement after it. A file
// that does not parse is one piece, cut.
func fuzzSeedPieces(name string, src []byte) [][]byte {
	const want = maxFuzzInput / 4
	cut := func(b []byte) []byte { return b[:min(len(b), maxFuzzInput)] }
	f, diags := lang.Parse(name, src)
	if len(diags) > 0 || len(f.Stmts) == 0 {
		return [][]byte{cut(src)}
	}
	var pieces [][]byte
	from := 0
	for i, st := range f.Stmts {
		_, end := st.Span()
		last := i == len(f.Stmts)-1
		if last {
			end.Offset = len(src)
		}
		if end.Offset-from >= want || last {
			pieces = append(pieces, cut(src[from:end.Offset]))
			from = end.Offset
		}
	}
	return pieces
}
