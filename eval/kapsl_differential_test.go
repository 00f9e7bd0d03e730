package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/gpl-lang/gpl/stdlib/priority/kapsltest"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/stdlib/priority"
)

// TestStdKapslAgreesWithDeterminePriority loads std/kapsl through the
// language and compares it with the hand-written function on a million
// generated requests (100,000 under -short) with a fixed seed, every
// boundary of kapsl's constants included.
func TestStdKapslAgreesWithDeterminePriority(t *testing.T) {
	s, err := LoadSource("kapsl_test.gpl", []byte(`import "std/kapsl"`))
	if err != nil {
		t.Fatal(err)
	}
	rs, ok := s.Ruleset("kapsl")
	if !ok {
		t.Fatal("std/kapsl declares no ruleset kapsl")
	}
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	rng := rand.New(rand.NewPCG(53, 250))
	pick := func(xs ...uint64) uint64 { return xs[rng.IntN(len(xs))] }
	const max = 1<<53 - 1
	opt := func(boundaries ...uint64) *uint64 {
		if rng.IntN(4) == 0 {
			return nil // absent
		}
		var v uint64
		switch rng.IntN(3) {
		case 0:
			v = pick(boundaries...)
		case 1:
			v = rng.Uint64N(boundaries[len(boundaries)-1] * 4)
		default:
			v = rng.Uint64N(max)
		}
		return &v
	}
	mismatches := 0
	for i := 0; i < n; i++ {
		p := uint8(pick(0, 1, 255, uint64(rng.IntN(256))))
		batch := pick(0, 1, 4, 5, 8, 16, 32, uint64(rng.IntN(64)), rng.Uint64N(max))
		sla := opt(0, 249, 250, 251, 10_000)
		input := opt(0, 400_000, 499_999, 500_000, 500_001, 2_000_000, 2_000_001, 10_000_000)
		flops := opt(0, 999_999_999, 1_000_000_000, 1_000_000_001, 10_000_000_000)
		if i%7 == 0 && input != nil {
			// Products right at the combined boundary.
			b := pick(1, 2, 4, 5, 8)
			batch = b
			v := pick(2_000_000/b, 2_000_000/b+1, 2_000_001/b)
			input = &v
		}
		req := priority.NewRequest()
		req.Set(priority.Priority, float64(p))
		req.Set(priority.BatchSize, float64(batch))
		if sla != nil {
			req.Set(priority.SLADeadline, float64(*sla))
		}
		if input != nil {
			req.Set(priority.InputSize, float64(*input))
		}
		if flops != nil {
			req.Set(priority.Flops, float64(*flops))
		}
		got, _ := rs.Classify(&req)
		wc, _ := kapsltest.DeterminePriority(kapsltest.Metadata{Priority: p, SLADeadline: sla, BatchSize: batch, InputSize: input, Flops: flops})
		want := priority.Class(wc)
		if diff := cmp.Diff(want, got); diff != "" {
			mismatches++
			if mismatches <= 5 {
				t.Errorf("request %d (priority %d, sla %v, batch %d, input %v, flops %v): class differs (-want +got):\n%s",
					i, p, deref(sla), batch, deref(input), deref(flops), diff)
			}
		}
	}
	if mismatches > 0 {
		t.Fatalf("%d of %d requests classified differently", mismatches, n)
	}
}

func deref(p *uint64) any {
	if p == nil {
		return "absent"
	}
	return *p
}
