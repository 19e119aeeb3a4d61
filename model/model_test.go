package model

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

// checkSize fails unless the view is exactly w×h cells.
func checkSize(t testing.TB, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, view)
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw != w {
			t.Fatalf("line %d is %d cells wide, want %d:\n%q\n%s", i, lw, w, l, view)
		}
	}
}

// take presses the number of the enabled step with the given ID.
func take(t testing.TB, m Model, ids ...string) Model {
	t.Helper()
	for _, id := range ids {
		i := -1
		for j, st := range m.scen.sess.enabled {
			if m.scen.sess.mach().ID(st) == id {
				i = j
			}
		}
		if i < 0 {
			var have []string
			for _, st := range m.scen.sess.enabled {
				have = append(have, m.scen.sess.mach().ID(st))
			}
			t.Fatalf("step %q is not enabled; enabled: %v", id, have)
		}
		// Typed as a person does, without pausing between digits; enter
		// when the UI would wait for another digit.
		digits, enter := StepKeys(i, len(m.scen.sess.enabled))
		for _, d := range digits {
			m, _ = m.update(keyMsg(string(d)))
		}
		if enter {
			m = Drive(m, keyMsg("enter"))
		}
	}
	return m
}

func TestPicker(t *testing.T) {
	m := Start(Options{Library: testLibrary, Load: testLoad, Seed: 1, Explore: &machine.Options{MaxStates: 20000}}, 80, 24)
	checkSize(t, m.View(), 80, 24)
	requireScreen(t, m)

	// → picks the next variant of the selected family; enter opens it.
	m = Drive(m, keys("right", "enter")...)
	if m.screen != screenScenario || m.Scenario().Name != "MP+wmb+rmb" {
		t.Fatalf("opened %v, want MP+wmb+rmb", m.Scenario())
	}
	// esc goes back to the picker, with the scenario's row selected.
	m = Drive(m, keys("esc")...)
	if m.screen != screenPicker {
		t.Fatal("esc did not return to the picker")
	}
	if e, _ := m.picker.selected(); e.Name != "MP+wmb+rmb" {
		t.Errorf("picker selects %s after esc, want MP+wmb+rmb", e.Name)
	}
}

func TestPickerFilter(t *testing.T) {
	m := Start(Options{Library: testLibrary, Load: testLoad, Seed: 1, Explore: &machine.Options{MaxStates: 20000}}, 80, 24)
	m = Drive(m, keys("/", "b", "i", "g", "enter", "enter")...)
	if m.Scenario() == nil || m.Scenario().Name != "big4x10" {
		t.Fatalf("filtering for big opened %v", m.Scenario())
	}
}

func TestScenarioScreen(t *testing.T) {
	for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
		for _, sz := range [][2]int{{80, 24}, {140, 45}} {
			t.Run(fmt.Sprintf("%s_%dx%d", mode, sz[0], sz[1]), func(t *testing.T) {
				m := Start(testOptions(mpScenario("plain"), mode), sz[0], sz[1])
				if m.exploring() || m.explored() == nil {
					t.Fatal("exploration did not finish")
				}
				checkSize(t, m.View(), sz[0], sz[1])
				requireScreen(t, m)
			})
		}
	}
}

func TestStaleRead(t *testing.T) {
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(testOptions(mpScenario("plain"), machine.ARM), w, h)
		// P0 commits x=1: P1's copy of x stays readable, its invalidation
		// queued; P1 reads y, then reads x from the stale copy.
		m = take(t, m, "P0 exec", "P0 commit #0", "P1 exec", "P1 exec")
		ev := m.scen.sess.events[m.scen.sess.cursor-1]
		if ev.Load == nil || ev.Load.Class != machine.Stale {
			t.Fatalf("last event is not a stale read: %+v", ev)
		}
		v := m.View()
		for _, want := range []string{"STALE READ", "x S=0 STALE", "x@2"} {
			if w >= 120 && want == "x@2" {
				want = "x  queued at step 2"
			}
			if w >= 120 && want == "x S=0 STALE" {
				want = "x  S  0 STALE"
			}
			if !strings.Contains(v, want) {
				t.Errorf("view lacks %q:\n%s", want, v)
			}
		}
		checkSize(t, v, w, h)
		requireScreen(t, m)
	})
}

