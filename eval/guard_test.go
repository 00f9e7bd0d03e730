package eval

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpl-lang/gpl/testdata/fuzzcorpus"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

// diagLines is each diagnostic of err as "line:col summary", then its
// label, its related places and its notes: what a test compares exactly.
func diagLines(t *testing.T, err error) []string {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v (%T), want an *eval.Error", err, err)
	}
	var out []string
	for _, d := range e.Diagnostics {
		out = append(out, fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Column, d.Summary))
		if d.Label != "" {
			out = append(out, "  ^ "+d.Label)
		}
		for _, r := range d.Related {
			out = append(out, fmt.Sprintf("  %d:%d %s", r.Pos.Line, r.Pos.Column, r.Label))
		}
		for _, n := range d.Notes {
			out = append(out, "  = "+n)
		}
	}
	return out
}

// TestPoolReadsItsJob is the crash the hostile catalogue found: a pool
// field reading a result of a job on that pool panicked in the check
// pass (exit 5, and a panic out of LoadSource). It is a cycle, positioned
// at the job's pool, naming both, each link shown, with the fix.
func TestPoolReadsItsJob(t *testing.T) {
	const job = "job j on p { hours = 1h  factors { S = 1  R = 1  P = 1 } }\n"
	hint := func(field string) string {
		return "  = hint: a pool's fields are inputs of every job on it, so they cannot read those jobs' results; write p." + field + " as a value (a number, or a let or param that reads no job on p), or set " + field + " in the job itself"
	}
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{
			name: "devices",
			src:  "pool p { devices = j.devices }\n" + job,
			want: []string{"2:10 cycle: p → j → p", "  ^ job j runs on pool p", "  1:20 pool p's devices reads j.devices", hint("devices")},
		},
		{
			name: "rate",
			src:  "pool p { devices = 8  rate = j.rate }\n" + job,
			want: []string{"2:10 cycle: p → j → p", "  ^ job j runs on pool p", "  1:30 pool p's rate reads j.rate", hint("rate")},
		},
		{
			name: "hours",
			src:  "pool p { devices = 8  hours = j.hours }\n" + job,
			want: []string{"2:10 cycle: p → j → p", "  ^ job j runs on pool p", "  1:31 pool p's hours reads j.hours", hint("hours")},
		},
		{
			name: "mpg times 8",
			src:  "pool p { devices = j.mpg * 8 }\n" + job,
			want: []string{"2:10 cycle: p → j → p", "  ^ job j runs on pool p", "  1:20 pool p's devices reads j.mpg", hint("devices")},
		},
		{
			// Declared the other way round, the walk meets the pool's field
			// last: the caret is there.
			name: "job first",
			src:  job + "pool p { devices = j.devices }\n",
			want: []string{"2:20 cycle: j → p → j", "  ^ pool p's devices reads j.devices", "  1:10 job j runs on pool p", hint("devices")},
		},
		{
			name: "through an extends child",
			src:  "pool p { devices = k.devices }\n" + job + "job k extends j { factors { S = 0.9 } }\n",
			want: []string{"2:10 cycle: p → k → j → p", "  ^ job j runs on pool p", "  1:20 pool p's devices reads k.devices", "  3:15 job k extends job j", hint("devices")},
		},
		{
			name: "through a let",
			src:  "pool p { devices = n }\nlet n = j.devices\n" + strings.Replace(job, "job j", "job j", 1),
			want: []string{"3:10 cycle: p → n → j → p", "  ^ job j runs on pool p", "  1:20 pool p's devices reads n", "  2:9 n reads j.devices", hint("devices")},
		},
		{
			name: "through extends on",
			src:  "pool q { devices = 8  hours = 1h }\njob i on q { factors { S = 1  R = 1  P = 1 } }\npool p { devices = j.devices }\njob j extends i on p { factors { S = 0.5 } }\n",
			want: []string{"4:20 cycle: p → j → p", "  ^ job j runs on pool p", "  3:20 pool p's devices reads j.devices", hint("devices")},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := LoadSource("cycle.gpl", []byte(tc.src))
			if diff := cmp.Diff(tc.want, diagLines(t, err)); diff != "" {
				t.Errorf("LoadSource (-want +got):\n%s", diff)
			}
			// What the scenario gives after the error is usable.
			s.Test()
			s.Diagnostics().RenderAll(io.Discard, s.Sources(), lang.Style{})
			for _, j := range s.Jobs() {
				j.Get("mpg")
			}
			for range s.Pools() {
			}
			if _, err := s.Eval("<expr>", "p.devices"); err == nil {
				t.Errorf("Eval of p.devices succeeded after the cycle")
			}
		})
	}
}

// panicFS panics on every use, standing for a bug reached below an entry
// point.
type panicFS struct{}

func (panicFS) Open(string) (fs.File, error) { panic("the file system broke") }

