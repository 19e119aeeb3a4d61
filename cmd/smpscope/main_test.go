package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mustContain fails the test for each of wants that out lacks.
func mustContain(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q in\n%s", w, out)
		}
	}
}

// flat is out with its white space runs made single spaces, so that a
// phrase matches however the text was wrapped.
func flat(out string) string { return strings.Join(strings.Fields(out), " ") }

// runCmd runs the command line and returns stdout, stderr and the status.
func runCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestListJSON(t *testing.T) {
	out, _, code := runCmd(t, "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 40 {
		t.Fatalf("only %d scenarios listed", len(lines))
	}
	for _, l := range lines {
		var e map[string]string
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		for _, k := range []string{"name", "family", "variant", "title"} {
			if e[k] == "" {
				t.Fatalf("%q: empty %s", l, k)
			}
		}
	}
}

func TestShow(t *testing.T) {
	out, _, code := runCmd(t, "show", "mp+once")
	if code != 0 || !strings.HasPrefix(out, "C mp+once") || !strings.Contains(out, "exists") {
		t.Fatalf("exit %d, output %q", code, out)
	}
	_, errs, code := runCmd(t, "show", "no-such-test")
	if code != 2 || !strings.Contains(errs, "no built-in scenario") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestNonInteractiveRootPrintsHelpAndList(t *testing.T) {
	out, _, code := runCmd(t)
	if code != 0 || !strings.Contains(out, "Usage:") || !strings.Contains(out, "mp+once") {
		t.Fatalf("exit %d, output %q", code, out)
	}
	// Piped, the help and the list fit a terminal's 80 columns, and every
	// command's description starts in the same column (completion, the
	// longest name, included).
	col := -1
	cmds := 0
	for _, l := range strings.Split(out, "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("%d columns: %q", w, l)
		}
		f := strings.Fields(l)
		if len(f) < 2 || !strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "   ") {
			continue
		}
		switch f[0] {
		case "check", "compare", "completion", "list", "record", "show", "trace", "why":
			cmds++
			at := strings.Index(l, f[1])
			if col >= 0 && at != col {
				t.Errorf("%s's description starts at column %d, the others at %d:\n%s", f[0], at, col, out)
			}
			col = at
		}
	}
	if cmds != 8 {
		t.Errorf("found %d command rows, want 8:\n%s", cmds, out)
	}
}

func TestListFits80Columns(t *testing.T) {
	out, _, code := runCmd(t, "list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("%d columns: %q", w, l)
		}
	}
	// Library order: the classic shapes first, MP at the top.
	if len(lines) < 2 || !strings.HasPrefix(lines[1], "mp+mb ") {
		t.Errorf("list starts %q, want mp+mb", lines[min(1, len(lines)-1)])
	}
	mustContain(t, flat(out), "ext4-last-group+rel-acq ext4 goal with smp_store_release/smp_load_acquire (the v2 patch)")
}

func TestCheckText(t *testing.T) {
	out, _, code := runCmd(t, "check", "--mode", "both", "mp+once")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	mustContain(t, out,
		"Test mp+once Allowed",
		"Observation mp+once Never 0 3",     // TSO
		"Observation mp+once Sometimes 1 3", // ARM-like
		"Mode mp+once tso", "Mode mp+once arm",
		"Condition exists (1:r0=1 /\\ 1:r1=0)",
	)
}

