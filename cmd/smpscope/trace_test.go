package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTraceWitness(t *testing.T) {
	out, errs, code := runCmd(t, "trace", "mp+once", "--mode", "arm")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, out,
		"mp+once (once), ARM-like mode\n",
		"Condition: exists (1:r0=1 /\\ 1:r1=0)\n",
		"  1. P0 exec\n",
		"Final state after ",
		"exists (1:r0=1 /\\ 1:r1=0): HOLDS.",
	)
	if strings.Contains(out, "\x1b") {
		t.Errorf("escape codes in output to a pipe")
	}
	for i, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 72 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
	// TSO never reaches it: the closest attempt, saying so.
	out, errs, code = runCmd(t, "trace", "mp+once", "--mode", "tso", "--witness")
	if code != 0 || !strings.Contains(errs, "the exists outcome (1:r0=1 /\\ 1:r1=0) is unreachable in TSO mode: showing the closest attempt") {
		t.Fatalf("unreachable: exit %d, stderr %q", code, errs)
	}
	mustContain(t, flat(out), "Closest attempt: this outcome is unreachable in TSO mode", "It reaches 1:r0=1 of the outcome asked for, but not 1:r1=0.",
		"This is as far as it gets: the outcome is unreachable because TSO mode keeps these accesses in order")
	out, _, code = runCmd(t, "trace", "mp+wmb-rmb")
	if code != 0 {
		t.Fatalf("mp+wmb-rmb: exit %d", code)
	}
	mustContain(t, flat(out), "P1 is blocked: smp_rmb", "This is as far as it gets: the outcome is unreachable because of smp_wmb() (P0:2) and smp_rmb() (P1:2)")
	for i, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 72 {
			t.Errorf("attempt line %d is %d columns: %q", i+1, n, l)
		}
	}
}

func TestTraceSaveReplay(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.trace")
	out, errs, code := runCmd(t, "trace", "sb+once", "--mode", "tso", "--save", file)
	if code != 0 || !strings.Contains(errs, "wrote "+file) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	saved, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(saved), "smpscope trace 2\nscenario: sb+once\nvariant: once\nmode: tso\n", "# Shortest witness of exists", "\nP0 exec  ")
	// Replaying needs no scenario argument and no mode: both come from
	// the file, and the output is the same.
	again, errs, code := runCmd(t, "trace", "--replay", file)
	if code != 0 || again != out {
		t.Fatalf("replay: exit %d, stderr %q\n%s\n---\n%s", code, errs, again, out)
	}
	// Naming the scenario works too; another scenario or mode is refused.
	if _, errs, code = runCmd(t, "trace", "sb+once", "--replay", file); code != 0 {
		t.Fatalf("replay with the scenario named: exit %d %s", code, errs)
	}
	_, errs, code = runCmd(t, "trace", "mp+once", "--replay", file)
	if code != 2 || !strings.Contains(errs, file+":2:1: this trace is for scenario \"sb+once\", not \"mp+once\"") {
		t.Fatalf("wrong scenario: exit %d, stderr %q", code, errs)
	}
	_, errs, code = runCmd(t, "trace", "--replay", file, "--mode", "arm")
	if code != 2 || !strings.Contains(errs, "recorded in TSO mode, not ARM-like mode") {
		t.Fatalf("wrong mode: exit %d, stderr %q", code, errs)
	}
}

func TestTraceBadReplay(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.trace")
	os.WriteFile(file, []byte("smpscope trace 1\nscenario: mp+wmb-rmb\nmode: arm\n\nP0 exec\nP0 exec\nP0 commit #2  # y before x: smp_wmb forbids it\n"), 0o644)
	out, errs, code := runCmd(t, "trace", "--replay", file)
	if code != 2 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	mustContain(t, errs, file+":7:1: step 3 \"P0 commit #2\" is not enabled at this point",
		"steps enabled there:",
		"P0:1 commit",
		"P1 exec",
	)
	os.WriteFile(file, []byte("smpscope trace 1\nscenario: mp+once\nmode: arm\nP0 jump\n"), 0o644)
	if _, errs, code = runCmd(t, "trace", "--replay", file); code != 2 || !strings.Contains(errs, file+":4:4: unknown step kind \"jump\"") {
		t.Fatalf("syntax error: exit %d, stderr %q", code, errs)
	}
	if _, errs, code = runCmd(t, "trace", "--replay", filepath.Join(dir, "missing.trace")); code != 2 || !strings.Contains(errs, "missing.trace") {
		t.Fatalf("missing file: exit %d, stderr %q", code, errs)
	}
}

