// Package units is the language's dimensions and units: Dim (exponents
// of duration, data, compute and money), the unit symbols a literal may
// carry (Units, and Pattern for the lexer), conversion to and from base
// units (seconds, bytes, FLOP, USD), and how values print ("92,160 h",
// "$8.8605/h"). It knows nothing of the syntax; lang reads it to scan
// literals, and every phase after it to check and print values.
package units

import (
	"math"
	"strconv"
	"strings"
	"sync"
)

// Dim is the physical dimension of a value, as exponents of the four base
// dimensions: duration (second), data (byte), compute (FLOP) and money (USD).
// A count is the zero Dim. A price, USD per device-hour, is money·duration⁻¹.
//
// Exponents are int32 and Mul and Div saturate at ±(MaxExponent+1), so no
// product or quotient wraps around to a small exponent (256 factors of 1s
// are s^256, not a count); Valid reports a dimension that went beyond
// MaxExponent.
type Dim [5 + len(foreign)]int32

// MaxExponent is the largest magnitude of a valid dimension exponent,
// far beyond any quantity a plan computes (s^2 or B·s⁻¹ are typical).
const MaxExponent = 1000

// Base dimensions and the named compound ones.
var (
	Count    = Dim{}
	Duration = Dim{1, 0, 0, 0}
	Data     = Dim{0, 1, 0, 0}
	Compute  = Dim{0, 0, 1, 0}
	Money    = Dim{0, 0, 0, 1}
	Price    = Dim{-1, 0, 0, 1}
	// Date is an instant: seconds since 1970-01-01T00:00 UTC. It is not
	// a quantity: a date less a date is a duration, a date plus or less a
	// duration a date, and dates compare; the checker refuses any other
	// arithmetic on one, so its exponent is 0 or 1.
	Date = Dim{0, 0, 0, 0, 1}
	// ComputeRate is compute per duration, FLOP/s: a device's peak.
	ComputeRate = Dim{-1, 0, 1, 0}
)

// Mul is the dimension of a product: the exponents added, each held within
// ±(MaxExponent+1).
func (d Dim) Mul(e Dim) Dim {
	for i := range d {
		d[i] = saturate(int64(d[i]) + int64(e[i]))
	}
	return d
}

// Div is the dimension of a quotient: the exponents subtracted, each held
// within ±(MaxExponent+1).
func (d Dim) Div(e Dim) Dim {
	for i := range d {
		d[i] = saturate(int64(d[i]) - int64(e[i]))
	}
	return d
}

// Valid reports whether every exponent of d is within ±MaxExponent. A
// product or quotient beyond that is an error of the expression that made
// it; its exponents are no longer exact.
func (d Dim) Valid() bool {
	for _, e := range d {
		if e > MaxExponent || e < -MaxExponent {
			return false
		}
	}
	return true
}

func saturate(e int64) int32 {
	return int32(max(-MaxExponent-1, min(MaxExponent+1, e)))
}

var dimNames = map[Dim]string{
	Count: "count", Duration: "duration", Data: "data", Compute: "compute",
	Money: "money", Price: "price", ComputeRate: "compute rate", Date: "date",
}

// dimPhrases are the named dimensions as a sentence uses them: data,
// compute and money are mass nouns and take no article.
var dimPhrases = map[Dim]string{
	Count: "a count", Duration: "a duration", Data: "data", Compute: "compute",
	Money: "money", Price: "a price", ComputeRate: "a compute rate", Date: "a date",
}

var baseSymbols = [len(Dim{})]string{"s", "B", "FLOP", "USD", "date",
	"EUR", "GBP", "JPY", "CNY", "INR", "CHF", "CAD", "AUD"}

// String names the dimension in a planner's words: "duration", "price", or
// for an unnamed compound its base units, e.g. "B·s⁻¹".
func (d Dim) String() string {
	if n, ok := dimNames[d]; ok {
		return n
	}
	if c, ok := d.Currency(); ok {
		if d == MoneyIn(c) {
			return "money in " + c
		}
		return "price in " + c
	}
	return d.BaseUnit()
}

