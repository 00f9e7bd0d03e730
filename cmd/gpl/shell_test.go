package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/scenarios"
)

// complete sources gpl completion bash in bash and calls its function on
// the words, the last the one being completed; it returns COMPREPLY.
func complete(t *testing.T, script, dir string, words ...string) []string {
	t.Helper()
	var quoted []string
	for _, w := range words {
		quoted = append(quoted, "'"+w+"'")
	}
	prog := "source " + script + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
		strconv.Itoa(len(words)-1) + "\n_gpl_complete\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", prog)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			got = append(got, l)
		}
	}
	sort.Strings(got) // compgen -f lists a directory in its own order
	return got
}

func TestCompletionBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	var out, errb bytes.Buffer
	if code := runMain([]string{"completion", "bash"}, nil, &out, &errb, func(string) string { return "" }); code != 0 {
		t.Fatalf("gpl completion bash exits %d: %s", code, errb.String())
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "gpl.bash")
	if err := os.WriteFile(script, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	os.MkdirAll(filepath.Join(work, "plans"), 0o755)
	os.WriteFile(filepath.Join(work, "llama_local.gpl"), nil, 0o644)
	os.WriteFile(filepath.Join(work, "notes.txt"), nil, 0o644)
	var llama []string
	for _, n := range scenarios.Names() {
		if strings.HasPrefix(n, "llama") {
			llama = append(llama, n)
		}
	}
	cases := []struct {
		words []string
		want  []string
	}{
		{[]string{"gpl", "ru"}, []string{"run"}},
		{[]string{"gpl", "run", "llama"}, append(llama, "llama_local.gpl")},
		{[]string{"gpl", "run", "llama2_70b_s"}, []string{"llama2_70b_shared_pool_128"}},
		{[]string{"gpl", "fmt", "--ch"}, []string{"--check"}},
		{[]string{"gpl", "check", "--color=al"}, []string{"always"}},
		{[]string{"gpl", "fmt", ""}, []string{"llama_local.gpl", "plans"}},
		{[]string{"gpl", "completion", "f"}, []string{"fish"}},
		{[]string{"gpl", "help", "cl"}, []string{"classify"}},
	}
	for _, tc := range cases {
		if diff := cmp.Diff(tc.want, complete(t, script, work, tc.words...)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.words, diff)
		}
	}
	for _, sh := range []string{"zsh", "fish"} {
		out.Reset()
		if code := runMain([]string{"completion", sh}, nil, &out, &errb, func(string) string { return "" }); code != 0 || !strings.Contains(out.String(), "run") {
			t.Errorf("gpl completion %s exits %d:\n%s", sh, code, out.String())
		}
	}
}

func TestHelpOnStdout(t *testing.T) {
	for name := range verbs {
		for _, args := range [][]string{{name, "-h"}, {"help", name}} {
			var out, errb bytes.Buffer
			code := runMain(args, strings.NewReader(""), &out, &errb, func(string) string { return "" })
			if code != exitOK || out.Len() == 0 || errb.Len() != 0 {
				t.Errorf("gpl %s: exit %d, %d bytes on stdout, stderr %q", strings.Join(args, " "), code, out.Len(), errb.String())
			}
		}
	}
}

func TestColorModes(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	var notTerm bytes.Buffer
	cases := []struct {
		name   string
		getenv func(string) string
		want   bool
	}{
		{"auto, not a terminal", env(), false},
		{"FORCE_COLOR", env("FORCE_COLOR", "1"), true},
		{"FORCE_COLOR=0", env("FORCE_COLOR", "0"), false},
		{"NO_COLOR beats FORCE_COLOR", env("NO_COLOR", "1", "FORCE_COLOR", "1"), false},
		{"--color=always beats NO_COLOR", env(cli.ColorKey, "always", "NO_COLOR", "1"), true},
		{"--color=never beats FORCE_COLOR", env(cli.ColorKey, "never", "FORCE_COLOR", "1"), false},
	}
	for _, tc := range cases {
		if got := cli.UseColor(&notTerm, tc.getenv); got != tc.want {
			t.Errorf("%s: colour %v, want %v", tc.name, got, tc.want)
		}
	}
	// Through the command line: a diagnostic in colour or not.
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.gpl")
	os.WriteFile(bad, []byte("let a = 1h + 1B\n"), 0o644)
	for _, tc := range []struct {
		args  []string
		env   []string
		color bool
	}{
		{[]string{"check", "--color=always", bad}, nil, true},
		{[]string{"--color", "always", "check", bad}, []string{"NO_COLOR", "1"}, true},
		{[]string{"check", bad}, []string{"FORCE_COLOR", "1"}, true},
		{[]string{"check", "--color=never", bad}, []string{"FORCE_COLOR", "1"}, false},
		{[]string{"check", bad}, nil, false},
	} {
		var out, errb bytes.Buffer
		runMain(tc.args, nil, &out, &errb, env(tc.env...))
		if got := strings.Contains(errb.String(), "\x1b["); got != tc.color || !strings.Contains(errb.String(), "error") {
			t.Errorf("gpl %v with %v: colour %v, want %v:\n%q", tc.args, tc.env, got, tc.color, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := runMain([]string{"check", "--color=sometimes", bad}, nil, &out, &errb, env()); code != exitUsage {
		t.Errorf("a bad --color exits %d", code)
	}
}

// TestTerminalDetection: a character device that is not a terminal
// (/dev/null) is not one; a pipe is not one.
func TestTerminalDetection(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if cli.IsTerminal(null) {
		t.Error("/dev/null is taken for a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if cli.IsTerminal(w) {
		t.Error("a pipe is taken for a terminal")
	}
}
