package eval

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestInventoryImport loads plans that import CSV inventories of jobs and
// pools, each written in another of the shapes RFC 4180 allows, and
// judges their expects: every row is declared as its block would be.
func TestInventoryImport(t *testing.T) {
	const pools = "pool reserved { devices = 1024  rate = 2.10 USD/h }\npool spot { devices = 256  rate = 0.95 USD/h }\n"
	tests := []struct {
		name  string
		files map[string]string
	}{
		{"the language's example", map[string]string{
			"plan.gpl": pools + `import "inv.csv"
expect pretrain.mpg ≈ 0.3249
expect pretrain.ceiling_mpg ≈ 0.38475
expect evals.ceiling_mpg == evals.mpg
`,
			"inv.csv": "job,on,devices,hours,S,R,P,ceiling.P,owner.P\npretrain,reserved,768,720h,95%,0.90,0.38,0.45,model performance\nevals,reserved,128,360h,0.98,0.97,0.30,,\n",
		}},
		{"a byte order mark, CRLF, quoted cells with a comma and a line break", map[string]string{
			"plan.gpl": pools + `import "inv.csv"
group g { a, b }
expect owner_saving(g, "evals, safety") >= $0
expect b.hours == 48h # the cell " 48h ", its spaces read past
`,
			"inv.csv": "\ufeffjob,on,devices,hours,scheduling,runtime,program,owner.program\r\n" +
				"a,reserved,8,\"24h\",0.9,0.9,0.3,\"evals, safety\"\r\n" +
				"b,spot,8, 48h ,0.9,0.9,0.3,\"two\r\nlines\"\r\n",
		}},
		{"pools, windows, extends and extends … on", map[string]string{
			"plan.gpl": `import "pools.csv"
import "jobs.csv"
expect base.hours == 336h
expect wide.devices == 256
expect wide.hours == 336h
expect moved.cost ≈ $6080 # 64 × 100 h × $0.95
expect reserved.offered_hours == 1105920h # 512 × 2,160 h
`,
			"pools.csv": "pool,devices,rate,from,to,owner.S\nreserved,512,2.10 USD/h,2027-01-01,2027-04-01,capacity\nspot,256,$0.95/h,,,\n",
			"jobs.csv":  "job,on,extends,devices,hours,from,for,S,R,P\nbase,reserved,,128,,2027-01-04,2wk,0.95,0.9,0.38\nwide,,base,256,,,,,,\nmoved,spot,base,64,100h,,,,,\n",
		}},
		{"gpl table's headers", map[string]string{
			"plan.gpl": pools + `import "inv.csv"
expect j.hours == 720h
expect j.rate == 2.10 USD/h
expect j.ceiling_mpg ≈ 0.95 * 0.9 * 0.45
`,
			"inv.csv": "job,pool,extends,devices,hours_h,rate_usd_per_device_hour,factors.scheduling,factors.runtime,factors.program,ceilings.program,owner.program,mpg,cost_usd,loss.program,waterfall.held_hours_h,results.point_value.program_usd\n" +
				"j,reserved,,64,720,2.1,0.95,0.9,0.38,0.45,program,0.9,1,2,3,4\n",
		}},
		{"a header alone declares nothing", map[string]string{
			"plan.gpl": pools + "import \"inv.csv\"\nexpect reserved.devices == 1024\n",
			"inv.csv":  "job,on,devices,hours\n",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, text := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(text)}
			}
			s, err := Load(fsys, "plan.gpl")
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			n := 0
			for _, o := range s.Test() {
				n++
				if !o.Pass {
					t.Errorf("%s fails: %v", o.Expectation.Name(), o.Diagnostic)
				}
			}
			if n == 0 {
				t.Error("no expect judged")
			}
		})
	}
}

// TestInventoryPositions checks where diagnostics place a cell: past a
// byte order mark (which takes no column), inside quotes, after
// characters of more than one byte, on a line after a quoted line break.
func TestInventoryPositions(t *testing.T) {
	fsys := fstest.MapFS{
		"plan.gpl": {Data: []byte("pool p { devices = 64 }\nimport \"inv.csv\"\n")},
		"inv.csv": {Data: []byte("\ufeffjob,on,owner.P,hours,S,R,P\r\n" +
			"a,p,\"équipe\",720,1,1,1\r\n" +
			"b,p,\"two\nlines\",\"7 20h\",1,1,1\r\n")},
	}
	_, err := Load(fsys, "plan.gpl")
	if err == nil {
		t.Fatal("Load succeeded; want the cells' errors")
	}
	var got []string
	for _, d := range err.(*Error).Diagnostics {
		got = append(got, d.Pos.String()+" "+strings.SplitN(d.Summary, ";", 2)[0])
	}
	want := []string{
		"inv.csv:2:14 hours is a duration",
		`inv.csv:4:11 syntax error: unexpected "20h"`, // lines","7 20h": the quote at 8
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// FuzzLoadInventory loads a plan that imports arbitrary bytes as a CSV
// inventory: whatever the rows declare, the checker and the evaluator
// never panic (Load recovers a panic as an internal error, which is a
// failure here).
func FuzzLoadInventory(f *testing.F) {
	for _, seed := range []string{
		"job,on,devices,hours,S,R,P,ceiling.P,owner.P\npretrain,p,768,720h,95%,0.90,0.38,0.45,model performance\n",
		"job,on,extends,devices,hours,from,for,S,R,P\nbase,p,,128,,2027-01-04,2wk,0.95,0.9,0.38\nwide,,base,256,,,,,,\nmoved,p,base,64,100h,,,,,\n",
		"pool,devices,rate,term,from,to,owner.S\nq,512,2.10 USD/h,,2027-01-01,2027-04-01,capacity\nr,8,$1/h,720h,,,\n",
		"job,pool,hours_h,rate_usd_per_device_hour,rate_eur_per_device_hour\nj,p,720,2.1,\n",
		"job,on,hours,to\nj,p,1h,2027-01-01\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, csv []byte) {
		fsys := fstest.MapFS{
			"plan.gpl": {Data: []byte("pool p { devices = 1024  rate = 2.10 USD/h }\nimport \"inv.csv\"\n")},
			"inv.csv":  {Data: csv},
		}
		_, err := Load(fsys, "plan.gpl")
		if e, ok := err.(*Error); ok && e.Internal {
			t.Fatalf("internal error: %v\n%s", e, e.Stack)
		}
	})
}
