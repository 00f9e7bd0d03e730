package report_test

import (
	"bytes"
	"fmt"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
)

// The README's block of "Embedding" about eval/report, as written there
// (TestDocExamples in cmd/gpl/docs_test.go checks that it is), after the
// load of the README's first block.
func ExampleBuild_readme() {
	s, err := eval.LoadFile("../../scenarios/llama2_70b_shared_pool_128.gpl")
	if err != nil {
		fmt.Println(err)
		return
	}

	f := report.Build(s)                                     // *report.File: values, pools, jobs, planning, expects
	fmt.Println(f.Jobs[0].MPG, *f.Jobs[0].CostPerUsefulHour) // 0.28215 8.86053517632465 (USD)
	var doc bytes.Buffer
	report.NewDocument([]*report.File{f}, 0).WriteJSON(&doc) // gpl run --format json's document

	// Beyond the README: the document is gpl run --format json's.
	fmt.Println(bytes.HasPrefix(doc.Bytes(), []byte(`{`)), bytes.Contains(doc.Bytes(), []byte(`"files"`)))
	// Output:
	// 0.28215 8.86053517632465
	// true true
}
