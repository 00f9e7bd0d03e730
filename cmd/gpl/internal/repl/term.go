package repl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/gpl-lang/gpl/lang/srcfile"
	"github.com/peterh/liner"
)

// termSource reads lines from a terminal with line editing (Emacs keys,
// history, completion) and keeps the history in a file between sessions.
type termSource struct {
	l       *liner.State
	out     io.Writer
	history *os.File // opened for appending; nil when history is not saved
	// writeFile replaces the history file when it is trimmed.
	writeFile func(string, []byte) error
	last      string
	sigs      chan os.Signal
}

func newTermSource(getenv func(string) string, r *repl) *termSource {
	t := &termSource{l: liner.NewLiner(), out: r.stdout, writeFile: r.writeFile}
	t.l.SetCtrlCAborts(true)
	t.l.SetMultiLineMode(true)
	t.l.SetTabCompletionStyle(liner.TabPrints)
	t.l.SetWordCompleter(r.complete)
	if p := historyPath(getenv); p != "" {
		if err := t.openHistory(p); err != nil {
			fmt.Fprintf(r.stderr, "gpl repl: history is not kept: %v\n", err)
		}
	}
	// Ctrl-C while a statement is evaluated must not end the session;
	// at the prompt the line editor reads it as a key.
	t.sigs = make(chan os.Signal, 1)
	signal.Notify(t.sigs, os.Interrupt)
	return t
}

// historyPath is where the history is kept: $XDG_STATE_HOME/gpl/history,
// else ~/.local/state/gpl/history (%LocalAppData%\gpl\history on
// Windows); "" when there is no home directory.
func historyPath(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "gpl", "history")
	}
	if runtime.GOOS == "windows" {
		if d := getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "gpl", "history")
		}
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "gpl", "history")
}

// historyKeep is how many entries the history file keeps.
const historyKeep = liner.HistoryLimit

// maxHistoryBytes is the largest history file read: far more than
// 2*historyKeep entries of any length typed.
const maxHistoryBytes = 16 << 20

// openHistory reads the saved history, trims the file when it has grown
// well past what is kept, and opens it to append to.
func (t *termSource) openHistory(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	// Read as source is (srcfile): a history that is a pipe or a device,
	// or has grown past all reason, is not read.
	if b, err := srcfile.ReadFile(path, maxHistoryBytes); err == nil && strings.TrimSpace(string(b)) != "" {
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		if len(lines) > 2*historyKeep {
			lines = lines[len(lines)-historyKeep:]
			if err := t.writeFile(path, []byte(strings.Join(lines, "\n")+"\n")); err != nil {
				return err
			}
		}
		if _, err := t.l.ReadHistory(strings.NewReader(strings.Join(lines, "\n"))); err != nil {
			return err
		}
		if len(lines) > 0 {
			t.last = lines[len(lines)-1]
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	t.history = f
	return nil
}

func (t *termSource) Line(prompt string) (string, error) {
	line, err := t.l.Prompt(prompt)
	switch {
	case errors.Is(err, liner.ErrPromptAborted):
		return "", errInterrupted
	case err == io.EOF:
		fmt.Fprintln(t.out)
	}
	return line, err
}

// Remember adds an input to the history, and to the file at once, so a
// session that is killed loses none of it.
func (t *termSource) Remember(input string) {
	if strings.TrimSpace(input) == "" || input == t.last {
		return
	}
	t.last = input
	t.l.AppendHistory(input)
	if t.history != nil {
		fmt.Fprintln(t.history, input)
	}
}

func (t *termSource) Close() error {
	signal.Stop(t.sigs)
	if t.history != nil {
		t.history.Close()
	}
	return t.l.Close()
}

// scriptSource reads a script: lines from a stream, without prompts.
type scriptSource struct {
	r *bufio.Reader
}

func newScriptSource(r io.Reader) *scriptSource { return &scriptSource{bufio.NewReader(r)} }

func (s *scriptSource) Line(string) (string, error) {
	line, err := s.r.ReadString('\n')
	if err == io.EOF && line != "" {
		err = nil
	}
	return strings.TrimRight(line, "\r\n"), err
}

func (s *scriptSource) Remember(string) {}
func (s *scriptSource) Close() error    { return nil }
