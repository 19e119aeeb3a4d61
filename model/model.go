package model

import (
	"fmt"
	"io"
	"strconv"
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
	// Seed seeds the random steps (space, g), so runs are reproducible.
	Seed uint64
	// History, if set, is replayed on the initial scenario and the UI opens
	// at its last step, with all of it available to step back through.
	History []machine.Step
	// Explore bounds the background exploration (Context is set by the
	// model). The zero value uses DefaultExploreOptions.
	Explore machine.Options
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

	// tick makes timer commands (tea.Tick; tests replace it).
	tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
}

// DefaultExploreOptions bound the background exploration.
var DefaultExploreOptions = machine.Options{MaxStates: 5_000_000, MaxMemory: 768 << 20, Timeout: time.Minute}

// screen is what the model shows.
type screen int

const (
	screenPicker screen = iota
	screenScenario
)

// Model is smpscope's interactive UI: the picker and the scenario screen.
// It is a value; Update returns the next Model.
type Model struct {
	opts   Options
	keys   KeyMap
	styles views.Styles
	help   help.Model
	spin   spinner.Model

	width, height int
	screen        screen
	picker        picker
	sess          session
	hasSess       bool
	ex            explorer
	an            analyses
	pr            presenter
	notice        string
	initCmd       tea.Cmd
}

// Messages the model sends itself through commands.
type (
	loadedMsg struct {
		name    string
		sc      *scenarios.Spec
		err     error
		variant bool // v: keep the mode and the panes' focus
	}
	digitTimeoutMsg struct{ seq int }
)

// New returns the UI model. With opts.Scenario it opens that scenario and
// Init starts exploring it in the background; otherwise it opens the picker.
func New(opts Options) Model {
	m := Model{opts: opts}
	if opts.Styles != nil {
		m.styles = *opts.Styles
	} else {
		m.styles = views.DefaultStyles()
	}
	if opts.Keys != nil {
		m.keys = *opts.Keys
	} else {
		m.keys = DefaultKeyMap()
	}
	if m.opts.Explore == (machine.Options{}) {
		m.opts.Explore = DefaultExploreOptions
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
	m.ex.cache = map[string]*machine.Result{}
	m.an = newAnalyses()
	m.picker = newPicker(opts.Library, m.styles, m.keys)
	if opts.Scenario != nil {
		var err error
		m, m.initCmd, err = m.open(opts.Scenario, opts.Mode, false)
		if err != nil {
			m.notice = err.Error()
		} else if len(opts.History) > 0 {
			if err := m.sess.load(opts.History); err != nil {
				m.notice = "history does not replay: " + err.Error()
			} else if !opts.Present {
				m.sess.travel(len(opts.History))
			}
		}
		m.picker = m.picker.selectName(opts.Scenario.Name)
		if err == nil && opts.Present {
			m.pr = presenter{on: true, every: opts.Every}
			if m.pr.every <= 0 {
				m.pr.every = DefaultEvery
			}
			if len(m.sess.steps) == 0 {
				m.notice = "nothing to present: no steps"
			}
			m.initCmd = tea.Batch(m.initCmd, m.presentTick())
		}
	}
	return m.after()
}

// Init starts the background exploration of the initial scenario.
func (m Model) Init() tea.Cmd { return m.initCmd }

// Mode returns the current mode.
func (m Model) Mode() machine.Mode {
	if m.hasSess {
		return m.sess.mode
	}
	return m.opts.Mode
}

// Machine returns the machine of the open scenario in the current mode, or
// nil in the picker before any scenario is opened.
func (m Model) Machine() *machine.Machine {
	if !m.hasSess {
		return nil
	}
	return m.sess.mach()
}

// State returns the state shown, or nil.
func (m Model) State() *machine.State {
	if !m.hasSess {
		return nil
	}
	return m.sess.state()
}

// History returns the steps from the initial state to the state shown.
func (m Model) History() []machine.Step {
	if !m.hasSess {
		return nil
	}
	return append([]machine.Step(nil), m.sess.steps[:m.sess.cursor]...)
}

// Scenario returns the open scenario, or nil.
func (m Model) Scenario() *scenarios.Spec {
	if !m.hasSess {
		return nil
	}
	return m.sess.sc
}

// open starts a session on sc.
func (m Model) open(sc *scenarios.Spec, mode machine.Mode, keepPanes bool) (Model, tea.Cmd, error) {
	s, err := newSession(sc, mode, m.opts.Seed)
	if err != nil {
		return m, nil, fmt.Errorf("cannot open %s: %v", sc.Name, err)
	}
	s.variants = m.variantNames(sc)
	if keepPanes && m.hasSess {
		s.focus, s.side = m.sess.focus, m.sess.side
	}
	m.sess = s
	m.hasSess = true
	m.screen = screenScenario
	m = m.fixView()
	return m, m.explore(), nil
}

// explore starts exploring the current scenario and mode unless its result
// is known, and returns the commands to run.
func (m *Model) explore() tea.Cmd {
	cmd := m.ex.start(m.sess.mach(), m.opts.Explore)
	if cmd == nil {
		return nil
	}
	return tea.Batch(cmd, m.spin.Tick)
}

// family returns the library entries of sc's family, in library order.
func (m Model) family(sc *scenarios.Spec) []LibraryEntry {
	var out []LibraryEntry
	if sc.Family == "" {
		return nil
	}
	for _, e := range m.opts.Library {
		if e.Family == sc.Family {
			out = append(out, e)
		}
	}
	return out
}

func (m Model) variantNames(sc *scenarios.Spec) []string {
	var out []string
	for _, e := range m.family(sc) {
		v := e.Variant
		if v == "" {
			v = e.Name
		}
		out = append(out, v)
	}
	return out
}

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
	m, cmd := m.update1(msg)
	return m.after(), cmd
}

