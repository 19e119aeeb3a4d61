package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/model"
	"smpscope/scenarios"
)

func TestUIPresentOptions(t *testing.T) {
	o := uiOptions{mode: "arm", seed: 1, present: true, every: 2 * time.Second}
	opts, err := uiModelOptions([]string{"mp+once"}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing is searched before the UI shows (issue 11, item 9): the
	// model presents the witness its background exploration finds.
	if !opts.Present || opts.Every != 2*time.Second || opts.Mode != machine.ARM || len(opts.History) != 0 {
		t.Fatalf("present %v every %v mode %v history %d", opts.Present, opts.Every, opts.Mode, len(opts.History))
	}
	mm := model.Start(opts, 140, 45)
	if len(mm.History()) != 0 {
		t.Errorf("presentation opens at step %d", len(mm.History()))
	}
	for range 50 {
		mm = model.Drive(mm, tea.KeyMsg{Type: tea.KeyRight})
	}
	// The history is the witness: it ends in the outcome the clause asks about.
	ex, err := scenarios.NewExecution(opts.Scenario, machine.ARM, mm.History(), "")
	if err != nil {
		t.Fatal(err)
	}
	if last := ex.Last(); len(ex.Steps) == 0 || !ex.Mach.Final(last) || !opts.Scenario.Asked(ex.Mach.Outcome(last)) {
		t.Error("the presented history is not a witness")
	}

	// Unreachable: the UI finds the closest attempt in the background,
	// presents it, and says how far it got at its end.
	opts, err = uiModelOptions([]string{"mp+wmb-rmb"}, o, nil)
	if err != nil {
		t.Fatalf("unreachable: %v", err)
	}
	mm = model.Start(opts, 100, 30)
	for range 50 {
		mm = model.Drive(mm, tea.KeyMsg{Type: tea.KeyRight})
	}
	if v := mm.View(); len(mm.History()) == 0 || !strings.Contains(v, "as far as it gets") || !strings.Contains(strings.Join(strings.Fields(v), " "), "This is as far as it") {
		t.Errorf("the end of the attempt:\n%s", v)
	}
	// No scenario, or a bad pace: usage errors.
	if _, err := uiModelOptions(nil, o, nil); err == nil || err.(*exitError).code != 2 {
		t.Errorf("no scenario: %v", err)
	}
	o.every = 0
	if _, err := uiModelOptions([]string{"mp+once"}, o, nil); err == nil || err.(*exitError).code != 2 {
		t.Errorf("--every 0: %v", err)
	}
}

func TestUIPresentReplayAndFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "mine.litmus")
	show, _, _ := runCmd(t, "show", "sb+once")
	if err := os.WriteFile(src, []byte(strings.Replace(show, "C sb+once", "C mine", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "sb.trace")
	if _, errs, code := runCmd(t, "trace", src, "--mode", "tso", "--save", trace, "--out", filepath.Join(dir, "sb.txt")); code != 0 {
		t.Fatalf("trace --save: %s", errs)
	}
	o := uiOptions{mode: "arm", seed: 1, present: true, every: time.Second, replay: trace}
	opts, err := uiModelOptions(nil, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Mode != machine.TSO || len(opts.History) == 0 || !opts.Present {
		t.Errorf("replay: mode %v, %d steps", opts.Mode, len(opts.History))
	}
	// A scenario read from a file remembers it (for the traces e writes).
	if opts.Scenario.File == "" || !strings.HasSuffix(opts.Scenario.File, "mine.litmus") {
		t.Errorf("File %q", opts.Scenario.File)
	}
	o = uiOptions{mode: "tso", seed: 1, every: time.Second}
	if opts, err = uiModelOptions([]string{"sb+once"}, o, nil); err != nil || opts.Scenario.File != "" || opts.Present {
		t.Errorf("built-in: File %q, present %v, %v", opts.Scenario.File, opts.Present, err)
	}
	// Not a terminal: the root command still checks the scenario and
	// --present (the witness is the UI's to search for).
	if _, errs, code := runCmd(t, "mp+wmb-rmb", "--present", "--mode", "arm"); code != 0 {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, errs, code := runCmd(t, "no-such+scenario", "--present"); code != 2 || !strings.Contains(errs, "no built-in scenario") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, errs, code := runCmd(t, "--every", "2s"); code != 2 || !strings.Contains(errs, "--present needs a scenario") {
		t.Errorf("--every alone: exit %d, stderr %q", code, errs)
	}
}

// TestRandomIsTheUISeed: trace --random N and the UI opened with --seed N,
// then g, take the same execution (one random stream), in both modes and
// for several seeds.
func TestRandomIsTheUISeed(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"iriw+once", "rcu-free+sync"} {
		for _, mode := range []string{"tso", "arm"} {
			for _, seed := range []string{"1", "7", "42"} {
				file := filepath.Join(dir, name+mode+seed+".trace")
				if _, errs, code := runCmd(t, "trace", name, "--mode", mode, "--random", seed, "--save", file, "--out", filepath.Join(dir, "out.txt"), "--force"); code != 0 {
					t.Fatalf("trace --random: %s", errs)
				}
				want, err := scenarios.ReplayTraceFile(file, "", nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				s, _ := strconv.ParseUint(seed, 10, 64)
				opts, err := uiModelOptions([]string{name}, uiOptions{mode: mode, seed: s, every: time.Second}, nil)
				if err != nil {
					t.Fatal(err)
				}
				m := model.Drive(model.Start(opts, 120, 40), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")})
				got := m.History()
				if len(got) == 0 || len(got) != len(want.Steps) {
					t.Fatalf("%s %s seed %s: the UI took %d steps, trace --random %d", name, mode, seed, len(got), len(want.Steps))
				}
				for i := range got {
					if got[i] != want.Steps[i] {
						t.Fatalf("%s %s seed %s: step %d differs: %s vs %s", name, mode, seed, i+1, m.Machine().ID(got[i]), want.Mach.ID(want.Steps[i]))
					}
				}
			}
		}
	}
}

// TestOneDefaultMode: the UI, trace and record start in the same mode
// when --mode is not given: scenarios.DefaultMode, ARM-like.
func TestOneDefaultMode(t *testing.T) {
	if scenarios.DefaultMode != machine.ARM {
		t.Fatalf("DefaultMode is %v", scenarios.DefaultMode)
	}
	root := newRootCmd(nil, nil, nil)
	for _, c := range [][]string{{}, {"trace"}, {"record"}} {
		cmd, _, err := root.Find(c)
		if err != nil {
			t.Fatal(err)
		}
		if f := cmd.Flags().Lookup("mode"); f == nil || f.DefValue != "arm" {
			t.Errorf("smpscope %v: --mode defaults to %v, want arm", c, f)
		}
	}
	out, _, code := runCmd(t, "trace", "mp+once")
	if code != 0 || !strings.Contains(out, "mp+once (once), ARM-like mode") {
		t.Errorf("trace without --mode: exit %d\n%s", code, out)
	}
}
