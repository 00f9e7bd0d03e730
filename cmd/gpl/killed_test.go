package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKilledHelper is gpl when GPL_KILLED_HELPER is set: the process
// TestKilledMidWrite starts and kills, this test binary standing in for
// gpl. Its arguments follow "--".
func TestKilledHelper(t *testing.T) {
	if os.Getenv("GPL_KILLED_HELPER") == "" {
		t.Skip("run by TestKilledMidWrite")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(runMain(args, os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// TestKilledMidWrite kills gpl with SIGKILL at moments spread over the
// whole of a run that writes a file — `report -o`, `table -o` and
// `fmt -w` over a file that exists — and checks after each kill that the
// file is whole: exactly what it held before, or exactly what a run that
// was not killed writes. No kill may leave it torn, empty or gone.
func TestKilledMidWrite(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// A plan big enough that the write takes a while: 400 jobs on 20 pools.
	var plan strings.Builder
	for p := range 20 {
		fmt.Fprintf(&plan, "pool p%d { devices = 4096  rate = $2/h }\n", p)
	}
	for j := range 400 {
		fmt.Fprintf(&plan, "job j%d on p%d {\n  devices = %d\n  hours = %dh\n  factors { S = 0.9  R = 0.8  P = 0.%02d }\n}\n", j, j%20, 8+j%64, 24+j%100, 10+j%80)
	}
	src := filepath.Join(dir, "plan.gpl")
	if err := os.WriteFile(src, []byte(plan.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// fmt -w has something to change: the plan as typed is not aligned.
	const before = "written before the kill\n"
	gpl := func(args ...string) *exec.Cmd {
		cmd := exec.Command(exe, append([]string{"-test.run=^TestKilledHelper$", "--"}, args...)...)
		cmd.Env = append(os.Environ(), "GPL_KILLED_HELPER=1")
		if raceEnabled {
			cmd.Env = append(cmd.Env, "GORACE="+childGORACE())
		}
		return cmd
	}
	cases := []struct {
		name   string
		target string
		args   []string
		orig   string // what the target holds before each run
	}{
		{"report", "out.html", []string{"report", "-o", filepath.Join(dir, "out.html"), src}, before},
		{"table", "jobs.csv", []string{"table", "-o", filepath.Join(dir, "jobs.csv"), src, "jobs"}, before},
		{"fmt", "plan.gpl", []string{"fmt", "-w", src}, plan.String()},
	}
	kills := 24
	if raceEnabled {
		kills = 8
	}
	r := rand.New(rand.NewPCG(24, 9))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.target)
			reset := func() {
				if err := os.WriteFile(path, []byte(c.orig), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// One run that is not killed gives what the file holds after,
			// and how long a run takes.
			reset()
			start := time.Now()
			if out, err := gpl(c.args...).CombinedOutput(); err != nil {
				t.Fatalf("gpl %s: %v\n%s", strings.Join(c.args, " "), err, out)
			}
			whole := time.Since(start)
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(want) == c.orig {
				t.Fatalf("gpl %s left %s as it was: nothing to tear", c.name, c.target)
			}
			old, killedMidRun, midWrite := 0, 0, 0
			for k := range kills {
				reset()
				cmd := gpl(c.args...)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				if k%2 == 0 {
					// At a moment of the run's second half or just after.
					time.Sleep(whole/2 + time.Duration(r.Int64N(int64(whole*6/10))))
				} else {
					// As soon as the temporary file appears, or up to a
					// millisecond after: in the middle of writing it.
					for deadline := time.Now().Add(2 * whole); time.Now().Before(deadline) && len(strays(t, dir)) == 0; {
						time.Sleep(50 * time.Microsecond)
					}
					time.Sleep(time.Duration(r.Int64N(int64(time.Millisecond))))
				}
				_ = cmd.Process.Kill()
				err := cmd.Wait()
				if err != nil {
					killedMidRun++
				}
				if left := strays(t, dir); len(left) > 0 {
					midWrite++ // a temporary file left: the kill came while it was written
					for _, f := range left {
						os.Remove(filepath.Join(dir, f))
					}
				}
				got, rerr := os.ReadFile(path)
				switch {
				case rerr != nil:
					t.Errorf("after a kill, %s: %v", c.target, rerr)
				case string(got) == c.orig:
					old++
				case string(got) != string(want):
					t.Errorf("after a kill, %s is torn: %d bytes, want %d (or as it was)", c.target, len(got), len(want))
				}
			}
			t.Logf("%d kills (%d before the run ended, %d while a temporary file was being written): %d left the file as it was, the rest whole and new", kills, killedMidRun, midWrite, old)
		})
	}
}

// strays lists the files in dir that TestKilledMidWrite did not make.
func strays(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		switch e.Name() {
		case "plan.gpl", "out.html", "jobs.csv":
		default:
			out = append(out, e.Name())
		}
	}
	return out
}