func TestWitnessReplay(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 80, 24)
	m = Drive(m, keys("w")...)
	wit := m.scen.sess.steps
	if len(wit) == 0 || m.scen.sess.cursor != 0 || m.scen.sess.loaded < 0 {
		t.Fatalf("w did not load a witness: %d steps, cursor %d", len(wit), m.scen.sess.cursor)
	}
	m = Drive(m, keys("right", "right", "right")...)
	if m.scen.sess.cursor != 3 || len(m.scen.sess.steps) != len(wit) {
		t.Fatalf("→ did not replay the witness: cursor %d, %d steps", m.scen.sess.cursor, len(m.scen.sess.steps))
	}
	requireScreen(t, m)
	// Replaying to the end reaches the outcome the condition asks about.
	for range wit {
		m = Drive(m, keys("right")...)
	}
	mach := m.Machine()
	if !mach.Final(m.State()) || !m.Scenario().Satisfies(mach.Outcome(m.State())) {
		t.Fatal("the witness does not end in an outcome satisfying the condition")
	}
	// Taking a step the witness also takes keeps the rest of it.
	m = Drive(m, keys("r", "w", "right")...)
	next := m.scen.sess.steps[1]
	for i, st := range m.scen.sess.enabled {
		if st == next {
			m = Drive(m, keyMsg(fmt.Sprint(i+1)))
		}
	}
	if len(m.scen.sess.steps) != len(wit) || m.scen.sess.cursor != 2 {
		t.Errorf("taking the witness's own next step dropped the rest: %d steps, cursor %d", len(m.scen.sess.steps), m.scen.sess.cursor)
	}
}

// TestWitnessNever: w on an unreachable outcome loads the closest
// attempt, which → replays to its conclusion.
func TestWitnessNever(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.TSO), 80, 24)
	m = Drive(m, keys("w")...)
	if len(m.scen.sess.steps) == 0 || m.scen.sess.cursor != 0 || m.scen.currentAttempt() == nil ||
		!strings.Contains(m.scen.notice, "unreachable in TSO mode: the closest attempt is loaded") {
		t.Fatalf("w in TSO: %d steps, notice %q", len(m.scen.sess.steps), m.scen.notice)
	}
	for range m.scen.sess.steps {
		m = Drive(m, keys("right")...)
	}
	if v := strings.Join(strings.Fields(strings.ReplaceAll(m.View(), "│", " ")), " "); !strings.Contains(v, "This is as far as it gets") {
		t.Errorf("the end of the attempt:\n%s", m.View())
	}
	// Known now: w again loads it at once.
	m = Drive(m, keys("r", "w")...)
	if m.scen.currentAttempt() == nil || m.scen.sess.cursor != 0 {
		t.Errorf("w again: attempt %v", m.scen.currentAttempt())
	}
}

func TestHelpScreen(t *testing.T) {
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(testOptions(mpScenario("plain"), machine.ARM), w, h)
		m = Drive(m, keys("?")...)
		if m.page() != views.PageHelp {
			t.Fatal("? did not open the help")
		}
		checkSize(t, m.View(), w, h)
		requireScreen(t, m)
		m = Drive(m, keys("?")...)
		if m.page() != views.PagePanes {
			t.Fatal("? did not close the help")
		}
	})
}

func TestStory(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 80, 24)
	m = Drive(m, keys("s")...)
	checkSize(t, m.View(), 80, 24)
	requireScreen(t, m)
	m = Drive(m, keys("esc")...)
	if m.page() != views.PagePanes || m.screen != screenScenario {
		t.Fatal("esc did not close the story")
	}
}

func TestTooSmall(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 50, 15)
	v := m.View()
	if !strings.Contains(v, "need ≥ 60x20, have 50x15") {
		t.Errorf("too-small view: %q", v)
	}
	checkSize(t, v, 50, 15)
	requireScreen(t, m)
	// Growing the window brings the screen back.
	m = Drive(m, size(80, 24))
	if strings.Contains(m.View(), "too small") {
		t.Error("still too small at 80x24")
	}
}

func TestUndoRedo(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 80, 24)
	init := m.State()
	m = take(t, m, "P0 exec", "P0 exec", "P0 commit #1", "P1 exec")
	after := m.State()
	m = Drive(m, keys("left", "left", "left", "left", "left")...)
	if !m.State().Equal(init) || m.scen.sess.cursor != 0 {
		t.Fatal("undo to step 0 does not give the initial state")
	}
	if !strings.Contains(m.scen.notice, "initial state") {
		t.Errorf("← at step 0: notice %q", m.scen.notice)
	}
	m = Drive(m, keys("right", "right", "right", "right", "right")...)
	if !m.State().Equal(after) || m.scen.sess.cursor != 4 {
		t.Fatal("redo does not return to the state after four steps")
	}
	// Taking a different step from the middle drops the future.
	m = Drive(m, keys("left", "left")...)
	m = take(t, m, "P1 exec")
	if len(m.scen.sess.steps) != 3 {
		t.Errorf("history after diverging has %d steps, want 3", len(m.scen.sess.steps))
	}
	// History travel: select entry 1 and press enter.
	m = Drive(m, keys("tab", "tab", "tab")...)
	if m.scen.focus != views.PaneHistory {
		t.Fatalf("focus is %v, want history", m.scen.focus)
	}
	m = Drive(m, keys("up", "up", "enter")...)
	if m.scen.sess.cursor != 1 {
		t.Errorf("history travel: cursor %d, want 1", m.scen.sess.cursor)
	}
	// r resets.
	m = Drive(m, keys("r")...)
	if len(m.scen.sess.steps) != 0 || !m.State().Equal(init) {
		t.Error("r did not reset")
	}
}

