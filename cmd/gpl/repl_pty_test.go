//go:build !windows

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creack/pty"
	"github.com/gpl-lang/gpl/cmd/gpl/internal/repl"
)

// TestReplPTYHelper is the gpl repl that TestReplTerminal runs in a
// pseudo-terminal: the test binary, run again with GPL_REPL_PTY_HELPER set.
func TestReplPTYHelper(t *testing.T) {
	if os.Getenv("GPL_REPL_PTY_HELPER") != "1" {
		t.Skip("run by TestReplTerminal")
	}
	args := []string{"repl"}
	if a := os.Getenv("GPL_REPL_ARGS"); a != "" {
		args = append(args, strings.Fields(a)...)
	}
	os.Exit(runMain(args, os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// terminal is a gpl repl running in a pseudo-terminal, with what it has
// printed so far.
type terminal struct {
	t       *testing.T
	cmd     *exec.Cmd
	pty     *os.File
	mu      sync.Mutex
	out     bytes.Buffer
	seen    int           // how much of the cleaned output earlier expects consumed
	changed chan struct{} // ready when out has grown since it was last received
	done    chan struct{} // closed when the terminal's output has ended
}

func startTerminal(t *testing.T, state string, args ...string) *terminal {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestReplPTYHelper$")
	cmd.Env = append(os.Environ(),
		"GPL_REPL_PTY_HELPER=1",
		"GPL_REPL_ARGS="+strings.Join(args, " "),
		"XDG_STATE_HOME="+state,
		"HOME="+state,
		"NO_COLOR=1",
		"TERM=xterm",
	)
	if raceEnabled {
		cmd.Env = append(cmd.Env, "GORACE="+childGORACE())
	}
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 120})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term := &terminal{t: t, cmd: cmd, pty: f, changed: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(term.done)
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			select {
			case term.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		f.Close()
	})
	return term
}

// escapes are the terminal control sequences the line editor writes.
var escapes = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]|\r`)

func (term *terminal) screen() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return escapes.ReplaceAllString(term.out.String(), "")
}

// expect waits until the output shows want after what earlier expects saw.
func (term *terminal) expect(want string) {
	term.t.Helper()
	term.upTo(want)
}

// upTo waits until the output shows want after what earlier expects saw,
// and returns what comes before it. It waits for as long as the REPL
// runs: only the end of its output or the test binary's own deadline
// stops it short.
func (term *terminal) upTo(want string) string {
	term.t.Helper()
	guard := beforeDeadline(term.t)
	for ended := false; ; {
		s := term.screen()
		if i := strings.Index(s[term.seen:], want); i >= 0 {
			before := s[term.seen : term.seen+i]
			term.seen += i + len(want)
			return before
		}
		if ended {
			term.t.Fatalf("the terminal's output ended without %q; after what was seen it shows:\n%s", want, s[term.seen:])
		}
		select {
		case <-term.changed:
		case <-term.done:
			ended = true // look once more at everything read
		case <-guard:
			term.t.Fatalf("still waiting for %q at the test's deadline; the terminal shows, after what was seen:\n%s", want, s[term.seen:])
		}
	}
}

// items returns the words of a completion listing that ends where the
// prompt shows prompt again, sorted: which words are offered, however
// the terminal's width arranges them in columns.
func (term *terminal) items(prompt string) []string {
	term.t.Helper()
	words := strings.Fields(term.upTo(prompt))
	sort.Strings(words)
	return words
}

// keysReady waits until the line editor reads keys itself. It prints the
// prompt before it takes the terminal out of the mode in which the
// terminal turns Ctrl-C into a signal, so a Ctrl-C sent as soon as the
// prompt shows could reach the REPL as SIGINT, which it ignores while it
// evaluates, and be lost. It polls the terminal's mode, with no bound but
// the test's own deadline.
func (term *terminal) keysReady() {
	term.t.Helper()
	guard := beforeDeadline(term.t)
	for !readsKeys(term.pty.Fd()) {
		select {
		case <-guard:
			term.t.Fatalf("the line editor never took the terminal; it shows:\n%s", term.screen())
		case <-term.done:
			term.t.Fatalf("the terminal's output ended before the line editor took it; it shows:\n%s", term.screen())
		case <-time.After(time.Millisecond):
		}
	}
}

func (term *terminal) send(keys string) {
	term.t.Helper()
	if _, err := io.WriteString(term.pty, keys); err != nil {
		term.t.Fatal(err)
	}
}

// exit waits for the REPL to end and checks it exits 0.
func (term *terminal) exit() {
	term.t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- term.cmd.Wait() }()
	select {
	case err := <-errc:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			term.t.Fatalf("exit code %d; the terminal shows:\n%s", ee.ExitCode(), term.screen())
		} else if err != nil {
			term.t.Fatal(err)
		}
	case <-beforeDeadline(term.t):
		term.t.Fatalf("the REPL has not exited at the test's deadline; the terminal shows:\n%s", term.screen())
	}
}

// Keys, as a terminal sends them.
const (
	keyUp    = "\x1b[A"
	keyTab   = "\t"
	keyEnter = "\r"
	ctrlA    = "\x01"
	ctrlC    = "\x03"
	ctrlD    = "\x04"
	ctrlE    = "\x05"
	ctrlU    = "\x15"
	keyBack  = "\x7f"
)

func TestReplTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the REPL in a pseudo-terminal")
	}
	state := t.TempDir()
	term := startTerminal(t, state, "--load", "../../scenarios/llama2_70b_shared_pool_128.gpl")
	term.expect("Ctrl-D to leave")
	term.expect("gpl> ")

	term.send("let a = 2" + keyEnter)
	term.expect("\na = 2\n")

	// A brace keeps the input open, with the continuation prompt.
	term.send("pool p {" + keyEnter)
	term.expect(repl.PromptContinue)
	term.send("  devices = 4   # four" + keyEnter)
	term.expect(repl.PromptContinue)
	term.send("}" + keyEnter)
	term.expect("\npool p: devices 4\n")

	// Up recalls the whole statement, then the line before; Emacs keys
	// edit it.
	term.send(keyUp)
	term.expect("pool p { devices = 4 }")
	term.send(keyUp)
	term.expect("let a = 2")
	term.send(ctrlE + keyBack + "3" + keyEnter)
	term.expect("\na = 3 (was 2)\n")
	term.send(ctrlA + "a + shared" + keyTab + ".dev" + keyTab + keyEnter)
	term.expect("a + shared_h100.devices")
	term.expect("\n131\n")

	// Tab after JOB. lists its results on the second press, under the
	// line typed, and then shows the line again.
	term.send("llama2_70b." + keyTab + keyTab)
	term.expect("llama2_70b.\n")
	want := []string{
		"badput", "badput_cost", "best_lever",
		"ceiling.program", "ceiling.runtime", "ceiling.scheduling", "ceiling_mpg",
		"cost", "cost_per_useful_hour", "devices",
		"gain.program", "gain.runtime", "gain.scheduling",
		"gain_hours.program", "gain_hours.runtime", "gain_hours.scheduling",
		"headroom", "held_hours", "hours",
		"lever.program", "lever.runtime", "lever.scheduling",
		"loss.program", "loss.runtime", "loss.scheduling",
		"loss_cost.program", "loss_cost.runtime", "loss_cost.scheduling",
		"loss_hours.program", "loss_hours.runtime", "loss_hours.scheduling",
		"mpg", "offered_hours", "owner.program", "owner.runtime", "owner.scheduling",
		"point_value.program", "point_value.runtime", "point_value.scheduling",
		"productive_hours", "program", "rate", "runtime",
		"saving.program", "saving.runtime", "saving.scheduling",
		"scheduling", "useful_hours",
	}
	if diff := cmp.Diff(want, term.items("gpl> llama2_70b.")); diff != "" {
		t.Errorf("completions listed for llama2_70b. (-want +got):\n%s", diff)
	}
	term.send(ctrlU + "llama2_70b.best_l" + keyTab + keyEnter)
	term.expect("llama2_70b.best_lever")
	term.expect("\n\"program\"\n")

	// Ctrl-C clears the input, a continued one included.
	term.send("pool q {" + keyEnter)
	term.expect(repl.PromptContinue)
	term.keysReady()
	term.send("devices = 1" + ctrlC)
	term.expect("^C")
	term.send("a" + keyEnter)
	term.expect("\n3\n")

	term.send(":explain llama2_70b.mpg" + keyEnter)
	term.expect("mpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215")
	term.send("llama2_70b.headroom" + keyEnter)
	term.expect("1.484848485")

	// An error is shown under the typed line, and the session goes on.
	term.send("let b = nope" + keyEnter)
	term.expect("unknown name nope")
	term.expect("^^^^")

	term.send(ctrlD)
	term.exit()

	b, err := os.ReadFile(filepath.Join(state, "gpl", "history"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pool p { devices = 4 }\n", "let a = 3\n", "llama2_70b.headroom\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("history lacks %q:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), "pool q") {
		t.Errorf("history keeps an input cleared with Ctrl-C:\n%s", b)
	}

	// The history outlives the session.
	term = startTerminal(t, state, "--load", "../../scenarios/llama2_70b_shared_pool_128.gpl")
	term.expect("gpl> ")
	term.send(keyUp + keyUp)
	term.expect("llama2_70b.headroom")
	term.send(keyEnter)
	term.expect("\n1.484848485\n")
	term.send(":quit" + keyEnter)
	term.exit()
}