// Phrase names the dimension as a sentence uses it, with its article where
// it takes one: "a duration", "data", "compute", "money", "a price",
// "a count"; an unnamed compound is "a value in B/s".
func (d Dim) Phrase() string {
	if p, ok := dimPhrases[d]; ok {
		return p
	}
	if c, ok := d.Currency(); ok {
		if d == MoneyIn(c) {
			return "money in " + c
		}
		return "a price in " + c
	}
	return "a value in " + d.BaseUnit()
}

// BaseUnit spells the dimension's base unit, e.g. "s", "USD/s", "B·FLOP".
func (d Dim) BaseUnit() string {
	var num, den []string
	for i, e := range d {
		switch {
		case e == 1:
			num = append(num, baseSymbols[i])
		case e > 1:
			num = append(num, baseSymbols[i]+"^"+strconv.Itoa(int(e)))
		case e == -1:
			den = append(den, baseSymbols[i])
		case e < -1:
			den = append(den, baseSymbols[i]+"^"+strconv.Itoa(int(-e)))
		}
	}
	s := strings.Join(num, "·")
	if s == "" {
		s = "1"
	}
	if len(den) > 0 {
		s += "/" + strings.Join(den, "·")
	}
	return s
}

// Unit is a unit a literal may carry: its symbol, its dimension and the factor
// that converts a value in this unit to the dimension's base unit.
type Unit struct {
	Symbol string
	Dim    Dim
	Factor float64
}

// Units the code of other packages names. They are data, not built at
// start-up; Units lists them with the rest.
var (
	Second        = Unit{"s", Duration, 1}
	Hour          = Unit{"h", Duration, 3600}
	Byte          = Unit{"B", Data, 1}
	FLOP          = Unit{"FLOP", Compute, 1}
	FLOPPerSecond = Unit{"FLOP/s", ComputeRate, 1}
	USD           = Unit{"USD", Money, 1}
	USDPerHour    = Unit{"USD/h", Price, 1.0 / 3600}
)

// Units returns every unit the language accepts after a number, by
// symbol. The map is built on first use and shared: callers must not
// change it.
func Units() map[string]Unit { return unitTable() }

// Lookup returns the unit spelled sym, and whether there is one.
func Lookup(sym string) (Unit, bool) {
	u, ok := unitTable()[sym]
	return u, ok
}

// Of returns the unit spelled sym, which must be one of Units.
func Of(sym string) Unit {
	u, ok := unitTable()[sym]
	if !ok {
		panic("units: no unit " + strconv.Quote(sym))
	}
	return u
}

// unitTable builds the table behind Units once, on first use: a run that
// reads no unit (gpl classify) does not pay for it at start-up.
var unitTable = sync.OnceValue(func() map[string]Unit {
	t := fixedUnits()
	addCurrencies(t)
	return t
})

// fixedUnits are the units other than the currencies' own.
func fixedUnits() map[string]Unit {
	return map[string]Unit{
		"ms": {"ms", Duration, 0.001}, "s": Second, "min": {"min", Duration, 60},
		"h": Hour, "d": {"d", Duration, 86400}, "wk": {"wk", Duration, 7 * 86400},
		"B": Byte, "KB": {"KB", Data, 1e3}, "MB": {"MB", Data, 1e6},
		"GB": {"GB", Data, 1e9}, "TB": {"TB", Data, 1e12},
		"KiB": {"KiB", Data, 1 << 10}, "MiB": {"MiB", Data, 1 << 20},
		"GiB": {"GiB", Data, 1 << 30}, "TiB": {"TiB", Data, 1 << 40},
		"FLOP": FLOP, "KFLOP": {"KFLOP", Compute, 1e3},
		"MFLOP": {"MFLOP", Compute, 1e6}, "GFLOP": {"GFLOP", Compute, 1e9},
		"TFLOP": {"TFLOP", Compute, 1e12}, "PFLOP": {"PFLOP", Compute, 1e15},
		"EFLOP": {"EFLOP", Compute, 1e18}, "ZFLOP": {"ZFLOP", Compute, 1e21},
		"USD": USD, "$": {"$", Money, 1},
		"USD/h": USDPerHour, "$/h": {"$/h", Price, 1.0 / 3600},
		"FLOP/s": FLOPPerSecond, "GFLOP/s": {"GFLOP/s", ComputeRate, 1e9},
		"TFLOP/s": {"TFLOP/s", ComputeRate, 1e12}, "PFLOP/s": {"PFLOP/s", ComputeRate, 1e15},
		"EFLOP/s": {"EFLOP/s", ComputeRate, 1e18}, "ZFLOP/s": {"ZFLOP/s", ComputeRate, 1e21},
		// A percentage is a count: 40% is 0.4. The scanner reads the sign
		// after a number; it is not in Pattern.
		"%": {"%", Count, 0.01},
	}
}