func TestModeSwitch(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 80, 24)
	m = take(t, m, "P0 exec", "P1 exec")
	m = Drive(m, keys("m")...)
	if m.Mode() != machine.TSO || m.scen.sess.cursor != 2 {
		t.Fatalf("m: mode %v, cursor %d; want TSO with the 2 steps replayed", m.Mode(), m.scen.sess.cursor)
	}
	if m.explored() == nil {
		t.Error("switching mode did not explore the new mode")
	}
	m = Drive(m, keys("m")...)
	// An ARM-only step (out-of-order commit) cannot replay in TSO: the
	// steps before it are kept, and a second m restores the ARM-like
	// history as it was.
	m = take(t, m, "P0 exec", "P0 commit #1", "P1 exec")
	orig := m.History()
	m = Drive(m, keys("m")...)
	if m.Mode() != machine.TSO || m.scen.sess.cursor != 3 || len(m.scen.sess.steps) != 3 {
		t.Fatalf("m with an ARM-only step: mode %v, cursor %d of %d; want the 3 steps before it", m.Mode(), m.scen.sess.cursor, len(m.scen.sess.steps))
	}
	if want := "TSO mode: kept 3 of 5 steps; m again restores them"; m.scen.notice != want {
		t.Errorf("notice %q, want %q", m.scen.notice, want)
	}
	m = Drive(m, keys("m")...)
	if m.Mode() != machine.ARM || !slices.Equal(m.History(), orig) || !strings.Contains(m.scen.notice, "ARM-like mode: its whole history is back (5 steps)") {
		t.Fatalf("second m: mode %v, history %v (want %v), notice %q", m.Mode(), m.History(), orig, m.scen.notice)
	}

	// Once a step is taken after the switch, the cut history is gone:
	// m replays what there is now.
	m = Drive(m, keys("m")...)
	m = Drive(m, keys("left")...)
	m = take(t, m, "P1 exec")
	m = Drive(m, keys("m")...)
	if m.Mode() != machine.ARM || len(m.History()) != 3 || !strings.Contains(m.scen.notice, "history replayed (3 steps)") {
		t.Fatalf("m after a new step: mode %v, %d steps, notice %q", m.Mode(), len(m.History()), m.scen.notice)
	}

	// Steps ahead of the cursor that are not possible are cut, the
	// cursor stays, and m restores them.
	m = Drive(m, keys("r")...)
	m = take(t, m, "P0 exec", "P0 exec", "P0 commit #1", "P0 commit #0")
	m = Drive(m, keys("left", "left", "left")...)
	m = Drive(m, keys("m")...)
	if m.Mode() != machine.TSO || m.scen.sess.cursor != 1 || len(m.scen.sess.steps) != 2 || !strings.Contains(m.scen.notice, "steps ahead from 3 are not possible here") {
		t.Fatalf("m with ARM-only steps ahead: cursor %d of %d, notice %q", m.scen.sess.cursor, len(m.scen.sess.steps), m.scen.notice)
	}
	m = Drive(m, keys("m")...)
	if m.Mode() != machine.ARM || m.scen.sess.cursor != 1 || len(m.scen.sess.steps) != 4 {
		t.Fatalf("m back: cursor %d of %d", m.scen.sess.cursor, len(m.scen.sess.steps))
	}
}

func TestVariant(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 80, 24)
	m = Drive(m, keys("tab")...)
	m = Drive(m, keys("v")...)
	if m.Scenario().Name != "MP+wmb+rmb" || m.Mode() != machine.ARM || m.scen.focus != views.PaneCPUs {
		t.Fatalf("v: %s in %v, focus %v", m.Scenario().Name, m.Mode(), m.scen.focus)
	}
	m = Drive(m, keys("v", "v")...)
	if m.Scenario().Name != "MP+plain" {
		t.Errorf("v wraps to %s, want MP+plain", m.Scenario().Name)
	}
	if !strings.Contains(m.View(), "variant plain 1/3") {
		t.Error("header does not show the variant")
	}
}

