package reliability_test

import (
	"fmt"
	"time"

	"github.com/gpl-lang/gpl/stdlib/reliability"
)

// A job whose checkpoint takes 5 minutes, on a system that fails once a day
// on average and takes 10 minutes to restart.
func Example() {
	delta, mtbf, restart := (5 * time.Minute).Seconds(), (24 * time.Hour).Seconds(), (10 * time.Minute).Seconds()
	young, _ := reliability.YoungInterval(delta, mtbf)
	daly, _ := reliability.DalyInterval(delta, mtbf)
	r, _ := reliability.RuntimeGoodput(mtbf, delta, restart, daly)
	fmt.Printf("young %.2f min, daly %.2f min, runtime goodput %.4f\n", young/60, daly/60, r)

	_, err := reliability.FleetMTBF(reliability.Part{Count: 16384, MTBF: 0})
	fmt.Println(err)
	// Output:
	// young 120.00 min, daly 116.69 min, runtime goodput 0.9097
	// reliability: FleetMTBF: parts[0].MTBF is 0, not above 0
}
