package model

import (
	"fmt"
	"io"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

// Options configure a Model. The zero value opens an empty picker.
type Options struct {
	// Scenario opens directly on this scenario; nil starts in the picker.
	Scenario *scenarios.Spec
	// Library lists the built-in scenarios for the picker and for v (next
	// variant).
	Library []LibraryEntry
	// Load returns the scenario with a library entry's name. The model calls
	// it only inside commands, never in Update.
	Load func(name string) (*scenarios.Spec, error)
	// Mode is the initial mode.
	Mode machine.Mode
	// Seed seeds the random steps (space, g): the one stream of
	// scenarios.NewRandom, so g from the initial state takes the steps
	// smpscope trace --random Seed takes.
	Seed uint64
	// History, if set, is replayed on the initial scenario and the UI opens
	// at its last step, with all of it available to step back through.
	History []machine.Step
	// Attempt, when set, says that History is the closest attempt at an
	// outcome that is unreachable (scenarios.WitnessOrAttempt): the screen
	// says so, and how far it got, while that history is shown.
	Attempt *scenarios.Attempt
	// Explore bounds the background exploration (Context is set by the
	// model). Nil uses DefaultExploreOptions.
	Explore *machine.Options
	// DigitDelay is how long a step number that could still grow (there
	// are ten or more steps and "1" may begin "12") waits for another digit
	// before it is taken; default 600ms. Enter takes it at once.
	DigitDelay time.Duration
	// Styles and Keys override the defaults.
	Styles *views.Styles
	Keys   *KeyMap

	// Present opens the scenario in presentation mode: History (a
	// witness or a trace) becomes the redo future of the initial state
	// and its steps are taken one every Every (default DefaultEvery).
	Present bool
	Every   time.Duration
	// TraceDir is the directory e writes trace files to; "" is the
	// current directory.
	TraceDir string
	// Clipboard receives the OSC 52 sequence y writes (the terminal turns
	// it into a clipboard update); nil is os.Stderr.
	Clipboard io.Writer

	// tick makes every timer command (tea.Tick; the headless driver's fire
	// at once).
	tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	// frameInterval, when set (Run sets it), renders at most once per
	// interval after keys and the mouse: a burst of keys is handled in
	// full but drawn once per frame. Zero renders after every message
	// (the headless driver and the tests).
	frameInterval time.Duration
}

// DefaultExploreOptions bound the UI's explorations: each to 5,000,000
// states and a minute, all of them together to 768 MiB (New makes
// MaxMemory one budget they share).
var DefaultExploreOptions = machine.Options{MaxStates: 5_000_000, MaxMemory: 768 << 20, Timeout: time.Minute}

// cacheSize is how many results (explorations, analyses) the model keeps.
const cacheSize = 64

// screen is what the model shows.
type screen int

const (
	screenPicker screen = iota
	screenScenario
)

// common is what every sub-model reads: the options, the keys and styles,
// the window size, the background jobs and the spinner's frame. The root
// model hands it down with every message.
type common struct {
	opts          *Options
	keys          KeyMap
	styles        *views.Styles
	width, height int
	jobs          *jobs
	spin          string
}

// Model is smpscope's interactive UI. It is the root of a tree of
// sub-models: it handles the keys every screen shares (ctrl+c, q) and
// routes the others to the sub-model that has the focus: the picker, or
// the scenario screen (whose open panel, help page or presentation take
// its keys first). Sub-models talk up through typed messages. Every
// update ends by rendering the frame once; View returns it. Model is a
// value; Update returns the next Model.
type Model struct {
	opts   Options
	keys   KeyMap
	styles *views.Styles // a pointer: the model is copied with every message
	help   help.Model
	spin   spinner.Model
	jobs   *jobs

	width, height int
	screen        screen
	picker        picker
	scen          scenarioModel
	open          bool // a scenario has been opened (scen is valid)
	panels        panels
	initCmd       tea.Cmd
	view          string // the frame rendered after the last update
	// bar is the help bar within view, kept for the tests: one golden
	// checks the help bars (TestHelpBars), the others leave them out so
	// that a changed key rewrites one file, not every screen's.
	bar string
	// frames paces rendering (Options.frameInterval); shared by the
	// model's copies, changed only in Update.
	frames *frameClock
}

// frameClock is when the screen was last rendered, and whether a render
// is owed (frameMsg brings it).
type frameClock struct {
	last    time.Time
	dirty   bool // input was handled since the last render
	pending bool // a frameMsg is on its way
}

// frameMsg renders what keys changed since the last frame.
type frameMsg struct{}

// Messages the model sends itself through commands.
type loadedMsg struct {
	name    string
	sc      *scenarios.Spec
	err     error
	variant bool // v: keep the mode and the panes' focus
}

// New returns the UI model. With opts.Scenario it opens that scenario and
// Init starts exploring it in the background; otherwise it opens the picker.
func New(opts Options) Model {
	m := Model{opts: opts, jobs: newJobs(cacheSize), panels: newPanels(), frames: &frameClock{}}
	if opts.Styles != nil {
		st := *opts.Styles
		m.styles = &st
	} else {
		st := views.DefaultStyles()
		m.styles = &st
	}
	if opts.Keys != nil {
		m.keys = *opts.Keys
	} else {
		m.keys = DefaultKeyMap()
	}
	// The model's own copy: it sets the budget below, and the caller's
	// options stay as given.
	e := DefaultExploreOptions
	if opts.Explore != nil {
		e = *opts.Explore
	}
	m.opts.Explore = &e
	if e.Budget == nil && e.MaxMemory > 0 {
		// One budget for every exploration of the session (the
		// background search, what-ifs, the necessity and compare
		// panels), not one each (issue 22, item 6).
		e.Budget, e.MaxMemory = machine.NewProcessBudget(e.MaxMemory), 0
	}
	if m.opts.DigitDelay <= 0 {
		m.opts.DigitDelay = 600 * time.Millisecond
	}
	if m.opts.tick == nil {
		m.opts.tick = tea.Tick
	}
	m.help = help.New()
	m.help.Styles = help.Styles{
		ShortKey:       m.styles.HelpKey,
		ShortDesc:      m.styles.Dim,
		ShortSeparator: m.styles.Dim,
		Ellipsis:       m.styles.Dim,
		FullKey:        m.styles.HelpKey,
		FullDesc:       m.styles.Dim,
		FullSeparator:  m.styles.Dim,
	}
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(m.styles.Spinner))
	m.picker = newPicker(opts.Library, *m.styles, m.keys)
	if opts.Scenario != nil {
		var err error
		m, m.initCmd, err = m.openScenario(opts.Scenario, opts.Mode, false)
		s := &m.scen
		switch {
		case err != nil:
			m.picker.notice = err.Error()
		case len(opts.History) > 0:
			if err := s.sess.load(opts.History); err != nil {
				s.notice = "history does not replay: " + err.Error()
			} else {
				s.showAttempt(opts.Attempt)
				if !opts.Present {
					s.sess.travel(len(opts.History))
				}
			}
		}
		m.picker = m.picker.selectName(opts.Scenario.Name)
		if err == nil && opts.Present {
			s.present.on, s.present.every = true, opts.Every
			if s.present.every <= 0 {
				s.present.every = DefaultEvery
			}
			if len(s.sess.steps) == 0 {
				// No trace to present: the witness comes from the
				// background exploration; the screen shows meanwhile.
				s.present.searching = true
			} else {
				m.initCmd = tea.Batch(m.initCmd, s.present.timer())
			}
		}
		s.follow()
	}
	return m.after()
}