// after brings what depends on the screen up to date after a message: a
// panel's analysis is cancelled once the panel is closed (or the scenario
// left), and the key bindings are enabled where they apply.
func (m Model) after() Model {
	if m.an.running && (!m.hasSess || m.screen != screenScenario || m.sess.page != m.an.page) {
		m.an.stop()
	}
	k := &m.keys
	scen := m.hasSess && m.screen == screenScenario
	present := scen && m.pr.on
	cond := scen && m.sess.sc.Final != nil
	k.Pause.SetEnabled(present)
	for _, b := range []*key.Binding{&k.Step, &k.Enter, &k.Random, &k.Run, &k.Reset, &k.Witness, &k.Focus, &k.FocusBack, &k.Mode, &k.Variant, &k.Story} {
		b.SetEnabled(!present)
	}
	k.Compare.SetEnabled(cond)
	k.Necessity.SetEnabled(cond && m.sess.weakenings > 0)
	k.Export.SetEnabled(scen)
	k.Copy.SetEnabled(scen)
	return m
}

// quit stops the background work and quits.
func (m Model) quit() (Model, tea.Cmd) {
	m.ex.stop()
	m.an.stop()
	return m, tea.Quit
}

func (m Model) update1(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = max(msg.Width-1, 0)
		m.picker.setSize(msg.Width, msg.Height)
		if m.hasSess {
			m = m.fixView()
		}
		return m, nil

	case spinner.TickMsg:
		if !m.ex.running && !m.an.running {
			return m, nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd

	case exploreDoneMsg:
		if m.ex.done(msg) && m.hasSess {
			m = m.fixView()
		}
		return m, nil

	case analysisDoneMsg:
		return m.analysisDone(msg).clampOffsets(), nil

	case exportedMsg:
		if msg.err != nil {
			m.notice = "cannot write the trace: " + msg.err.Error()
		} else {
			m.notice = fmt.Sprintf("wrote %s (%d steps)", msg.path, msg.steps)
		}
		return m, nil

	case copiedMsg:
		if msg.err != nil {
			m.notice = "cannot copy: " + msg.err.Error()
		} else {
			m.notice = fmt.Sprintf("copied %d lines (OSC 52; your terminal must allow it)", msg.lines)
		}
		return m, nil

	case presentTickMsg:
		return m.presentStep(msg)

	case loadedMsg:
		if msg.err != nil {
			m.notice = fmt.Sprintf("cannot open %s: %v", msg.name, msg.err)
			return m, nil
		}
		mode := m.opts.Mode
		if m.hasSess {
			mode = m.sess.mode
		}
		m.ex.stop()
		m.an.stop()
		m.pr = presenter{}
		m2, cmd, err := m.open(msg.sc, mode, msg.variant)
		if err != nil {
			m.notice = err.Error()
			return m, nil
		}
		m2.notice = ""
		m2.picker = m2.picker.selectName(msg.name)
		return m2, cmd

	case digitTimeoutMsg:
		if m.hasSess && msg.seq == m.sess.digitSeq && m.sess.digits != "" {
			return m.takeDigits(), nil
		}
		return m, nil

	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !(m.screen == screenPicker && m.picker.filtering()) {
			// Keys typed faster than the terminal is read arrive as one
			// message ("jjj", "12"): take them one at a time.
			var cmds []tea.Cmd
			for _, r := range msg.Runes {
				var cmd tea.Cmd
				m, cmd = m.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
				cmds = append(cmds, cmd)
			}
			return m, tea.Batch(cmds...)
		}
		if key.Matches(msg, m.keys.ForceQuit) {
			return m.quit()
		}
		if m.screen == screenPicker {
			return m.updatePicker(msg)
		}
		return m.updateScenario(msg)

	case tea.MouseMsg:
		if m.screen == screenPicker {
			return m.mousePicker(msg)
		}
		return m.mouseScenario(msg)
	}
	if m.screen == screenPicker {
		var cmd tea.Cmd
		m.picker, cmd = m.picker.update(msg)
		return m, cmd
	}
	return m, nil
}

