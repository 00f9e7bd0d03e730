package eval

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/format"
)

// genProgram builds a random valid program from seed: pools, jobs on them
// and extending each other, params and lets, owners, a ruleset and
// requests, groups, a compare and a sweep, and expects written so that
// they hold (each compares a result with itself or with a bound it cannot
// cross). It returns the text and how many expects it wrote.
func genProgram(seed uint64) (string, int) {
	rng := rand.New(rand.NewPCG(seed, seed>>32|1))
	var b strings.Builder
	expects := 0
	expect := func(format string, args ...any) {
		fmt.Fprintf(&b, "expect "+format+"\n", args...)
		expects++
	}
	frac := func(lo float64) float64 { return lo + (1-lo)*float64(rng.IntN(1000))/1000 }

	fmt.Fprintf(&b, "param rate = %d.%02d USD/h\n", 1+rng.IntN(4), rng.IntN(100))
	fmt.Fprintf(&b, "let peak = %.3f\n", frac(0.5))
	if rng.IntN(2) == 0 {
		b.WriteString("owners { scheduling = \"capacity\"  runtime = \"infra\"  program = \"models\" }\n")
	}
	pools := 1 + rng.IntN(3)
	for i := range pools {
		fmt.Fprintf(&b, "pool p%d {\n  devices = %d\n  rate    = rate\n", i, 1+rng.IntN(4096))
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "  hours   = %dh\n", 1+rng.IntN(2000))
		}
		b.WriteString("}\n")
	}
	jobs := 1 + rng.IntN(5)
	for i := range jobs {
		if i > 0 && rng.IntN(3) == 0 {
			parent := rng.IntN(i)
			fmt.Fprintf(&b, "job j%d extends j%d", i, parent)
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, " on p%d", rng.IntN(pools))
			}
			fmt.Fprintf(&b, " {\n  factors { program = %.3f }\n", 0.01+frac(0)*0.48)
		} else {
			fmt.Fprintf(&b, "job j%d on p%d {\n  hours    = %dh\n", i, rng.IntN(pools), 1+rng.IntN(1000))
			s, r, p := frac(0.5), frac(0.5), 0.01+frac(0)*0.48
			fmt.Fprintf(&b, "  factors  { S = %.3f  R = %.3f  P = %.3f }\n", s, r, p)
			fmt.Fprintf(&b, "  ceilings { S = 1  R = 1  P = peak }\n")
		}
		b.WriteString("  expect mpg == S * R * P\n  expect useful_hours <= offered_hours\n  expect badput_cost >= 0\n}\n")
		expects += 3
		expect("j%d.mpg <= j%d.ceiling_mpg", i, i)
	}
	b.WriteString("rules serving {\n  quick: when sla_deadline < 250ms -> latency_critical\n  small: when batch_size <= 4 -> latency_critical\n  else throughput\n}\n")
	for i := range 1 + rng.IntN(3) {
		fmt.Fprintf(&b, "request r%d { batch_size = %d  sla_deadline = %dms }\n", i, 1+rng.IntN(16), rng.IntN(1000))
		expect("classify(serving, r%d) == classify(serving, r%d)", i, i)
	}
	if jobs > 1 {
		fmt.Fprintf(&b, "group all { j0, j%d }\n", jobs-1)
		expect("all.jobs == 2")
		expect("all.useful_hours <= all.offered_hours")
		fmt.Fprintf(&b, "compare cmp { j0, j%d }\n", jobs-1)
		expect("cmp.ratio(j0) == 1")
	}
	fmt.Fprintf(&b, "sweep sw over j0 {\n  vary devices in [%d, %d]\n}\n", 1+rng.IntN(8), 9+rng.IntN(8))
	expect("sw.points == 2")
	expect("sw.max(useful_hours) >= sw.min(useful_hours)")
	return b.String(), expects
}

