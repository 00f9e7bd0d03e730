package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

// repoFS is the repository root, so that file names in diagnostics read
// as they do from there: testdata/lang/units.gpl.
var repoFS = os.DirFS("..")

// renderDiagnostics is the plain-text rendering of diagnostics, as gpl
// prints them.
func renderDiagnostics(s *Scenario, ds lang.Diagnostics) string {
	var b strings.Builder
	var src lang.Sources
	if s != nil {
		src = s.Sources()
	}
	ds.RenderAll(&b, src, lang.Style{})
	return b.String()
}

// TestGolden loads every testdata/lang/*.gpl: each is a valid scenario
// whose expects must all pass.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/lang/*.gpl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/lang/*.gpl files")
	}
	for _, file := range files {
		base := filepath.Base(file)
		t.Run(strings.TrimSuffix(base, ".gpl"), func(t *testing.T) {
			t.Parallel()
			// The suites may import the bundled scenarios, as
			// gpl test --allow-imports scenarios lets them in CI.
			s, err := LoadWith(Options{FS: repoFS, AllowImports: []string{"scenarios"}, Scenarios: scenariosFS}, "testdata/lang/"+base, nil)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("Load: %v", err)
				}
				t.Fatalf("Load failed:\n%s", renderDiagnostics(s, e.Diagnostics))
			}
			// NAME.warnings, when present, holds the warnings the file
			// must give, rendered; otherwise it must give none.
			wantWarnings := ""
			if b, err := os.ReadFile(strings.TrimSuffix(file, ".gpl") + ".warnings"); err == nil {
				wantWarnings = string(b)
			}
			if diff := cmp.Diff(wantWarnings, renderDiagnostics(s, s.Diagnostics())); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			outcomes := s.Test()
			if len(outcomes) == 0 {
				t.Fatal("no expectations")
			}
			for _, o := range outcomes {
				if o.Pass && !o.Err && o.Diagnostic == nil {
					continue
				}
				msg := "(no diagnostic)"
				if o.Diagnostic != nil {
					msg = renderDiagnostics(s, lang.Diagnostics{o.Diagnostic})
				}
				t.Errorf("%s: pass %v, err %v\n%s", o.Expectation.Name(), o.Pass, o.Err, msg)
			}
			n := 0 // the file's expects and its imports'
			for _, f := range s.Files() {
				n += countExpects(f)
			}
			if n != len(outcomes) {
				t.Errorf("the file and its imports have %d expect statements but %d outcomes", n, len(outcomes))
			}
		})
	}
}

// countExpects counts the expect statements of a file, those inside job
// blocks included.
func countExpects(f *lang.File) int {
	n := 0
	for _, st := range f.Stmts {
		switch st := st.(type) {
		case *lang.Expect:
			n++
		case *lang.Job:
			for _, it := range st.Items {
				if _, ok := it.(*lang.Expect); ok {
					n++
				}
			}
		}
	}
	return n
}

// designSection4 is the example of language.md section 4 without its
// import line, and designSection7 that of section 7, as the design writes
// them: the golden files must hold them verbatim.
const designSection4 = `let peak_mfu = 0.45                # a named value; any expression

pool shared_h100 {
  devices = 128                    # count
  rate    = 2.50 USD/h             # price of one offered device-hour (optional)
}

job llama2_70b on shared_h100 {
  hours    = 720h                  # wall time the pool is offered to the job
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = peak_mfu }
  expect mpg ≈ 0.282               # names inside a job block are the job's results
}

job llama2_70b_tuned extends llama2_70b {
  factors { program = 0.40 }       # only what changes; the rest is inherited
}

expect trade_ratio(llama2_70b, llama2_70b_tuned) ≈ 1.212
`

const designSection7 = `rules serving {
  override: when priority == 0                     -> latency_critical
  sla:      when sla_deadline < 250ms              -> latency_critical
  light:    when input_size <= 500KB or flops <= 1GFLOP -> latency_critical
  combined: when input_size * batch_size <= 2MB    -> latency_critical
  small:    when batch_size <= 4                   -> latency_critical
  else throughput
}

request heavy { priority = 1  batch_size = 8  input_size = 10MB  flops = 10GFLOP }
expect classify(serving, heavy) == throughput
`

// designSection21 is the example of language.md section 21, the what-ifs
// over the whole file, as the design writes it.
const designSection21 = `param ckpt_cost = 1min

pool p {
  devices = 2048
  rate    = 2 USD/h
}

job pretrain on p {
  devices = 1024
  hours   = 720h
  factors { S = 0.95  R = runtime_goodput(4h, ckpt_cost, 10min)  P = 0.40 }
}

job finetune on p {
  devices = 256
  hours   = 240h
  factors { S = 0.97  R = runtime_goodput(8h, ckpt_cost, 5min)  P = 0.33 }
}

group fleet { pretrain, finetune }

sweep storage over file {             # every point evaluates the whole file again
  vary ckpt_cost in [10s, 30s, 1min, 2min]
  show pretrain.runtime, fleet.cost_per_useful_hour, fleet.useful_hours
}

solve max_ckpt over file {
  find ckpt_cost in [1s, 10min] such that fleet.mpg >= 0.32
}

expect storage.points == 4
expect storage.at(ckpt_cost = 2min).fleet.mpg ≈ 0.312989 ± 0.000001
expect max_ckpt.ckpt_cost ≈ 87.2s ± 0.1s
expect pretrain.point_value.program ≈ $35964.88
`

// TestGoldenSourcesAsWritten guards what the golden suite is for: the
// design's examples as written, and the ASCII spellings of the operators.
// Do not run gpl fmt over testdata/lang: it rewrites both.
func TestGoldenSourcesAsWritten(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../testdata/lang/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if s := read("section4_example.gpl"); !strings.Contains(s, designSection4) {
		t.Error("testdata/lang/section4_example.gpl does not hold language.md section 4 verbatim")
	}
	if s := read("section7_rules.gpl"); !strings.Contains(s, designSection7) {
		t.Error("testdata/lang/section7_rules.gpl does not hold language.md section 7 verbatim")
	}
	if s := read("language_md_21_whatifs.gpl"); !strings.Contains(s, designSection21) {
		t.Error("testdata/lang/language_md_21_whatifs.gpl does not hold language.md section 21 verbatim")
	}
	expects := read("expects.gpl")
	for _, spelling := range []string{"~=", "+-", "&&", "||", "!("} {
		if !strings.Contains(expects, spelling) {
			t.Errorf("testdata/lang/expects.gpl no longer uses the ASCII spelling %s", spelling)
		}
	}
}

// scenariosFS holds the bundled scenarios, for import "scenarios/NAME".
var scenariosFS = os.DirFS("../scenarios")
