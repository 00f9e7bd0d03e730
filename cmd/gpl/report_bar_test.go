package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunWaterfallBar pins the line gpl run prints under a job's devices ×
// hours: block characters on a UTF-8 terminal, ASCII otherwise, and no
// bar where the report is not gpl run's (gpl test's golden files).
func TestRunWaterfallBar(t *testing.T) {
	r := loadReport(t, `
pool shared_h100 { devices = 128  rate = 2.50 USD/h }
job llama2_70b on shared_h100 {
  hours    = 720h
  factors  { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  ceilings { scheduling = 0.98  runtime = 0.95  program = 0.45 }
}
`)
	const head = "\njob llama2_70b (pool shared_h100)\n  128 devices × 720 h at $2.50 per device-hour\n"
	for _, tt := range []struct {
		name      string
		bar, utf8 bool
		want      string
	}{
		{"utf8", true, true, head +
			"  ███████████▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▒▒▒▒░░ useful 0.28215 · lost: program 0.57285, runtime 0.095, scheduling 0.05\n"},
		{"ascii", true, false, head +
			"  ###########=======================----.. useful 0.28215 | lost: program 0.57285, runtime 0.095, scheduling 0.05\n"},
		{"none", false, false, head},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r.bar, r.utf8 = tt.bar, tt.utf8
			var b bytes.Buffer
			writeText(&b, r)
			got := b.String()
			i := strings.Index(got, "        factor")
			if i < 0 {
				t.Fatalf("no factor table in:\n%s", got)
			}
			got = got[strings.Index(got, "\njob"):i]
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("job head (-want +got):\n%s", d)
			}
		})
	}
}