// wideScenario has eight CPUs with two stores each, so that ten or more
// steps are enabled at once.
func wideScenario() *scenarios.Spec {
	b := machine.NewBuilder("wide8")
	for c := 0; c < 8; c++ {
		x := b.Loc(fmt.Sprintf("x%d", c), 0)
		y := b.Loc(fmt.Sprintf("y%d", c), 0)
		t := b.Thread()
		t.StoreConst(machine.Once, x, 1)
		t.StoreConst(machine.Once, y, 1)
	}
	return &scenarios.Spec{Name: "wide8", Program: b.Program()}
}

func TestDigits(t *testing.T) {
	m := Start(testOptions(wideScenario(), machine.ARM), 140, 45)
	m = take(t, m, "P0 exec", "P1 exec", "P2 exec", "P3 exec") // 8 execs and 4 commits
	n := len(m.scen.sess.enabled)
	if n < 10 {
		t.Fatalf("%d steps enabled, want ≥ 10", n)
	}
	// "1" could begin "10": it waits.
	m2, cmd := m.update(keyMsg("1"))
	if m2.scen.sess.cursor != m.scen.sess.cursor || m2.scen.digits != "1" || cmd == nil {
		t.Fatal("1 with ≥ 10 steps did not wait for a second digit")
	}
	if !strings.Contains(m2.View(), "take 1_") {
		t.Error("the pending number is not shown")
	}
	// A second digit completes it.
	last := fmt.Sprint(n)
	m3, _ := m.update(keyMsg(last[:1]))
	m3 = Drive(m3, keyMsg(last[1:]))
	if m3.scen.sess.cursor != m.scen.sess.cursor+1 || m3.scen.sess.steps[m.scen.sess.cursor] != m.scen.sess.enabled[n-1] {
		t.Fatalf("%s did not take step %d", last, n)
	}
	// Enter takes a pending number at once; so does the pause.
	m4 := Drive(m2, keyMsg("enter"))
	if m4.scen.sess.cursor != m.scen.sess.cursor+1 || m4.scen.sess.steps[m.scen.sess.cursor] != m.scen.sess.enabled[0] {
		t.Error("1 enter did not take step 1")
	}
	m5 := Drive(m2, digitTimeoutMsg{seq: m2.scen.digitSeq})
	if m5.scen.sess.cursor != m.scen.sess.cursor+1 || m5.scen.sess.steps[m.scen.sess.cursor] != m.scen.sess.enabled[0] {
		t.Error("1 and a pause did not take step 1")
	}
	// An old timeout does nothing; another key abandons the number.
	if m6 := Drive(m2, digitTimeoutMsg{seq: m2.scen.digitSeq - 1}); m6.scen.sess.cursor != m.scen.sess.cursor {
		t.Error("an old timeout took a step")
	}
	if m7 := Drive(m2, keyMsg("tab")); m7.scen.digits != "" || m7.scen.sess.cursor != m.scen.sess.cursor {
		t.Error("tab did not abandon the number")
	}
	// A number past the end is refused with a notice.
	m8, _ := m2.update(keyMsg("9"))
	if m8.scen.sess.cursor != m.scen.sess.cursor || !strings.Contains(m8.scen.notice, "no step 19") {
		t.Errorf("19: cursor %d, notice %q", m8.scen.sess.cursor, m8.scen.notice)
	}
	// With fewer than ten steps a digit acts at once.
	m9 := Start(testOptions(mpScenario("plain"), machine.ARM), 80, 24)
	if m9, _ = m9.update(keyMsg("2")); m9.scen.sess.cursor != 1 {
		t.Error("2 with two steps did not act at once")
	}
}

