package litmusgen

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var graceDir = flag.String("grace.write", "", "write the grace-period class (GraceFamilies) as .litmus files into this directory")

// Every test of the class parses and compiles, and every role in every
// position builds.
func TestGraceFamiliesCompile(t *testing.T) {
	for _, f := range GraceFamilies() {
		if f.CPUs < 5 || f.CPUs > 8 {
			t.Errorf("%s: %d CPUs, want 5 to 8", f.Name, f.CPUs)
		}
		if _, err := Compile(f.Name, f.Src); err != nil {
			t.Errorf("%s: %v\n%s", f.Name, err, f.Src)
		}
		if *graceDir != "" {
			if err := os.WriteFile(filepath.Join(*graceDir, f.Name+".litmus"), []byte(f.Src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, role := range GraceRoles {
		for _, srcu := range []bool{false, true} {
			src, err := GraceCycle("G+"+role+"+R", "RW", srcu)
			if err != nil {
				t.Errorf("%s: %v", role, err)
				continue
			}
			if _, err := Compile(role, src); err != nil {
				t.Errorf("%s (srcu %v): %v\n%s", role, srcu, err, src)
			}
		}
	}
}

var graceSideBySide = flag.Bool("grace.sidebyside", false, "time smpscope (the binary, check --mode both, one process per file) against herd7 + LKMM on every test of the grace-period class, and print the ratios")

// TestGraceSideBySide is the side-by-side of issue 24: for every test of
// the class, smpscope check in both modes and herd7 + LKMM, each as a
// process of its own, and the ratio herd7/smpscope (the best of three
// runs each). It fails when smpscope's verdict or herd7's is missing. Run:
//
//	go test ./scenarios/litmusgen -run TestGraceSideBySide -grace.sidebyside -v -timeout 0
func TestGraceSideBySide(t *testing.T) {
	if !*graceSideBySide {
		t.Skip("-grace.sidebyside runs it")
	}
	h, err := FindHerd(".")
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "smpscope")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/smpscope").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	best := func(name string, args ...string) (time.Duration, string) {
		var b time.Duration
		var out []byte
		for range 3 {
			start := time.Now()
			cmd := exec.Command(name, args...)
			o, err := cmd.CombinedOutput()
			d := time.Since(start)
			if err != nil {
				return 0, fmt.Sprintf("%v: %s", err, o)
			}
			if b == 0 || d < b {
				b, out = d, o
			}
		}
		return b, string(out)
	}
	var ratios []float64
	for _, f := range GraceFamilies() {
		path := filepath.Join(dir, f.Name+".litmus")
		if err := os.WriteFile(path, []byte(f.Src), 0o644); err != nil {
			t.Fatal(err)
		}
		ours, out := best(bin, "check", "--mode", "both", "--timeout", "60s", path)
		if ours == 0 {
			t.Errorf("%s: smpscope: %s", f.Name, out)
			continue
		}
		herd, hout := best(h.Script, "lkmm", path)
		if herd == 0 || !strings.Contains(hout, "Observation") {
			t.Errorf("%s: herd7: %s", f.Name, hout)
			continue
		}
		r := herd.Seconds() / ours.Seconds()
		ratios = append(ratios, r)
		t.Logf("%-48s %d CPUs  smpscope %8.3fs  herd7 %7.3fs  ×%.2f", f.Name, f.CPUs, ours.Seconds(), herd.Seconds(), r)
	}
	if len(ratios) > 0 {
		slices.Sort(ratios)
		t.Logf("%d tests: worst ×%.2f, median ×%.2f (herd7 time / smpscope time)", len(ratios), ratios[0], ratios[len(ratios)/2])
	}
}
