// Package priority classifies inference requests into priority classes by
// ordered rules, first match wins, in the manner of the kapsl inference
// engine's scheduler (kapsl-scheduler's determine_priority).
//
// The package knows nothing of any surface language. A language front-end
// translates its syntax into this package's condition IR (FieldRef, Const,
// Arith, Neg, Compare, And, Or, Not, Has, Bool); Go programs may build the
// same IR directly. Compile turns a list of Rules into an immutable Ruleset
// whose Classify method does no allocation and is safe for concurrent use:
// the conditions become one flat table of range tests on a field or a
// product of two fields, in disjunctive normal form, which Classify walks
// without a function call (a condition of another shape is one entry that
// calls a compiled closure).
//
// # Requests
//
// A Request carries the five kapsl request-metadata fields as float64 values
// in kapsl's units:
//
//	priority      explicit override, 0 = high priority (0..255, default 1)
//	sla_deadline  SLA deadline in milliseconds (optional)
//	batch_size    number of items in the batch (default 1)
//	input_size    input tensor size in bytes (optional; JSON key input_size_bytes)
//	flops         estimated FLOPs (optional; JSON key estimated_flops)
//
// Priority and batch_size are always present; the three optional fields may
// be absent, which is recorded in Request.Present. Valid values are
// non-negative integers below 2^53 (MaxExact), so float64 arithmetic on them
// is exact wherever kapsl's integer arithmetic is; see Request.Validate.
//
// # Absent values
//
// The IR follows kapsl's treatment of Option::None. Every numeric node
// yields a value and a presence flag:
//
//   - a FieldRef to an absent field is absent;
//   - Arith and Neg with an absent operand are absent;
//   - division by zero is absent;
//   - a Compare with an absent operand is false;
//   - Has(f) is true exactly when f is present;
//   - And, Or and Not are plain boolean logic over those results.
//
// So "sla_deadline < 250" is false for a request without a deadline, and
// "not (sla_deadline < 250)" is true for it. Arithmetic is IEEE float64.
// For valid requests it is exact while results stay below 2^53, and
// comparing a product of two fields with a constant below 2^53 gives the
// same answer as exact integer arithmetic (values near such a constant are
// exact, and rounding is monotonic); in particular a product too large for
// u64, which kapsl saturates, is far above any such threshold in float64
// too.
//
// # Rule analysis
//
// Ruleset.Shadowed reports rules that can never fire, either because their
// condition is unsatisfiable by any valid request or because earlier rules
// already match every request they match. The analysis reasons exactly about
// conditions that constrain a single field (comparisons of a field with a
// constant, has(), and and/or/not of those) and conservatively about
// everything else: it never reports a rule that some valid request could
// reach.
//
// # Request streams
//
// StreamReader reads JSON Lines request metadata, one object per line, with
// kapsl's keys: priority, sla_deadline, batch_size, input_size_bytes and
// estimated_flops. A hand-rolled scanner handles the usual lines without
// allocating; anything unusual (escapes in keys, unknown keys, any error)
// is re-examined with encoding/json so that every JSON object is treated
// correctly and every bad line gets one precise error. A key that is not
// kapsl's is a bad line by default; SetIgnoreUnknownKeys(true) skips it with
// its value, as a reader of real request logs needs (such lines take the
// encoding/json path). AppendJSONL writes a line back with its class and
// the rule that chose it.
package priority
