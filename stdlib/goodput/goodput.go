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
//	MPG          S×R×P                                  fraction
//	Badput       1 − MPG                                fraction
//	Loss[S]      1 − S                                  fraction of offered hours
//	Loss[R]      S × (1 − R)                            fraction of offered hours
//	Loss[P]      S × R × (1 − P)                        fraction of offered hours
//	OfferedHours Devices × Hours                        device-hours
//	UsefulHours  OfferedHours × MPG                     device-hours
//	Cost         OfferedHours × Rate                    USD (0 without a rate)
//	BadputCost   Cost × Badput                          USD (0 without a rate)
//	Lever[f]     mpg with factor f alone at its ceiling fraction
//	Gain[f]      Lever[f] − MPG                         fraction
//	BestLever    factor with the largest Gain           (ties: S, then R, then P)
//	CeilingMPG   mpg with every factor at its ceiling   fraction
//
// The losses and MPG partition the offered hours: Loss[S] + Loss[R] +
// Loss[P] + MPG = 1. Derived ratios are methods: CostPerUsefulHour (Rate /
// MPG), Headroom (CeilingMPG / MPG) and TradeRatio (b.MPG / a.MPG).
//
// Every product is computed left to right as S×R×P, so a lever whose ceiling
// equals its factor has a gain of exactly 0. No output is ever Inf or NaN:
// inputs that would produce one are rejected with an *InputError, and
// divisions that would produce one return an error.
//
// The package imports only the standard library and needs no parser; a
// language front end maps an *InputError's Field and Factor back to a source
// position.
package goodput

import (
	"errors"
	"fmt"
	"math"
)

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
	// UsefulHours is OfferedHours × MPG, in peak-equivalent device-hours.
	UsefulHours float64
	// Cost is OfferedHours × Rate, in USD; 0 when HasCost is false.
	Cost float64
	// BadputCost is Cost × Badput, the USD spent on badput; 0 when HasCost
	// is false.
	BadputCost float64
	// HasCost reports whether a rate was given, so that Cost and
	// BadputCost are meaningful.
	HasCost bool
	// Lever is, per factor, the mpg (a fraction) with that factor alone
	// raised to its ceiling; it equals MPG for a factor without a ceiling.
	Lever [NumFactors]float64
	// Gain is Lever − MPG per factor: the mpg (a fraction) the factor's
	// owner could add alone. It is >= 0.
	Gain [NumFactors]float64
	// BestLever is the factor with the largest Gain; ties resolve in the
	// order S, R, P. It is meaningful only when HasBestLever is true.
	BestLever Factor
	// HasBestLever reports whether some factor has a Gain above 0.
	HasBestLever bool
	// CeilingMPG is the mpg (a fraction) with every factor that has a
	// ceiling at its ceiling; factors without one keep their value.
	CeilingMPG float64
}

// ErrorKind classifies an InputError.
type ErrorKind int

const (
	// MissingFactor: a required factor is unset.
	MissingFactor ErrorKind = iota
	// NotFinite: a value is NaN or ±Inf.
	NotFinite
	// FactorOutOfRange: a factor is outside [0, 1]; Limit is the bound
	// it crosses.
	FactorOutOfRange
	// CeilingOutOfRange: a ceiling is outside [0, 1]; Limit is the bound
	// it crosses.
	CeilingOutOfRange
	// CeilingBelowFactor: a ceiling is below its factor; Limit is the
	// factor.
	CeilingBelowFactor
	// NegativeValue: devices, hours or rate is below 0; Limit is 0.
	NegativeValue
	// Overflow: devices × hours (Field "hours") or offered device-hours ×
	// rate (Field "rate") is too large for a float64; Limit is the largest
	// value the field could have.
	Overflow
)

var kindNames = [...]string{
	MissingFactor:      "MissingFactor",
	NotFinite:          "NotFinite",
	FactorOutOfRange:   "FactorOutOfRange",
	CeilingOutOfRange:  "CeilingOutOfRange",
	CeilingBelowFactor: "CeilingBelowFactor",
	NegativeValue:      "NegativeValue",
	Overflow:           "Overflow",
}

// String returns the kind's Go name, such as "FactorOutOfRange".
func (k ErrorKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("ErrorKind(%d)", int(k))
	}
	return kindNames[k]
}