// Init starts the background exploration of the initial scenario.
func (m Model) Init() tea.Cmd { return m.initCmd }

// common is what the sub-models read now.
func (m *Model) common() common {
	return common{opts: &m.opts, keys: m.keys, styles: m.styles, width: m.width, height: m.height, jobs: m.jobs, spin: m.spin.View()}
}

// Mode returns the current mode.
func (m Model) Mode() machine.Mode {
	if m.open {
		return m.scen.sess.mode
	}
	return m.opts.Mode
}

// Machine returns the machine of the open scenario in the current mode, or
// nil in the picker before any scenario is opened.
func (m Model) Machine() *machine.Machine {
	if !m.open {
		return nil
	}
	return m.scen.sess.mach()
}

// State returns the state shown, or nil.
func (m Model) State() *machine.State {
	if !m.open {
		return nil
	}
	return m.scen.sess.state()
}

// History returns the steps from the initial state to the state shown.
func (m Model) History() []machine.Step {
	if !m.open {
		return nil
	}
	s := &m.scen.sess
	return append([]machine.Step(nil), s.steps[:s.cursor]...)
}

// Scenario returns the open scenario, or nil.
func (m Model) Scenario() *scenarios.Spec {
	if !m.open {
		return nil
	}
	return m.scen.sess.spec
}