func (m Model) updatePicker(msg tea.KeyMsg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	if m.picker.filtering() {
		m.picker, cmd = m.picker.update(msg)
		return m, cmd
	}
	m.notice = ""
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.quit()
	case key.Matches(msg, m.keys.Picker) && !m.picker.list.IsFiltered():
		if m.hasSess {
			m.screen = screenScenario
			return m, m.explore()
		}
		return m, nil
	case key.Matches(msg, m.keys.Open):
		e, ok := m.picker.selected()
		if !ok {
			return m, nil
		}
		if m.opts.Load == nil {
			m.notice = "no way to load scenarios"
			return m, nil
		}
		m.notice = "opening " + e.Name + "…"
		return m, m.loadCmd(e.Name, false)
	case key.Matches(msg, m.keys.PrevVariant):
		m.picker, cmd = m.picker.shiftVariant(-1)
		return m, cmd
	case key.Matches(msg, m.keys.NextVariant):
		m.picker, cmd = m.picker.shiftVariant(+1)
		return m, cmd
	}
	m.picker, cmd = m.picker.update(msg)
	return m, cmd
}

func (m Model) mousePicker(msg tea.MouseMsg) (Model, tea.Cmd) {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		m.picker.list.CursorUp()
	case tea.MouseButtonWheelDown:
		m.picker.list.CursorDown()
	}
	return m, nil
}

