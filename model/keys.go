package model

import (
	"fmt"
	"strings"

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

	// Analyse and share.
	Compare   key.Binding // c: the family's variants in both modes
	Necessity key.Binding // n: which ordering annotations are needed
	Picture   key.Binding // p: the picture of the history (a timeline)
	Source    key.Binding // i: the litmus source with its instruction numbers
	Fix       key.Binding // f: the minimal fixes
	Export    key.Binding // e: write the history to a trace file
	Copy      key.Binding // y: copy the history as mail-ready text (OSC 52)
	Pause     key.Binding // space while presenting: pause and resume

	// What if (whatif.go).
	EditOrder   key.Binding // o: the next ordering of the instruction under the edit cursor
	EditBarrier key.Binding // b: the next barrier after it
	EditRemove  key.Binding // x: remove the barrier under the cursor
	UndoEdit    key.Binding
	RedoEdit    key.Binding
	Diff        key.Binding // d: the what-if page
	SaveEdited  key.Binding // S: save the edited test as a new .litmus file

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

		Compare:   b([]string{"c"}, "c", "compare variants"),
		Necessity: b([]string{"n"}, "n", "needed barriers?"),
		Picture:   b([]string{"p"}, "p", "picture"),
		Source:    b([]string{"i"}, "i", "source"),
		Fix:       b([]string{"f"}, "f", "which fix?"),
		Export:    b([]string{"e"}, "e", "save trace file"),
		Copy:      b([]string{"y"}, "y", "copy trace text"),
		Pause:     b([]string{" "}, "space", "pause/resume"),

		EditOrder:   b([]string{"o"}, "o", "cycle ordering"),
		EditBarrier: b([]string{"b"}, "b", "cycle barrier after"),
		EditRemove:  b([]string{"x"}, "x", "remove barrier"),
		UndoEdit:    b([]string{"u"}, "u", "undo edit"),
		RedoEdit:    b([]string{"U"}, "U", "redo edit"),
		Diff:        b([]string{"d"}, "d", "what-if diff"),
		SaveEdited:  b([]string{"S"}, "S", "save edited .litmus"),

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
	return []key.Binding{k.Step, k.BackFwd, k.Witness, k.Mode, k.Random, k.Focus, k.Story, k.Variant, k.Picker,
		brief(k.Necessity, "needed?"), brief(k.Fix, "fix?"), brief(k.Compare, "compare"), k.Picture, brief(k.Export, "save"), brief(k.Copy, "copy")}
}

// brief returns b with a shorter help text, for the one-line help.
func brief(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// panelHelp is the short help of the panels; on the necessity and fix
// panels ↑/↓ select and enter acts (selects).
func (k KeyMap) panelHelp(selects bool) []key.Binding {
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	var act []key.Binding
	if selects {
		scroll.SetHelp("↑/↓", "select")
		act = []key.Binding{brief(k.Enter, "apply")}
	}
	closeKey := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))
	return append(append([]key.Binding{scroll}, act...), closeKey, brief(k.Compare, "compare"), brief(k.Necessity, "needed?"), brief(k.Fix, "fix?"), brief(k.Export, "save"), brief(k.Copy, "copy"))
}

// pictureHelp is the short help of the picture page: it steps as the
// panes do, and scrolls.
func (k KeyMap) pictureHelp() []key.Binding {
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	closeKey := key.NewBinding(key.WithKeys("p", "esc"), key.WithHelp("p/esc", "close"))
	return []key.Binding{brief(k.BackFwd, "step"), k.Random, brief(k.Run, "run"), scroll, closeKey, k.Mode, brief(k.Export, "save"), brief(k.Copy, "copy")}
}

// presentHelp is the short help of presentation mode; space says what
// it does now ("pause", "resume" or "replay").
func (k KeyMap) presentHelp(space string) []key.Binding {
	story := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "story"))
	leave := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave"))
	explain := key.NewBinding(key.WithKeys("pgup", "pgdown"), key.WithHelp("pgup/pgdn", "explanation"))
	return []key.Binding{brief(k.Pause, space), brief(k.BackFwd, "step"), brief(k.Mode, "TSO⇄ARM"), explain, story, leave,
		brief(k.Necessity, "needed?"), brief(k.Fix, "fix?"), brief(k.Compare, "compare"), brief(k.Export, "save"), brief(k.Copy, "copy")}
}

