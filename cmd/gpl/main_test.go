package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVersionOf(t *testing.T) {
	rev := "27ba6a1c0ffee27ba6a1c0ffee27ba6a1c0ffee0"
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build information", nil, false, "gpl (devel)"},
		{"a checkout without VCS stamping", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "gpl (devel)"},
		{"a modified checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}}, true, "gpl (devel) rev 27ba6a1 (modified)"},
		{"a clean checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}}, true, "gpl (devel) rev 27ba6a1"},
		{"a released module", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, "gpl v1.2.3"},
		{"no main module version", &debug.BuildInfo{}, true, "gpl (devel)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, versionOf(tt.bi, tt.ok)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestRevisionHint: a binary that names no revision says how to get one
// that does; one that names a revision, or a released version, says
// nothing more.
func TestRevisionHint(t *testing.T) {
	const hint = "gpl version: this binary records no VCS revision: build it in a git clone with VCS stamping on (go build -buildvcs=true ./cmd/gpl, or unset GOFLAGS=-buildvcs=false), or install a tagged version (go install github.com/gpl-lang/gpl/cmd/gpl@VERSION); git rev-parse --short HEAD names the clone's revision"
	devel := debug.Module{Version: "(devel)"}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build information", nil, false, hint},
		{"a checkout without VCS stamping", &debug.BuildInfo{Main: devel}, true, hint},
		{"a checkout with it", &debug.BuildInfo{Main: devel, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "27ba6a1c0ffee"}}}, true, ""},
		{"a released module", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, ""},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, revisionHint(tt.bi, tt.ok)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// result is what a run of gpl gives back.
type result struct {
	Code           int
	Stdout, Stderr string
}

func run(args ...string) result {
	var out, errOut bytes.Buffer
	code := runMain(args, strings.NewReader(""), &out, &errOut, func(string) string { return "" })
	return result{code, out.String(), errOut.String()}
}

func TestVersionVerbs(t *testing.T) {
	hint := ""
	if h := revisionHint(debug.ReadBuildInfo()); h != "" {
		hint = h + "\n"
	}
	want := result{0, version() + "\n", hint}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if diff := cmp.Diff(want, run(args...)); diff != "" {
			t.Errorf("gpl %s (-want +got):\n%s", strings.Join(args, " "), diff)
		}
	}
	if diff := cmp.Diff(result{1, "", "usage: gpl version\n"}, run("version", "extra")); diff != "" {
		t.Errorf("gpl version extra (-want +got):\n%s", diff)
	}
}

// A panic in a verb is an internal error: exit 5, never 2, with the
// version and a trace.
func TestPanicIsInternalError(t *testing.T) {
	verbs["test-panic"] = verb{run: func(e *env) int {
		return len(e.args[len(e.args)]) // a bug: an index out of range
	}}
	defer delete(verbs, "test-panic")
	got := run("test-panic")
	first, rest, _ := strings.Cut(got.Stderr, "\n")
	if diff := cmp.Diff([]any{5, "", "gpl: internal error (a bug in " + version() + "): runtime error: index out of range [0] with length 0"},
		[]any{got.Code, got.Stdout, first}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !strings.Contains(rest, "main_test.go") {
		t.Errorf("the trace does not show where the panic was:\n%s", rest)
	}
}

// A verb that succeeds but cannot write its output exits 3 and says so.
func TestStdoutWriteErrorExits3(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.gpl")
	if err := os.WriteFile(plan, []byte("let x = 1\nexpect x == 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"fmt", plan}, {"run", plan}, {"test", plan}, {"version"}, {"scenarios"}} {
		var errOut bytes.Buffer
		code := runMain(args, strings.NewReader(""), failingWriter{}, &errOut, func(string) string { return "" })
		want := result{3, "", "gpl: write to standard output: no space left on device\n"}
		if diff := cmp.Diff(want, result{code, "", errOut.String()}); diff != "" {
			t.Errorf("gpl %s (-want +got):\n%s", strings.Join(args, " "), diff)
		}
	}
}

// With standard error failing as well, the exit code is all that is left.
func TestStderrWriteErrorExits3(t *testing.T) {
	code := runMain([]string{"version"}, strings.NewReader(""), failingWriter{}, failingWriter{}, func(string) string { return "" })
	if code != exitRuntime {
		t.Errorf("exit code %d, want %d", code, exitRuntime)
	}
	code = runMain([]string{"nosuch"}, strings.NewReader(""), &bytes.Buffer{}, failingWriter{}, func(string) string { return "" })
	if code != exitUsage {
		t.Errorf("unknown command with stderr failing: exit code %d, want %d (usage wins)", code, exitUsage)
	}
}
