package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"smpscope/machine"
	"smpscope/model"
)

// check --edit gives the verdicts of the what-if, says which edits it
// checked, and drops the original's LKMM expectation (a weakened
// "Result: Never" scenario is not a soundness failure).
func TestCheckEdit(t *testing.T) {
	out, errs, code := runCmd(t, "check", "--mode", "arm", "ext4-last-group+rel-acq", "--edit", "P1:1=acquire", "--edit", "P0:2=release")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, out, "Observation ext4-last-group+rel-acq Never 0 3", "Edited ext4-last-group+rel-acq P1:1=acquire P0:2=release")
	out, errs, code = runCmd(t, "check", "mp+wmb-rmb", "--edit", "P0:2-wmb")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, out, "Observation mp+wmb-rmb Never 0 3\nEdited mp+wmb-rmb P0:2-wmb\nMode mp+wmb-rmb tso", "Observation mp+wmb-rmb Sometimes 1 3\nEdited mp+wmb-rmb P0:2-wmb\nMode mp+wmb-rmb arm")
	if strings.Contains(out, "Expected") {
		t.Errorf("an edited check reports the original's LKMM verdict:\n%s", out)
	}
	out, _, code = runCmd(t, "check", "--json", "--mode", "arm", "mp+wmb-rmb", "--edit", "P0:2-wmb")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	mustContain(t, out, `"verdict":"Sometimes"`, `"expected":""`, `"edits":["P0:2-wmb"]`)

	for args, want := range map[string]string{
		"check mp+wmb-rmb --edit P0:2x":     "smpscope check: --edit: edit \"P0:2x\": want CPU:N=ORDER",
		"check mp+wmb-rmb --edit P0:2-mb":   "is smp_wmb(), not smp_mb()",
		"check mp+wmb-rmb --edit P5:1=once": "no CPU named P5",
	} {
		if _, errs, code := runCmd(t, strings.Fields(args)...); code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", args, code, errs, want)
		}
	}
}

// trace --edit prints the what-if's witness, says how to reproduce it,
// and saves a trace that replays the same program.
func TestTraceEditSaveReplay(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.trace")
	out, errs, code := runCmd(t, "trace", "mp+wmb-rmb", "--edit", "P0:2-wmb", "--save", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, out, "Edited: --edit P0:2-wmb\n")
	saved, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(saved), "mode: arm\nedits: P0:2-wmb\n")
	again, errs, code := runCmd(t, "trace", "--replay", file)
	if code != 0 || again != out {
		t.Fatalf("replay: exit %d, stderr %q\n%s\n---\n%s", code, errs, again, out)
	}
	// Unedited, the outcome is unreachable: the closest attempt.
	if out, _, code := runCmd(t, "trace", "mp+wmb-rmb"); code != 0 || !strings.Contains(out, "Closest attempt") || strings.Contains(out, "Edited:") {
		t.Errorf("unedited mp+wmb-rmb: exit %d\n%s", code, out)
	}
	if _, errs, code := runCmd(t, "trace", "--replay", file, "--edit", "P0:1+mb"); code != 2 || !strings.Contains(errs, "a trace records its own edits") {
		t.Errorf("--replay with --edit: exit %d, %q", code, errs)
	}
	// The UI reopens the same edited program from the trace, with the
	// edits undoable.
	opts, err := uiModelOptions(nil, uiOptions{mode: "tso", seed: 1, replay: file, every: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.Scenario.Edits) != 1 || opts.Scenario.Original().Name != "mp+wmb-rmb" || opts.Mode != machine.ARM {
		t.Errorf("--replay opened edits %v of %s in %s", opts.Scenario.Edits, opts.Scenario.Original().Name, opts.Mode)
	}
}

func TestUIEditOptions(t *testing.T) {
	o := uiOptions{mode: "arm", seed: 1, every: time.Second, edits: []string{"P1:1=acquire", "P0:2=release"}}
	opts, err := uiModelOptions([]string{"ext4-last-group+rel-acq"}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(opts.Scenario.Edits); got != 2 {
		t.Fatalf("opened with %d edits", got)
	}
	if m := model.New(opts); m.Scenario() != opts.Scenario {
		t.Errorf("the UI opened another spec")
	}
	o.edits = []string{"P1:9=acquire"}
	if _, err := uiModelOptions([]string{"ext4-last-group+rel-acq"}, o, nil); err == nil || !strings.Contains(err.Error(), "P1 has 2 instructions") {
		t.Errorf("a bad edit: %v", err)
	}
	o.edits = []string{"P1:1=acquire"}
	if _, err := uiModelOptions(nil, o, nil); err == nil || !strings.Contains(err.Error(), "--edit needs a scenario") {
		t.Errorf("--edit without a scenario: %v", err)
	}
}

// record --edit records the what-if, and its tape types the edits.
func TestRecordEdit(t *testing.T) {
	dir := t.TempDir()
	tape, cast := filepath.Join(dir, "w.tape"), filepath.Join(dir, "w.cast")
	_, errs, code := runCmd(t, "record", "mp+wmb-rmb", "--mode", "arm", "--edit", "P0:2-wmb", "--out", cast, "--tape", tape)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	raw, _ := os.ReadFile(tape)
	mustContain(t, string(raw), `Type "smpscope mp+wmb-rmb --mode arm --edit P0:2-wmb"`)
	frames, _ := os.ReadFile(cast)
	mustContain(t, string(frames), "~1 edit")
	// Unedited the outcome is unreachable: the closest attempt is
	// recorded.
	if _, errs, code := runCmd(t, "record", "mp+wmb-rmb", "--mode", "arm", "--out", filepath.Join(dir, "x.cast")); code != 0 || !strings.Contains(errs, "closest attempt") {
		t.Errorf("unedited: exit %d, %q", code, errs)
	}
}
