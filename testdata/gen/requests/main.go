// Command requests writes a deterministic stream of synthetic inference
// requests, one JSON object a line, for the README's gpl classify figures:
//
//	go run ./testdata/gen/requests -n 1000000 -seed 42 > req1000000.jsonl
//
// Each request carries kapsl's keys, each drawn from a splitmix64 stream
// seeded with -seed (the same seed gives the same bytes on every machine):
// priority 0 for about 5% of requests, else 1 to 3; sla_deadline (ms, 50
// to 5,000) on about 40%; batch_size 1 to 64; input_size_bytes (1 kB to
// 50 MB) on about 80%; estimated_flops (1e7 to 1e12) on about 60%. The
// sizes are spread evenly over their octaves (log-uniform), as real
// request sizes roughly are.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
)

// splitmix64 is a small, fast generator with a 64-bit state.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9E3779B97F4A7C15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// spread draws a value in [lo, hi]: one of octaves octaves [lo·2^e,
// lo·2^(e+1)) evenly, then a value inside it, the last cut at hi.
func (s *splitmix64) spread(lo, hi uint64, octaves uint64) uint64 {
	base := lo << (s.next() % octaves)
	width := min(base, hi+1-base)
	return base + s.next()%width
}

func main() {
	n := flag.Int("n", 1000000, "how many requests to write")
	seed := flag.Uint64("seed", 42, "the generator's seed")
	flag.Parse()
	rng := splitmix64(*seed)
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	var line []byte
	for range *n {
		line = append(line[:0], `{"priority":`...)
		prio := uint64(0)
		if rng.next()%100 >= 5 {
			prio = 1 + rng.next()%3
		}
		line = strconv.AppendUint(line, prio, 10)
		if rng.next()%100 < 40 {
			line = append(line, `,"sla_deadline":`...)
			line = strconv.AppendUint(line, rng.spread(50, 5000, 7), 10)
		}
		line = append(line, `,"batch_size":`...)
		line = strconv.AppendUint(line, 1+rng.next()%64, 10)
		if rng.next()%100 < 80 {
			line = append(line, `,"input_size_bytes":`...)
			line = strconv.AppendUint(line, rng.spread(1000, 50_000_000, 16), 10)
		}
		if rng.next()%100 < 60 {
			line = append(line, `,"estimated_flops":`...)
			line = strconv.AppendUint(line, rng.spread(10_000_000, 1_000_000_000_000, 17), 10)
		}
		line = append(line, "}\n"...)
		if _, err := w.Write(line); err != nil {
			fmt.Fprintln(os.Stderr, "requests:", err)
			os.Exit(1)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "requests:", err)
		os.Exit(1)
	}
}
