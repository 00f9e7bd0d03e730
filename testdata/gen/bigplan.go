// Command bigplan writes the large plans the README's memory figures are
// measured on, to standard output:
//
//	go run ./testdata/gen/bigplan.go -jobs 100000 > jobs100k.gpl
//	go run ./testdata/gen/bigplan.go -mixed 50000000 > mixed50.gpl
//	go run ./testdata/gen/bigplan.go -inventory 100000 > inv100k.csv
//	go run ./testdata/gen/bigplan.go -imports inv100k.csv > inv100k.gpl
//	go run ./testdata/gen/bigplan.go -rules 64000 > rules64k.gpl
//	go run ./testdata/gen/bigplan.go -sweep 100000 > sweep100k.gpl
//	go run ./testdata/gen/bigplan.go -failing 1000 > failing1k.gpl
//	go run ./testdata/gen/bigplan.go -lastfails 2000000 > lastfails2m.gpl
//
// -jobs N writes one pool and N jobs, each with its hours, factors, a
// ceiling and an expect. -mixed BYTES writes blocks of a commented pool, a
// let and two jobs (one extending the other) until the file has at least
// BYTES bytes. -inventory N writes a CSV inventory of N jobs on two
// pools (language §20: a duration, a percent, fractions, a ceiling on
// every other row, an owner), and -imports FILE.csv the plan that declares
// those pools and imports it. -rules N writes a ruleset of N single-field
// point rules over four fields (input_size == 2K B, …), none shadowed: the
// worst case of the analysis of rules that can never fire. -sweep N
// writes one job and a sweep over it named big of N points (N/100
// rounded up, times 100): two vary lines, devices from 1 up by 1 (the
// outer) and P from 0.01 to 1.00 (the inner, above the job's ceiling of
// 0.45 past it); run it with --max-points above N past 1,000,000.
// -failing N writes a let and N expects on it, each of which fails.
// -lastfails BYTES writes lets until the file has at least BYTES bytes,
// then one expect that fails.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
)

func main() {
	jobs := flag.Int("jobs", 0, "write one pool and this many jobs")
	mixed := flag.Int("mixed", 0, "write blocks of pools, lets and jobs up to this many bytes")
	inventory := flag.Int("inventory", 0, "write a CSV inventory of this many jobs")
	imports := flag.String("imports", "", "write the plan that imports the CSV inventory `FILE`")
	rules := flag.Int("rules", 0, "write a ruleset of this many single-field point rules")
	sweep := flag.Int("sweep", 0, "write a job and a sweep over it of this many points (a multiple of 100)")
	failing := flag.Int("failing", 0, "write a let and this many expects on it that fail")
	lastFails := flag.Int("lastfails", 0, "write lets up to this many bytes, then one expect that fails")
	flag.Parse()
	w := bufio.NewWriter(os.Stdout)
	switch {
	case *failing > 0:
		fmt.Fprint(w, "let x = 1\n")
		for i := range *failing {
			fmt.Fprintf(w, "expect x == %d\n", i+2)
		}
	case *lastFails > 0:
		for n, i := 0, 0; n < *lastFails; i++ {
			k, _ := fmt.Fprintf(w, "let v%d = %d\n", i, i)
			n += k
		}
		fmt.Fprint(w, "expect v0 == 1\n")
	case *sweep > 0:
		fmt.Fprint(w, "pool p {\n  devices = 100000\n  rate = 2.50 USD/h\n}\n\n")
		fmt.Fprint(w, "job train on p {\n  devices = 64\n  hours = 720h\n  factors { S = 0.95  R = 0.90  P = 0.33 }\n  ceilings { P = 0.45 }\n}\n\n")
		fmt.Fprintf(w, "sweep big over train {\n  vary devices from 1 to %d step 1\n  vary P from 0.01 to 1.00 step 0.01\n}\n", (*sweep+99)/100)
	case *rules > 0:
		fields := [4]string{"input_size", "batch_size", "flops", "sla_deadline"}
		unit := [4]string{"B", "", "FLOP", "ms"}
		fmt.Fprint(w, "rules big {\n")
		for i := range *rules {
			fmt.Fprintf(w, "  when %s == %d%s -> c%d\n", fields[i%4], 2*(i/4), unit[i%4], i%7)
		}
		fmt.Fprint(w, "  else other\n}\n")
	case *inventory > 0:
		fmt.Fprint(w, "job,on,devices,hours,S,R,P,ceiling.P,owner.P\n")
		pools := [2]string{"reserved", "spot"}
		for i := range *inventory {
			ceil := ""
			if i%2 == 0 {
				ceil = "0.50"
			}
			fmt.Fprintf(w, "job_%d,%s,%d,%dh,%d%%,0.%d,0.%d,%s,team_%d\n",
				i, pools[i%2], 8<<(i%5), 24*(1+i%30), 80+i%20, 85+i%15, 25+i%20, ceil, i%7)
		}
	case *imports != "":
		fmt.Fprintf(w, "pool reserved { devices = 100000000  rate = 2.10 USD/h }\npool spot { devices = 100000000  rate = 0.95 USD/h }\nimport %q\n", *imports)
	case *jobs > 0:
		fmt.Fprint(w, "pool p {\n  devices = 256\n  rate = 2.50 USD/h\n}\n\n")
		for i := range *jobs {
			fmt.Fprintf(w, "job j%d on p {\n  hours = 720h\n  factors { S = 0.95  R = 0.90  P = 0.33 }\n  ceilings { P = 0.45 }\n  expect mpg ≈ 0.282\n}\n\n", i)
		}
	case *mixed > 0:
		for n, i := 0, 0; n < *mixed; i++ {
			k, _ := fmt.Fprintf(w, `# block %d: a pool, a let and two jobs
pool p%d {
  devices = %d
  rate    = 2.50 USD/h
}

let f%d = 0.9 * 0.99  # a runtime factor
job a%d on p%d {
  hours = 720h
  factors { S = 0.95  R = f%d  P = 0.33 }
  ceilings { P = 0.45 }
  expect mpg ≈ 0.28 within 5%%
}
job b%d extends a%d {
  hours = 360h
}

`, i, i, 64+i%64, i, i, i, i, i, i)
			n += k
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: bigplan -jobs N | -mixed BYTES | -inventory N | -imports FILE.csv | -rules N | -sweep N | -failing N | -lastfails BYTES")
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "bigplan:", err)
		os.Exit(1)
	}
}