// FuzzGenerated loads random valid programs: each must load without a
// diagnostic, every expect it wrote must pass, and gpl fmt's layout of it
// must load to the same outcomes. The same seed then builds a program
// that reads across kinds (genCrossRefs), most often wrongly: it must
// load to positioned errors, never a panic. That is how the fuzzer
// reaches the language's references, which random bytes seldom spell.
func FuzzGenerated(f *testing.F) {
	for _, seed := range []uint64{0, 1, 2, 42, 1 << 40, 12345678901} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkCrossRefs(t, seed)
		src, n := genProgram(seed)
		outcomes := func(name string, text []byte) []bool {
			s, err := LoadSource(name, text)
			if err != nil {
				var b strings.Builder
				if e, ok := err.(*Error); ok {
					e.Diagnostics.RenderAll(&b, s.Sources(), lang.Style{})
				}
				t.Fatalf("a generated program does not load:\n%s\n%s", text, b.String())
			}
			var got []bool
			for _, o := range s.Test() {
				if !o.Pass {
					var b strings.Builder
					o.Diagnostic.Render(&b, s.Sources(), lang.Style{})
					t.Fatalf("a generated expect fails:\n%s\n%s", text, b.String())
				}
				got = append(got, o.Pass)
			}
			return got
		}
		first := outcomes("gen.gpl", []byte(src))
		if len(first) != n {
			t.Fatalf("%d outcomes, %d expects written:\n%s", len(first), n, src)
		}
		formatted, ferr := format.FormatSource("gen.gpl", []byte(src))
		if ferr != nil {
			t.Fatalf("gpl fmt refuses a generated program: %v\n%s", ferr, src)
		}
		if again := outcomes("fmt.gpl", formatted); len(again) != n {
			t.Fatalf("after gpl fmt, %d outcomes, want %d:\n%s", len(again), n, formatted)
		}
	})
}

