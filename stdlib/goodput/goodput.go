// Package goodput is the ML Productivity Goodput engine.
//
// ML Productivity Goodput (MPG) is the useful fraction of the accelerator
// device-hours offered to a job. It is the product of three factors, each a
// successive ratio in [0, 1]:
//
//	mpg = S × R × P
//
//	S  scheduling goodput: offered device-hours → device-hours held with all devices
//	R  runtime goodput:    held device-hours    → device-hours of checkpointed progress
//	P  program goodput:    checkpointed progress → peak-equivalent useful work
//
// Each factor has an owner (the scheduler, the runtime, the program) who may
// be able to raise it to some ceiling. Solve takes the three factors, the
// optional ceilings, the size of the offered pool and an optional price, and
// returns a Result with these values:
//
//	MPG             S×R×P                                  fraction
//	Badput          1 − MPG                                fraction
//	Loss[S]         1 − S                                  fraction of offered hours
//	Loss[R]         S × (1 − R)                            fraction of offered hours
//	Loss[P]         S × R × (1 − P)                        fraction of offered hours
//	OfferedHours    Devices × Hours                        device-hours
//	HeldHours       OfferedHours × S                       device-hours
//	ProductiveHours HeldHours × R                          device-hours
//	UsefulHours     OfferedHours × MPG                     device-hours
//	LossHours[f]    OfferedHours × Loss[f]                 device-hours
//	Cost            OfferedHours × Rate                    USD (0 without a rate)
//	BadputCost      Cost × Badput                          USD (0 without a rate)
//	LossCost[f]     Cost × Loss[f]                         USD (0 without a rate)
//	Lever[f]        mpg with factor f alone at its ceiling fraction
//	Gain[f]         Lever[f] − MPG                         fraction
//	GainHours[f]    OfferedHours × Gain[f]                 device-hours
//	Saving[f]       Cost × (1 − MPG / Lever[f])            USD (0 without a rate or
//	                                                       when Lever[f] is 0)
//	BestLever       factor with the largest Gain           (ties: S, then R, then P)
//	CeilingMPG      mpg with every factor at its ceiling   fraction
//
// Read in order, OfferedHours, HeldHours, ProductiveHours and UsefulHours
// are the waterfall: each step keeps the fraction its factor gives of the
// one before.
//
// The losses and MPG partition the offered hours: Loss[S] + Loss[R] +
// Loss[P] + MPG = 1. Derived ratios are methods: CostPerUsefulHour (Rate /
// MPG), Headroom (CeilingMPG / MPG) and TradeRatio (b.MPG / a.MPG).
//
// Every product is computed left to right as S×R×P, so a lever whose ceiling
// equals its factor has a gain of exactly 0. No output is ever Inf or NaN:
// inputs that would produce one are rejected with InputErrors, one
// *InputError per invalid value, and divisions that would produce one
// return a *DivisionError.
//
// The package imports only the standard library and knows nothing of any
// language built on it: its errors name Go values (Inputs.Factors[Program]),
// and a front end maps an *InputError's Input and Factor back to a source
// position and words the message for its users.
package goodput

import "fmt"

// Factor names one of the three goodput factors.
type Factor int

const (
	// Scheduling is S, the fraction of offered device-hours during which
	// the job holds all of its devices.
	Scheduling Factor = iota
	// Runtime is R, the fraction of held device-hours that end in
	// checkpointed progress (not lost to failures, restarts or stalls).
	Runtime
	// Program is P, the fraction of checkpointed device-hours that is
	// peak-equivalent useful work (model FLOPs over peak FLOPs).
	Program
)

// NumFactors is the number of goodput factors; Factor values are 0 to
// NumFactors−1 and index the per-factor arrays of Inputs and Result.
const NumFactors = 3

var (
	factorNames = [NumFactors]string{"scheduling", "runtime", "program"}
	factorShort = [NumFactors]string{"S", "R", "P"}
)

// String returns the factor's long name: "scheduling", "runtime" or
// "program".
func (f Factor) String() string {
	if f < 0 || f >= NumFactors {
		return fmt.Sprintf("Factor(%d)", int(f))
	}
	return factorNames[f]
}

// Short returns the factor's one-letter symbol: "S", "R" or "P".
func (f Factor) Short() string {
	if f < 0 || f >= NumFactors {
		return fmt.Sprintf("Factor(%d)", int(f))
	}
	return factorShort[f]
}

