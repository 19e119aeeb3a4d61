package model

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
	"smpscope/views"
)

// scenarioModel is the scenario screen: the open session (its history and
// cursor), the panes and their scroll positions, the help and story
// pages, the step number being typed, and presentation mode. It talks up
// to the root model through the messages below, which update returns.
type scenarioModel struct {
	sess       session
	variants   []string // the family's variants, in library order
	weakenings int      // ordering annotations the necessity panel can weaken

	focus  views.Pane
	side   views.Pane // the tab shown when history and outcomes share a box
	sel    [views.NumPanes]int
	panes  [views.NumPanes]pane
	cpuOff int
	page   views.Page // PagePanes, PageHelp or PageStory (panels are the root's)
	pageV  pane
	// followPage asks the next frame to scroll the page to the line it
	// keeps in view (the picture page's step shown, after a step).
	followPage bool

	digits   string // a step number being typed
	digitSeq int    // identifies the pending digit timeout
	notice   string

	present presenter
	// reveal asks the next frame to scroll the list panes to their
	// selections (after a key moved them; not after the wheel scrolled).
	reveal bool
	// frame is the last frame drawn: mouse clicks and page keys refer to
	// what is on the screen.
	frame views.Frame
	seen  int // the session's moves the selections have followed
	// exploreKeys are the cache keys of the explorations of the program
	// in each mode (by its content; computed once per program).
	exploreKeys [2]jobKey
	// attempt is the closest attempt the history holds, shown while the
	// session's history is still that one (attemptAt: its edits then);
	// wantAttempt is the key of the one w asked for, while it is found.
	attempt     *scenarios.Attempt
	attemptAt   int
	wantAttempt jobKey
	wantAt      int
	// edit is the what-if: the edits and the edit cursor (whatif.go).
	edit whatIf
	// shown keeps the outcomes pane's rows of the last result shown
	// (views.ShownOutcomes), which every frame and key would build again.
	shown *shownRows
}

// shownRows is views.ShownOutcomes of one result, for one spec.
type shownRows struct {
	from *machine.Result
	spec *scenarios.Spec
	rows *machine.Result
}

// showAttempt says that the history just loaded is the closest attempt a.
func (s *scenarioModel) showAttempt(a *scenarios.Attempt) {
	s.attempt, s.attemptAt = a, s.sess.edits
}

// currentAttempt is the closest attempt the history is, if it still is.
func (s *scenarioModel) currentAttempt() *scenarios.Attempt {
	if s.attempt == nil || s.attemptAt != s.sess.edits || s.attempt.Mode != s.sess.mode {
		return nil
	}
	return s.attempt
}

// What the scenario screen asks of the root (its messages up).
type (
	toPickerMsg  struct{}                  // esc: back to the picker
	nextVariant  struct{}                  // v: open the next variant
	openPanelMsg struct{ page views.Page } // c or n
	quitMsg      struct{}                  // q
)

// digitTimeoutMsg ends a step number that could still grow.
type digitTimeoutMsg struct{ seq int }

func newScenarioModel(sp *scenarios.Spec, mode machine.Mode, c common) (scenarioModel, error) {
	sess, err := newSession(sp, mode, c.opts.Seed)
	if err != nil {
		return scenarioModel{}, fmt.Errorf("cannot open %s: %v", sp.Name, err)
	}
	s := scenarioModel{sess: sess, side: views.PaneOutcomes, reveal: true, shown: &shownRows{}}
	s.weakenings = countWeakenings(sp)
	for _, md := range bothModes {
		s.exploreKeys[md] = exploreKey(sp.Program, md)
	}
	s.edit = newWhatIf(sp)
	s.present.tick = c.opts.tick
	s.follow()
	return s, nil
}

// exploreKey is the cache key of the exploration of the current program
// and mode.
func (s *scenarioModel) exploreKey() jobKey { return s.exploreKeys[s.sess.mode] }

// explore starts exploring the current scenario in the current mode
// unless the result is known or on its way.
func (s *scenarioModel) explore(c common) tea.Cmd {
	m, opts := s.sess.mach(), *c.opts.Explore
	return c.jobs.start(exploreJob, s.exploreKey(), "", func(ctx context.Context) jobResult {
		opts.Context = ctx
		return exploreResult(machine.Explore(m, opts))
	})
}

// result returns the exploration of the current mode, if it is done.
func (s *scenarioModel) result(c common) *machine.Result {
	v, _ := c.jobs.result(s.exploreKey())
	return v.explored
}

