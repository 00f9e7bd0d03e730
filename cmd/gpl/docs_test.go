package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/scenarios"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/rogpeppe/go-internal/testscript"
)

// The documentation's code blocks, and how TestDocExamples treats each by
// its info string (the words after the opening fence):
//
//   - gpl: a scenario, loaded as a file (bundled scenarios and std/
//     importable) that must load and whose every expect must pass;
//     "gpl continued" is loaded after the doc's previous gpl example and
//     what that one continued.
//   - go: Go code that must stand, line for line, in an Example function
//     of the repository's tests, which go test runs and whose // Output:
//     it checks (the README's blocks: eval/example_readme_test.go).
//   - sh: shell commands. Each line that runs gpl (gpl …, or go run
//     ./cmd/gpl …) is run in a directory holding the bundled scenarios and
//     small request files, and must exit 0; the go command's own lines (go
//     test, go install, …) are not run.
//   - console: "$ COMMAND" lines, each followed by exactly the standard
//     output it prints; the commands are run as sh lines are.
//   - text: output, a synopsis or a diagram, not a program.
//   - any kind followed by "norun": not meant to run (CI configuration, a
//     command a test cannot run).
//
// A block without an info string is an error: say what it is.

// docFiles are the documents whose blocks are run.
func docFiles(t *testing.T) []string {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, files...)
}

// docBlock is one fenced code block of a document.
type docBlock struct {
	file  string // as the repository names it: README.md, docs/ci.md
	line  int    // of the opening fence
	kind  string // the info string's first word
	words []string
	body  string
}

func (b docBlock) String() string {
	return fmt.Sprintf("%s:%d (```%s)", b.file, b.line, strings.Join(append([]string{b.kind}, b.words...), " "))
}

func (b docBlock) has(word string) bool {
	for _, w := range b.words {
		if w == word {
			return true
		}
	}
	return false
}

var fence = regexp.MustCompile("^( *)(```+)(.*)$")

// docBlocks returns the fenced code blocks of a Markdown file.
func docBlocks(t *testing.T, path string) []docBlock {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(filepath.ToSlash(path), "../../")
	var blocks []docBlock
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent, marks := m[1], m[2]
		info := strings.Fields(m[3])
		blk := docBlock{file: name, line: i + 1}
		if len(info) > 0 {
			blk.kind, blk.words = info[0], info[1:]
		}
		var body []string
		for i++; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == marks {
				break
			}
			body = append(body, strings.TrimPrefix(lines[i], indent))
		}
		blk.body = strings.Join(body, "\n") + "\n"
		blocks = append(blocks, blk)
	}
	return blocks
}

// TestDocExamples runs every code block of README.md and docs/*.md as its
// info string says.
func TestDocExamples(t *testing.T) {
	var shell []docBlock
	goSources := testSources(t)
	for _, path := range docFiles(t) {
		var chain string // the gpl examples a "continued" one builds on
		for _, b := range docBlocks(t, path) {
			if b.kind == "" {
				t.Errorf("%s: a code block without an info string; say what it is (gpl, go, sh, console, text, or KIND norun)", b)
				continue
			}
			if b.has("norun") {
				continue
			}
			switch b.kind {
			case "gpl":
				src := b.body
				if b.has("continued") {
					if chain == "" {
						t.Errorf("%s: continued, but no gpl example comes before it", b)
					}
					src = chain + "\n" + src
				}
				chain = src
				runDocScenario(t, b, src)
			case "go":
				if !inExample(goSources, b.body) {
					t.Errorf("%s: not found line for line in an Example of the repository's tests, which would run it:\n%s", b, b.body)
				}
			case "sh", "console":
				shell = append(shell, b)
			case "text":
			default:
				t.Errorf("%s: unknown kind %q; use gpl, go, sh, console or text, or add norun", b, b.kind)
			}
		}
	}
	runDocCommands(t, shell)
}

// runDocScenario loads a gpl example and judges its expects.
func runDocScenario(t *testing.T, b docBlock, src string) {
	t.Helper()
	name := fmt.Sprintf("%s_%d.gpl", strings.ReplaceAll(b.file, "/", "_"), b.line)
	s, err := eval.LoadWith(eval.Options{Scenarios: scenarios.Files}, name, []byte(src))
	if err != nil {
		var out bytes.Buffer
		renderError(&out, s, err, styleFor(&out, func(string) string { return "" }))
		t.Errorf("%s does not load:\n%s", b, out.String())
		return
	}
	n := 0
	for _, o := range s.Test() {
		n++
		if !o.Pass {
			var out bytes.Buffer
			if o.Diagnostic != nil {
				o.Diagnostic.Render(&out, s.Sources(), styleFor(&out, func(string) string { return "" }))
			}
			t.Errorf("%s: an expect fails:\n%s", b, out.String())
		}
	}
	if n == 0 && strings.Contains(b.body, "expect ") {
		t.Errorf("%s: no expect was judged", b)
	}
}

