package model

import (
	"github.com/charmbracelet/bubbles/key"

	"smpscope/views"
)

// KeyMap holds every key binding of the UI. Its ShortHelp and FullHelp
// describe the scenario screen; PickerHelp the picker.
type KeyMap struct {
	// Stepping.
	Step    key.Binding // digits: take the numbered step
	BackFwd key.Binding // ←/→ as one entry of the short help
	Back    key.Binding // ← undo
	Forward key.Binding // → redo / replay
	Random  key.Binding // space: one random enabled step
	Run     key.Binding // g: random steps to a final state
	Reset   key.Binding
	Witness key.Binding

	// Panes.
	Up          key.Binding
	Down        key.Binding
	PageUp      key.Binding
	PageDown    key.Binding
	ScrollLeft  key.Binding // CPU columns
	ScrollRight key.Binding
	Enter       key.Binding // take / travel to / load the selected row
	Focus       key.Binding
	FocusBack   key.Binding

	// Scenario.
	Mode    key.Binding
	Variant key.Binding
	Story   key.Binding

	// Application.
	Help      key.Binding
	Picker    key.Binding // esc: back to the picker
	Quit      key.Binding
	ForceQuit key.Binding

	// Picker.
	Filter      key.Binding
	PrevVariant key.Binding
	NextVariant key.Binding
	Open        key.Binding
}

// DefaultKeyMap returns smpscope's key bindings.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{
		Step:    b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"}, "1-9", "step"),
		BackFwd: b([]string{"left", "right"}, "←/→", "back/fwd"),
		Back:    b([]string{"left"}, "←", "step back"),
		Forward: b([]string{"right"}, "→", "step forward"),
		Random:  b([]string{" "}, "space", "random"),
		Run:     b([]string{"g"}, "g", "run to the end"),
		Reset:   b([]string{"r"}, "r", "reset"),
		Witness: b([]string{"w"}, "w", "witness"),

		Up:          b([]string{"up", "k"}, "↑/k", "up"),
		Down:        b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:      b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:    b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		ScrollLeft:  b([]string{"h"}, "h", "CPUs left"),
		ScrollRight: b([]string{"l"}, "l", "CPUs right"),
		Enter:       b([]string{"enter"}, "enter", "take / go to / load"),
		Focus:       b([]string{"tab"}, "tab", "pane"),
		FocusBack:   b([]string{"shift+tab"}, "shift+tab", "previous pane"),

		Mode:    b([]string{"m"}, "m", "TSO⇄ARM"),
		Variant: b([]string{"v"}, "v", "next variant"),
		Story:   b([]string{"s"}, "s", "story"),

		Help:      b([]string{"?"}, "?", "help"),
		Picker:    b([]string{"esc"}, "esc", "back"),
		Quit:      b([]string{"q"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),

		Filter:      b([]string{"/"}, "/", "filter"),
		PrevVariant: b([]string{"left", "h"}, "←/h", "variant"),
		NextVariant: b([]string{"right", "l"}, "→/l", "variant"),
		Open:        b([]string{"enter"}, "enter", "open"),
	}
}

// ShortHelp is the scenario screen's one-line help (help.KeyMap); the
// help line always ends with ShortHelpEnd.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Step, k.BackFwd, k.Witness, k.Mode, k.Random, k.Focus, k.Story, k.Variant, k.Picker}
}

// ShortHelpEnd is the part of the help line that is never cut: help and
// quit.
func (k KeyMap) ShortHelpEnd() []key.Binding { return []key.Binding{k.Help, k.Quit} }

// FullHelp is the scenario screen's full help, one column per topic
// (help.KeyMap).
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Step, k.Enter, k.Back, k.Forward, k.Random, k.Run, k.Reset, k.Witness},
		{k.Focus, k.FocusBack, k.Up, k.Down, k.PageUp, k.PageDown, k.ScrollLeft, k.ScrollRight},
		{k.Mode, k.Variant, k.Story, k.Help, k.Picker, k.Quit},
	}
}

// fullHelpTitles names FullHelp's columns.
var fullHelpTitles = []string{"Stepping", "Panes", "Scenario"}

// PickerHelp returns the picker's help (a help.KeyMap).
func (k KeyMap) PickerHelp() PickerKeys { return PickerKeys(k) }

// PickerKeys is the KeyMap seen from the picker.
type PickerKeys KeyMap

// ShortHelp implements help.KeyMap.
func (k PickerKeys) ShortHelp() []key.Binding {
	move := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move"))
	variant := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "variant"))
	return []key.Binding{move, variant, k.Filter, k.Open, k.Picker}
}

// FullHelp implements help.KeyMap.
func (k PickerKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// helpSections turns FullHelp into the help page's columns.
func (k KeyMap) helpSections() []views.HelpSection {
	var out []views.HelpSection
	for i, group := range k.FullHelp() {
		sec := views.HelpSection{Title: fullHelpTitles[i]}
		for _, b := range group {
			if b.Enabled() {
				sec.Keys = append(sec.Keys, [2]string{b.Help().Key, b.Help().Desc})
			}
			if b.Help().Key == k.Step.Help().Key {
				sec.Keys = append(sec.Keys, [2]string{"", "(10+ steps: type 1 2, then"}, [2]string{"", " pause or enter)"})
			}
		}
		out = append(out, sec)
	}
	sec := views.HelpSection{Title: "Mouse"}
	sec.Keys = [][2]string{
		{"click", "take a step, go to an entry,"},
		{"", "load an outcome's witness"},
		{"wheel", "scroll the focused pane"},
	}
	return append(out, sec)
}

// legend explains every mark the scenario screen uses; it is part of the
// help page so that the screen reads without colour.
var legend = [][2]string{
	{"▶ line", "the CPU's next instruction (program counter)"},
	{"✓ line", "executed"},
	{"» line", "issued early, ahead of the loads before it (ARM-like)"},
	{"– line", "passed over by a branch"},
	{"● ready / ⏸ blocked / ✓ done", "the CPU can execute / waits (reason below it) / has finished"},
	{"sb x=1", "a store waiting in the store buffer, oldest first; other CPUs cannot see it"},
	{"x=1 rel", "release store: commits only when it is the oldest entry"},
	{"x=1 excl", "the write of an exclusive RMW: reserves the line"},
	{"┆wmb┆", "smp_wmb marker: later stores wait for the ones before it"},
	{"iq x@3", "invalidation of x queued at step 3 (ARM-like); acq: an acquire applies it first"},
	{"cache x S=0", "cache line state (M, E, S, I) and value"},
	{"x S=0 STALE", "a readable copy whose invalidation is still queued"},
	{"[STALE READ]", "a load returned an old value; also FORWARDED, UP TO DATE, NEWER VALUE PENDING"},
	{"→ step", "the step → replays next (history ahead of you, or a witness)"},
	{"▶ / · history", "the state shown / steps ahead of it"},
	{"✓ outcome", "the condition's proposition holds; ▶ its witness is loaded; ✗ deadlock"},
	{"› row", "selected row; enter acts on it"},
	{"┏━┓ box", "the focused pane (tab moves focus)"},
}
