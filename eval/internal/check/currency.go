package check

import (
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
)

// A job's money is in its rate's currency: a job or pool with a rate in
// EUR has its cost, savings and cost per useful hour in EUR (language
// §22). The results table types money in USD; InCurrency retypes a
// result for the currency of the job or pool it is read from.

// fieldCurrency is the currency of a checked rate field: "USD" when there
// is none or it is not a price.
func (p *Program) fieldCurrency(f *lang.Field) string {
	if f == nil {
		return "USD"
	}
	var d units.Dim
	if c, ok := p.Fields[f]; ok && c != nil {
		d = c.Type.Dim
	} else if lit := PlainNumber(f.Value); lit != nil {
		d = lit.Dim()
	}
	if c, ok := d.Currency(); ok {
		return c
	}
	return "USD"
}

// JobCurrency is the currency of a job's money: its rate's, its own or
// inherited or its pool's; "USD" without a rate.
func (p *Program) JobCurrency(d *Decl) string {
	if d == nil || d.Job == nil {
		return "USD"
	}
	f := d.Job.Sites.Get("rate")
	if f == nil && d.Job.Pool != nil && d.Job.Pool.Pool != nil {
		f = d.Job.Pool.Pool.Fields.Get("rate")
	}
	return p.fieldCurrency(f)
}

// PoolCurrency is the currency of a pool's money: its rate's; "USD"
// without one.
func (p *Program) PoolCurrency(d *Decl) string {
	if d == nil || d.Pool == nil {
		return "USD"
	}
	return p.fieldCurrency(d.Pool.Fields.Get("rate"))
}

// InCurrency is t with its money in the currency c.
func InCurrency(t value.Type, c string) value.Type {
	if t.Kind == value.Number {
		t.Dim = t.Dim.InCurrency(c)
	}
	return t
}

// acceptsDim reports whether a field of dimension want takes a value of
// dimension got: the same, or a price (or an amount) in any currency.
func acceptsDim(want, got units.Dim) bool {
	return want == got || units.IsPrice(want) && units.IsPrice(got) || units.IsMoney(want) && units.IsMoney(got)
}
