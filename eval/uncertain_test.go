package eval

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// loadUncertain loads src with opts, failing the test on an error.
func loadUncertain(t testing.TB, opts Options, src string) *Scenario {
	t.Helper()
	s, err := LoadWith(opts, "u.gpl", []byte(src))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return s
}

func num(t testing.TB, s *Scenario, expr string) float64 {
	t.Helper()
	v, err := s.Eval("expr", expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v.Num
}

const productOfLognormals = `
pool p { devices = 8  rate = 2 USD/h }
job j on p {
  devices = 8
  hours   = 100h
  factors { S = 0.95  R = lognormal(0.88, 0.02)  P = lognormal(0.33, 0.05) }
}
`

// TestProductOfLognormals is language.md §23's closed form: S × R × P
// with R and P lognormal is lognormal, median 0.95 × 0.88 × 0.33 and
// σ √(0.02² + 0.05²).
func TestProductOfLognormals(t *testing.T) {
	s := loadUncertain(t, Options{}, productOfLognormals)
	for _, c := range []struct {
		expr string
		want float64
	}{
		{"j.mpg.p50", 0.27588},
		{"j.mpg.p10", 0.257483},
		{"j.mpg.p90", 0.295592},
		{"j.mpg.mean", 0.276280},
	} {
		if got := num(t, s, c.expr); math.Abs(got-c.want) > 0.005*c.want {
			t.Errorf("%s = %.6f, want %.6f within 0.5%%", c.expr, got, c.want)
		}
	}
	// A probability's Monte Carlo error at 10,000 samples is
	// √(p(1 − p)/n) = 0.0038 (2.1% of 0.17699): held to three of it.
	if got := num(t, s, "probability(j.mpg >= 0.29)"); math.Abs(got-0.17699) > 3*0.0038 {
		t.Errorf("probability(j.mpg >= 0.29) = %.5f, want 0.17699 ± 0.0114", got)
	}
	if a, b := num(t, s, "j.mpg.p(0.9)"), num(t, s, "j.mpg.p90"); a != b {
		t.Errorf("j.mpg.p(0.9) = %v, j.mpg.p90 = %v", a, b)
	}
	if got := num(t, s, "j.mpg.sd"); math.Abs(got-0.0149) > 0.0005 {
		t.Errorf("j.mpg.sd = %.5f", got)
	}
}

// TestSumOfNormals: a sum of independent normals is normal, its mean the
// sum of the means and its variance the sum of the variances; the mean
// of a uniform is the middle of its range.
func TestSumOfNormals(t *testing.T) {
	s := loadUncertain(t, Options{}, `
let a = normal(10h, 3h)
let b = normal(5h, 4h)
let c = a + b
let u = uniform(2, 6)
`)
	if got := num(t, s, "c.mean") / 3600; math.Abs(got-15) > 0.15 {
		t.Errorf("c.mean = %.4f h, want 15 h", got)
	}
	if got := num(t, s, "c.sd") / 3600; math.Abs(got-5) > 0.1 {
		t.Errorf("c.sd = %.4f h, want 5 h", got)
	}
	if got := num(t, s, "u.mean"); math.Abs(got-4) > 0.03 {
		t.Errorf("u.mean = %.4f, want 4", got)
	}
}

// TestSamplingIsDeterministic: the same file, seed and samples give the
// same figures bit for bit; another seed changes them a little.
func TestSamplingIsDeterministic(t *testing.T) {
	a := loadUncertain(t, Options{}, productOfLognormals).Uncertain()
	b := loadUncertain(t, Options{}, productOfLognormals).Uncertain()
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two loads differ: %s", diff)
	}
	c := loadUncertain(t, Options{Seed: 2}, productOfLognormals).Uncertain()
	if a[0].P50 == c[0].P50 {
		t.Error("seed 2 gave seed 1's median")
	}
	if math.Abs(a[0].P50-c[0].P50) > 0.005*a[0].P50 {
		t.Errorf("seed 2's median %v far from seed 1's %v", c[0].P50, a[0].P50)
	}
	d := loadUncertain(t, Options{Samples: 1000}, productOfLognormals).Uncertain()
	if len(d[0].Sorted) != 1000 {
		t.Errorf("--samples 1000 kept %d samples", len(d[0].Sorted))
	}
}

// TestSharedStream: a distribution read by two jobs is one stream, so
// their mpgs move together (a correlated fleet).
func TestSharedStream(t *testing.T) {
	s := loadUncertain(t, Options{}, `
let mfu = 0.38 to 0.43
pool p { devices = 8  rate = 2 USD/h }
job a on p { devices = 8  hours = 10h  factors { S = 1  R = 1  P = mfu } }
job b on p { devices = 4  hours = 10h  factors { S = 1  R = 1  P = mfu } }
`)
	if got := num(t, s, "probability(a.mpg == b.mpg)"); got != 1 {
		t.Errorf("probability(a.mpg == b.mpg) = %v, want 1: one stream", got)
	}
	if got := num(t, s, "mfu.min"); got <= 0 || num(t, s, "mfu.max") >= 1 {
		t.Errorf("a fraction's interval left (0, 1)")
	}
}

