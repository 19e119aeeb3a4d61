package scenarios_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/litmusgen"
)

var fixModes = []machine.Mode{machine.TSO, machine.ARM}

func fixReport(t *testing.T, name string) scenarios.FixReport {
	t.Helper()
	sp, err := scenarios.BuiltinSpec(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenarios.FixSearch(sp, fixModes, scenarios.FixOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fixTexts lists a mode's fixes as their edits: "P0:1+mb P1:1+mb".
func fixTexts(fixes []scenarios.Fix) []string {
	var out []string
	for _, f := range fixes {
		out = append(out, scenarios.EditsText(f.Edits))
	}
	return out
}

func mode(r scenarios.FixReport, m machine.Mode) scenarios.FixMode {
	for _, fm := range r.Modes {
		if fm.Mode == m {
			return fm
		}
	}
	panic(m)
}

// reaches explores spec in mode: whether the asked outcome is reachable.
func reaches(t *testing.T, spec *scenarios.Spec, m machine.Mode) bool {
	t.Helper()
	run := scenarios.ExploreAll([]scenarios.Job{{Spec: spec, Mode: m}}, machine.Options{}, nil)[0]
	if err := run.Failure(); err != nil {
		t.Fatalf("%s %v: %v", spec.Name, spec.Edits, err)
	}
	return run.Verdict().Positive > 0
}

// checkMinimal checks issue 18's property of every fix reported: it
// works (check of the program its --edit flags make agrees with the
// verdicts reported), and no proper subset of its changes works in the
// mode it is reported for.
func checkMinimal(t *testing.T, r scenarios.FixReport, fixes []scenarios.Fix, modes []machine.Mode) {
	t.Helper()
	for _, f := range fixes {
		again, err := r.Spec.Edited(f.Edits...)
		if err != nil {
			t.Fatalf("%s: %v", scenarios.EditsText(f.Edits), err)
		}
		for j, fm := range r.Modes {
			if !f.Known[j] || reaches(t, again, fm.Mode) != (f.Verdicts[j].Positive > 0) {
				t.Errorf("%s in %s: the verdict reported is not check's", scenarios.EditsText(f.Edits), fm.Mode)
			}
		}
		for _, m := range modes {
			if reaches(t, again, m) {
				t.Errorf("%s does not fix %s in %s mode", scenarios.EditsText(f.Edits), r.Spec.Name, m)
			}
			n := len(f.Changes)
			for mask := 0; mask < 1<<n-1; mask++ {
				var set []scenarios.Edit
				for i := 0; i < n; i++ {
					if mask&(1<<i) != 0 {
						set = append(set, f.Changes[i].Edit)
					}
				}
				sub, _, err := r.Spec.EditSet(set)
				if err != nil {
					t.Fatal(err)
				}
				if !reaches(t, sub, m) {
					t.Errorf("%s: its proper subset %s fixes %s in %s mode too", scenarios.EditsText(f.Edits), scenarios.EditsText(sub.Edits), r.Spec.Name, m)
				}
			}
		}
	}
}

func TestFixMP(t *testing.T) {
	r := fixReport(t, "mp+once")
	if tso := mode(r, machine.TSO); tso.Open() || len(tso.Fixes) > 0 {
		t.Errorf("TSO: nothing to fix, got %v", fixTexts(tso.Fixes))
	}
	arm := mode(r, machine.ARM)
	got := strings.Join(fixTexts(arm.Fixes), " | ")
	// Release/acquire on the flag, wmb/rmb pairs, and the two mixed.
	want := "P0:2=release P1:1=acquire | P0:2=release P1:1+rmb | P0:1+wmb P1:1=acquire | P0:1+wmb P1:1+rmb"
	if got != want || !arm.Complete || arm.NoFix {
		t.Errorf("ARM-like fixes %s (complete %v), want %s", got, arm.Complete, want)
	}
	if arm.Fixes[0].Cost != 2 || arm.Fixes[3].Cost != 4 {
		t.Errorf("costs %d, %d", arm.Fixes[0].Cost, arm.Fixes[3].Cost)
	}
	if len(r.Both) != 0 {
		t.Errorf("only ARM-like mode is open: no both-modes list, got %v", fixTexts(r.Both))
	}
	checkMinimal(t, r, arm.Fixes, []machine.Mode{machine.ARM})
}

// TestFixSB: store buffering needs smp_mb on both sides in TSO, and so
// in both modes; one is not enough.
func TestFixSB(t *testing.T) {
	r := fixReport(t, "sb+once")
	tso := mode(r, machine.TSO)
	if got := fixTexts(tso.Fixes); len(got) != 1 || got[0] != "P0:1+mb P1:1+mb" || !tso.Complete {
		t.Errorf("TSO fixes %v", got)
	}
	if got := fixTexts(r.Both); len(got) != 1 || got[0] != "P0:1+mb P1:1+mb" || !r.BothComplete {
		t.Errorf("fixes of both %v", got)
	}
	for _, one := range []string{"P0:1+mb", "P1:1+mb"} {
		e, _ := scenarios.ParseEdit(one)
		sp, _ := r.Spec.Edited(e)
		if !reaches(t, sp, machine.TSO) {
			t.Errorf("%s alone fixes SB in TSO", one)
		}
	}
	arm := mode(r, machine.ARM)
	checkMinimal(t, r, tso.Fixes, []machine.Mode{machine.TSO})
	checkMinimal(t, r, arm.Fixes, []machine.Mode{machine.ARM})
	checkMinimal(t, r, r.Both, fixModes)
}

// TestFixExt4: whatever the goal's accesses are, the ordering has to sit
// on the flag (the review thread's conclusion): every fix orders the
// flag's store after the goal's and the flag's load before the goal's.
func TestFixExt4(t *testing.T) {
	for _, name := range []string{"ext4-last-group+once", "ext4-last-group+rel-acq", "ext4-last-group+acq-flag"} {
		r := fixReport(t, name)
		arm := mode(r, machine.ARM)
		if !arm.Open() || len(arm.Fixes) == 0 || !arm.Complete {
			t.Errorf("%s: ARM-like fixes %v", name, fixTexts(arm.Fixes))
			continue
		}
		for _, f := range arm.Fixes {
			writer, reader := false, false
			for _, ch := range f.Changes {
				e := ch.Edit
				switch {
				case e.CPU == "P0" && (e.At == 2 && e.Op == scenarios.SetOrder || e.At == 1 && e.Op == scenarios.InsertBarrier):
					writer = true
				case e.CPU == "P1" && (e.At == 1 && e.Op != scenarios.RemoveBarrier):
					reader = true
				default:
					t.Errorf("%s: %s is not on the flag", name, ch.What)
				}
			}
			if name == "ext4-last-group+acq-flag" {
				reader = true // the flag's read is an acquire already
			}
			if !writer || !reader {
				t.Errorf("%s: %s leaves a side of the flag unordered", name, scenarios.EditsText(f.Edits))
			}
		}
		checkMinimal(t, r, arm.Fixes, []machine.Mode{machine.ARM})
	}
}

// TestFixLostWakeUp: the RFC's smp_mb() inside the if never runs in the
// window; the fix of both modes is a full barrier between the counter's
// store and the wait-queue check, as Jan Kara said.
func TestFixLostWakeUp(t *testing.T) {
	r := fixReport(t, "sb-end-write+mb-inside-if")
	if got := fixTexts(r.Both); len(got) != 1 || got[0] != "P0:1+mb" {
		t.Errorf("fixes of both %v", got)
	}
	checkMinimal(t, r, r.Both, fixModes)
	for _, fm := range r.Modes {
		checkMinimal(t, r, fm.Fixes, []machine.Mode{fm.Mode})
	}
}

// TestFixNothingShortOfLocks: when every strengthening at once leaves
// the outcome reachable, the report says so.
func TestFixNothingShortOfLocks(t *testing.T) {
	src := `C two-writers

{}

P0(int *x)
{
	int r0;

	r0 = READ_ONCE(*x);
	WRITE_ONCE(*x, r0 + 1);
}

P1(int *x)
{
	int r0;

	r0 = READ_ONCE(*x);
	WRITE_ONCE(*x, r0 + 1);
}

exists (x=1)
`
	sp, err := scenarios.Resolve("-", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenarios.FixSearch(sp, fixModes, scenarios.FixOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, fm := range r.Modes {
		if !fm.Open() || !fm.NoFix || len(fm.Fixes) != 0 {
			t.Errorf("%s: a lost update is fixed by barriers? %v", fm.Mode, fixTexts(fm.Fixes))
		}
	}
}

// TestFixLimit: a search the exploration limit stops says so, and what
// it found is minimal all the same.
func TestFixLimit(t *testing.T) {
	sp, _ := scenarios.BuiltinSpec("mp+once")
	r, err := scenarios.FixSearch(sp, []machine.Mode{machine.ARM}, scenarios.FixOptions{MaxExplorations: 20})
	if err != nil {
		t.Fatal(err)
	}
	arm := r.Modes[0]
	if arm.Complete || !strings.Contains(arm.Stop, "limit of 20 explorations") || arm.Explorations > 20 {
		t.Errorf("stop %q, complete %v, %d explorations", arm.Stop, arm.Complete, arm.Explorations)
	}
	checkMinimal(t, r, arm.Fixes, []machine.Mode{machine.ARM})
}

var fixHerd = flag.Bool("fix.herd", false, "check every fix of the library's broken tests against herd7 (the long lane); without it, only the fixes of both modes")

// TestFixAgainstHerd checks each fix reported for the library's broken
// tests against herd7's ARMv8 and x86-TSO models on the edited file: a
// fix smpscope reports for a mode must be one there (Never), and its
// TSO verdict must be herd7's. By default only the fixes of both modes
// of SB and the lost wake-up are checked (herd7 takes a while to start);
// -fix.herd checks every fix of every test.
func TestFixAgainstHerd(t *testing.T) {
	if testing.Short() {
		t.Skip("herd7 runs are not short")
	}
	h, err := litmusgen.FindHerd(".")
	if err != nil {
		t.Skip(err)
	}
	herdModel := map[machine.Mode]string{machine.TSO: "tso", machine.ARM: "arm"}
	names := []string{"sb+once", "sb-end-write+mb-inside-if"}
	if *fixHerd {
		names = []string{"mp+once", "sb+once", "ext4-last-group+once", "ext4-last-group+rel-acq", "sb-end-write+mb-inside-if", "mp+wmb-rmb", "iriw+once"}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	ran := 0
	for _, name := range names {
		r := fixReport(t, name)
		seen := map[string]bool{}
		lists := [][]scenarios.Fix{r.Both}
		for _, fm := range r.Modes {
			if *fixHerd {
				lists = append(lists, fm.Fixes)
			}
		}
		for _, list := range lists {
			for _, f := range list {
				key := scenarios.EditsText(f.Edits)
				if seen[key] {
					continue
				}
				seen[key] = true
				src, err := f.Spec.EditedSource(strings.ReplaceAll(name, "+", "_") + "_fixed")
				if err != nil {
					t.Fatal(err)
				}
				for j, fm := range r.Modes {
					wg.Add(1)
					go func() {
						defer wg.Done()
						res := h.Run(context.Background(), herdModel[fm.Mode], name, src)
						mu.Lock()
						defer mu.Unlock()
						ran++
						if !res.Accepted {
							t.Errorf("%s %s: herd7 %s did not accept the edited file: %s", name, key, fm.Mode, res.Error)
							return
						}
						ours := string(f.Verdicts[j].Observation)
						switch {
						case fm.Mode == machine.TSO && res.Observation != ours:
							t.Errorf("%s %s: TSO says %s, herd7's x86-TSO %s", name, key, ours, res.Observation)
						case ours == "Never" && res.Observation != "Never":
							t.Errorf("%s %s: smpscope's %s fix is no fix on herd7's %s model (%s)", name, key, fm.Mode, herdModel[fm.Mode], res.Observation)
						}
					}()
				}
			}
		}
	}
	wg.Wait()
	t.Logf("%d herd7 runs", ran)
}

// TestSavedEditsHerd: the file S saves (the original's comment kept,
// Result dropped, the provenance added) is a litmus test herd7 reads.
func TestSavedEditsHerd(t *testing.T) {
	if testing.Short() {
		t.Skip("herd7 runs are not short")
	}
	h, err := litmusgen.FindHerd(".")
	if err != nil {
		t.Skip(err)
	}
	for _, text := range scenarios.SavedEdits(t) {
		if res := h.Run(context.Background(), "lkmm", "saved", text); !res.Accepted {
			t.Errorf("herd7 does not accept the saved test: %s\n%s", res.Error, text)
		}
	}
}

// TestFixNamesMailLines: a fix of a test found in a mail names the
// mail's lines.
func TestFixNamesMailLines(t *testing.T) {
	mail, err := os.ReadFile(filepath.Join("testdata", "mail", "two-tests.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := scenarios.Resolve("-#sb-mail", strings.NewReader(string(mail)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenarios.FixSearch(sp, []machine.Mode{machine.TSO}, scenarios.FixOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := r.Modes[0].Fixes
	if len(f) != 1 || f[0].Changes[0].What != "smp_mb() after WRITE_ONCE(*x, 1) (P0:1, line 13 of the mail)" {
		t.Errorf("fixes %+v", f)
	}
}