// exploring reports whether the exploration of the current mode runs.
func (s *scenarioModel) exploring(c common) bool {
	return c.jobs.busy(exploreJob, s.exploreKey()) != nil
}

// update handles a message for the scenario screen: keys, the mouse, the
// digit timeout and the presentation timer.
func (s scenarioModel) update(msg tea.Msg, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	s, cmd, up := s.handle(msg, c)
	s.follow()
	return s, cmd, up
}

// follow keeps the selections on what the session moved to: the steps'
// within the steps enabled, the history's on the state shown.
func (s *scenarioModel) follow() {
	if s.seen != s.sess.moved {
		s.seen = s.sess.moved
		s.panes[views.PaneEvent].top() // a new explanation, read from its start
		s.sel[views.PaneSteps] = clampInt(s.sel[views.PaneSteps], 0, len(s.sess.enabled)-1)
		s.sel[views.PaneHistory] = s.sess.cursor
	}
}

func (s scenarioModel) handle(msg tea.Msg, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		s.notice = ""
		s.reveal = true
		if why := s.notOffered(msg, c); why != "" {
			s.notice = why
			return s, nil, nil
		}
		if s.page != views.PagePanes {
			return s.updatePage(msg, c)
		}
		if s.present.on {
			return s.updatePresent(msg, c)
		}
		return s.updatePanes(msg, c)
	case tea.MouseMsg:
		return s.mouse(msg, c)
	case savedMsg:
		if msg.err != nil {
			s.notice = "cannot save: " + msg.err.Error()
		} else {
			s.notice = "saved " + msg.path + " (smpscope check " + msg.path + ")"
		}
	case digitTimeoutMsg:
		if msg.seq == s.digitSeq && s.digits != "" {
			s.reveal = true
			return s.takeDigits(), nil, nil
		}
	case presentTickMsg:
		if !s.present.ticked(msg) {
			return s, nil, nil
		}
		if s.page != views.PagePanes {
			return s, s.present.timer(), nil // wait until the panes show again
		}
		if !s.sess.forward() || s.sess.cursor >= len(s.sess.steps) {
			return s, nil, nil // the end
		}
		return s, s.present.timer(), nil
	}
	return s, nil, nil
}

// notOffered says why a panel's key does nothing here, when it is off
// (the help line and the help page leave it out): a key pressed is
// answered, never ignored.
func (s *scenarioModel) notOffered(msg tea.KeyMsg, c common) string {
	k := c.keys
	pressed := func(b key.Binding) bool { return !b.Enabled() && slices.Contains(b.Keys(), msg.String()) }
	noCond := s.sess.spec.Final == nil
	switch {
	case pressed(k.Necessity) && noCond, pressed(k.Compare) && noCond, pressed(k.Fix) && noCond:
		return "this scenario has no final clause: there is no outcome to ask about"
	case pressed(k.Necessity):
		return "n: no barrier or ordering here to weigh"
	case pressed(k.Fix):
		return "f: a fix needs the scenario's litmus source"
	}
	return ""
}

// shared handles the keys that work on every page of the scenario
// screen: c and n open their panels, e and y export the history.
func (s scenarioModel) shared(msg tea.KeyMsg, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	k := c.keys
	switch {
	case key.Matches(msg, k.Compare):
		return s, nil, openPanelMsg{views.PageCompare}
	case key.Matches(msg, k.Necessity):
		return s, nil, openPanelMsg{views.PageNecessity}
	case key.Matches(msg, k.Fix):
		return s, nil, openPanelMsg{views.PageFix}
	}
	if s.sess.cursor == 0 {
		s.notice = "no steps taken yet: nothing to export"
		return s, nil, nil
	}
	if key.Matches(msg, k.Export) {
		s.notice = "writing the trace…"
		return s, s.exportCmd(c), nil
	}
	s.notice = "copying…"
	return s, s.copyCmd(c), nil
}

func isShared(msg tea.KeyMsg, k KeyMap) bool {
	return key.Matches(msg, k.Compare) || key.Matches(msg, k.Necessity) || key.Matches(msg, k.Fix) || key.Matches(msg, k.Export) || key.Matches(msg, k.Copy)
}