// TestPlainFileHasNoSampling: a file without a distribution is not
// sampled, and a statistic of a plain value is the value.
func TestPlainFileHasNoSampling(t *testing.T) {
	s := loadUncertain(t, Options{}, `let x = 3h`)
	if n, _ := s.Sampling(); n != 0 || s.Uncertain() != nil {
		t.Errorf("a plain file was sampled: %d samples", n)
	}
	if got := num(t, s, "x.p90"); got != 3*3600 {
		t.Errorf("x.p90 = %v", got)
	}
}

func BenchmarkUncertainDefault(b *testing.B) {
	src := productOfLognormals
	for b.Loop() {
		loadUncertain(b, Options{}, src)
	}
}

// TestUncertainGroup: a group of jobs that read one uncertain input is
// uncertain, its cost a headline result, and a statistic of it reads.
func TestUncertainGroup(t *testing.T) {
	s := loadUncertain(t, Options{Samples: 2000}, `
let mfu = 0.38 to 0.43
pool p { devices = 16  rate = 2 USD/h }
job a on p { devices = 8  hours = 10h  factors { S = 1  R = 1  P = mfu } }
job b on p { devices = 8  hours = 10h  factors { S = 1  R = 1  P = 0.5 } }
group both { a, b }
`)
	var names []string
	for _, r := range s.Uncertain() {
		names = append(names, r.Name)
	}
	want := []string{"mfu", "p.mpg", "p.useful_hours", "p.cost_per_useful_hour", "a.mpg", "a.useful_hours", "a.cost_per_useful_hour", "both.mpg", "both.useful_hours", "both.cost"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("uncertain results (-want +got):\n%s", diff)
	}
	// The group's useful hours are a's (80 h × mfu) and b's 40 h.
	if got, want := num(t, s, "both.useful_hours.p50")/3600, 80*num(t, s, "mfu.p50")+40; math.Abs(got-want) > 1e-9*want {
		t.Errorf("both.useful_hours.p50 = %v h, want %v h", got, want)
	}
	// The pool's figures are of the same samples: its useful hours are
	// the group's, sample by sample, and a plain comparison of one is
	// the error of any uncertain value.
	if got, want := num(t, s, "p.useful_hours.p50"), num(t, s, "both.useful_hours.p50"); got != want {
		t.Errorf("p.useful_hours.p50 = %v, want both's %v", got, want)
	}
	if _, err := s.Eval("expr", "p.mpg >= 0.3"); err == nil {
		t.Errorf("p.mpg >= 0.3: no error, want the plain comparison's")
	}
}

