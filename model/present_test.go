package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios"
)

// witness returns the shortest witness of sc's condition in mode.
func witness(t testing.TB, sc *scenarios.Spec, mode machine.Mode) []machine.Step {
	t.Helper()
	res := machine.Explore(machine.MustNew(sc.Program, mode), machine.Options{})
	var best []machine.Step
	for _, o := range res.Outcomes {
		if sc.Asked(o.Outcome) && (best == nil || len(o.Witness) < len(best)) {
			best = o.Witness
		}
	}
	if best == nil {
		t.Fatalf("%s has no witness in %v", sc.Name, mode)
	}
	return best
}

// presentOptions opens MP+plain in presentation mode on its ARM-like
// witness, with timers that fire at once when run.
func presentOptions(t testing.TB) Options {
	sc := mpScenario("plain")
	opts := testOptions(sc, machine.ARM)
	opts.History = witness(t, sc, machine.ARM)
	opts.Present, opts.Every = true, 3*time.Second
	opts.tick = instantTick
	return opts
}

// tick delivers the timer the model is waiting for and returns the next
// model and the command it returns (the next timer, or nil).
func tick(t testing.TB, m Model) (Model, tea.Cmd) {
	t.Helper()
	return m.update(presentTickMsg{seq: m.scen.present.seq})
}

func TestPresent(t *testing.T) {
	opts := presentOptions(t)
	n := len(opts.History)
	m := New(opts)
	init := m.Init()
	m = Drive(m, append([]tea.Msg{size(80, 24)}, messages(init)...)...)
	if !m.scen.present.on || m.scen.sess.cursor != 0 || len(m.scen.sess.steps) != n {
		t.Fatalf("present: on %v, cursor %d, %d steps", m.scen.present.on, m.scen.sess.cursor, len(m.scen.sess.steps))
	}
	if !strings.Contains(m.View(), fmt.Sprintf("▶ presenting · step 0/%d · every 3s", n)) {
		t.Fatalf("no indicator:\n%s", m.View())
	}
	// Init started the timer: its message takes the first step.
	first := presentTickMsg{seq: m.scen.present.seq}
	var next tea.Cmd
	m, next = m.update(first)
	if m.scen.sess.cursor != 1 || next == nil {
		t.Fatalf("a tick: cursor %d, next timer %v", m.scen.sess.cursor, next != nil)
	}
	if msg, ok := next().(presentTickMsg); !ok || msg.seq != m.scen.present.seq {
		t.Fatalf("the next timer sends %#v", msg)
	}
	// A stale timer does nothing.
	if m2, _ := m.update(first); m2.scen.sess.cursor != 1 {
		t.Error("a stale timer took a step")
	}
	m, _ = tick(t, m)
	// Space pauses: timers are ignored.
	m, cmd := press(m, " ")
	if !m.scen.present.paused || cmd != nil || !strings.Contains(m.View(), fmt.Sprintf("⏸ paused · step 2/%d  space resume", n)) || strings.Contains(m.View(), "space pause") {
		t.Fatalf("space: paused %v\n%s", m.scen.present.paused, m.View())
	}
	if m2, _ := tick(t, m); m2.scen.sess.cursor != 2 {
		t.Error("a timer took a step while paused")
	}
	// Arrows still step by hand, paused or not.
	m, _ = press(m, "right")
	m, _ = press(m, "right")
	m, _ = press(m, "left")
	if m.scen.sess.cursor != 3 || !m.scen.present.paused {
		t.Fatalf("arrows: cursor %d, paused %v", m.scen.sess.cursor, m.scen.present.paused)
	}
	// Space resumes with a new timer.
	m, cmd = press(m, " ")
	if m.scen.present.paused || cmd == nil {
		t.Fatal("space did not resume")
	}
	for i := 0; i < n; i++ {
		m, cmd = tick(t, m)
	}
	if m.scen.sess.cursor != n || cmd != nil {
		t.Fatalf("at the end: cursor %d, timer %v", m.scen.sess.cursor, cmd != nil)
	}
	if !m.Machine().Final(m.State()) || !strings.Contains(m.View(), "Final outcome: 1:r0=1 1:r1=0. ✓ the") || !strings.Contains(m.View(), "■ the end") {
		t.Errorf("final frame:\n%s", m.View())
	}
	// Other keys do not disturb the presentation; space at the end replays.
	m, _ = press(m, "r")
	if m.scen.sess.cursor != n || !strings.Contains(m.scen.notice, "space pauses") {
		t.Errorf("r while presenting: cursor %d, notice %q", m.scen.sess.cursor, m.scen.notice)
	}
	m, cmd = press(m, " ")
	if m.scen.sess.cursor != 0 || cmd == nil || len(m.scen.sess.steps) != n {
		t.Fatalf("space at the end: cursor %d", m.scen.sess.cursor)
	}
	// The help page holds the timer; esc leaves presentation mode.
	m = Drive(m, keys("?")...)
	if m2, c := tick(t, m); m2.scen.sess.cursor != 0 || c == nil {
		t.Error("a timer took a step behind the help page, or stopped")
	}
	m = Drive(m, keys("?", "esc")...)
	if m.scen.present.on || m.View() == "" || strings.Contains(m.View(), "presenting") {
		t.Fatalf("esc did not leave presentation mode:\n%s", m.View())
	}
	if m2, _ := tick(t, m); m2.scen.sess.cursor != 0 {
		t.Error("a timer took a step after leaving presentation mode")
	}
	m = Drive(m, keys("1")...)
	if m.scen.sess.cursor != 1 {
		t.Error("step keys do not work after leaving presentation mode")
	}
}