func TestCheckJSON(t *testing.T) {
	out, _, code := runCmd(t, "check", "--json", "--mode", "arm", "sb+once", "mp+wmb-rmb")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 lines, got %d", len(lines))
	}
	var r struct {
		Name     string `json:"name"`
		Mode     string `json:"mode"`
		Verdict  string `json:"verdict"`
		Positive int    `json:"positive"`
		States   int    `json:"states"`
		Outcomes []struct {
			Values    map[string]any `json:"values"`
			Count     int            `json:"count"`
			Satisfies bool           `json:"satisfies"`
		} `json:"outcomes"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "sb+once" || r.Mode != "arm" || r.Verdict != "Sometimes" || r.Positive == 0 || r.States == 0 || r.Error != "" {
		t.Fatalf("%+v", r)
	}
	sat := 0
	for _, o := range r.Outcomes {
		if o.Satisfies {
			sat++
			if o.Values["0:r0"] != float64(0) || o.Values["1:r1"] != float64(0) {
				t.Fatalf("satisfying outcome %v", o.Values)
			}
		}
	}
	if sat != 1 || len(r.Outcomes) != 4 {
		t.Fatalf("%d outcomes, %d satisfying", len(r.Outcomes), sat)
	}
}

func TestCheckExitStatus(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.litmus")
	os.WriteFile(bad, []byte("C bad\n{}\nP0(int *x) {\n  while (1) ;\n}\nexists (x=1)\n"), 0o644)
	_, errs, code := runCmd(t, "check", bad)
	if code != 2 || !strings.Contains(errs, "bad.litmus:4:") {
		t.Fatalf("parse error: exit %d, stderr %q", code, errs)
	}
	// A file that claims Never for an outcome the machine reaches: the
	// soundness failure exit status.
	lie := filepath.Join(dir, "lie.litmus")
	os.WriteFile(lie, []byte("C lie\n(* Result: Never *)\n{}\nP0(int *x, int *y) {\n WRITE_ONCE(*x, 1);\n int r0 = READ_ONCE(*y);\n}\nP1(int *x, int *y) {\n WRITE_ONCE(*y, 1);\n int r1 = READ_ONCE(*x);\n}\nexists (0:r0=0 /\\ 1:r1=0)\n"), 0o644)
	_, errs, code = runCmd(t, "check", lie)
	if code != 1 || !strings.Contains(errs, "SOUNDNESS") {
		t.Fatalf("soundness: exit %d, stderr %q", code, errs)
	}
	_, errs, code = runCmd(t, "check", "--max-states", "3", "iriw+once")
	if code != 2 || !strings.Contains(errs, "stopped after") {
		t.Fatalf("limit: exit %d, stderr %q", code, errs)
	}
	if _, _, code = runCmd(t, "check", "--mode", "power", "mp+once"); code != 2 {
		t.Fatalf("bad mode: exit %d", code)
	}
	if _, _, code = runCmd(t, "check"); code != 2 {
		t.Fatalf("no arguments: exit %d", code)
	}
}

// TestOneNameRule: a file named like a built-in scenario is read by every
// command alike (it used to be read by check only), and - is standard
// input.
func TestOneNameRule(t *testing.T) {
	src, _, _ := runCmd(t, "show", "sb+once")
	mine := strings.Replace(src, "C sb+once", "C mine", 1)
	t.Chdir(t.TempDir())
	if err := os.WriteFile("mp+once", []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--mode", "tso", "mp+once"},
		{"trace", "mp+once", "--mode", "tso"},
		{"why", "mp+once", "--mode", "tso"},
	} {
		out, errs, code := runCmd(t, args...)
		if code != 0 || !strings.Contains(out, "mine") {
			t.Errorf("%v: exit %d, %s\n%s", args, code, errs, out)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"check", "-"}, strings.NewReader(mine), &out, &errb); code != 0 || !strings.Contains(out.String(), "Observation mine Sometimes") {
		t.Errorf("check -: exit %d, %s\n%s", code, errb.String(), out.String())
	}
}

func TestCheckSuggestsName(t *testing.T) {
	_, errs, code := runCmd(t, "check", "mp+onse")
	if code != 2 || !strings.Contains(errs, "did you mean mp+once?") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestVersion(t *testing.T) {
	out, errs, code := runCmd(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "smpscope ") || errs != "" {
		t.Fatalf("--version: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestCheckReportsStuckExecutions: deadlocked and faulted executions are
// counted, each with an example path, in text and JSON; when none
// reached the end, stderr says so, and with a fault the status is 2 (no
// verdict), while every execution deadlocking is a verdict (herd7 finds
// no execution either): status 0 (issue 21).
func TestCheckReportsStuckExecutions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	allFault := write("allfault.litmus", "C allfault\n{}\nP0(int *x) {\n int r0; int *r2; int r1;\n r0 = 8;\n r2 = x + r0;\n r1 = READ_ONCE(*r2);\n}\nexists (0:r1=0)\n")
	someFault := write("somefault.litmus", "C somefault\n{}\nP0(int *x, int *y) {\n int r0; int *r2; int r1;\n r0 = READ_ONCE(*y);\n r2 = x + r0;\n r1 = READ_ONCE(*r2);\n}\nP1(int *y) { WRITE_ONCE(*y, 8); }\nexists (0:r1=0)\n")
	selfDeadlock := write("selfdl.litmus", "C selfdl\n{}\nP0(int *x) {\n rcu_read_lock();\n synchronize_rcu();\n rcu_read_unlock();\n}\nexists (x=0)\n")

	out, errs, code := runCmd(t, "check", "--mode", "arm", allFault)
	if code != 2 {
		t.Errorf("all faulted: exit %d, want 2", code)
	}
	for _, want := range []string{"Observation allfault Never 0 0", "Faults allfault 1 (P0:3, r1 = READ_ONCE(*r2): the address", "FaultPath allfault P0 exec", "NoFinalState allfault no execution reached the end: 1 faulted"} {
		if !strings.Contains(out, want) {
			t.Errorf("all faulted: no %q in\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "no execution reached the end: 1 faulted") {
		t.Errorf("all faulted: stderr %q", errs)
	}
	out, _, _ = runCmd(t, "check", "--mode", "arm", "--json", allFault)
	var j map[string]any
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j["no_final_state"] != true || j["faulted"] != 1.0 || j["final_states"] != 0.0 || j["fault"] == nil {
		t.Errorf("all faulted, JSON: %s", out)
	} else if f := j["fault"].(map[string]any); len(f["steps"].([]any)) != 1 || !strings.Contains(f["reason"].(string), "is not a location") {
		t.Errorf("all faulted, JSON example: %v", f)
	}

	out, errs, code = runCmd(t, "check", "--mode", "tso", someFault)
	if code != 0 || !strings.Contains(out, "Faults somefault 1 (") || strings.Contains(out, "NoFinalState") || !strings.Contains(errs, "1 faulted states are not in the verdict") {
		t.Errorf("some faulted: exit %d, stderr %q\n%s", code, errs, out)
	}

	out, errs, code = runCmd(t, "check", "--mode", "tso", selfDeadlock)
	if code != 0 || !strings.Contains(out, "Deadlocks selfdl 1 (P0: synchronize_rcu waits") || !strings.Contains(out, "DeadlockPath selfdl P0 exec") ||
		!strings.Contains(out, "NoFinalState selfdl no execution reached the end: 1 deadlocked") || !strings.Contains(errs, "no execution reached the end: 1 deadlocked") {
		t.Errorf("all deadlocked: exit %d, stderr %q\n%s", code, errs, out)
	}
	out, _, _ = runCmd(t, "check", "--mode", "tso", "--json", selfDeadlock)
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j["no_final_state"] != true || j["deadlocked"] != 1.0 || j["deadlock"] == nil {
		t.Errorf("all deadlocked, JSON: %s", out)
	}
}
