package goodput

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestSolveRowsAsSolve: each row SolveRows solves gives Solve's figures
// bit for bit, and it stops at the first row Solve rejects, with Solve's
// error; inputs near and past every limit, with and without columns.
func TestSolveRowsAsSolve(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	edge := []float64{0, 1, 0.5, -0.1, 1.1, math.NaN(), math.Inf(1), 1e308, 0.999999}
	pick := func() float64 {
		if r.IntN(4) == 0 {
			return edge[r.IntN(len(edge))]
		}
		return r.Float64()
	}
	const n = 8
	for trial := range 3000 {
		var rows Rows
		for f := range NumFactors {
			if r.IntN(8) > 0 {
				rows.Base.Factors[f] = Some(pick())
			}
			if r.IntN(3) == 0 {
				rows.Base.Ceilings[f] = Some(pick())
			}
			if r.IntN(2) == 0 {
				rows.Factors[f] = col(n, pick)
			}
			if r.IntN(4) == 0 {
				rows.Ceilings[f] = col(n, pick)
			}
		}
		rows.Base.Devices, rows.Base.Hours = float64(1+r.IntN(100)), 720*r.Float64()
		if r.IntN(2) == 0 {
			rows.Base.Rate = Some(3 * r.Float64())
		}
		if r.IntN(3) == 0 {
			rows.Hours = col(n, func() float64 { return 1e3 * pick() })
		}
		if r.IntN(4) == 0 {
			rows.Devices = col(n, func() float64 { return 1e300 * pick() })
		}
		if r.IntN(3) == 0 {
			rows.Rate = col(n, pick)
		}
		rows.RaiseCeilings = r.IntN(3) == 0
		out := RowFigures{MPG: make([]float64, n), OfferedHours: make([]float64, n), UsefulHours: make([]float64, n), Cost: make([]float64, n)}
		cpuh := r.IntN(2) == 0
		if cpuh {
			out.CostPerUsefulHour = make([]float64, n)
		}
		err := SolveRows(&rows, n, &out)
		for i := range n {
			in := rows.Base
			for f := range NumFactors {
				if c := rows.Factors[f]; c != nil {
					in.Factors[f] = Some(c[i])
				}
				if c := rows.Ceilings[f]; c != nil {
					in.Ceilings[f] = Some(c[i])
				}
				if c := in.Ceilings[f]; rows.RaiseCeilings && c.Set && in.Factors[f].Value > c.Value {
					in.Ceilings[f] = in.Factors[f]
				}
			}
			if rows.Devices != nil {
				in.Devices = rows.Devices[i]
			}
			if rows.Hours != nil {
				in.Hours = rows.Hours[i]
			}
			if rows.Rate != nil {
				in.Rate = Some(rows.Rate[i])
			}
			res, serr := Solve(in)
			var cerr error
			var c float64
			if serr == nil && cpuh {
				c, cerr = res.CostPerUsefulHour()
			}
			if serr == nil {
				serr = cerr
			}
			if serr != nil {
				var re *RowError
				if !errors.As(err, &re) || re.Row != i || re.Err.Error() != serr.Error() {
					t.Fatalf("trial %d row %d: SolveRows gave %v, want row %d's %v", trial, i, err, i, serr)
				}
				break
			}
			got := []float64{out.MPG[i], out.OfferedHours[i], out.UsefulHours[i], out.Cost[i]}
			want := []float64{res.MPG, res.OfferedHours, res.UsefulHours, res.Cost}
			if cpuh {
				got, want = append(got, out.CostPerUsefulHour[i]), append(want, c)
			}
			for k := range got {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
					t.Fatalf("trial %d row %d: figure %d is %v, Solve's %v", trial, i, k, got[k], want[k])
				}
			}
			if i == n-1 && err != nil {
				t.Fatalf("trial %d: SolveRows gave %v, Solve none", trial, err)
			}
		}
	}
}

func col(n int, pick func() float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = pick()
	}
	return xs
}

// BenchmarkSolveRows solves 1,000 / 10,000 / 100,000 rows of a job whose
// three factors vary, for its mpg, useful hours and cost per useful
// hour.
func BenchmarkSolveRows(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			rows := Rows{Base: Inputs{Devices: 1024, Hours: 720, Rate: Some(2.5)}}
			for f := range NumFactors {
				rows.Factors[f] = col(n, func() float64 { return 0.3 + 0.6*r.Float64() })
			}
			out := RowFigures{MPG: make([]float64, n), UsefulHours: make([]float64, n), CostPerUsefulHour: make([]float64, n)}
			for b.Loop() {
				if err := SolveRows(&rows, n, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