// openScenario opens sp in mode on the scenario screen and starts
// exploring it; keepPanes keeps the focus of the screen it replaces (v).
func (m Model) openScenario(sp *scenarios.Spec, mode machine.Mode, keepPanes bool) (Model, tea.Cmd, error) {
	s, err := newScenarioModel(sp, mode, m.common())
	if err != nil {
		return m, nil, err
	}
	for _, e := range family(m.opts.Library, sp) {
		v := e.Variant
		if v == "" {
			v = e.Name
		}
		s.variants = append(s.variants, v)
	}
	if keepPanes && m.open {
		s.focus, s.side = m.scen.focus, m.scen.side
	}
	m.scen, m.open, m.screen = s, true, screenScenario
	return m, m.exploreCmd(), nil
}

// exploreCmd starts exploring the open scenario in its mode (unless the
// result is known) with the spinner turning.
func (m *Model) exploreCmd() tea.Cmd {
	if cmd := m.scen.explore(m.common()); cmd != nil {
		return tea.Batch(cmd, m.spin.Tick)
	}
	return nil
}

// loadCmd loads the named library entry in a command.
func (m Model) loadCmd(name string, variant bool) tea.Cmd {
	load := m.opts.Load
	return func() tea.Msg {
		sc, err := load(name)
		return loadedMsg{name: name, sc: sc, err: err, variant: variant}
	}
}

// Update handles a message and returns the next model (tea.Model).
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) { return m.update(msg) }

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	fc := m.frames
	var cmd tea.Cmd
	if _, ok := msg.(frameMsg); ok {
		fc.pending = false
		if !fc.dirty {
			return m, nil
		}
	} else {
		m, cmd = m.route(msg)
		m = m.after()
	}
	if iv := m.opts.frameInterval; iv > 0 && isInput(msg) {
		// Keys faster than frames: handle them all, draw once a frame.
		if wait := iv - time.Since(fc.last); wait > 0 {
			fc.dirty = true
			if !fc.pending {
				fc.pending = true
				cmd = tea.Batch(cmd, m.opts.tick(wait, func(time.Time) tea.Msg { return frameMsg{} }))
			}
			return m, cmd
		}
	}
	m.view = m.render()
	fc.last, fc.dirty = time.Now(), false
	return m, cmd
}

// isInput reports whether msg is a key or the mouse (what can arrive in
// bursts).
func isInput(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyMsg, tea.MouseMsg:
		return true
	}
	return false
}

// after brings what depends on the screen up to date after a message: a
// panel's analysis is cancelled once the panel is closed (or the scenario
// left), and the key bindings are enabled where they apply.
func (m Model) after() Model {
	scen := m.open && m.screen == screenScenario
	if !scen && m.panels.open != views.PagePanes {
		m.panels = m.panels.close(m.common())
	}
	k := &m.keys
	present := scen && m.scen.present.on
	cond := scen && m.scen.sess.spec.Final != nil
	k.Pause.SetEnabled(present)
	for _, b := range []*key.Binding{&k.Step, &k.Enter, &k.Random, &k.Run, &k.Reset, &k.Witness, &k.Focus, &k.FocusBack, &k.Variant, &k.Story, &k.Source} {
		b.SetEnabled(!present)
	}
	k.Compare.SetEnabled(cond)
	k.Necessity.SetEnabled(cond && m.scen.weakenings > 0)
	k.Fix.SetEnabled(cond && m.scen.edit.editable())
	k.Export.SetEnabled(scen)
	k.Copy.SetEnabled(scen)
	// What if: edits need litmus source, and stay off while presenting.
	edit := scen && !present && m.scen.edit.editable()
	edited := edit && m.scen.edit.edited()
	for _, b := range []*key.Binding{&k.EditOrder, &k.EditBarrier, &k.EditRemove} {
		b.SetEnabled(edit)
	}
	k.UndoEdit.SetEnabled(edit && m.scen.edit.n > 0)
	k.RedoEdit.SetEnabled(edit && m.scen.edit.n < len(m.scen.edit.edits))
	k.Diff.SetEnabled(edit)
	k.SaveEdited.SetEnabled(edited)
	return m
}