// updatePage handles a key on the help or story page.
func (s scenarioModel) updatePage(msg tea.KeyMsg, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	k := c.keys
	switch {
	case key.Matches(msg, k.Quit):
		return s, nil, quitMsg{}
	case isShared(msg, k):
		return s.shared(msg, c)
	case key.Matches(msg, k.Picker),
		s.page == views.PageHelp && key.Matches(msg, k.Help),
		s.page == views.PageStory && key.Matches(msg, k.Story),
		s.page == views.PageSource && key.Matches(msg, k.Source),
		s.page == views.PageDiff && key.Matches(msg, k.Diff),
		s.page == views.PagePicture && key.Matches(msg, k.Picture):
		s.showPage(views.PagePanes)
	case s.page == views.PagePicture && isPictureStep(msg, k):
		// The picture follows the history: the stepping keys work on it.
		s.followPage = true
		return s.updatePanes(msg, c)
	case s.page == views.PageDiff && isWhatIf(msg, k):
		return s.whatIfKey(msg, c)
	case s.page == views.PageStory && key.Matches(msg, k.Help):
		s.showPage(views.PageHelp)
	case s.page == views.PageHelp && key.Matches(msg, k.Story), s.page == views.PageSource && key.Matches(msg, k.Story):
		s.showPage(views.PageStory)
	case s.page != views.PageDiff && key.Matches(msg, k.Source):
		s.showPage(views.PageSource)
	default:
		s.pageV.scrollKeys(msg, k, pageStep)
	}
	return s, nil, nil
}

// isPictureStep reports the keys that step on the picture page: back,
// forward, a random step, run, reset, the witness, the step numbers (and
// enter ending one), and the mode switch, as on the panes.
func isPictureStep(msg tea.KeyMsg, k KeyMap) bool {
	for _, b := range []key.Binding{k.Back, k.Forward, k.Random, k.Run, k.Reset, k.Witness, k.Step, k.Enter, k.Mode} {
		if key.Matches(msg, b) {
			return true
		}
	}
	return false
}

// pageStep is how far pgup and pgdn move a page.
const pageStep = 10

// showPage shows a page (or the panes), from its top.
func (s *scenarioModel) showPage(p views.Page) {
	s.page = p
	s.pageV.top()
}

// updatePresent handles a key in presentation mode (on the panes).
func (s scenarioModel) updatePresent(msg tea.KeyMsg, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	if key.Matches(msg, c.keys.Quit) {
		return s, nil, quitMsg{}
	}
	s.reveal = false
	var cmd tea.Cmd
	var act tea.Msg
	s.present, cmd, act = s.present.update(msg, c.keys, s.sess.cursor >= len(s.sess.steps))
	switch act := act.(type) {
	case presentRestart:
		s.sess.travel(0)
		s.notice = "from the start"
	case presentStep:
		// The presenter paused: the step stays until space resumes.
		switch {
		case act.d < 0 && !s.sess.back():
			s.notice = "at the initial state · space resumes"
		case act.d > 0 && !s.sess.forward():
			s.notice = "the end: space replays from the start"
		} // else the indicator says "⏸ paused" and the keys space's "resume"
	case presentScroll:
		s.panes[views.PaneEvent].scroll(act.d)
	case presentMode:
		return s.presentOtherMode(c)
	case presentCPUs:
		s.cpuOff = max(s.cpuOff+act.d, 0)
	case presentLeave:
		s.notice = "presentation over: every key works again"
		s.reveal = true
	case presentHelp:
		s.showPage(views.PageHelp)
	case presentShared:
		return s.shared(msg, c)
	case presentOther:
		s.notice = "presenting: space pauses, ←/→ step, esc leaves"
		if s.present.searching {
			s.notice = "searching: esc for the normal screen, q quits"
		}
	}
	return s, cmd, nil
}

// presentOtherMode switches a presentation to the other mode and
// presents what it shows there: the witness of the outcome asked about,
// or the closest attempt at it, searched for as at the start.
func (s scenarioModel) presentOtherMode(c common) (scenarioModel, tea.Cmd, tea.Msg) {
	s.sess.switchMode()
	s.sess.reset()
	s.present.seq++ // the running timer is forgotten
	s.present.paused, s.present.searching, s.present.what = false, true, ""
	s.notice = fmt.Sprintf("%s mode: finding what to present…", s.sess.mode.Title())
	if cmd := s.explore(c); cmd != nil {
		return s, cmd, startedJobs{} // witnessLanded starts it
	}
	s, cmd := s.witnessLanded(c)
	return s, cmd, startedJobs{}
}

