package model

// Issue 11 in the UI: bursts of keys (item 12), the presentation's start
// on a large test (item 9), partial results (item 6) and text from input
// on the screen (item 2).

import (
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios/scenariotest"
)

func TestQuitScanner(t *testing.T) {
	for _, tc := range []struct {
		in       string
		ctrlC, q bool
	}{
		{"jjjq", false, true},
		{"jjj\x03", true, false},
		{"\x1bq", false, false},                          // alt+q
		{"\x1b[1;5q", false, false},                      // a CSI ending in q
		{"\x1b]11;rgb:qqqq/0000/0000\x07", false, false}, // an OSC reply
		{"\x1b]2;q\x1b\\", false, false},                 // ST-terminated
		{"\x1b[200~paste q and \x03\x1b[201~", false, false},
		{"\x1b[200~paste\x1b[201~q", false, true},
		{"\x1b[Mqqq", false, false}, // X10 mouse report
		{"\x1b[Mqqqq", false, true},
		{"\x1b[<0;113;5M", false, false}, // SGR mouse report
		{"\x1bOq", false, false},         // SS3
		{"héq", false, true},
	} {
		var s quitScanner
		c, q := s.feed([]byte(tc.in))
		if c != tc.ctrlC || q != tc.q {
			t.Errorf("%q: ctrl+c %v q %v", tc.in, c, q)
		}
	}
	// Sequences split across reads.
	var s quitScanner
	for _, part := range []string{"\x1b", "[20", "0~q", "\x1b[2", "01~"} {
		if _, q := s.feed([]byte(part)); q {
			t.Errorf("q inside a paste split at %q", part)
		}
	}
	if _, q := s.feed([]byte("q")); !q {
		t.Error("q after the paste")
	}
}

// TestAheadReader checks that q and ctrl+c are seen as soon as they are
// typed, while bubbletea has not read the keys before them (nothing reads
// them until q is seen), and that the bytes reach bubbletea unchanged.
func TestAheadReader(t *testing.T) {
	pr, pw := io.Pipe()
	seen := make(chan quitAheadMsg, 4)
	r, err := newAheadReader(pr, func(q quitAheadMsg) { seen <- q })
	if err != nil {
		t.Fatal(err)
	}
	burst := strings.Repeat("jk12\x1b[A\t", 2000/6) + "q"
	go pw.Write([]byte(burst))
	select {
	case q := <-seen:
		if q.force {
			t.Error("q seen as ctrl+c")
		}
	case <-time.After(hangGuard):
		t.Fatal("q behind 2000 keys not seen while the keys were not read")
	}
	go pw.Write([]byte("\x03"))
	select {
	case q := <-seen:
		if !q.force {
			t.Error("ctrl+c not seen as ctrl+c")
		}
	case <-time.After(hangGuard):
		t.Fatal("ctrl+c not seen")
	}
	got := make([]byte, 0, len(burst)+1)
	buf := make([]byte, 100)
	for len(got) < len(burst)+1 {
		n, err := r.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, buf[:n]...)
	}
	if string(got) != burst+"\x03" {
		t.Error("the bytes changed on their way")
	}
	r.Close()
	if _, err := r.Read(buf); err == nil {
		t.Error("Read after Close")
	}
}

// TestQuitAhead checks that the model quits on q or ctrl+c typed ahead of
// queued keys, except while a filter is typed (q is a letter there).
func TestQuitAhead(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.TSO), 100, 30)
	for _, force := range []bool{false, true} {
		if _, cmd := m.update(quitAheadMsg{force: force}); !quits(cmd) {
			t.Errorf("force %v: no quit", force)
		}
	}
	p := Drive(m, keyMsg("esc"), keyMsg("/"))
	if !p.picker.filtering() {
		t.Fatal("not filtering")
	}
	if _, cmd := p.update(quitAheadMsg{}); quits(cmd) {
		t.Error("q quits while a filter is typed")
	}
	if _, cmd := p.update(quitAheadMsg{force: true}); !quits(cmd) {
		t.Error("ctrl+c does not quit while a filter is typed")
	}
}

