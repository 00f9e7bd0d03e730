// Package reliability computes what failures cost a long-running training
// job: the checkpoint interval that minimises lost work, the runtime goodput
// that interval leaves, the mean time between failures of a system built
// from many parts, and the model FLOPs utilisation of dense transformer
// training.
//
// Every time, in and out, is a float64 number of seconds: a checkpoint cost
// δ, a mean time between failures M, a restart time, a checkpoint interval
// τ. Seconds are the base unit of durations in the gpl evaluator, so its
// values pass through unconverted; a Go caller holding a time.Duration
// passes d.Seconds().
//
// Each function checks its arguments and returns an *Error naming the first
// one at fault, in argument order (or the result, when it would be
// negative or too large for a float64); it never returns Inf, NaN or a
// negative goodput. The package imports only the standard library.
package reliability

import "math"

// YoungInterval returns Young's first-order optimum checkpoint interval
//
//	τ = √(2 δ M)
//
// in seconds, for a checkpoint that takes delta seconds to write and a mean
// time between failures of mtbf seconds. Both must be finite and above 0.
// It is accurate when δ is much smaller than M.
//
// Source: J. W. Young, "A first order approximation to the optimum
// checkpoint interval", Communications of the ACM 17(9), 530–531, 1974.
func YoungInterval(delta, mtbf float64) (float64, error) {
	if err := checkPositive(FuncYoungInterval, ArgDelta, delta); err != nil {
		return 0, err
	}
	if err := checkPositive(FuncYoungInterval, ArgMTBF, mtbf); err != nil {
		return 0, err
	}
	return result(FuncYoungInterval, young(delta, mtbf))
}

func young(delta, mtbf float64) float64 { return math.Sqrt(2 * delta * mtbf) }

// DalyInterval returns Daly's higher-order optimum checkpoint interval, in
// seconds, for a checkpoint that takes delta seconds to write and a mean
// time between failures of mtbf seconds:
//
//	τ = √(2δM) · (1 + ⅓ √(δ/2M) + (δ/2M)/9) − δ   when δ < 2M
//	τ = M                                          otherwise
//
// Both arguments must be finite and above 0. For δ = 5 min it gives about
// 116.69 min at M = 24 h, 56.71 min at M = 6 h and 9.14 min at M = 15 min
// (the paper rounds these to 117, 57 and 9.1).
//
// Source: J. T. Daly, "A higher order estimate of the optimum checkpoint
// interval for restart dumps", Future Generation Computer Systems 22(3),
// 303–312, 2006.
func DalyInterval(delta, mtbf float64) (float64, error) {
	if err := checkPositive(FuncDalyInterval, ArgDelta, delta); err != nil {
		return 0, err
	}
	if err := checkPositive(FuncDalyInterval, ArgMTBF, mtbf); err != nil {
		return 0, err
	}
	if delta >= 2*mtbf {
		return mtbf, nil
	}
	x := delta / (2 * mtbf)
	return result(FuncDalyInterval, young(delta, mtbf)*(1+math.Sqrt(x)/3+x/9)-delta)
}

// RuntimeGoodput returns the fraction of held time whose progress is kept
// when a job writes a checkpoint every tau seconds, each taking delta
// seconds, fails on average every mtbf seconds and takes restart seconds
// to come back after a failure:
//
//	R = 1 − δ/τ − (τ/2 + restart)/M
//
// δ/τ is the time spent writing checkpoints; each failure loses on average
// half an interval of work plus the restart. mtbf, delta and tau must be
// finite and above 0, restart finite and not negative. A result below 0
// (failures come faster than the job can make progress) is an error of
// kind NegativeGoodput, never a negative fraction. The result is a count
// (a fraction at most 1).
//
// This is the first-order model of lost time behind Young's interval:
// minimising its waste δ/τ + τ/2M over τ gives YoungInterval (Young 1974).
func RuntimeGoodput(mtbf, delta, restart, tau float64) (float64, error) {
	const fn = FuncRuntimeGoodput
	if err := checkPositive(fn, ArgMTBF, mtbf); err != nil {
		return 0, err
	}
	if err := checkPositive(fn, ArgDelta, delta); err != nil {
		return 0, err
	}
	if err := checkNonNegative(fn, ArgRestart, restart); err != nil {
		return 0, err
	}
	if err := checkPositive(fn, ArgTau, tau); err != nil {
		return 0, err
	}
	return runtimeGoodput(mtbf, delta, restart, tau)
}

// RuntimeGoodputYoung returns RuntimeGoodput(mtbf, delta, restart, τ) with
// τ = YoungInterval(delta, mtbf), all times in seconds:
//
//	R = 1 − δ/τ − (τ/2 + restart)/M,  τ = √(2δM)
//
// Its arguments and errors are those of RuntimeGoodput, without tau. For
// M = 5760 s, δ = 60 s and a 300 s restart, τ ≈ 831.38 s and R ≈ 0.80358.
func RuntimeGoodputYoung(mtbf, delta, restart float64) (float64, error) {
	const fn = FuncRuntimeGoodput
	if err := checkPositive(fn, ArgMTBF, mtbf); err != nil {
		return 0, err
	}
	if err := checkPositive(fn, ArgDelta, delta); err != nil {
		return 0, err
	}
	if err := checkNonNegative(fn, ArgRestart, restart); err != nil {
		return 0, err
	}
	tau := young(delta, mtbf)
	if !finite(tau) {
		return 0, &Error{Func: fn, Arg: ArgNone, Kind: Overflow, Value: tau}
	}
	return runtimeGoodput(mtbf, delta, restart, tau)
}

