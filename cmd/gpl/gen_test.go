package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/stdlib/priority"
	"github.com/gpl-lang/gpl/testdata/pipewatch"
)

// genCase is one ruleset gpl gen go writes in the differential test: the
// file declaring it ("" for the bundled one) and its name.
type genCase struct{ file, rules string }

// genCases are every ruleset of the repository that loads: the bundled
// kapsl, and those of the testdata and scenario files.
func genCases(t *testing.T) []genCase {
	cases := []genCase{{"", "kapsl"}}
	var files []string
	for _, dir := range []string{"../../testdata", "../../scenarios"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".gpl") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	for _, f := range files {
		s, err := eval.LoadFile(f)
		if err != nil {
			continue // a bad case, or one needing imports: its rulesets are tested where it loads
		}
		for _, name := range s.Rulesets() {
			cases = append(cases, genCase{f, name})
		}
	}
	return cases
}

// genRequests are n requests for a differential test: fields absent or
// present, values at and around the constants rules are written with and
// anywhere in range.
func genRequests(n int, seed uint64) []priority.Request {
	rng := rand.New(rand.NewPCG(seed, 1))
	near := []float64{0, 1, 2, 3, 4, 5, 8, 16, 100, 249, 250, 251, 1000, 4096, 499_999, 500_000, 500_001,
		1_000_000, 1_999_999, 2_000_000, 2_000_001, 1e9 - 1, 1e9, 1e9 + 1, 1e12}
	out := make([]priority.Request, n)
	for i := range out {
		r := priority.NewRequest()
		for f := priority.Field(0); f < priority.NumFields; f++ {
			switch rng.IntN(5) {
			case 0:
				if f.Optional() {
					r.Unset(f)
					continue
				}
				fallthrough
			case 1, 2, 3:
				r.Set(f, near[rng.IntN(len(near))])
			default:
				r.Set(f, float64(rng.IntN(3_000_000)))
			}
			if f == priority.Priority {
				r.Set(f, float64(rng.IntN(int(priority.MaxPriority)+1)))
			}
		}
		out[i] = r
	}
	return out
}

// TestGenGoAgrees writes every ruleset of the repository with gpl gen go,
// compiles the packages (in an overlay: nothing is written to the tree)
// with a program that classifies 100,000 requests with each, and
// compares its answers with Ruleset.Classify's. The output is gofmt's
// (WriteGo formats it); go vet and staticcheck check the kapsl package
// generated into stdlib/priority/internal/kapslgo, which the tree holds.
func TestGenGoAgrees(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH: the generated code cannot be compiled here")
	}
	if testing.Short() {
		t.Skip("compiles the generated packages; not in -short")
	}
	dir := t.TempDir()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(root, "cmd", "gpl", "internal", "gencheck")
	overlay := map[string]string{}
	reqs := genRequests(100_000, 3)
	var imports, table strings.Builder
	for i, c := range genCases(t) {
		pkg := fmt.Sprintf("r%d", i)
		args := []string{"gen", "go", "--rules", c.rules, "--package", pkg}
		if c.file != "" {
			args = append(args, c.file)
		}
		res := run(args...)
		if res.Code != 0 {
			t.Fatalf("gpl %s: exit %d\n%s", strings.Join(args, " "), res.Code, res.Stderr)
		}
		if formatted, err := format.Source([]byte(res.Stdout)); err != nil || string(formatted) != res.Stdout {
			t.Errorf("gpl %s: the output is not gofmt's (%v)", strings.Join(args, " "), err)
		}
		src := filepath.Join(dir, pkg+".go")
		if err := os.WriteFile(src, []byte(res.Stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[filepath.Join(base, pkg, "gen.go")] = src

		var rs *priority.Ruleset
		if c.file == "" {
			rs, _ = bundledRuleset(c.rules)
		} else {
			s, err := eval.LoadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			rs, _ = s.Ruleset(c.rules)
		}
		var want strings.Builder
		for _, r := range reqs {
			class, rule := rs.Classify(&r)
			fmt.Fprintf(&want, "%s %d\n", class, rule)
		}
		if err := os.WriteFile(filepath.Join(dir, pkg+".want"), []byte(want.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&imports, "\t%s \"github.com/gpl-lang/gpl/cmd/gpl/internal/gencheck/%s\"\n", pkg, pkg)
		fmt.Fprintf(&table, "\t{%q, %s.Classify},\n", pkg+" ("+c.file+" "+c.rules+")", pkg)
	}
	var reqText strings.Builder
	for _, r := range reqs {
		for f := priority.Field(0); f < priority.NumFields; f++ {
			v, ok := r.Get(f)
			if !ok {
				reqText.WriteString("- ")
				continue
			}
			reqText.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + " ")
		}
		reqText.WriteString("\n")
	}
	reqFile := filepath.Join(dir, "requests.txt")
	if err := os.WriteFile(reqFile, []byte(reqText.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mainSrc := filepath.Join(dir, "main.go")
	if err := os.WriteFile(mainSrc, []byte(fmt.Sprintf(genCheckMain, imports.String(), table.String())), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay[filepath.Join(base, "main.go")] = mainSrc
	ov, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		t.Fatal(err)
	}
	ovFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "run", "-overlay", ovFile, "./internal/gencheck", dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the generated code disagrees with Ruleset.Classify: %v\n%s", err, out)
	}
	if d := cmp.Diff(fmt.Sprintf("%d rulesets agree on %d requests\n", len(overlay)-1, len(reqs)), string(out)); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
	}
}

// genCheckMain is the program TestGenGoAgrees runs: it reads the
// requests, and for each generated package the answers it must give.
const genCheckMain = `package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/stdlib/priority"
%s)

var classifiers = []struct {
	name     string
	classify func(*priority.Request) (priority.Class, int)
}{
%s}

func main() {
	dir := os.Args[1]
	text, err := os.ReadFile(filepath.Join(dir, "requests.txt"))
	if err != nil {
		panic(err)
	}
	var reqs []priority.Request
	for _, line := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		r := priority.NewRequest()
		for f, cell := range strings.Fields(line) {
			if cell == "-" {
				r.Unset(priority.Field(f))
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				panic(err)
			}
			r.Set(priority.Field(f), v)
		}
		reqs = append(reqs, r)
	}
	bad := 0
	for _, c := range classifiers {
		want, err := os.ReadFile(filepath.Join(dir, strings.Fields(c.name)[0]+".want"))
		if err != nil {
			panic(err)
		}
		for i, w := range strings.Split(strings.TrimSpace(string(want)), "\n") {
			class, rule := c.classify(&reqs[i])
			if got := fmt.Sprintf("%%s %%d", class, rule); got != w {
				fmt.Printf("%%s: request %%d (%%v): generated %%s, Ruleset %%s\n", c.name, i+1, reqs[i], got, w)
				bad++
				break
			}
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
	fmt.Printf("%%d rulesets agree on %%d requests\n", len(classifiers), len(reqs))
}
`

// TestGenGoRefusesSpecialFiles: -o naming a FIFO is refused at once (the
// file there is checked before it is read), and the FIFO is left alone.
func TestGenGoRefusesSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "kapsl.go")
	if err := pipewatch.Mkfifo(fifo, 0o600); errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no named pipes here: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	res := run("gen", "go", "--rules", "kapsl", "-o", fifo)
	if d := cmp.Diff(result{Code: exitRuntime, Stderr: "gpl gen: cannot read " + fifo + ": it is a named pipe, not a regular file\n"}, res); d != "" {
		t.Errorf("gen go -o FIFO (-want +got):\n%s", d)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is not as it was: %v %v", info, err)
	}
}
