//go:build unix

package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"smpscope/scenarios/litmusgen"
)

var kernelSideBySide = flag.Bool("kernel.sidebyside", false, "time smpscope check --mode both (one process) against herd7 + LKMM (one process) on the kernel's litmus tests herd7 accepts, and print the ratio")
var kernelRounds = flag.Int("kernel.rounds", 20, "rounds of -kernel.sidebyside (each runs both once, interleaved)")
var kernelAlso = flag.String("kernel.also", "", "with -kernel.sidebyside, also time this smpscope `binary` (another build, to compare before and after)")

// TestKernelSuiteSideBySide is issue 24's kernel-suite comparison: the
// kernel's litmus tests (../shared/litmus/kernel) that herd7 accepts (33
// of 35: it rejects spinlock_t in the init block), checked in both modes
// by one smpscope process, against herd7 + LKMM on the same files in one
// process. Both are run in turn -kernel.rounds times; it prints the
// fastest and the median wall time and CPU time (user + system) of each
// and their ratios. The binary is built as go build builds it, and with
// CGO_ENABLED=0 (a static binary, which starts faster); -kernel.also names
// another build to time beside them. It measures and prints; it asserts
// only that every program gave every verdict.
//
//	go test ./cmd/smpscope -run TestKernelSuiteSideBySide -kernel.sidebyside -v
func TestKernelSuiteSideBySide(t *testing.T) {
	if !*kernelSideBySide {
		t.Skip("-kernel.sidebyside runs it")
	}
	h, err := litmusgen.FindHerd(".")
	if err != nil {
		t.Skip(err)
	}
	all, _ := filepath.Glob(kernelDir + "/*.litmus")
	if len(all) == 0 {
		t.Skip("no corpus")
	}
	var files []string
	for _, f := range all {
		if out, _ := exec.Command(h.Script, "lkmm", f).CombinedOutput(); strings.Contains(string(out), "\nObservation ") {
			files = append(files, f)
		}
	}
	dir := t.TempDir()
	builds := []struct{ name, cgo string }{{"go build", ""}, {"CGO_ENABLED=0", "0"}}
	bins := make([]string, len(builds))
	for i, b := range builds {
		bins[i] = filepath.Join(dir, fmt.Sprintf("smpscope%d", i))
		cmd := exec.Command("go", "build", "-o", bins[i], ".")
		if b.cgo != "" {
			cmd.Env = append(os.Environ(), "CGO_ENABLED="+b.cgo)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", b.name, err, out)
		}
	}
	if *kernelAlso != "" {
		builds = append(builds, struct{ name, cgo string }{*kernelAlso, ""})
		bins = append(bins, *kernelAlso)
	}
	type timing struct{ wall, cpu []time.Duration }
	runs := make([]timing, len(bins)+1) // the builds, then herd7
	once := func(i int, want int, name string, args ...string) {
		cmd := exec.Command(name, args...)
		start := time.Now()
		out, err := cmd.Output()
		wall := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		if got := strings.Count(string(out), "\nObservation "); got != want {
			t.Fatalf("%s: %d verdicts, want %d:\n%s", name, got, want, out)
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		runs[i].wall = append(runs[i].wall, wall)
		runs[i].cpu = append(runs[i].cpu, cpu)
	}
	for range *kernelRounds {
		for i, b := range bins {
			once(i, 2*len(files), b, append([]string{"check", "--mode", "both"}, files...)...)
		}
		once(len(bins), len(files), h.Script, append([]string{"lkmm"}, files...)...)
	}
	stat := func(d []time.Duration) (best, median time.Duration) {
		d = slices.Clone(d)
		slices.Sort(d)
		return d[0], d[len(d)/2]
	}
	herdWall, herdWallMed := stat(runs[len(bins)].wall)
	herdCPU, herdCPUMed := stat(runs[len(bins)].cpu)
	t.Logf("%d files, %d rounds; herd7 + LKMM: wall %v (median %v), CPU %v (median %v)", len(files), *kernelRounds, ms(herdWall), ms(herdWallMed), ms(herdCPU), ms(herdCPUMed))
	for i, b := range builds {
		w, wm := stat(runs[i].wall)
		c, cm := stat(runs[i].cpu)
		t.Logf("smpscope (%s), both modes: wall %v (median %v), CPU %v (median %v): herd7 takes ×%.1f the wall time (median ×%.1f), ×%.1f the CPU time (median ×%.1f)",
			b.name, ms(w), ms(wm), ms(c), ms(cm), herdWall.Seconds()/w.Seconds(), herdWallMed.Seconds()/wm.Seconds(), herdCPU.Seconds()/c.Seconds(), herdCPUMed.Seconds()/cm.Seconds())
	}
}

// ms rounds a duration to 0.1 ms for printing.
func ms(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }
