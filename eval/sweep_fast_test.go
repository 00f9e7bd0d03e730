package eval

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval/internal/results"
)

// fastSweepSource has sweeps over jobs of every kind extremeOverJob
// walks: two axes crossing a ceiling, a ceiling varied below its factor,
// zero hours, a point the engine rejects (an overflow), a job without a
// rate, a varied rate, and a job priced in EUR.
const fastSweepSource = `
pool p { devices = 128  rate = 2 USD/h }
pool free { devices = 64 }
pool eu { devices = 16  rate = 2.5 EUR/h }
job j on p {
  hours    = 720h
  factors  { S = 0.95  R = 0.90  P = 0.33 }
  ceilings { S = 0.98  R = 0.95  P = 0.45 }
}
job norate on free {
  hours   = 100h
  factors { S = 0.9  R = 0.8  P = 0.5 }
}
job euro on eu {
  hours   = 10h
  factors { S = 0.9  R = 0.9  P = 0.4 }
}
sweep grid over j {
  vary runtime from 0.5 to 1 step 0.05
  vary devices from 1 to 8 step 1
}
sweep ceil over j { vary ceiling.program from 0 to 0.9 step 0.1 }
sweep hrs over j { vary hours in [1h, 0h, 10h, 0h] }
sweep huge over j {
  vary hours in [1h, 1e300h]
  vary devices in [1, 1e10, 2]
}
sweep bare over norate { vary S from 0 to 1 step 0.25 }
sweep priced over norate {
  vary devices in [4, 2, 4]
  vary rate from 0 USD/h to 3 USD/h step 1 USD/h
}
sweep zero over j { vary P in [0, 0, 0.5, 0] }
sweep money over euro { vary devices from 1 to 4 step 1 }
sweep cube over j {
  vary runtime in [0.6, 0.99]
  vary S in [0.5, 1, 0.97]
  vary devices in [3, 1, 2]
}
sweep cubef over j {
  vary hours in [1h, 0h]
  vary devices in [2, 1]
  vary ceiling.program in [0.2, 0.5, 0.1]
}
`

// TestExtremeOverJobMatchesEachPoint reads min, max, argmin and argmax of
// every engine figure, and argmin and argmax of several fields, over
// each sweep of fastSweepSource, with extremeOverJob and with eachPoint
// alone: the values and the errors are the same.
func TestExtremeOverJobMatchesEachPoint(t *testing.T) {
	s, err := LoadSource("fast.gpl", []byte(fastSweepSource))
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		V   string
		Err string
	}
	var queries []string
	for _, sw := range []string{"grid", "ceil", "hrs", "huge", "bare", "priced", "zero", "money", "cube", "cubef"} {
		for _, def := range results.Table() {
			if !def.HasFigure() {
				continue
			}
			for _, m := range []string{"min", "max"} {
				queries = append(queries, fmt.Sprintf("%s.%s(%s)", sw, m, def.Name))
			}
			for _, m := range []string{"argmin", "argmax"} {
				for _, f := range []string{"devices", "mpg", "cost_per_useful_hour", "headroom", "cost", "lever.runtime", "ceiling.runtime"} {
					queries = append(queries, fmt.Sprintf("%s.%s(%s).%s", sw, m, def.Name, f))
				}
			}
		}
	}
	read := func() []answer {
		var out []answer
		for _, q := range queries {
			v, err := s.Eval("q", q)
			a := answer{V: fmt.Sprintf("%#v", v)}
			if err != nil {
				a.Err = err.Error()
			}
			out = append(out, a)
		}
		return out
	}
	fast := read()
	extremeWalk = false
	defer func() { extremeWalk = true }()
	plain := read()
	if diff := cmp.Diff(plain, fast); diff != "" {
		t.Errorf("extremeOverJob differs from eachPoint (-eachPoint +extremeOverJob):\n%s", diff)
	}
	var failed, ok int
	for _, a := range fast {
		if a.Err != "" {
			failed++
		} else {
			ok++
		}
	}
	if failed == 0 || ok == 0 {
		t.Errorf("%d queries answered and %d failed; the test wants both", ok, failed)
	}
}
