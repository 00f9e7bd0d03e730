package report

import (
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang/units"
)

// Uncertainty is what an uncertain file's sampling found (language.md
// §23): how it was sampled, and the distribution of each headline
// quantity. In JSON, {"samples": N, "seed": S, "results": […]}.
type Uncertainty struct {
	Samples int         `json:"samples"`
	Seed    uint64      `json:"seed"`
	Results []Uncertain `json:"results"`
}

// Uncertain is one quantity's distribution over the samples: in JSON its
// name, type and unit key (as a value's), and the statistics p5, p50,
// p95, mean and sd in that unit; Text is how the text report prints it,
// "0.2759 (0.2525–0.3014, 90%)", and Sorted the samples in base units,
// sorted, for a histogram.
type Uncertain struct {
	Name   string    `json:"name"`
	Type   string    `json:"type"`
	Unit   string    `json:"unit"`
	P5     *float64  `json:"p5"`
	P10    *float64  `json:"p10"`
	P50    *float64  `json:"p50"`
	P90    *float64  `json:"p90"`
	P95    *float64  `json:"p95"`
	Mean   *float64  `json:"mean"`
	SD     *float64  `json:"sd"`
	Text   string    `json:"-"`
	Dim    Dim       `json:"-"`
	Sorted []float64 `json:"-"`
	// samples gives Sorted when the sampling let the samples go
	// (eval.Scenario.UncertainSamples).
	samples func() []float64
}

// Samples are the quantity's samples in base units, sorted: Sorted, or,
// when the sampling let them go (a file with many uncertain results),
// the same samples drawn again.
func (u *Uncertain) Samples() []float64 {
	if u.Sorted == nil && u.samples != nil {
		u.Sorted = u.samples()
	}
	return u.Sorted
}

// TornadoBar is one uncertain input's share of a result's spread: the
// result's 5th and 95th percentiles (base units) when only that input
// varies.
type TornadoBar struct {
	Input   string
	P5, P95 float64
}

// Tornado is how much of the named uncertain result's spread each
// uncertain input explains, widest first (eval.Scenario.Tornado): one
// more pass over the samples per input, made when first asked.
func (f *File) Tornado(name string) []TornadoBar {
	if f.s == nil {
		return nil
	}
	var out []TornadoBar
	for _, b := range f.s.Tornado(name) {
		out = append(out, TornadoBar{Input: b.Input, P5: b.P5, P95: b.P95})
	}
	return out
}

// uncertaintyOf is s's sampling, nil for a file without a distribution.
func uncertaintyOf(s *eval.Scenario) *Uncertainty {
	n, seed := s.Sampling()
	if n == 0 {
		return nil
	}
	u := &Uncertainty{Samples: n, Seed: seed, Results: []Uncertain{}}
	for _, r := range s.Uncertain() {
		key, per := unitKey(r.Dim)
		in := func(v float64) *float64 {
			if per != 1 {
				v = units.ToUnit(v, units.Unit{Factor: per})
			}
			return finite(v)
		}
		u.Results = append(u.Results, Uncertain{Name: r.Name, Type: eval.NumberValue(0, r.Dim).Type.String(), Unit: key,
			P5: in(r.P5), P10: in(r.P10), P50: in(r.P50), P90: in(r.P90), P95: in(r.P95), Mean: in(r.Mean), SD: in(r.SD),
			Text: eval.FormatUncertain(r), Dim: Dim{r.Dim}, Sorted: r.Sorted,
			samples: func() []float64 { return s.UncertainSamples(r.Name) }})
	}
	return u
}
