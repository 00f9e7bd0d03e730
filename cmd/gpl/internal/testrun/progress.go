package testrun

import (
	"io"
	"time"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/cmd/gpl/internal/termbar"
)

// fileProgress is gpl test's progress bar on stderr: files done of the
// total. Results are written to stdout between its draws; write wraps
// each so that the bar is off the terminal while a result is written and
// the next draw puts it back below. It is used from one goroutine, the one
// that writes the results.
type fileProgress struct {
	bar *termbar.Bar
}

// newTestProgress returns gpl test's progress bar for total files when one
// is wanted: stderr is a terminal and --no-progress is not given.
// Otherwise it returns nil, on which every method does nothing.
func newTestProgress(noProgress bool, stderr io.Writer, total int) *fileProgress {
	if noProgress || !cli.IsTerminal(stderr) {
		return nil
	}
	return startFileProgress(stderr, total, 100*time.Millisecond)
}

// startFileProgress draws a bar for total files on w, redrawn at most once
// per throttle.
func startFileProgress(w io.Writer, total int, throttle time.Duration) *fileProgress {
	bar := termbar.New(w, int64(total), termbar.Options{
		Description: "testing",
		Width:       30,
		Throttle:    throttle,
		Count:       true,
	})
	return &fileProgress{bar: bar}
}

// write wraps emit, which writes one file's results: the bar is taken off
// before and counts the file after.
func (p *fileProgress) write(emit func(*fileResult)) func(*fileResult) {
	if p == nil {
		return emit
	}
	return func(r *fileResult) {
		p.bar.Clear()
		emit(r)
		p.bar.Add(1)
	}
}

// finish takes the bar away for good, before the summary is written.
func (p *fileProgress) finish() {
	if p != nil {
		p.bar.Exit()
		p.bar.Clear()
	}
}
