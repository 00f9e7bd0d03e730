// Package termbar draws a one-line progress bar on a terminal: a
// description, the share done, a bar of blocks, the count done of the
// total (or bytes, with a rate and the time left), redrawn in place with a
// carriage return. It is what gpl classify and gpl test draw on stderr;
// a few lines of its own instead of a library, so that the binary links no
// network code and starts quickly.
package termbar

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Options say what a Bar shows.
type Options struct {
	Description string        // the text before the share done
	Width       int           // the bar's width in blocks
	Throttle    time.Duration // the least time between two draws, but for the last
	Bytes       bool          // the count is bytes: shown with a unit, a rate and the time left
	Count       bool          // show "(done/total)"
}

// Bar is a progress bar of Total units on a writer. It is not safe for
// concurrent use.
type Bar struct {
	w        io.Writer
	o        Options
	total    int64
	done     int64
	start    time.Time
	shown    time.Time
	width    int  // the widest line drawn, in runes
	finished bool // the last draw, of the whole, is done
}

// New returns a bar of total units on w, drawn at once at zero.
func New(w io.Writer, total int64, o Options) *Bar {
	b := &Bar{w: w, o: o, total: total, start: time.Now()}
	b.draw(true)
	return b
}

// Describe replaces the description; the next draw shows it.
func (b *Bar) Describe(s string) { b.o.Description = s }

// Add counts n more units done and draws the bar (throttled).
func (b *Bar) Add(n int64) { b.Set(b.done + n) }

// Set sets the units done and draws the bar (throttled).
func (b *Bar) Set(n int64) {
	b.done = n
	b.draw(false)
}

// Clear takes the bar off the line; the next draw puts it back.
func (b *Bar) Clear() {
	if b.width > 0 {
		io.WriteString(b.w, "\r"+strings.Repeat(" ", b.width)+"\r")
	}
}

// Exit stops the bar: it is not drawn again.
func (b *Bar) Exit() { b.finished = true }

// draw draws the bar, over the one before, unless it was drawn less than
// the throttle ago and is not yet whole; a bar drawn whole is not drawn
// again.
func (b *Bar) draw(force bool) {
	if b.finished {
		return
	}
	now := time.Now()
	if !force && now.Sub(b.shown) < b.o.Throttle && b.done < b.total {
		return
	}
	b.Clear()
	if b.done >= b.total {
		b.finished = true
	}
	b.shown = now
	line := b.line(now)
	io.WriteString(b.w, "\r"+line)
	if n := utf8.RuneCountInString(line); n > b.width {
		b.width = n
	}
}

// line renders the bar: "desc  42% |████      | (42/100) ".
func (b *Bar) line(now time.Time) string {
	share := 1.0
	if b.total > 0 {
		share = min(float64(b.done)/float64(b.total), 1)
	}
	full := int(share * float64(b.o.Width))
	var s strings.Builder
	fmt.Fprintf(&s, "%s %3d%% |%s%s| ", b.o.Description, int(share*100), strings.Repeat("█", full), strings.Repeat(" ", b.o.Width-full))
	switch {
	case b.o.Bytes:
		elapsed := now.Sub(b.start)
		rate := 0.0
		if elapsed > 0 {
			rate = float64(b.done) / elapsed.Seconds()
		}
		left := time.Duration(0)
		if rate > 0 && b.done < b.total {
			left = time.Duration(float64(b.total-b.done) / rate * float64(time.Second))
		}
		fmt.Fprintf(&s, "(%s/%s, %s/s) [%s:%s] ", bytesText(float64(b.done)), bytesText(float64(b.total)), bytesText(rate),
			elapsed.Round(time.Second), left.Round(time.Second))
	case b.o.Count:
		fmt.Fprintf(&s, "(%d/%d) ", b.done, b.total)
	}
	return s.String()
}

// bytesText writes n bytes with a decimal unit: "512 B", "4.2 MB".
func bytesText(n float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB"}
	i := 0
	for n >= 1000 && i < len(units)-1 {
		n /= 1000
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f %s", n, units[i])
	}
	return fmt.Sprintf("%.1f %s", n, units[i])
}
