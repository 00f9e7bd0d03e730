package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpl-lang/gpl/testdata/fuzzcorpus"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
)

// catalogueInput is one hostile input of TestVerbsOnCatalogue: a file's
// bytes, written under its own name in the test's directory.
type catalogueInput struct {
	name string // where it came from, for the failure message
	file string // its base name in the temp dir (.gpl or .csv)
	src  []byte
}

// catalogueInputs gathers the bad-input cases (with the CSV files they
// import), the golden programs and the fuzz corpora of the parser.
func catalogueInputs(t *testing.T) []catalogueInput {
	t.Helper()
	var ins []catalogueInput
	for _, glob := range []string{"../../testdata/bad/*.gpl", "../../testdata/bad/*.csv", "../../testdata/lang/*.gpl"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, catalogueInput{name: f, file: filepath.Base(f), src: b})
		}
	}
	for _, dir := range []string{"../../lang/testdata/fuzz/FuzzParse", "../../lang/testdata/fuzz/FuzzScan", "../../eval/testdata/fuzz/FuzzLoad"} {
		entries, err := fuzzcorpus.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			for i, b := range e.Texts {
				ins = append(ins, catalogueInput{
					name: fmt.Sprintf("%s#%d", e.File, i),
					file: fmt.Sprintf("fuzz_%s_%d.gpl", filepath.Base(e.File), i),
					src:  b,
				})
			}
		}
	}
	return append(ins, mutants(ins)...)
}

// mutants derives more hostile inputs from each .gpl input, the same on
// every run: the file cut at three places (mid-token, mid-block), two of
// its lines swapped, a line repeated, and the file twice over (every
// declaration declared again).
func mutants(ins []catalogueInput) []catalogueInput {
	r := rand.New(rand.NewPCG(24, 2))
	var out []catalogueInput
	for _, in := range ins {
		if !strings.HasSuffix(in.file, ".gpl") || len(in.src) < 8 || strings.HasPrefix(in.file, "fuzz_") {
			continue
		}
		base := strings.TrimSuffix(in.file, ".gpl")
		add := func(kind string, src []byte) {
			out = append(out, catalogueInput{name: in.name + " (" + kind + ")", file: base + "_" + kind + ".gpl", src: src})
		}
		for i := range 3 {
			n := 1 + r.IntN(len(in.src)-1)
			add(fmt.Sprintf("cut%d", i), bytes.Clone(in.src[:n]))
		}
		lines := bytes.SplitAfter(in.src, []byte("\n"))
		if len(lines) > 2 {
			a, b := r.IntN(len(lines)), r.IntN(len(lines))
			sw := slices.Clone(lines)
			sw[a], sw[b] = sw[b], sw[a]
			add("swap", bytes.Join(sw, nil))
			k := r.IntN(len(lines))
			rep := slices.Insert(slices.Clone(lines), k, lines[k])
			add("repeat", bytes.Join(rep, nil))
		}
		add("twice", append(bytes.Clone(in.src), in.src...))
	}
	return out
}

