package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCover checks what --cover counts: classifications made while loading
// a file count for it, the expects of the files it imports do not, -run
// leaves out the expects it does not select, and a ruleset several files
// use gets a total.
func TestCover(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"rules.gpl": `rules serving {
  override: when priority == 0 -> latency_critical
  when batch_size <= 4         -> latency_critical
  else throughput
}
request heavy { batch_size = 64 }
expect classify(serving, heavy) == throughput
`,
		"lets.gpl": `import "rules.gpl"
request tiny { batch_size = 1 }
let tiny_class = classify(serving, tiny)
expect tiny_class == latency_critical
expect classify(serving, heavy) == latency_critical
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"without --cover", []string{"test"}, exitExpected, "2 passed, 1 failed\n"},
		{
			"load-time classifications count, imported expects do not, failing expects do",
			[]string{"test", "--cover", "lets.gpl"}, exitExpected, `coverage: lets.gpl rules serving (rules.gpl): 2/3 rules fired
  override ×0 · rule 2 ×1 · else ×1
  never fired: rules.gpl:2: override
1 passed, 1 failed
`,
		},
		{
			"-run leaves out what it does not select",
			[]string{"test", "--cover", "-run", "tiny_class", "lets.gpl"}, exitOK, `coverage: lets.gpl rules serving (rules.gpl): 1/3 rules fired
  override ×0 · rule 2 ×1 · else ×0
  never fired: rules.gpl:2: override
  never fired: rules.gpl:4: else
1 passed, 0 failed
`,
		},
		{
			"a total over the files that use a ruleset",
			[]string{"test", "--cover"}, exitExpected, `coverage: lets.gpl rules serving (rules.gpl): 2/3 rules fired
  override ×0 · rule 2 ×1 · else ×1
  never fired: rules.gpl:2: override
coverage: rules.gpl rules serving: 1/3 rules fired
  override ×0 · rule 2 ×0 · else ×1
  never fired: rules.gpl:2: override
  never fired: rules.gpl:3: rule 2
coverage: rules serving (rules.gpl) in 2 files: 2/3 rules fired
  override ×0 · rule 2 ×1 · else ×2
  never fired: rules.gpl:2: override
2 passed, 1 failed
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, _ := gplRun(tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d", code, tt.code)
			}
			if diff := cmp.Diff(tt.want, stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}
