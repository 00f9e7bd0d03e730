package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/goodput"
)

// This file is the model's own vocabulary of factors, dimensions and
// amounts, so that a view prints a figure with its unit knowing nothing
// but the model.

// Factor names one of the three factors of a job (scheduling, runtime,
// program), and indexes a job's rows of factors.
type Factor int

// The factors, in the order the report lists them (the engine's order).
const (
	Scheduling Factor = iota
	Runtime
	Program
)

// NumFactors is how many factors a job has.
const NumFactors = 3

// String is the factor's name: "scheduling", "runtime", "program".
func (f Factor) String() string { return goodput.Factor(f).String() }

// Dim is the dimension of an amount: Count (a fraction or a number of
// things), Duration, Money, Price or another of the language's. The zero
// Dim is Count.
type Dim struct{ d units.Dim }

// The dimensions the report's figures have.
var (
	// Count is a dimensionless amount: an mpg, a factor, a number of
	// devices.
	Count Dim
	// Duration is a time, in seconds as a base unit.
	Duration = Dim{units.Duration}
	// Money is an amount of USD.
	Money = Dim{units.Money}
	// Price is USD per second as a base unit (USD per device-hour shown).
	Price = Dim{units.Price}
)

// Amount is a number of a dimension, in the dimension's base unit
// (seconds, USD, USD per second; a count is a plain number), which prints
// itself with its unit.
type Amount struct {
	Base float64
	Dim  Dim
}

// Number is a count v: a fraction or a number of things.
func Number(v float64) Amount { return Amount{v, Count} }

// Hours is h hours (or device-hours) as a duration: Base is in seconds.
func Hours(h float64) Amount { return Amount{units.FromUnit(h, units.Hour), Duration} }

// USD is v USD as money.
func USD(v float64) Amount { return Amount{v, Money} }

// PerHour is v USD per device-hour as a price: Base is in USD per second.
func PerHour(v float64) Amount { return Amount{v / 3600, Price} }

// String prints the amount in a readable unit with thousands separators,
// as the text report does: "92,160 h", "0 s", "$230,400.00", "$8.8605/h",
// "0.28215".
func (a Amount) String() string { return units.Format(a.Base, a.Dim.d) }

// Readable prints the amount as a reader of a report wants it, where
// String prints every digit the value has (JSON, CSV and the expects'
// diagnostics keep those): a count — a factor, an mpg, a ratio — to five
// significant figures (0.34390 is "0.3439"; a whole number stays whole:
// "1,024"); money to the cent ("$230,400.00"); a price to four decimals
// ("$8.8605/h"); a duration in its readable unit to five significant
// figures, and device-hours of 1,000 h or more in whole hours ("26,003 h").
// A duration of zero is "0 h": device-hours read in hours everywhere.
func (a Amount) Readable() string {
	switch a.Dim {
	case Count:
		return readableNumber(a.Base)
	}
	if units.IsMoney(a.Dim.d) || units.IsPrice(a.Dim.d) {
		return a.Clean().String()
	}
	u, ok := a.Unit()
	if a.Dim == Duration && (a.Base == 0 || !ok) {
		u, ok = Unit{Symbol: "h", Factor: 3600}, true
	}
	if !ok {
		return a.Clean().String()
	}
	x := u.In(a.Base)
	if u.Symbol == "h" && math.Abs(x) >= 1000 {
		x = math.Round(x)
	}
	return readableNumber(x) + " " + u.Symbol
}

// readableNumber prints x to five significant figures with thousands
// separators, a whole number as it is: "0.3439", "78.926", "12,346",
// "1,024".
func readableNumber(x float64) string {
	if x == math.Trunc(x) || math.IsInf(x, 0) || math.IsNaN(x) {
		return units.FormatNumber(x)
	}
	mag := int(math.Floor(math.Log10(math.Abs(x))))
	decimals := max(0, 4-mag)
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', decimals, 64), 64)
	if err != nil {
		return units.FormatNumber(x)
	}
	return units.FormatNumber(r)
}

// Clean is the amount without float noise: fifteen significant digits.
func (a Amount) Clean() Amount { return Amount{units.Clean(a.Base), a.Dim} }

// CleanFraction is a fraction computed as a difference (a loss, a gain)
// without float noise: fifteen decimals.
func (a Amount) CleanFraction() Amount { return Amount{units.CleanFraction(a.Base), a.Dim} }

// Plain prints the number in base units plainly, without separators or
// unit, as an attribute holds it: "92160".
func (a Amount) Plain() string { return units.Numeral(a.Base) }

// Fixed prints the number in base units with six significant digits,
// without unit, as the text report prints a fraction: "0.28215".
func (a Amount) Fixed() string {
	s := fmt.Sprintf("%.6g", units.Clean(a.Base))
	if strings.Contains(s, ".") && !strings.Contains(s, "e") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Of words a count as so many things: "1 device", "128 devices".
func (a Amount) Of(one, many string) string { return units.CountOf(a.Base, one, many) }

// Rate words a price as a device-hour's rate: "$2.50 per device-hour".
func (a Amount) Rate() string { return units.FormatRateIn(a.Base, a.Dim.Currency()) }

// Currency is the code of the currency of money or a price ("USD",
// "EUR"); "USD" for any other dimension.
func (d Dim) Currency() string {
	if c, ok := d.d.Currency(); ok {
		return c
	}
	return "USD"
}

// MoneyIn is the dimension of an amount in the currency code c.
func MoneyIn(c string) Dim { return Dim{units.MoneyIn(c)} }

// PriceIn is the dimension of a price per device-hour in the currency c.
func PriceIn(c string) Dim { return Dim{units.PriceIn(c)} }

// PriceOf is v in the currency c per device-hour as a price: PerHour(v)
// for "USD" or "".
func PriceOf(v float64, c string) Amount {
	if c == "" {
		return PerHour(v)
	}
	return Amount{v / 3600, PriceIn(c)}
}

// Cash is v in the currency c as money: USD(v) for "USD" or "".
func Cash(v float64, c string) Amount {
	if c == "" {
		return USD(v)
	}
	return Amount{v, MoneyIn(c)}
}

// Unit is the unit the amount reads best in: hours for durations of
// hours, USD for money, USD/h for prices; ok is false for a count and for
// compounds without a named unit.
func (a Amount) Unit() (u Unit, ok bool) {
	lu, ok := units.ReadableUnit(a.Base, a.Dim.d)
	return Unit{Symbol: lu.Symbol, Factor: lu.Factor}, ok
}

// Unit is a unit a view prints an amount in: its symbol ("h", "USD/h")
// and how many base units one of it is.
type Unit struct {
	Symbol string
	// Factor is how many base units one of this unit is: 3600 for "h".
	Factor float64
}

// In converts v, in base units, into u, without float noise.
func (u Unit) In(v float64) float64 {
	return units.ToUnit(v, units.Unit{Symbol: u.Symbol, Factor: u.Factor})
}

// amountOf is an eval number as an amount.
func amountOf(v float64, d units.Dim) Amount { return Amount{v, Dim{d}} }
