package model

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"smpscope/machine"
)

// End-to-end flows through a real tea.Program (teatest). They assert on
// the settled final model, not on the frame stream. Their waits are hang
// guards: each returns as soon as the screen shows what it waits for.

// hangGuard bounds a wait only a hang would reach: generous, so that a
// slow machine (two busy cores, -race) never trips it.
const hangGuard = time.Minute

func TestFlowWitness(t *testing.T) {
	tm := teatest.NewTestModel(t, New(testOptions(mpScenario("plain"), machine.ARM)), teatest.WithInitialTermSize(80, 24))
	// The background exploration finishes and the outcomes appear.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("states")) },
		teatest.WithDuration(hangGuard), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(keyMsg("w"))
	tm.Send(keyMsg("right"))
	tm.Send(keyMsg("right"))
	tm.Send(keyMsg("right"))
	tm.Send(keyMsg("left"))
	tm.Send(tea.WindowSizeMsg{Width: 140, Height: 45})
	tm.Send(keyMsg("q"))
	m := tm.FinalModel(t, teatest.WithFinalTimeout(hangGuard)).(Model)
	if m.scen.sess.cursor != 2 || m.scen.sess.loaded < 0 {
		t.Fatalf("after w → → → ←: cursor %d, loaded %d", m.scen.sess.cursor, m.scen.sess.loaded)
	}
	v := m.View()
	checkSize(t, v, 140, 45)
	for _, want := range []string{"step 2 of", "ARM-like", "→ replays", "▶ 1:r0=1 1:r1=0"} {
		if !strings.Contains(v, want) {
			t.Errorf("final view lacks %q:\n%s", want, v)
		}
	}
}

// g after w runs the loaded witness to its end, where the condition
// holds, rather than random steps that drop it.
func TestFlowWitnessThenRun(t *testing.T) {
	tm := teatest.NewTestModel(t, New(testOptions(mpScenario("plain"), machine.ARM)), teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("states")) },
		teatest.WithDuration(hangGuard), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(keyMsg("w"))
	tm.Send(keyMsg("right"))
	tm.Send(keyMsg("g"))
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	m := tm.FinalModel(t, teatest.WithFinalTimeout(hangGuard)).(Model)
	sess := m.scen.sess
	if sess.loaded < 0 || sess.cursor != len(sess.steps) {
		t.Fatalf("after w → g: cursor %d of %d, loaded %d", sess.cursor, len(sess.steps), sess.loaded)
	}
	if !m.Machine().Final(m.State()) {
		t.Fatal("g did not end in a final state")
	}
	v := m.View()
	for _, want := range []string{"replayed 6 steps ahead: final", "the condition holds"} {
		if !strings.Contains(v, want) {
			t.Errorf("final view lacks %q:\n%s", want, v)
		}
	}
}

func TestFlowPickerVariantMode(t *testing.T) {
	opts := Options{Library: testLibrary, Load: testLoad, Seed: 3, Explore: &machine.Options{MaxStates: 20000}}
	tm := teatest.NewTestModel(t, New(opts), teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("families")) },
		teatest.WithDuration(hangGuard), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(keyMsg("enter")) // open MP+plain in TSO
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("variant plain")) },
		teatest.WithDuration(hangGuard), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(keyMsg(" "))
	tm.Send(keyMsg(" "))
	tm.Send(keyMsg("m")) // replays the two steps in ARM-like mode
	tm.Send(keyMsg("v")) // next variant, still ARM-like
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("variant wmb+rmb")) },
		teatest.WithDuration(hangGuard), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(keyMsg("g"))
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	m := tm.FinalModel(t, teatest.WithFinalTimeout(hangGuard)).(Model)
	if m.Scenario().Name != "MP+wmb+rmb" || m.Mode() != machine.ARM {
		t.Fatalf("ended on %s in %v", m.Scenario().Name, m.Mode())
	}
	if !m.Machine().Final(m.State()) {
		t.Error("g did not run to a final state")
	}
	if !strings.Contains(m.View(), "■ final") {
		t.Errorf("final view:\n%s", m.View())
	}
}

// g stops at the first final state: invalidations still queued there are
// not applied one by one afterwards.
func TestRunStopsAtFirstFinalState(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		var m tea.Model = New(Options{Scenario: mpScenario("plain"), Mode: machine.ARM, Seed: seed, Explore: &machine.Options{MaxStates: 1000}})
		m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m, _ = m.Update(keyMsg("g"))
		got := m.(Model)
		mach, hist := got.Machine(), got.History()
		states, _, err := mach.Replay(hist)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range states {
			if mach.Final(s) != (i == len(states)-1) {
				t.Fatalf("seed %d: state %d of %d final=%v", seed, i, len(states)-1, mach.Final(s))
			}
		}
	}
}
