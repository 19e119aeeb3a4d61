package main

import (
	"regexp"
	"strings"
	"testing"
)

// verdicts extracts "annotation (Pn:k): verdict" lines.
func verdicts(out string) map[string]string {
	re := regexp.MustCompile(`(?m)^(\S+\(\)) \((P\d):\d+\): (.*)$`)
	got := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		got[m[1]+" "+m[2]] = m[3]
	}
	return got
}

func TestWhyMPWmbRmb(t *testing.T) {
	out, errs, code := runCmd(t, "why", "mp+wmb-rmb")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := map[string]string{
		"smp_wmb() P0": "needed in ARM-like mode, not in TSO",
		"smp_rmb() P1": "needed in ARM-like mode, not in TSO",
	}
	if got := verdicts(out); len(got) != 2 || got["smp_wmb() P0"] != want["smp_wmb() P0"] || got["smp_rmb() P1"] != want["smp_rmb() P1"] {
		t.Fatalf("verdicts %v in\n%s", got, out)
	}
	mustContain(t, flat(out),
		"As written, the exists outcome (1:r0=1 /\\ 1:r1=0) is unreachable in both modes.",
		"ARM-like mode without it reaches the outcome in ",
		"P0 exec, ",
		"In TSO mode even weakening both together leaves the outcome unreachable",
	)
	for i, l := range strings.Split(out, "\n") {
		if len(l) > 72 {
			t.Errorf("line %d wider than 72: %q", i+1, l)
		}
	}
}

func TestWhySBMbs(t *testing.T) {
	out, _, code := runCmd(t, "why", "sb+mb")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	got := verdicts(out)
	for _, k := range []string{"smp_mb() P0", "smp_mb() P1"} {
		if got[k] != "needed in both modes (TSO and ARM-like)" {
			t.Errorf("%s: %q in\n%s", k, got[k], out)
		}
	}
	if strings.Count(out, "TSO mode without it reaches the outcome") != 2 || strings.Count(out, "ARM-like mode without it reaches the outcome") != 2 {
		t.Errorf("want a witness per barrier and mode:\n%s", out)
	}
	// One mode only.
	out, _, code = runCmd(t, "why", "sb+mb", "--mode", "tso")
	if got := verdicts(out); code != 0 || got["smp_mb() P0"] != "needed in TSO mode" || strings.Contains(out, "ARM-like") {
		t.Errorf("--mode tso: exit %d\n%s", code, out)
	}
}

// TestWhyBackUp: each side has two annotations that each order it alone;
// none is needed on its own, all together are.
func TestWhyBackUp(t *testing.T) {
	file := "../../scenarios/testdata/belt-and-braces.litmus"
	out, errs, code := runCmd(t, "why", file, "--mode", "arm")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := verdicts(out)
	if len(got) != 4 {
		t.Fatalf("want 4 annotations, got %v\n%s", got, out)
	}
	for k, v := range got {
		if v != "not needed on its own in ARM-like mode" {
			t.Errorf("%s: %q", k, v)
		}
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "In ARM-like mode none of them is needed on its own, but all of them together are: weakening all 4 makes the outcome reachable") {
		t.Errorf("no back-up verdict in\n%s", out)
	}
}

func TestWhyNothingToWeaken(t *testing.T) {
	out, _, code := runCmd(t, "why", "mp+once")
	if code != 0 || !strings.Contains(out, "already reachable in ARM-like mode") || !strings.Contains(out, "mp+once has no barrier, acquire, release or ordered RMW to weaken.") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"why"}, {"why", "no-such"}, {"why", "mp+once", "--mode", "power"}} {
		if _, errs, code := runCmd(t, args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
