package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"

	"smpscope/machine"
)

// The help bar is checked once, by TestHelpBars' golden, in every context
// that draws one of its own at both sizes. The screens' goldens show a
// placeholder as wide as the bar where it was, so that changing a key
// rewrites one golden file (and README's key table), not every screen's.

// barPlaceholder stands for the help bar in the screens' goldens.
const barPlaceholder = "[help bar: TestHelpBars]"

// requireScreen compares m's screen with the test's golden file, the help
// bar replaced by the placeholder.
func requireScreen(t *testing.T, m Model) {
	t.Helper()
	golden.RequireEqual(t, []byte(withoutHelpBar(m)))
}

// withoutHelpBar returns m's screen with the help bar it drew replaced by
// barPlaceholder, cut or padded with spaces to the bar's width, so that
// the layout around it is unchanged. A screen without the bar (too small
// a terminal) is returned as it is.
func withoutHelpBar(m Model) string {
	v := m.View()
	bar := strings.TrimLeft(m.bar, " ") // the presentation's indicator takes the bar's leading space
	i := strings.LastIndex(v, bar)
	if bar == "" || i < 0 {
		return v
	}
	w := lipgloss.Width(bar)
	ph := barPlaceholder
	if len(ph) > w {
		ph = ph[:w]
	}
	return v[:i] + ph + strings.Repeat(" ", w-len(ph)) + v[i+len(bar):]
}

// TestHelpBars is the golden of the help bars: each context that builds
// its own (the picker, the scenario screen, a page, the list of fixes, the presentation
// running, paused and at its end, the what-if cursor before and after an
// edit), at 80 and 140 columns. Every bar ends with help and quit, and
// fits its line.
func TestHelpBars(t *testing.T) {
	contexts := []struct {
		name string
		at   func(w, h int) Model
	}{
		{"picker", func(w, h int) Model {
			return Start(Options{Library: testLibrary, Load: testLoad, Seed: 1, Explore: &machine.Options{MaxStates: 20000}}, w, h)
		}},
		{"scenario", func(w, h int) Model { return Start(testOptions(mpScenario("wmb+rmb"), machine.ARM), w, h) }},
		{"page (compare)", func(w, h int) Model {
			return Drive(Start(testOptions(mpScenario("wmb+rmb"), machine.ARM), w, h), keys("c")...)
		}},
		{"page (fixes)", func(w, h int) Model {
			return Drive(Start(testOptions(libSpec(t, "mp+once"), machine.ARM), w, h), keys("f")...)
		}},
		{"page (picture)", func(w, h int) Model {
			return Drive(Start(testOptions(mpScenario("wmb+rmb"), machine.ARM), w, h), keys("p")...)
		}},
		{"presentation", func(w, h int) Model {
			m := Start(presentOptions(t), w, h)
			m, _ = tick(t, m)
			return m
		}},
		{"presentation, paused", func(w, h int) Model {
			return Drive(Start(presentOptions(t), w, h), keys(" ")...)
		}},
		{"presentation, at its end", func(w, h int) Model {
			m := Start(presentOptions(t), w, h)
			for range len(m.scen.sess.steps) {
				m, _ = tick(t, m)
			}
			return m
		}},
		{"what-if cursor", func(w, h int) Model {
			return Drive(Start(testOptions(libSpec(t, "ext4-last-group+rel-acq"), machine.ARM), w, h), keys("tab", "l")...)
		}},
		{"what-if cursor, edited", func(w, h int) Model {
			return Drive(Start(testOptions(libSpec(t, "ext4-last-group+rel-acq"), machine.ARM), w, h), keys("tab", "l", "o", "h", "j", "o")...)
		}},
	}
	var b strings.Builder
	for _, sz := range [][2]int{{80, 24}, {140, 45}} {
		for _, c := range contexts {
			m := c.at(sz[0], sz[1])
			bar := strings.TrimLeft(m.bar, " ")
			if bar == "" || !strings.Contains(m.View(), bar) {
				t.Errorf("%s at %dx%d: no help bar on the screen:\n%s", c.name, sz[0], sz[1], m.View())
				continue
			}
			if !strings.HasSuffix(bar, "q quit") || lipgloss.Width(m.bar) >= sz[0] {
				t.Errorf("%s at %dx%d: help bar %q", c.name, sz[0], sz[1], m.bar)
			}
			fmt.Fprintf(&b, "%s, %dx%d:\n%s\n", c.name, sz[0], sz[1], m.bar)
		}
	}
	golden.RequireEqual(t, []byte(b.String()))
}