func TestMouse(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 80, 24)
	r, ok := m.layout()
	if !ok {
		t.Fatal("no layout")
	}
	steps := r.Panes[views.PaneSteps]
	want := m.scen.sess.enabled[1]
	m = Drive(m, tea.MouseMsg{X: steps.X + 5, Y: steps.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.scen.sess.cursor != 1 || m.scen.sess.steps[0] != want {
		t.Fatalf("clicking step 2 took %v", m.scen.sess.steps)
	}
	// Click the CPUs pane: it gets the focus; the wheel scrolls it.
	cpus := r.Panes[views.PaneCPUs]
	m = Drive(m, tea.MouseMsg{X: cpus.X + 3, Y: cpus.Y + 3, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.scen.focus != views.PaneCPUs {
		t.Errorf("focus %v after clicking the CPUs", m.scen.focus)
	}
	// Click an outcome: its witness loads.
	m = Drive(m, keys("r")...)
	side := r.Panes[views.PaneOutcomes]
	m = Drive(m, tea.MouseMsg{X: side.X + 4, Y: side.Y + 1 + m.scen.frame.OutcomeHeadLines(), Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.scen.sess.loaded != 0 || len(m.scen.sess.steps) == 0 {
		t.Errorf("clicking the first outcome: loaded %d, %d steps", m.scen.sess.loaded, len(m.scen.sess.steps))
	}
	m = Drive(m, tea.MouseMsg{X: side.X + 4, Y: side.Y + 3, Button: tea.MouseButtonWheelDown})
}

var randomKeys = flag.Int("keys.n", 250, "TestRandomKeys: random keys, clicks and resizes per scenario and mode (a fifth with -short; .ci/run's long lane: 3000)")

// TestRandomKeys feeds thousands of random keys, clicks and resizes and
// checks after each that the screen shows exactly the state that replaying
// its recorded history gives.
func TestRandomKeys(t *testing.T) {
	pool := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "left", "right", "left", "right", " ", " ",
		"g", "r", "m", "w", "tab", "shift+tab", "up", "down", "pgup", "pgdown", "h", "l", "enter", "?", "s", "esc", "v", "q", "/", "x",
		"c", "n", "e", "y", "p"}
	n := *randomKeys
	if testing.Short() {
		n /= 5
	}
	type run struct {
		sc      func() *scenarios.Spec
		present bool
	}
	for _, rn := range []run{{func() *scenarios.Spec { return mpScenario("wmb+rmb") }, false}, {bigScenario, false}, {func() *scenarios.Spec { return mpScenario("plain") }, true}} {
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			sc := rn.sc()
			name := sc.Name
			if rn.present {
				name += "_present"
			}
			t.Run(fmt.Sprintf("%s_%s", name, mode), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(7, uint64(mode)))
				opts := testOptions(sc, mode)
				opts.TraceDir, opts.Clipboard = t.TempDir(), io.Discard
				if rn.present {
					opts.History, opts.Present, opts.tick = witness(t, sc, machine.ARM), true, instantTick
				}
				m := Start(opts, 80, 24)
				for i := 0; i < n; i++ {
					var msg tea.Msg
					switch r := rng.IntN(100); {
					case r < 2 && rn.present:
						msg = presentTickMsg{seq: m.scen.present.seq}
					case r < 4:
						msg = size(40+rng.IntN(160), 10+rng.IntN(50))
					case r < 10:
						btn := []tea.MouseButton{tea.MouseButtonLeft, tea.MouseButtonWheelUp, tea.MouseButtonWheelDown}[rng.IntN(3)]
						msg = tea.MouseMsg{X: rng.IntN(max(m.width, 1)), Y: rng.IntN(max(m.height, 1)), Action: tea.MouseActionPress, Button: btn}
					default:
						msg = keyMsg(pool[rng.IntN(len(pool))])
					}
					m = Drive(m, msg)
					if i%7 == 0 {
						checkSize(t, m.View(), m.width, m.height)
					}
					if !m.open {
						continue
					}
					states, _, err := m.Machine().Replay(m.History())
					if err != nil {
						t.Fatalf("after %d messages the history does not replay: %v", i, err)
					}
					if !states[len(states)-1].Equal(m.State()) {
						t.Fatalf("after %d messages the state shown differs from replaying the history", i)
					}
				}
				// Back to the scenario screen (esc leaves a filter, then the
				// picker; closes a page), then undo to step 0.
				for i := 0; m.screen != screenScenario || m.page() != views.PagePanes; i++ {
					if i > 5 {
						t.Fatalf("cannot get back to the scenario screen (screen %d, page %d)", m.screen, m.page())
					}
					m = Drive(m, keys("esc")...)
				}
				for m.scen.sess.cursor > 0 {
					c := m.scen.sess.cursor
					m = Drive(m, keys("left")...)
					if m.scen.sess.cursor != c-1 {
						t.Fatalf("← moved the cursor from %d to %d", c, m.scen.sess.cursor)
					}
				}
				if !m.State().Equal(m.Machine().Initial()) {
					t.Fatal("undo back to step 0 does not give the initial state")
				}
			})
		}
	}
}

func TestNoScenario(t *testing.T) {
	// No library and no scenario: an empty picker that still quits.
	m := Start(Options{}, 80, 24)
	checkSize(t, m.View(), 80, 24)
	_, cmd := m.update(keyMsg("q"))
	if cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit the empty picker")
	}
}

