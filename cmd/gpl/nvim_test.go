package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpl-lang/gpl/scenarios"
)

// TestLSPHelper is gpl lsp when GPL_LSP_HELPER is set: the server the
// Neovim test starts, this test binary standing in for gpl.
func TestLSPHelper(t *testing.T) {
	if os.Getenv("GPL_LSP_HELPER") == "" {
		t.Skip("run by TestNeovimLSP")
	}
	os.Exit(runMain([]string{"lsp", "--debounce=0"}, os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// TestNeovimLSP drives gpl lsp from Neovim's built-in client, headless,
// with testdata/editors/nvim_lsp_test.lua on a copy of the default
// scenario. .ci/run installs Debian's neovim; without nvim the test skips.
func TestNeovimLSP(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install neovim); .ci/run installs it")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("../../testdata/editors/nvim_lsp_test.lua")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src, err := scenarios.Files.ReadFile(scenarios.Default + ".gpl")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "llama2_70b.gpl")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GPL_LSP_HELPER=1", "GPL_FILE="+file,
		"GPL_LSP_CMD="+exe+" -test.run=^TestLSPHelper$", "HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	if raceEnabled {
		cmd.Env = append(cmd.Env, "GORACE="+childGORACE())
	}
	done := make(chan struct{})
	var out []byte
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("nvim did not finish:\n%s", out)
	}
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
