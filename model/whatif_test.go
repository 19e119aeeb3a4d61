package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/views"
)

func libSpec(t testing.TB, name string) *scenarios.Spec {
	t.Helper()
	sp, err := scenarios.BuiltinSpec(name)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// verdicts are the verdicts before and after the edits in mode md, as far
// as they are explored ("" when not).
func (m Model) verdicts(md machine.Mode) (before, after syntax.Observation) {
	c := m.common()
	wi := m.scen.whatIfInput(c)
	if wi == nil {
		return "", ""
	}
	if wi.Before[md] != nil {
		before = wi.Base.Verdict(wi.Before[md]).Observation
	}
	if wi.After[md] != nil {
		after = m.Scenario().Verdict(wi.After[md]).Observation
	}
	return before, after
}

func editsOf(m Model) string { return scenarios.EditsText(m.Scenario().Edits) }

// The review of the ext4 s_mb_last_group patch, asked live: the stale
// goal=3 after flag=1 is Sometimes in ARM-like mode; making the reader's
// flag load an acquire alone keeps it Sometimes; making the writer's flag
// store a release as well turns it Never. The ordering has to sit on the
// flag, on both sides.
func TestWhatIfExt4Flow(t *testing.T) {
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(testOptions(libSpec(t, "ext4-last-group+rel-acq"), machine.ARM), w, h)
		if v := m.Scenario().Verdict(m.explored()).Observation; v != syntax.Sometimes {
			t.Fatalf("as written: %s, want Sometimes", v)
		}
		// o first shows the edit cursor (the focus moves to the CPUs), on P0:1.
		m = Drive(m, keys("o")...)
		if m.scen.focus != views.PaneCPUs || editsOf(m) != "" || !strings.Contains(m.View(), "cursor P0:1") {
			t.Fatalf("o did not just show the cursor: focus %s, edits %q", m.scen.focus, editsOf(m))
		}
		// l moves it to P1's flag load; o makes that an acquire.
		m = Drive(m, keys("l", "o")...)
		if got := editsOf(m); got != "P1:1=acquire" {
			t.Fatalf("edits %q, want P1:1=acquire", got)
		}
		if b, a := m.verdicts(machine.ARM); b != syntax.Sometimes || a != syntax.Sometimes {
			t.Errorf("reader's acquire alone: %s → %s, want Sometimes → Sometimes", b, a)
		}
		mustContain(t, m.View(), "Sometimes → Sometimes", "smp_load_acquire(flag)")
		// The new shortest witness is ready: → steps through it to the
		// stale goal.
		if len(m.scen.sess.steps) == 0 || m.scen.sess.cursor != 0 {
			t.Fatalf("no witness ready: %d steps, cursor %d", len(m.scen.sess.steps), m.scen.sess.cursor)
		}
		for range m.scen.sess.steps {
			m = Drive(m, keyMsg("right"))
		}
		if st := m.State(); !m.Machine().Final(st) || !m.Scenario().Asked(m.Machine().Outcome(st)) {
			t.Errorf("the witness does not end in 1:r0=1 1:r1=3")
		}
		// h, j: P0's flag store; o makes it a release: Never.
		m = Drive(m, keys("h", "j", "o")...)
		if got := editsOf(m); got != "P1:1=acquire P0:2=release" {
			t.Fatalf("edits %q", got)
		}
		if b, a := m.verdicts(machine.ARM); b != syntax.Sometimes || a != syntax.Never {
			t.Errorf("release and acquire on the flag: %s → %s, want Sometimes → Never", b, a)
		}
		mustContain(t, m.View(), "Sometimes", "→ Never", "~2 edits", "~1 ▶ r0 = smp_load_acquire")
		mustContain(t, strings.Join(m.scen.frame.Lines(views.PaneOutcomes), "\n"), "1:r0=1 1:r1=3 gone")
		// u undoes the release, U redoes it.
		m = Drive(m, keys("u")...)
		if b, a := m.verdicts(machine.ARM); editsOf(m) != "P1:1=acquire" || a != syntax.Sometimes || b != syntax.Sometimes {
			t.Errorf("after u: edits %q, %s → %s", editsOf(m), b, a)
		}
		m = Drive(m, keys("U")...)
		if _, a := m.verdicts(machine.ARM); editsOf(m) != "P1:1=acquire P0:2=release" || a != syntax.Never {
			t.Errorf("after U: edits %q, after %s", editsOf(m), a)
		}
		m = Drive(m, keys("u", "u")...)
		if m.scen.edit.edited() || strings.Contains(m.View(), "→ Never") {
			t.Errorf("after undoing both: edits %q", editsOf(m))
		}
	})
}

