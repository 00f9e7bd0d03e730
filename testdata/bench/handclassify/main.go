// Command handclassify is the practical limit gpl classify is measured
// against: kapsl's rules over a request stream with a scanner that
// validates nothing. It takes the five keys by their first byte, reads
// the digits after the colon, and ignores everything else, so a malformed
// line gets a class rather than an error. It writes what gpl classify
// --rules kapsl writes for a well-formed stream: one class per line, or
// with -jsonl the line with "class" and "rule" added before its closing
// brace.
//
//	go build -o handclassify ./testdata/bench/handclassify
//	handclassify [-jsonl] [FILE...]
//
// Files are read in order, stdin when there are none, 128 KiB at a time.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// The value slots of a request.
const (
	prio = iota
	sla
	batch
	input
	flops
)

// rules names kapsl's rules in order, else last, and class gives each
// rule's class.
var (
	rules = [...]string{"override", "sla", "light", "combined", "small", "else"}
	class = [...]string{"latency_critical", "latency_critical", "latency_critical", "latency_critical", "latency_critical", "throughput"}
)

// slotOf maps a key's first byte to its slot, and keyLen says how long
// the key is with its closing quote, so the scanner can step over it.
var (
	slotOf [256]int8
	keyLen = [...]int{prio: 9, sla: 13, batch: 11, input: 17, flops: 16}
)

func init() {
	for i := range slotOf {
		slotOf[i] = -1
	}
	slotOf['p'], slotOf['s'], slotOf['b'], slotOf['i'], slotOf['e'] = prio, sla, batch, input, flops
}

// rule returns the index of the kapsl rule that decides line, 5 for else.
func rule(line []byte) int {
	var v [5]uint64
	var has uint
	for i := 0; i < len(line); i++ {
		if line[i] != '"' || i+1 >= len(line) {
			continue
		}
		s := slotOf[line[i+1]]
		if s < 0 {
			continue
		}
		i += 1 + keyLen[s]
		for i < len(line) && (line[i] == ':' || line[i] == ' ') {
			i++
		}
		start := i
		var x uint64
		for ; i < len(line) && line[i]-'0' <= 9; i++ {
			x = x*10 + uint64(line[i]-'0')
		}
		if i > start {
			v[s], has = x, has|1<<s
		}
		i--
	}
	p, b := uint64(1), uint64(1)
	if has&(1<<prio) != 0 {
		p = v[prio]
	}
	if has&(1<<batch) != 0 {
		b = v[batch]
	}
	switch {
	case p == 0:
		return 0
	case has&(1<<sla) != 0 && v[sla] < 250:
		return 1
	case has&(1<<input) != 0 && v[input] <= 500_000, has&(1<<flops) != 0 && v[flops] <= 1_000_000_000:
		return 2
	case has&(1<<input) != 0 && v[input]*b <= 2_000_000:
		return 3
	case b <= 4:
		return 4
	}
	return 5
}

func main() {
	args := os.Args[1:]
	jsonl := len(args) > 0 && args[0] == "-jsonl"
	if jsonl {
		args = args[1:]
	}
	var text, members [len(rules)][]byte
	for r := range rules {
		text[r] = []byte(class[r] + "\n")
		members[r] = []byte(`,"class":"` + class[r] + `","rule":"` + rules[r] + "\"}\n")
	}
	out := make([]byte, 0, 80<<10)
	emit := func(line []byte) {
		r := rule(line)
		if !jsonl {
			out = append(out, text[r]...)
		} else if j := bytes.LastIndexByte(line, '}'); j >= 0 {
			out = append(append(out, line[:j]...), members[r]...)
		}
		if len(out) >= 64<<10 {
			os.Stdout.Write(out)
			out = out[:0]
		}
	}
	var ins []io.Reader
	for _, a := range args {
		f, err := os.Open(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, "handclassify:", err)
			os.Exit(1)
		}
		ins = append(ins, f)
	}
	if len(ins) == 0 {
		ins = append(ins, os.Stdin)
	}
	buf := make([]byte, 128<<10)
	for _, in := range ins {
		have := 0 // buf[:have] is read, not yet classified
		for {
			n, err := in.Read(buf[have:])
			have += n
			done := 0
			for {
				nl := bytes.IndexByte(buf[done:have], '\n')
				if nl < 0 {
					break
				}
				emit(buf[done : done+nl])
				done += nl + 1
			}
			have = copy(buf, buf[done:have])
			if have == len(buf) {
				buf = append(buf, make([]byte, len(buf))...)
			}
			if err != nil {
				break
			}
		}
		if have > 0 {
			emit(buf[:have])
		}
	}
	os.Stdout.Write(out)
}
