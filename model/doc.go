// Package model holds smpscope's bubbletea models: the state of the picker
// and scenario screens, and Update, which routes keys, mouse and background
// results. It performs no rendering of its own (see package views) and no I/O
// beyond the commands it returns.
//
// The command line builds a Model with New:
//
//	opts, err := model.LibraryOptions()      // the built-in library for the picker
//	opts.Scenario, err = model.LoadScenario(arg) // optional: open it directly
//	opts.Mode, opts.Seed = machine.ARM, 1
//	p := tea.NewProgram(model.New(opts), tea.WithAltScreen(), tea.WithMouseCellMotion())
//
// Undo and redo are a cursor into the recorded history: the model keeps every
// state (states[0] is the initial one) and machine.Apply is pure, so nothing
// is copied. Steps ahead of the cursor are the redo future; loading a witness
// makes it the future of the initial state, so → walks through it.
//
// Keys (KeyMap, DefaultKeyMap): digits take the numbered step (with ten or
// more steps enabled, a number that could still grow waits for the next
// digit, enter, or a pause of Options.DigitDelay); ←/→ step back and forward;
// space takes a random step and g runs to a final state (seeded, so runs are
// reproducible); r resets; w loads the witness of the outcome the condition
// asks about; m switches between TSO and ARM-like (replaying the history when
// it is valid there); v opens the next variant of the family; tab and
// shift+tab move the focus; ↑/↓ (k/j) and pgup/pgdn move in the focused
// pane, h/l scroll the CPU columns, enter acts on the selected row; s shows
// the story, ? the help; esc goes back to the picker; q or ctrl+c quits.
// Mouse: a click takes a step, travels in the history or loads an outcome's
// witness; the wheel scrolls the focused pane. c opens the compare panel
// (every variant of the family in both modes) and n the necessity panel
// (which ordering annotations are needed in each mode); e writes the
// history to a trace file (Options.TraceDir) and y copies it, rendered for
// a mail, to the clipboard over OSC 52 (Options.Clipboard). Keys are
// enabled only where they apply (KeyMap bindings are switched on and off
// after every message), so the help shows what works.
//
// The exhaustive exploration of the current scenario and mode runs in a
// command with a cancellable context and a spinner; results are cached per
// program and mode. The panels' analyses (package scenarios: Compare,
// NecessityOf) run the same way, and are cancelled when the panel closes or
// the scenario is left. File and terminal output happen only in commands.
//
// Presentation mode (Options.Present) steps through Options.History on a
// timer (Options.Every) with the last event and the story large: space
// pauses and resumes, ←/→ step by hand, esc returns to the normal screen.
package model
