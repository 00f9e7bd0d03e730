package units

import "strings"

// foreign are the currencies other than USD, in the order of their
// exponents in Dim after the date's. Each is a dimension of its own: an
// amount in EUR is not money in USD, and only a rate written in the file
// (1.08 USD/EUR) converts one into the other.
var foreign = [...]string{"EUR", "GBP", "JPY", "CNY", "INR", "CHF", "CAD", "AUD"}

// Currencies are the codes of every currency a literal may carry, USD first.
var Currencies = append([]string{"USD"}, foreign[:]...)

// currencySigns are the currencies written with a sign before the number
// ($2.50, €2.50/h, £3); the others print with their code after it.
var currencySigns = map[string]string{"USD": "$", "EUR": "€", "GBP": "£"}

// SignCurrency is the currency of a sign a money literal starts with:
// "$" is USD, "€" EUR, "£" GBP.
var SignCurrency = map[string]string{"$": "USD", "€": "EUR", "£": "GBP"}

// MoneyIn is the dimension of an amount in the currency code c (Money for
// USD); it is the zero Dim for a code that is not a currency.
func MoneyIn(c string) Dim {
	if c == "USD" {
		return Money
	}
	for i, f := range foreign {
		if f == c {
			var d Dim
			d[firstForeign+i] = 1
			return d
		}
	}
	return Dim{}
}

// PriceIn is the dimension of a price per device-hour in the currency c:
// MoneyIn(c) per duration.
func PriceIn(c string) Dim { return MoneyIn(c).Div(Duration) }

// Currency is the currency code of an amount or a price ("USD", "EUR"),
// ok false for any other dimension.
//
// It reads the exponents rather than comparing d with each currency's
// two dimensions: printing and checking ask it of every value.
func (d Dim) Currency() (string, bool) {
	// An amount: one currency's exponent 1, every other exponent 0; a
	// price: the same with duration's exponent −1.
	if d[0] != 0 && d[0] != -1 {
		return "", false
	}
	at := -1
	for i := 1; i < len(d); i++ {
		switch {
		case d[i] == 0:
		case d[i] == 1 && at < 0 && (i == usdExponent || i >= firstForeign):
			at = i
		default:
			return "", false
		}
	}
	switch {
	case at == usdExponent:
		return "USD", true
	case at >= firstForeign:
		return foreign[at-firstForeign], true
	}
	return "", false
}

// Where the money exponents are in a Dim: USD's (Money), and the first
// foreign currency's, after the date's.
const (
	usdExponent  = 3
	firstForeign = 5
)

// IsMoney reports whether d is an amount in some currency.
func IsMoney(d Dim) bool {
	c, ok := d.Currency()
	return ok && d == MoneyIn(c)
}

// IsPrice reports whether d is a price per device-hour in some currency.
func IsPrice(d Dim) bool {
	c, ok := d.Currency()
	return ok && d == PriceIn(c)
}

// Currencyless is d with every currency's exponent moved onto USD: two
// dimensions that differ only in their currency (money in EUR and money)
// have the same Currencyless.
func (d Dim) Currencyless() Dim {
	for i := range foreign {
		d[usdExponent] = saturate(int64(d[usdExponent]) + int64(d[firstForeign+i]))
		d[firstForeign+i] = 0
	}
	return d
}

// currencyPattern is the lexer's alternation of the currencies' units,
// longest first: USD/EUR… (a conversion rate), USD/h (a price), USD.
func currencyPattern() string {
	var alts []string
	for _, c := range Currencies {
		for _, o := range Currencies {
			if o != c {
				alts = append(alts, c+"/"+o)
			}
		}
		alts = append(alts, c+"/h", c)
	}
	return strings.Join(alts, "|")
}

// addCurrencies adds each currency's units to t: its amount, its price
// per hour, its rates to the others, and the signs.
func addCurrencies(t map[string]Unit) {
	for _, c := range Currencies {
		m := MoneyIn(c)
		t[c] = Unit{c, m, 1}
		t[c+"/h"] = Unit{c + "/h", PriceIn(c), 1.0 / 3600}
		for _, o := range Currencies {
			if o != c {
				t[c+"/"+o] = Unit{c + "/" + o, m.Div(MoneyIn(o)), 1}
			}
		}
	}
	for sign, c := range SignCurrency {
		t[sign] = Unit{sign, MoneyIn(c), 1}
		t[sign+"/h"] = Unit{sign + "/h", PriceIn(c), 1.0 / 3600}
	}
}

// InCurrency is d with its USD exponent moved onto the currency c: money
// becomes money in c, a price a price in c; d without money, or c "USD",
// is d.
func (d Dim) InCurrency(c string) Dim {
	if c == "USD" || d[3] == 0 {
		return d
	}
	m := MoneyIn(c)
	if m == (Dim{}) {
		return d
	}
	e := d[3]
	d[3] = 0
	for i := range m {
		if m[i] == 1 {
			d[i] = saturate(int64(d[i]) + int64(e))
		}
	}
	return d
}