func TestPresentKeys(t *testing.T) {
	m := Start(presentOptions(t), 80, 24)
	if !m.keys.Pause.Enabled() || m.keys.Random.Enabled() || m.keys.Step.Enabled() {
		t.Errorf("presenting: pause %v, random %v, step %v", m.keys.Pause.Enabled(), m.keys.Random.Enabled(), m.keys.Step.Enabled())
	}
	if v := m.View(); !strings.Contains(v, "space pause •") {
		t.Errorf("help line:\n%s", v)
	}
	m = Drive(m, keys("esc")...)
	if m.keys.Pause.Enabled() || !m.keys.Random.Enabled() {
		t.Error("after presenting: pause still on, random off")
	}
}

func TestPresentScreen(t *testing.T) {
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(presentOptions(t), w, h)
		for i := 0; i < 5; i++ {
			m, _ = tick(t, m)
		}
		v := m.View()
		checkSize(t, v, w, h)
		for _, want := range []string{"presenting · step 5/7 · every 3s", "story", "next →", "step 5 of 7"} {
			if !strings.Contains(v, want) {
				t.Errorf("presentation lacks %q:\n%s", want, v)
			}
		}
		requireScreen(t, m)
	})
}

func TestPresentStoryScroll(t *testing.T) {
	m := Start(presentOptions(t), 80, 24)
	max := m.scen.present.story.maxOffset()
	if max == 0 {
		t.Skip("the story fits")
	}
	for i := 0; i < max+5; i++ {
		m = Drive(m, keys("down")...)
	}
	if m.scen.present.story.offset() != max {
		t.Errorf("story scrolled to %d, want %d", m.scen.present.story.offset(), max)
	}
	m = Drive(m, tea.MouseMsg{Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
	if m.scen.present.story.offset() != max-1 {
		t.Errorf("wheel up: %d", m.scen.present.story.offset())
	}
	// A click takes no step in presentation mode.
	r := m.scen.frame.Present
	m = Drive(m, tea.MouseMsg{X: r.Event.X + 3, Y: r.Event.Y + 2, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.scen.sess.cursor != 0 {
		t.Error("a click took a step")
	}
}

// TestPresentHelpPage: the help page of presentation mode leaves out the
// keys it switches off, the note on typing step numbers included.
func TestPresentHelpPage(t *testing.T) {
	m := Start(presentOptions(t), 100, 30)
	m = Drive(m, keys("?")...)
	v := m.View()
	if strings.Contains(v, "10+ steps") || strings.Contains(v, "1-9") {
		t.Errorf("the presentation help lists the step keys:\n%s", v)
	}
	m = Drive(m, keys("?", "esc", "?")...)
	if v := m.View(); !strings.Contains(v, "10+ steps") {
		t.Errorf("the normal help lacks the note on step numbers:\n%s", v)
	}
}

// TestPresentAttempt: presenting the closest attempt at an outcome that
// is unreachable (MP with smp_wmb/smp_rmb in ARM-like mode): it starts by
// saying so, marks the step where P1 must wait at smp_rmb, and ends with
// why it gets no further; leaving the history behind drops the attempt.
func TestPresentAttempt(t *testing.T) {
	sc := mpScenario("wmb+rmb")
	ex, err := scenarios.WitnessOrAttempt(sc, machine.ARM, machine.Options{})
	if err != nil || ex.Attempt == nil {
		t.Fatalf("no attempt: %v", err)
	}
	opts := testOptions(sc, machine.ARM)
	opts.History, opts.Attempt = ex.Steps, ex.Attempt
	opts.Present, opts.Every, opts.tick = true, 3*time.Second, instantTick
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(opts, w, h)
		flat := func() string { return strings.Join(strings.Fields(m.View()), " ") }
		if !strings.Contains(flat(), "Closest attempt: the outcome") {
			t.Errorf("the start does not say it is an attempt:\n%s", m.View())
		}
		waited := false
		for range ex.Steps {
			m, _ = tick(t, m)
			if strings.Contains(flat(), "⏸ P1 must wait") {
				waited = true
			}
		}
		if !waited {
			t.Error("no step marks P1 waiting at smp_rmb")
		}
		checkSize(t, m.View(), w, h)
		if !strings.Contains(m.View(), "■ as far as it gets · step 9/9") || !strings.Contains(flat(), "This is as far as it gets: the outcome") {
			t.Errorf("the end:\n%s", m.View())
		}
		requireScreen(t, m)
		// A step of one's own leaves the attempt: no conclusion any more.
		m = Drive(m, keys("esc", "left", "r")...)
		m = take(t, m, "P0 exec")
		if strings.Contains(flat(), "as far as it gets") || m.scen.currentAttempt() != nil {
			t.Errorf("the attempt outlived its history:\n%s", m.View())
		}
	})
}

// TestPresentPauseOnArrows (issue 19): stepping by hand pauses the
// presentation, so that the class stays on the step the teacher went
// to; timers delivered through the model's tick hook then take no step
// until space resumes. No wall clock: each timer is a message.
func TestPresentPauseOnArrows(t *testing.T) {
	m := Start(presentOptions(t), 80, 24)
	n := len(m.scen.sess.steps)
	m, _ = tick(t, m)
	m, _ = tick(t, m)
	if m.scen.sess.cursor != 2 || m.scen.present.paused {
		t.Fatalf("two ticks: cursor %d, paused %v", m.scen.sess.cursor, m.scen.present.paused)
	}
	running := presentTickMsg{seq: m.scen.present.seq} // the timer under way
	m, cmd := press(m, "left")
	if m.scen.sess.cursor != 1 || !m.scen.present.paused || cmd != nil {
		t.Fatalf("←: cursor %d, paused %v, timer %v", m.scen.sess.cursor, m.scen.present.paused, cmd != nil)
	}
	if !strings.Contains(m.View(), fmt.Sprintf("⏸ paused · step 1/%d", n)) {
		t.Errorf("← does not say it paused:\n%s", m.View())
	}
	// The timer that was running, and any later one, take no step.
	for _, msg := range []presentTickMsg{running, {seq: m.scen.present.seq}} {
		if m2, _ := m.update(msg); m2.scen.sess.cursor != 1 {
			t.Errorf("a timer (seq %d) took a step after ←", msg.seq)
		}
	}
	m, _ = press(m, "right")
	m, _ = press(m, "right")
	if m.scen.sess.cursor != 3 || !m.scen.present.paused {
		t.Fatalf("→ →: cursor %d, paused %v", m.scen.sess.cursor, m.scen.present.paused)
	}
	if m2, _ := tick(t, m); m2.scen.sess.cursor != 3 {
		t.Error("a timer took a step after →")
	}
	// Space resumes: the next timer steps again.
	m, cmd = press(m, " ")
	if m.scen.present.paused || cmd == nil {
		t.Fatal("space did not resume")
	}
	if m, _ = tick(t, m); m.scen.sess.cursor != 4 {
		t.Errorf("after space a timer stepped to %d, want 4", m.scen.sess.cursor)
	}
	// → at the end stays paused there and says space replays.
	for i := 0; i < n; i++ {
		m, _ = press(m, "right")
	}
	if m.scen.sess.cursor != n || !strings.Contains(m.View(), "space replays") {
		t.Errorf("→ past the end: cursor %d\n%s", m.scen.sess.cursor, m.View())
	}
}

// TestPresentModeSwitch: m presents the other mode, what it shows
// there: MP with WRITE_ONCE/READ_ONCE is unreachable in TSO mode, so its
// closest attempt; m again brings back the ARM-like witness.
func TestPresentModeSwitch(t *testing.T) {
	m := Start(presentOptions(t), 100, 30)
	m, _ = tick(t, m)
	m = Drive(m, keys("m")...)
	if m.Mode() != machine.TSO || !m.scen.present.on || m.scen.present.searching {
		t.Fatalf("m: mode %v, presenting %v, searching %v", m.Mode(), m.scen.present.on, m.scen.present.searching)
	}
	if m.scen.currentAttempt() == nil || m.scen.sess.cursor != 0 || len(m.scen.sess.steps) == 0 {
		t.Fatalf("TSO mode presents no closest attempt: cursor %d, %d steps", m.scen.sess.cursor, len(m.scen.sess.steps))
	}
	mustContain(t, m.View(), "TSO", "presenting · step 0/")
	m, _ = tick(t, m)
	if m.scen.sess.cursor != 1 {
		t.Errorf("the TSO presentation does not run: cursor %d", m.scen.sess.cursor)
	}
	m = Drive(m, keys("m")...)
	if m.Mode() != machine.ARM || m.scen.currentAttempt() != nil || len(m.scen.sess.steps) != len(witness(t, mpScenario("plain"), machine.ARM)) {
		t.Errorf("m again: mode %v, %d steps", m.Mode(), len(m.scen.sess.steps))
	}
}

// TestPresentPanelKeys: a panel key that is off says why when pressed,
// in presentation mode and on the normal screen, rather than doing
// nothing (MP+plain has nothing to weigh for n).
func TestPresentPanelKeys(t *testing.T) {
	m := Start(presentOptions(t), 80, 24)
	if m.keys.Necessity.Enabled() {
		t.Skip("n is offered here")
	}
	m = Drive(m, keys("n")...)
	mustContain(t, m.View(), "no barrier or ordering here to weigh")
	m = Drive(m, keys("esc", "n")...)
	if !strings.Contains(m.scen.notice, "no barrier or ordering here to weigh") {
		t.Errorf("n on the normal screen: notice %q", m.scen.notice)
	}
}