// Pattern is the alternation of unit symbols for the lexer, longest first
// where one is a prefix of another: each currency's conversion rates to
// the others (USD/EUR), its price (USD/h) and its amount (USD), then the
// rest.
func Pattern() string { return pattern() }

var pattern = sync.OnceValue(func() string {
	return currencyPattern() + `|\$/h|€/h|£/h|KiB|MiB|GiB|TiB|KB|MB|GB|TB|B|ZFLOP/s|EFLOP/s|PFLOP/s|TFLOP/s|GFLOP/s|FLOP/s|KFLOP|MFLOP|GFLOP|TFLOP|PFLOP|EFLOP|ZFLOP|FLOP|ms|min|s|h|d|wk`
})

// ToUnit converts v from base units into unit u. The result is rounded to 15
// significant digits, which removes the last-bit noise of a scale factor that
// is not a power of two (0.249 s is 249 ms, not 249.00000000000003 ms).
func ToUnit(v float64, u Unit) float64 {
	return Clean(v / u.Factor)
}

// FromUnit converts v written in unit u into base units.
func FromUnit(v float64, u Unit) float64 {
	if u.Factor < 1 {
		return v / (1 / u.Factor)
	}
	return v * u.Factor
}

// Clean rounds v to 15 significant digits, the precision of a float64 that
// survives a decimal round trip.
func Clean(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) || isShortDecimal(v) {
		return v
	}
	return roundDigits(v)
}

// roundDigits is Clean's rounding by a decimal round trip.
func roundDigits(v float64) float64 {
	var buf [32]byte
	c, err := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], v, 'g', 15, 64)), 64)
	if err != nil {
		return v
	}
	return c
}

// shortDecimals is the most decimals isShortDecimal looks for.
const shortDecimals = 1e6

// isShortDecimal reports whether v is the float64 nearest a decimal D of
// at most six decimals and fifteen digits (k / 10⁶ for an integer k below
// 10¹⁵), as most numbers a plan writes are: such a v is its own Clean,
// without the round trip. (D has at most fifteen significant digits, and
// v is within half a unit in the last place of it, 2⁻⁵³ of v, where the
// fifteen-digit decimals nearest D are more than 5 × 10⁻¹⁶ of v away; so
// v rounded to fifteen digits is D, which reads back as v.)
func isShortDecimal(v float64) bool {
	k := math.Round(v * shortDecimals)
	return math.Abs(k) < 1e15 && k/shortDecimals == v
}

// CleanFraction rounds a fraction of a whole, such as a goodput loss or
// gain, to 15 decimal places. float64 arithmetic on numbers up to 1 keeps
// about that absolute precision, so a difference of two fractions carries
// noise at the 16th decimal that Clean, which counts digits from the
// difference's own first one, keeps: 0.29106 − 0.28215 is
// 0.00891000000000003, which CleanFraction makes 0.00891. Values beyond
// ±1 are only Cleaned.
func CleanFraction(v float64) float64 {
	if math.Abs(v) > 1 || math.IsNaN(v) {
		return Clean(v)
	}
	return Clean(math.Round(v*1e15) / 1e15)
}

