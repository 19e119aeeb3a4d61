package litmusgen

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

var (
	graceSideBySide = flag.Bool("grace.sidebyside", false, "time smpscope (the binary, check in each mode, one process per file) against herd7 + LKMM on every test of the grace-period class, and print the ratios")
	graceTimeout    = flag.Duration("grace.timeout", 20*time.Second, "with -grace.sidebyside: smpscope's --timeout per file and mode")
	graceHerdLimit  = flag.Duration("grace.herdtimeout", 2*time.Minute, "with -grace.sidebyside: how long herd7 may take on one file")
	graceOnly       = flag.String("grace.only", "", "with -grace.sidebyside: only the tests whose name matches this regular expression")
)

// sideRun is one timed process of the side-by-side: its wall time,
// whether it gave a verdict (the "Observation NAME VERDICT" line), and
// whether it ran out of time.
type sideRun struct {
	d       time.Duration
	verdict string
	timeout bool
}

// timedRun runs name args once under limit.
func timedRun(limit time.Duration, name string, args ...string) (sideRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	start := time.Now()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	r := sideRun{d: time.Since(start)}
	if ctx.Err() != nil {
		r.timeout = true
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("%s: %v: %s", name, err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "Observation" {
			r.verdict = f[2]
		}
	}
	return r, nil
}

// TestGraceSideBySide is the side-by-side of issue 24: for every test of
// the class, smpscope check in each mode and herd7 + LKMM, each as a
// process of its own, and the ratio herd7/smpscope (runs under a second
// are the best of three). A run that reaches its limit makes the ratio a
// bound, printed with ≥ (herd7 out of time) or ≤ (smpscope out of time);
// the summary's worst and median count bounds as their value. It fails
// when smpscope or herd7 fails, or when smpscope gives no verdict within
// its limit. Run:
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
	best := func(limit time.Duration, name string, args ...string) (sideRun, error) {
		var b sideRun
		for i := range 3 {
			r, err := timedRun(limit, name, args...)
			if err != nil {
				return r, err
			}
			if i == 0 || r.d < b.d {
				b = r
			}
			if r.timeout || r.d > time.Second {
				break
			}
		}
		return b, nil
	}
	only, err := regexp.Compile(*graceOnly)
	if err != nil {
		t.Fatal(err)
	}
	ratios := map[string][]float64{}
	for _, f := range GraceFamilies() {
		if !only.MatchString(f.Name) {
			continue
		}
		path := filepath.Join(dir, f.Name+".litmus")
		if err := os.WriteFile(path, []byte(f.Src), 0o644); err != nil {
			t.Fatal(err)
		}
		herd, err := best(*graceHerdLimit, h.Script, "lkmm", path)
		if err != nil {
			t.Errorf("%s: herd7: %v", f.Name, err)
			continue
		}
		for _, mode := range []string{"tso", "arm"} {
			ours, err := best(*graceTimeout+10*time.Second, bin, "check", "--mode", mode, "--timeout", graceTimeout.String(), path)
			if err != nil {
				t.Errorf("%s %s: smpscope: %v", f.Name, mode, err)
				continue
			}
			bound := ""
			switch {
			case ours.verdict == "":
				bound = "≤"
				t.Errorf("%s %s: no verdict within %v", f.Name, mode, *graceTimeout)
			case herd.timeout:
				bound = "≥"
			}
			r := herd.d.Seconds() / ours.d.Seconds()
			ratios[mode] = append(ratios[mode], r)
			t.Logf("%-48s %d CPUs %-3s smpscope %8.3fs %-9s herd7 %8.3fs %-9s %s×%.2f", f.Name, f.CPUs, mode, ours.d.Seconds(), ours.verdict, herd.d.Seconds(), herd.verdict, bound, r)
		}
	}
	for _, mode := range []string{"tso", "arm"} {
		if rs := ratios[mode]; len(rs) > 0 {
			slices.Sort(rs)
			t.Logf("%s: %d tests: worst ×%.2f, median ×%.2f (herd7 time / smpscope time)", mode, len(rs), rs[0], rs[len(rs)/2])
		}
	}
}