// testSources are the repository's test files holding Examples, each
// with the lines of the file trimmed.
func testSources(t *testing.T) []string {
	var out []string
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("\nfunc Example")) && bytes.Contains(b, []byte("// Output:")) {
			out = append(out, trimLines(string(b)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// trimLines drops each line's surrounding blanks and the blank lines.
func trimLines(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func inExample(sources []string, body string) bool {
	want := trimLines(body)
	for _, s := range sources {
		if strings.HasPrefix(s, want) || strings.Contains(s, "\n"+want) {
			return true
		}
	}
	return false
}

// docCommand is one command of a sh or console block, with the output a
// console block shows for it.
type docCommand struct {
	block docBlock
	line  string
	want  *string
}

// shellCommands are the commands of a block that run gpl.
func shellCommands(t *testing.T, b docBlock) []docCommand {
	var cmds []docCommand
	lines := strings.Split(strings.TrimSuffix(b.body, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if b.kind == "console" {
			if !strings.HasPrefix(l, "$ ") {
				t.Errorf("%s: %q is neither a $ command nor the output of one", b, l)
				continue
			}
			var out []string
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") {
				i++
				out = append(out, lines[i])
			}
			want := strings.Join(out, "\n") + "\n"
			cmds = append(cmds, docCommand{b, gplCommand(strings.TrimPrefix(l, "$ ")), &want})
			continue
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if c := gplCommand(l); strings.HasPrefix(c, "gpl ") || strings.Contains(c, "| gpl ") {
			cmds = append(cmds, docCommand{b, c, nil})
		} else if !strings.HasPrefix(l, "go ") {
			t.Errorf("%s: %q is neither a gpl command nor one of the go command's; mark the block norun if it is not meant to run", b, l)
		}
	}
	if len(cmds) == 0 {
		t.Errorf("%s: no gpl command to run; mark the block norun", b)
	}
	return cmds
}

// gplCommand drops a trailing comment and spells go run ./cmd/gpl as gpl.
func gplCommand(l string) string {
	if i := strings.Index(l, "  #"); i >= 0 && strings.Count(l[:i], "'")%2 == 0 {
		l = strings.TrimSpace(l[:i])
	}
	return strings.Replace(l, "go run ./cmd/gpl ", "gpl ", 1)
}

// runDocCommands runs the commands of the sh and console blocks as one
// testscript each, in a directory with the bundled scenarios, the files
// the README's classify examples read, and serving.gpl.
func runDocCommands(t *testing.T, blocks []docBlock) {
	dir := t.TempDir()
	names := map[string]docBlock{}
	for i, b := range blocks {
		var script strings.Builder
		fmt.Fprintf(&script, "# %s\n", b)
		var files strings.Builder
		for j, c := range shellCommands(t, b) {
			fmt.Fprintf(&script, "exec sh cmd%d.sh\n", j)
			fmt.Fprintf(&files, "-- cmd%d.sh --\n%s\n", j, c.line)
			if c.want != nil {
				fmt.Fprintf(&script, "cmp stdout want%d.txt\n", j)
				fmt.Fprintf(&files, "-- want%d.txt --\n%s", j, *c.want)
			}
		}
		name := fmt.Sprintf("block%02d", i)
		names[name] = b
		if err := os.WriteFile(filepath.Join(dir, name+".txtar"), []byte(script.String()+files.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scenarioFiles, err := filepath.Glob("../../scenarios/*.gpl")
	if err != nil {
		t.Fatal(err)
	}
	inventories, _ := filepath.Glob("../../scenarios/*.csv") // what scenarios import
	scenarioFiles = append(scenarioFiles, inventories...)
	sort.Strings(scenarioFiles)
	testscript.Run(t, testscript.Params{
		Dir: dir,
		Setup: func(env *testscript.Env) error {
			for _, p := range scenarioFiles {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if err := writeIn(env.WorkDir, "scenarios/"+filepath.Base(p), b); err != nil {
					return err
				}
			}
			return writeDocInputs(env.WorkDir)
		},
	})
}

// docRequests is the request stream the README's classify examples read.
const docRequests = `{"request_id":"r1","priority":0}
{"batch_size":8,"input_size_bytes":10000000,"estimated_flops":10000000000}
{"batch_size":2,"sla_deadline":100}
`

// writeDocInputs writes the inputs the README's classify examples name:
// requests.jsonl, its gzip and zstd copies, and serving.gpl.
func writeDocInputs(dir string) error {
	var gz, zs bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(docRequests))
	zw.Close()
	enc, err := zstd.NewWriter(&zs)
	if err != nil {
		return err
	}
	enc.Write([]byte(docRequests))
	enc.Close()
	for name, b := range map[string][]byte{
		"requests.jsonl":    []byte(docRequests),
		"requests.jsonl.gz": gz.Bytes(),
		"more.jsonl.zst":    zs.Bytes(),
		"serving.gpl":       []byte("rules serving {\n  small: when batch_size <= 4 -> latency_critical\n  else throughput\n}\n"),
	} {
		if err := writeIn(dir, name, b); err != nil {
			return err
		}
	}
	return nil
}

func writeIn(dir, name string, b []byte) error {
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}
