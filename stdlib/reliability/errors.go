package reliability

import "fmt"

// Func names a function of this package, for an Error.
type Func int

const (
	// FuncYoungInterval is YoungInterval.
	FuncYoungInterval Func = iota
	// FuncDalyInterval is DalyInterval.
	FuncDalyInterval
	// FuncRuntimeGoodput is RuntimeGoodput and RuntimeGoodputYoung.
	FuncRuntimeGoodput
	// FuncFleetMTBF is FleetMTBF.
	FuncFleetMTBF
	// FuncMFU is MFU.
	FuncMFU
)

var funcNames = [...]string{
	FuncYoungInterval:  "YoungInterval",
	FuncDalyInterval:   "DalyInterval",
	FuncRuntimeGoodput: "RuntimeGoodput",
	FuncFleetMTBF:      "FleetMTBF",
	FuncMFU:            "MFU",
}

// String returns the function's Go name, such as "DalyInterval".
func (f Func) String() string {
	if f < 0 || int(f) >= len(funcNames) {
		return fmt.Sprintf("Func(%d)", int(f))
	}
	return funcNames[f]
}

// Arg names the argument an Error is about.
type Arg int

const (
	// ArgNone: the error is of the result, not of one argument.
	ArgNone Arg = iota
	// ArgDelta is delta, the time to write one checkpoint (seconds).
	ArgDelta
	// ArgMTBF is mtbf, the mean time between failures (seconds).
	ArgMTBF
	// ArgRestart is restart, the time to resume after a failure (seconds).
	ArgRestart
	// ArgTau is tau, the checkpoint interval (seconds).
	ArgTau
	// ArgCount is the Count of the part Error.Part of FleetMTBF.
	ArgCount
	// ArgPartMTBF is the MTBF of the part Error.Part of FleetMTBF
	// (seconds).
	ArgPartMTBF
	// ArgTokensPerSecond is MFU's tokensPerSecond.
	ArgTokensPerSecond
	// ArgParams is MFU's params.
	ArgParams
	// ArgDevices is MFU's devices.
	ArgDevices
	// ArgPeak is MFU's peakFLOPPerSecond.
	ArgPeak
)

var argNames = [...]string{
	ArgNone:            "the result",
	ArgDelta:           "delta",
	ArgMTBF:            "mtbf",
	ArgRestart:         "restart",
	ArgTau:             "tau",
	ArgCount:           "Count",
	ArgPartMTBF:        "MTBF",
	ArgTokensPerSecond: "tokensPerSecond",
	ArgParams:          "params",
	ArgDevices:         "devices",
	ArgPeak:            "peakFLOPPerSecond",
}

// String returns the Go name of the argument or Part field, such as
// "delta" or "MTBF"; "the result" for ArgNone.
func (a Arg) String() string {
	if a < 0 || int(a) >= len(argNames) {
		return fmt.Sprintf("Arg(%d)", int(a))
	}
	return argNames[a]
}

// ErrorKind says what is wrong in an Error.
type ErrorKind int

const (
	// NotFinite: the argument is NaN or ±Inf.
	NotFinite ErrorKind = iota
	// NotPositive: the argument is 0 or below, and must be above 0.
	NotPositive
	// Negative: the argument is below 0.
	Negative
	// NegativeGoodput: RuntimeGoodput's result would be below 0; Value
	// is that result.
	NegativeGoodput
	// NoFailures: FleetMTBF has no part with a count above 0, so the
	// system never fails.
	NoFailures
	// Overflow: the result is too large for a float64; Value is ±Inf.
	Overflow
)

var kindNames = [...]string{
	NotFinite:       "NotFinite",
	NotPositive:     "NotPositive",
	Negative:        "Negative",
	NegativeGoodput: "NegativeGoodput",
	NoFailures:      "NoFailures",
	Overflow:        "Overflow",
}

// String returns the kind's Go name, such as "NotPositive".
func (k ErrorKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("ErrorKind(%d)", int(k))
	}
	return kindNames[k]
}

// Error reports arguments a function of this package rejects, or a result
// it will not return.
type Error struct {
	// Func is the function that failed.
	Func Func
	// Arg is the argument at fault; ArgNone when the fault is the result's.
	Arg Arg
	// Part is the index into FleetMTBF's parts of the part at fault when
	// Arg is ArgCount or ArgPartMTBF; otherwise 0.
	Part int
	// Kind says what is wrong.
	Kind ErrorKind
	// Value is the offending argument, in its units (seconds for times),
	// or the rejected result; 0 for NoFailures.
	Value float64
}

// Error returns a one-line message such as
// "reliability: YoungInterval: mtbf is 0, not above 0".
func (e *Error) Error() string {
	subject := e.Arg.String()
	if e.Arg == ArgCount || e.Arg == ArgPartMTBF {
		subject = fmt.Sprintf("parts[%d].%s", e.Part, e.Arg)
	}
	var what string
	switch e.Kind {
	case NotFinite:
		what = fmt.Sprintf("%s is %g, not a finite number", subject, e.Value)
	case NotPositive:
		what = fmt.Sprintf("%s is %g, not above 0", subject, e.Value)
	case Negative:
		what = fmt.Sprintf("%s is %g, below 0", subject, e.Value)
	case NegativeGoodput:
		what = fmt.Sprintf("the goodput would be %.3g, below 0: failures come faster than checkpointed progress", e.Value)
	case NoFailures:
		what = "no part has a count above 0, so the system never fails"
	case Overflow:
		what = fmt.Sprintf("the result is %g, too large for a float64", e.Value)
	default:
		what = fmt.Sprintf("%s is %g: %s", subject, e.Value, e.Kind)
	}
	return "reliability: " + e.Func.String() + ": " + what
}