// updatePanes handles a key on the normal screen.
func (s scenarioModel) updatePanes(msg tea.KeyMsg, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	k := c.keys
	ss := &s.sess
	if key.Matches(msg, k.Step) {
		return s.typeDigit(msg.String(), c)
	}
	if s.digits != "" {
		if key.Matches(msg, k.Enter) {
			return s.takeDigits(), nil, nil
		}
		s.digits = "" // any other key abandons the number
	}
	switch {
	case key.Matches(msg, k.Quit):
		return s, nil, quitMsg{}
	case isShared(msg, k):
		return s.shared(msg, c)
	case key.Matches(msg, k.Back):
		if !ss.back() {
			s.notice = "at the initial state"
		}
	case key.Matches(msg, k.Forward):
		if !ss.forward() {
			s.notice = "nothing to replay: take a step (1-9, space)"
		}
	case key.Matches(msg, k.Random):
		if !ss.randomStep() {
			s.notice = "no step is enabled"
		}
	case key.Matches(msg, k.Run):
		replayed, random := ss.run()
		status := views.Status(ss.mach(), ss.state())
		switch {
		case replayed > 0 && random > 0:
			s.notice = fmt.Sprintf("replayed %d %s ahead, then took %d random: %s", replayed, plural(replayed, "step"), random, status)
		case replayed > 0:
			s.notice = fmt.Sprintf("replayed %d %s ahead: %s", replayed, plural(replayed, "step"), status)
		default:
			s.notice = fmt.Sprintf("took %d random steps: %s", random, status)
		}
	case key.Matches(msg, k.Reset):
		ss.reset()
		s.notice = "reset to the initial state"
	case key.Matches(msg, k.Witness):
		s = s.loadWitness(c)
		if s.wantAttempt != (jobKey{}) {
			var cmd tea.Cmd
			if s, cmd = s.attemptCmd(c); cmd != nil {
				return s, cmd, startedJobs{}
			}
		}
	case key.Matches(msg, k.Mode):
		s.notice = ss.switchMode().notice()
		if s.edit.edited() {
			return s, tea.Batch(s.explore(c), s.compareCmd(c)), startedJobs{}
		}
		return s, s.explore(c), nil
	case isWhatIf(msg, k):
		return s.whatIfKey(msg, c)
	case key.Matches(msg, k.Variant):
		return s, nil, nextVariant{}
	case key.Matches(msg, k.Story):
		s.showPage(views.PageStory)
	case key.Matches(msg, k.Source):
		s.showPage(views.PageSource)
	case key.Matches(msg, k.Help):
		s.showPage(views.PageHelp)
	case key.Matches(msg, k.Picture):
		s.showPage(views.PagePicture)
		s.followPage = true
	case key.Matches(msg, k.Picker):
		return s, nil, toPickerMsg{}
	case key.Matches(msg, k.Focus):
		s.setFocus((s.focus + 1) % views.NumPanes)
	case key.Matches(msg, k.FocusBack):
		s.setFocus((s.focus + views.NumPanes - 1) % views.NumPanes)
	case key.Matches(msg, k.Up):
		s.move(-1)
	case key.Matches(msg, k.Down):
		s.move(+1)
	case s.focus == views.PaneCPUs && key.Matches(msg, k.ScrollLeft):
		s.moveCursor(-1, 0) // the edit cursor to the CPU on the left
	case s.focus == views.PaneCPUs && key.Matches(msg, k.ScrollRight):
		s.moveCursor(+1, 0)
	case key.Matches(msg, k.PageUp):
		s.move(-max(s.panes[s.focus].visible(), 1))
	case key.Matches(msg, k.PageDown):
		s.move(+max(s.panes[s.focus].visible(), 1))
	case key.Matches(msg, k.ScrollLeft):
		s.cpuOff = max(s.cpuOff-1, 0)
	case key.Matches(msg, k.ScrollRight):
		s.cpuOff++
	case key.Matches(msg, k.Enter):
		s = s.activate(s.sel[s.focus], c)
	}
	return s, nil, nil
}

// typeDigit handles a digit of a step number. With fewer than ten steps
// it takes the step at once; otherwise it waits while the number could
// still grow (a further digit, enter, or a pause of DigitDelay ends it).
func (s scenarioModel) typeDigit(d string, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	buf := s.digits + d
	if buf == "0" {
		s.digits = ""
		s.notice = "steps are numbered from 1"
		return s, nil, nil
	}
	n, _ := strconv.Atoi(buf)
	if n > len(s.sess.enabled) {
		s.digits = ""
		s.notice = fmt.Sprintf("no step %d: %d enabled", n, len(s.sess.enabled))
		return s, nil, nil
	}
	s.digits = buf
	if !waitsForDigit(n, len(s.sess.enabled)) {
		return s.takeDigits(), nil, nil
	}
	s.digitSeq++
	seq := s.digitSeq
	return s, c.opts.tick(c.opts.DigitDelay, func(time.Time) tea.Msg { return digitTimeoutMsg{seq: seq} }), nil
}