func TestHistoryOption(t *testing.T) {
	sc := mpScenario("plain")
	mach := machine.MustNew(sc.Program, machine.ARM)
	var steps []machine.Step
	s := mach.Initial()
	for i := 0; i < 3; i++ {
		st := mach.Enabled(s)[0]
		s, _, _ = mach.Apply(s, st)
		steps = append(steps, st)
	}
	opts := testOptions(sc, machine.ARM)
	opts.History = steps
	m := Start(opts, 80, 24)
	if m.scen.sess.cursor != 3 || !m.State().Equal(s) {
		t.Fatalf("Options.History: cursor %d", m.scen.sess.cursor)
	}
}

func TestKeyBurst(t *testing.T) {
	// "12" read from the terminal in one go arrives as one KeyMsg.
	m := Start(testOptions(wideScenario(), machine.ARM), 140, 45)
	m = take(t, m, "P0 exec", "P1 exec", "P2 exec", "P3 exec")
	want := m.scen.sess.enabled[11]
	m = Drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("12")})
	if m.scen.sess.cursor != 5 || m.scen.sess.steps[4] != want {
		t.Fatalf("burst 12: cursor %d", m.scen.sess.cursor)
	}
	m = Drive(m, size(80, 24), keyMsg("?"), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjj")})
	if m.scen.pageV.offset() != 3 {
		t.Errorf("burst jjj scrolled the help to %d, want 3", m.scen.pageV.offset())
	}
}

func TestMouseWide(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 140, 45)
	m = take(t, m, "P0 exec", "P0 exec", "P1 exec")
	r, _ := m.layout()
	if r.Tabbed {
		t.Fatal("140 columns should give history its own box")
	}
	hist := r.Panes[views.PaneHistory]
	// Row 1 of the history is entry 1 (entry 0 is the initial state).
	m = Drive(m, tea.MouseMsg{X: hist.X + 3, Y: hist.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.scen.sess.cursor != 1 || m.scen.focus != views.PaneHistory {
		t.Fatalf("clicking history entry 1: cursor %d, focus %v", m.scen.sess.cursor, m.scen.focus)
	}
	// A release or a motion event does nothing.
	m = Drive(m, tea.MouseMsg{X: hist.X + 3, Y: hist.Y + 4, Action: tea.MouseActionRelease, Button: tea.MouseButtonLeft})
	if m.scen.sess.cursor != 1 {
		t.Error("a mouse release acted")
	}
	// esc → picker → esc returns to the same session.
	m = Drive(m, keys("esc", "esc")...)
	if m.screen != screenScenario || m.scen.sess.cursor != 1 {
		t.Errorf("esc esc: screen %d, cursor %d", m.screen, m.scen.sess.cursor)
	}
}

func TestPickerFilterOutOfOrder(t *testing.T) {
	m := Start(Options{Library: testLibrary, Load: testLoad, Explore: &machine.Options{MaxStates: 20000}}, 80, 24)
	m, _ = m.update(keyMsg("/"))
	// Type "bi" then "g" without running the filter commands, then deliver
	// the results in the wrong order: the list must show the matches for
	// "big".
	m, c1 := m.update(keyMsg("b"))
	m, c2 := m.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("ig")})
	m = Drive(m, messages(c2)...)
	m = Drive(m, messages(c1)...)
	if got := len(m.picker.list.VisibleItems()); got != 1 {
		t.Fatalf("%d rows match %q after out-of-order filter results, want 1", got, m.picker.list.FilterValue())
	}
	if !m.picker.filtering() {
		t.Error("the filter input lost the keyboard")
	}
}

func TestPickerFilterBurst(t *testing.T) {
	// "/big" and enter arrive together: the filter commands have not
	// answered when enter accepts the filter.
	m := Start(Options{Library: testLibrary, Load: testLoad, Explore: &machine.Options{MaxStates: 20000}}, 80, 24)
	m, _ = m.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/big")})
	m, _ = m.update(keyMsg("enter"))
	if e, ok := m.picker.selected(); !ok || e.Name != "big4x10" {
		t.Fatalf("enter right after /big selects %v", e.Name)
	}
}

