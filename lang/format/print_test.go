package format_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/format"
)

var update = flag.Bool("update", false, "rewrite testdata/fmt/*.golden.gpl with what the printer writes")

// TestFormatGolden formats every testdata/fmt/NAME.in.gpl and compares the
// result with NAME.golden.gpl; a golden file must also format to itself.
func TestFormatGolden(t *testing.T) {
	ins, err := filepath.Glob("testdata/fmt/*.in.gpl")
	if err != nil || len(ins) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in.gpl")
		t.Run(name, func(t *testing.T) {
			src := readFile(t, in)
			got := formatSource(t, in, src)
			goldenPath := strings.TrimSuffix(in, ".in.gpl") + ".golden.gpl"
			if *update {
				if err := os.WriteFile(goldenPath, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := readFile(t, goldenPath)
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("format %s (-%s +got):\n%s", in, goldenPath, diff)
			}
			if again := formatSource(t, goldenPath, want); again != string(want) {
				t.Errorf("%s is not formatted (-want +got):\n%s", goldenPath, cmp.Diff(string(want), again))
			}
		})
	}
}

// TestFormatCases pins single decisions of the layout.
func TestFormatCases(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty file", "", ""},
		{"blank lines only", "\n\n  \n", ""},
		{"comments only", "\n# one\n\n\n# two   \n\n", "# one\n\n# two\n"},
		{"no final newline", "let a = 1", "let a = 1\n"},
		{"crlf", "let a=1\r\nlet b=2 # c\r\n", "let a = 1\nlet b = 2 # c\n"},
		{"semicolons", "let a = 1; let b = 2;let c = 3", "let a = 1\nlet b = 2\nlet c = 3\n"},
		{"tabs", "pool p {\n\tdevices\t=\t8\t# n\n}\n", "pool p {\n  devices = 8 # n\n}\n"},
		{"approx spellings", "expect 1 ~= 1 +- 0.1\n", "expect 1 ≈ 1 ± 0.1\n"},
		{"logic spellings", "expect true&&!false||false\n", "expect true and not false or false\n"},
		{"not keeps parentheses", "expect not(true)\n", "expect not (true)\n"},
		{"double minus", "let a = 1\nlet b = - -a\nlet c = -(-a)\n", "let a = 1\nlet b = - -a\nlet c = -(-a)\n"},
		{"number spacing", "let a = 2  GB\nlet b = 2GB\nlet c = 2 GB\n", "let a = 2 GB\nlet b = 2GB\nlet c = 2 GB\n"},
		{"money", "let a=$2.50/h*1h+$1\n", "let a = $2.50/h * 1h + $1\n"},
		{"within", "expect 1 ≈ 1 within   5 %\n", "expect 1 ≈ 1 within 5%\n"},
		{"call spacing", "expect max( 1 ,2 )== 2\n", "expect max(1, 2) == 2\n"},
		{"dotted names", "expect j . loss . S > 0\n", "expect j.loss.S > 0\n"},
		{
			"one-line request stays",
			"request r { priority = 1  batch_size = 8 }\n",
			"request r { priority = 1  batch_size = 8 }\n",
		},
		{
			"a field named like a unit opens the block",
			"request r { batch_size = 8; h = 2 }\n",
			"request r {\n  batch_size = 8\n  h          = 2\n}\n",
		},
		{
			"one-line job opens",
			"pool p { devices = 1 }\njob j on p { factors { S = 1  R = 1  P = 1 } }\n",
			"pool p { devices = 1 }\njob j on p {\n  factors { S = 1  R = 1  P = 1 }\n}\n",
		},
		{"empty blocks close", "pool p {\n\n}\njob j on p { }\n", "pool p {}\njob j on p {}\n"},
		{"empty block with a comment", "pool p { # why\n}\n", "pool p { # why\n}\n"},
		{
			"comment inside a header moves above it",
			"job j # odd\n  on p {\n}\n",
			"# odd\njob j on p {}\n",
		},
		{
			"continuation needs the next line",
			"let a = 1 # x\n\n          # y\nlet b = 2\n",
			"let a = 1 # x\n\n# y\nlet b = 2\n",
		},
		{
			"continuation after a header",
			"pool p { # x\n         # y\n  devices = 1\n}\n",
			"pool p { # x\n         # y\n  devices = 1\n}\n",
		},
		{
			"no blank line after { or before }",
			"pool p {\n\n  devices = 1\n\n}\n",
			"pool p {\n  devices = 1\n}\n",
		},
		{
			"blank line before a dangling comment kept",
			"pool p {\n  devices = 1\n\n  # end\n}\n",
			"pool p {\n  devices = 1\n\n  # end\n}\n",
		},
		{
			"else and brace on one line",
			"rules r { when priority == 0 -> a else b } # c\n",
			"rules r {\n  when priority == 0 -> a\n  else b\n} # c\n",
		},
		{
			"trailing comments align across a run",
			"let a = 1 # x\nlet bbb = 22\nlet cc = 3 # y\n",
			"let a   = 1 # x\nlet bbb = 22\nlet cc  = 3 # y\n",
		},
		{
			"unicode counts as one column",
			"expect 1 ≈ 1 # x\nexpect 22 == 22 # y\n",
			"expect 1 ≈ 1    # x\nexpect 22 == 22 # y\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := formatSource(t, "case.gpl", []byte(tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("format %q (-want +got):\n%s", tt.in, diff)
			}
			if again := formatSource(t, "case.gpl", []byte(got)); again != got {
				t.Errorf("not idempotent (-first +second):\n%s", cmp.Diff(got, again))
			}
		})
	}
}

