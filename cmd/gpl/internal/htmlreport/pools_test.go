package htmlreport

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
)

// quarter is language.md §19's reserved pool with a growing schedule.
const quarter = `pool reserved_h100 {
  rate    = 2.10 USD/h
  from 2027-01-01 to 2027-04-01
  devices { 2027-01-01: 512  2027-02-01: 768  2027-03-01: 1024 }
}
job pretrain on reserved_h100 {
  devices = 512
  from 2027-01-04 to 2027-03-29
  factors { S = 0.95  R = 0.90  P = 0.38 }
}
job finetune on reserved_h100 {
  devices = 256
  from 2027-02-01 for 14d
  factors { S = 0.97  R = 0.95  P = 0.33 }
}
job evals on reserved_h100 {
  devices = 384
  from 2027-03-01 for 21d
  factors { S = 0.98  R = 0.97  P = 0.30 }
}
pool spot { devices = 64  rate = 1 USD/h }
`

// TestPoolOf checks the page's figures of a reservation and its table by
// month, and that a pool paid per use without dates is not shown.
func TestPoolOf(t *testing.T) {
	s, err := eval.LoadSource("quarter.gpl", []byte(quarter))
	if err != nil {
		t.Fatal(err)
	}
	m := report.Build(s)
	got, ok := poolOf(m.Pools[0])
	if !ok {
		t.Fatal("the reservation is not shown")
	}
	want := Pool{Name: "reserved_h100",
		Facts: [][2]string{{"window", "2027-01-01 to 2027-04-01"}, {"offered", "1,658,880 h"}, {"allocated", "1,311,744 h"},
			{"idle", "347,136 h"}, {"utilisation", "0.790741"}, {"useful", "416,709 h"}, {"mpg", "0.251199"},
			{"cost", "$3,483,648.00"}, {"idle cost", "$728,985.60"}, {"cost per useful hour", "$8.3599/h"},
			{"jobs", "pretrain, finetune, evals"}},
		Months: [][]string{
			{"month", "offered", "allocated", "idle", "useful", "utilisation", "cost", "idle cost"},
			{"2027-01", "380,928 h", "344,064 h", "36,864 h", "111,786 h", "0.903226", "$799,948.80", "$77,414.40"},
			{"2027-02", "516,096 h", "430,080 h", "86,016 h", "137,943 h", "0.833333", "$1,083,801.60", "$180,633.60"},
			{"2027-03", "761,856 h", "537,600 h", "224,256 h", "166,979 h", "0.705645", "$1,599,897.60", "$470,937.60"},
		}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("poolOf (-want +got):\n%s", d)
	}
	if _, shown := poolOf(m.Pools[1]); shown {
		t.Errorf("pool spot, paid per use without dates, is shown")
	}
}
