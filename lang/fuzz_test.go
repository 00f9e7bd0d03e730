package lang

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// The fuzz targets of the language: bytes in, tokens, a tree or positioned
// diagnostics out, never a panic. Their seeds are every .gpl file of the
// repository, read when the target starts, the shapes below, and the
// corpus in testdata/fuzz/FuzzNAME (regressions the fuzzer found). CI runs
// each for a bounded time; see the README's "Fuzzing" section.

// addSeeds adds every .gpl file of the repository and the hostile shapes
// the limits are about, each just past its limit.
func addSeeds(f *testing.F) {
	f.Helper()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".gpl") {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil {
			f.Add(b)
		}
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		"let a = " + strings.Repeat("(", 201) + "1" + strings.Repeat(")", 201),
		"let a = " + strings.Repeat("-", 201) + "1",
		"let a = " + strings.Repeat("a ? 1 : ", 201) + "1",
		"let a = " + strings.Repeat("max(", 201) + "1" + strings.Repeat(")", 201),
		"let a = 1" + strings.Repeat(" + 1", 2001),
		"let a = 1_ + 1__0 + _1 + 1e400 + 1e-400 + 1e308 TB + 0e-400\n",
		"# cr\rlet a = 1\r\rexpect a ≈ 1 ± -5\r",
		"# crlf\r\nlet a = 1\r\n",
		"\uFEFFlet a = 1 # bom\n",
		"pool p " + strings.Repeat("{", 300),
		"let let = 1\njob j on let {}\npool import { let = 2 }\n",
		"pool p {}let a = 1;let b = (2)expect a == 1 let c = \"s\"import \"x\"",
	} {
		f.Add([]byte(s))
	}
}

// FuzzScan checks that the scanner covers its input exactly, token after
// token, with positions that agree with the offsets and with the
// regular-expression specification.
func FuzzScan(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		toks := scanTokens("f.gpl", string(src))
		var b strings.Builder
		for i, tok := range toks {
			if want := positionAt("f.gpl", src, tok.Pos.Offset); tok.Pos != want {
				t.Fatalf("token %d %q at %v, its offset is at %v", i, tok.Value, tok.Pos, want)
			}
			if tok.Value == "" && !tok.EOF() {
				t.Fatalf("token %d is empty", i)
			}
			b.WriteString(tok.Value)
		}
		if b.String() != string(src) {
			t.Fatalf("the tokens spell %q, not the input", b.String())
		}
		if !toks[len(toks)-1].EOF() {
			t.Fatal("the tokens do not end with EOF")
		}
		if utf8.Valid(src) {
			want, err := oracleTokens("f.gpl", string(src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, toks); diff != "" {
				t.Fatalf("tokens differ from the specification (-regex +scanner):\n%s", diff)
			}
		}
	})
}

// FuzzParse checks that Parse and ParseExpr return a tree or diagnostics
// that render, each placed inside the input; and that Parse, reading one
// statement at a time, agrees with participle reading the whole file.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file, ds := Parse("f.gpl", src)
		checkDiagnostics(t, src, ds)
		if _, eds := ParseExpr("f.gpl", string(src)); eds != nil {
			checkDiagnostics(t, src, eds)
		}
		whole, err := parseWhole("f.gpl", src)
		switch {
		case err == nil && ds.HasErrors():
			t.Fatalf("Parse: %v; participle reads the whole file", ds)
		case err != nil && !ds.HasErrors() && !deepOrLong(err):
			t.Fatalf("participle fails on the whole file (%v); Parse does not", err)
		case err == nil:
			if diff := cmp.Diff(whole, file.Stmts); diff != "" {
				t.Fatalf("Parse differs from the whole-file reading (-whole +Parse):\n%s", diff)
			}
		}
	})
}

// deepOrLong reports participle's limit on repetitions, which a reading of
// the whole file meets and Parse, one statement at a time, does not.
func deepOrLong(err error) bool { return strings.Contains(err.Error(), "too many iterations") }

func checkDiagnostics(t *testing.T, src []byte, ds Diagnostics) {
	t.Helper()
	for _, d := range ds {
		if d.Summary == "" {
			t.Fatalf("a diagnostic without a summary: %#v", d)
		}
		if d.Pos.Line == 0 && d.Pos.Offset == 0 {
			continue // "expected an expression" in an empty input
		}
		if d.Pos.Offset > len(src) || d.Pos.Line < 1 || d.Pos.Column < 1 {
			t.Fatalf("%s: outside the input of %d bytes (%v)", d.Error(), len(src), d.Pos)
		}
		if want := positionAt(d.Pos.Filename, src, d.Pos.Offset); d.Pos != want {
			t.Fatalf("%s: at %v, its offset is at %v", d.Error(), d.Pos, want)
		}
	}
	ds.RenderAll(io.Discard, Sources{"f.gpl": src}, Style{Color: true})
}