// TestUncertainConcurrentReads: statistics first asked for after the load,
// from several goroutines at once, are computed once and agree.
func TestUncertainConcurrentReads(t *testing.T) {
	s := loadUncertain(t, Options{Samples: 500}, productOfLognormals)
	got := make([]float64, 4)
	done := make(chan int)
	for i := range got {
		go func() {
			v, err := s.Eval("e", "j.mpg.p(0.3)")
			if err == nil {
				got[i] = v.Num
			}
			s.Tornado("j.mpg")
			done <- i
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

// sweepOfUncertain is a file with two distributions, a sweep over the
// file that shows statistics and a solve on one (language.md §23).
const sweepOfUncertain = `
param mtbf = 2.5h to 4h
param ckpt = 1min
pool p {
  devices = 768
  rate = 2.50 USD/h
}
job pretrain on p {
  hours = 720h
  factors {
    S = 0.95
    R = runtime_goodput(mtbf, ckpt, 10min)
    P = 0.38 to 0.43
  }
}
sweep storage over file {
  vary ckpt in [10s, 1min, 2min]
  show pretrain.mpg.p10, pretrain.mpg.p50
}
solve max_ckpt over file {
  find ckpt in [1s, 10min] such that pretrain.mpg.p10 >= 0.30
}
`

// TestSweepAndSolveOnAStatistic: each point of a sweep or solve over
// the file is sampled, the same streams with the point's params. At
// ckpt = 1min, the file's own value, the point's statistics are the
// file's, bit for bit; the others are pinned as computed.
func TestSweepAndSolveOnAStatistic(t *testing.T) {
	s := loadUncertain(t, Options{Samples: 1000}, sweepOfUncertain)
	if d := s.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	got := map[string]float64{}
	for _, e := range []string{
		"storage.at(ckpt = 1min).pretrain.mpg.p10", "pretrain.mpg.p10",
		"storage.at(ckpt = 1min).pretrain.mpg.p50", "pretrain.mpg.p50",
		"storage.at(ckpt = 10s).pretrain.mpg.p10", "storage.at(ckpt = 2min).pretrain.mpg.p10",
		"max_ckpt.ckpt",
	} {
		got[e] = num(t, s, e)
	}
	if got["storage.at(ckpt = 1min).pretrain.mpg.p10"] != got["pretrain.mpg.p10"] ||
		got["storage.at(ckpt = 1min).pretrain.mpg.p50"] != got["pretrain.mpg.p50"] {
		t.Errorf("the point at the file's own ckpt differs from the file: %v", got)
	}
	want := map[string]float64{
		"max_ckpt.ckpt":                            82.86702879257513,
		"pretrain.mpg.p10":                         0.30694731008573695,
		"pretrain.mpg.p50":                         0.3244380135457715,
		"storage.at(ckpt = 10s).pretrain.mpg.p10":  0.33015583807376125,
		"storage.at(ckpt = 1min).pretrain.mpg.p10": 0.30694731008573695,
		"storage.at(ckpt = 1min).pretrain.mpg.p50": 0.3244380135457715,
		"storage.at(ckpt = 2min).pretrain.mpg.p10": 0.2902399897288534,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The file written with the solve's answer: its p10 is the target.
	at := loadUncertain(t, Options{Samples: 1000}, strings.Replace(sweepOfUncertain, "param ckpt = 1min", "param ckpt = 82.86702879257513s", 1))
	if p10 := num(t, at, "pretrain.mpg.p10"); math.Abs(p10-0.30) > 1e-6 {
		t.Errorf("at the solve's answer, pretrain.mpg.p10 = %.8f, want 0.30", p10)
	}
}

// textOfUncertain is a job whose best lever depends on two
// distributions: the runtime's gain to its ceiling against the
// program's.
const textOfUncertain = `
param mtbf = 2.5h to 4h
pool p {
  devices = 768
  rate = 2.50 USD/h
}
job pretrain on p {
  hours = 720h
  factors {
    S = 0.95
    R = runtime_goodput(mtbf, 1min, 10min)
    P = 0.36 to 0.41
  }
  ceilings { R = 0.90  P = 0.45 }
}
let lever = pretrain.best_lever
`

// TestTextResultOfUncertain: a text result that depends on a
// distribution reads as the value most samples give, and probability(…)
// says how often each value comes; the shares of the two levers add up
// to 1.
func TestTextResultOfUncertain(t *testing.T) {
	s := loadUncertain(t, Options{Samples: 1000}, textOfUncertain)
	if d := s.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	got := map[string]any{}
	for _, e := range []string{`pretrain.best_lever`, `lever`} {
		v, err := s.Eval("expr", e)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		got[e] = v.Str
	}
	for _, e := range []string{`probability(pretrain.best_lever == "program")`, `probability(pretrain.best_lever == "runtime")`,
		`pretrain.best_lever == "program" ? 1 : 0`} {
		got[e] = num(t, s, e)
	}
	want := map[string]any{
		"lever":               "program",
		"pretrain.best_lever": "program",
		`pretrain.best_lever == "program" ? 1 : 0`:      1.0,
		`probability(pretrain.best_lever == "program")`: 0.989, // 989 of 1,000
		`probability(pretrain.best_lever == "runtime")`: 0.011,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSweepStatisticConcurrentReads reads a statistic at a sweep's
// point, and the mode of a text, from several goroutines at once: each
// gives the answer one read alone gives (go test -race checks the
// rest).
func TestSweepStatisticConcurrentReads(t *testing.T) {
	src := strings.Replace(sweepOfUncertain, "P = 0.38 to 0.43", "P = 0.36 to 0.41\n  }\n  ceilings { R = 0.90  P = 0.45", 1)
	s := loadUncertain(t, Options{Samples: 300}, src+"let lever = pretrain.best_lever\n")
	exprs := []string{"storage.at(ckpt = 10s).pretrain.mpg.p10", "storage.at(ckpt = 2min).pretrain.mpg.p50", "max_ckpt.ckpt"}
	want := make([]float64, len(exprs))
	for i, e := range exprs {
		want[i] = num(t, s, e)
	}
	errs := make(chan string, 4*len(exprs))
	done := make(chan bool)
	for range 4 {
		go func() {
			for i, e := range exprs {
				if v, err := s.Eval("e", e); err != nil || v.Num != want[i] {
					errs <- fmt.Sprintf("%s = %v, %v; want %v", e, v.Num, err, want[i])
				}
			}
			if v, err := s.Eval("e", "lever"); err != nil || v.Str != "program" {
				errs <- fmt.Sprintf("lever = %q, %v", v.Str, err)
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
