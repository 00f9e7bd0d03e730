package report

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang/units"
)

// Value is a typed value as the JSON report writes it: {"type": "price",
// "usd_per_device_hour": 2.5}. Key names the unit the number is in
// ("count", "h", "bytes", "flop", "usd", "usd_per_device_hour", or the
// base unit of another dimension as the language spells it, "B/s"); Val is a *float64 (nil when not finite), a string or a bool.
type Value struct {
	Type string
	Key  string
	Val  any
}

// Named is a let or a param: its value, and whether it is a param.
type Named struct {
	Param bool
	Value Value
}

// unitKey is the key under which a number of dimension d is written, and
// how many base units one of that unit is: "count"; "h" for durations, in
// hours; "bytes"; "flop"; "usd"; "usd_per_device_hour" for prices; and,
// for any other dimension, its base unit spelled as the language does
// ("B/s"), in base units.
func unitKey(d units.Dim) (string, float64) {
	switch d {
	case units.Count:
		return "count", 1
	case units.Duration:
		return "h", 3600
	case units.Data:
		return "bytes", 1
	case units.Compute:
		return "flop", 1
	}
	if c, ok := d.Currency(); ok {
		// usd, eur, …; usd_per_device_hour, eur_per_device_hour, …
		if units.IsMoney(d) {
			return strings.ToLower(c), 1
		}
		return strings.ToLower(c) + "_per_device_hour", 1.0 / 3600
	}
	return d.BaseUnit(), 1
}

// valueOf is v as the JSON report writes it.
func valueOf(v eval.Value) Value {
	switch v.Type.Kind {
	case eval.Number:
		key, per := unitKey(v.Type.Dim)
		n := v.Num
		if per != 1 {
			n = units.ToUnit(n, units.Unit{Factor: per})
		}
		return Value{Type: v.Type.String(), Key: key, Val: finite(n)}
	case eval.Bool:
		return Value{Type: "bool", Key: "bool", Val: v.Bool}
	case eval.String:
		return Value{Type: "string", Key: "string", Val: v.Str}
	case eval.Class:
		return Value{Type: "class", Key: "class", Val: v.Str}
	}
	return Value{Type: "invalid", Key: "invalid", Val: nil}
}

// MarshalJSON writes {"type": T, KEY: VALUE} in that order.
func (v Value) MarshalJSON() ([]byte, error) {
	return v.marshal(nil)
}

func (v Value) marshal(param *bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{`)
	if param != nil {
		b.WriteString(`"param":`)
		b.WriteString(map[bool]string{true: "true", false: "false"}[*param])
		b.WriteString(`,`)
	}
	b.WriteString(`"type":`)
	t, _ := json.Marshal(v.Type)
	b.Write(t)
	b.WriteString(`,`)
	k, _ := json.Marshal(v.Key)
	b.Write(k)
	b.WriteString(`:`)
	val, err := json.Marshal(v.Val)
	if err != nil {
		return nil, err
	}
	b.Write(val)
	b.WriteString(`}`)
	return b.Bytes(), nil
}

// MarshalJSON writes {"param": P, "type": T, KEY: VALUE}.
func (n Named) MarshalJSON() ([]byte, error) { return n.Value.marshal(&n.Param) }

// finite is v cleaned of float noise, or nil when it is not a finite
// number, which JSON cannot hold.
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	c := units.Clean(v)
	return &c
}