// FormatNumber prints v as a report does: at most 10 significant digits, no
// exponent for ordinary magnitudes, and commas between thousands in the
// integer part, as for money: 0.28215, 26,002.944, 230,400. It is for
// readers, not for gpl source, which has no commas: Numeral writes a number
// that parses back.
func FormatNumber(v float64) string {
	return groupThousands(Numeral(v))
}

// Numeral prints v as FormatNumber does but without thousands separators:
// 0.28215, 26002.944, 230400, 1e+20. Its text parses back as a gpl number
// literal and with strconv.ParseFloat.
func Numeral(v float64) string {
	if v == 0 {
		return "0"
	}
	// Round to 10 significant digits, then print the shortest numeral of
	// the rounded value: without an exponent for ordinary magnitudes, and
	// 1e-320 rather than the 9.999888672e-321 of a subnormal's ten digits.
	ten := strconv.FormatFloat(v, 'g', 10, 64)
	r, err := strconv.ParseFloat(ten, 64)
	if err != nil { // rounded up past the largest float64: keep v, exactly
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	if a := math.Abs(v); a >= 1e-6 && a < 1e15 {
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(r, 'g', -1, 64)
}

// readableUnits are the readable units of each dimension that has them,
// largest first, and the base unit in which a zero prints.
type readableUnits struct {
	units []Unit
	base  Unit
}

var readable = sync.OnceValue(func() map[Dim]readableUnits {
	of := func(syms ...string) []Unit {
		us := make([]Unit, len(syms))
		for i, s := range syms {
			us[i] = Of(s)
		}
		return us
	}
	return map[Dim]readableUnits{
		Duration:    {of("h", "min", "s", "ms"), Second},
		Data:        {of("TB", "GB", "MB", "KB", "B"), Byte},
		Compute:     {of("ZFLOP", "EFLOP", "PFLOP", "TFLOP", "GFLOP", "MFLOP", "KFLOP", "FLOP"), FLOP},
		ComputeRate: {of("ZFLOP/s", "EFLOP/s", "PFLOP/s", "TFLOP/s", "GFLOP/s", "FLOP/s"), FLOPPerSecond},
	}
})

// ReadableUnit picks the unit a report prints a value of dimension d in: the
// largest unit in which |v| is at least 1 (hours at most, so 720 h rather
// than 30 d), and the base unit for 0 (0 s, 0 B, 0 FLOP). ok is false for a
// count and for compounds without a named unit.
func ReadableUnit(v float64, d Dim) (Unit, bool) {
	if c, ok := d.Currency(); ok {
		if d == MoneyIn(c) {
			return Of(c), true
		}
		return Of(c + "/h"), true
	}
	r, ok := readable()[d]
	if !ok {
		return Unit{}, false
	}
	if v == 0 {
		return r.base, true
	}
	a := math.Abs(v)
	for _, u := range r.units {
		if a >= u.Factor {
			return u, true
		}
	}
	return r.units[len(r.units)-1], true
}

// Format prints a value of dimension d in a readable unit: "720 h",
// "21,233,664 h", "10 MB", "$230,400.00", "-$1,234.50", "$8.86/h", "0.28215",
// "0 s".
func Format(v float64, d Dim) string {
	switch d {
	case Count:
		return FormatNumber(v)
	case Date:
		return FormatDate(v)
	}
	if c, ok := d.Currency(); ok {
		if d == MoneyIn(c) {
			if math.Abs(v) >= 1e15 {
				return amount(Numeral(v), c, "") // $1e+20, not 21 digits
			}
			return amount(groupThousands(strconv.FormatFloat(v, 'f', MinorDigits(c), 64)), c, "")
		}
		return amount(priceNumeralIn(v, c), c, "/h")
	}
	if u, ok := ReadableUnit(v, d); ok {
		return FormatNumber(ToUnit(v, u)) + " " + u.Symbol
	}
	return FormatNumber(v) + " " + d.BaseUnit()
}

// FormatRate words a price v (USD per second, its base unit) as the rate of
// a device-hour: "$2.50 per device-hour", where Format prints "$2.50/h".
func FormatRate(v float64) string {
	return dollars(priceNumeral(v), " per device-hour")
}

// FormatRateIn words a price in the currency c as the rate of a
// device-hour: "€2.50 per device-hour", "2.50 CHF per device-hour".
func FormatRateIn(v float64, c string) string {
	return amount(priceNumeralIn(v, c), c, " per device-hour")
}

// MinorDigits is the number of decimals an amount in the currency c is
// written with: 0 for JPY, which has no minor unit, 2 for the others.
func MinorDigits(c string) int {
	if c == "JPY" {
		return 0
	}
	return 2
}

// priceNumeral is a price in USD per hour with two to four decimals and
// thousands separators: 2.50, 8.8605, 1,200.00.
func priceNumeral(v float64) string { return priceNumeralIn(v, "USD") }

// priceNumeralIn is a price per hour in the currency c with its minor
// digits (MinorDigits) to four decimals: 2.50, 8.8605; 250, 250.5 for JPY.
func priceNumeralIn(v float64, c string) string {
	perHour := ToUnit(v, USDPerHour)
	if math.Abs(perHour) >= 1e15 {
		return Numeral(perHour) // $1e+20/h, not 21 digits
	}
	p := strconv.FormatFloat(perHour, 'f', 4, 64)
	keep := MinorDigits(c) + 1 // the point and the minor digits
	for strings.HasSuffix(p, "0") && len(p)-strings.IndexByte(p, '.') > keep {
		p = p[:len(p)-1]
	}
	p = strings.TrimSuffix(p, ".")
	return groupThousands(p)
}

// FormatIn prints a value of the unit's dimension in that unit, e.g. a got
// value in the unit its expectation was written in: "8.860535 USD/h",
// "92,160 h".
func FormatIn(v float64, u Unit) string {
	return formatIn(FormatNumber(ToUnit(v, u)), u)
}

// NumeralIn prints as FormatIn does but with a Numeral, without thousands
// separators, for outputs that programs read: "92160 h".
func NumeralIn(v float64, u Unit) string {
	return formatIn(Numeral(ToUnit(v, u)), u)
}

func formatIn(s string, u Unit) string {
	switch u.Symbol {
	case "$", "€", "£":
		return signed(u.Symbol, s, "")
	case "%":
		return s + "%"
	}
	return s + " " + u.Symbol
}

// dollars puts the dollar sign on an amount, after its minus sign as
// amounts are written (-$1,234.50); an amount that rounded to zero prints
// without a sign ($0.00, not -$0.00).
func dollars(numeral, suffix string) string { return signed("$", numeral, suffix) }

// signed puts a currency's sign ($, €, £) on an amount as dollars does.
func signed(sign, numeral, suffix string) string {
	digits, neg := strings.CutPrefix(numeral, "-")
	if neg && strings.Trim(digits, "0.,") != "" {
		return "-" + sign + digits + suffix
	}
	return sign + digits + suffix
}

// amount prints an amount of the currency c: with its sign before the
// number where it has one ($2.50, €2.50/h, -£3.00), else with its code
// after (2.50 CHF, 1,000.00 JPY/h).
func amount(numeral, c, suffix string) string {
	if sign := currencySigns[c]; sign != "" {
		return signed(sign, numeral, suffix)
	}
	digits, neg := strings.CutPrefix(numeral, "-")
	if neg && strings.Trim(digits, "0.,") == "" {
		numeral = digits
	}
	return numeral + " " + c + suffix
}

// groupThousands puts commas into the integer part of a decimal numeral;
// anything else (+Inf, NaN, 1e+20) it returns as it is.
func groupThousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	if intPart == "" || strings.Trim(intPart, "0123456789") != "" || strings.ContainsAny(frac, "eE") {
		if neg {
			return "-" + s
		}
		return s
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String() + frac
}

// CountOf is n followed by the noun that agrees with it, n as a report
// prints a count: "1 device", "0 devices", "16,384 devices".
func CountOf(n float64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return FormatNumber(n) + " " + many
}
