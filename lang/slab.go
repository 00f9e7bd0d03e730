package lang

// Slab hands out values of T from chunks allocated together. A large file
// parses and compiles into millions of small objects of a few kinds while
// the parser makes many times their weight in short-lived garbage;
// allocated one by one, each object sits among that garbage, and once it
// is collected the heap is left full of half-empty spans (a file of
// 100,000 jobs held 165 MB of spans for 112 MB of syntax tree). From a
// slab they sit side by side. A chunk lives as long as any value in it, so
// only values that live as long as their slab's owner are taken from one
// (the parser's copy of a file's tree, a program's declarations). Chunks
// grow from one value to 1,024, doubling: a small source (a line typed at
// the REPL) holds no more than it uses, and a large file's values sit in
// large chunks. The zero Slab is ready to use; it is not safe for
// concurrent use.
type Slab[T any] struct {
	free []T
	next int // size of the next chunk
}

const (
	slabFirst = 1
	slabMax   = 1024
)

// Put stores v in the slab and returns where.
func (s *Slab[T]) Put(v T) *T {
	if len(s.free) == 0 {
		s.next = min(max(s.next*2, slabFirst), slabMax)
		s.free = make([]T, s.next)
	}
	x := &s.free[0]
	s.free = s.free[1:]
	*x = v
	return x
}

// Copy stores a copy of the elements of v in the slab and returns it, its
// capacity its length (an append copies it elsewhere). A nil or empty v
// stays as it is.
func (s *Slab[T]) Copy(v []T) []T {
	if len(v) == 0 {
		return v
	}
	if len(s.free) < len(v) {
		s.next = min(max(s.next*2, slabFirst), slabMax)
		s.free = make([]T, max(s.next, len(v)))
	}
	x := s.free[:len(v):len(v)]
	s.free = s.free[len(v):]
	copy(x, v)
	return x
}
