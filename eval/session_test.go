package eval

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang/units"
)

func src(name, text string) Source { return Source{Name: name, Text: []byte(text)} }

func TestSession(t *testing.T) {
	se := NewSession(Options{})
	for i, text := range []string{
		"param rate = 2.50 USD/h",
		"pool p { devices = 128\n rate = rate }",
		"job j on p { hours = 720h\n factors { S = 0.95 R = 0.9 P = 0.33 } }",
		"let c = j.cost",
	} {
		c := se.Try([]Source{src(fmt.Sprintf("<%d>", i), text)}, nil)
		if c.Err() != nil {
			t.Fatalf("%s: %v", text, c.Err())
		}
		c.Commit()
	}
	value := func(s *Scenario, name string) string {
		t.Helper()
		v, err := s.Value(name)
		if err != nil {
			return "error: " + err.Error()
		}
		return v.String()
	}
	if diff := cmp.Diff("$230,400.00", value(se.Scenario(), "c")); diff != "" {
		t.Errorf("c (-want +got):\n%s", diff)
	}

	// A change that does not load is discarded, and the session is as it was.
	bad := se.Try([]Source{src("<bad>", "let d = nosuch + 1")}, nil)
	if bad.Err() == nil {
		t.Fatal("an unknown name loaded")
	}
	bad.Discard()
	if _, err := se.Scenario().Value("d"); err == nil {
		t.Error("a discarded declaration is still there")
	}
	if got := len(se.Scenario().Diagnostics()); got != 0 {
		t.Errorf("the discarded change left %d diagnostics", got)
	}

	// Replacing a declaration re-evaluates what reads it.
	c := se.Try([]Source{src("<4>", "pool p { devices = 256\n rate = rate }")}, []string{"<1>"})
	if c.Err() != nil {
		t.Fatal(c.Err())
	}
	c.Commit()
	if diff := cmp.Diff("$460,800.00", value(se.Scenario(), "c")); diff != "" {
		t.Errorf("c after replacing p (-want +got):\n%s", diff)
	}

	// Params set on the session stay set for later changes.
	if err := se.SetParams(map[string]Value{"rate": NumberValue(units.FromUnit(1, units.USDPerHour), units.Price)}); err != nil {
		t.Fatal(err)
	}
	c = se.Try([]Source{src("<5>", "let d = c * 2")}, nil)
	c.Commit()
	if diff := cmp.Diff([]string{"$184,320.00", "$368,640.00"}, []string{value(se.Scenario(), "c"), value(se.Scenario(), "d")}); diff != "" {
		t.Errorf("after SetParams (-want +got):\n%s", diff)
	}
	var names []string
	for _, s := range se.Sources() {
		names = append(names, s.Name)
	}
	if diff := cmp.Diff([]string{"<0>", "<2>", "<3>", "<4>", "<5>"}, names); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
}

// benchmarkSessionAdd measures one declaration added to a session of n.
func benchmarkSessionAdd(b *testing.B, n int) {
	se := NewSession(Options{})
	for i := range n {
		c := se.Try([]Source{src(fmt.Sprintf("<%d>", i), fmt.Sprintf("let v%d = %d * 2h", i, i))}, nil)
		c.Commit()
	}
	var sb strings.Builder
	b.ReportAllocs()
	i := n
	for b.Loop() {
		sb.Reset()
		fmt.Fprintf(&sb, "let w%d = v%d + 1h", i, i%n)
		c := se.Try([]Source{src(fmt.Sprintf("<%d>", i), sb.String())}, nil)
		if c.Err() != nil {
			b.Fatal(c.Err())
		}
		c.Commit()
		i++
	}
}

// The cost of one declaration must not grow with the session.
func BenchmarkSessionAdd1000(b *testing.B) { benchmarkSessionAdd(b, 1000) }
func BenchmarkSessionAdd4000(b *testing.B) { benchmarkSessionAdd(b, 4000) }

