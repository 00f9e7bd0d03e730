package priority

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Field names one of the request-metadata fields a rule can test.
type Field uint8

// The request-metadata fields, in kapsl's units.
const (
	// Priority is kapsl's explicit priority override, an integer 0..255;
	// 0 asks for high priority. Always present; defaults to 1.
	Priority Field = iota
	// SLADeadline is the request's SLA deadline in milliseconds. Optional.
	SLADeadline
	// BatchSize is the number of items in the request's batch. Always
	// present; defaults to 1.
	BatchSize
	// InputSize is the size of the input tensor in bytes (kapsl's
	// input_size_bytes). Optional.
	InputSize
	// Flops is the estimated number of floating-point operations the
	// request needs (kapsl's estimated_flops). Optional.
	Flops
)

// NumFields is the number of Fields; valid Fields are 0 through NumFields-1.
const NumFields = 5

// MaxExact is 2^53, the bound below which every integer is exactly
// representable as a float64. Valid field values are integers in
// [0, MaxExact).
const MaxExact = 1 << 53

// MaxPriority is the largest valid Priority value (kapsl's priority is a u8).
const MaxPriority = 255

var fieldNames = [NumFields]string{"priority", "sla_deadline", "batch_size", "input_size", "flops"}

var fieldKeys = [NumFields]string{"priority", "sla_deadline", "batch_size", "input_size_bytes", "estimated_flops"}

// String returns the field's name: "priority", "sla_deadline",
// "batch_size", "input_size" or "flops".
func (f Field) String() string {
	if f < NumFields {
		return fieldNames[f]
	}
	return "Field(" + strconv.Itoa(int(f)) + ")"
}

// JSONKey returns the key kapsl uses for the field in request metadata and
// that StreamReader reads: "priority", "sla_deadline", "batch_size",
// "input_size_bytes" or "estimated_flops".
func (f Field) JSONKey() string {
	if f < NumFields {
		return fieldKeys[f]
	}
	return f.String()
}

// ParseField returns the Field whose name (see Field.String) is
// name, and whether there is one.
func ParseField(name string) (Field, bool) {
	for i, n := range fieldNames {
		if n == name {
			return Field(i), true
		}
	}
	return 0, false
}

// Optional reports whether the field may be absent from a request:
// true for SLADeadline, InputSize and Flops.
func (f Field) Optional() bool {
	return f == SLADeadline || f == InputSize || f == Flops
}

// Valid reports whether f is one of the defined Fields.
func (f Field) Valid() bool { return f < NumFields }

// max returns the largest valid value of the field.
func (f Field) max() float64 {
	if f == Priority {
		return MaxPriority
	}
	return MaxExact - 1
}

// FieldSet is a set of Fields, one bit per Field (bit f is 1<<f).
type FieldSet uint8

// Has reports whether f is in the set.
func (s FieldSet) Has(f Field) bool { return s&(1<<f) != 0 }

// With returns the set with f added.
func (s FieldSet) With(f Field) FieldSet { return s | 1<<f }

// Without returns the set with f removed.
func (s FieldSet) Without(f Field) FieldSet { return s &^ (1 << f) }

// requiredFields holds the fields that are always present.
const requiredFields = FieldSet(1<<Priority | 1<<BatchSize)

// allFields holds every defined field.
const allFields = FieldSet(1<<NumFields - 1)

// Request is the metadata of one inference request. Values holds each
// field's value in kapsl's units (milliseconds, bytes, FLOPs), indexed by
// Field; Present records which fields are present. The value of an absent
// field is ignored. Priority and BatchSize must always be present.
//
// Classify trusts its input; call Validate on requests that do not come
// from NewRequest+Set with checked values or from a StreamReader.
type Request struct {
	Values  [NumFields]float64
	Present FieldSet
}

// NewRequest returns kapsl's default request metadata: priority 1,
// batch_size 1, and the optional fields absent.
func NewRequest() Request {
	var r Request
	r.Values[Priority] = 1
	r.Values[BatchSize] = 1
	r.Present = requiredFields
	return r
}

// Set sets field f to v (in the field's unit) and marks it present.
func (r *Request) Set(f Field, v float64) {
	r.Values[f] = v
	r.Present = r.Present.With(f)
}

// Unset marks field f absent and zeroes its value. Unsetting Priority or
// BatchSize makes the request invalid.
func (r *Request) Unset(f Field) {
	r.Values[f] = 0
	r.Present = r.Present.Without(f)
}

// Get returns field f's value and whether it is present.
func (r *Request) Get(f Field) (float64, bool) {
	return r.Values[f], r.Present.Has(f)
}

// Validate reports whether the request is one kapsl could send: Priority
// and BatchSize present, only defined fields present, and every present
// value a non-negative integer below 2^53 (MaxExact), with Priority at most
// 255. The error is a *FieldError for the first offending field.
func (r Request) Validate() error {
	if extra := r.Present &^ allFields; extra != 0 {
		return fmt.Errorf("present-field set %#x has bits for undefined fields", uint8(r.Present))
	}
	for f := Field(0); f < NumFields; f++ {
		if !r.Present.Has(f) {
			if !f.Optional() {
				return &FieldError{Field: f, Err: errors.New("absent, but must always be present")}
			}
			continue
		}
		v := r.Values[f]
		if msg := checkValue(f, v); msg != "" {
			return &FieldError{Field: f, Err: errors.New(msg)}
		}
	}
	return nil
}

// checkValue returns why v is not a valid value for f, or "".
func checkValue(f Field, v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN is not a number"
	case v < 0:
		return numMessage(formatValue(v), numNegative)
	case v != math.Trunc(v):
		return numMessage(formatValue(v), numFractional)
	case v >= MaxExact:
		return numMessage(formatValue(v), numTooLarge)
	case f == Priority && v > MaxPriority:
		return numMessage(formatValue(v), numPriorityRange)
	}
	return ""
}

// numMessage explains why the number written text is not a valid value.
func numMessage(text string, e numErr) string {
	if len(text) > 40 {
		text = text[:37] + "..."
	}
	switch e {
	case numNegative:
		return text + " is negative: values must be non-negative integers"
	case numFractional:
		return text + " is fractional: values must be integers"
	case numTooLarge:
		return text + " is too large: numbers must be below 2^53"
	default:
		return text + " is out of range: priority must be at most 255"
	}
}

// formatValue formats v for messages: plain digits for integers of
// ordinary size, shortest exponent form otherwise.
func formatValue(v float64) string {
	if math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
