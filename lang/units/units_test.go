package units

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnitConversions(t *testing.T) {
	tests := []struct {
		name       string
		written    float64
		unit       string
		base       float64 // FromUnit(written, unit)
		roundTrip  float64 // ToUnit(base, unit)
		baseInUnit float64 // ToUnit of a base value computed elsewhere
		fromBase   float64
	}{
		{"milliseconds", 250, "ms", 0.25, 250, 0.249, 249},
		{"seconds", 90, "s", 90, 90, 1.5, 1.5},
		{"minutes", 90, "min", 5400, 90, 150, 2.5},
		{"hours", 720, "h", 2592000, 720, 92160 * 3600, 92160},
		{"days", 2, "d", 172800, 2, 86400 * 30, 30},
		{"bytes", 500_000, "B", 500_000, 500_000, 1, 1},
		{"kilobytes", 500, "KB", 500_000, 500, 1024, 1.024},
		{"megabytes", 10, "MB", 1e7, 10, 2e6, 2},
		{"gigabytes", 1, "GB", 1e9, 1, 1.5e9, 1.5},
		{"terabytes", 3, "TB", 3e12, 3, 1e12, 1},
		{"kibibytes", 1, "KiB", 1024, 1, 512, 0.5},
		{"mebibytes", 1, "MiB", 1 << 20, 1, 1 << 19, 0.5},
		{"gibibytes", 2, "GiB", 2 << 30, 2, 1 << 29, 0.5},
		{"tebibytes", 1, "TiB", 1 << 40, 1, 1 << 39, 0.5},
		{"FLOP", 7, "FLOP", 7, 7, 7, 7},
		{"KFLOP", 7, "KFLOP", 7e3, 7, 1e3, 1},
		{"MFLOP", 7, "MFLOP", 7e6, 7, 1e6, 1},
		{"GFLOP", 10, "GFLOP", 1e10, 10, 1e9, 1},
		{"TFLOP", 7, "TFLOP", 7e12, 7, 1e12, 1},
		{"PFLOP", 7, "PFLOP", 7e15, 7, 1e15, 1},
		{"USD", 2.5, "USD", 2.5, 2.5, 230400, 230400},
		{"dollar", 2.5, "$", 2.5, 2.5, 230400, 230400},
		{"USD per hour", 2.5, "USD/h", 2.5 / 3600, 2.5, 8.8605 / 3600, 8.8605},
		{"dollars per hour", 8.86, "$/h", 8.86 / 3600, 8.86, 1.0 / 3600, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, ok := Units()[tt.unit]
			if !ok {
				t.Fatalf("no unit %q", tt.unit)
			}
			if u.Symbol != tt.unit {
				t.Errorf("Units()[%q].Symbol = %q", tt.unit, u.Symbol)
			}
			got := []float64{FromUnit(tt.written, u), ToUnit(FromUnit(tt.written, u), u), ToUnit(tt.baseInUnit, u)}
			want := []float64{tt.base, tt.roundTrip, tt.fromBase}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("FromUnit, round trip, ToUnit (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnitDimensions(t *testing.T) {
	got := map[string]string{}
	for sym, u := range Units() {
		got[sym] = u.Dim.String()
	}
	want := map[string]string{
		"ms": "duration", "s": "duration", "min": "duration", "h": "duration", "d": "duration", "wk": "duration",
		"B": "data", "KB": "data", "MB": "data", "GB": "data", "TB": "data",
		"KiB": "data", "MiB": "data", "GiB": "data", "TiB": "data",
		"FLOP": "compute", "KFLOP": "compute", "MFLOP": "compute", "GFLOP": "compute", "TFLOP": "compute", "PFLOP": "compute",
		"EFLOP": "compute", "ZFLOP": "compute", "EFLOP/s": "compute rate", "ZFLOP/s": "compute rate",
		"€": "money in EUR", "€/h": "price in EUR", "£": "money in GBP", "£/h": "price in GBP",
		"USD": "money", "$": "money", "USD/h": "price", "$/h": "price",
		"FLOP/s": "compute rate", "GFLOP/s": "compute rate", "TFLOP/s": "compute rate", "PFLOP/s": "compute rate",
		"%": "count",
	}
	for _, c := range Currencies {
		if c != "USD" {
			want[c], want[c+"/h"] = "money in "+c, "price in "+c
		}
		for _, o := range Currencies {
			if o != c {
				want[c+"/"+o] = c + "/" + o
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unit dimensions (-want +got):\n%s", diff)
	}
}

func TestDim(t *testing.T) {
	tests := []struct {
		name string
		dim  Dim
		want string
		base string
	}{
		{"count", Count, "count", "1"},
		{"duration", Duration, "duration", "s"},
		{"data", Data, "data", "B"},
		{"compute", Compute, "compute", "FLOP"},
		{"money", Money, "money", "USD"},
		{"price is money per duration", Money.Div(Duration), "price", "USD/s"},
		{"price times duration is money", Price.Mul(Duration), "money", "USD"},
		{"money over price is duration", Money.Div(Price), "duration", "s"},
		{"data times count is data", Data.Mul(Count), "data", "B"},
		{"data over data is a count", Data.Div(Data), "count", "1"},
		{"throughput", Data.Div(Duration), "B/s", "B/s"},
		{"product", Data.Mul(Compute), "B·FLOP", "B·FLOP"},
		{"square", Duration.Mul(Duration), "s^2", "s^2"},
		{"inverse square", Count.Div(Duration).Div(Duration), "1/s^2", "1/s^2"},
		{"mixed", Money.Mul(Data).Div(Duration).Div(Compute), "B·USD/s·FLOP", "B·USD/s·FLOP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := [2]string{tt.dim.String(), tt.dim.BaseUnit()}
			if diff := cmp.Diff([2]string{tt.want, tt.base}, got); diff != "" {
				t.Errorf("String, BaseUnit (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDimPhrase(t *testing.T) {
	got := map[string]string{}
	for _, d := range []Dim{Count, Duration, Data, Compute, Money, Price, Data.Div(Duration)} {
		got[d.String()] = d.Phrase()
	}
	want := map[string]string{
		"count": "a count", "duration": "a duration", "data": "data", "compute": "compute",
		"money": "money", "price": "a price", "B/s": "a value in B/s",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Phrase by dimension (-want +got):\n%s", diff)
	}
}

func TestCleanFraction(t *testing.T) {
	mpg, lever := 0.95*0.90*0.33, 0.98*0.90*0.33
	tests := []struct {
		name string
		in   float64
		want float64
	}{
		{"a gain, lever − mpg", lever - mpg, 0.00891},
		{"a loss, 1 − S", 1 - 0.95, 0.05},
		{"a badput, 1 − mpg", 1 - mpg, 0.71785},
		{"a negative difference", mpg - lever, -0.00891},
		{"exact", 0.28215, 0.28215},
		{"zero", 0, 0},
		{"one", 1, 1},
		{"below the 15th decimal is noise", 4e-17, 0},
		{"beyond 1, as Clean", 0.1 + twoTenths + 1, 1.3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CleanFraction(tt.in); got != tt.want {
				t.Errorf("CleanFraction(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
	if d := lever - mpg; Clean(d) == 0.00891 {
		t.Errorf("Clean(%v) = 0.00891: the case CleanFraction is for no longer arises", d)
	}
}

func TestClean(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want float64
	}{
		{"sum noise", 0.1 + twoTenths, 0.3},
		{"millisecond noise", 0.249 / 0.001, 249},
		{"exact", 0.28215, 0.28215},
		{"zero", 0, 0},
		{"negative", -(0.1 + twoTenths), -0.3},
		{"large", 123456789012345, 123456789012345},
		{"sixteen digits round", 1234567890123456, 1234567890123460},
		{"tiny", 1e-300, 1e-300},
		{"infinity", math.Inf(1), math.Inf(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clean(tt.in); got != tt.want {
				t.Errorf("Clean(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
	if got := Clean(math.NaN()); !math.IsNaN(got) {
		t.Errorf("Clean(NaN) = %v, want NaN", got)
	}
}

// TestCleanShortDecimals holds Clean's shortcut for short decimals
// (isShortDecimal) to the decimal round trip it skips, on decimals of up
// to eight places and their neighbours, and on random float64s.
func TestCleanShortDecimals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var ins []float64
	for range 200_000 {
		places := rng.IntN(9)
		k := rng.Int64N(1_000_000_000_000_000) >> rng.IntN(50)
		d := float64(k) / math.Pow10(places)
		if rng.IntN(2) == 0 {
			d = -d
		}
		ins = append(ins, d, math.Nextafter(d, math.Inf(1)), math.Nextafter(d, math.Inf(-1)))
		ins = append(ins, math.Float64frombits(rng.Uint64()))
	}
	ins = append(ins, 1e9-1e-6, 999999999.999999, 1e15/1e6, 0.000001, 5e-324)
	for _, v := range ins {
		if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
			continue
		}
		if got, want := Clean(v), roundDigits(v); got != want {
			t.Fatalf("Clean(%v) = %v, the round trip gives %v", v, got, want)
		}
	}
	var short, long []float64
	for _, v := range []float64{0.95, 720, 2.5, -0.33, 0.000001, 123456.789, 999999999.999999} {
		if !isShortDecimal(v) {
			short = append(short, v)
		}
		if n := math.Nextafter(v, math.Inf(1)); isShortDecimal(n) {
			long = append(long, n)
		}
	}
	if short != nil || long != nil {
		t.Errorf("short decimals not taken for short: %v; their neighbours taken: %v", short, long)
	}
}

// twoTenths is a variable so that 0.1 + twoTenths is rounded as at run
// time (0.30000000000000004), not computed exactly as a constant.
var twoTenths = 0.2

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		in          float64
		want, plain string // FormatNumber's and Numeral's
	}{
		{0, "0", "0"},
		{0.28215, "0.28215", "0.28215"},
		{999, "999", "999"},
		{1000, "1,000", "1000"},
		{26002.944, "26,002.944", "26002.944"},
		{230400, "230,400", "230400"},
		{-92160, "-92,160", "-92160"},
		{21233664, "21,233,664", "21233664"},
		{1.48485, "1.48485", "1.48485"},
		{0.1 + twoTenths, "0.3", "0.3"},
		{1.0 / 3, "0.3333333333", "0.3333333333"},
		{2.0 / 3, "0.6666666667", "0.6666666667"},
		{0.8652906378600823, "0.8652906379", "0.8652906379"},
		{-2.5, "-2.5", "-2.5"},
		{123456789012, "123,456,789,000", "123456789000"},
		{1234567890, "1,234,567,890", "1234567890"},
		{1234567890123.4567, "1,234,567,890,000", "1234567890000"},
		{1e-6, "0.000001", "0.000001"},
		{1e-7, "1e-07", "1e-07"},
		{1e15, "1e+15", "1e+15"},
		{-9.1e15, "-9.1e+15", "-9.1e+15"},
		{0.00785, "0.00785", "0.00785"},
		{1e-320, "1e-320", "1e-320"},
		{math.MaxFloat64, "1.7976931348623157e+308", "1.7976931348623157e+308"},
		{math.Inf(1), "+Inf", "+Inf"},
		{math.Inf(-1), "-Inf", "-Inf"},
		{math.NaN(), "NaN", "NaN"},
	}
	for _, tt := range tests {
		if got := FormatNumber(tt.in); got != tt.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tt.in, got, tt.want)
		}
		got := Numeral(tt.in)
		if got != tt.plain {
			t.Errorf("Numeral(%v) = %q, want %q", tt.in, got, tt.plain)
		}
		if _, err := strconv.ParseFloat(got, 64); err != nil {
			t.Errorf("Numeral(%v) = %q does not parse back: %v", tt.in, got, err)
		}
	}
}

func TestCountOf(t *testing.T) {
	tests := []struct {
		n    float64
		want string
	}{
		{1, "1 device"},
		{0, "0 devices"},
		{2, "2 devices"},
		{16384, "16,384 devices"},
		{1.5, "1.5 devices"},
	}
	for _, tt := range tests {
		if got := CountOf(tt.n, "device", "devices"); got != tt.want {
			t.Errorf("CountOf(%v) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestFormatRate(t *testing.T) {
	tests := []struct {
		usdPerHour float64
		want       string
	}{
		{2.5, "$2.50 per device-hour"},
		{8.8605, "$8.8605 per device-hour"},
		{1234.5, "$1,234.50 per device-hour"},
		{0, "$0.00 per device-hour"},
		{-2.5, "-$2.50 per device-hour"},
	}
	for _, tt := range tests {
		if got := FormatRate(tt.usdPerHour / 3600); got != tt.want {
			t.Errorf("FormatRate(%v/h) = %q, want %q", tt.usdPerHour, got, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	h := secondsPerHour
	tests := []struct {
		name string
		v    float64
		dim  Dim
		want string
	}{
		{"count", 0.28215, Count, "0.28215"},
		{"hours", 720 * h, Duration, "720 h"},
		{"a month stays in hours", 30 * 86400, Duration, "720 h"},
		{"device-hours", 92160 * h, Duration, "92,160 h"},
		{"millions of device-hours", 21233664 * h, Duration, "21,233,664 h"},
		{"useful hours", 26002.944 * h, Duration, "26,002.944 h"},
		{"devices", 16384, Count, "16,384"},
		{"minutes", 90, Duration, "1.5 min"},
		{"seconds", 1.5, Duration, "1.5 s"},
		{"milliseconds", 0.25, Duration, "250 ms"},
		{"below a millisecond", 0.0001, Duration, "0.1 ms"},
		{"zero duration", 0, Duration, "0 s"},
		{"zero data", 0, Data, "0 B"},
		{"zero compute", 0, Compute, "0 FLOP"},
		{"negative zero duration", math.Copysign(0, -1), Duration, "0 s"},
		{"negative duration", -2 * h, Duration, "-2 h"},
		{"megabytes", 1e7, Data, "10 MB"},
		{"kilobytes in powers of 1000", 1024, Data, "1.024 KB"},
		{"terabytes", 2.5e12, Data, "2.5 TB"},
		{"bytes", 12, Data, "12 B"},
		{"gigaflops", 1e10, Compute, "10 GFLOP"},
		{"petaflops", 3e15, Compute, "3 PFLOP"},
		{"flops", 12, Compute, "12 FLOP"},
		{"cost", 230400, Money, "$230,400.00"},
		{"badput cost", 165392.64, Money, "$165,392.64"},
		{"small money", 2.5, Money, "$2.50"},
		{"millions", 1234567.891, Money, "$1,234,567.89"},
		{"negative money", -1234.5, Money, "-$1,234.50"},
		{"zero money", 0, Money, "$0.00"},
		{"negative zero money", math.Copysign(0, -1), Money, "$0.00"},
		{"money that rounds to zero has no sign", -0.004, Money, "$0.00"},
		{"negative cents", -0.05, Money, "-$0.05"},
		{"price with four decimals", 8.8605 / 3600, Price, "$8.8605/h"},
		{"price with two decimals", 8.86 / 3600, Price, "$8.86/h"},
		{"price keeps two decimals", 2.5 / 3600, Price, "$2.50/h"},
		{"price rounds to four decimals", (2.5 / 0.28215) / 3600, Price, "$8.8605/h"},
		{"large price", 1234.5 / 3600, Price, "$1,234.50/h"},
		{"negative price", -1234.5 / 3600, Price, "-$1,234.50/h"},
		{"price that rounds to zero has no sign", -0.00001 / 3600, Price, "$0.00/h"},
		{"unnamed compound", 1e7, Data.Div(Duration), "10,000,000 B/s"},
		{"infinite money", math.Inf(1), Money, "$+Inf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Format(tt.v, tt.dim); got != tt.want {
				t.Errorf("Format(%v, %v) = %q, want %q", tt.v, tt.dim, got, tt.want)
			}
		})
	}
}

func TestFormatIn(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{(2.5 / 0.28215) / 3600, "USD/h", "8.860535176 USD/h"},
		{8.86 / 3600, "$/h", "8.86 $/h"},
		{230400, "$", "$230,400"},
		{-230400, "$", "-$230,400"},
		{-230400, "USD", "-230,400 USD"},
		{230400, "USD", "230,400 USD"},
		{26002.944 * secondsPerHour, "h", "26,002.944 h"},
		{0.249, "ms", "249 ms"},
		{1e7, "MB", "10 MB"},
		{1e7, "KiB", "9,765.625 KiB"},
	}
	for _, tt := range tests {
		if got := FormatIn(tt.v, Units()[tt.unit]); got != tt.want {
			t.Errorf("FormatIn(%v, %s) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}

func TestReadableUnit(t *testing.T) {
	tests := []struct {
		v    float64
		dim  Dim
		want string
		ok   bool
	}{
		{2592000, Duration, "h", true},
		{3599, Duration, "min", true},
		{59, Duration, "s", true},
		{0.5, Duration, "ms", true},
		{0, Duration, "s", true},
		{0, Data, "B", true},
		{0, Compute, "FLOP", true},
		{0, Money, "USD", true},
		{1e12, Data, "TB", true},
		{999, Data, "B", true},
		{1e9, Compute, "GFLOP", true},
		{1e20, Compute, "EFLOP", true},
		{8.4e23, Compute, "ZFLOP", true},
		{2.5, PriceIn("EUR"), "EUR/h", true},
		{2.5, MoneyIn("CHF"), "CHF", true},
		{1, Money, "USD", true},
		{1, Price, "USD/h", true},
		{1, Count, "", false},
		{1, Data.Div(Duration), "", false},
	}
	for _, tt := range tests {
		u, ok := ReadableUnit(tt.v, tt.dim)
		if u.Symbol != tt.want || ok != tt.ok {
			t.Errorf("ReadableUnit(%v, %v) = %q, %v; want %q, %v", tt.v, tt.dim, u.Symbol, ok, tt.want, tt.ok)
		}
	}
}

// secondsPerHour is a variable so that products with it are rounded as
// at run time, not computed exactly as constants.
var secondsPerHour = 3600.0

func TestCurrencies(t *testing.T) {
	eur, gbp := MoneyIn("EUR"), MoneyIn("GBP")
	type row struct{ Got, Want string }
	got := []row{
		{Format(1234.5, eur), "€1,234.50"},
		{Format(-3, gbp), "-£3.00"},
		{Format(2.5/3600, PriceIn("EUR")), "€2.50/h"},
		{Format(1000, MoneyIn("JPY")), "1,000 JPY"},
		{Format(250.0/3600, PriceIn("JPY")), "250 JPY/h"},
		{Format(250.5/3600, PriceIn("JPY")), "250.5 JPY/h"},
		{FormatRateIn(2500.0/3600, "JPY"), "2,500 JPY per device-hour"},
		{Format(-0.001, MoneyIn("CHF")), "0.00 CHF"},
		{Format(2.5/3600, PriceIn("CHF")), "2.50 CHF/h"},
		{Format(1.08, Money.Div(eur)), "1.08 USD/EUR"},
		{Format(8.4e23, Compute), "840 ZFLOP"},
		{Format(3e18, Compute), "3 EFLOP"},
		{Format(2e21, ComputeRate), "2 ZFLOP/s"},
		{FormatRateIn(2.5/3600, "EUR"), "€2.50 per device-hour"},
		{FormatIn(2.5/3600, Units()["€/h"]), "2.5 €/h"},
		{FormatIn(2.5/3600, Units()["EUR/h"]), "2.5 EUR/h"},
		{eur.String(), "money in EUR"},
		{PriceIn("EUR").Phrase(), "a price in EUR"},
		{Money.Div(eur).BaseUnit(), "USD/EUR"},
		{Money.Div(eur).Mul(eur).String(), "money"},
		{PriceIn("EUR").Mul(Duration).String(), "money in EUR"},
		{PriceIn("GBP").Currencyless().String(), "price"},
	}
	want := make([]row, len(got))
	for i, r := range got {
		want[i] = row{r.Want, r.Want}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("currencies (-want +got):\n%s", diff)
	}
	for _, d := range []Dim{Money, Price, eur, PriceIn("AUD")} {
		if !IsMoney(d) && !IsPrice(d) {
			t.Errorf("%v is neither money nor a price", d)
		}
	}
	if _, ok := Compute.Currency(); ok || IsMoney(Price) || IsPrice(eur) {
		t.Error("Currency, IsMoney or IsPrice accepts a wrong dimension")
	}
}

// TestCurrencyByDefinition holds Currency, which reads the exponents, to
// its definition: the currency c whose amount MoneyIn(c), or whose price
// per hour MoneyIn(c)/Duration, is d; for every dimension with exponents
// in −2…2 on duration, money, the date and two currencies, and a few more.
func TestCurrencyByDefinition(t *testing.T) {
	type answer struct {
		D  Dim
		C  string
		OK bool
	}
	var got, want []answer
	check := func(d Dim) {
		c, ok := d.Currency()
		got = append(got, answer{d, c, ok})
		c, ok = currencyByDefinition(d)
		want = append(want, answer{d, c, ok})
	}
	var d Dim
	for _, at := range [][2]int{{0, 3}, {3, 5}, {4, 6}, {5, 12}, {1, 2}, {3, 12}} {
		for a := int32(-2); a <= 2; a++ {
			for b := int32(-2); b <= 2; b++ {
				for t0 := int32(-2); t0 <= 2; t0++ {
					d = Dim{}
					d[0] = t0
					d[at[0]] += a
					d[at[1]] += b
					check(d)
				}
			}
		}
	}
	for _, d := range []Dim{Count, Duration, Data, Compute, Money, Price, Date, ComputeRate, MoneyIn("JPY"), PriceIn("CAD"), Money.Mul(MoneyIn("EUR"))} {
		check(d)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Currency against its definition (-want +got):\n%s", diff)
	}
}

// currencyByDefinition is Dim.Currency as its doc defines it, and as it
// was written before it read the exponents: each currency's amount and
// price compared with d in turn.
func currencyByDefinition(d Dim) (string, bool) {
	for _, c := range Currencies {
		if m := MoneyIn(c); d == m || d == m.Div(Duration) {
			return c, true
		}
	}
	return "", false
}

// BenchmarkCurrency asks Currency of a count, an amount, a price in a
// foreign currency and a rate (every value printed or checked asks it),
// beside currencyByDefinition on the same four.
func BenchmarkCurrency(b *testing.B) {
	dims := []Dim{Count, Money, PriceIn("EUR"), ComputeRate}
	for _, fn := range []struct {
		name string
		f    func(Dim) (string, bool)
	}{{"exponents", Dim.Currency}, {"definition", currencyByDefinition}} {
		b.Run(fn.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				for _, d := range dims {
					if _, ok := fn.f(d); ok {
						n++
					}
				}
			}
			if n == 0 {
				b.Fatal("no currency found")
			}
		})
	}
}
