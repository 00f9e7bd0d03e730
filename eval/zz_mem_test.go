package eval

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
	"unsafe"

	"github.com/gpl-lang/gpl/lang"
)

var t0 = time.Now()

func heapMB() float64 {
	fmt.Printf("[%v] ", time.Since(t0).Round(time.Millisecond))
	t0 = time.Now()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / 1e6
}

func TestZZMem(t *testing.T) {
	name := os.Getenv("MEMFILE")
	if name == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(name)
	fmt.Printf("src %.0f MB\n", heapMB())
	f, _ := lang.Parse(name, src)
	fmt.Printf("parsed %.0f MB\n", heapMB())
	p := newProgram(Options{})
	p.addParsed(f, src)
	fmt.Printf("declared %.0f MB\n", heapMB())
	p.check()
	fmt.Printf("checked %.0f MB\n", heapMB())
	f = nil
	if os.Getenv("PROF") == "check" {
		pf, _ := os.Create("/tmp/heap_check.pb")
		pprof.WriteHeapProfile(pf)
		pf.Close()
	}
	s := p.evaluate(nil)
	fmt.Printf("evaluated %.0f MB\n", heapMB())
	if os.Getenv("PROF") == "eval" {
		pf, _ := os.Create("/tmp/heap_eval.pb")
		pprof.WriteHeapProfile(pf)
		pf.Close()
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(src)
}

func TestZZSizes(t *testing.T) {
	fmt.Println("compiled", unsafe.Sizeof(compiled{}), "Type", unsafe.Sizeof(Type{}), "Value", unsafe.Sizeof(Value{}), "fieldValue", unsafe.Sizeof(fieldValue{}), "jobState", unsafe.Sizeof(jobState{}), "jobPlan", unsafe.Sizeof(jobPlan{}), "decl", unsafe.Sizeof(decl{}), "ref", unsafe.Sizeof(ref{}), "expectSite", unsafe.Sizeof(expectSite{}), "declValues", unsafe.Sizeof(declValues{}))
}
