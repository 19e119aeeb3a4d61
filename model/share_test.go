package model

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/views"
)

// press sends one key through update without running the command it
// returns, which the caller runs (or not).
func press(m Model, k string) (Model, tea.Cmd) { return m.update(keyMsg(k)) }

func TestExportKey(t *testing.T) {
	dir := t.TempDir()
	opts := testOptions(mpScenario("plain"), machine.ARM)
	opts.TraceDir = dir
	m := Start(opts, 80, 24)

	// Nothing to save at the initial state.
	if m2, cmd := press(m, "e"); cmd != nil || !strings.Contains(m2.scen.notice, "nothing to export") {
		t.Fatalf("e at step 0: cmd %v, notice %q", cmd != nil, m2.scen.notice)
	}
	m = take(t, m, "P0 exec", "P0 exec", "P0 commit #1", "P1 exec", "P1 exec")
	m = Drive(m, keys("left")...) // the history is what is shown: 4 steps

	m2, cmd := press(m, "e")
	if cmd == nil {
		t.Fatal("e returned no command")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatal("Update wrote a file; only the command may")
	}
	m2 = Drive(m2, messages(cmd)...)
	path := filepath.Join(dir, "MP+plain-arm.trace")
	if !strings.Contains(m2.scen.notice, "wrote "+path+" (4 steps") {
		t.Errorf("notice %q does not say where", m2.scen.notice)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := scenarios.ParseTrace(path, src)
	if err != nil {
		t.Fatalf("the trace does not parse: %v\n%s", err, src)
	}
	if tr.Scenario != "MP+plain" || tr.Mode != machine.ARM || tr.Variant != "plain" || len(tr.Steps) != 4 {
		t.Errorf("trace header %+v", tr)
	}
	states, _, err := tr.Replay(m.Machine())
	if err != nil {
		t.Fatalf("the trace does not replay: %v", err)
	}
	if !states[len(states)-1].Equal(m.State()) {
		t.Error("replaying the trace does not give the state shown")
	}

	// A second e never overwrites: it adds -2.
	_, cmd = press(m, "e")
	m3 := Drive(m, messages(cmd)...)
	again, err := os.ReadFile(filepath.Join(dir, "MP+plain-arm-2.trace"))
	if err != nil || !strings.Contains(m3.scen.notice, "MP+plain-arm-2.trace") {
		t.Fatalf("second e: %v, notice %q", err, m3.scen.notice)
	}
	if first, _ := os.ReadFile(path); !bytes.Equal(first, src) || !bytes.Equal(again, src) {
		t.Error("the first trace changed, or the second differs")
	}

	// A directory that cannot be written: the notice says so.
	opts.TraceDir = filepath.Join(dir, "missing", "dir")
	m4 := take(t, Start(opts, 80, 24), "P0 exec")
	m4 = Drive(m4, keys("e")...)
	if !strings.Contains(m4.scen.notice, "cannot write the trace") {
		t.Errorf("unwritable dir: notice %q", m4.scen.notice)
	}
}

func TestCopyKey(t *testing.T) {
	var clip bytes.Buffer
	opts := testOptions(mpScenario("plain"), machine.ARM)
	opts.Clipboard = &clip
	m := Start(opts, 80, 24)
	m = take(t, m, "P0 exec", "P0 commit #0", "P1 exec", "P1 exec")

	m2, cmd := press(m, "y")
	if cmd == nil || clip.Len() != 0 {
		t.Fatalf("y: cmd %v, %d bytes written by Update", cmd != nil, clip.Len())
	}
	m2 = Drive(m2, messages(cmd)...)

	// The text is what trace prints for a mail: 72 columns, no colour.
	mach := m.Machine()
	states, events, _ := mach.Replay(m.History())
	sc := m.Scenario()
	want := views.RenderTrace(&scenarios.Execution{Spec: sc, Mach: mach, Steps: m.History(), States: states, Events: events},
		views.TraceOptions{Format: views.TraceText, Width: 72})
	seq := clip.String()
	prefix := "\x1b]52;c;"
	if !strings.HasPrefix(seq, prefix) || !strings.HasSuffix(seq, "\x07") {
		t.Fatalf("not an OSC 52 sequence: %q", seq[:min(len(seq), 40)])
	}
	b64 := strings.TrimSuffix(strings.TrimPrefix(seq, prefix), "\x07")
	if b64 != base64.StdEncoding.EncodeToString([]byte(want)) {
		t.Fatal("the sequence does not carry the base64 of the trace text")
	}
	got, _ := base64.StdEncoding.DecodeString(b64)
	if !strings.Contains(string(got), "STALE") || strings.Contains(string(got), "\x1b[") {
		t.Errorf("copied text:\n%s", got)
	}
	for _, l := range strings.Split(string(got), "\n") {
		if len([]rune(l)) > 72 {
			t.Errorf("line wider than 72: %q", l)
		}
	}
	n := strings.Count(strings.TrimSuffix(want, "\n"), "\n") + 1
	if wantNotice := "copied " + strconv.Itoa(n) + " lines (OSC 52; your terminal must allow it)"; m2.scen.notice != wantNotice {
		t.Errorf("notice %q, want %q", m2.scen.notice, wantNotice)
	}
}

func TestComparePanel(t *testing.T) {
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(testOptions(mpScenario("wmb+rmb"), machine.ARM), w, h)
		m = Drive(m, keys("c")...)
		if m.page() != views.PageCompare || m.analysing() {
			t.Fatalf("page %v, running %v", m.page(), m.analysing())
		}
		v := m.View()
		checkSize(t, v, w, h)
		for _, want := range []string{"Family MP", "▶ wmb+rmb", "Sometimes 1/4", "plain: Never in TSO mode, Sometimes in ARM-like mode"} {
			if !strings.Contains(strings.Join(strings.Fields(v), " "), want) {
				t.Errorf("compare panel lacks %q:\n%s", want, v)
			}
		}
		requireScreen(t, m)
	})
}