// ParseFactor returns the factor named by name, which is a long name
// ("scheduling", "runtime", "program") or a symbol ("S", "R", "P"); matching
// is exact. The bool is false when name names no factor.
func ParseFactor(name string) (Factor, bool) {
	for f := Factor(0); f < NumFactors; f++ {
		if name == factorNames[f] || name == factorShort[f] {
			return f, true
		}
	}
	return 0, false
}

// Optional is a value that may be unset. The zero Optional is unset.
type Optional struct {
	// Value is the value; it is meaningful only when Set is true.
	Value float64
	// Set reports whether Value was given.
	Set bool
}

// Some returns an Optional that is set to v.
func Some(v float64) Optional { return Optional{Value: v, Set: true} }

// Inputs describes one job for Solve.
type Inputs struct {
	// Factors holds S, R and P, indexed by Factor. Each is a fraction in
	// [0, 1]; all three are required.
	Factors [NumFactors]Optional
	// Ceilings holds, per factor, the highest value its owner could reach.
	// Each is optional; when set it is a fraction in [0, 1] and not below
	// its factor.
	Ceilings [NumFactors]Optional
	// Devices is the number of devices in the pool offered to the job
	// (>= 0; need not be whole).
	Devices float64
	// Hours is the wall-clock time the pool is offered, in hours (>= 0).
	Hours float64
	// Rate is the price in USD per offered device-hour (>= 0). It is
	// optional; without it the costs are 0 and Result.HasCost is false.
	Rate Optional
}

// Result is the outcome of Solve. Fractions are of offered device-hours.
type Result struct {
	// Inputs is a copy of the inputs that produced this result.
	Inputs Inputs
	// MPG is the ML Productivity Goodput S×R×P, a fraction in [0, 1].
	MPG float64
	// Badput is 1 − MPG, the fraction of offered device-hours not turned
	// into useful work.
	Badput float64
	// Loss is the fraction of offered device-hours lost at each factor:
	// 1−S, S×(1−R) and S×R×(1−P). Their sum plus MPG is 1.
	Loss [NumFactors]float64
	// OfferedHours is Devices × Hours, in device-hours.
	OfferedHours float64
	// HeldHours is OfferedHours × S, in device-hours: the offered
	// device-hours during which the job held all of its devices.
	HeldHours float64
	// ProductiveHours is HeldHours × R, in device-hours: the held
	// device-hours whose progress was kept.
	ProductiveHours float64
	// UsefulHours is OfferedHours × MPG, in peak-equivalent device-hours
	// (ProductiveHours × P, up to rounding).
	UsefulHours float64
	// LossHours is OfferedHours × Loss per factor, in device-hours: the
	// offered device-hours each factor's shortfall costs. With UsefulHours
	// they sum to OfferedHours.
	LossHours [NumFactors]float64
	// Cost is OfferedHours × Rate, in USD; 0 when HasCost is false.
	Cost float64
	// BadputCost is Cost × Badput, the USD spent on badput; 0 when HasCost
	// is false.
	BadputCost float64
	// LossCost is Cost × Loss per factor, in USD: the spend each factor's
	// shortfall costs; 0 when HasCost is false.
	LossCost [NumFactors]float64
	// HasCost reports whether a rate was given, so that Cost and
	// BadputCost are meaningful.
	HasCost bool
	// Lever is, per factor, the mpg (a fraction) with that factor alone
	// raised to its ceiling; it equals MPG for a factor without a ceiling.
	Lever [NumFactors]float64
	// Gain is Lever − MPG per factor: the mpg (a fraction) the factor's
	// owner could add alone. It is >= 0.
	Gain [NumFactors]float64
	// GainHours is OfferedHours × Gain per factor, in peak-equivalent
	// device-hours: the useful work gained for the same spend when that
	// factor alone reaches its ceiling.
	GainHours [NumFactors]float64
	// Saving is Cost × (1 − MPG / Lever) per factor, in USD: the spend
	// saved for the same useful work when that factor alone reaches its
	// ceiling. It is 0 when HasCost is false, and 0 when Lever is 0 (then
	// MPG is 0 too, and no spend buys useful work either way).
	Saving [NumFactors]float64
	// BestLever is the factor with the largest Gain; ties resolve in the
	// order S, R, P. It is meaningful only when HasBestLever is true.
	BestLever Factor
	// HasBestLever reports whether some factor has a Gain above 0.
	HasBestLever bool
	// CeilingMPG is the mpg (a fraction) with every factor that has a
	// ceiling at its ceiling; factors without one keep their value.
	CeilingMPG float64
}