func (m Model) updateScenario(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	s := &m.sess
	m.notice = ""

	// Full-screen pages take the keys first.
	if s.page != views.PagePanes {
		panel := s.page == views.PageCompare || s.page == views.PageNecessity
		switch {
		case key.Matches(msg, k.Quit):
			return m.quit()
		case panel && key.Matches(msg, k.Picker),
			s.page == views.PageCompare && key.Matches(msg, k.Compare),
			s.page == views.PageNecessity && key.Matches(msg, k.Necessity):
			return m.closePanel().fixView(), nil
		case key.Matches(msg, k.Compare), key.Matches(msg, k.Necessity),
			key.Matches(msg, k.Export), key.Matches(msg, k.Copy):
			m, cmd := m.shared(msg)
			return m.fixView(), cmd
		case panel && key.Matches(msg, k.Help):
			s.page, s.pageOff = views.PageHelp, 0
		case panel && key.Matches(msg, k.Story) && !m.pr.on:
			s.page, s.pageOff = views.PageStory, 0
		case key.Matches(msg, k.Picker),
			s.page == views.PageHelp && key.Matches(msg, k.Help),
			s.page == views.PageStory && key.Matches(msg, k.Story):
			s.page, s.pageOff = views.PagePanes, 0
		case s.page == views.PageStory && key.Matches(msg, k.Help):
			s.page, s.pageOff = views.PageHelp, 0
		case s.page == views.PageHelp && key.Matches(msg, k.Story):
			s.page, s.pageOff = views.PageStory, 0
		case key.Matches(msg, k.Up):
			s.pageOff = max(s.pageOff-1, 0)
		case key.Matches(msg, k.Down):
			s.pageOff++
		case key.Matches(msg, k.PageUp):
			s.pageOff = max(s.pageOff-10, 0)
		case key.Matches(msg, k.PageDown):
			s.pageOff += 10
		}
		return m.fixView(), nil
	}

	if m.pr.on {
		return m.updatePresent(msg)
	}
	if key.Matches(msg, k.Step) {
		return m.typeDigit(msg.String())
	}
	if s.digits != "" {
		if key.Matches(msg, k.Enter) {
			return m.takeDigits(), nil
		}
		s.digits = "" // any other key abandons the number
	}

	var cmd tea.Cmd
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Compare), key.Matches(msg, k.Necessity),
		key.Matches(msg, k.Export), key.Matches(msg, k.Copy):
		m, cmd = m.shared(msg)
	case key.Matches(msg, k.Back):
		if !s.back() {
			m.notice = "at the initial state"
		}
	case key.Matches(msg, k.Forward):
		if !s.forward() {
			m.notice = "nothing to replay: take a step (1-9, space)"
		}
	case key.Matches(msg, k.Random):
		if !s.randomStep() {
			m.notice = "no step is enabled"
		}
	case key.Matches(msg, k.Run):
		n := s.run()
		m.notice = fmt.Sprintf("took %d random steps: %s", n, views.Status(s.mach(), s.state()))
	case key.Matches(msg, k.Reset):
		s.reset()
		m.notice = "reset to the initial state"
	case key.Matches(msg, k.Witness):
		m = m.loadWitness()
	case key.Matches(msg, k.Mode):
		from := s.mode
		kept, at := s.switchMode()
		if kept {
			m.notice = fmt.Sprintf("%s mode: history replayed (%d steps)", s.mode.Title(), s.cursor)
		} else {
			m.notice = fmt.Sprintf("%s mode: step %d of the %s history is not possible here; reset", s.mode.Title(), at+1, from.Title())
		}
		cmd = m.explore()
	case key.Matches(msg, k.Variant):
		m, cmd = m.nextVariant()
	case key.Matches(msg, k.Story):
		s.page, s.pageOff = views.PageStory, 0
	case key.Matches(msg, k.Help):
		s.page, s.pageOff = views.PageHelp, 0
	case key.Matches(msg, k.Picker):
		if len(m.opts.Library) == 0 {
			m.notice = "no scenario library"
			break
		}
		m.screen = screenPicker
		m.picker = m.picker.selectName(s.sc.Name)
		return m, nil
	case key.Matches(msg, k.Focus):
		m = m.focus((s.focus + 1) % views.NumPanes)
	case key.Matches(msg, k.FocusBack):
		m = m.focus((s.focus + views.NumPanes - 1) % views.NumPanes)
	case key.Matches(msg, k.Up):
		m = m.move(-1)
	case key.Matches(msg, k.Down):
		m = m.move(+1)
	case key.Matches(msg, k.PageUp):
		m = m.move(-m.visibleRows(s.focus))
	case key.Matches(msg, k.PageDown):
		m = m.move(+m.visibleRows(s.focus))
	case key.Matches(msg, k.ScrollLeft):
		s.cpuOff = max(s.cpuOff-1, 0)
	case key.Matches(msg, k.ScrollRight):
		s.cpuOff++
	case key.Matches(msg, k.Enter):
		m = m.activate(s.sel[s.focus])
	}
	return m.fixView(), cmd
}

// shared handles the keys that work on the panes, in presentation mode
// and on pages alike: c and n open their panels, e and y export the
// history.
func (m Model) shared(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Compare):
		return m.openPanel(views.PageCompare)
	case key.Matches(msg, k.Necessity):
		return m.openPanel(views.PageNecessity)
	case key.Matches(msg, k.Export), key.Matches(msg, k.Copy):
		if m.sess.cursor == 0 {
			m.notice = "no steps taken yet: nothing to export"
			return m, nil
		}
		if key.Matches(msg, k.Export) {
			m.notice = "writing the trace…"
			return m, m.exportCmd()
		}
		m.notice = "copying…"
		return m, m.copyCmd()
	}
	return m, nil
}

