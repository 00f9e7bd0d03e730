package units

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDate(t *testing.T) {
	type got struct {
		Seconds   float64
		Precision Precision
		Err       string
	}
	var tests = map[string]got{
		"2027-01-04":          {1799020800, DayPrecision, ""},
		"2027-01-04T06:30":    {1799020800 + 6*3600 + 30*60, MinutePrecision, ""},
		"2027-01-04T06:30:15": {1799020800 + 6*3600 + 30*60 + 15, SecondPrecision, ""},
		"2027-03":             {1803859200, MonthPrecision, ""},
		"2028-02-29":          {1835395200, DayPrecision, ""},
		"2027-02-30":          {0, 0, "2027-02-30 is not a date: February 2027 has 28 days"},
		"2027-13-01":          {0, 0, "2027-13-01 is not a date: there is no month 13"},
		"2027-00":             {0, 0, "2027-00 is not a date: there is no month 0"},
		"2027-01-04T24:00":    {0, 0, "2027-01-04T24:00 is not a date: there is no hour 24 (write 00 to 23)"},
		"2027-01-04T06:61":    {0, 0, "2027-01-04T06:61 is not a date: there is no minute 61 (write 00 to 59)"},
		"2027-1-4":            {0, 0, "2027-1-4 is not a date: write YYYY-MM-DD, or YYYY-MM-DDThh:mm"},
	}
	for text, want := range tests {
		v, p, err := ParseDate(text)
		g := got{v, p, ""}
		if err != nil {
			g = got{Err: err.Error()}
		}
		if d := cmp.Diff(want, g); d != "" {
			t.Errorf("ParseDate(%q) (-want +got):\n%s", text, d)
		}
	}
}

func TestFormatDate(t *testing.T) {
	tests := map[float64]string{
		1799020800:                  "2027-01-04",
		1799020800 + 6*3600 + 30*60: "2027-01-04T06:30",
		1799020800 + 6*3600 + 15:    "2027-01-04T06:00:15",
		1799020800 + 0.5:            "2027-01-04T00:00:00",
	}
	for v, want := range tests {
		if got := FormatDate(v); got != want {
			t.Errorf("FormatDate(%v) = %q, want %q", v, got, want)
		}
	}
	if got := Format(1799020800, Date); got != "2027-01-04" {
		t.Errorf("Format of a date = %q", got)
	}
	if got, want := FormatMonth(1799020800), "2027-01"; got != want {
		t.Errorf("FormatMonth = %q, want %q", got, want)
	}
	if got, want := NextMonth(1799020800), 1801440000.0; got != want {
		t.Errorf("NextMonth = %v, want %v", got, want)
	}
}
