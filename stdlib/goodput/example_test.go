package goodput_test

import (
	"errors"
	"fmt"

	"github.com/gpl-lang/gpl/stdlib/goodput"
)

func Example() {
	r, err := goodput.Solve(goodput.Inputs{
		Factors:  [goodput.NumFactors]goodput.Optional{goodput.Some(0.95), goodput.Some(0.90), goodput.Some(0.33)},
		Ceilings: [goodput.NumFactors]goodput.Optional{goodput.Some(0.98), goodput.Some(0.95), goodput.Some(0.45)},
		Devices:  128,
		Hours:    720,
		Rate:     goodput.Some(2.50),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	cpu, _ := r.CostPerUsefulHour()
	headroom, _ := r.Headroom()
	fmt.Printf("mpg %.5f, useful %.3f of %.0f device-hours\n", r.MPG, r.UsefulHours, r.OfferedHours)
	fmt.Printf("cost %.2f USD, badput cost %.2f USD, %.4f USD per useful device-hour\n", r.Cost, r.BadputCost, cpu)
	for f := goodput.Scheduling; f < goodput.NumFactors; f++ {
		fmt.Printf("%s: loss %.5f, gain at ceiling %.6f\n", f.Short(), r.Loss[f], r.Gain[f])
	}
	if r.HasBestLever {
		fmt.Println("best lever:", r.BestLever)
	}
	fmt.Printf("ceiling mpg %.5f (headroom %.5fx)\n", r.CeilingMPG, headroom)
	fmt.Printf("waterfall: offered %.1f, held %.1f, productive %.1f, useful %.3f device-hours\n",
		r.OfferedHours, r.HeldHours, r.ProductiveHours, r.UsefulHours)
	for f := goodput.Scheduling; f < goodput.NumFactors; f++ {
		fmt.Printf("%s: loss %.2f USD, at ceiling +%.4f useful device-hours or %.2f USD saved\n",
			f, r.LossCost[f], r.GainHours[f], r.Saving[f])
	}

	_, err = goodput.Solve(goodput.Inputs{
		Factors:  [goodput.NumFactors]goodput.Optional{goodput.Some(0.95), goodput.Some(0.90), goodput.Some(1.2)},
		Ceilings: [goodput.NumFactors]goodput.Optional{goodput.Some(0.9)},
	})
	var errs goodput.InputErrors
	if errors.As(err, &errs) {
		for _, e := range errs {
			fmt.Printf("error: %v %v %s (%v)\n", e.Input, e.Factor, e.Kind, e.Value)
		}
	}
	// Output:
	// mpg 0.28215, useful 26002.944 of 92160 device-hours
	// cost 230400.00 USD, badput cost 165392.64 USD, 8.8605 USD per useful device-hour
	// S: loss 0.05000, gain at ceiling 0.008910
	// R: loss 0.09500, gain at ceiling 0.015675
	// P: loss 0.57285, gain at ceiling 0.102600
	// best lever: program
	// ceiling mpg 0.41895 (headroom 1.48485x)
	// waterfall: offered 92160.0, held 87552.0, productive 78796.8, useful 26002.944 device-hours
	// scheduling: loss 11520.00 USD, at ceiling +821.1456 useful device-hours or 7053.06 USD saved
	// runtime: loss 21888.00 USD, at ceiling +1444.6080 useful device-hours or 12126.32 USD saved
	// program: loss 131984.64 USD, at ceiling +9455.6160 useful device-hours or 61440.00 USD saved
	// error: Factors program FactorOutOfRange (1.2)
	// error: Ceilings scheduling CeilingBelowFactor (0.9)
}