// TestVerbsOnCatalogue runs every verb that reads a program over the
// hostile inputs: the bad-input catalogue, the golden programs and the
// parser's fuzz corpora. For each it asserts what any input must get:
//
//   - an exit code the verb documents, never the internal error's 5, and
//     no panic or stack on either stream;
//   - a refusal that says where: every exit 2 names a file, line and
//     column on stderr;
//   - nothing clobbered: a report or table written with -o over a file
//     that exists leaves that file as it was unless the command succeeds
//     at loading, and `fmt -w` leaves a file that does not parse as it was;
//   - `gpl fmt` idempotent: what it prints, printed again, is the same.
func TestVerbsOnCatalogue(t *testing.T) {
	ins := catalogueInputs(t)
	if len(ins) < 1000 {
		t.Fatalf("only %d inputs", len(ins))
	}
	dir := t.TempDir()
	for _, in := range ins {
		if err := os.WriteFile(filepath.Join(dir, in.file), in.src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const sentinel = "written before the test\n"
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := runMain(args, strings.NewReader(""), &out, &errOut, func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		})
		return code, out.String(), errOut.String()
	}
	allowed := map[string][]int{
		"check":  {cli.ExitOK, cli.ExitCheck, cli.ExitRuntime},
		"run":    {cli.ExitOK, cli.ExitCheck, cli.ExitRuntime, cli.ExitExpected},
		"json":   {cli.ExitOK, cli.ExitCheck, cli.ExitRuntime, cli.ExitExpected},
		"test":   {cli.ExitOK, cli.ExitCheck, cli.ExitRuntime, cli.ExitExpected},
		"fmt":    {cli.ExitOK, cli.ExitCheck},
		"report": {cli.ExitOK, cli.ExitCheck, cli.ExitRuntime, cli.ExitExpected},
		"table":  {cli.ExitOK, cli.ExitUsage, cli.ExitCheck, cli.ExitRuntime},
	}
	runs := 0
	for i, in := range ins {
		if raceEnabled && i%5 != 0 {
			continue // the race detector costs ten times the run: a fifth of the inputs, every one without it
		}
		if strings.HasSuffix(in.file, ".csv") {
			continue // read through the .gpl files that import them
		}
		path := filepath.Join(dir, in.file)
		out := filepath.Join(dir, "out_"+strings.TrimSuffix(in.file, ".gpl"))
		verbs := []struct {
			verb string
			args []string
		}{
			{"check", []string{"check", path}},
			{"run", []string{"run", path}},
			{"json", []string{"run", "--format", "json", path}},
			{"test", []string{"test", "--no-progress", path}},
			{"fmt", []string{"fmt", path}},
			{"report", []string{"report", "-o", out + ".html", path}},
			{"table", []string{"table", "-o", out + ".csv", path, "jobs"}},
		}
		for _, v := range verbs {
			for _, f := range []string{out + ".html", out + ".csv"} {
				if err := os.WriteFile(f, []byte(sentinel), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, stdout, stderr := run(v.args...)
			runs++
			if !slices.Contains(allowed[v.verb], code) {
				t.Errorf("%s: gpl %s: exit %d\n%s", in.name, strings.Join(v.args, " "), code, stderr)
				continue
			}
			for _, s := range []string{stdout, stderr} {
				if strings.Contains(s, "goroutine ") || strings.Contains(s, "panic:") || strings.Contains(s, "internal error") {
					t.Errorf("%s: gpl %s: a panic's trace in the output:\n%s", in.name, v.verb, s)
				}
			}
			if code == cli.ExitCheck && !strings.Contains(stderr, ".gpl:") && !strings.Contains(stderr, ".csv:") {
				t.Errorf("%s: gpl %s: exit 2 with no position:\n%s", in.name, v.verb, stderr)
			}
			if code == cli.ExitCheck || code == cli.ExitUsage {
				for _, f := range []string{out + ".html", out + ".csv"} {
					b, err := os.ReadFile(f)
					if err != nil || string(b) != sentinel {
						t.Errorf("%s: gpl %s exited %d and changed %s (%v)", in.name, v.verb, code, filepath.Base(f), err)
					}
				}
			}
			if v.verb == "fmt" && code == cli.ExitOK {
				again := filepath.Join(dir, "again.gpl")
				if err := os.WriteFile(again, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
				code2, stdout2, stderr2 := run("fmt", again)
				if code2 != cli.ExitOK || stdout2 != stdout {
					t.Errorf("%s: gpl fmt is not idempotent (exit %d):\n%s\n--- first ---\n%s\n--- second ---\n%s", in.name, code2, stderr2, stdout, stdout2)
				}
			}
		}
		if code, _, _ := run("fmt", path); code == cli.ExitCheck {
			before, _ := os.ReadFile(path)
			run("fmt", "-w", path)
			after, _ := os.ReadFile(path)
			if !bytes.Equal(before, after) {
				t.Errorf("%s: gpl fmt -w rewrote a file it could not parse", in.name)
			}
		}
	}
	t.Logf("%d inputs, %d runs", len(ins), runs)
}
