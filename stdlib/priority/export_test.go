package priority

// What the external tests (package priority_test) share with the
// internal ones: the kapsl rules as Go, the request generator and the
// hand-written classifier the benchmarks compare with, and the request
// sets they run on.
var (
	KapslRules           = kapslRules
	KapslElse            = throughput
	GenRequests          = genRequests
	HandWrittenKapslRule = handWrittenKapslRule
	ManyRules            = manyRules
	ClassifyBenches      = classifyBenches
)
