package model

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

// The teaching surface at projector sizes (issue 19): on the screens a
// class came for, the whole explanation and every source line's
// primitive are on screen, or one scroll away with the scroll marker
// saying so; and over the whole library no primitive's name is cut at
// 80×24. These use the library (its wording is what a class reads).

// projectorSizes are a projector's sizes and a large terminal's.
var projectorSizes = [][2]int{{80, 24}, {100, 30}, {140, 45}}

// libOptions opens a built-in scenario with the library behind it, as
// smpscope NAME does.
func libOptions(t testing.TB, name string, mode machine.Mode) Options {
	t.Helper()
	opts, err := LibraryOptions()
	if err != nil {
		t.Fatal(err)
	}
	opts.Scenario, opts.Mode, opts.Seed, opts.DigitDelay = libSpec(t, name), mode, 1, 1
	opts.Explore = &machine.Options{MaxStates: 200000}
	return opts
}

// primitiveCall finds the functions an instruction's text calls.
var primitiveCall = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*\(`)

// primitives are the names of what an instruction calls (its
// primitives: smp_store_release, READ_ONCE, smp_mb…), not keywords.
func primitives(text string) []string {
	var out []string
	for _, m := range primitiveCall.FindAllString(text, -1) {
		name := strings.TrimSuffix(m, "(")
		switch name {
		case "if", "while", "for", "switch", "return", "sizeof":
			continue
		}
		out = append(out, name)
	}
	return out
}

// checkPrimitives fails when a source line's primitive is cut in the CPU
// columns: every instruction of the CPUs shown draws each of its
// primitives whole on one of its lines (with its parenthesis), and with
// onScreen those lines are in the pane's view, or one scroll below it
// with ▼ in its border.
func checkPrimitives(t *testing.T, m Model, onScreen bool) {
	t.Helper()
	f := m.scen.frame
	p := m.Machine().Prog
	off, vis := m.scen.panes[views.PaneCPUs].offset(), f.Visible(views.PaneCPUs)
	for c := f.CPUOff; c < min(len(p.Threads), f.CPUOff+f.CPUsShown()); c++ {
		for i, in := range p.Threads[c].Code {
			lines := f.CodeLines(c, i)
			for _, name := range primitives(in.Text) {
				whole := false
				for _, l := range lines {
					whole = whole || strings.Contains(l, name+"(")
				}
				if !whole {
					t.Errorf("%s %s:%d: %q cut: %q", m.Scenario().Name, p.Threads[c].Name, i+1, name, lines)
				}
			}
			if !onScreen {
				continue
			}
			first := f.CodeRow(c, i)
			last := first + len(lines) - 1
			switch {
			case first >= off && last < off+vis:
			case last < off+2*vis && strings.Contains(boxRows(m, f.Regions.Panes[views.PaneCPUs]), "▼ more"):
				// One scroll away, and the border says so.
			default:
				t.Errorf("%s %s:%d (lines %d–%d) is not on screen (lines %d–%d shown)", m.Scenario().Name, p.Threads[c].Name, i+1, first, last, off, off+vis-1)
			}
		}
	}
}

// boxRows is the text of the view inside rectangle r, its border
// included.
func boxRows(m Model, r views.Rect) string {
	rows := strings.Split(ansi.Strip(m.View()), "\n")
	var out []string
	for y := r.Y; y < r.Y+r.H && y < len(rows); y++ {
		row := []rune(rows[y])
		out = append(out, string(row[min(r.X, len(row)):min(r.X+r.W, len(row))]))
	}
	return strings.Join(out, "\n")
}

// checkExplanation fails unless the whole explanation is on screen, or
// the rest of it one page down (the ▼ in its border says so, and
// shift+tab, pgdn shows it). It returns the model scrolled back.
func checkExplanation(t *testing.T, m Model) {
	t.Helper()
	f := m.scen.frame
	lines, vis := f.Lines(views.PaneEvent), f.Visible(views.PaneEvent)
	box := boxRows(m, f.Regions.Event)
	shown := func(box string, ls []string) {
		t.Helper()
		for _, l := range ls {
			if l := strings.TrimSpace(ansi.Strip(l)); l != "" && !strings.Contains(box, l) {
				t.Errorf("%s: the explanation's line %q is not shown:\n%s", m.Scenario().Name, l, box)
			}
		}
	}
	if len(lines) <= vis {
		shown(box, lines)
		return
	}
	if len(lines) > 2*vis {
		t.Errorf("%s: the explanation has %d lines in a box of %d: more than one page away", m.Scenario().Name, len(lines), vis)
	}
	if !strings.Contains(box, "▼ more") || !strings.Contains(box, "shift+tab") {
		t.Errorf("%s: the explanation is cut without saying how to read on:\n%s", m.Scenario().Name, box)
	}
	shown(box, lines[:vis])
	m = Drive(m, keys("shift+tab", "pgdown")...)
	if m.scen.focus != views.PaneEvent {
		t.Fatalf("shift+tab focused %s, not the explanation", m.scen.focus)
	}
	shown(boxRows(m, m.scen.frame.Regions.Event), lines[len(lines)-vis:])
}

// TestProjectorScreens: the five screens at the three sizes.
func TestProjectorScreens(t *testing.T) {
	for _, c := range []struct {
		name  string
		steps int // the witness's (or attempt's) steps to take; -1: all
	}{
		{"mp+mb", -1},                     // the closest attempt's last step
		{"ext4-last-group+rel-acq", 7},    // the stale goal
		{"folio-lock-waiters+split", -1},  // four locations
		{"seqcount+rel-acq", -1},          // four locations, a long condition
		{"sb-end-write+mb-inside-if", -1}, // the lost wake-up's final state
	} {
		for _, sz := range projectorSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, sz[0], sz[1]), func(t *testing.T) {
				m := Start(libOptions(t, c.name, machine.ARM), sz[0], sz[1])
				m = Drive(m, keys("w")...)
				n := len(m.scen.sess.steps)
				if n == 0 || (c.steps > 0 && c.steps > n) {
					t.Fatalf("w loaded %d steps", n)
				}
				if c.steps > 0 {
					n = c.steps
				}
				for i := 0; i < n; i++ {
					m = Drive(m, keys("right")...)
				}
				if c.name == "mp+mb" && (m.scen.currentAttempt() == nil || !strings.Contains(ansi.Strip(strings.Join(m.scen.frame.Lines(views.PaneEvent), " ")), "This is as far as it gets")) {
					t.Fatalf("not the closest attempt's last step:\n%s", m.View())
				}
				checkSize(t, m.View(), sz[0], sz[1])
				checkPrimitives(t, m, true)
				requireScreen(t, m)
				checkExplanation(t, m)
			})
		}
	}
}

// TestLibraryPrimitivesWhole: over the library, at 80×24, no source
// line's primitive name is cut, in the initial state and at the end of
// the witness (or closest attempt), where the marks are widest (» …
// (early)).
func TestLibraryPrimitivesWhole(t *testing.T) {
	lib, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lib {
		m := Start(libOptions(t, e.Name, machine.ARM), 80, 24)
		checkPrimitives(t, m, false)
		for off := 1; off < len(m.Machine().Prog.Threads); off++ {
			m = Drive(m, keys("l")...) // the CPUs beyond the first columns
			checkPrimitives(t, m, false)
		}
		m = Drive(m, keys("w")...)
		for range m.scen.sess.steps {
			m = Drive(m, keys("right")...)
		}
		checkPrimitives(t, m, false)
	}
}