// product returns S×R×P, multiplied left to right.
func product(f [NumFactors]float64) float64 {
	return f[Scheduling] * f[Runtime] * f[Program]
}

// Solve validates in and computes its Result. On invalid inputs it returns
// the zero Result and InputErrors holding every problem found (see
// InputErrors for the order). Solve does not allocate on success.
func Solve(in Inputs) (r Result, err error) {
	if err = validate(&in); err != nil {
		return Result{}, err
	}
	r.Inputs = in // r is the result slot itself: no copy on return

	var base, ceil [NumFactors]float64
	for f := range NumFactors {
		base[f] = in.Factors[f].Value
		ceil[f] = base[f]
		if in.Ceilings[f].Set {
			ceil[f] = in.Ceilings[f].Value
		}
	}
	s, sr := base[Scheduling], base[Scheduling]*base[Runtime]

	r.MPG = product(base)
	r.Badput = 1 - r.MPG
	r.Loss[Scheduling] = 1 - s
	r.Loss[Runtime] = s * (1 - base[Runtime])
	r.Loss[Program] = sr * (1 - base[Program])

	r.OfferedHours = in.Devices * in.Hours
	r.HeldHours = r.OfferedHours * s
	r.ProductiveHours = r.HeldHours * base[Runtime]
	r.UsefulHours = r.OfferedHours * r.MPG
	if in.Rate.Set {
		r.HasCost = true
		r.Cost = r.OfferedHours * in.Rate.Value
		r.BadputCost = r.Cost * r.Badput
	}

	for f := range NumFactors {
		lever := base
		lever[f] = ceil[f]
		r.Lever[f] = product(lever)
		r.Gain[f] = r.Lever[f] - r.MPG
		r.LossHours[f] = r.OfferedHours * r.Loss[f]
		r.LossCost[f] = r.Cost * r.Loss[f]
		r.GainHours[f] = r.OfferedHours * r.Gain[f]
		if r.Gain[f] > 0 && (!r.HasBestLever || r.Gain[f] > r.Gain[r.BestLever]) {
			r.BestLever, r.HasBestLever = Factor(f), true
		}
	}
	r.CeilingMPG = product(ceil)
	if r.HasCost {
		// Cost × (1 − MPG/Lever) = Cost × Gain/Lever, which keeps the
		// digits of a small gain; a loop of its own lets the divisions
		// overlap.
		for f := range NumFactors {
			if r.Lever[f] > 0 {
				r.Saving[f] = r.Cost * r.Gain[f] / r.Lever[f]
			}
		}
	}
	return r, nil
}

// CostPerUsefulHour returns Rate / MPG, the USD paid per useful
// (peak-equivalent) device-hour. The error is a *DivisionError whose Reason
// is ErrNoRate when the inputs have no rate, ErrZeroMPG when MPG is 0, and
// ErrOverflow when the quotient is too large.
func (r Result) CostPerUsefulHour() (float64, error) {
	if !r.Inputs.Rate.Set {
		return 0, &DivisionError{Quantity: QuantityCostPerUsefulHour, MPG: r.MPG, Reason: ErrNoRate}
	}
	return divide(QuantityCostPerUsefulHour, r.Inputs.Rate.Value, r.MPG)
}

// Headroom returns CeilingMPG / MPG, the factor by which mpg would grow if
// every factor reached its ceiling (1 means no headroom). The error is a
// *DivisionError whose Reason is ErrZeroMPG when MPG is 0 and ErrOverflow
// when the quotient is too large.
func (r Result) Headroom() (float64, error) {
	return divide(QuantityHeadroom, r.CeilingMPG, r.MPG)
}

// TradeRatio returns b.MPG / a.MPG: how many times more useful work b gets
// than a from the same offered device-hours. The error is a *DivisionError
// whose Reason is ErrZeroMPG when a.MPG is 0 and ErrOverflow when the
// quotient is too large.
func TradeRatio(a, b Result) (float64, error) {
	return divide(QuantityTradeRatio, b.MPG, a.MPG)
}

// divide returns num / mpg for q, or a *DivisionError when mpg is 0 or the
// quotient is not finite.
func divide(q Quantity, num, mpg float64) (float64, error) {
	if mpg == 0 {
		return 0, &DivisionError{Quantity: q, Numerator: num, MPG: mpg, Reason: ErrZeroMPG}
	}
	v := num / mpg
	if !finite(v) {
		return 0, &DivisionError{Quantity: q, Numerator: num, MPG: mpg, Reason: ErrOverflow}
	}
	return v, nil
}
