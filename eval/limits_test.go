package eval

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// loadErrors loads src (importing from fsys) and returns its error
// diagnostics as "line:col summary".
func loadErrors(t *testing.T, fsys fstest.MapFS, name string, src []byte) []string {
	t.Helper()
	_, err := LoadWith(Options{FS: fsys}, name, src)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("load %s: got %v, want an *Error", name, err)
	}
	var got []string
	for _, d := range e.Diagnostics {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Column, d.Summary))
	}
	return got
}

// TestDependencyDepthLimit feeds chains of references one longer than
// MaxDependencyDepth, each declaration reading one declared after it: a
// positioned error, not a stack overflow.
func TestDependencyDepthLimit(t *testing.T) {
	n := MaxDependencyDepth + 1
	var lets strings.Builder
	for i := range n - 1 {
		fmt.Fprintf(&lets, "let a%d = a%d + 1\n", i, i+1)
	}
	fmt.Fprintf(&lets, "let a%d = 1\n", n-1)
	want := []string{"10000:13 a10000 is read through a chain of more than 10,000 declarations, each reading the next (the limit on a chain of references)"}
	if diff := cmp.Diff(want, loadErrors(t, nil, "lets.gpl", []byte(lets.String()))); diff != "" {
		t.Errorf("a chain of %d lets (-want +got):\n%s", n, diff)
	}

	var jobs strings.Builder
	jobs.WriteString("pool p { devices = 8  rate = 2.50 USD/h }\n")
	for i := range n - 1 {
		fmt.Fprintf(&jobs, "job j%d extends j%d { hours = 720h }\n", i, i+1)
	}
	fmt.Fprintf(&jobs, "job j%d on p { hours = 720h  factors { S = 0.95  R = 0.9  P = 0.33 } }\n", n-1)
	want = []string{"10001:19 j10000 is read through a chain of more than 10,000 declarations, each reading the next (the limit on a chain of references)"}
	if diff := cmp.Diff(want, loadErrors(t, nil, "jobs.gpl", []byte(jobs.String()))); diff != "" {
		t.Errorf("a chain of %d jobs (-want +got):\n%s", n, diff)
	}
}

// TestLongChainInOrder checks that a chain declared in the order it is
// read has no such limit: three times as many lets as the limit, each reading
// the one before.
func TestLongChainInOrder(t *testing.T) {
	n := 3 * MaxDependencyDepth
	var b strings.Builder
	b.WriteString("let a0 = 1\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "let a%d = a%d + 1\n", i, i-1)
	}
	s, err := LoadSource("chain.gpl", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Value(fmt.Sprintf("a%d", n-1))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(float64(n), v.Num); diff != "" {
		t.Errorf("a%d (-want +got):\n%s", n-1, diff)
	}
}

// TestImportDepthLimit imports a chain of MaxImportDepth+1 files.
func TestImportDepthLimit(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := 1; i <= MaxImportDepth+1; i++ {
		fsys[fmt.Sprintf("f%d.gpl", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "import \"f%d.gpl\"\nlet v%d = %d\n", i+1, i, i)}
	}
	fsys[fmt.Sprintf("f%d.gpl", MaxImportDepth+2)] = &fstest.MapFile{Data: []byte("let last = 1\n")}
	want := []string{"1:8 imports nest more than 64 deep (the limit on import depth)"}
	if diff := cmp.Diff(want, loadErrors(t, fsys, "f0.gpl", []byte("import \"f1.gpl\"\n"))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLongCycleMessage checks that a cycle of thousands of declarations
// is told by its ends, not every name.
func TestLongCycleMessage(t *testing.T) {
	const n = 5000
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "let a%d = a%d + 1\n", i, (i+1)%n)
	}
	want := []string{"5000:13 cycle: a0 → a1 → a2 → a3 → a4 → a5 → … (4,988 more) → a4994 → a4995 → a4996 → a4997 → a4998 → a4999 → a0"}
	if diff := cmp.Diff(want, loadErrors(t, nil, "cycle.gpl", []byte(b.String()))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLimitsBiteEarly feeds inputs just past the limits the hostile
// catalogue found counted after the work: each is refused at the place of
// the first item past the limit, with its hint, and refusing it costs
// about what reaching the limit does, not what reading all of it would.
// What is measured is memory allocated while loading (a count, not a
// clock): under 200 MB each, where they took 616 MB to 994 MB.
func TestLimitsBiteEarly(t *testing.T) {
	var decls, ors, plus strings.Builder
	for i := range MaxDeclarations + 1 {
		fmt.Fprintf(&decls, "let a%d = 1\n", i)
	}
	ors.WriteString("rules r {\n  x: when priority == 0")
	for i := 1; i < 100_000; i++ {
		fmt.Fprintf(&ors, " or priority == %d", i%10)
	}
	ors.WriteString(" -> a\n  else b\n}\n")
	plus.WriteString("let x = 1" + strings.Repeat(" + 1", 500_000) + "\n")

	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"1,000,001 declarations", decls.String(), []string{
			"1000001:5 more than 1000000 declarations (the limit on one program)",
			"  = hint: split the plan into files loaded on their own: no program holds more",
		}},
		{"a rule of 100,000 ors", ors.String(), []string{
			"2:17011 expression longer than 4000 operands and operators (the limit on one expression)",
			"  = hint: split it into parts named with let",
		}},
		{"a let of 500,000 +", plus.String(), []string{
			"1:8009 expression longer than 4000 operands and operators (the limit on one expression)",
			"  = hint: split it into parts named with let",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := LoadSource("big.gpl", src)
			runtime.ReadMemStats(&after)
			if diff := cmp.Diff(tc.want, diagLines(t, err)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb >= 200 {
				t.Errorf("refusing it allocated %d MB, want under 200", mb)
			}
		})
	}
}
