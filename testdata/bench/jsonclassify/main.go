// Command jsonclassify is the encoding/json reference gpl classify is
// measured against: each line of a request stream decoded with
// json.Unmarshal into a struct, then kapsl's rules (kapsl-scheduler
// 0.1.0's determine_priority) as plain Go. It writes one class per line,
// as gpl classify --rules kapsl does for a well-formed stream, and stops
// at the first line encoding/json refuses.
//
//	go build -o jsonclassify ./testdata/bench/jsonclassify
//	jsonclassify [FILE...]
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// request is a line of the stream; a missing key or a null is nil.
type request struct {
	Priority       *uint8  `json:"priority"`
	SLADeadline    *uint64 `json:"sla_deadline"`
	BatchSize      *uint64 `json:"batch_size"`
	InputSizeBytes *uint64 `json:"input_size_bytes"`
	EstimatedFlops *uint64 `json:"estimated_flops"`
}

// latencyCritical is kapsl's determine_priority: the first rule that
// holds makes a request latency critical; none, throughput.
func latencyCritical(r *request) bool {
	prio, batch := uint8(1), uint64(1)
	if r.Priority != nil {
		prio = *r.Priority
	}
	if r.BatchSize != nil {
		batch = *r.BatchSize
	}
	return prio == 0 ||
		r.SLADeadline != nil && *r.SLADeadline < 250 ||
		r.InputSizeBytes != nil && *r.InputSizeBytes <= 500_000 ||
		r.EstimatedFlops != nil && *r.EstimatedFlops <= 1_000_000_000 ||
		r.InputSizeBytes != nil && *r.InputSizeBytes*batch <= 2_000_000 ||
		batch <= 4
}

func main() {
	var ins []io.Reader
	for _, a := range os.Args[1:] {
		f, err := os.Open(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, "jsonclassify:", err)
			os.Exit(1)
		}
		ins = append(ins, f)
	}
	if len(ins) == 0 {
		ins = append(ins, os.Stdin)
	}
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	line := 0
	for _, in := range ins {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 128<<10), 1<<20)
		for sc.Scan() {
			line++
			var r request
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				out.Flush()
				fmt.Fprintf(os.Stderr, "jsonclassify: line %d: %v\n", line, err)
				os.Exit(1)
			}
			if latencyCritical(&r) {
				out.WriteString("latency_critical\n")
			} else {
				out.WriteString("throughput\n")
			}
		}
		if err := sc.Err(); err != nil {
			out.Flush()
			fmt.Fprintln(os.Stderr, "jsonclassify:", err)
			os.Exit(1)
		}
	}
	out.Flush()
}
