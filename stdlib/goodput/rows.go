package goodput

// Rows are many variants of one job's inputs, solved together by
// SolveRows: row i is Base with, for each column that is not nil, its
// i-th value standing in for that input (set). A sampler's rows are one
// job's inputs in each of its samples; a column is as long as the rows
// solved, or longer.
type Rows struct {
	// Base holds every input a column does not replace.
	Base Inputs
	// Factors and Ceilings replace, per factor, a factor's and a
	// ceiling's value (fractions); nil keeps Base's.
	Factors, Ceilings [NumFactors][]float64
	// Devices, Hours (hours) and Rate (USD per device-hour) replace those
	// inputs; nil keeps Base's.
	Devices, Hours, Rate []float64
	// RaiseCeilings, when set, lifts a ceiling below its factor to the
	// factor in each row, as a what-if does, rather than rejecting it.
	RaiseCeilings bool
}

// RowFigures are the columns SolveRows fills, row by row: each as Solve
// and Result.CostPerUsefulHour give it for the row's inputs, bit for
// bit. A nil column is not computed; one that is not nil is as long as
// the rows solved, or longer.
type RowFigures struct {
	// MPG is the fraction S×R×P; OfferedHours and UsefulHours are
	// device-hours; Cost is USD (0 without a rate); CostPerUsefulHour is
	// USD per useful device-hour.
	MPG, OfferedHours, UsefulHours, Cost, CostPerUsefulHour []float64
}

// RowError is the error of SolveRows: the first row that Solve rejects,
// or whose CostPerUsefulHour, when asked, is undefined. Err is that
// error (InputErrors, or a *DivisionError).
type RowError struct {
	Row int
	Err error
}

func (e *RowError) Error() string { return e.Err.Error() }

// Unwrap is the row's error.
func (e *RowError) Unwrap() error { return e.Err }

// SolveRows solves rows 0 to n−1 of rows and writes the figures out asks
// for; it does what n calls of Solve would, for a fraction of their cost,
// and computes nothing out does not ask for. It stops at the first row
// whose inputs are invalid, or whose asked CostPerUsefulHour is
// undefined, with a *RowError; the rows before it are written. It does
// not allocate on success.
func SolveRows(rows *Rows, n int, out *RowFigures) error {
	b := &rows.Base
	for i := range n {
		var fac, ceil [NumFactors]float64
		var ceilSet [NumFactors]bool
		for f := range NumFactors {
			fac[f] = b.Factors[f].Value
			if c := rows.Factors[f]; c != nil {
				fac[f] = c[i]
			}
			ceil[f], ceilSet[f] = b.Ceilings[f].Value, b.Ceilings[f].Set
			if c := rows.Ceilings[f]; c != nil {
				ceil[f], ceilSet[f] = c[i], true
			}
			if rows.RaiseCeilings && ceilSet[f] && fac[f] > ceil[f] {
				ceil[f] = fac[f]
			}
		}
		devices, hours := b.Devices, b.Hours
		if rows.Devices != nil {
			devices = rows.Devices[i]
		}
		if rows.Hours != nil {
			hours = rows.Hours[i]
		}
		rate, rateSet := b.Rate.Value, b.Rate.Set
		if rows.Rate != nil {
			rate, rateSet = rows.Rate[i], true
		}
		offered := devices * hours
		// validate's checks, all passing: any that fails is told by
		// validate itself.
		ok := nonNegative(devices) && nonNegative(hours) && finite(offered) &&
			(!rateSet || nonNegative(rate) && finite(offered*rate))
		for f := range NumFactors {
			factorOK := (b.Factors[f].Set || rows.Factors[f] != nil) && fac[f] >= 0 && fac[f] <= 1
			ok = ok && factorOK && (!ceilSet[f] || ceil[f] >= 0 && ceil[f] <= 1 && !(ceil[f] < fac[f]))
		}
		if !ok {
			in := *b
			for f := range NumFactors {
				if rows.Factors[f] != nil {
					in.Factors[f] = Some(fac[f])
				}
				in.Ceilings[f] = Optional{Value: ceil[f], Set: ceilSet[f]}
			}
			in.Devices, in.Hours, in.Rate = devices, hours, Optional{Value: rate, Set: rateSet}
			if err := validate(&in); err != nil {
				return &RowError{Row: i, Err: err}
			}
		}
		// As Solve computes them: the product left to right, the hours
		// from the offered ones.
		mpg := fac[Scheduling] * fac[Runtime] * fac[Program]
		if out.MPG != nil {
			out.MPG[i] = mpg
		}
		if out.OfferedHours != nil {
			out.OfferedHours[i] = offered
		}
		if out.UsefulHours != nil {
			out.UsefulHours[i] = offered * mpg
		}
		if out.Cost != nil {
			cost := 0.0
			if rateSet {
				cost = offered * rate
			}
			out.Cost[i] = cost
		}
		if out.CostPerUsefulHour != nil {
			if !rateSet {
				return &RowError{Row: i, Err: &DivisionError{Quantity: QuantityCostPerUsefulHour, MPG: mpg, Reason: ErrNoRate}}
			}
			v, err := divide(QuantityCostPerUsefulHour, rate, mpg)
			if err != nil {
				return &RowError{Row: i, Err: err}
			}
			out.CostPerUsefulHour[i] = v
		}
	}
	return nil
}
