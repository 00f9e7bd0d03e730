package report_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
)

// tableText is a table as header and rows of cells joined by commas.
func tableText(t *report.Table) string {
	var b strings.Builder
	b.WriteString(strings.Join(t.Headers, ",") + "\n")
	for _, r := range t.Rows {
		for i, c := range r {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(c.Text)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestTables builds every kind of table of a small file: the headers are
// the JSON report's keys, a typed value's unit in its name, a solve's value
// named by its unit, a point that cannot be evaluated last.
func TestTables(t *testing.T) {
	s, err := eval.LoadSource("plan.gpl", []byte(`
param n = 64
pool p { devices = 256  rate = 1 USD/h }
job a on p { devices = n  hours = 10h  factors { S = 1  R = 1  P = 0.5 } }
job b on p { devices = 8  hours = 10h  factors { S = 1  R = 1  P = 0.25 }  ceilings { P = 0.5 } }
group g { a, b }
compare c { a, b }
sweep w over file { vary n in [0, 64] show a.mpg, a.cost }
solve v over b { find hours in [1h, 100h] such that cost >= $400 }
`))
	if err != nil {
		t.Fatal(err)
	}
	f := report.Build(s)
	if diff := cmp.Diff([]string{"jobs", "pools", "owners", "groups", "g", "c", "w", "v"}, f.TableNames()); diff != "" {
		t.Errorf("TableNames (-want +got):\n%s", diff)
	}
	for _, tt := range []struct{ name, want string }{
		{"pools", "pool,devices,hours_h,rate_usd_per_device_hour\np,256,,1\n"},
		{"c", "job,mpg,useful_hours_h,cost_usd,cost_per_useful_hour_usd,trade_ratio,cost_per_useful_hour_change_usd\n" +
			"a,0.5,320,640,2,1,0\nb,0.25,20,80,4,0.5,2\n"},
		{"g", "owner,factors,loss_hours_h,loss_cost_usd,gain_hours_h,saving_usd\n" +
			"program,program,380,380,20,40\nruntime,runtime,0,0,0,0\nscheduling,scheduling,0,0,0,0\n"},
		{"w", "n,a.mpg,a.cost_usd,error.message,error.file,error.line,error.column\n" +
			"0,,,devices is 0; a job needs at least one device,plan.gpl,4,24\n64,0.5,640,,,,\n"},
		{"v", "name,over,job,input,value_h,condition,result_of,result_usd\nv,job,b,hours,50,cost >= $400,cost,400\n"},
	} {
		tab, ok, err := f.Table(tt.name)
		if !ok || err != nil {
			t.Errorf("%s: %v, %v", tt.name, ok, err)
			continue
		}
		if diff := cmp.Diff(tt.want, tableText(tab)); diff != "" {
			t.Errorf("table %s (-want +got):\n%s", tt.name, diff)
		}
	}
	jobs, _, _ := f.Table("jobs")
	if got := strings.Join(jobs.Headers[:15], ","); got != "job,pool,extends,devices,hours_h,rate_usd_per_device_hour,factors.scheduling,factors.runtime,factors.program,ceilings.scheduling,ceilings.runtime,ceilings.program,owner.scheduling,owner.runtime,owner.program" {
		t.Errorf("the jobs table's inputs: %s", got)
	}
	if _, ok, _ := f.Table("nosuch"); ok {
		t.Error("a table that does not exist was built")
	}
	if _, ok, _ := f.Table("months"); ok {
		t.Error("a months table without a window")
	}
}

func TestPlainNumber(t *testing.T) {
	for in, want := range map[string]string{"1e+21": "1000000000000000000000", "1e-7": "0.0000001", "2.5": "2.5", "-3E2": "-300"} {
		if got := report.PlainNumber(in); got != want {
			t.Errorf("PlainNumber(%s) = %s, want %s", in, got, want)
		}
	}
}

// BenchmarkTableJobs builds the jobs table of a file of 100, 1,000 and
// 10,000 jobs (the scenario loaded once): the time per job must not grow
// with the jobs.
func BenchmarkTableJobs(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var src strings.Builder
			src.WriteString("pool p { devices = 100000000  rate = 2.10 USD/h }\n")
			for i := range n {
				fmt.Fprintf(&src, "job j%d on p { devices = %d  hours = 720h  factors { S = 0.95  R = 0.9  P = 0.%d }  ceilings { P = 0.5 } }\n", i, 8+i%64, 25+i%20)
			}
			s, err := eval.LoadSource("jobs.gpl", []byte(src.String()))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				t, ok, err := report.Outline(s).Judge().Table("jobs")
				if !ok || err != nil || len(t.Rows) != n {
					b.Fatal(ok, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/job")
		})
	}
}
