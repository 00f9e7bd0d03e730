package results

import (
	"sort"
	"sync"

	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang/units"
)

// PoolDef is one row of the table of a pool's results (language §18): a
// reservation's offered and idle device-hours and their cost, or, for a
// pool paid per use, the sums of its jobs'. Every row but jobs is also a
// figure of each month of a pool with a window (NAME.month(M).RESULT).
type PoolDef struct {
	Name string
	Type value.Type
	Doc  string
	// Figure is the pool's figure the result is.
	Figure PoolFigure
	// NeedsRate: undefined when the pool has no rate.
	NeedsRate bool
	// Monthly: a month of the pool has it too.
	Monthly bool
	// Listed: the report views list it with the pool (see Def.Listed);
	// the views give the others places of their own.
	Listed bool
}

// PoolFigure names a figure of a pool's results.
type PoolFigure uint8

// The figures of a pool.
const (
	PoolOffered PoolFigure = iota
	PoolAllocated
	PoolIdle
	PoolUtilisation
	PoolCost
	PoolIdleCost
	PoolUseful
	PoolMPG
	PoolCostPerUseful
	PoolJobs
	NumPoolFigures
)

// PoolTable lists a pool's results.
func PoolTable() []*PoolDef { return poolTables().rows }

// PoolByName maps each name of a pool's results to its row. The map is
// shared: callers must not change it.
func PoolByName() map[string]*PoolDef { return poolTables().byName }

type poolTable struct {
	rows   []*PoolDef
	byName map[string]*PoolDef
}

// poolTables builds the pool's table once, on first use.
var poolTables = sync.OnceValue(func() poolTable {
	rows, byName := buildPoolTable()
	return poolTable{rows, byName}
})

func buildPoolTable() ([]*PoolDef, map[string]*PoolDef) {
	hours, money, price := value.NumType(units.Duration), value.NumType(units.Money), value.NumType(units.Price)
	defs := []*PoolDef{
		{Name: "offered_hours", Type: hours, Figure: PoolOffered, Monthly: true,
			Doc: "device-hours the pool offers: devices × term, over its window by its schedule; for a pool paid per use, its jobs' offered hours"},
		{Name: "allocated_hours", Type: hours, Figure: PoolAllocated, Monthly: true,
			Doc: "device-hours its jobs are offered: the sum of their offered_hours"},
		{Name: "idle_hours", Type: hours, Figure: PoolIdle, Monthly: true,
			Doc: "offered_hours − allocated_hours: reserved device-hours no job uses"},
		{Name: "utilisation", Type: value.CountType, Figure: PoolUtilisation, Monthly: true,
			Doc: "allocated_hours / offered_hours"},
		{Name: "cost", Type: money, Figure: PoolCost, NeedsRate: true, Monthly: true,
			Doc: "offered_hours × rate: the whole reservation, used or not; for a pool paid per use, its jobs' cost"},
		{Name: "idle_cost", Type: money, Figure: PoolIdleCost, NeedsRate: true, Monthly: true,
			Doc: "idle_hours × rate: what the unused part of the reservation costs"},
		{Name: "useful_hours", Type: hours, Figure: PoolUseful, Monthly: true,
			Doc: "the sum of its jobs' useful_hours"},
		{Name: "mpg", Type: value.CountType, Figure: PoolMPG, Monthly: true,
			Doc: "useful_hours / offered_hours: idle time counts as lost"},
		{Name: "cost_per_useful_hour", Type: price, Figure: PoolCostPerUseful, NeedsRate: true, Monthly: true,
			Doc: "cost / useful_hours"},
		{Name: "jobs", Type: value.CountType, Figure: PoolJobs,
			Doc: "how many jobs run on the pool"},
	}
	m := map[string]*PoolDef{}
	for _, d := range defs {
		m[d.Name] = d
	}
	return defs, m
}

// PoolResultNames are the names of a pool's results, sorted.
func PoolResultNames() []string {
	var names []string
	for _, d := range PoolTable() {
		names = append(names, d.Name)
	}
	sort.Strings(names)
	return names
}