// typeDigit handles a digit of a step number. With fewer than ten steps
// it takes the step at once; otherwise it waits while the number could
// still grow (a further digit, enter, or a pause of DigitDelay ends it).
func (m Model) typeDigit(d string) (Model, tea.Cmd) {
	s := &m.sess
	buf := s.digits + d
	if buf == "0" {
		s.digits = ""
		m.notice = "steps are numbered from 1"
		return m, nil
	}
	n, _ := strconv.Atoi(buf)
	if n > len(s.enabled) {
		s.digits = ""
		m.notice = fmt.Sprintf("no step %d: %d enabled", n, len(s.enabled))
		return m.fixView(), nil
	}
	s.digits = buf
	if !waitsForDigit(n, len(s.enabled)) {
		return m.takeDigits(), nil
	}
	s.digitSeq++
	seq := s.digitSeq
	return m.fixView(), m.opts.tick(m.opts.DigitDelay, func(time.Time) tea.Msg { return digitTimeoutMsg{seq: seq} })
}

// takeDigits takes the step whose number was typed.
func (m Model) takeDigits() Model {
	s := &m.sess
	n, err := strconv.Atoi(s.digits)
	s.digits = ""
	if err != nil || n < 1 || n > len(s.enabled) {
		return m.fixView()
	}
	m = m.takeStep(n - 1)
	return m.fixView()
}

// takeStep takes the i-th enabled step.
func (m Model) takeStep(i int) Model {
	s := &m.sess
	if i < 0 || i >= len(s.enabled) {
		return m
	}
	if err := s.take(s.enabled[i]); err != nil {
		m.notice = err.Error()
	}
	return m
}

// activate acts on row i of the focused pane: take a step, travel in the
// history, or load an outcome's witness.
func (m Model) activate(i int) Model {
	s := &m.sess
	switch s.focus {
	case views.PaneSteps:
		m = m.takeStep(i)
	case views.PaneHistory:
		s.travel(i)
	case views.PaneOutcomes:
		m = m.loadRow(i)
	}
	return m
}

// loadRow loads the witness of outcome row i.
func (m Model) loadRow(i int) Model {
	in := m.outcomes()
	steps, ok := in.Witness(i)
	if !ok {
		return m
	}
	if err := m.sess.load(steps); err != nil {
		m.notice = "witness does not replay: " + err.Error()
		return m
	}
	m.sess.loaded = i
	m.sess.sel[views.PaneOutcomes] = i
	m.notice = fmt.Sprintf("witness loaded: → replays its %d steps", len(steps))
	return m
}

// loadWitness loads the witness of the outcome the condition asks about.
func (m Model) loadWitness() Model {
	s := &m.sess
	res := m.ex.result(s.mach())
	switch {
	case res == nil && m.ex.running:
		m.notice = "still exploring: the witness comes when it is done"
		return m
	case res == nil:
		m.notice = "no exploration result"
		return m
	case s.sc.Final == nil:
		m.notice = "this scenario has no condition"
		return m
	}
	for i, o := range res.Outcomes {
		if s.sc.Asked(o.Outcome) {
			return m.loadRow(i)
		}
	}
	what := "the condition never holds"
	if s.sc.Final.Kind == scenarios.Forall {
		what = "the condition always holds"
	}
	if !res.Complete {
		m.notice = fmt.Sprintf("%s in what %s exploration found (incomplete): no witness", what, s.mode.Title())
	} else {
		m.notice = fmt.Sprintf("%s in %s mode: no witness", what, s.mode.Title())
	}
	return m
}

func (m Model) nextVariant() (Model, tea.Cmd) {
	fam := m.family(m.sess.sc)
	if len(fam) < 2 || m.opts.Load == nil {
		m.notice = "this scenario has no other variant"
		return m, nil
	}
	next := fam[0]
	for i, e := range fam {
		if e.Name == m.sess.sc.Name {
			next = fam[(i+1)%len(fam)]
		}
	}
	m.notice = "opening " + next.Name + "…"
	return m, m.loadCmd(next.Name, true)
}