// ShortHelpEnd is the part of the help line that is never cut: help and
// quit.
func (k KeyMap) ShortHelpEnd() []key.Binding { return []key.Binding{k.Help, k.Quit} }

// FullHelp is the scenario screen's full help, one column per topic
// (help.KeyMap).
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Step, k.Enter, k.Back, k.Forward, k.Random, k.Pause, k.Run, k.Reset, k.Witness},
		{k.Focus, k.FocusBack, k.Up, k.Down, k.PageUp, k.PageDown, k.ScrollLeft, k.ScrollRight},
		{k.Mode, k.Variant, k.Story, k.Source, k.Help, k.Picker, k.Quit},
		{k.Compare, k.Necessity, k.Fix, k.Picture, k.Export, k.Copy},
		{k.EditOrder, k.EditBarrier, k.EditRemove, k.UndoEdit, k.RedoEdit, k.Diff, k.SaveEdited},
	}
}

// fullHelpTitles names FullHelp's columns.
var fullHelpTitles = []string{"Stepping", "Panes", "Scenario", "Analyse & share", "What if"}

// fullHelpNotes say more about a binding than its short help text, by
// that text; the README's key table uses them.
var fullHelpNotes = map[string]string{
	"step":                "take the step with that number (with ten or more steps enabled, a number that could still grow waits for the next digit, enter or a pause)",
	"take / go to / load": "take the selected step, go to the selected history entry, or load the selected outcome's witness",
	"step back":           "step back (undo, without limit)",
	"step forward":        "step forward again (redo), or replay a loaded witness or trace",
	"random":              "take one random enabled step (seeded: --seed)",
	"pause/resume":        "presentation mode: pause and resume (at the end: replay from the start); ← and → step by hand and pause, pgup/pgdn scroll the explanation, m presents the other mode",
	"run to the end":      "replay the steps ahead (a loaded witness or trace), then take random steps to a final state",
	"reset":               "reset to the initial state",
	"witness":             "load the shortest witness of the outcome the condition asks about (when it is unreachable, the closest attempt at it)",
	"pane":                "move the focus to the next pane",
	"previous pane":       "move the focus to the previous pane",
	"up":                  "move up in the focused pane (in presentation mode: scroll the story)",
	"down":                "move down in the focused pane (in presentation mode: scroll the story)",
	"CPUs left":           "scroll the CPU columns left when they do not all fit",
	"CPUs right":          "scroll the CPU columns right",
	"TSO⇄ARM":             "switch between TSO and ARM-like mode, keeping the longest part of the history that is valid there (m again, before another step, restores what was cut); in presentation mode, present the other mode's witness or closest attempt",
	"next variant":        "open the next variant of the family, in the same mode",
	"story":               "show the scenario's story (for a file without one: its comment and its source)",
	"source":              "page: the scenario's litmus source, each line with the instructions compiled from it (P0:2, the numbers the CPU columns, edits and step IDs use)",
	"help":                "show every key and the legend of marks",
	"back":                "close a page or panel; leave presentation mode; go back to the picker",
	"compare variants":    "panel: every variant of the family explored in both modes, Never/Sometimes with counts (computed in the background; esc cancels)",
	"picture":             "page: the picture of the history up to the step shown, a timeline with one lane per CPU and memory and one row per step (each store's way into the store buffer, its commit and the invalidations it sent; each load's source, a stale read with the store it missed; reorderings; where CPUs waited), then the event graph's cycle; ←/→, space, g, r, w and the step numbers step on it and m switches the mode, ↑/↓ and pgup/pgdn scroll, p or esc closes",
	"needed barriers?":    "panel: which barriers, acquires, releases and ordered RMWs are needed in each mode, with the shortest witness without them; ↑/↓ select one, enter loads that witness (the annotation weakened as a what-if)",
	"which fix?":          "panel: the minimal sets of strengthenings (acquire, release, RMW orderings, smp_mb/smp_rmb/smp_wmb inserted) that make the outcome unreachable, in both modes and in each, cheapest first (smpscope fix); ↑/↓ select one, enter applies it as a what-if",
	"save trace file":     "write the history up to the current step to a trace file in the current directory, named after the scenario and mode (never overwriting)",
	"copy trace text":     "copy the history up to the current step as mail-ready text (72 columns) to the clipboard over OSC 52",
	"cycle ordering":      "what if: give the instruction under the edit cursor (CPUs pane: ↑/↓ and h/l move it, a click puts it) the next ordering that fits it: READ_ONCE → smp_load_acquire (→ rcu_dereference for a pointer), WRITE_ONCE → smp_store_release, an RMW through _relaxed, _acquire, _release and fully ordered, a barrier through smp_mb, smp_rmb, smp_wmb; the scenario is recompiled and explored again, and the outcomes pane shows the verdict before → after (the first press only moves the focus to the CPUs)",
	"cycle barrier after": "what if: cycle the barrier after the instruction under the edit cursor: none → smp_mb → smp_rmb → smp_wmb → none",
	"remove barrier":      "what if: remove the barrier under the edit cursor",
	"undo edit":           "undo the last edit (without limit; the history replays as far as it still can)",
	"redo edit":           "redo an undone edit",
	"what-if diff":        "page: the edits (as --edit flags), the verdict before → after in both modes (the other mode explored on request), the outcomes that appeared or vanished, and the source against the original",
	"save edited .litmus": "save the edited test as a new .litmus file in the current directory (NAME+edited.litmus; never overwriting)",
}