// takeDigits takes the step whose number was typed.
func (s scenarioModel) takeDigits() scenarioModel {
	n, err := strconv.Atoi(s.digits)
	s.digits = ""
	if err != nil || n < 1 || n > len(s.sess.enabled) {
		return s
	}
	return s.takeStep(n - 1)
}

// takeStep takes the i-th enabled step.
func (s scenarioModel) takeStep(i int) scenarioModel {
	if i < 0 || i >= len(s.sess.enabled) {
		return s
	}
	if err := s.sess.take(s.sess.enabled[i]); err != nil {
		s.notice = err.Error()
	}
	return s
}

// activate acts on row i of the focused pane: take a step, travel in the
// history, or load an outcome's witness.
func (s scenarioModel) activate(i int, c common) scenarioModel {
	switch s.focus {
	case views.PaneSteps:
		s = s.takeStep(i)
	case views.PaneHistory:
		s.sess.travel(i)
	case views.PaneOutcomes:
		s = s.loadRow(i, c)
	}
	return s
}

// outcomes is the outcomes pane's data.
func (s *scenarioModel) outcomes(c common) views.OutcomesInput {
	r := s.result(c)
	if sh := s.shown; sh != nil && r != nil {
		if sh.from != r || sh.spec != s.sess.spec {
			sh.from, sh.spec, sh.rows = r, s.sess.spec, views.ShownOutcomes(s.sess.spec, r)
		}
		r = sh.rows
	}
	return views.OutcomesInput{Running: s.exploring(c), Spinner: c.spin, Result: r, Loaded: s.sess.loaded}
}

// loadRow loads the witness of outcome row i.
func (s scenarioModel) loadRow(i int, c common) scenarioModel {
	steps, ok := s.outcomes(c).Witness(i)
	if !ok {
		return s
	}
	if err := s.sess.load(steps); err != nil {
		s.notice = "witness does not replay: " + err.Error()
		return s
	}
	s.sess.loaded = i
	s.sel[views.PaneOutcomes] = i
	s.notice = fmt.Sprintf("witness loaded: → replays its %d steps", len(steps))
	return s
}

// loadWitness loads the witness of the outcome the condition asks about.
func (s scenarioModel) loadWitness(c common) scenarioModel {
	sp, mode := s.sess.spec, s.sess.mode
	res := s.outcomes(c).Result // the rows: i below is a row
	switch {
	case res == nil && s.exploring(c):
		s.notice = "still exploring: the witness comes when it is done"
		return s
	case res == nil:
		s.notice = "no exploration result"
		return s
	case sp.Final == nil:
		s.notice = "this scenario has no condition"
		return s
	}
	for i, o := range res.Outcomes {
		if sp.Asked(o.Outcome) {
			return s.loadRow(i, c)
		}
	}
	what := "the condition never holds"
	if sp.Final.Kind == syntax.Forall {
		what = "the condition always holds"
	}
	if !res.Complete {
		s.notice = fmt.Sprintf("%s in what %s exploration found (incomplete): no witness", what, mode.Title())
		return s
	}
	// Unreachable: the closest attempt instead, found in the background
	// (it explores the weakened programs to say why).
	s.notice = fmt.Sprintf("%s in %s mode: finding the closest attempt…", what, mode.Title())
	s.wantAttempt, s.wantAt = s.attemptKey(), s.sess.edits
	return s
}

// attemptKey is the cache key of the closest attempt in the current
// program and mode.
func (s *scenarioModel) attemptKey() jobKey {
	return jobKey{what: closestAttempt, of: s.sess.spec.Key(), mode: s.sess.mode}
}

// attemptCmd starts finding the closest attempt w asked for, unless it
// is known (then it is loaded at once).
func (s scenarioModel) attemptCmd(c common) (scenarioModel, tea.Cmd) {
	if s.wantAttempt == (jobKey{}) {
		return s, nil
	}
	if v, ok := c.jobs.result(s.wantAttempt); ok {
		return s.loadAttempt(v.attempt), nil
	}
	sp, mode, opts := s.sess.spec, s.sess.mode, *c.opts.Explore
	return s, c.jobs.start(attemptJob, s.wantAttempt, "the closest attempt", func(ctx context.Context) jobResult {
		opts.Context = ctx
		ex, err := scenarios.WitnessOrAttempt(sp, mode, opts)
		return jobResult{value: jobValue{attempt: ex}, err: err, keep: err == nil && ctx.Err() == nil}
	})
}