// focus moves the focus to pane p.
func (m Model) focus(p views.Pane) Model {
	s := &m.sess
	s.focus = p
	if p == views.PaneHistory || p == views.PaneOutcomes {
		s.side = p
	}
	return m
}

// move moves the selection (list panes) or scrolls (CPUs, memory) by d.
func (m Model) move(d int) Model {
	s := &m.sess
	switch s.focus {
	case views.PaneSteps, views.PaneHistory, views.PaneOutcomes:
		s.sel[s.focus] += d
	default:
		s.off[s.focus] += d
	}
	return m
}

// scroll moves the focused pane's view by d rows without moving the
// selection (mouse wheel).
func (m Model) scroll(d int) Model {
	s := &m.sess
	if s.page != views.PagePanes {
		s.pageOff = max(s.pageOff+d, 0)
		return m
	}
	s.off[s.focus] += d
	return m.clampOffsets()
}

func (m Model) layout() (views.Regions, bool) {
	return views.ScenarioLayout(m.input(), m.width, m.height)
}

func (m Model) visibleRows(p views.Pane) int {
	r, ok := m.layout()
	if !ok {
		return 1
	}
	return max(views.VisibleRows(r, p), 1)
}

// fixView clamps selections and keeps the selected rows in view.
func (m Model) fixView() Model {
	s := &m.sess
	if !m.hasSess {
		return m
	}
	in := m.input()
	s.sel[views.PaneSteps] = clampInt(s.sel[views.PaneSteps], 0, len(s.enabled)-1)
	s.sel[views.PaneHistory] = clampInt(s.sel[views.PaneHistory], 0, len(s.steps))
	s.sel[views.PaneOutcomes] = clampInt(s.sel[views.PaneOutcomes], 0, in.Outcome.Rows()-1)
	if m.width == 0 {
		return m
	}
	r, ok := views.ScenarioLayout(in, m.width, m.height)
	if !ok {
		return m
	}
	for _, p := range []views.Pane{views.PaneSteps, views.PaneHistory, views.PaneOutcomes} {
		vis := max(views.VisibleRows(r, p), 1)
		if s.sel[p] < s.off[p] {
			s.off[p] = s.sel[p]
		}
		if s.sel[p] >= s.off[p]+vis {
			s.off[p] = s.sel[p] - vis + 1
		}
	}
	return m.clampOffsets()
}

// clampOffsets keeps every pane's scroll offset within its content.
func (m Model) clampOffsets() Model {
	s := &m.sess
	if m.width == 0 {
		return m
	}
	in := m.input()
	r, ok := views.ScenarioLayout(in, m.width, m.height)
	if !ok {
		return m
	}
	for p := views.Pane(0); p < views.NumPanes; p++ {
		s.off[p] = clampInt(s.off[p], 0, views.ContentLines(in, r, p)-views.VisibleRows(r, p))
	}
	s.cpuOff = clampInt(s.cpuOff, 0, views.MaxCPUOffset(in, r))
	lines, vis := views.PageLines(in, r)
	s.pageOff = clampInt(s.pageOff, 0, lines-vis)
	return m
}

