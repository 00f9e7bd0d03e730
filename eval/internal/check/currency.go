package check

import (
	"fmt"
	"strings"

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

// PoolCurrency is the currency of a pool's money: its rate's, or
// without one its first priced job's; "USD" when none has a rate.
func (p *Program) PoolCurrency(d *Decl) string {
	if d == nil || d.Pool == nil {
		return "USD"
	}
	if f := d.Pool.Fields.Get("rate"); f != nil {
		return p.fieldCurrency(f)
	}
	for _, j := range p.statedJobsOn(d) {
		if j.Job != nil && j.Job.Pool == d && j.Job.Sites.Get("rate") != nil {
			return p.JobCurrency(j)
		}
	}
	return "USD"
}

// poolCurrency reports a job whose rate is in another currency than its
// pool's, or, on a pool without a rate, than the first priced job's
// checked before it: a pool's money is in one currency.
func (p *Program) poolCurrency(d *Decl, jp *jobPlan) bool {
	f := jp.Sites.Get("rate")
	if jp.Pool == nil || jp.Pool.Pool == nil || f == nil {
		return true
	}
	pool, jc := jp.Pool, p.JobCurrency(d)
	var summary func() string // the message, written only when told
	var pc string
	if jp.Pool.Pool.Fields.Get("rate") != nil {
		pc = p.PoolCurrency(pool)
		summary = func() string {
			return fmt.Sprintf("job %s is priced in %s, but its pool %s in %s: a pool's money is in one currency", d.Name.Name, jc, pool.Name.Name, pc)
		}
	} else {
		// The first priced job is still the program's: a REPL session
		// drops the declarations of an input that failed.
		first := p.pricedOn[pool]
		if first == nil || p.Decls[first.Name.Name] != first {
			if p.pricedOn == nil {
				p.pricedOn = map[*Decl]*Decl{}
			}
			p.pricedOn[pool] = d
			return true
		}
		pc = p.JobCurrency(first)
		summary = func() string {
			return fmt.Sprintf("pool %s mixes currencies: job %s is priced in %s, job %s in %s", pool.Name.Name, first.Name.Name, pc, d.Name.Name, jc)
		}
	}
	if pc == jc {
		return true
	}
	pos, end := f.Value.Span()
	p.Diags = append(p.Diags, &lang.Diagnostic{
		Severity: lang.Error,
		Summary:  summary(),
		Pos:      pos, End: end, Label: "priced in " + jc,
		Notes: []string{"hint: " + ConversionHint(pc, jc)},
	})
	return false
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

// sameCurrency sets a group's or compare's currency, its jobs', and
// reports jobs whose rates are in different currencies: their money does
// not add up without a rate of conversion, which the file must write.
func (p *Program) sameCurrency(d *Decl, ids []*lang.Ident) bool {
	d.Plan.Currency = "USD"
	var first *Decl
	for _, m := range d.Plan.Members {
		if m.Job == nil || m.Job.Sites.Get("rate") == nil && (m.Job.Pool == nil || m.Job.Pool.Pool == nil || m.Job.Pool.Pool.Fields.Get("rate") == nil) {
			continue // no rate, no money
		}
		c := p.JobCurrency(m)
		if first == nil {
			first, d.Plan.Currency = m, c
			continue
		}
		if c == d.Plan.Currency {
			continue
		}
		var at *lang.Ident
		for _, id := range ids {
			if id.Name == m.Name.Name {
				at = id
			}
		}
		noun := DeclKinds[d.Kind].Noun
		p.Diags = append(p.Diags, &lang.Diagnostic{
			Severity: lang.Error,
			Summary:  fmt.Sprintf("%s %s mixes currencies: job %s is priced in %s, job %s in %s", noun, d.Name.Name, first.Name.Name, d.Plan.Currency, m.Name.Name, c),
			Pos:      at.Start(), End: at.End(), Label: "priced in " + c,
			Notes: []string{"hint: " + ConversionHint(d.Plan.Currency, c)},
		})
		return false
	}
	return true
}

// ConversionHint is how a file converts an amount in the currency from
// into the currency to: by a rate it writes, e.g. "convert by a rate you
// write: let usd_per_eur = 1.08 USD/EUR, and multiply a value in EUR by
// usd_per_eur".
func ConversionHint(to, from string) string {
	name := strings.ToLower(to) + "_per_" + strings.ToLower(from)
	return fmt.Sprintf("currencies convert only by a rate you write: let %s = 1.08 %s/%s (the rate of the day), and multiply a value in %s by %s", name, to, from, from, name)
}

// currencyPhrase names money or a price with its currency, USD too:
// "money in USD", "a price in EUR".
func currencyPhrase(d units.Dim) string {
	switch {
	case d == units.Money:
		return "money in USD"
	case d == units.Price:
		return "a price in USD"
	}
	return d.Phrase()
}