// TestEntryPointsDoNotPanic checks the last resort: a panic below an
// entry point comes back as an *Error whose Internal is set, with one
// diagnostic saying so and the trace, and the scenario or session handed
// back is usable.
func TestEntryPointsDoNotPanic(t *testing.T) {
	const want = "internal error (a bug in gpl): the file system broke"
	check := func(t *testing.T, err error) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("got %v (%T), want an *eval.Error", err, err)
		}
		var got []string
		for _, d := range e.Diagnostics {
			got = append(got, d.Summary)
		}
		if diff := cmp.Diff([]string{want}, got); diff != "" {
			t.Errorf("diagnostics (-want +got):\n%s", diff)
		}
		if !e.Internal || !bytes.Contains(e.Stack, []byte("panicFS.Open")) {
			t.Errorf("Internal = %v, trace of %d bytes without panicFS.Open; want the panic's trace", e.Internal, len(e.Stack))
		}
	}
	t.Run("Load", func(t *testing.T) {
		s, err := Load(panicFS{}, "main.gpl")
		check(t, err)
		s.Test()
		if len(s.Jobs()) != 0 || len(s.Files()) != 0 {
			t.Errorf("the scenario of a panic holds %d jobs and %d files, want none", len(s.Jobs()), len(s.Files()))
		}
	})
	t.Run("LoadWith import", func(t *testing.T) {
		_, err := LoadWith(Options{FS: panicFS{}}, "main.gpl", []byte("import \"other.gpl\"\n"))
		check(t, err)
	})
	t.Run("Session.Try", func(t *testing.T) {
		se := NewSession(Options{FS: panicFS{}})
		ch := se.Try([]Source{{Name: "a.gpl", Text: []byte("let a = 1\n")}}, nil)
		if ch.Err() != nil {
			t.Fatal(ch.Err())
		}
		ch.Commit()
		ch = se.Try([]Source{{Name: "b.gpl", Text: []byte("import \"c.gpl\"\nlet b = a + 1\n")}}, nil)
		check(t, ch.Err())
		ch.Discard()
		// The session is as it was: a is there, b is not.
		if v, err := se.Scenario().Eval("<expr>", "a"); err != nil || v.Num != 1 {
			t.Errorf("a after the panic: %v, %v", v, err)
		}
		if _, err := se.Scenario().Eval("<expr>", "b"); err == nil {
			t.Errorf("b was declared by the change that panicked")
		}
	})
}

// corpusInputs reads the inputs of a go test fuzz corpus directory: each
// file's values, []byte and string ones as bytes and uint64 ones as
// numbers.
func corpusInputs(t *testing.T, dir string) (texts [][]byte, seeds []uint64) {
	t.Helper()
	entries, err := fuzzcorpus.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		texts = append(texts, e.Texts...)
		seeds = append(seeds, e.Seeds...)
	}
	return texts, seeds
}

// TestNoInputPanics feeds the bad-input catalogue, every .gpl file of the
// repository's test data, scenarios and library, the fuzz corpora and the
// programs of the generators' corpus through LoadSource and the queries
// a view makes: none is an internal error, and every error it reports is
// placed in a file.
func TestNoInputPanics(t *testing.T) {
	var inputs []struct {
		name string
		src  []byte
	}
	add := func(name string, src []byte) {
		inputs = append(inputs, struct {
			name string
			src  []byte
		}{name, src})
	}
	for _, glob := range []string{"../testdata/bad/*.gpl", "../testdata/lang/*.gpl", "../scenarios/*.gpl", "../stdlib/*.gpl"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			add(f, b)
		}
	}
	for _, dir := range []string{"testdata/fuzz/FuzzLoad", "../lang/testdata/fuzz/FuzzParse", "../lang/testdata/fuzz/FuzzScan"} {
		texts, _ := corpusInputs(t, dir)
		for i, b := range texts {
			add(fmt.Sprintf("%s#%d", dir, i), b)
		}
	}
	_, seeds := corpusInputs(t, "testdata/fuzz/FuzzGenerated")
	for _, seed := range append(seeds, 0, 1, 2, 42) {
		src, _ := genProgram(seed)
		add(fmt.Sprintf("genProgram(%d)", seed), []byte(src))
		cross := genCrossRefs(seed)
		add(fmt.Sprintf("genCrossRefs(%d)", seed), cross.main)
	}
	if len(inputs) < 150 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	for _, in := range inputs {
		s, err := LoadSource("testdata/input.gpl", in.src)
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Errorf("%s: error %T, want an *eval.Error", in.name, err)
			continue
		}
		if e != nil && e.Internal {
			t.Errorf("%s: %v\n%s", in.name, e, e.Stack)
			continue
		}
		if e != nil {
			for _, d := range e.Diagnostics {
				if d.Pos.Filename == "" || d.Pos.Line == 0 {
					t.Errorf("%s: an error placed nowhere: %s", in.name, d.Summary)
				}
			}
		}
		s.Test()
		for _, j := range s.Jobs() {
			for _, r := range ResultNames() {
				j.Get(r)
			}
		}
		for _, n := range s.Names() {
			s.Value(n[0])
		}
	}
}