func runtimeGoodput(mtbf, delta, restart, tau float64) (float64, error) {
	r := 1 - delta/tau - (tau/2+restart)/mtbf
	if !(r >= 0) { // also catches NaN, which finite arguments cannot give
		return 0, &Error{Func: FuncRuntimeGoodput, Arg: ArgNone, Kind: NegativeGoodput, Value: r}
	}
	return r, nil
}

// Part is one kind of component of a system that stops when any component
// fails.
type Part struct {
	// Count is how many of the component the system has (finite, not
	// negative; need not be whole).
	Count float64
	// MTBF is the mean time between failures of one component, in
	// seconds (finite, above 0).
	MTBF float64
}

// FleetMTBF returns the mean time between failures, in seconds, of a
// system that stops when any of its components fails, each failing
// independently at a constant rate:
//
//	M = 1 / Σ nᵢ/Mᵢ
//
// for parts with counts nᵢ and per-component MTBFs Mᵢ (seconds). Some part
// must have a count above 0: with none the system never fails, an error of
// kind NoFailures. A result too large for a float64 is an error of kind
// Overflow. 10,000 parts with an MTBF of 20,000 h and 1,250 with
// 10,000 h give 1.6 h.
//
// This is the series-system model of reliability engineering, with
// exponentially distributed failures: failure rates add.
func FleetMTBF(parts ...Part) (float64, error) {
	const fn = FuncFleetMTBF
	var rate float64 // failures per second
	failing := false // whether some part has a count above 0
	for i, p := range parts {
		if err := checkNonNegative(fn, ArgCount, p.Count); err != nil {
			err.Part = i
			return 0, err
		}
		if err := checkPositive(fn, ArgPartMTBF, p.MTBF); err != nil {
			err.Part = i
			return 0, err
		}
		rate += p.Count / p.MTBF
		failing = failing || p.Count > 0
	}
	if !failing {
		return 0, &Error{Func: fn, Arg: ArgNone, Kind: NoFailures}
	}
	return result(fn, 1/rate) // 1/0 is +Inf when the rate underflows

}

// MFU returns the model FLOPs utilisation of dense transformer training,
// a count (the fraction of the devices' peak spent on the model's own
// arithmetic):
//
//	MFU = 6 × params × tokensPerSecond / (devices × peakFLOPPerSecond)
//
// where 6 FLOP per parameter per token counts the forward pass (2) and the
// backward pass (4). tokensPerSecond is the training throughput of the whole
// job in tokens per second, params the number of model parameters, devices
// the number of accelerators and peakFLOPPerSecond the peak of one device in
// FLOP per second (989e12 for an H100's dense BF16). tokensPerSecond and
// params must be finite and not negative, devices and peakFLOPPerSecond
// finite and above 0. A result above 1 is returned as it is: it says the
// inputs are inconsistent, which the caller may report.
//
// Source: the 6·N FLOP-per-token estimate and the MFU metric of Kaplan et
// al., "Scaling laws for neural language models", 2020, and Chowdhery et
// al., "PaLM: scaling language modeling with pathways", 2022 (appendix B).
func MFU(tokensPerSecond, params, devices, peakFLOPPerSecond float64) (float64, error) {
	const fn = FuncMFU
	if err := checkNonNegative(fn, ArgTokensPerSecond, tokensPerSecond); err != nil {
		return 0, err
	}
	if err := checkNonNegative(fn, ArgParams, params); err != nil {
		return 0, err
	}
	if err := checkPositive(fn, ArgDevices, devices); err != nil {
		return 0, err
	}
	if err := checkPositive(fn, ArgPeak, peakFLOPPerSecond); err != nil {
		return 0, err
	}
	return result(fn, 6*params*tokensPerSecond/(devices*peakFLOPPerSecond))
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// result returns v, or an Overflow error of fn when v is not finite.
func result(fn Func, v float64) (float64, error) {
	if !finite(v) {
		return 0, &Error{Func: fn, Arg: ArgNone, Kind: Overflow, Value: v}
	}
	return v, nil
}

func checkPositive(fn Func, arg Arg, v float64) *Error {
	switch {
	case !finite(v):
		return &Error{Func: fn, Arg: arg, Kind: NotFinite, Value: v}
	case v <= 0:
		return &Error{Func: fn, Arg: arg, Kind: NotPositive, Value: v}
	}
	return nil
}

func checkNonNegative(fn Func, arg Arg, v float64) *Error {
	switch {
	case !finite(v):
		return &Error{Func: fn, Arg: arg, Kind: NotFinite, Value: v}
	case v < 0:
		return &Error{Func: fn, Arg: arg, Kind: Negative, Value: v}
	}
	return nil
}