func TestComparePanelBackground(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 80, 24)
	// c starts the analysis in a command: Update returns at once with a
	// spinner, and keys keep working.
	m, cmd := press(m, "c")
	if cmd == nil || !m.analysing() || !strings.Contains(m.View(), "exploring 3 variants × 2 modes") {
		t.Fatalf("c: cmd %v, running %v\n%s", cmd != nil, m.analysing(), m.View())
	}
	m, _ = press(m, "down")
	if !m.analysing() {
		t.Fatal("a key cancelled the analysis")
	}
	// esc closes the panel and cancels; the late result is dropped.
	m, _ = press(m, "esc")
	if m.analysing() || m.page() != views.PagePanes {
		t.Fatalf("esc: running %v, page %v", m.analysing(), m.page())
	}
	msgs := messages(cmd)
	m = Drive(m, msgs...)
	if _, cached := m.jobs.result(m.panels.key); cached {
		t.Error("a cancelled analysis was cached")
	}
	// Leaving the scenario cancels too.
	m, _ = press(m, "c")
	m, _ = press(m, "v")
	m = Drive(m, messages(m.loadCmd("MP+wmb+rmb", true))...)
	if m.analysing() || m.Scenario().Name != "MP+wmb+rmb" {
		t.Fatalf("after v: running %v, scenario %s", m.analysing(), m.Scenario().Name)
	}
	// Done once, cached: opening again needs no command; c closes.
	m = Drive(m, keys("c")...)
	m = Drive(m, keys("c")...)
	if m.page() != views.PagePanes {
		t.Fatal("c did not close the panel")
	}
	if _, cmd := press(m, "c"); cmd != nil {
		t.Error("a cached table was computed again")
	}
}

func TestNecessityPanel(t *testing.T) {
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(testOptions(mpScenario("wmb+rmb"), machine.ARM), w, h)
		m = Drive(m, keys("n")...)
		if m.page() != views.PageNecessity {
			t.Fatalf("page %v", m.page())
		}
		cached, _ := m.jobs.result(m.panels.key)
		r := cached.necessity
		if r == nil || len(r.Annotations) != 2 {
			t.Fatalf("report %+v", r)
		}
		for i := range r.Annotations {
			if v := r.Verdict(i); v != "needed in ARM-like mode, not in TSO" {
				t.Errorf("annotation %d: %q", i, v)
			}
		}
		v := m.View()
		checkSize(t, v, w, h)
		flat := strings.Join(strings.Fields(v), " ")
		for _, want := range []string{"smp_wmb() (P0:2) not needed NEEDED · ", "needed in ARM-like mode, not in TSO"} {
			if !strings.Contains(flat, want) {
				t.Errorf("necessity panel lacks %q:\n%s", want, v)
			}
		}
		requireScreen(t, m)
		m = Drive(m, keys("n")...)
		if m.page() != views.PagePanes {
			t.Error("n did not close the panel")
		}
	})
}

