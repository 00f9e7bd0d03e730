package eval

import (
	"github.com/gpl-lang/gpl/eval/internal/check"
	"github.com/gpl-lang/gpl/eval/internal/results"
)

// The names of the embedding API that the check pass defines
// (eval/internal/check): what loading takes, how it fails, the compiled
// expects, the limits it holds a program to.

// Options tune loading.
type Options = check.Options

// Error is what Load returns when a file cannot be evaluated: every
// diagnostic found, in source order. Runtime is true when all of them arose
// while computing values (each has Stage lang.Running: a division by zero,
// an mpg of 0 used as a divisor) rather than from the text itself (syntax,
// names, dimensions, inputs out of range); the command line exits 3 rather
// than 2 for those.
type Error = check.Error

// Expectation is one compiled expect: one test case.
type Expectation = check.Expectation

// MaxImportDepth is how deep imports may nest: a file importing one that
// imports another, and so on.
const MaxImportDepth = check.MaxImportDepth

// MaxDependencyDepth is how long a chain of references the passes follow
// at once: a declaration reading one declared after it, which reads one
// declared after that, and so on. A chain declared in the order it is read
// is followed one link at a time and has no limit.
const MaxDependencyDepth = check.MaxDependencyDepth

// MaxDeclarations is the most declarations one program may hold.
const MaxDeclarations = check.MaxDeclarations

// DefaultMaxPoints is the most points a sweep may have unless
// Options.MaxPoints says otherwise.
const DefaultMaxPoints = check.DefaultMaxPoints

// DefaultSamples is how many samples an uncertain file is evaluated over
// unless Options.Samples says otherwise (language.md §23).
const DefaultSamples = check.DefaultSamples

// ResultNames lists the names of a job's results, for completion and docs.
func ResultNames() []string { return results.Names() }
