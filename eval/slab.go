package eval

// slab hands out values of T from chunks allocated together. A large file
// compiles into hundreds of thousands of small objects of a few kinds
// (declarations, job plans, expectations) while the parser makes many
// times their weight in short-lived garbage; allocated one by one, each
// object sits among that garbage, and once it is collected the heap is
// left full of half-empty spans. From a slab they sit side by side. A
// chunk lives as long as any value in it, so only values that live as
// long as their program are taken from one. Not safe for concurrent use:
// a program is built by one goroutine.
type slab[T any] struct {
	free []T
	next int // size of the next chunk
}

const (
	slabFirst = 8
	slabMax   = 1024
)

// put stores v in the slab and returns where.
func (s *slab[T]) put(v T) *T {
	if len(s.free) == 0 {
		s.next = min(max(s.next*2, slabFirst), slabMax)
		s.free = make([]T, s.next)
	}
	x := &s.free[0]
	s.free = s.free[1:]
	*x = v
	return x
}