// attemptDone loads the closest attempt w (or a presentation) asked for
// once it is found, if the screen still shows that program and mode; a
// presentation waiting for it starts.
func (s scenarioModel) attemptDone(msg jobDoneMsg) (scenarioModel, tea.Cmd) {
	if msg.key != s.wantAttempt || msg.key != s.attemptKey() || s.wantAt != s.sess.edits {
		return s, nil // asked for another program or mode, or steps were taken since
	}
	s.wantAttempt = jobKey{}
	ex := msg.value.attempt
	if msg.err != nil || ex == nil {
		s.notice = "no closest attempt: " + fmt.Sprint(msg.err)
		s.present.searching = false
		return s, nil
	}
	s = s.loadAttempt(ex)
	if s.present.on && s.present.searching {
		s.present.searching = false
		return s, s.present.timer()
	}
	return s, nil
}

// loadAttempt makes the closest attempt the history ahead.
func (s scenarioModel) loadAttempt(ex *scenarios.Execution) scenarioModel {
	s.wantAttempt = jobKey{}
	if err := s.sess.load(ex.Steps); err != nil {
		s.notice = "the attempt does not replay: " + err.Error()
		return s
	}
	s.showAttempt(ex.Attempt)
	s.notice = fmt.Sprintf("unreachable in %s mode: the closest attempt is loaded, → replays its %d steps", s.sess.mode.Title(), len(ex.Steps))
	return s
}

// witnessLanded starts a presentation that was searching for its witness,
// now that the exploration of the current mode has landed: the shortest
// witness of the outcome the final clause asks about, or, when there is
// none (the outcome is unreachable, the search stopped first, there is no
// final clause), a random run from the one seeded stream, saying why.
func (s scenarioModel) witnessLanded(c common) (scenarioModel, tea.Cmd) {
	if !s.present.on || !s.present.searching {
		return s, nil
	}
	res := s.result(c)
	if res == nil {
		return s, nil // cancelled; a new exploration brings it
	}
	sp, mode := s.sess.spec, s.sess.mode
	steps, ok := sp.ShortestWitness(res)
	if !ok && sp.Final != nil && res.Complete {
		// Unreachable: present the closest attempt, found in the
		// background like w's (the presentation keeps searching).
		s.notice = fmt.Sprintf("unreachable in %s mode: finding the closest attempt to present…", mode.Title())
		s.wantAttempt, s.wantAt = s.attemptKey(), s.sess.edits
		return s.attemptCmd(c)
	}
	s.present.searching = false
	why := ""
	switch {
	case ok:
		s.notice = fmt.Sprintf("the shortest witness: %d steps", len(steps))
	case sp.Final == nil:
		why = "no condition, so no witness"
	default:
		why = fmt.Sprintf("no witness found (%s)", words.Summary(res))
	}
	if !ok {
		r := scenarios.NewRandom(c.opts.Seed)
		steps = r.Run(s.sess.mach(), s.sess.states[0])
		s.notice = fmt.Sprintf("%s: a random run, seed %d", why, c.opts.Seed)
		s.present.what = fmt.Sprintf("a random run (no witness), seed %d", c.opts.Seed)
	}
	if err := s.sess.load(steps); err != nil {
		s.notice = "the witness does not replay: " + err.Error()
		return s, nil
	}
	return s, s.present.timer()
}

// setFocus moves the focus to pane p.
func (s *scenarioModel) setFocus(p views.Pane) {
	if p == views.PaneCPUs && s.focus != p && s.edit.editable() {
		s.notice = s.cursorHint() // the edit cursor shows
	}
	s.focus = p
	if p == views.PaneHistory || p == views.PaneOutcomes || p == views.PaneMemory && s.frame.Regions.MemoryTabbed {
		s.side = p
	}
}

// move moves the selection (list panes) or scrolls (CPUs, memory) by d.
func (s *scenarioModel) move(d int) {
	switch s.focus {
	case views.PaneSteps, views.PaneHistory, views.PaneOutcomes:
		s.sel[s.focus] += d
	case views.PaneCPUs:
		s.moveCursor(0, d) // the edit cursor
	default:
		s.panes[s.focus].scroll(d)
	}
}