// MP with smp_wmb removed: Never → Sometimes in ARM-like mode, Never →
// Never in TSO; the diff page explores the other mode and shows both.
func TestWhatIfMPWmbRemoved(t *testing.T) {
	for _, c := range []struct {
		mode  machine.Mode
		after syntax.Observation
	}{{machine.ARM, syntax.Sometimes}, {machine.TSO, syntax.Never}} {
		t.Run(c.mode.String(), func(t *testing.T) {
			m := Start(testOptions(libSpec(t, "mp+wmb-rmb"), c.mode), 80, 24)
			// P0:1 is WRITE_ONCE(*x, 1); the barrier after it is the
			// smp_wmb, and b cycles wmb → none.
			m = Drive(m, keys("tab", "b")...)
			if got := editsOf(m); got != "P0:2-wmb" {
				t.Fatalf("edits %q, want P0:2-wmb", got)
			}
			if b, a := m.verdicts(c.mode); b != syntax.Never || a != c.after {
				t.Errorf("%s: %s → %s, want Never → %s", c.mode.Title(), b, a, c.after)
			}
			if _, a := m.verdicts(otherMode(c.mode)); a != "" {
				t.Errorf("the other mode was explored before it was asked for")
			}
			m = Drive(m, keys("d")...)
			if m.scen.page != views.PageDiff {
				t.Fatal("d did not open the diff page")
			}
			if b, a := m.verdicts(machine.TSO); b != syntax.Never || a != syntax.Never {
				t.Errorf("TSO on the diff page: %s → %s", b, a)
			}
			if b, a := m.verdicts(machine.ARM); b != syntax.Never || a != syntax.Sometimes {
				t.Errorf("ARM-like on the diff page: %s → %s", b, a)
			}
			mustContain(t, m.View(), "--edit P0:2-wmb", "TSO: Never 0/3 → Never 0/3", "ARM-like: Never 0/3 → Sometimes 1/4", "− ", "smp_wmb();")
			// Back on the panes the other mode shows too, as a third line.
			m = Drive(m, keys("esc")...)
			mustContain(t, m.View(), "TSO: Never", "ARM-like: Never")
		})
	}
}

func otherMode(md machine.Mode) machine.Mode {
	if md == machine.ARM {
		return machine.TSO
	}
	return machine.ARM
}

func mustContain(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q in\n%s", w, out)
		}
	}
}

// Pressing the same key on the same instruction revises the edit, so a
// cycle is one edit, and a full cycle none.
func TestWhatIfCycleRevises(t *testing.T) {
	m := Start(testOptions(libSpec(t, "mp+once"), machine.ARM), 80, 24)
	m = Drive(m, keys("tab")...)
	for _, want := range []string{"P0:1+mb", "P0:1+rmb", "P0:1+wmb", ""} {
		m = Drive(m, keys("b")...)
		if got := editsOf(m); got != want {
			t.Fatalf("b: edits %q, want %q", got, want)
		}
	}
	m = Drive(m, keys("l")...) // P1:1, READ_ONCE(*y)
	for _, want := range []string{"P1:1=acquire", ""} {
		m = Drive(m, keys("o")...)
		if got := editsOf(m); got != want {
			t.Fatalf("o: edits %q, want %q", got, want)
		}
	}
	// Another instruction, or another key, makes a new edit.
	m = Drive(m, keys("o", "h", "b")...)
	if got := editsOf(m); got != "P1:1=acquire P0:1+mb" {
		t.Fatalf("edits %q", got)
	}
	// x on something that is no barrier says so and changes nothing.
	m = Drive(m, keys("x")...)
	if got := editsOf(m); got != "P1:1=acquire P0:1+mb" || !strings.Contains(m.scen.notice, "not a barrier") {
		t.Errorf("x on a store: edits %q, notice %q", got, m.scen.notice)
	}
	m = Drive(m, keys("j", "x")...) // the smp_mb just inserted
	if got := editsOf(m); got != "P1:1=acquire P0:1+mb P0:2-mb" {
		t.Errorf("x on the barrier: edits %q", got)
	}
}

