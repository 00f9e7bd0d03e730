package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeTerminal is a stderr that says whether it is a terminal.
type fakeTerminal struct {
	bytes.Buffer
	term bool
}

func (f *fakeTerminal) IsTerminal() bool { return f.term }

// TestTestProgressOnlyOnATerminal checks when gpl test draws its bar: on a
// terminal unless --no-progress is given, never on anything else.
func TestTestProgressOnlyOnATerminal(t *testing.T) {
	dir := t.TempDir()
	writeSuite(t, dir, 3)
	var plain, plainErr bytes.Buffer
	wantCode := runMain([]string{"test", dir}, strings.NewReader(""), &plain, &plainErr, func(string) string { return "" })
	firstDraw := "\rtesting   0% |                              | (0/3) "
	clear := "\r" + strings.Repeat(" ", 52) + "\r"
	draw := regexp.MustCompile(`\rtesting +[0-9]+% \|[█ ]*\| \([0-9]/3\) `)
	for _, tt := range []struct {
		name      string
		term      bool
		args      []string
		wantDrawn bool
	}{
		{"terminal", true, nil, true},
		{"terminal, --no-progress", true, []string{"--no-progress"}, false},
		{"not a terminal", false, nil, false},
		{"not a terminal, --no-progress", false, []string{"--no-progress"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stderr := &fakeTerminal{term: tt.term}
			var stdout bytes.Buffer
			args := append(append([]string{"test"}, tt.args...), dir)
			// On a terminal the diagnostics are coloured; NO_COLOR keeps
			// them as the plain run prints them.
			noColor := func(k string) string {
				if k == "NO_COLOR" {
					return "1"
				}
				return ""
			}
			code := runMain(args, strings.NewReader(""), &stdout, stderr, noColor)
			if code != wantCode {
				t.Errorf("exit %d, want %d as without a bar", code, wantCode)
			}
			if diff := cmp.Diff(plain.String(), stdout.String()); diff != "" {
				t.Errorf("stdout differs from a run without a bar (-want +got):\n%s", diff)
			}
			got := stderr.String()
			if tt.wantDrawn {
				if diff := cmp.Diff(firstDraw, got[:min(len(got), len(firstDraw))]); diff != "" {
					t.Errorf("first draw on stderr (-want +got):\n%s", diff)
				}
				if !strings.HasSuffix(got, clear) {
					t.Errorf("stderr = %q, want it to end with the bar taken off, %q", got, clear)
				}
				// Without the bar's draws and clears, the messages of a
				// run without a bar, whole.
				got = strings.ReplaceAll(draw.ReplaceAllString(got, ""), clear, "")
			}
			if diff := cmp.Diff(plainErr.String(), got); diff != "" {
				t.Errorf("stderr, without the bar, differs from a run without one (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClassifyProgressOnlyOnATerminal checks the same for gpl classify,
// which also wants every input to be a regular file.
func TestClassifyProgressOnlyOnATerminal(t *testing.T) {
	file := writeFile(t, t.TempDir(), "req.jsonl", []byte("{\"priority\":0}\n{\"batch_size\":64}\n"))
	for _, tt := range []struct {
		name      string
		term      bool
		args      []string
		wantDrawn bool
	}{
		{"terminal, a file", true, []string{file}, true},
		{"terminal, --no-progress", true, []string{"--no-progress", file}, false},
		{"terminal, stdin", true, nil, false},
		{"not a terminal, a file", false, []string{file}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stderr := &fakeTerminal{term: tt.term}
			var stdout bytes.Buffer
			args := append([]string{"classify", "--rules", "kapsl"}, tt.args...)
			code := runMain(args, strings.NewReader("{\"priority\":0}\n{\"batch_size\":64}\n"), &stdout, stderr, func(string) string { return "" })
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr.String())
			}
			if diff := cmp.Diff("latency_critical\nthroughput\n", stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if drawn := strings.Contains(stderr.String(), "classifying"); drawn != tt.wantDrawn {
				t.Errorf("bar drawn = %v, want %v; stderr %q", drawn, tt.wantDrawn, stderr.String())
			}
		})
	}
}