// MarkdownTable renders the full help as a markdown table, one row per
// binding under a row per FullHelp column, then the mouse: the README's
// key table is generated with it (see TestREADMEKeys).
func (k KeyMap) MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| Key | Action |\n|---|---|\n")
	row := func(key, desc string) { fmt.Fprintf(&b, "| %s | %s |\n", key, mdEscape(desc)) }
	for i, group := range k.FullHelp() {
		row("**"+fullHelpTitles[i]+"**", "")
		for _, kb := range group {
			h := kb.Help()
			desc := h.Desc
			if note := fullHelpNotes[desc]; note != "" {
				desc = note
			}
			row("`"+strings.ReplaceAll(h.Key, "/", "` / `")+"`", desc)
		}
	}
	row("**Mouse**", "")
	row("click", "take a step, go to a history entry, load an outcome's witness, or put the edit cursor on an instruction")
	row("wheel", "scroll the focused pane (in presentation mode: the story)")
	return b.String()
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

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
			if b.Help().Key == k.Step.Help().Key && b.Enabled() {
				sec.Keys = append(sec.Keys, [2]string{"", "(10+ steps: type 1 2, then"}, [2]string{"", " pause or enter)"})
			}
		}
		if len(sec.Keys) == 0 {
			continue // every key of it is off (no what-if without litmus source)
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
	{"S→L history", "a load made while its CPU's own earlier store was still buffered ([STORE→LOAD REORDERING])"},
	{"→ step", "the step → replays next (history ahead of you, or a witness)"},
	{"▶ / · history", "the state shown / steps ahead of it"},
	{"✓ outcome", "the condition's proposition holds; ▶ its witness is loaded; ✗ deadlock"},
	{"› row", "selected row; enter acts on it"},
	{"› line", "the what-if edit cursor (CPUs pane focused): o, b and x edit that instruction"},
	{"~ line", "an instruction a what-if edit changed or inserted (d: the diff against the original)"},
	{"┏━┓ box", "the focused pane (tab moves focus)"},
}

// editHelp is the short help while the CPUs pane has the focus: the
// edit cursor and the what-if keys.
func (k KeyMap) editHelp() []key.Binding {
	cursor := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "cursor"))
	cpu := key.NewBinding(key.WithKeys("h", "l"), key.WithHelp("h/l", "CPU"))
	undo := key.NewBinding(key.WithKeys("u", "U"), key.WithHelp("u/U", "undo/redo"))
	return []key.Binding{cursor, cpu, brief(k.EditOrder, "ordering"), brief(k.EditBarrier, "barrier"), brief(k.EditRemove, "remove"),
		undo, brief(k.Diff, "diff"), brief(k.SaveEdited, "save"), k.BackFwd, k.Focus}
}
