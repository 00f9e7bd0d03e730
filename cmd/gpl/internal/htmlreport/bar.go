package htmlreport

import (
	"io"
	"math"
	"strings"

	"github.com/gpl-lang/gpl/eval/report"
)

// BarWidth is how many cells the terminal waterfall bar has.
const BarWidth = 40

// barInk is the cell each part of the terminal bar is drawn with: the
// useful hours, then the losses to program, runtime and scheduling.
var (
	barInkUTF8  = [4]string{"█", "▓", "▒", "░"}
	barInkASCII = [4]string{"#", "=", "-", "."}
)

// WaterfallBar writes a job's waterfall as one line: a bar of BarWidth
// cells split into the useful fraction of the offered device-hours and
// the fractions lost to program, runtime and scheduling (in that order,
// so the useful part starts the line), then a legend with the fractions
// as the text report prints them. With utf8 false it uses ASCII only.
//
//	███████████▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▒▒▒▒░░ useful 0.28215 · lost: program 0.57285, runtime 0.095, scheduling 0.05
func WaterfallBar(w io.Writer, v *report.JobView, utf8 bool) error {
	parts := [4]float64{v.MPG, v.Factors[report.Program].Loss, v.Factors[report.Runtime].Loss, v.Factors[report.Scheduling].Loss}
	ink, sep := barInkUTF8, " · "
	if !utf8 {
		ink, sep = barInkASCII, " | "
	}
	var b strings.Builder
	b.WriteString("  ")
	for i, n := range cells(parts, BarWidth) {
		b.WriteString(strings.Repeat(ink[i], n))
	}
	b.WriteString(" useful " + fraction(v.MPG) + sep + "lost: program " + fraction(parts[1]) +
		", runtime " + fraction(parts[2]) + ", scheduling " + fraction(parts[3]) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// cells splits width cells among fractions that sum to 1, by largest
// remainder, so the counts always add up to width and a part of 0 gets
// none.
func cells(parts [4]float64, width int) [4]int {
	var n [4]int
	var rem [4]float64
	total := 0
	for i, p := range parts {
		p = math.Max(p, 0)
		exact := p * float64(width)
		n[i] = int(math.Floor(exact))
		rem[i] = exact - float64(n[i])
		total += n[i]
	}
	for total < width {
		best := -1
		for i := range rem {
			if parts[i] > 0 && (best < 0 || rem[i] > rem[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		n[best]++
		rem[best] = -1
		total++
	}
	return n
}

// TerminalUTF8 reports whether the bar may use block characters: when
// the output is a terminal (isTerminal) and the locale (LC_ALL, else
// LC_CTYPE, else LANG) names UTF-8.
func TerminalUTF8(isTerminal bool, getenv func(string) string) bool {
	if !isTerminal {
		return false
	}
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}
