package model

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/views"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// Test scenarios written here, so that the UI tests do not depend on the
// scenarios library or its wording: mpScenario is compiled from litmus
// source (so that what-if edits and the necessity panel, which edit the
// source, work on it); bigScenario is built with machine.NewBuilder.

// mpSources are the message-passing variants' threads.
var mpSources = map[string][2]string{
	"plain":   {"WRITE_ONCE(*x, 1);\n\tWRITE_ONCE(*y, 1);", "r0 = READ_ONCE(*y);\n\tr1 = READ_ONCE(*x);"},
	"wmb+rmb": {"WRITE_ONCE(*x, 1);\n\tsmp_wmb();\n\tWRITE_ONCE(*y, 1);", "r0 = READ_ONCE(*y);\n\tsmp_rmb();\n\tr1 = READ_ONCE(*x);"},
	"rel+acq": {"WRITE_ONCE(*x, 1);\n\tsmp_store_release(y, 1);", "r0 = smp_load_acquire(y);\n\tr1 = READ_ONCE(*x);"},
}

func mpScenario(variant string) *scenarios.Spec {
	th, ok := mpSources[variant]
	if !ok {
		panic(variant)
	}
	name := "MP+" + variant
	src := "C " + name + "\n\n{}\n\nP0(int *x, int *y)\n{\n\t" + th[0] + "\n}\n\nP1(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\n\t" + th[1] + "\n}\n\nexists (1:r0=1 /\\ 1:r1=0)\n"
	sc, err := scenarios.Parse(name+".litmus", []byte(src))
	if err != nil {
		panic(err)
	}
	c, err := scenarios.Compile(sc)
	if err != nil {
		panic(err)
	}
	sp := scenarios.NewSpec(c)
	sp.Title = "Message passing: does the reader see the data once it sees the flag?"
	sp.Family, sp.Variant = "MP", variant
	sp.Story = "P0 writes the data x, then the flag y. P1 reads the flag, then the data.\n\nThe question is whether P1 can see the flag set but the data still 0: on ARM-like hardware, without barriers, it can, because the invalidation of x may still sit in P1's queue."
	sp.Source = "tools/memory-model/litmus-tests/MP+poonceonces.litmus"
	sp.Expected = map[string]syntax.Observation{"plain": syntax.Sometimes, "wmb+rmb": syntax.Never, "rel+acq": syntax.Never}[variant]
	return sp
}

// bigScenario is 4 CPUs with 10 instructions each (the speed target).
func bigScenario() *scenarios.Spec {
	b := machine.NewBuilder("big")
	var locs []machine.Loc
	for i := 0; i < 4; i++ {
		locs = append(locs, b.Loc(fmt.Sprintf("v%d", i), 0))
	}
	for c := 0; c < 4; c++ {
		t := b.Thread()
		var regs []machine.Reg
		for r := 0; r < 5; r++ {
			regs = append(regs, t.Reg(fmt.Sprintf("r%d", r)))
		}
		for i := 0; i < 10; i++ {
			l := locs[(c+i)%4]
			switch i % 4 {
			case 0:
				t.StoreConst(machine.Once, l, machine.Value(c*10+i+1))
			case 1:
				t.Load(machine.Once, regs[i/2], l)
			case 2:
				t.StoreConst(machine.Release, l, machine.Value(c*10+i+1))
			default:
				t.Load(machine.Acquire, regs[i/2], l)
			}
		}
	}
	p := b.Program()
	return &scenarios.Spec{Name: "big4x10", Title: "four CPUs, ten instructions each", Program: p}
}

var testLibrary = []LibraryEntry{
	{Name: "MP+plain", Family: "MP", Variant: "plain", Title: "Message passing with WRITE_ONCE/READ_ONCE only"},
	{Name: "MP+wmb+rmb", Family: "MP", Variant: "wmb+rmb", Title: "Message passing with smp_wmb/smp_rmb"},
	{Name: "MP+rel+acq", Family: "MP", Variant: "rel+acq", Title: "Message passing with release/acquire"},
	{Name: "big4x10", Family: "", Title: "Four CPUs, ten instructions each", Summary: "the speed benchmark"},
}

func testLoad(name string) (*scenarios.Spec, error) {
	switch name {
	case "MP+plain":
		return mpScenario("plain"), nil
	case "MP+wmb+rmb":
		return mpScenario("wmb+rmb"), nil
	case "MP+rel+acq":
		return mpScenario("rel+acq"), nil
	case "big4x10":
		return bigScenario(), nil
	}
	return nil, fmt.Errorf("no scenario named %q", name)
}

func testOptions(sc *scenarios.Spec, mode machine.Mode) Options {
	return Options{Scenario: sc, Library: testLibrary, Load: testLoad, Mode: mode, Seed: 1, DigitDelay: 1,
		Explore: &machine.Options{MaxStates: 20000}}
}

func keys(s ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range s {
		out = append(out, keyMsg(k))
	}
	return out
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case " ":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// atSizes runs f as a subtest named WxH at the narrow and the wide
// layout's sizes.
func atSizes(t *testing.T, f func(t *testing.T, w, h int)) {
	for _, sz := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) { f(t, sz[0], sz[1]) })
	}
}

func size(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// Views of the model's state for the tests.

// explored is the exploration of the open scenario in its mode, if done.
func (m Model) explored() *machine.Result { c := m.common(); return m.scen.result(c) }

// exploring reports whether that exploration runs.
func (m Model) exploring() bool { c := m.common(); return m.scen.exploring(c) }

// analysing reports whether the open panel's analysis runs.
func (m Model) analysing() bool { return m.jobs.busy(panelJob, m.panels.key) != nil }

// page is the page shown: a panel's, or the scenario's.
func (m Model) page() views.Page {
	if m.panels.open != views.PagePanes {
		return m.panels.open
	}
	return m.scen.page
}

// layout is the layout drawn last.
func (m Model) layout() (views.Regions, bool) { return m.scen.frame.Regions, m.scen.frame.OK() }
