package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// squiggleModels are uncertain expressions written in gpl and in
// Squiggle (@quri/squiggle-lang), which the differential test evaluates
// in both. Squiggle's lognormal takes the mean and sd of the logarithm,
// gpl's the median and sigma, so its median is written as a log; A to B
// over fractions is left out, since Squiggle's to is lognormal there and
// gpl's logit-normal; Squiggle writes a normal interval normal({p5, p95}).
var squiggleModels = []struct{ gpl, squiggle string }{
	{"2 to 5", "2 to 5"},
	{"normal(10, 2)", "normal(10, 2)"},
	{"lognormal(3, 0.5)", "lognormal(1.0986122886681098, 0.5)"},
	{"uniform(1, 4)", "uniform(1, 4)"},
	{"-1 to 3", "normal({p5: -1, p95: 3})"},
	{"(2 to 5) * normal(10, 2)", "(2 to 5) * normal(10, 2)"},
	{"(1 to 3) + (2 to 6)", "(1 to 3) + (2 to 6)"},
	{"normal(5, 1) - normal(2, 0.5)", "normal(5, 1) - normal(2, 0.5)"},
	{"(10 to 20) / (2 to 4)", "(10 to 20) / (2 to 4)"},
	{"uniform(0, 1) * 3 + 1", "uniform(0, 1) * 3 + 1"},
	{"lognormal(3, 0.5) * uniform(1, 2)", "lognormal(1.0986122886681098, 0.5) * uniform(1, 2)"},
	{"(100 to 400) * 0.95 * (1.8 to 2.9)", "(100 to 400) * 0.95 * (1.8 to 2.9)"},
	{"normal(50, 5) * normal(2, 0.2) - 20", "normal(50, 5) * normal(2, 0.2) - 20"},
}

// squiggleDir is where @quri/squiggle-lang is installed: $GPL_SQUIGGLE_DIR
// (.ci/run installs it there), else none.
func squiggleDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; .ci/run installs nodejs and @quri/squiggle-lang for this test")
	}
	dir := os.Getenv("GPL_SQUIGGLE_DIR")
	if dir == "" {
		t.Skip("GPL_SQUIGGLE_DIR is not set: install @quri/squiggle-lang with npm install --prefix DIR and set it to DIR (.ci/run does)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@quri", "squiggle-lang")); err != nil {
		t.Skipf("@quri/squiggle-lang is not installed under %s", dir)
	}
	return dir
}

// TestSquiggleDifferential evaluates each model in gpl (10,000 samples)
// and in Squiggle (100,000 samples) and holds the 5th, 50th and 95th
// percentiles to agree within 4% of the 90% interval's width: the
// Monte Carlo error of a 5th percentile at 10,000 samples is about 0.6%
// of that width for a normal, so 4% is several standard errors.
func TestSquiggleDifferential(t *testing.T) {
	dir := squiggleDir(t)
	var b strings.Builder
	b.WriteString(`import { run } from "@quri/squiggle-lang";
const models = ` + "[")
	for i, m := range squiggleModels {
		if i > 0 {
			b.WriteString(", ")
		}
		q, _ := json.Marshal(m.squiggle)
		b.Write(q)
	}
	b.WriteString(`];
for (const m of models) {
  const code = "x = " + m + "\n[quantile(x, 0.05), quantile(x, 0.5), quantile(x, 0.95)]";
  const out = await run(code, { environment: { sampleCount: 100000, xyPointLength: 1000, seed: "gpl" } });
  if (!out.result.ok) { console.error(m + ": " + out.result.value.toString()); process.exit(1); }
  console.log(String(out.result.value.result));
}
`)
	script := filepath.Join(dir, "gpl_differential.mjs")
	if err := os.WriteFile(script, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(squiggleModels) {
		t.Fatalf("Squiggle gave %d results for %d models:\n%s", len(lines), len(squiggleModels), out)
	}
	var src strings.Builder
	for i, m := range squiggleModels {
		fmt.Fprintf(&src, "let m%d = %s\n", i, m.gpl)
	}
	s := loadUncertain(t, Options{}, src.String())
	for i, m := range squiggleModels {
		var want [3]float64
		if err := json.Unmarshal([]byte(lines[i]), &want); err != nil {
			t.Fatalf("%s: Squiggle printed %q: %v", m.squiggle, lines[i], err)
		}
		got := [3]float64{num(t, s, fmt.Sprintf("m%d.p5", i)), num(t, s, fmt.Sprintf("m%d.p50", i)), num(t, s, fmt.Sprintf("m%d.p95", i))}
		tol := 0.04 * (want[2] - want[0])
		for k, name := range []string{"p5", "p50", "p95"} {
			if math.Abs(got[k]-want[k]) > tol {
				t.Errorf("%s: gpl's %s %.5g, Squiggle's %.5g (tolerance %.3g)", m.gpl, name, got[k], want[k], tol)
			}
		}
		t.Logf("%-40s gpl %.4g %.4g %.4g   Squiggle %.4g %.4g %.4g", m.gpl, got[0], got[1], got[2], want[0], want[1], want[2])
	}
}
