package report

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is how the views print a figure with its unit, so that a view
// needs nothing but the model to do it.

// Dim is the dimension of a figure: Count (a fraction or a number of
// things), Duration, Money, Price and the others of the language.
type Dim = lang.Dim

// The dimensions the report's figures have.
var (
	// Count is a dimensionless figure: an mpg, a factor, a number of devices.
	Count = lang.Count
	// Duration is a time, in seconds as a base unit.
	Duration = lang.Duration
	// Money is an amount of USD.
	Money = lang.Money
	// Price is USD per second as a base unit (USD per device-hour shown).
	Price = lang.Price
)

// Inputs are the goodput engine's inputs of a job: devices, hours, USD
// per device-hour, and the factors and ceilings as fractions.
type Inputs = goodput.Inputs

// Result is the goodput engine's result of a job: fractions, device-hours
// and USD.
type Result = goodput.Result

// Factor names one of the three factors of a job (scheduling, runtime,
// program), and indexes the arrays of Inputs and Result.
type Factor = goodput.Factor

// NumFactors is how many factors a job has.
const NumFactors = goodput.NumFactors

// The factors, in the order the report lists them.
const (
	Scheduling = goodput.Scheduling
	Runtime    = goodput.Runtime
	Program    = goodput.Program
)

// Unit is a unit a view prints a figure in: its symbol ("h", "USD/h") and
// how many base units one of it is.
type Unit struct {
	Symbol string
	// Factor is how many base units one of this unit is: 3600 for "h".
	Factor float64
}

// ReadableUnit is the unit a figure of dimension d up to v (base units)
// reads best in: hours for durations of hours, USD/h for prices; ok is
// false for a count and for compounds without a named unit.
func ReadableUnit(v float64, d Dim) (Unit, bool) {
	u, ok := lang.ReadableUnit(v, d)
	return Unit{Symbol: u.Symbol, Factor: u.Factor}, ok
}

// In converts v, in base units, into u.
func (u Unit) In(v float64) float64 {
	return lang.ToUnit(v, lang.Unit{Symbol: u.Symbol, Factor: u.Factor})
}

// HoursToSeconds turns hours, the engine's unit of time and device-hours,
// into seconds, the base unit of a duration.
func HoursToSeconds(h float64) float64 { return lang.FromUnit(h, lang.Units["h"]) }

// PerHourToPerSecond turns USD per device-hour, the engine's unit of a
// price, into USD per second, its base unit.
func PerHourToPerSecond(p float64) float64 { return lang.FromUnit(p, lang.Units["USD/h"]) }

// Clean is v without float noise: fifteen significant digits.
func Clean(v float64) float64 { return lang.Clean(v) }

// CleanFraction is a fraction computed as a difference without float
// noise: fifteen decimals.
func CleanFraction(v float64) float64 { return lang.CleanFraction(v) }

// Format prints v, in base units of dimension d, in a readable unit with
// thousands separators: "92,160 h", "$230,400.00", "$8.8605/h", "0.28215".
func Format(v float64, d Dim) string { return lang.Format(v, d) }

// FormatNumber prints a number with thousands separators: "1,024".
func FormatNumber(v float64) string { return lang.FormatNumber(v) }

// Numeral prints a number plainly, as an attribute holds it: "92160".
func Numeral(v float64) string { return lang.Numeral(v) }

// FormatRate words a price v (USD per second) as a device-hour's rate:
// "$2.50 per device-hour".
func FormatRate(v float64) string { return lang.FormatRate(v) }

// CountOf is n things in words: "1 device", "128 devices".
func CountOf(n float64, one, many string) string { return lang.CountOf(n, one, many) }

// Fixed prints a fraction with six significant digits: "0.28215".
func Fixed(v float64) string {
	s := fmt.Sprintf("%.6g", lang.Clean(v))
	if strings.Contains(s, ".") && !strings.Contains(s, "e") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// DeviceHours prints device-hours in hours whatever their size, so that
// the steps of a waterfall read in one unit: "92160 h", "0 h".
func DeviceHours(h float64) string { return lang.FormatNumber(lang.Clean(h)) + " h" }

// USD prints an amount of money: "$230,400.00".
func USD(v float64) string { return lang.Format(v, lang.Money) }

// HoursValue is device-hours h as a duration value (printed "92,160 h",
// or "0 s").
func HoursValue(h float64) eval.Value { return eval.NumberValue(h*3600, lang.Duration) }

// MoneyValue is v USD as a value.
func MoneyValue(v float64) eval.Value { return eval.NumberValue(v, lang.Money) }

// PriceValue is v USD per device-hour as a value (printed "$8.8605/h").
func PriceValue(v float64) eval.Value { return eval.NumberValue(v/3600, lang.Price) }

// CountValue is a dimensionless v as a value.
func CountValue(v float64) eval.Value { return eval.NumberValue(v, lang.Count) }
