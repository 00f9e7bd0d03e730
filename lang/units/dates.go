package units

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Dates are instants in UTC, held as seconds since 1970-01-01T00:00 (the
// base unit of Date). A file writes one as 2027-01-04 (midnight) or
// 2027-01-04T06:30 (or with seconds, 2027-01-04T06:30:15); a month as
// 2027-03, which only a query of a month reads. There are no time zones:
// a capacity plan is in UTC, as the months of its table are.

// Precision is how much of a date literal is written.
type Precision uint8

// The precisions of a date literal.
const (
	MonthPrecision  Precision = iota + 1 // 2027-03
	DayPrecision                         // 2027-03-01
	MinutePrecision                      // 2027-03-01T06:30
	SecondPrecision                      // 2027-03-01T06:30:15
)

// dateLayouts are the layouts of the precisions, by Precision.
var dateLayouts = [...]string{
	MonthPrecision:  "2006-01",
	DayPrecision:    "2006-01-02",
	MinutePrecision: "2006-01-02T15:04",
	SecondPrecision: "2006-01-02T15:04:05",
}

// DateShape reports whether text has the shape of a date literal and at
// which precision: four digits, "-", two digits, and optionally "-" and
// two digits, "T" and hh:mm, ":ss". It does not check the calendar
// (ParseDate does).
func DateShape(text string) (Precision, bool) {
	for p := SecondPrecision; p >= MonthPrecision; p-- {
		if shapeIs(text, dateLayouts[p]) {
			return p, true
		}
	}
	return 0, false
}

// shapeIs reports whether text has layout's shape: a digit for each digit
// of the layout, and its punctuation.
func shapeIs(text, layout string) bool {
	if len(text) != len(layout) {
		return false
	}
	for i := 0; i < len(text); i++ {
		l, c := layout[i], text[i]
		if l >= '0' && l <= '9' {
			if c < '0' || c > '9' {
				return false
			}
		} else if c != l {
			return false
		}
	}
	return true
}

// ParseDate reads a date literal: its instant in seconds since the epoch
// (a month's is its first instant) and its precision. The error says what
// is wrong with a literal of a date's shape that is no date: "February
// 2027 has 28 days", "there is no month 13".
func ParseDate(text string) (float64, Precision, error) {
	p, ok := DateShape(text)
	if !ok {
		return 0, 0, fmt.Errorf("%s is not a date: write YYYY-MM-DD, or YYYY-MM-DDThh:mm", text)
	}
	t, err := time.Parse(dateLayouts[p], text)
	if err != nil {
		return 0, 0, dateError(text)
	}
	return float64(t.Unix()), p, nil
}

// dateError says why a literal of a date's shape is no date.
func dateError(text string) error {
	year, _ := strconv.Atoi(text[0:4])
	month, _ := strconv.Atoi(text[5:7])
	if month < 1 || month > 12 {
		return fmt.Errorf("%s is not a date: there is no month %d", text, month)
	}
	if len(text) >= 10 {
		day, _ := strconv.Atoi(text[8:10])
		last := DaysIn(year, time.Month(month))
		if day < 1 || day > last {
			return fmt.Errorf("%s is not a date: %s %d has %d days", text, time.Month(month), year, last)
		}
	}
	if len(text) >= 16 {
		hour, _ := strconv.Atoi(text[11:13])
		minute, _ := strconv.Atoi(text[14:16])
		if hour > 23 {
			return fmt.Errorf("%s is not a date: there is no hour %d (write 00 to 23)", text, hour)
		}
		if minute > 59 {
			return fmt.Errorf("%s is not a date: there is no minute %d (write 00 to 59)", text, minute)
		}
	}
	return fmt.Errorf("%s is not a date: its seconds are past 59", text)
}

// DaysIn is the number of days of a month.
func DaysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// FormatDate prints an instant (seconds since the epoch) as a file writes
// it: 2027-01-04 at midnight, else 2027-01-04T06:30, with seconds when
// it has them.
func FormatDate(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e15 {
		return strconv.FormatFloat(v, 'g', -1, 64) + " s since 1970-01-01"
	}
	sec := math.Floor(v)
	t := time.Unix(int64(sec), 0).UTC()
	switch {
	case t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && sec == v:
		return t.Format(dateLayouts[DayPrecision])
	case t.Second() == 0 && sec == v:
		return t.Format(dateLayouts[MinutePrecision])
	}
	return t.Format(dateLayouts[SecondPrecision])
}

// FormatMonth prints the month holding an instant: 2027-03.
func FormatMonth(v float64) string {
	return time.Unix(int64(math.Floor(v)), 0).UTC().Format(dateLayouts[MonthPrecision])
}

// MonthStart is the first instant of the month holding v, and NextMonth
// the first instant of the month after it.
func MonthStart(v float64) float64 {
	t := time.Unix(int64(math.Floor(v)), 0).UTC()
	return float64(time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC).Unix())
}

// NextMonth is the first instant of the month after the one holding v.
func NextMonth(v float64) float64 {
	t := time.Unix(int64(math.Floor(v)), 0).UTC()
	return float64(time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC).Unix())
}