// A session's owners blocks name owners as in a file: a job's and a
// pool's, added with them, and a top-level one added after the jobs,
// which names theirs too; the pieces' blocks win over an imported file's,
// and a discarded block leaves the owners as they were (issue 18).
func TestSessionOwners(t *testing.T) {
	lib := "owners { scheduling = \"lib capacity\"  runtime = \"lib infra\" }\n" +
		"pool p { devices = 8\n owners { program = \"pool team\" } }\n" +
		"job j on p { hours = 1h\n factors { S = 1 R = 1 P = 1 } }\n"
	se := NewSession(Options{FS: fstest.MapFS{"lib.gpl": {Data: []byte(lib)}}})
	owners := func(s *Scenario, job string) []string {
		t.Helper()
		var out []string
		for _, f := range []string{"scheduling", "runtime", "program"} {
			v, err := s.Value(job + ".owner." + f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v.Str)
		}
		return out
	}
	for i, text := range []string{
		`import "lib.gpl"`,
		"job k on p { hours = 1h\n owners { runtime = \"k infra\" }\n factors { S = 1 R = 1 P = 1 } }",
	} {
		c := se.Try([]Source{src(fmt.Sprintf("<%d>", i), text)}, nil)
		if c.Err() != nil {
			t.Fatalf("%s: %v", text, c.Err())
		}
		c.Commit()
	}
	if d := cmp.Diff([]string{"lib capacity", "k infra", "pool team"}, owners(se.Scenario(), "k")); d != "" {
		t.Errorf("k's owners (-want +got):\n%s", d)
	}
	c := se.Try([]Source{src("<2>", `owners { scheduling = "capacity" }`)}, nil)
	if c.Err() != nil {
		t.Fatal(c.Err())
	}
	if d := cmp.Diff([]string{"capacity", "lib infra", "pool team"}, owners(c.Scenario(), "j")); d != "" {
		t.Errorf("j's owners with the block (-want +got):\n%s", d)
	}
	c.Discard()
	if d := cmp.Diff([]string{"lib capacity", "lib infra", "pool team"}, owners(se.Scenario(), "j")); d != "" {
		t.Errorf("j's owners after the discard (-want +got):\n%s", d)
	}
	// Added while no job is declared yet, the block is added in place.
	se = NewSession(Options{})
	for i, text := range []string{`owners { program = "model" }`, "pool p { devices = 8 }", "job j on p { hours = 1h\n factors { S = 1 R = 1 P = 1 } }"} {
		c := se.Try([]Source{src(fmt.Sprintf("<%d>", i), text)}, nil)
		if c.Err() != nil {
			t.Fatalf("%s: %v", text, c.Err())
		}
		c.Commit()
	}
	if d := cmp.Diff([]string{"scheduling", "runtime", "model"}, owners(se.Scenario(), "j")); d != "" {
		t.Errorf("owners named before the job (-want +got):\n%s", d)
	}
}

// A job typed after its pool's figures were read changes them, and what
// read them: the session agrees with the same lines loaded as a file.
func TestSessionJobJoinsPool(t *testing.T) {
	lines := []string{
		"pool p { devices = 64\n rate = 2 USD/h\n term = 720h }",
		"job a on p { devices = 32\n hours = 720h\n factors { S = 0.9 R = 0.9 P = 0.4 } }",
		"let x = p.allocated_hours",
		"job b on p { devices = 16\n hours = 360h\n factors { S = 0.9 R = 0.9 P = 0.4 } }",
	}
	se := NewSession(Options{})
	var got []string
	for i, text := range lines {
		c := se.Try([]Source{src(fmt.Sprintf("<%d>", i), text)}, nil)
		if c.Err() != nil {
			t.Fatalf("%s: %v", text, c.Err())
		}
		c.Commit()
		v, err := se.Scenario().Value("p.allocated_hours")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v.String())
	}
	x, err := se.Scenario().Value("x")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, x.String())
	want := []string{"0 s", "23,040 h", "23,040 h", "28,800 h", "28,800 h"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("p.allocated_hours after each line, then x (-want +got):\n%s", d)
	}
}

// A pool without a rate takes its jobs' money, which must be in one
// currency, in a file and in a session alike.
func TestPoolMixesCurrencies(t *testing.T) {
	text := "pool p { devices = 64 }\n" +
		"job a on p { devices = 8\n hours = 1h\n rate = 2.50 EUR/h\n factors { S = 1 R = 1 P = 1 } }\n" +
		"job b on p { devices = 8\n hours = 1h\n rate = 2 USD/h\n factors { S = 1 R = 1 P = 1 } }\n"
	_, err := LoadSource("mix.gpl", []byte(text))
	var got string
	if err != nil {
		got, _, _ = strings.Cut(err.Error(), "\n")
	}
	want := "mix.gpl:8:9: pool p mixes currencies: job a is priced in EUR, job b in USD"
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("error (-want +got):\n%s", d)
	}
}

// BenchmarkSessionHeld measures the memory a REPL session holds per
// declaration after n lets typed one at a time, beside the same lets
// loaded from one file (held-B/decl: the live heap after a collection,
// over n).
func BenchmarkSessionHeld(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		lines := make([]string, n)
		for i := range lines {
			lines[i] = fmt.Sprintf("let x%d = %d * 2h", i, i)
		}
		b.Run(fmt.Sprintf("session/decls=%d", n), func(b *testing.B) {
			var held uint64
			for b.Loop() {
				before := liveHeap()
				se := NewSession(Options{})
				for i, text := range lines {
					c := se.Try([]Source{src(fmt.Sprintf("<%d>", i), text)}, nil)
					if c.Err() != nil {
						b.Fatal(c.Err())
					}
					c.Commit()
				}
				held = liveHeap() - before
				runtime.KeepAlive(se)
			}
			b.ReportMetric(float64(held)/float64(n), "held-B/decl")
		})
		b.Run(fmt.Sprintf("file/decls=%d", n), func(b *testing.B) {
			text := []byte(strings.Join(lines, "\n") + "\n")
			var held uint64
			for b.Loop() {
				before := liveHeap()
				s, err := LoadSource("f.gpl", text)
				if err != nil {
					b.Fatal(err)
				}
				held = liveHeap() - before
				runtime.KeepAlive(s)
			}
			b.ReportMetric(float64(held)/float64(n), "held-B/decl")
		})
	}
}

// liveHeap is the heap in use after a full collection, in bytes.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