// Field names used in InputError.Field.
const (
	FieldFactors  = "factors"
	FieldCeilings = "ceilings"
	FieldDevices  = "devices"
	FieldHours    = "hours"
	FieldRate     = "rate"
)

// InputError reports an invalid Inputs value. Solve reports only the first
// error, checking in this order: factors S, R, P (missing, not finite, out of
// range), ceilings S, R, P (not finite, out of range, below factor), devices,
// hours, rate (not finite, negative, overflow).
type InputError struct {
	// Field is the input at fault: "factors", "ceilings", "devices",
	// "hours" or "rate".
	Field string
	// Factor is the factor at fault when Field is "factors" or
	// "ceilings"; otherwise it is 0 and meaningless.
	Factor Factor
	// Kind says what is wrong.
	Kind ErrorKind
	// Value is the offending value (0 for MissingFactor).
	Value float64
	// Limit is the bound that Value violates (see ErrorKind); 0 when there
	// is none.
	Limit float64
}

// Error returns a one-line message such as
// "program factor is 1.2; a factor is a fraction in [0, 1]".
func (e *InputError) Error() string {
	subject := e.Field
	switch e.Field {
	case FieldFactors:
		subject = e.Factor.String() + " factor"
	case FieldCeilings:
		subject = e.Factor.String() + " ceiling"
	}
	switch e.Kind {
	case MissingFactor:
		return fmt.Sprintf("the job has no %s factor", e.Factor)
	case NotFinite:
		return fmt.Sprintf("%s is %g; it must be a finite number", subject, e.Value)
	case FactorOutOfRange:
		return fmt.Sprintf("%s is %g; a factor is a fraction in [0, 1]", subject, e.Value)
	case CeilingOutOfRange:
		return fmt.Sprintf("%s is %g; a ceiling is a fraction in [0, 1]", subject, e.Value)
	case CeilingBelowFactor:
		return fmt.Sprintf("%s %g is below its factor %g", subject, e.Value, e.Limit)
	case NegativeValue:
		return fmt.Sprintf("%s is %g; it must not be negative", subject, e.Value)
	case Overflow:
		if e.Field == FieldRate {
			return fmt.Sprintf("rate %g makes the cost overflow; with these offered device-hours it must be at most %g", e.Value, e.Limit)
		}
		return fmt.Sprintf("hours %g makes the offered device-hours overflow; with these devices it must be at most %g", e.Value, e.Limit)
	}
	return fmt.Sprintf("%s is %g: %s", subject, e.Value, e.Kind)
}

// ErrZeroMPG is wrapped by the errors of CostPerUsefulHour, Headroom and
// TradeRatio when the mpg they divide by is 0.
var ErrZeroMPG = errors.New("mpg is 0")

// ErrNoRate is wrapped by the error of CostPerUsefulHour when the inputs
// have no rate.
var ErrNoRate = errors.New("the job has no rate")

// ErrOverflow is wrapped by the errors of CostPerUsefulHour, Headroom and
// TradeRatio when the quotient is too large for a float64 (the divisor mpg
// is tiny but not 0).
var ErrOverflow = errors.New("the result is too large to represent")