// quit stops the background work and quits.
func (m Model) quit() (Model, tea.Cmd) {
	m.jobs.stopAll()
	return m, tea.Quit
}

// route handles a message: the ones every screen shares here, the others
// in the sub-model that has the focus (toFocused).
func (m Model) route(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = max(msg.Width-1, 0)
		m.picker.setSize(msg.Width, msg.Height)
		m.scen.reveal = true
		return m, nil
	case spinner.TickMsg:
		if !m.jobs.any() {
			return m, nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case jobDoneMsg:
		m, cmd := m.background(msg)
		if !m.open {
			return m, cmd
		}
		// The what-if's next exploration, and its announcement.
		var next tea.Cmd
		m.scen, next = m.scen.afterJob(m.common())
		return m, tea.Batch(cmd, next)
	case exportedMsg, copiedMsg:
		return m.background(msg)
	case loadedMsg:
		return m.loaded(msg)
	case digitTimeoutMsg:
		if !m.open {
			return m, nil
		}
		return m.toScenario(msg)
	case presentTickMsg:
		if !m.open {
			return m, nil
		}
		if (m.screen != screenScenario || m.panels.open != views.PagePanes) && m.scen.present.ticked(msg) {
			return m, m.scen.present.timer() // wait until the panes show again
		}
		return m.toScenario(msg)
	case quitAheadMsg:
		// ctrl+c or q was typed, ahead of the keys still queued: q quits
		// wherever it would (not while typing a filter).
		if msg.force || !(m.screen == screenPicker && m.picker.filtering()) {
			return m.quit()
		}
		return m, nil
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !(m.screen == screenPicker && m.picker.filtering()) {
			return m.burst(msg)
		}
		if key.Matches(msg, m.keys.ForceQuit) {
			return m.quit()
		}
	}
	return m.toFocused(msg)
}

