// Package kapsltest is the reference that tests hold the bundled
// std/kapsl ruleset and the classification engine to: kapsl-scheduler
// 0.1.0's determine_priority, written out by hand in Go over kapsl's own
// integer request fields. It imports only the standard library and is
// meant for tests.
package kapsltest

import (
	"math"
	"math/bits"
)

// The classes determine_priority gives.
const (
	LatencyCritical = "latency_critical"
	Throughput      = "throughput"
)

// Metadata mirrors kapsl's RequestMetadata; a nil optional field is
// absent.
type Metadata struct {
	Priority    uint8   // 0 is the explicit high-priority override
	SLADeadline *uint64 // milliseconds
	BatchSize   uint64  // requests in the batch
	InputSize   *uint64 // bytes
	Flops       *uint64 // estimated FLOPs
}

// Rule numbers DeterminePriority returns, in kapsl's order: the priority
// override, the SLA deadline, a light request (small input or little
// compute), a small input × batch product, a small batch. Else is -1.
const (
	RuleOverride = iota
	RuleSLA
	RuleLight
	RuleCombined
	RuleSmallBatch
	Else = -1
)

// DeterminePriority returns the class kapsl gives m and the rule that
// decides it, in kapsl's integer arithmetic: the input × batch product
// saturates at the largest uint64 instead of wrapping.
func DeterminePriority(m Metadata) (class string, rule int) {
	switch {
	case m.Priority == 0:
		return LatencyCritical, RuleOverride
	case m.SLADeadline != nil && *m.SLADeadline < 250:
		return LatencyCritical, RuleSLA
	case m.InputSize != nil && *m.InputSize <= 500_000, m.Flops != nil && *m.Flops <= 1_000_000_000:
		return LatencyCritical, RuleLight
	}
	if m.InputSize != nil {
		hi, total := bits.Mul64(*m.InputSize, m.BatchSize)
		if hi != 0 {
			total = math.MaxUint64
		}
		if total <= 2_000_000 {
			return LatencyCritical, RuleCombined
		}
	}
	if m.BatchSize <= 4 {
		return LatencyCritical, RuleSmallBatch
	}
	return Throughput, Else
}
