package eval

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// columnCases are uncertain files for TestColumnsAsSamples: every kind
// of line the column-wise pass covers, and some it leaves to the loop of
// samples, with errors in some samples.
var columnCases = map[string]string{
	"product":  productOfLognormals,
	"sweep":    sweepOfUncertain,
	"text":     textOfUncertain,
	"fleet":    string(uncertainFleet(12)),
	"fraction": "let mfu = 0.30 to 0.45\npool p { devices = 8  rate = 2 USD/h }\njob j on p { hours = 10h  factors { S = 1  R = 1  P = mfu * 1.5 } }\n",
	"group": `
let mfu = 0.38 to 0.43
let mtbf = 2h to 5h
pool p { devices = 16  rate = 2 USD/h }
job a on p { devices = 8  hours = 10h  factors { S = 1  R = runtime_goodput(mtbf, 1min, 5min)  P = mfu } }
job b on p { devices = 8  hours = 10h  factors { S = 1  R = 1  P = 0.5 } }
job c on p { devices = 4  hours = 30h  factors { S = 0.9  R = 0.95  P = mfu * 0.9 } }
group both { c, a, b }
group two { a, c }
expect both.mpg.p10 >= 0.1
`,
	"inherited": `
param runtime = 0.85 to 0.95
let peak = 0.45
pool p { devices = 128  rate = 2.50 USD/h }
job base on p {
  hours = 720h
  factors { S = 0.95  R = runtime  P = 0.31 to 0.35 }
  ceilings { S = 0.98  R = 0.99  P = peak }
}
job tuned extends base { factors { P = 0.40 } }
let spread = base.mpg.p90 - base.mpg.p10
`,
	"pool": `
let price = 2 USD/h to 3 USD/h
pool p { devices = 64  rate = price }
job j on p { hours = 100h to 200h  factors { S = 0.9  R = 0.9  P = 0.4 } }
job k on p { devices = 32  hours = 50h  factors { S = 0.9  R = normal(0.9, 0.01)  P = 0.4 } }
`,
	"other results": `
let r = 0.85 to 0.95
pool p { devices = 8  rate = 2 USD/h }
job j on p { hours = 10h  factors { S = 0.9  R = r  P = 0.4 }  ceilings { R = 0.995 } }
let b = j.badput.p10
let g = j.gain.runtime.p50
let h = j.headroom.mean
let pr = probability(j.mpg > 0.33)
`,
	"pools": `
let mfu = 0.38 to 0.43
pool shared { devices = 64  rate = 2 USD/h }
pool reserved { devices = 256  rate = 1.5 USD/h  term = 1000h }
pool free { devices = 8 }
job a on shared { devices = 32  hours = 100h  factors { S = 0.9  R = 0.9  P = mfu } }
job b on reserved { devices = 128  hours = 800h  factors { S = 0.95  R = 0.9 to 0.95  P = 0.4 } }
job c on reserved { devices = 64  hours = 500h  factors { S = 0.95  R = 0.9  P = 0.4 } }
job d on free { devices = 8  hours = 10h  factors { S = 0.95  R = 0.9  P = mfu } }
let idle = reserved.idle_cost.p50
let u = reserved.utilisation.p10
let m = shared.mpg.p90
`,
	"self statistic": "param runtime = 0.85 to 0.95\npool p { devices = 128  rate = 2.50 USD/h }\njob base on p { hours = 720h  factors { S = 0.95  R = runtime  P = 0.31 to 0.35 } }\nlet x = base.mpg - base.mpg.p50\n",
	"bad factor":     "let r = 0.9 to 1.05\npool p { devices = 8 }\njob j on p { hours = 10h  factors { S = 0.9  R = r  P = 0.4 } }\n",
	"bad devices":    "let d = 8 to 16\npool p { devices = d }\njob j on p { hours = 10h  factors { S = 0.9  R = 0.9  P = 0.4 } }\n",
	"ceiling":        "let r = 0.85 to 0.95\npool p { devices = 8 }\njob j on p { hours = 10h  factors { S = 0.9  R = r  P = 0.4 }  ceilings { R = 0.93 } }\n",
	"zero mpg":       "let s = uniform(0, 0.5)\npool p { devices = 8  rate = 2 USD/h }\njob j on p { hours = 10h  factors { S = s  R = 0.9  P = 0.4 } }\n",
}

