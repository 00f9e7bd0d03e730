package report

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// jobRow appends to out the row of the jobs table for j, written from the
// model: the cells, headers and order that flattening j's JSON gives (the
// keys of Job's fields in their order, name as job, the owners after the
// ceilings), without writing the JSON and reading it back, which is most
// of the cost of a table of 100,000 jobs. ok is false for a job whose
// JSON this does not write alike (money in another currency, whose keys
// the JSON renames; a number JSON cannot hold, which fails the whole
// document; text that is not UTF-8, which JSON replaces; a result that is
// not a number, a string, a truth value or null): the caller flattens its
// JSON. The row is w's until its next jobRow: the caller uses it first.
func (w *rowWriter) jobRow(j *Job) (row tableRow, ok bool) {
	w.out, w.ok, w.text, w.nums = w.out[:0], true, w.text[:0], w.nums[:0]
	if j.Currency != nil {
		return w.out, false
	}
	defer w.finish()
	w.str("job", j.Name)
	w.optStr("pool", j.Pool)
	w.optStr("extends", j.Extends)
	if j.From != nil {
		w.str("from", *j.From)
	}
	if j.To != nil {
		w.str("to", *j.To)
	}
	w.num("devices", j.Devices)
	w.num("hours_h", j.Hours)
	w.optNum("rate_usd_per_device_hour", j.Rate)
	w.factors(&factorKeys.factors, &j.Factors)
	w.optNum("ceilings.scheduling", j.Ceilings.Scheduling)
	w.optNum("ceilings.runtime", j.Ceilings.Runtime)
	w.optNum("ceilings.program", j.Ceilings.Program)
	for fac := Factor(0); fac < NumFactors; fac++ {
		w.str(ownerKeys[fac], j.View.Factors[fac].Owner)
	}
	w.num("mpg", j.MPG)
	w.num("badput", j.Badput)
	w.factors(&factorKeys.loss, &j.Loss)
	w.num("offered_hours_h", j.OfferedHours)
	w.num("useful_hours_h", j.UsefulHours)
	w.optNum("cost_usd", j.Cost)
	w.optNum("badput_cost_usd", j.BadputCost)
	w.optNum("cost_per_useful_hour_usd", j.CostPerUsefulHour)
	w.factors(&factorKeys.lever, &j.Lever)
	w.factors(&factorKeys.gain, &j.Gain)
	w.optStr("best_lever", j.BestLever)
	w.num("ceiling_mpg", j.CeilingMPG)
	w.optNum("headroom", j.Headroom)
	if wf := j.Waterfall; wf == nil {
		w.null("waterfall")
	} else {
		w.num("waterfall.offered_hours_h", wf.OfferedHours)
		w.num("waterfall.held_hours_h", wf.HeldHours)
		w.num("waterfall.productive_hours_h", wf.ProductiveHours)
		w.num("waterfall.useful_hours_h", wf.UsefulHours)
		w.omitNum("waterfall.offered_cost_usd", wf.OfferedCost)
		w.omitNum("waterfall.held_cost_usd", wf.HeldCost)
		w.omitNum("waterfall.productive_cost_usd", wf.ProductiveCost)
		w.omitNum("waterfall.useful_cost_usd", wf.UsefulCost)
	}
	// The owner table is an array of objects: another table (owners),
	// no cell; null and an empty array are one cell each.
	switch {
	case j.Owners == nil:
		w.null("owners")
	case len(j.Owners) == 0:
		w.str("owners", "")
	}
	if len(j.Results) > 0 {
		// encoding/json writes a map's keys sorted.
		keys := make([]string, 0, len(j.Results))
		for k := range j.Results {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if keys[0] == "param" || keys[0] == "type" {
			// flatten would read the first result as a typed
			// value's key
			return w.out, false
		}
		for _, k := range keys {
			if !utf8.ValidString(k) {
				w.ok = false
			}
			w.result("results."+k, j.Results[k])
		}
	}
	return w.out, w.ok
}

// factorKeys are the headers of the factor objects of a job's JSON.
var factorKeys = struct {
	factors, loss, lever, gain [NumFactors]string
}{
	[NumFactors]string{"factors.scheduling", "factors.runtime", "factors.program"},
	[NumFactors]string{"loss.scheduling", "loss.runtime", "loss.program"},
	[NumFactors]string{"lever.scheduling", "lever.runtime", "lever.program"},
	[NumFactors]string{"gain.scheduling", "gain.runtime", "gain.program"},
}

// rowWriter appends the cells of a row as flatten reads them from JSON;
// ok turns false at a value whose JSON would differ. The texts of the
// row's numbers are written one after another into text, and made one
// string when the row is done (finish), not a string each: a job's row
// has some forty.
type rowWriter struct {
	out tableRow
	ok  bool
	// text holds the row's numbers; nums says which cell each is and
	// where its text ends.
	text []byte
	nums []numText
}

// numText is a number cell of a row being written: its index in the row
// and the end of its text in rowWriter.text (it starts where the one
// before it ends).
type numText struct{ cell, end int }

// finish gives the row's number cells their texts.
func (w *rowWriter) finish() {
	s, start := string(w.text), 0
	for _, n := range w.nums {
		w.out[n.cell].cell.Text = s[start:n.end]
		start = n.end
	}
}

func (w *rowWriter) null(key string) { w.out = append(w.out, kv{key, Cell{}}) }

func (w *rowWriter) str(key, s string) {
	if !utf8.ValidString(s) {
		w.ok = false
	}
	w.out = append(w.out, kv{key, Cell{CellString, s}})
}

func (w *rowWriter) optStr(key string, s *string) {
	if s == nil {
		w.null(key)
		return
	}
	w.str(key, *s)
}

// num is a number as encoding/json writes it and PlainNumber makes it
// plain: the shortest decimal that reads back as v, without an exponent.
func (w *rowWriter) num(key string, v float64) {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		w.ok = false
	}
	w.text = strconv.AppendFloat(w.text, v, 'f', -1, 64)
	w.nums = append(w.nums, numText{len(w.out), len(w.text)})
	w.out = append(w.out, kv{key, Cell{Kind: CellNumber}})
}

func (w *rowWriter) optNum(key string, v *float64) {
	if v == nil {
		w.null(key)
		return
	}
	w.num(key, *v)
}

// omitNum is a number whose field is omitted when nil (omitempty).
func (w *rowWriter) omitNum(key string, v *float64) {
	if v != nil {
		w.num(key, *v)
	}
}

func (w *rowWriter) factors(keys *[NumFactors]string, f *Factors) {
	for fac := range NumFactors {
		w.num(keys[fac], f[fac])
	}
}

// result is a typed value: one cell under its key and its unit's suffix.
func (w *rowWriter) result(key string, v *Value) {
	if v == nil {
		w.null(key)
		return
	}
	if !utf8.ValidString(v.Type) || !utf8.ValidString(v.Key) {
		w.ok = false
	}
	if suffix := unitSuffix(v.Key); suffix != "" {
		key += "_" + suffix
	}
	switch x := v.Val.(type) {
	case nil:
		w.null(key)
	case float64:
		w.num(key, x)
	case *float64:
		w.optNum(key, x)
	case *string:
		w.optStr(key, x)
	case string:
		w.str(key, x)
	case bool:
		w.out = append(w.out, kv{key, Cell{CellBool, strconv.FormatBool(x)}})
	default:
		w.ok = false
	}
}
