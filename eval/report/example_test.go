package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
)

// The report model of a loaded file: what gpl run prints and what
// --format json writes, for a program to read or to write itself.
func ExampleBuild() {
	s, err := eval.LoadSource("plan.gpl", []byte(`
pool shared { devices = 128  rate = 2.50 USD/h }
job train on shared {
  hours = 720h
  factors { scheduling = 0.95  runtime = 0.90  program = 0.33 }
  expect mpg ≈ 0.282
}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	f := report.Build(s)
	j := f.Jobs[0]
	fmt.Printf("%s: mpg %.5f, %.3f useful device-hours, $%.4f per useful hour\n",
		j.Name, j.MPG, j.UsefulHours, *j.CostPerUsefulHour)
	fmt.Println(f.Expectations[0].Name, f.Expectations[0].Status)

	// The JSON document of gpl run --format json, for every file of a run
	// and the run's exit code.
	doc := report.NewDocument([]*report.File{f}, 0)
	var out bytes.Buffer
	if err := doc.WriteJSON(&out); err != nil {
		fmt.Println(err)
	}
	var back struct {
		Summary map[string]int `json:"summary"`
	}
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		fmt.Println(err)
	}
	fmt.Println(back.Summary)
	// Output:
	// train: mpg 0.28215, 26002.944 useful device-hours, $8.8605 per useful hour
	// plan.gpl:6: expect mpg ≈ 0.282 pass
	// map[errors:0 exit:0 failed:0 files:1 loaded:1 passed:1]
}
