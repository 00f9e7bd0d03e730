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
	for i := range n {
		in := rows.Base
		for f := range NumFactors {
			if c := rows.Factors[f]; c != nil {
				in.Factors[f] = Some(c[i])
			}
			if c := rows.Ceilings[f]; c != nil {
				in.Ceilings[f] = Some(c[i])
			}
		}
		if rows.Devices != nil {
			in.Devices = rows.Devices[i]
		}
		if rows.Hours != nil {
			in.Hours = rows.Hours[i]
		}
		if rows.Rate != nil {
			in.Rate = Some(rows.Rate[i])
		}
		if rows.RaiseCeilings {
			for f := range NumFactors {
				if c := in.Ceilings[f]; c.Set && in.Factors[f].Value > c.Value {
					in.Ceilings[f] = in.Factors[f]
				}
			}
		}
		if err := validate(&in); err != nil {
			return &RowError{Row: i, Err: err}
		}
		// As Solve computes them: the product left to right, the hours
		// from the offered ones.
		mpg := in.Factors[Scheduling].Value * in.Factors[Runtime].Value * in.Factors[Program].Value
		offered := in.Devices * in.Hours
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
			if in.Rate.Set {
				cost = offered * in.Rate.Value
			}
			out.Cost[i] = cost
		}
		if out.CostPerUsefulHour != nil {
			if !in.Rate.Set {
				return &RowError{Row: i, Err: &DivisionError{Quantity: QuantityCostPerUsefulHour, MPG: mpg, Reason: ErrNoRate}}
			}
			v, err := divide(QuantityCostPerUsefulHour, in.Rate.Value, mpg)
			if err != nil {
				return &RowError{Row: i, Err: err}
			}
			out.CostPerUsefulHour[i] = v
		}
	}
	return nil
}
