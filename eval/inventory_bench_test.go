package eval

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// inventoryCSV is a CSV inventory of n jobs on two pools, every cell
// style of language §20: a duration, a percent, fractions, an empty
// ceiling every other row, an owner.
func inventoryCSV(n int) []byte {
	var b strings.Builder
	b.WriteString("job,on,devices,hours,S,R,P,ceiling.P,owner.P\n")
	pools := [2]string{"reserved", "spot"}
	for i := range n {
		ceil := ""
		if i%2 == 0 {
			ceil = "0.50"
		}
		fmt.Fprintf(&b, "job_%d,%s,%d,%dh,%d%%,0.%d,0.%d,%s,team_%d\n",
			i, pools[i%2], 8<<(i%5), 24*(1+i%30), 80+i%20, 85+i%15, 25+i%20, ceil, i%7)
	}
	return []byte(b.String())
}

const inventoryPlan = `pool reserved { devices = 100000000  rate = 2.10 USD/h }
pool spot { devices = 100000000  rate = 0.95 USD/h }
import "inventory.csv"
`

// BenchmarkImportInventory loads a file that imports a CSV inventory of
// 1,000, 10,000 and 100,000 jobs (read, parse each cell, check, evaluate)
// and reports the time and the live heap per row: figures that must not
// grow with the rows.
func BenchmarkImportInventory(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			fsys := fstest.MapFS{
				"plan.gpl":      {Data: []byte(inventoryPlan)},
				"inventory.csv": {Data: inventoryCSV(n)},
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(fsys["inventory.csv"].Data)))
			for b.Loop() {
				if _, err := Load(fsys, "plan.gpl"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
			live, _ := heapBytes(func() any {
				s, _ := Load(fsys, "plan.gpl")
				return s
			})
			b.ReportMetric(float64(live)/float64(n), "live-B/row")
		})
	}
}
