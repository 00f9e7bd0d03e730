package eval

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpl-lang/gpl/scenarios"
)

// fleetSource is a fleet of n jobs with windows on 100 reserved pools of a
// quarter (each with a schedule of three steps), every job of a pool
// running in its own stretch of the quarter so that the capacity check
// passes: the file a planner's inventory makes.
func fleetSource(n int) []byte {
	var b strings.Builder
	const pools = 100
	perPool := (n + pools - 1) / pools
	for p := range pools {
		fmt.Fprintf(&b, "pool p%d {\n  rate = 2.10 USD/h\n  from 2027-01-01 to 2027-04-01\n  devices { 2027-01-01: 512  2027-02-01: 768  2027-03-01: 1024 }\n}\n", p)
	}
	// 90 days of a pool split into perPool back-to-back windows, each
	// written with literal dates as an inventory writes them.
	start := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	slot := 90 * 24 * time.Hour / time.Duration(perPool)
	slot -= slot % time.Minute
	for j := range n {
		p, k := j%pools, j/pools
		from := start.Add(time.Duration(k) * slot)
		fmt.Fprintf(&b, "job j%d on p%d {\n  devices = %d\n  from %s to %s\n  factors { S = 0.95  R = 0.9  P = 0.38 }\n}\n",
			j, p, 256+j%256, from.Format("2006-01-02T15:04"), from.Add(slot).Format("2006-01-02T15:04"))
	}
	return []byte(b.String())
}

// BenchmarkFleetLoad loads a fleet of jobs with windows on 100 pools:
// parse, check, evaluate, the capacity check at every instant and every
// pool's table by month. The cost a job should be flat from 1,000 to
// 100,000 jobs: the timeline is a sort of the change points.
func BenchmarkFleetLoad(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			src := fleetSource(n)
			b.ReportAllocs()
			for b.Loop() {
				s, err := LoadSource("fleet.gpl", src)
				if err != nil {
					b.Fatal(err)
				}
				months := 0
				for p := range s.AllPools() {
					months += len(p.Months)
				}
				if months != 300 {
					b.Fatalf("%d months, want 300", months)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/job")
		})
	}
}

// TestFleetSourceLoads holds the benchmark's fleet to what it claims: it
// loads, every pool is a reservation with three months, and its jobs fill
// the quarter without going over.
func TestFleetSourceLoads(t *testing.T) {
	s, err := LoadSource("fleet.gpl", fleetSource(1000))
	if err != nil {
		t.Fatal(err)
	}
	pools := s.Pools()
	if len(pools) != 100 || !pools[0].Reserved || len(pools[0].Months) != 3 || len(pools[0].Jobs) != 10 {
		t.Fatalf("%d pools; the first: reserved %v, %d months, %d jobs", len(pools), pools[0].Reserved, len(pools[0].Months), len(pools[0].Jobs))
	}
}

// BenchmarkSweepOverFleetQuarter is 10,000 points of a sweep over the
// whole bundled fleet_quarter scenario: each point one evaluation of the
// file (two pools with their capacity checks and months, four jobs with
// windows, two groups), read for the fleet's mpg and the reservation's.
func BenchmarkSweepOverFleetQuarter(b *testing.B) {
	src, err := scenarios.Files.ReadFile("fleet_quarter.gpl")
	if err != nil {
		b.Fatal(err)
	}
	src = append(src, `
sweep many over file {
  vary ckpt_cost from 0.1s to 1000s step 0.1s
  show fleet.mpg, reserved_h100.mpg
}
`...)
	s, err := LoadSource("fleet_quarter.gpl", src)
	if err != nil {
		b.Fatal(err)
	}
	if v, _ := s.Eval("q", "many.points"); v.Num != 10000 {
		b.Fatalf("%v points, want 10,000", v.Num)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Eval("q", "many.max(reserved_h100.mpg)"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/point")
}