// mouse handles a click (take a step, travel, load a witness, focus a
// pane) and the wheel (scroll the focused pane or the page).
func (s scenarioModel) mouse(msg tea.MouseMsg, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	if s.present.on && s.page == views.PagePanes {
		// The wheel scrolls the explanation over it, else the story.
		p := &s.present.story
		if s.frame.OK() && s.frame.Present.Event.Contains(msg.X, msg.Y) {
			p = &s.panes[views.PaneEvent]
		}
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			p.scroll(-1)
		case tea.MouseButtonWheelDown:
			p.scroll(+1)
		}
		return s, nil, nil
	}
	scroll := func(d int) {
		switch {
		case s.page != views.PagePanes:
			s.pageV.scroll(d)
		case s.frame.OK() && s.frame.Regions.Event.Contains(msg.X, msg.Y):
			// The wheel over the explanation scrolls it, focused or not.
			s.panes[views.PaneEvent].scroll(d)
		default:
			s.panes[s.focus].scroll(d)
		}
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		scroll(-1)
		return s, nil, nil
	case tea.MouseButtonWheelDown:
		scroll(+1)
		return s, nil, nil
	case tea.MouseButtonWheelLeft:
		s.cpuOff = max(s.cpuOff-1, 0)
		return s, nil, nil
	case tea.MouseButtonWheelRight:
		s.cpuOff++
		return s, nil, nil
	}
	if msg.Button != tea.MouseButtonLeft || msg.Action != tea.MouseActionPress || s.page != views.PagePanes || !s.frame.OK() {
		return s, nil, nil
	}
	r := s.frame.Regions
	p, ok := r.PaneAt(msg.X, msg.Y, s.side)
	if !ok {
		return s, nil, nil
	}
	s.notice = ""
	s.reveal = true
	rect := r.Panes[p]
	if r.Shared(p) && msg.Y == rect.Y {
		// A click on the shared box's title shows the next tab.
		tabs := []views.Pane{views.PaneHistory, views.PaneOutcomes}
		if r.MemoryTabbed {
			tabs = []views.Pane{views.PaneMemory, views.PaneHistory, views.PaneOutcomes}
		}
		next := tabs[0]
		for i, t := range tabs {
			if t == s.side {
				next = tabs[(i+1)%len(tabs)]
			}
		}
		s.setFocus(next)
		return s, nil, nil
	}
	s.setFocus(p)
	if p == views.PaneEvent || p == views.PaneMemory {
		return s, nil, nil // nothing to take or load there
	}
	if p == views.PaneCPUs {
		// A click on an instruction puts the edit cursor there.
		off := views.Offsets{}
		off.Panes[p] = s.panes[p].offset()
		if cpu, i, ok := s.frame.InstrAt(msg.X, msg.Y, off); ok {
			s.edit.cpu, s.edit.at = cpu, i
			s.notice = s.cursorHint()
		}
		return s, nil, nil
	}
	row := msg.Y - rect.Y - 1
	if p == views.PaneOutcomes {
		row -= s.frame.OutcomeHeadLines()
	}
	if row < 0 || row >= rect.H-2 {
		return s, nil, nil
	}
	row += s.panes[p].offset()
	if p == views.PaneOutcomes {
		// Rows that wrap take several lines.
		r, ok := s.frame.OutcomeRowAt(row)
		if !ok {
			return s, nil, nil
		}
		row = r
	}
	switch p {
	case views.PaneSteps:
		if row < len(s.sess.enabled) {
			s.sel[p] = row
			s = s.takeStep(row)
		}
	case views.PaneHistory:
		if row <= len(s.sess.steps) {
			s.sess.travel(row)
		}
	case views.PaneOutcomes:
		if row < s.outcomes(c).Rows() {
			s = s.loadRow(row, c)
		}
	}
	return s, nil, nil
}

// input gathers what the scenario screen shows.
func (s *scenarioModel) input(c common) views.ScenarioInput {
	ss := &s.sess
	return views.ScenarioInput{
		Spec:     ss.spec,
		Variants: s.variants,
		Mach:     ss.mach(),
		Initial:  ss.states[0],
		State:    ss.state(),
		Steps:    ss.steps,
		Events:   ss.events,
		States:   ss.states,
		Cursor:   ss.cursor,
		Enabled:  ss.enabled,
		Focus:    s.focus,
		SideTab:  s.side,
		Sel:      s.sel,
		CPUOff:   s.cpuOff,
		Digits:   s.digits,
		Notice:   s.notice,
		Outcome:  s.outcomes(c),
		Page:     s.page,
		Present:  s.presentInput(c),
		Attempt:  s.currentAttempt(),
		Edit:     views.EditCursor{On: s.focus == views.PaneCPUs && s.edit.editable() && !s.present.on, CPU: s.edit.cpu, At: s.edit.at},
		WhatIf:   s.whatIfInput(c),
	}
}