func (m Model) mouseScenario(msg tea.MouseMsg) (Model, tea.Cmd) {
	s := &m.sess
	if m.pr.on && s.page == views.PagePanes {
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			m.pr.storyOff = max(m.pr.storyOff-1, 0)
		case tea.MouseButtonWheelDown:
			m.pr.storyOff = min(m.pr.storyOff+1, m.storyScroll())
		}
		return m, nil
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		return m.scroll(-1), nil
	case tea.MouseButtonWheelDown:
		return m.scroll(+1), nil
	case tea.MouseButtonWheelLeft:
		s.cpuOff = max(s.cpuOff-1, 0)
		return m.clampOffsets(), nil
	case tea.MouseButtonWheelRight:
		s.cpuOff++
		return m.clampOffsets(), nil
	}
	if msg.Button != tea.MouseButtonLeft || msg.Action != tea.MouseActionPress || s.page != views.PagePanes {
		return m, nil
	}
	r, ok := m.layout()
	if !ok {
		return m, nil
	}
	p, ok := r.PaneAt(msg.X, msg.Y, s.side)
	if !ok {
		return m, nil
	}
	m.notice = ""
	rect := r.Panes[p]
	if r.Tabbed && (p == views.PaneHistory || p == views.PaneOutcomes) && msg.Y == rect.Y {
		// A click on the shared box's title switches the tab.
		if s.side == views.PaneHistory {
			p = views.PaneOutcomes
		} else {
			p = views.PaneHistory
		}
		return m.focus(p).fixView(), nil
	}
	m = m.focus(p)
	row := msg.Y - rect.Y - 1
	if p == views.PaneOutcomes {
		row -= views.OutcomeHeaderLines
	}
	if row < 0 || row >= rect.H-2 {
		return m.fixView(), nil
	}
	row += s.off[p]
	switch p {
	case views.PaneSteps:
		if row < len(s.enabled) {
			s.sel[p] = row
			m = m.takeStep(row)
		}
	case views.PaneHistory:
		if row <= len(s.steps) {
			s.travel(row)
		}
	case views.PaneOutcomes:
		if row < m.outcomes().Rows() {
			m = m.loadRow(row)
		}
	}
	return m.fixView(), nil
}

// outcomes returns the outcomes pane's data.
func (m Model) outcomes() views.OutcomesInput {
	s := &m.sess
	mach := s.mach()
	o := views.OutcomesInput{
		Running: m.ex.running && m.ex.key == exploreKey(mach),
		Spinner: m.spin.View(),
		Result:  m.ex.result(mach),
		Loaded:  s.loaded,
	}
	return o
}

// input gathers what the scenario screen shows.
func (m Model) input() views.ScenarioInput {
	in := m.input1()
	if in.Page == views.PageCompare || in.Page == views.PageNecessity {
		in.HelpBar = m.helpBar(m.keys.panelHelp(), m.keys.ShortHelpEnd())
	} else if in.Present != nil {
		// The indicator takes the start of the help line.
		w := m.width - lipgloss.Width(views.PresentIndicator(in)) - 2
		in.HelpBar = m.helpBarW(m.keys.presentHelp(), m.keys.ShortHelpEnd(), w)
	}
	return in
}

func (m Model) input1() views.ScenarioInput {
	s := &m.sess
	sc := s.sc
	return views.ScenarioInput{
		Spec:     sc,
		Variants: s.variants,
		Mach:     s.mach(),
		Initial:  s.states[0],
		State:    s.state(),
		Steps:    s.steps,
		Events:   s.events,
		Cursor:   s.cursor,
		Enabled:  s.enabled,
		Focus:    s.focus,
		SideTab:  s.side,
		Sel:      s.sel,
		Off:      s.off,
		CPUOff:   s.cpuOff,
		Digits:   s.digits,
		Notice:   m.notice,
		Outcome:  m.outcomes(),
		Page:     s.page,
		PageOff:  s.pageOff,
		Help:     m.keys.helpSections(),
		Legend:   legend,
		HelpBar:  m.helpBar(m.keys.ShortHelp(), m.keys.ShortHelpEnd()),
		Analysis: m.analysisInput(),
		Present:  m.presentInput(),
	}
}

// helpBar renders the short-help line with bubbles/help: the bindings of
// main, as many as fit (then "…"), followed by those of end, never cut.
// (help.Model's own truncation lets an item through when even the "…"
// does not fit, so the items are trimmed here.)
func (m Model) helpBar(main, end []key.Binding) string {
	return m.helpBarW(main, end, m.width)
}

// helpBarW is helpBar in width columns.
func (m Model) helpBarW(main, end []key.Binding, width int) string {
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

// View renders the current screen.
func (m Model) View() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	if m.screen == screenPicker || !m.hasSess {
		bar := m.helpBar(m.keys.PickerHelp().ShortHelp(), []key.Binding{m.keys.Quit})
		return views.RenderPicker(m.picker.list.View(), m.notice, bar, m.styles, m.width, m.height)
	}
	return views.RenderScenario(m.input(), m.styles, m.width, m.height)
}