// TestCacheBounded: the cache keeps its most recently used entries only.
func TestCacheBounded(t *testing.T) {
	c := newCache(3)
	key := func(k string) jobKey { return jobKey{what: exploration, of: k} }
	val := func(k string) jobValue { return jobValue{explored: &machine.Result{States: len(k)}} }
	for _, k := range []string{"a", "bb", "ccc"} {
		c.put(key(k), val(k))
	}
	c.get(key("a")) // a is now the most recent
	c.put(key("dddd"), val("dddd"))
	if _, ok := c.get(key("bb")); ok || c.len() != 3 {
		t.Errorf("bb, the least recently used, was kept; %d entries", c.len())
	}
	for _, k := range []string{"a", "ccc", "dddd"} {
		if v, ok := c.get(key(k)); !ok || v.explored.States != len(k) {
			t.Errorf("%s: %v %v", k, v, ok)
		}
	}
}

// TestExplorationCachedByContent: an exploration is kept by what was
// explored, not by which copy of the program: the same scenario loaded
// again (v around the family, back to the start) needs no new search.
func TestExplorationCachedByContent(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 80, 24)
	first := m.Scenario()
	m = Drive(m, keys("v", "v", "v")...)
	if m.Scenario() == first || m.Scenario().Name != first.Name {
		t.Fatalf("v three times opened %s (a fresh copy: %v)", m.Scenario().Name, m.Scenario() != first)
	}
	if m.explored() == nil {
		t.Fatal("no exploration for the scenario opened again")
	}
	if cmd := m.scen.explore(m.common()); cmd != nil {
		t.Error("the same program explored again")
	}
	// Another program is not the same key.
	if m.scen.exploreKeys[machine.ARM] == scenarioKeys(t, mpScenario("wmb+rmb"))[machine.ARM] {
		t.Error("two programs share an exploration key")
	}
}

func scenarioKeys(t *testing.T, sp *scenarios.Spec) [2]jobKey {
	t.Helper()
	m := Start(Options{}, 80, 24)
	s, err := newScenarioModel(sp, machine.TSO, m.common())
	if err != nil {
		t.Fatal(err)
	}
	return s.exploreKeys
}

// libraryPicker opens the picker on the built-in library.
func libraryPicker(t *testing.T, w, h int) Model {
	t.Helper()
	opts, err := LibraryOptions()
	if err != nil {
		t.Fatal(err)
	}
	opts.Explore = &machine.Options{MaxStates: 20000}
	return Start(opts, w, h)
}

// TestPickerLibraryOrder: the picker opens on MP, the classic shapes
// come first and each family's row opens on its broken baseline.
func TestPickerLibraryOrder(t *testing.T) {
	m := libraryPicker(t, 80, 24)
	var fams []string
	for _, it := range m.picker.list.Items() {
		f := it.(familyItem)
		fams = append(fams, f.family)
		if f.chosen().Family == "ext4-last-group" && f.chosen().Variant != "rel-acq" {
			t.Errorf("ext4-last-group opens on %s, want rel-acq", f.chosen().Variant)
		}
	}
	if got := strings.Join(fams[:5], " "); got != "mp sb lb iriw ext4-last-group" {
		t.Errorf("picker starts with %s", got)
	}
	if e, _ := m.picker.selected(); e.Name != "mp+once" {
		t.Errorf("the picker opens on %s, want mp+once", e.Name)
	}
	if !strings.Contains(m.View(), "[once]") {
		t.Errorf("the first row does not show [once]:\n%s", m.View())
	}
}

// TestPickerVariantUnderFilter: ←/→ under a filter keep the cursor on
// the row, and they work while the filter is being typed.
func TestPickerVariantUnderFilter(t *testing.T) {
	m := libraryPicker(t, 80, 24)
	m = Drive(m, keys("/", "o", "n", "c", "e", "enter", "down", "down")...)
	before, _ := m.picker.selected()
	idx := m.picker.list.Index()
	m = Drive(m, keys("right")...)
	after, _ := m.picker.selected()
	if m.picker.list.Index() != idx || after.Family != before.Family || after.Name == before.Name {
		t.Errorf("→ under a filter: row %d %s → row %d %s, want the next variant on row %d", idx, before.Name, m.picker.list.Index(), after.Name, idx)
	}
	m = Drive(m, keys("left")...)
	if back, _ := m.picker.selected(); back.Name != before.Name {
		t.Errorf("← did not come back to %s: %s", before.Name, back.Name)
	}

	// While typing: the filter keeps the keyboard, → changes the top row's
	// variant, and enter then opens what is shown.
	m = libraryPicker(t, 80, 24)
	m = Drive(m, keys("/", "e", "x", "t", "4", "right")...)
	if !m.picker.filtering() {
		t.Fatal("→ ended the filter")
	}
	if e, _ := m.picker.selected(); e.Name != "ext4-last-group+rel-acq-flag" {
		t.Errorf("→ while typing selects %s, want ext4-last-group+rel-acq-flag", e.Name)
	}
	if v := m.View(); !strings.Contains(v, "[rel-acq-flag]") || !strings.Contains(v, "ext4") {
		t.Errorf("the row does not show the new variant:\n%s", v)
	}
}

