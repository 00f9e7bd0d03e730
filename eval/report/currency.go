package report

import (
	"regexp"
	"strings"
	"sync"
)

// Denomination is the currency a view's money is in. A view that has
// money (a job, a pool, a group, a compare, a sweep) embeds it: its JSON
// then carries "currency", the keys of its money name that currency
// (cost_eur, rate_eur_per_device_hour, saving_eur; MoneyKey), and its
// Money and Price methods give its amounts to the text and HTML views.
type Denomination struct {
	// Currency is the code of the currency of the view's money when it
	// is not USD (ISO 4217: "EUR"), nil for USD.
	Currency *string `json:"currency,omitempty"`
}

// Code is the currency's ISO 4217 code, "USD" when none is named.
func (d Denomination) Code() string { return currency(d.Currency) }

// Money is x, an amount in the view's currency, as money.
func (d Denomination) Money(x float64) Amount { return Cash(x, d.Code()) }

// Price is x, in the view's currency per device-hour, as a price.
func (d Denomination) Price(x float64) Amount { return PriceOf(x, d.Code()) }

// MoneyKey is key, a JSON key of USD money ("cost_usd",
// "rate_usd_per_device_hour"), as a view in currency c names it
// ("cost_eur"); any other key as it is. It is the one rule for the
// names: the JSON report and gpl table's headers both follow it.
func MoneyKey(key string, c *string) string {
	if c == nil {
		return key
	}
	code := strings.ToLower(*c)
	switch {
	case strings.HasSuffix(key, "_usd"):
		return strings.TrimSuffix(key, "_usd") + "_" + code
	case strings.HasSuffix(key, "_usd_per_device_hour"):
		return strings.TrimSuffix(key, "_usd_per_device_hour") + "_" + code + "_per_device_hour"
	}
	return key
}

// usdKey matches a JSON key of USD money with its quotes and colon. It
// is compiled on first use, not when the program starts (gpl classify
// never needs it).
var usdKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"[a-z_]+_usd(_per_device_hour)?":`)
})

// rename is b, the JSON of a view in d's currency, with the keys of its
// money named by MoneyKey.
func (d Denomination) rename(b []byte) []byte {
	if d.Currency == nil {
		return b
	}
	return usdKey().ReplaceAllFunc(b, func(k []byte) []byte {
		key := string(k[1 : len(k)-2])
		return []byte(`"` + MoneyKey(key, d.Currency) + `":`)
	})
}