// presentInput is the presentation's part of the input (nil when off).
func (s *scenarioModel) presentInput(c common) *views.PresentInput {
	p := s.present.input()
	if p != nil {
		p.Spinner = c.spin
	}
	return p
}

// layout lays out the frame for in, hands each pane its lines (clamping
// its offset; revealing the selection when a key moved it) and returns
// the frame's offsets.
func (s *scenarioModel) layout(in views.ScenarioInput, c common) views.Offsets {
	s.sel[views.PaneSteps] = clampInt(s.sel[views.PaneSteps], 0, len(s.sess.enabled)-1)
	s.sel[views.PaneHistory] = clampInt(s.sel[views.PaneHistory], 0, len(s.sess.steps))
	s.sel[views.PaneOutcomes] = clampInt(s.sel[views.PaneOutcomes], 0, in.Outcome.Rows()-1)
	in.Sel = s.sel
	f := views.NewFrame(in, *c.styles, c.width, c.height)
	s.frame = f
	var off views.Offsets
	if !f.OK() {
		return off
	}
	s.cpuOff = f.CPUOff
	for p := views.Pane(0); p < views.NumPanes; p++ {
		s.panes[p].set(f.Lines(p), f.Visible(p))
		switch {
		case !s.reveal || in.Page != views.PagePanes || f.Presenting:
		case p == views.PaneSteps || p == views.PaneHistory:
			s.panes[p].reveal(s.sel[p])
		case p == views.PaneOutcomes:
			// A row that wraps: show its last line, then its first.
			first, last := f.OutcomeRowLines(s.sel[p])
			s.panes[p].reveal(last)
			s.panes[p].reveal(first)
		}
		if s.reveal && p == views.PaneCPUs && in.Edit.On && in.Page == views.PagePanes && !f.Presenting {
			s.panes[p].reveal(f.CodeRow(s.edit.cpu, s.edit.at))
		}
		off.Panes[p] = s.panes[p].offset()
	}
	s.reveal = false
	if lines, vis := f.PageLines(); in.Page == views.PageHelp || in.Page == views.PageStory || in.Page == views.PagePicture || in.Page == views.PageSource {
		s.pageV.set(lines, vis)
		if s.followPage && in.Page == views.PagePicture {
			s.pageV.reveal(f.PageAt())
		}
		off.Page = s.pageV.offset()
	}
	s.followPage = false
	if f.Presenting {
		lines, vis := f.StoryLines()
		s.present.story.set(lines, vis)
		off.Story = s.present.story.offset()
	}
	return off
}

// isWhatIf reports whether msg is one of the what-if keys.
func isWhatIf(msg tea.KeyMsg, k KeyMap) bool {
	for _, b := range []key.Binding{k.EditOrder, k.EditBarrier, k.EditRemove, k.UndoEdit, k.RedoEdit, k.Diff, k.SaveEdited} {
		if key.Matches(msg, b) {
			return true
		}
	}
	return false
}

// whatIfKey handles the what-if keys: o, b and x edit, u and U undo and
// redo, d shows the diff page (exploring both modes), S saves.
func (s scenarioModel) whatIfKey(msg tea.KeyMsg, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	k := c.keys
	switch {
	case key.Matches(msg, k.EditOrder):
		return s.editAction("o", c)
	case key.Matches(msg, k.EditBarrier):
		return s.editAction("b", c)
	case key.Matches(msg, k.EditRemove):
		return s.editAction("x", c)
	case key.Matches(msg, k.UndoEdit):
		return s.undoEdit(c)
	case key.Matches(msg, k.RedoEdit):
		return s.redoEdit(c)
	case key.Matches(msg, k.Diff):
		s.showPage(views.PageDiff)
		s.edit.both = true
		return s, s.compareCmd(c), startedJobs{}
	case key.Matches(msg, k.SaveEdited):
		if !s.edit.edited() {
			s.notice = "no edits to save"
			return s, nil, nil
		}
		s.notice = "saving…"
		return s, s.saveCmd(c), nil
	}
	return s, nil, nil
}