// burst takes keys typed faster than the terminal is read, which arrive
// as one message ("jjj", "12"), one at a time.
func (m Model) burst(msg tea.KeyMsg) (Model, tea.Cmd) {
	var cmds []tea.Cmd
	for _, r := range msg.Runes {
		var cmd tea.Cmd
		m, cmd = m.route(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
		m = m.after()
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// background records what a command finished: a job's result, or the
// outcome of writing or copying a trace.
func (m Model) background(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case jobDoneMsg:
		current := m.jobs.done(msg)
		switch {
		case msg.kind == panelJob:
			m.panels = m.panels.done(msg)
		case msg.kind == attemptJob && m.open:
			m.scen, cmd = m.scen.attemptDone(msg)
			m.scen.reveal = true
		case current:
			m.scen.reveal = true
			if m.open {
				m.scen, cmd = m.scen.witnessLanded(m.common())
			}
		}
	case exportedMsg:
		if msg.err != nil {
			m.scen.notice = "cannot write the trace: " + msg.err.Error()
		} else {
			m.scen.notice = fmt.Sprintf("wrote %s (%d steps)", msg.path, msg.steps)
		}
	case copiedMsg:
		if msg.err != nil {
			m.scen.notice = "cannot copy: " + msg.err.Error()
		} else {
			m.scen.notice = fmt.Sprintf("copied %d lines (OSC 52; your terminal must allow it)", msg.lines)
		}
	}
	return m, cmd
}

// toFocused hands a message to the sub-model that has the focus: the
// picker, else an open panel, else the scenario screen.
func (m Model) toFocused(msg tea.Msg) (Model, tea.Cmd) {
	if m.screen == screenPicker || !m.open {
		p, cmd, up := m.picker.update(msg, m.common(), m.open)
		m.picker = p
		return m.fromChild(up, cmd)
	}
	if m.panels.open != views.PagePanes {
		switch msg := msg.(type) {
		case tea.KeyMsg:
			m.scen.notice = ""
			var up tea.Msg
			m.panels, up = m.panels.update(msg, m.common(), m.scen.present.on, m.scen.sess.mode)
			return m.fromChild(up, nil)
		case tea.MouseMsg:
			switch msg.Button {
			case tea.MouseButtonWheelUp:
				m.panels.view.scroll(-1)
			case tea.MouseButtonWheelDown:
				m.panels.view.scroll(+1)
			}
			return m, nil
		}
	}
	return m.toScenario(msg)
}

// toScenario hands a message to the scenario screen.
func (m Model) toScenario(msg tea.Msg) (Model, tea.Cmd) {
	s, cmd, up := m.scen.update(msg, m.common())
	m.scen = s
	return m.fromChild(up, cmd)
}

// fromChild handles a sub-model's message up (nil: none) after its own
// command.
func (m Model) fromChild(up tea.Msg, cmd tea.Cmd) (Model, tea.Cmd) {
	switch up := up.(type) {
	case nil:
		return m, cmd
	case startedJobs:
		if m.jobs.any() {
			return m, tea.Batch(cmd, m.spin.Tick)
		}
		return m, cmd
	case quitMsg:
		return m.quit()
	case toPickerMsg:
		if len(m.opts.Library) == 0 {
			m.scen.notice = "no scenario library"
			return m, cmd
		}
		m.screen = screenPicker
		m.picker = m.picker.selectName(m.scen.sess.spec.Name)
	case resumeMsg:
		m.screen = screenScenario
		m.scen.reveal = true
		return m, tea.Batch(cmd, m.exploreCmd())
	case openMsg:
		if m.opts.Load == nil {
			m.picker.notice = "no way to load scenarios"
			return m, cmd
		}
		m.picker.notice = "opening " + up.name + "…"
		return m, tea.Batch(cmd, m.loadCmd(up.name, false))
	case nextVariant:
		fam := family(m.opts.Library, m.scen.sess.spec)
		if len(fam) < 2 || m.opts.Load == nil {
			m.scen.notice = "this scenario has no other variant"
			return m, cmd
		}
		next := fam[0]
		for i, e := range fam {
			if e.Name == m.scen.sess.spec.Name {
				next = fam[(i+1)%len(fam)]
			}
		}
		m.scen.notice = "opening " + next.Name + "…"
		return m, tea.Batch(cmd, m.loadCmd(next.Name, true))
	case openPanelMsg:
		var pc tea.Cmd
		m.panels, pc = m.panels.openPanel(up.page, m.scen.sess.spec, m.scen.weakenings, m.common())
		if pc != nil {
			pc = tea.Batch(pc, m.spin.Tick)
		}
		return m, tea.Batch(cmd, pc)
	case panelClosed:
		m.panels = m.panels.close(m.common())
		m.scen.reveal = true
	case panelToPage:
		m.panels = m.panels.close(m.common())
		m.scen.showPage(up.page)
	case panelNote:
		m.scen.notice = up.text
	case panelApply:
		m.panels = m.panels.close(m.common())
		m.scen.reveal = true
		var sc tea.Cmd
		var su tea.Msg
		m.scen, sc, su = m.scen.applyEdits(up.edits, up.steps, up.mode, up.what, m.common())
		return m.fromChild(su, tea.Batch(cmd, sc))
	case panelShared:
		// e and y on a panel export the scenario's history.
		var sc tea.Cmd
		m.scen, sc, _ = m.scen.shared(up.key, m.common())
		return m, tea.Batch(cmd, sc)
	}
	return m, cmd
}

// loaded opens a scenario the picker or v asked for.
func (m Model) loaded(msg loadedMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		notice := fmt.Sprintf("cannot open %s: %v", msg.name, msg.err)
		if m.screen == screenPicker {
			m.picker.notice = notice
		} else {
			m.scen.notice = notice
		}
		return m, nil
	}
	mode := m.opts.Mode
	if m.open {
		mode = m.scen.sess.mode
	}
	m.jobs.stopAll()
	m.panels = m.panels.close(m.common())
	m2, cmd, err := m.openScenario(msg.sc, mode, msg.variant)
	if err != nil {
		m.scen.notice = err.Error()
		return m, nil
	}
	m2.picker.notice = ""
	m2.picker = m2.picker.selectName(msg.name)
	return m2, cmd
}

// render draws the frame of the current screen, once per update: the
// scenario screen's panes take their lines and clamp their offsets here.
func (m *Model) render() string {
	m.bar = ""
	if m.width == 0 || m.height == 0 {
		return ""
	}
	c := m.common()
	if m.screen == screenPicker || !m.open {
		bar := m.helpBar(m.keys.PickerHelp().ShortHelp(), []key.Binding{m.keys.Help, m.keys.Quit}, m.width)
		if m.picker.help {
			keys, notes := pickerHelp(m.keys)
			m.bar = m.helpBar(nil, []key.Binding{brief(m.keys.Picker, "close"), m.keys.Quit}, m.width)
			return views.RenderPickerHelp(keys, notes, m.bar, *m.styles, m.width, m.height)
		}
		m.bar = bar
		return views.RenderPicker(m.picker.list.View(), m.picker.notice, bar, *m.styles, m.width, m.height)
	}
	s := &m.scen
	in := s.input(c)
	in.Help, in.Legend = m.keys.helpSections(), legend
	in.Analysis = m.panels.input(s.sess.spec, c)
	switch {
	case m.panels.open != views.PagePanes:
		in.Page = m.panels.open
		in.HelpBar = m.helpBar(m.keys.panelHelp(m.panels.open == views.PageNecessity || m.panels.open == views.PageFix), m.keys.ShortHelpEnd(), m.width)
	case in.Present != nil && in.Page == views.PagePanes:
		// The indicator takes the start of the help line.
		w := m.width - lipgloss.Width(views.PresentIndicator(in)) - 2
		space := "pause"
		switch {
		case in.Cursor >= len(in.Steps):
			space = "replay"
		case in.Present.Paused:
			space = "resume"
		}
		in.HelpBar = m.helpBar(m.keys.presentHelp(space), m.keys.ShortHelpEnd(), w)
	case in.Page == views.PagePicture:
		in.HelpBar = m.helpBar(m.keys.pictureHelp(), m.keys.ShortHelpEnd(), m.width)
	case s.focus == views.PaneCPUs && m.keys.EditOrder.Enabled() && in.Page == views.PagePanes:
		in.HelpBar = m.helpBar(m.keys.editHelp(), m.keys.ShortHelpEnd(), m.width)
	default:
		in.HelpBar = m.helpBar(m.keys.ShortHelp(), m.keys.ShortHelpEnd(), m.width)
	}
	m.bar = in.HelpBar
	off := s.layout(in, c)
	if m.panels.open != views.PagePanes {
		lines, vis := s.frame.PageLines()
		m.panels.view.set(lines, vis)
		if m.panels.reveal {
			if l := views.SelLine(lines); l >= 0 {
				m.panels.view.reveal(l)
			}
			m.panels.reveal = false
		}
		off.Page = m.panels.view.offset()
	}
	return s.frame.Draw(off)
}

// helpBar renders the short-help line with bubbles/help in width
// columns: the bindings of main, as many as fit (then "…"), followed by
// those of end, never cut. (help.Model's own truncation lets an item
// through when even the "…" does not fit, so the items are trimmed here.)
func (m Model) helpBar(main, end []key.Binding, width int) string {
	h := m.help
	h.Width = 0
	right := h.ShortHelpView(end)
	sep := m.styles.Dim.Render(h.ShortSeparator)
	room := width - 1 - lipgloss.Width(right) - lipgloss.Width(sep)
	var enabled []key.Binding
	for _, b := range main {
		if b.Enabled() {
			enabled = append(enabled, b)
		}
	}
	n := len(enabled)
	left := h.ShortHelpView(enabled)
	for n > 0 && lipgloss.Width(left) > room {
		n--
		left = h.ShortHelpView(enabled[:n])
		if n > 0 {
			left += " " + m.styles.Dim.Render(h.Ellipsis)
		}
	}
	if n == 0 {
		return " " + right
	}
	return " " + left + sep + right
}

// View returns the frame rendered after the last update.
func (m Model) View() string { return m.view }