func TestTraceRandomAndFormats(t *testing.T) {
	a, _, code := runCmd(t, "trace", "rcu-free+sync", "--random", "7")
	b, _, code2 := runCmd(t, "trace", "rcu-free+sync", "--random", "7")
	if code != 0 || code2 != 0 || a != b || !strings.Contains(a, "Final state after") {
		t.Fatalf("random runs: exit %d/%d, equal %v\n%s", code, code2, a == b, a)
	}
	md, _, code := runCmd(t, "trace", "mp+once", "--format", "markdown", "--ascii", "--width", "60")
	if code != 0 || !strings.HasPrefix(md, "### mp+once (once), ARM-like mode\n") || !strings.Contains(md, "1. **P0 exec**") {
		t.Fatalf("markdown: exit %d\n%s", code, md)
	}
	for _, r := range md {
		if r >= 0x80 {
			t.Fatalf("--ascii output has %q", r)
		}
	}
	file := filepath.Join(t.TempDir(), "out.txt")
	out, _, code := runCmd(t, "trace", "mp+once", "--out", file)
	written, _ := os.ReadFile(file)
	if code != 0 || out != "" || !strings.Contains(string(written), "HOLDS") {
		t.Fatalf("--out: exit %d, stdout %q, file %q", code, out, written)
	}
	for _, args := range [][]string{
		{"trace"},
		{"trace", "mp+once", "--witness", "--random", "1"},
		{"trace", "mp+once", "--width", "20"},
		{"trace", "mp+once", "--format", "html"},
		{"trace", "mp+once", "--mode", "power"},
		{"trace", "no-such-scenario"},
	} {
		if _, errs, code := runCmd(t, args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestTraceFileSource: a trace of a .litmus file carries its source, so
// it replays after moving away from the file, and after the file is gone.
func TestTraceFileSource(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
	os.MkdirAll(filepath.Join(dir, "traces"), 0o755)
	src, _, _ := runCmd(t, "show", "sb+once")
	litmus := filepath.Join(dir, "tests", "my sb.litmus")
	os.WriteFile(litmus, []byte(src), 0o644)
	file := filepath.Join(dir, "traces", "sb.trace")
	out, errs, code := runCmd(t, "trace", litmus, "--save", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	saved, _ := os.ReadFile(file)
	if strings.Contains(string(saved), "\nsource:") || !strings.Contains(string(saved), "\nlitmus: 38 lines\nC sb+once\n") {
		t.Fatalf("a trace away from its file:\n%s", saved)
	}
	os.Remove(litmus)
	moved := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	again, errs, code := runCmd(t, "trace", "--replay", filepath.Join(moved, "traces", "sb.trace"))
	if code != 0 || again != out {
		t.Fatalf("replay after moving: exit %d, stderr %q", code, errs)
	}
}

func TestTracePicture(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		args := []string{"trace", "--picture", "mp+wmb-rmb"}
		if ascii {
			args = append(args, "--ascii")
		}
		out, errs, code := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		want := []string{"mp+wmb-rmb, ARM-like mode: where every value travelled", "smp_rmb passes", "forbidden: its po edges are ordered", "\nsmpscope trace "}
		if ascii {
			want = append(want, "* R y=1 ->r0 miss", "# || smp_rmb waits")
		} else {
			want = append(want, "● R y=1 →r0 miss", "┃ ⏸ smp_rmb waits")
		}
		mustContain(t, out, want...)
		for i, l := range strings.Split(out, "\n") {
			if n := len([]rune(l)); n > 72 {
				t.Errorf("line %d is %d columns: %q", i+1, n, l)
			}
			if ascii && strings.IndexFunc(l, func(r rune) bool { return r > 0x7e }) >= 0 {
				t.Errorf("--ascii line %d: %q", i+1, l)
			}
		}
	}
}