// TestColumnsAsSamples: the column-wise pass gives every headline
// result, tornado and diagnostic that the loop of samples gives, bit for
// bit.
func TestColumnsAsSamples(t *testing.T) {
	cases := map[string]string{}
	for k, v := range columnCases {
		cases[k] = v
	}
	for _, f := range []string{"../scenarios/llama3_405b_uncertain.gpl", "../testdata/lang/language_md_23_uncertainty.gpl"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases[f] = string(src)
	}
	cases["default"] = string(uncertainDefault(t))
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			got := columnsView(t, src, false)
			want := columnsView(t, src, true)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("columns (+) against the loop of samples (-):\n%s", diff)
			}
		})
	}
}

// columnsView is what the views read of src's sampling, its samples'
// bits among it.
func columnsView(t *testing.T, src string, loop bool) []string {
	t.Helper()
	noColumns = loop
	defer func() { noColumns = false }()
	s, err := LoadWith(Options{Samples: 1500, Seed: 3}, "u.gpl", []byte(src))
	if err != nil && s == nil {
		return []string{"error: " + err.Error()}
	}
	var out []string
	for _, d := range s.Diagnostics() {
		out = append(out, d.Error()+" "+strings.Join(d.Notes, "; "))
	}
	for _, r := range s.Uncertain() {
		h := uint64(0)
		for _, x := range r.Sorted {
			h = h*31 + math.Float64bits(x)
		}
		out = append(out, fmt.Sprintf("%s %v %v %v %v %v %v %#x", r.Name, r.Mean, r.SD, r.Min, r.Max, r.P5, r.P95, h))
		for _, b := range s.Tornado(r.Name) {
			out = append(out, fmt.Sprintf("  %s %v %v", b.Input, b.P5, b.P95))
		}
	}
	for _, o := range s.Test() {
		out = append(out, fmt.Sprintf("expect %+v", o))
	}
	if strings.Contains(src, "sweep storage") {
		for _, e := range []string{"storage.at(ckpt = 10s).pretrain.mpg.p10", "max_ckpt.ckpt"} {
			v, err := s.Eval("e", e)
			out = append(out, fmt.Sprintf("%s = %v %v", e, v.Num, err))
		}
	}
	return out
}

// TestSamplesLetGo: past keptSamples a sampling keeps its quantities'
// statistics alone, and their samples and quantiles, asked later, are
// the samples it would have kept.
func TestSamplesLetGo(t *testing.T) {
	src := string(uncertainFleet(5)) + "group all { j0, j1, j2, j3, j4 }\n"
	load := func() *Scenario {
		s, err := LoadWith(Options{Samples: 1000}, "u.gpl", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	read := func(s *Scenario) []string {
		var out []string
		for _, r := range s.Uncertain() {
			xs := s.UncertainSamples(r.Name)
			out = append(out, fmt.Sprintf("%s %v %v %v %d %v %v", r.Name, r.P10, r.P50, r.SD, len(xs), xs[0], xs[len(xs)-1]))
			for _, e := range []string{".p(0.3)", ".p10", ".max"} {
				v, err := s.Eval("e", r.Name+e)
				out = append(out, fmt.Sprintf("  %s = %v %v", e, v.Num, err))
			}
		}
		return out
	}
	want := read(load())
	defer func(k int) { keptSamples = k }(keptSamples)
	keptSamples = 4000
	s := load()
	kept := 0
	for _, r := range s.Uncertain() {
		if r.Sorted != nil {
			kept++
		}
	}
	if kept != 4 {
		t.Errorf("%d results kept their samples, want 4", kept)
	}
	if diff := cmp.Diff(want, read(s)); diff != "" {
		t.Errorf("let go (+) against kept (-):\n%s", diff)
	}
}

// TestSamplesLetGoConcurrentReads: quantiles of let-go samples asked
// from several goroutines at once draw them once and agree (go test
// -race checks the rest).
func TestSamplesLetGoConcurrentReads(t *testing.T) {
	defer func(k int) { keptSamples = k }(keptSamples)
	keptSamples = 0
	s, err := LoadWith(Options{Samples: 500}, "u.gpl", uncertainFleet(3))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float64, 4)
	done := make(chan bool)
	for i := range got {
		go func() {
			v, err := s.Eval("e", "j2.mpg.p(0.3)")
			if err == nil {
				got[i] = v.Num
			}
			s.UncertainSamples("j1.useful_hours")
			done <- true
		}()
	}
	for range got {
		<-done
	}
	for i := range got {
		if got[i] == 0 || got[i] != got[0] {
			t.Fatalf("concurrent reads gave %v", got)
		}
	}
}