func TestGeneratedProgramsLoad(t *testing.T) {
	for seed := range uint64(200) {
		src, n := genProgram(seed)
		s, err := LoadSource("gen.gpl", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		passed := 0
		for _, o := range s.Test() {
			if o.Pass {
				passed++
			}
		}
		if passed != n {
			t.Fatalf("seed %d: %d of %d expects pass\n%s", seed, passed, n, src)
		}
	}
}

// crossProgram is a generated program that reads across kinds, in a main
// file and the files it imports.
type crossProgram struct {
	main []byte
	fsys fstest.MapFS // main.gpl and its imports
}

// genCrossRefs builds a random program from seed whose values read any
// declaration of any kind, declared before or after, in the file or in
// one it imports: pool fields reading job results, jobs reading groups,
// compares and solves, sweeps over sweeps, groups of pools, imports that
// read back. Most such programs are wrong, many of them in cycles; what
// FuzzGenerated asks of them is that loading says so, never panics, and
// places every error in a file.
func genCrossRefs(seed uint64) crossProgram {
	rng := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, seed>>17|3))
	type decl struct{ kind, name string }
	var decls []decl
	kinds := []string{"let", "param", "pool", "job", "group", "compare", "sweep", "solve", "request", "rules"}
	count := map[string]int{}
	for range 3 + rng.IntN(10) {
		k := kinds[rng.IntN(len(kinds))]
		decls = append(decls, decl{k, fmt.Sprintf("%s%d", k[:2], count[k])})
		count[k]++
	}
	// Every program has a pool and a job: most references lead there.
	decls = append(decls, decl{"pool", "po_main"}, decl{"job", "jo_main"})
	pick := func(kind string) string {
		var names []string
		for _, d := range decls {
			if kind == "" || d.kind == kind {
				names = append(names, d.name)
			}
		}
		if len(names) == 0 || rng.IntN(8) == 0 {
			return decls[rng.IntN(len(decls))].name // a name of another kind
		}
		return names[rng.IntN(len(names))]
	}
	kindOf := func(name string) string {
		for _, d := range decls {
			if d.name == name {
				return d.kind
			}
		}
		return ""
	}
	// field is a reference to name read as a field of the dimension of
	// want (devices, hours, rate or a factor), mostly one that fits.
	field := func(name, want string) string {
		fits := map[string]map[string][]string{
			"job":     {"devices": {"devices", "mpg * 8"}, "hours": {"hours", "useful_hours", "offered_hours"}, "rate": {"rate", "cost_per_useful_hour"}, "factor": {"mpg", "S", "program"}},
			"pool":    {"devices": {"devices"}, "hours": {"hours"}, "rate": {"rate"}, "factor": {"devices / 1000"}},
			"group":   {"devices": {"jobs"}, "hours": {"useful_hours"}, "rate": {"cost_per_useful_hour"}, "factor": {"mpg"}},
			"sweep":   {"devices": {"points", "argmax(mpg).devices"}, "hours": {"max(useful_hours)"}, "rate": {"min(cost_per_useful_hour)"}, "factor": {"max(mpg)"}},
			"solve":   {"devices": {"devices"}, "hours": {"useful_hours"}, "rate": {"rate"}, "factor": {"runtime", "mpg"}},
			"compare": {"devices": {"ratio(jo_main) * 8"}, "factor": {"ratio(jo_main) / 2"}, "hours": {"best"}, "rate": {"best"}},
			"request": {"devices": {"batch_size"}, "factor": {"priority"}, "hours": {"sla_deadline"}, "rate": {"batch_size"}},
		}
		switch k := kindOf(name); k {
		case "let", "param", "rules":
			return name
		default:
			opts := fits[k][want]
			if len(opts) == 0 || rng.IntN(6) == 0 {
				opts = []string{"mpg", "devices", "hours", "points", "best"}
			}
			return name + "." + opts[rng.IntN(len(opts))]
		}
	}
	lit := map[string]string{"devices": "8", "hours": "100h", "rate": "2.50 USD/h", "factor": "0.9"}
	value := func(want string) string {
		switch rng.IntN(4) {
		case 0:
			return lit[want]
		case 1:
			return field(pick(""), want)
		default:
			// Mostly a job or a pool: where the cycles through pools are.
			return field(pick([]string{"job", "pool", "group", "sweep"}[rng.IntN(4)]), want)
		}
	}
	list := func(kind string) string {
		var names []string
		for range 1 + rng.IntN(3) {
			names = append(names, pick(kind))
		}
		return strings.Join(names, ", ")
	}
	write := func(b *strings.Builder, d decl) {
		switch d.kind {
		case "let":
			fmt.Fprintf(b, "let %s = %s\n", d.name, value([]string{"devices", "hours", "rate", "factor"}[rng.IntN(4)]))
		case "param":
			fmt.Fprintf(b, "param %s = %s\n", d.name, lit[[]string{"devices", "hours", "rate", "factor"}[rng.IntN(4)]])
		case "pool":
			fmt.Fprintf(b, "pool %s {", d.name)
			for _, f := range []string{"devices", "hours", "rate"} {
				if rng.IntN(3) > 0 {
					fmt.Fprintf(b, " %s = %s ", f, value(f))
				}
			}
			b.WriteString("}\n")
		case "job":
			switch rng.IntN(4) {
			case 0:
				fmt.Fprintf(b, "job %s extends %s {", d.name, pick("job"))
			case 1:
				fmt.Fprintf(b, "job %s extends %s on %s {", d.name, pick("job"), pick("pool"))
			default:
				fmt.Fprintf(b, "job %s on %s {", d.name, pick("pool"))
			}
			for _, f := range []string{"devices", "hours", "rate"} {
				if rng.IntN(4) == 0 {
					fmt.Fprintf(b, " %s = %s ", f, value(f))
				}
			}
			fmt.Fprintf(b, " factors { S = %s  R = %s  P = %s }", value("factor"), value("factor"), value("factor"))
			if rng.IntN(3) == 0 {
				fmt.Fprintf(b, " expect mpg <= %s", value("factor"))
			}
			b.WriteString(" }\n")
		case "group":
			fmt.Fprintf(b, "group %s { %s }\n", d.name, list("job"))
		case "compare":
			fmt.Fprintf(b, "compare %s { %s }\n", d.name, list("job"))
		case "sweep":
			over := pick([]string{"job", "sweep", "solve", "group"}[rng.IntN(4)])
			fmt.Fprintf(b, "sweep %s over %s { vary devices in [1, %s] }\n", d.name, over, value("devices"))
		case "solve":
			fmt.Fprintf(b, "solve %s over %s { find devices in [1, 64] such that useful_hours >= %s }\n", d.name, pick("job"), value("hours"))
		case "request":
			fmt.Fprintf(b, "request %s { batch_size = %s }\n", d.name, value("devices"))
		case "rules":
			fmt.Fprintf(b, "rules %s { when batch_size <= %s -> small  else large }\n", d.name, value("devices"))
		}
	}
	// Declarations are shuffled, some into lib.gpl, which main imports
	// (and which may import main back).
	rng.Shuffle(len(decls), func(i, j int) { decls[i], decls[j] = decls[j], decls[i] })
	var main, lib strings.Builder
	imports := rng.IntN(3) == 0
	if imports {
		main.WriteString("import \"lib.gpl\"\n")
		if rng.IntN(4) == 0 {
			lib.WriteString("import \"main.gpl\"\n")
		}
	}
	for _, d := range decls {
		if imports && rng.IntN(3) == 0 {
			write(&lib, d)
		} else {
			write(&main, d)
		}
	}
	for range rng.IntN(3) {
		fmt.Fprintf(&main, "expect %s > 0\n", value([]string{"devices", "hours", "factor"}[rng.IntN(3)]))
	}
	fsys := fstest.MapFS{"main.gpl": {Data: []byte(main.String())}}
	if imports {
		fsys["lib.gpl"] = &fstest.MapFile{Data: []byte(lib.String())}
	}
	return crossProgram{main: []byte(main.String()), fsys: fsys}
}

