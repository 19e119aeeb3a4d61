// Package model holds smpscope's interactive UI as bubbletea models.
//
// Model is the root. It keeps what every screen shares (the options, the
// key map, the styles, the window size, the spinner and the background
// jobs), handles the keys every screen shares (ctrl+c always, q unless
// a filter is being typed, bursts of keys one at a time) and routes every
// other message to the sub-model that has the focus:
//
//   - picker: the library by family (bubbles list); it asks the root to
//     open an entry (openMsg) or to go back to the open scenario
//     (resumeMsg);
//   - scenarioModel: the open session (history and cursor; undo and redo
//     move the cursor), the panes, the help and story pages, the step
//     number being typed; it asks for the picker, the next variant or a
//     panel (toPickerMsg, nextVariant, openPanelMsg);
//   - panels: the compare (c), necessity (n) and fix (f) pages and their
//     analyses; on the last two enter asks the scenario screen to take an
//     item's edits as a what-if (panelApply);
//   - presenter: presentation mode's timer and story, inside the
//     scenario screen, which it asks to step, restart or leave.
//
// Sub-models are values with an update method that returns the next
// value, a command, and a typed message for their parent (glow's ui/
// shape); they never call their parent.
//
// The scenario screen's what-if (whatif.go) keeps the edits made to the
// scenario as opened, with the spec each prefix of them gives, so that u
// and U move through them as ← and → move through steps; each edit moves
// the session to the edited program (session.retarget replays the
// history as far as it goes).
//
// Background work is one kind of job (jobs): the exploration behind the
// outcomes pane, the what-if's explorations of the original (and of both
// programs in the other mode, on request) and a panel's analysis run in
// commands with cancellable contexts; results are cached by content (scenarios.ProgramKey and
// Spec.Key) in a bounded cache. Timers (the digit timeout, presentation
// steps) go through Options.tick only.
//
// Every update ends by rendering once: the root builds the scenario's
// views.ScenarioInput, views.NewFrame lays it out, each pane (a bubbles
// viewport) takes its lines and clamps its offset, and the frame is drawn
// at those offsets; View returns it. Update performs no I/O; files and
// the terminal are written only in commands (e: a trace file through
// scenarios.WriteNewTrace; y: OSC 52).
//
// Start and Drive are the headless driver: the model without a terminal,
// its commands run at once and their messages fed back. smpscope record
// renders its frames with it (Frames, WriteCast, Tape) and the tests
// drive the model with it. Run shows the UI on a terminal.
//
// The picture page (p) shows the history up to the cursor as
// views/picture's timeline; the stepping keys (and m) work on it as on
// the panes, and the page keeps the row of the step shown in view.
//
// Keys (KeyMap, DefaultKeyMap) are enabled only where they apply, so the
// help shows what works; the README's key table is generated from them.
package model
