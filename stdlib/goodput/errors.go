package goodput

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Input names one field of Inputs: the value an InputError is about.
type Input int

const (
	// InputFactor is Inputs.Factors; InputError.Factor says which one.
	InputFactor Input = iota
	// InputCeiling is Inputs.Ceilings; InputError.Factor says which one.
	InputCeiling
	// InputDevices is Inputs.Devices.
	InputDevices
	// InputHours is Inputs.Hours.
	InputHours
	// InputRate is Inputs.Rate.
	InputRate
)

var inputNames = [...]string{
	InputFactor:  "Factors",
	InputCeiling: "Ceilings",
	InputDevices: "Devices",
	InputHours:   "Hours",
	InputRate:    "Rate",
}

// String returns the name of the Inputs field: "Factors", "Ceilings",
// "Devices", "Hours" or "Rate".
func (i Input) String() string {
	if i < 0 || int(i) >= len(inputNames) {
		return fmt.Sprintf("Input(%d)", int(i))
	}
	return inputNames[i]
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
	// Overflow: Devices × Hours (Input InputHours) or offered device-hours
	// × Rate (Input InputRate) is too large for a float64; Limit is the
	// largest value the input could have with the others unchanged.
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

// InputError reports one invalid value of an Inputs. Solve returns every
// one it finds, as InputErrors.
type InputError struct {
	// Input is the field of Inputs at fault.
	Input Input
	// Factor is the factor at fault when Input is InputFactor or
	// InputCeiling; otherwise it is 0 and meaningless.
	Factor Factor
	// Kind says what is wrong.
	Kind ErrorKind
	// Value is the offending value, in the field's units (a fraction,
	// devices, hours, or USD per device-hour); 0 for MissingFactor.
	Value float64
	// Limit is the bound that Value violates (see ErrorKind), in the same
	// units; 0 when there is none.
	Limit float64
}

var factorGoNames = [NumFactors]string{"Scheduling", "Runtime", "Program"}

// subject names the Go value at fault, such as "Inputs.Ceilings[Runtime]".
func (e *InputError) subject() string {
	switch e.Input {
	case InputFactor, InputCeiling:
		f := fmt.Sprintf("Factor(%d)", int(e.Factor))
		if e.Factor >= 0 && e.Factor < NumFactors {
			f = factorGoNames[e.Factor]
		}
		return "Inputs." + e.Input.String() + "[" + f + "]"
	}
	return "Inputs." + e.Input.String()
}

// Error returns a one-line message about the Go value at fault, such as
// "goodput: Inputs.Factors[Program] is 1.2, above 1".
func (e *InputError) Error() string {
	subject := e.subject()
	switch e.Kind {
	case MissingFactor:
		return fmt.Sprintf("goodput: %s is not set", subject)
	case NotFinite:
		return fmt.Sprintf("goodput: %s is %g, not a finite number", subject, e.Value)
	case FactorOutOfRange, CeilingOutOfRange:
		side := "above"
		if e.Value < e.Limit {
			side = "below"
		}
		return fmt.Sprintf("goodput: %s is %g, %s %g", subject, e.Value, side, e.Limit)
	case CeilingBelowFactor:
		return fmt.Sprintf("goodput: %s is %g, below its factor %g", subject, e.Value, e.Limit)
	case NegativeValue:
		return fmt.Sprintf("goodput: %s is %g, below 0", subject, e.Value)
	case Overflow:
		product := "Devices × Hours"
		if e.Input == InputRate {
			product = "Devices × Hours × Rate"
		}
		return fmt.Sprintf("goodput: %s is %g: %s overflows a float64 unless it is at most %g", subject, e.Value, product, e.Limit)
	}
	return fmt.Sprintf("goodput: %s is %g: %s", subject, e.Value, e.Kind)
}

// InputErrors is every problem Solve found in one Inputs, in this order:
// factors S, R, P (missing, not finite, out of range); ceilings S, R, P
// (not finite, out of range, below a valid factor); devices; hours;
// Devices × Hours overflowing, when both are valid; rate; cost overflowing,
// when devices, hours and rate are valid. Each value has at most one error.
// It is never empty; errors.As to an *InputError finds the first.
type InputErrors []*InputError

// Error returns the messages of all the errors, separated by "; ".
func (es InputErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (es InputErrors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Quantity names a value derived from a Result by a division by MPG.
type Quantity int

const (
	// QuantityCostPerUsefulHour is Result.CostPerUsefulHour, Rate / MPG.
	QuantityCostPerUsefulHour Quantity = iota
	// QuantityHeadroom is Result.Headroom, CeilingMPG / MPG.
	QuantityHeadroom
	// QuantityTradeRatio is TradeRatio(a, b), b.MPG / a.MPG.
	QuantityTradeRatio
)

var quantityNames = [...]string{
	QuantityCostPerUsefulHour: "CostPerUsefulHour",
	QuantityHeadroom:          "Headroom",
	QuantityTradeRatio:        "TradeRatio",
}

// String returns the Go name of the quantity's function: "CostPerUsefulHour",
// "Headroom" or "TradeRatio".
func (q Quantity) String() string {
	if q < 0 || int(q) >= len(quantityNames) {
		return fmt.Sprintf("Quantity(%d)", int(q))
	}
	return quantityNames[q]
}

// ErrZeroMPG is the Reason of a DivisionError whose divisor MPG is 0.
var ErrZeroMPG = errors.New("MPG is 0")

// ErrNoRate is the Reason of the DivisionError of CostPerUsefulHour when
// the inputs have no rate.
var ErrNoRate = errors.New("Inputs.Rate is not set")

// ErrOverflow is the Reason of a DivisionError whose quotient is too large
// for a float64 (the divisor MPG is tiny but not 0).
var ErrOverflow = errors.New("the quotient overflows a float64")

// DivisionError reports a derived quantity that is undefined: its division
// by an MPG would give Inf or NaN, or it has no numerator. It unwraps to its
// Reason, so errors.Is(err, ErrZeroMPG) and the like work.
type DivisionError struct {
	// Quantity is the value that could not be computed.
	Quantity Quantity
	// Numerator is what is divided: Rate in USD per device-hour,
	// CeilingMPG, or b.MPG (fractions); 0 with ErrNoRate.
	Numerator float64
	// MPG is the divisor, a fraction: the Result's MPG, or a.MPG for
	// TradeRatio.
	MPG float64
	// Reason is ErrZeroMPG, ErrOverflow or ErrNoRate.
	Reason error
}

// Error returns a one-line message such as
// "goodput: Headroom is undefined: MPG is 0" or
// "goodput: TradeRatio is undefined: 1 / a.MPG 1e-310 overflows a float64".
func (e *DivisionError) Error() string {
	divisor := "MPG"
	if e.Quantity == QuantityTradeRatio {
		divisor = "a.MPG"
	}
	switch {
	case errors.Is(e.Reason, ErrZeroMPG):
		return fmt.Sprintf("goodput: %s is undefined: %s is 0", e.Quantity, divisor)
	case errors.Is(e.Reason, ErrOverflow):
		return fmt.Sprintf("goodput: %s is undefined: %g / %s %g overflows a float64", e.Quantity, e.Numerator, divisor, e.MPG)
	}
	return fmt.Sprintf("goodput: %s is undefined: %v", e.Quantity, e.Reason)
}

// Unwrap returns the Reason.
func (e *DivisionError) Unwrap() error { return e.Reason }

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// validate returns every error in in, in the order InputErrors documents,
// or nil. Each check is a comparison on the way through; an error's value
// is built, and allocated, only when the check fails.
func validate(in *Inputs) error {
	var errs InputErrors
	var factorOK [NumFactors]bool
	for f := Factor(0); f < NumFactors; f++ {
		// A comparison with NaN is false, and ±Inf is outside [0, 1].
		if o := in.Factors[f]; o.Set && o.Value >= 0 && o.Value <= 1 {
			factorOK[f] = true
			continue
		}
		errs = append(errs, factorError(f, in.Factors[f]))
	}
	for f := Factor(0); f < NumFactors; f++ {
		c := in.Ceilings[f]
		if !c.Set || (c.Value >= 0 && c.Value <= 1 && !(factorOK[f] && c.Value < in.Factors[f].Value)) {
			continue
		}
		errs = append(errs, ceilingError(f, c.Value, in.Factors[f].Value))
	}
	devicesOK, hoursOK := nonNegative(in.Devices), nonNegative(in.Hours)
	if !devicesOK {
		errs = append(errs, nonNegativeError(InputDevices, in.Devices))
	}
	if !hoursOK {
		errs = append(errs, nonNegativeError(InputHours, in.Hours))
	}
	offered := in.Devices * in.Hours
	offeredOK := devicesOK && hoursOK
	if offeredOK && !finite(offered) {
		errs = append(errs, &InputError{Input: InputHours, Kind: Overflow, Value: in.Hours, Limit: math.MaxFloat64 / in.Devices})
		offeredOK = false
	}
	if in.Rate.Set {
		if !nonNegative(in.Rate.Value) {
			errs = append(errs, nonNegativeError(InputRate, in.Rate.Value))
		} else if offeredOK && !finite(offered*in.Rate.Value) {
			errs = append(errs, &InputError{Input: InputRate, Kind: Overflow, Value: in.Rate.Value, Limit: math.MaxFloat64 / offered})
		}
	}
	if errs == nil {
		return nil
	}
	return errs
}

// nonNegative reports whether v is finite and not below 0.
func nonNegative(v float64) bool { return v >= 0 && v <= math.MaxFloat64 }

// factorError is the error of factor f, whose value o is invalid.
func factorError(f Factor, o Optional) *InputError {
	e := &InputError{Input: InputFactor, Factor: f, Value: o.Value}
	switch {
	case !o.Set:
		e.Kind, e.Value = MissingFactor, 0
	case !finite(o.Value):
		e.Kind = NotFinite
	case o.Value < 0:
		e.Kind, e.Limit = FactorOutOfRange, 0
	default:
		e.Kind, e.Limit = FactorOutOfRange, 1
	}
	return e
}

// ceilingError is the error of the ceiling c of factor f, which is invalid:
// outside [0, 1], or below its valid factor v.
func ceilingError(f Factor, c, v float64) *InputError {
	e := &InputError{Input: InputCeiling, Factor: f, Value: c}
	switch {
	case !finite(c):
		e.Kind = NotFinite
	case c < 0:
		e.Kind, e.Limit = CeilingOutOfRange, 0
	case c > 1:
		e.Kind, e.Limit = CeilingOutOfRange, 1
	default:
		e.Kind, e.Limit = CeilingBelowFactor, v
	}
	return e
}

// nonNegativeError is the error of input, whose value v is not finite or
// is negative.
func nonNegativeError(input Input, v float64) *InputError {
	if !finite(v) {
		return &InputError{Input: input, Kind: NotFinite, Value: v}
	}
	return &InputError{Input: input, Kind: NegativeValue, Value: v}
}