// librarySpec opens a built-in scenario in mode at w×h.
func libraryScreen(t *testing.T, name string, mode machine.Mode, w, h int) Model {
	t.Helper()
	opts, err := LibraryOptions()
	if err != nil {
		t.Fatal(err)
	}
	sp, err := LoadSpec(name)
	if err != nil {
		t.Fatal(err)
	}
	opts.Scenario, opts.Mode, opts.Seed = sp, mode, 1
	return Start(opts, w, h)
}

// TestSmallScreens: at the smallest sizes the CPU columns show the
// store buffers, queues and stale marks before the source lines, two
// CPUs sit side by side, and outcomes and the verdict wrap rather than
// being cut.
func TestSmallScreens(t *testing.T) {
	// sb-end-write at 80×24, two steps in: both store buffers show.
	m := libraryScreen(t, "sb-end-write+mb-inside-if", machine.ARM, 80, 24)
	m = take(t, m, "P0 exec", "P1 exec")
	v := m.View()
	checkSize(t, v, 80, 24)
	for _, want := range []string{"sb    writers=0", "sb    wq=1", "P1 ⏸ blocked"} {
		if !strings.Contains(v, want) {
			t.Errorf("80×24 sb-end-write lacks %q:\n%s", want, v)
		}
	}
	// ... and a stale copy is marked, whole, once there is one.
	m = take(t, m, "P1 commit #0")
	if v := m.View(); !strings.Contains(v, "wq S=0 STALE") {
		t.Errorf("80×24: no whole STALE mark:\n%s", v)
	}

	// 60×20: two CPUs side by side, and the program counter in view.
	for _, name := range []string{"mp+once", "sb-end-write+mb-inside-if"} {
		m := libraryScreen(t, name, machine.ARM, 60, 20)
		v := m.View()
		checkSize(t, v, 60, 20)
		if !strings.Contains(v, "P0 ") || !strings.Contains(v, "P1 ") || strings.Contains(v, "of 2 · h/l") {
			t.Errorf("60×20 %s does not show both CPUs:\n%s", name, v)
		}
		if !strings.Contains(v, "▶ ") {
			t.Errorf("60×20 %s hides the program counter:\n%s", name, v)
		}
	}

	// IRIW at 80×24: every outcome row shows all four registers, and the
	// condition and verdict are not cut.
	m = libraryScreen(t, "iriw+once", machine.ARM, 80, 24)
	v = m.View()
	if strings.Contains(v, "3:r1…") || strings.Contains(v, "Sometime…") || strings.Contains(v, "3…") {
		t.Errorf("80×24 IRIW cuts the outcomes:\n%s", v)
	}
	flat := strings.Join(strings.Fields(v), " ")
	for _, want := range []string{"3:r1=0", "Sometimes 1/16"} {
		if !strings.Contains(flat, want) {
			t.Errorf("80×24 IRIW lacks %q:\n%s", want, v)
		}
	}
	// A click on the second line of a wrapped row loads that row.
	m = Drive(m, keys("tab", "tab", "tab", "tab")...)
	r, _ := m.layout()
	box := r.Panes[views.PaneOutcomes]
	first, last := m.scen.frame.OutcomeRowLines(1)
	if last == first {
		t.Fatalf("IRIW's rows do not wrap at 80×24; the test no longer covers it")
	}
	m = Drive(m, tea.MouseMsg{X: box.X + 6, Y: box.Y + 1 + m.scen.frame.OutcomeHeadLines() + last - m.scen.panes[views.PaneOutcomes].offset(), Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.scen.sess.loaded != 1 {
		t.Errorf("a click on row 1's last line loaded row %d", m.scen.sess.loaded)
	}
}

// TestScreenMarksCauses: the load made while P0's own store is still
// buffered is marked in the last event and in the history.
func TestScreenMarksCauses(t *testing.T) {
	m := libraryScreen(t, "sb-end-write+mb-inside-if", machine.ARM, 100, 30)
	m = take(t, m, "P0 exec", "P1 exec", "P0 exec")
	v := m.View()
	if !strings.Contains(v, "[STORE→LOAD REORDERING]") {
		t.Errorf("the last event does not mark the reordering:\n%s", v)
	}
	m = Drive(m, keys("tab", "tab", "tab")...) // the history tab
	if v := m.View(); !strings.Contains(v, "S→L") {
		t.Errorf("the history does not mark the reordering:\n%s", v)
	}
}