// checkCrossRefs loads a program of genCrossRefs and fails t if loading
// panics, returns anything but an *Error, reports a bug in gpl, or places
// an error nowhere; what it returns must render and answer queries.
func checkCrossRefs(t *testing.T, seed uint64) {
	t.Helper()
	prog := genCrossRefs(seed)
	show := func() string {
		s := string(prog.main)
		if lib, ok := prog.fsys["lib.gpl"]; ok {
			s += "-- lib.gpl --\n" + string(lib.Data)
		}
		return s
	}
	s, err := LoadWith(Options{FS: prog.fsys}, "main.gpl", nil)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("seed %d: error %T, want an *eval.Error: %v\n%s", seed, err, err, show())
		}
		if e.Internal {
			t.Fatalf("seed %d: %v\n%s\n%s", seed, e, show(), e.Stack)
		}
		for _, d := range e.Diagnostics {
			if d.Pos.Filename == "" || d.Pos.Line == 0 {
				t.Fatalf("seed %d: an error placed nowhere: %s\n%s", seed, d.Summary, show())
			}
		}
		e.Diagnostics.RenderAll(io.Discard, s.Sources(), lang.Style{})
	}
	s.Test()
	for _, j := range s.Jobs() {
		j.Get("mpg")
	}
	for _, sw := range s.Sweeps() {
		s.SweepPoints(sw.Name, func(SweepPoint) bool { return false })
	}
}

// TestCrossRefsLoad runs the cross-kind generator over a fixed range of
// seeds, as FuzzGenerated's corpus does.
func TestCrossRefsLoad(t *testing.T) {
	for seed := range uint64(300) {
		checkCrossRefs(t, seed)
	}
}