func quits(cmd tea.Cmd) bool {
	for _, msg := range messagesAll(cmd) {
		if _, ok := msg.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// messagesAll is messages without dropping quits.
func messagesAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, messagesAll(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// TestKeysRenderOncePerFrame checks item 12: a burst of keys is handled
// in full, but rendered once per frame, and the frame after the burst
// shows the last key's effect.
func TestKeysRenderOncePerFrame(t *testing.T) {
	for _, sc := range []func() string{func() string { return "mp" }, func() string { return "big" }} {
		spec := mpScenario("plain")
		if sc() == "big" {
			spec = bigScenario()
		}
		opts := testOptions(spec, machine.ARM)
		opts.TraceDir, opts.Clipboard = t.TempDir(), io.Discard
		m := Start(opts, 120, 40)
		var ticks int
		var pending func(time.Time) tea.Msg
		m.opts.frameInterval = time.Hour // the burst lies within one frame
		m.opts.tick = func(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
			if _, ok := fn(time.Time{}).(frameMsg); ok {
				ticks++
				pending = fn
			}
			return nil
		}
		m.frames.last = time.Now()
		before := m.View()
		rng := rand.New(rand.NewPCG(11, 12))
		pool := []string{"1", "2", "3", "left", "right", "up", "down", "tab", " ", "r", "g", "h", "l", "pgdown"}
		start := time.Now()
		for range 2000 {
			m, _ = m.update(keyMsg(pool[rng.IntN(len(pool))]))
		}
		m, _ = m.update(keyMsg("g")) // ends in a final state
		elapsed := time.Since(start)
		if m.View() != before {
			t.Errorf("%s: a key within the frame rendered", sc())
		}
		if ticks != 1 || pending == nil {
			t.Fatalf("%s: %d frame timers for one burst", sc(), ticks)
		}
		m, _ = m.update(pending(time.Now()))
		if v := m.View(); v == before || !strings.Contains(v, "■ final") {
			t.Errorf("%s: the frame after the burst does not show it:\n%s", sc(), v)
		}
		// A frame with nothing new draws nothing.
		if m2, _ := m.update(frameMsg{}); m2.View() != m.View() {
			t.Errorf("%s: an empty frame changed the view", sc())
		}
		// How fast the keys are handled is BenchmarkUpdateView's to
		// measure; here, that they were handled without a render.
		t.Logf("%s: 2000 keys handled in %v, one frame", sc(), elapsed.Round(time.Millisecond))
	}
}

// TestPresentSearching checks item 9: on a scenario whose witness takes
// time to find, presentation mode shows its screen at once, says it is
// searching, and q or esc work while it searches; when the search lands
// the witness is presented.
func TestPresentSearching(t *testing.T) {
	opts := testOptions(mpScenario("plain"), machine.ARM)
	opts.Present, opts.Every = true, time.Second
	m := New(opts) // Init's exploration is not run yet: the search is on
	m, _ = m.update(size(120, 40))
	v := m.View()
	if !strings.Contains(v, "searching for the witness to present") || !strings.Contains(v, "esc: the normal screen") {
		t.Fatalf("no searching screen:\n%s", v)
	}
	if _, cmd := New(opts).update(keyMsg("q")); !quits(cmd) {
		t.Error("q does not quit while searching")
	}
	m2, _ := m.update(keyMsg("right"))
	if !strings.Contains(m2.View(), "» searching: esc for the") {
		t.Error("a step key while searching does not say what works")
	}
	left, _ := New(opts).update(keyMsg("esc"))
	if left.scen.present.on || left.scen.present.searching || left.scen.notice != "presentation over: every key works again" {
		t.Error("esc does not leave the search for the normal screen")
	}
	// The exploration lands: the witness is presented from its start.
	m = Drive(m, messages(m.Init())...)
	if m.scen.present.searching || len(m.scen.sess.steps) == 0 || m.scen.sess.cursor != 0 {
		t.Fatalf("searching %v, %d steps, at %d", m.scen.present.searching, len(m.scen.sess.steps), m.scen.sess.cursor)
	}
	if v := m.View(); !strings.Contains(v, "presenting · step 0/") || !strings.Contains(v, "the shortest witness") {
		t.Errorf("not presenting:\n%s", v)
	}
	// A search that stops at a limit: a random run, saying why.
	opts.Explore = &machine.Options{MaxStates: 1}
	m = Start(opts, 140, 45)
	if v := m.View(); !strings.Contains(v, "no witness found (stopped after") || !strings.Contains(v, "▶ presenting a random run (no witness), seed 1 · step 0/") || len(m.scen.sess.steps) == 0 {
		t.Errorf("no fallback:\n%s", v)
	}
}

// TestPartialOutcomes checks item 6: the outcomes pane of a search a
// limit stopped gives no verdict, only what it found so far.
func TestPartialOutcomes(t *testing.T) {
	opts := testOptions(bigScenario(), machine.ARM)
	opts.Explore = &machine.Options{MaxStates: 1}
	for _, sp := range []func() Options{
		func() Options { return opts },
		func() Options {
			o := testOptions(mpScenario("plain"), machine.ARM)
			o.Explore = &machine.Options{MaxStates: 1}
			return o
		},
	} {
		m := Start(sp(), 140, 45)
		if m.explored() == nil || m.explored().Complete {
			t.Fatal("the search was not stopped")
		}
		v := m.View()
		if !strings.Contains(v, "verdict unknown") || !strings.Contains(v, "so far") || !strings.Contains(v, "stopped") || !strings.Contains(v, "state limit (1)") {
			t.Errorf("no unknown verdict:\n%s", v)
		}
		for _, word := range []string{"Never 0/", "Sometimes ", "Always ", "incomplete"} {
			if strings.Contains(v, word) {
				t.Errorf("a verdict (%q) for a partial search:\n%s", word, v)
			}
		}
	}
}

// TestNoticesArePrintable checks item 2 in the UI: a notice quoting a
// path or an error with escape sequences reaches the screen escaped.
func TestNoticesArePrintable(t *testing.T) {
	m := Start(testOptions(mpScenario("plain"), machine.TSO), 120, 40)
	m.scen.notice = "cannot write /tmp/\x1b]2;PWNED\a\x1b[31mx"
	m, _ = m.update(size(120, 40))
	v := m.View()
	if strings.ContainsAny(v, "\x1b\a") || !strings.Contains(v, `\x1b]2;PWNED\x07`) {
		t.Errorf("notice:\n%q", v)
	}
	p := Drive(m, keyMsg("esc"))
	p.picker.notice = "cannot open \x1b]2;PWNED\a"
	p, _ = p.update(size(120, 40))
	if v := p.View(); strings.ContainsAny(v, "\x1b\a") || !strings.Contains(v, `\x1b]2;PWNED\x07`) {
		t.Errorf("picker notice:\n%q", v)
	}
	sp := mpScenario("plain")
	sp.Name, sp.Variant = "evil\x1b]2;x\a", "v\x1b[2J"
	if v := Start(testOptions(sp, machine.TSO), 120, 40).View(); strings.ContainsAny(v, "\x1b\a") {
		t.Errorf("header:\n%q", v)
	}
}

// TestOutcomesPaneStuck: the outcomes pane lists faulted executions as
// rows (with their witness, like deadlocks), and says when no execution
// reached the end (issue 21).
func TestOutcomesPaneStuck(t *testing.T) {
	for _, tc := range []struct {
		src, want, row string
	}{
		{"C allfault\n{}\nP0(int *x) {\n int r0; int *r2; int r1;\n r0 = 8;\n r2 = x + r0;\n r1 = READ_ONCE(*r2);\n}\nexists (0:r1=0)\n",
			"✗ no execution reached the end: 1", "✗ fault: P0:3, r1 = READ_ONCE(*r2)"},
		{"C selfdl\n{}\nP0(int *x) {\n rcu_read_lock();\n synchronize_rcu();\n rcu_read_unlock();\n}\nexists (x=0)\n",
			"✗ no execution reached the end: 1", "✗ deadlock: P0:"},
	} {
		m := Start(testOptions(scenariotest.Spec(t, "test.litmus", tc.src), machine.TSO), 140, 45)
		if m.explored() == nil || !m.explored().Complete {
			t.Fatal("not explored")
		}
		v := m.View()
		if !strings.Contains(v, tc.want) || !strings.Contains(v, tc.row) {
			t.Errorf("no %q or %q in the outcomes pane:\n%s", tc.want, tc.row, v)
		}
		c := m.common()
		if n := m.scen.outcomes(c).Rows(); n != 1 {
			t.Errorf("%d rows, want 1 (the stuck execution)", n)
		}
		if steps, ok := m.scen.outcomes(c).Witness(0); !ok || len(steps) == 0 {
			t.Errorf("row 0 has no witness")
		}
	}
}
