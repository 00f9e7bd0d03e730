package lang

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPosRoundTrip checks that a compact position gives back the Position
// it was made from, the zero one included.
func TestPosRoundTrip(t *testing.T) {
	ps := []Position{
		{},
		{Filename: "a.gpl", Offset: 0, Line: 1, Column: 1},
		{Filename: "dir/b.gpl", Offset: 12_345_678, Line: 700_000, Column: 1_000},
		{Filename: "a.gpl", Offset: 7, Line: 2, Column: 3},
		{Offset: 3, Line: 1, Column: 4}, // no file name: an expression parsed alone
	}
	var got []Position
	for _, p := range ps {
		got = append(got, PosOf(p).Position())
	}
	if diff := cmp.Diff(ps, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestPosConcurrent interns file names from many goroutines at once (go
// test -race checks the table), each name keeping one index.
func TestPosConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	got := make([][]Position, 16)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				p := Position{Filename: fmt.Sprintf("f%d.gpl", i%50), Offset: i, Line: i + 1, Column: g + 1}
				got[g] = append(got[g], PosOf(p).Position())
			}
		}()
	}
	wg.Wait()
	for g, ps := range got {
		for i, p := range ps {
			want := Position{Filename: fmt.Sprintf("f%d.gpl", i%50), Offset: i, Line: i + 1, Column: g + 1}
			if p != want {
				t.Fatalf("goroutine %d, position %d: got %v, want %v", g, i, p, want)
			}
		}
	}
	if a, b := PosOf(Position{Filename: "f1.gpl"}), PosOf(Position{Filename: "f1.gpl"}); a.file != b.file {
		t.Errorf("one name, two indices: %d and %d", a.file, b.file)
	}
}

// TestSlab checks that values put in a slab keep their place, and that a
// copied slice cannot be appended to over its neighbour.
func TestSlab(t *testing.T) {
	var s Slab[int]
	var ptrs []*int
	for i := range 3000 {
		ptrs = append(ptrs, s.Put(i))
	}
	var got []int
	for _, p := range ptrs {
		got = append(got, *p)
	}
	want := make([]int, 3000)
	for i := range want {
		want[i] = i
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("put (-want +got):\n%s", diff)
	}

	var c Slab[string]
	a := c.Copy([]string{"a", "b"})
	b := c.Copy([]string{"c"})
	a = append(a, "x") // must not write over b
	if diff := cmp.Diff([][]string{{"a", "b", "x"}, {"c"}}, [][]string{a, b}); diff != "" {
		t.Errorf("copy (-want +got):\n%s", diff)
	}
	if got := c.Copy(nil); got != nil {
		t.Errorf("Copy(nil) = %v, want nil", got)
	}
}
