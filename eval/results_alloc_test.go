package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/eval/internal/results"
)

// TestResultReadsDoNotAllocate reads every result of a job that the
// engine computes: a sweep reads one per point, so an allocation here is
// one per point (a million-point sweep made a million).
func TestResultReadsDoNotAllocate(t *testing.T) {
	s := loadParams(t)
	js := s.of(s.p.Decls["j"]).job
	allocs := map[string]float64{}
	for _, name := range results.Names() {
		def := results.ByName()[name]
		if !def.HasFigure() {
			continue
		}
		if n := testing.AllocsPerRun(20, func() { _, _ = resultGet(def, js) }); n != 0 {
			allocs[name] = n
		}
	}
	if diff := cmp.Diff(map[string]float64{}, allocs); diff != "" {
		t.Errorf("allocations per read of a job's result (-want +got):\n%s", diff)
	}
}