func TestPanelKeysEnabled(t *testing.T) {
	// MP+plain has nothing to weaken: n is off, and not in the help.
	m := Start(testOptions(mpScenario("plain"), machine.ARM), 140, 45)
	if m.keys.Necessity.Enabled() || !m.keys.Compare.Enabled() {
		t.Fatalf("necessity %v, compare %v", m.keys.Necessity.Enabled(), m.keys.Compare.Enabled())
	}
	if m2 := Drive(m, keys("n")...); m2.page() != views.PagePanes {
		t.Error("n opened a panel on a scenario without annotations")
	}
	m = Drive(m, keys("?")...)
	if strings.Contains(m.View(), "needed barriers?") || !strings.Contains(m.View(), "compare variants") {
		t.Errorf("help page:\n%s", m.View())
	}
	// No condition: neither panel.
	big := Start(testOptions(bigScenario(), machine.ARM), 80, 24)
	if big.keys.Compare.Enabled() || big.keys.Necessity.Enabled() {
		t.Error("panels enabled on a scenario without a condition")
	}
	// The picker: none of the scenario keys.
	p := Start(Options{Library: testLibrary, Load: testLoad}, 80, 24)
	if p.keys.Export.Enabled() || p.keys.Compare.Enabled() {
		t.Error("scenario keys enabled in the picker")
	}
}

// TestNecessityPanelEnter: enter on an annotation of the necessity panel
// loads the execution it shows, the shortest witness without it, as a
// what-if (issue 18): the annotation weakened, the witness ahead, in the
// mode where it is needed.
func TestNecessityPanelEnter(t *testing.T) {
	m := Start(testOptions(libSpec(t, "mp+wmb-rmb"), machine.TSO), 100, 30)
	m = Drive(m, keys("n")...)
	cached, _ := m.jobs.result(m.panels.key)
	r := cached.necessity
	if r == nil || len(r.Annotations) != 2 {
		t.Fatalf("report %+v", r)
	}
	if !strings.Contains(m.View(), views.SelMark+" smp_wmb()") {
		t.Errorf("the first annotation is not selected:\n%s", m.View())
	}
	m = Drive(m, keys("down", "enter")...)
	want := r.Annotations[1].Runs[1].Witness // smp_rmb, ARM-like
	if m.page() != views.PagePanes || editsOf(m) != "P1:2-rmb" || m.scen.sess.mode != machine.ARM {
		t.Fatalf("after enter: page %v, edits %q, mode %v", m.page(), editsOf(m), m.scen.sess.mode)
	}
	if !slices.Equal(m.scen.sess.steps, want) || m.scen.sess.cursor != 0 {
		t.Fatalf("history %v (cursor %d), want the panel's witness %v", m.scen.sess.steps, m.scen.sess.cursor, want)
	}
	for range want {
		m = Drive(m, keys("right")...)
	}
	if !m.Machine().Final(m.State()) || !m.Scenario().Asked(m.Machine().Outcome(m.State())) {
		t.Errorf("the witness does not end in the outcome")
	}
	m = Drive(m, keys("u")...)
	if editsOf(m) != "" {
		t.Errorf("u: edits %q", editsOf(m))
	}
}

// TestFixPanel: f lists the minimal fixes; enter applies the one
// selected as a what-if, and the verdict after says it is a fix.
func TestFixPanel(t *testing.T) {
	atSizes(t, func(t *testing.T, w, h int) {
		m := Start(testOptions(libSpec(t, "mp+once"), machine.ARM), w, h)
		m = Drive(m, keys("f")...)
		if m.page() != views.PageFix {
			t.Fatalf("page %v", m.page())
		}
		cached, _ := m.jobs.result(m.panels.key)
		r := cached.fix
		if r == nil || len(views.FixItems(r)) != 4 {
			t.Fatalf("report %+v", r)
		}
		v := m.View()
		checkSize(t, v, w, h)
		if !strings.Contains(v, views.SelMark+" 1. cost 2: --edit P0:2=release --edit P1:1=acquire") {
			t.Errorf("fix panel:\n%s", v)
		}
		requireScreen(t, m)
		m = Drive(m, keys("down", "down", "enter")...)
		if m.page() != views.PagePanes || editsOf(m) != "P0:1+wmb P1:1=acquire" {
			t.Fatalf("after enter: page %v, edits %q", m.page(), editsOf(m))
		}
		after, _ := m.jobs.result(exploreKey(m.Scenario().Program, machine.ARM))
		if res := after.explored; res == nil || m.Scenario().Verdict(res).Observation != syntax.Never {
			t.Errorf("the fix applied does not fix: %v", after)
		}
		m = Drive(m, keys("u", "u")...)
		if editsOf(m) != "" {
			t.Errorf("u u: edits %q", editsOf(m))
		}
	})
}