// product returns S×R×P, multiplied left to right.
func product(f [NumFactors]float64) float64 {
	return f[Scheduling] * f[Runtime] * f[Program]
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// validate returns the first error in in, in the documented order.
func validate(in *Inputs) error {
	for f := Factor(0); f < NumFactors; f++ {
		o := in.Factors[f]
		switch {
		case !o.Set:
			return &InputError{Field: FieldFactors, Factor: f, Kind: MissingFactor}
		case !finite(o.Value):
			return &InputError{Field: FieldFactors, Factor: f, Kind: NotFinite, Value: o.Value}
		case o.Value < 0:
			return &InputError{Field: FieldFactors, Factor: f, Kind: FactorOutOfRange, Value: o.Value, Limit: 0}
		case o.Value > 1:
			return &InputError{Field: FieldFactors, Factor: f, Kind: FactorOutOfRange, Value: o.Value, Limit: 1}
		}
	}
	for f := Factor(0); f < NumFactors; f++ {
		c := in.Ceilings[f]
		if !c.Set {
			continue
		}
		switch {
		case !finite(c.Value):
			return &InputError{Field: FieldCeilings, Factor: f, Kind: NotFinite, Value: c.Value}
		case c.Value < 0:
			return &InputError{Field: FieldCeilings, Factor: f, Kind: CeilingOutOfRange, Value: c.Value, Limit: 0}
		case c.Value > 1:
			return &InputError{Field: FieldCeilings, Factor: f, Kind: CeilingOutOfRange, Value: c.Value, Limit: 1}
		case c.Value < in.Factors[f].Value:
			return &InputError{Field: FieldCeilings, Factor: f, Kind: CeilingBelowFactor, Value: c.Value, Limit: in.Factors[f].Value}
		}
	}
	if err := checkNonNegative(FieldDevices, in.Devices); err != nil {
		return err
	}
	if err := checkNonNegative(FieldHours, in.Hours); err != nil {
		return err
	}
	if offered := in.Devices * in.Hours; !finite(offered) {
		return &InputError{Field: FieldHours, Kind: Overflow, Value: in.Hours, Limit: math.MaxFloat64 / in.Devices}
	}
	if in.Rate.Set {
		if err := checkNonNegative(FieldRate, in.Rate.Value); err != nil {
			return err
		}
		offered := in.Devices * in.Hours
		if cost := offered * in.Rate.Value; !finite(cost) {
			return &InputError{Field: FieldRate, Kind: Overflow, Value: in.Rate.Value, Limit: math.MaxFloat64 / offered}
		}
	}
	return nil
}

func checkNonNegative(field string, v float64) error {
	switch {
	case !finite(v):
		return &InputError{Field: field, Kind: NotFinite, Value: v}
	case v < 0:
		return &InputError{Field: field, Kind: NegativeValue, Value: v, Limit: 0}
	}
	return nil
}

// Solve validates in and computes its Result. On invalid inputs it returns
// the zero Result and an *InputError for the first problem found (see
// InputError for the order). Solve does not allocate on success.
func Solve(in Inputs) (Result, error) {
	if err := validate(&in); err != nil {
		return Result{}, err
	}
	r := Result{Inputs: in}

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
		if r.Gain[f] > 0 && (!r.HasBestLever || r.Gain[f] > r.Gain[r.BestLever]) {
			r.BestLever, r.HasBestLever = Factor(f), true
		}
	}
	r.CeilingMPG = product(ceil)
	return r, nil
}

// CostPerUsefulHour returns Rate / MPG, the USD paid per useful
// (peak-equivalent) device-hour. The error wraps ErrNoRate when the inputs
// have no rate, ErrZeroMPG when MPG is 0, and ErrOverflow when the quotient
// is too large.
func (r Result) CostPerUsefulHour() (float64, error) {
	if !r.Inputs.Rate.Set {
		return 0, fmt.Errorf("%w, so cost_per_useful_hour is undefined", ErrNoRate)
	}
	return divide("cost_per_useful_hour", r.Inputs.Rate.Value, r.MPG, "")
}

// Headroom returns CeilingMPG / MPG, the factor by which mpg would grow if
// every factor reached its ceiling (1 means no headroom). The error wraps
// ErrZeroMPG when MPG is 0 and ErrOverflow when the quotient is too large.
func (r Result) Headroom() (float64, error) {
	return divide("headroom", r.CeilingMPG, r.MPG, "")
}

// TradeRatio returns b.MPG / a.MPG: how many times more useful work b gets
// than a from the same offered device-hours. The error wraps ErrZeroMPG when
// a.MPG is 0 and ErrOverflow when the quotient is too large.
func TradeRatio(a, b Result) (float64, error) {
	return divide("trade_ratio", b.MPG, a.MPG, " in the first result")
}

// divide returns num / mpg for the derived value name, or an error when mpg
// is 0 or the quotient is not finite.
func divide(name string, num, mpg float64, where string) (float64, error) {
	if mpg == 0 {
		return 0, fmt.Errorf("%w%s, so %s is undefined", ErrZeroMPG, where, name)
	}
	q := num / mpg
	if !finite(q) {
		return 0, fmt.Errorf("%s = %g / mpg %g: %w", name, num, mpg, ErrOverflow)
	}
	return q, nil
}