// TestFormatSyntaxErrors checks that a file that does not parse is not
// formatted: its diagnostics come back instead.
func TestFormatSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
	}{
		{"unclosed paren", "let a = (1\n", 1},
		{"missing value", "pool p {\n  devices =\n}\n", 3},
		{"unknown character", "let a = 1\nlet b = 2 @ 3\n", 2},
		{"broken statement among good ones", "let a = 1\nlet = 2\nlet c = 3\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := format.FormatSource("bad.gpl", []byte(tt.in))
			var ds lang.Diagnostics
			if !errors.As(err, &ds) || !ds.HasErrors() {
				t.Fatalf("FormatSource = %q, %v; want syntax errors", out, err)
			}
			if out != nil {
				t.Errorf("FormatSource returned text %q with its errors", out)
			}
			if got := ds[0].Pos.Line; got != tt.line {
				t.Errorf("first error on line %d, want %d: %v", got, tt.line, ds)
			}
		})
	}
	// A File whose statements the parser dropped is refused too.
	src := []byte("let a = 1\nlet = 2\n")
	f, _ := lang.Parse("bad.gpl", src)
	if _, err := format.FormatFile(f); err == nil {
		t.Errorf("FormatFile of a file with syntax errors succeeded")
	}
}

// TestFormatLineEndings checks that a formatted CR-only file has LF line
// breaks and keeps its comment.
func TestFormatLineEndings(t *testing.T) {
	out, err := format.FormatSource("t.gpl", []byte("# one\rlet a = 1\r\rlet b = 2 # two\r"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("# one\nlet a = 1\n\nlet b = 2 # two\n", string(out)); diff != "" {
		t.Errorf("formatted (-want +got):\n%s", diff)
	}
}

// TestFormatByteOrderMark checks that a byte order mark at the start of a
// file is kept.
func TestFormatByteOrderMark(t *testing.T) {
	const bom = "\uFEFF"
	out, err := format.FormatSource("t.gpl", []byte(bom+"let  a=1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(bom+"let a = 1\n", string(out)); diff != "" {
		t.Errorf("formatted (-want +got):\n%s", diff)
	}
}

// TestFormatWithoutSource prints a tree that has no source text: no
// comments, no blank lines, and no error.
func TestFormatWithoutSource(t *testing.T) {
	f, ds := lang.Parse("a.gpl", []byte("# gone\nlet a = 1\n\npool p {\n  devices = a # gone\n}\n"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	f.Src = nil
	got, err := format.FormatFile(f)
	if err != nil {
		t.Fatal(err)
	}
	want := "let a = 1\npool p {\n  devices = a\n}\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestFormatRepository formats every .gpl file of the repository that
// parses: formatting is idempotent, and the formatted text parses to the
// same tree as the original, positions and canonical spellings aside.
func TestFormatRepository(t *testing.T) {
	files := format.RepositoryFiles(t)
	if len(files) < 5 {
		t.Fatalf("found only %d .gpl files", len(files))
	}
	for _, path := range files {
		src := readFile(t, path)
		orig, ds := lang.Parse(path, src)
		if ds.HasErrors() {
			continue // a deliberately broken file of the bad-input catalogue
		}
		t.Run(strings.TrimPrefix(path, "../../"), func(t *testing.T) {
			checkRoundTrip(t, path, src, orig)
		})
	}
}

// checkRoundTrip checks idempotence and that formatting keeps the tree.
func checkRoundTrip(t *testing.T, path string, src []byte, orig *lang.File) {
	t.Helper()
	once, err := format.FormatFile(orig)
	if err != nil {
		t.Fatalf("format: %v", err)
	}
	formatted, ds := lang.Parse(path, once)
	if ds.HasErrors() {
		t.Fatalf("the formatted text does not parse: %v\n%s", ds, once)
	}
	twice, err := format.FormatFile(formatted)
	if err != nil {
		t.Fatalf("format the formatted text: %v", err)
	}
	if diff := cmp.Diff(string(once), string(twice)); diff != "" {
		t.Errorf("not idempotent (-once +twice):\n%s", diff)
	}
	if diff := cmp.Diff(canonicalTree(orig), canonicalTree(formatted), treeOptions...); diff != "" {
		t.Errorf("the formatted text parses to another tree (-source +formatted):\n%s", diff)
	}
}

// treeOptions compare syntax trees without their positions or source text.
var treeOptions = []cmp.Option{
	cmpopts.IgnoreTypes(lang.Position{}, lang.Pos{}, lang.StartMark{}, lang.EndMark{}),
	cmpopts.IgnoreFields(lang.File{}, "Src"),
}

var blanks = regexp.MustCompile(`[ \t]+`)

// canonicalTree respells what the printer respells: ~= as ≈, +- as ±, and
// a run of blanks inside a number as one space. It changes f in place.
func canonicalTree(f *lang.File) *lang.File {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if v.IsNil() {
				return
			}
			switch n := v.Interface().(type) {
			case *lang.NumberLit:
				n.Text = strings.ReplaceAll(blanks.ReplaceAllString(n.Text, " "), " %", "%")
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(f))
	return f
}

// FuzzFormat checks, for any text that parses, that formatting succeeds, is
// idempotent and keeps the tree.
func FuzzFormat(f *testing.F) {
	for _, glob := range []string{"../../scenarios/*.gpl", "../../stdlib/*.gpl", "testdata/fmt/*.in.gpl"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("let a = 1 # x\n          # y\nlet b=-(2)"))
	f.Fuzz(func(t *testing.T, src []byte) {
		orig, ds := lang.Parse("fuzz.gpl", src)
		if ds.HasErrors() {
			return
		}
		checkRoundTrip(t, "fuzz.gpl", src, orig)
	})
}

// BenchmarkFormat prints the default scenario, parsed once.
func BenchmarkFormat(b *testing.B) {
	path := "../../scenarios/llama2_70b_shared_pool_128.gpl"
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	f, ds := lang.Parse(path, src)
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := format.FormatFile(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFormatLines formats files of 10,000 and 40,000 lets, one after
// another without blank lines (one run of aligned keys), and of as many
// lets with a blank line after each; ns/line must not grow with the file
// (finding where to render a piece once cost every line collected).
func BenchmarkFormatLines(b *testing.B) {
	for _, shape := range []struct{ name, sep string }{{"run", "\n"}, {"blank", "\n\n"}} {
		for _, n := range []int{10000, 40000} {
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				var sb strings.Builder
				for i := range n {
					fmt.Fprintf(&sb, "let a%d = %d%s", i, i, shape.sep)
				}
				src := []byte(sb.String())
				b.ReportAllocs()
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					if _, err := format.FormatSource("lets.gpl", src); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/line")
			})
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func formatSource(t *testing.T, name string, src []byte) string {
	t.Helper()
	out, err := format.FormatSource(name, src)
	if err != nil {
		t.Fatalf("format %s: %v", name, err)
	}
	return string(out)
}