// The history replays as far as it is still valid in the edited program.
func TestWhatIfKeepsHistory(t *testing.T) {
	m := Start(testOptions(libSpec(t, "ext4-last-group+rel-acq"), machine.ARM), 80, 24)
	m = take(t, m, "P0 exec", "P1 exec")
	m = Drive(m, keys("tab", "l", "o")...) // P1:1=acquire
	if m.scen.sess.cursor != 2 || len(m.History()) != 2 {
		t.Errorf("history after the edit: cursor %d, %v", m.scen.sess.cursor, m.History())
	}
	if !strings.Contains(m.scen.notice, "w loads the new witness") {
		t.Errorf("notice %q", m.scen.notice)
	}

	// A step naming an instruction follows it when a barrier before it
	// goes: P0's commit #2 (y, after the smp_wmb) becomes commit #1.
	m = Start(testOptions(libSpec(t, "mp+wmb-rmb"), machine.ARM), 80, 24)
	m = take(t, m, "P0 exec", "P0 commit #0", "P0 exec", "P0 commit #2")
	m = Drive(m, keys("tab", "b")...) // P0:2-wmb
	if got := strings.Join(m.scen.sess.idsUpTo(), ", "); editsOf(m) != "P0:2-wmb" || got != "P0 exec, P0 commit #0, P0 exec, P0 commit #1" {
		t.Errorf("edits %q, history %s", editsOf(m), got)
	}

	// A barrier inserted where a step cannot pass it cuts the history.
	m = Start(testOptions(libSpec(t, "mp+once"), machine.ARM), 80, 24)
	m = take(t, m, "P0 exec", "P0 exec", "P1 exec")
	m = Drive(m, keys("tab", "b")...) // P0:1+mb: P0 cannot execute it with x=1 buffered
	if m.scen.sess.cursor != 1 || !strings.Contains(m.scen.notice, "history cut at step 1") {
		t.Errorf("cursor %d, notice %q", m.scen.sess.cursor, m.scen.notice)
	}
	// u takes the barrier away and brings the cut steps back (issue 18).
	m = Drive(m, keys("u")...)
	if got := strings.Join(m.scen.sess.idsUpTo(), ", "); editsOf(m) != "" || m.scen.sess.cursor != 3 || got != "P0 exec, P0 exec, P1 exec" || !strings.Contains(m.scen.notice, "the 2 steps it cut are back") {
		t.Errorf("after u: edits %q, cursor %d, history %s, notice %q", editsOf(m), m.scen.sess.cursor, got, m.scen.notice)
	}
	// U cuts them again; a step taken after that is a new history, which
	// u keeps (it replays what it can) rather than bring the old one back.
	m = Drive(m, keys("U")...)
	if m.scen.sess.cursor != 1 {
		t.Errorf("after U: cursor %d", m.scen.sess.cursor)
	}
	m = Drive(m, keys("u", "b")...)
	m = take(t, m, "P1 exec")
	m = Drive(m, keys("u")...)
	if got := strings.Join(m.scen.sess.idsUpTo(), ", "); got != "P0 exec, P1 exec" {
		t.Errorf("u after a new step: history %s", got)
	}
}

// idsUpTo names the steps up to the cursor.
func (s *session) idsUpTo() []string {
	var ids []string
	for _, st := range s.steps[:s.cursor] {
		ids = append(ids, s.mach().ID(st))
	}
	return ids
}

