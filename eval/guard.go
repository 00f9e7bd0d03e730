package eval

import (
	"fmt"
	"runtime/debug"

	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/lang"
)

// Every exported entry point that reads input (the Load functions, a
// Scenario's Eval, TypeOf, Value, Evaluate, With, WithSettings,
// ParseSetting, Query and a Query's reads, a Builder's Load, its
// planning and explain queries, a Job's Get and Explain, a Session's Try
// and SetParams) returns an *Error for any input and never panics: a
// panic is a bug in gpl, and it is recovered here, at the boundary, into
// an *Error whose Internal is set. That is the last resort, not the
// checking: an input the passes do not handle is their bug to fix, and
// the tests feed the bad-input catalogue and the fuzz corpora through
// LoadSource to find one.

// internalError is the *Error of a panic p recovered at an entry point.
func internalError(p any) *Error {
	return &Error{
		Diagnostics: lang.Diagnostics{{
			Severity: lang.Error,
			Summary:  fmt.Sprintf("internal error (a bug in gpl): %v", p),
			Notes:    []string{"please report it with the input that caused it and the trace (eval.Error.Stack)"},
		}},
		Internal: true,
		Stack:    debug.Stack(),
	}
}

// recoverInto, deferred by an entry point, turns a panic into an internal
// error in *err.
func recoverInto(err *error) {
	if p := recover(); p != nil {
		if st, ok := p.(stopSignal); ok {
			*err = st.err // a bounded evaluation stopped (evaluate_ctx.go)
			return
		}
		*err = internalError(p)
	}
}

// recoverLoad, deferred by a Load function, turns a panic into a scenario
// that holds nothing (what was built may be half built) and its internal
// error.
func recoverLoad(opts Options, s **Scenario, err *error) {
	if p := recover(); p != nil {
		e := internalError(p)
		*s, *err = &Scenario{p: check.NewProgram(opts), readErr: e}, e
	}
}

// recoverOutside is recoverInto for an entry point that calls the
// caller's function: a panic while *inFn is set is the caller's own, and
// goes on up.
func recoverOutside(inFn *bool, err *error) {
	if p := recover(); p != nil {
		if *inFn {
			panic(p)
		}
		*err = internalError(p)
	}
}
