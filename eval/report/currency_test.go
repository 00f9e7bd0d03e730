package report

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMoneyKey(t *testing.T) {
	eur := "EUR"
	var got []string
	for _, k := range []string{"cost_usd", "rate_usd_per_device_hour", "cost_per_useful_hour_usd", "useful_hours_h", "usd", "mpg"} {
		got = append(got, MoneyKey(k, &eur), MoneyKey(k, nil))
	}
	want := []string{
		"cost_eur", "cost_usd",
		"rate_eur_per_device_hour", "rate_usd_per_device_hour",
		"cost_per_useful_hour_eur", "cost_per_useful_hour_usd",
		"useful_hours_h", "useful_hours_h",
		"usd", "usd",
		"mpg", "mpg",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("MoneyKey (-want +got):\n%s", d)
	}
	b := Denomination{&eur}.rename([]byte(`{"cost_usd":1,"rate_usd_per_device_hour":2,"name":"cost_usd","x_usd_y":3}`))
	if d := cmp.Diff(`{"cost_eur":1,"rate_eur_per_device_hour":2,"name":"cost_usd","x_usd_y":3}`, string(b)); d != "" {
		t.Errorf("rename (-want +got):\n%s", d)
	}
}