// A click on an instruction puts the edit cursor there.
func TestWhatIfClick(t *testing.T) {
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(testOptions(libSpec(t, "ext4-last-group+rel-acq"), machine.ARM), w, h)
		f := m.scen.frame
		inner := f.Regions.Panes[views.PaneCPUs].Inner()
		// The second column, the second instruction.
		x := inner.X + inner.W/2 + 3
		y := inner.Y + f.CodeRow(1, 1)
		m = Drive(m, tea.MouseMsg{X: x, Y: y, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
		if m.scen.focus != views.PaneCPUs || m.scen.edit.cpu != 1 || m.scen.edit.at != 1 {
			t.Fatalf("click at %d,%d: focus %s, cursor %d:%d", x, y, m.scen.focus, m.scen.edit.cpu, m.scen.edit.at)
		}
		if !strings.Contains(m.View(), "cursor P1:2") || !strings.Contains(m.scen.notice, "P1:2 r1 = smp_load_acquire(goal); · o: READ_ONCE") {
			t.Errorf("notice %q", m.scen.notice)
		}
	})
}

// S saves the edited test; e writes a trace that names the edits; both
// reopen the same program.
func TestWhatIfSaveAndExport(t *testing.T) {
	dir := t.TempDir()
	opts := testOptions(libSpec(t, "mp+wmb-rmb"), machine.ARM)
	opts.TraceDir = dir
	m := Start(opts, 80, 24)
	m = Drive(m, keys("S")...)
	if m.keys.SaveEdited.Enabled() {
		t.Error("S is on without edits")
	}
	m = Drive(m, keys("tab", "b", "S")...)
	path := filepath.Join(dir, "mp+wmb-rmb+edited.litmus")
	if !strings.Contains(m.scen.notice, "saved "+path) {
		t.Fatalf("notice %q", m.scen.notice)
	}
	saved, err := scenarios.Resolve(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Name != "mp+wmb-rmb+edited" || strings.Contains(syntax.Format(saved.Litmus)[strings.Index(syntax.Format(saved.Litmus), "P0("):], "smp_wmb") {
		t.Errorf("saved %s:\n%s", saved.Name, syntax.Format(saved.Litmus))
	}
	m = Drive(m, keys("right", "right", "e")...)
	traces, _ := filepath.Glob(filepath.Join(dir, "*.trace"))
	if len(traces) != 1 {
		t.Fatalf("traces %v", traces)
	}
	src, _ := os.ReadFile(traces[0])
	if !strings.Contains(string(src), "\nedits: P0:2-wmb\n") {
		t.Errorf("trace:\n%s", src)
	}
	ex, err := scenarios.ReplayTraceFile(traces[0], "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if scenarios.ProgramKey(ex.Spec.Program) != scenarios.ProgramKey(m.Scenario().Program) {
		t.Error("the trace replays another program")
	}
}

// Opened edited (--edit, or an edited trace), the UI shows the what-if
// at once, and u undoes its edits.
func TestWhatIfOpenedEdited(t *testing.T) {
	edits, _ := scenarios.ParseEdits([]string{"P1:1=acquire", "P0:2=release"})
	sp, err := libSpec(t, "ext4-last-group+rel-acq").Edited(edits...)
	if err != nil {
		t.Fatal(err)
	}
	m := Start(testOptions(sp, machine.ARM), 80, 24)
	if m.Scenario() != sp {
		t.Fatal("opened another spec")
	}
	if b, a := m.verdicts(machine.ARM); b != syntax.Sometimes || a != syntax.Never {
		t.Errorf("%s → %s, want Sometimes → Never", b, a)
	}
	mustContain(t, m.View(), "~2 edits", "ARM-like: Sometimes → Never")
	m = Drive(m, keys("u", "u")...)
	if m.scen.edit.edited() || m.keys.UndoEdit.Enabled() {
		t.Errorf("after u u: edits %q", editsOf(m))
	}
}

// Goldens of the edit cursor, and of the verdict before → after, at the
// narrow and the wide layout.
func TestWhatIfScreen(t *testing.T) {
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(testOptions(libSpec(t, "ext4-last-group+rel-acq"), machine.ARM), w, h)
		m = Drive(m, keys("tab", "l")...)
		t.Run("cursor", func(t *testing.T) {
			checkSize(t, m.View(), w, h)
			requireScreen(t, m)
		})
		m = Drive(m, keys("o", "h", "j", "o")...)
		t.Run("before-after", func(t *testing.T) {
			checkSize(t, m.View(), w, h)
			requireScreen(t, m)
		})
		m = Drive(m, keys("d")...)
		t.Run("diff", func(t *testing.T) {
			checkSize(t, m.View(), w, h)
			requireScreen(t, m)
		})
	})
}
