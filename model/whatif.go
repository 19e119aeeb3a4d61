package model

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

// What if? An edit cursor in the CPU columns picks an instruction; o
// cycles its ordering through the kernel's alternatives, b the barrier
// after it, x removes a barrier. Each edit recompiles the scenario, moves
// the session to the edited program (the history replays as far as it
// still can), explores it in the background, and the outcomes pane shows
// the verdict before → after. u and U undo and redo edits like ← and →
// steps; d shows the diff page, S saves the edited test.

// whatIf is the scenario screen's what-if state: the edits made to the
// scenario as opened, with the spec each prefix of them gives, and the
// edit cursor.
type whatIf struct {
	base  *scenarios.Spec   // the scenario as opened, before any edit
	specs []*scenarios.Spec // specs[i] runs edits[:i]; specs[0] is base
	edits []scenarios.Edit
	n     int // edits[:n] are applied (undo and redo move n)

	cpu, at int // the cursor: a thread and an index into its code
	// last is the latest edit's key and instruction: pressing the same
	// key there again revises that edit (o three times is one edit).
	last editKey
	// both asks for the other mode's explorations too (the diff page).
	both bool
	// announce asks to say the verdict before → after once it is known.
	announce string
	// proposal says the steps ahead are only a proposal (no step taken,
	// and nothing or a loaded witness ahead): the new witness replaces
	// them.
	proposal bool
	// cuts[i] is the history edit i cut short (nil when it cut nothing):
	// undoing that edit brings it back, as long as the history has not
	// changed since.
	cuts []*cutHistory
}

// cutHistory is a history as it was before an edit cut it, and as the
// edit left it.
type cutHistory struct {
	mode          machine.Mode
	steps, after  []machine.Step
	cursor, atCut int
}

type editKey struct {
	key, cpu string
	at       int
}

// newWhatIf starts from sp; an edited sp (--edit, an edited trace)
// opens with its edits applied, so that u undoes them.
func newWhatIf(sp *scenarios.Spec) whatIf {
	base := sp.Original()
	w := whatIf{base: base, specs: []*scenarios.Spec{base}}
	cur := base
	for i, e := range sp.Edits {
		next, err := cur.Edited(e)
		if err != nil {
			// Not expected: sp was made by these edits. Keep sp,
			// without undo.
			return whatIf{base: base, specs: []*scenarios.Spec{sp}}
		}
		if i == len(sp.Edits)-1 {
			next = sp
		}
		w.edits = append(w.edits, e)
		w.specs = append(w.specs, next)
		cur = next
	}
	w.n = len(w.edits)
	return w
}

// spec is the spec the screen runs.
func (w *whatIf) spec() *scenarios.Spec { return w.specs[w.n] }

// edited reports whether the spec shown differs from the one opened.
func (w *whatIf) edited() bool { return len(w.spec().Edits) > 0 }

// editable reports whether the scenario has litmus source to edit.
func (w *whatIf) editable() bool { return w.base.Litmus != nil }

// push applies a new edit after the ones applied (dropping those undone).
func (w *whatIf) push(e scenarios.Edit, sp *scenarios.Spec) {
	w.edits = append(w.edits[:w.n:w.n], e)
	w.specs = append(w.specs[:w.n+1:w.n+1], sp)
	w.cuts = append(w.cuts[:min(w.n, len(w.cuts)):min(w.n, len(w.cuts))], nil)
	for len(w.cuts) < len(w.edits) {
		w.cuts = append(w.cuts, nil)
	}
	w.n++
}

// pop forgets the latest edit (to revise it).
func (w *whatIf) pop() {
	w.n--
	w.edits = w.edits[:w.n:w.n]
	w.specs = w.specs[: w.n+1 : w.n+1]
	w.cuts = w.cuts[:min(w.n, len(w.cuts)):min(w.n, len(w.cuts))]
}

// exploreKey is the cache key of the exploration of p in mode md, by the
// program's content: the outcomes pane's and the what-if's explorations
// share it.
func exploreKey(p *machine.Program, md machine.Mode) jobKey {
	return jobKey{what: exploration, of: scenarios.ProgramKey(p), mode: md}
}

// exploreResult is an exploration as a job's result: kept unless a
// cancellation cut it short (another limit stops it the same way each
// time; a cancellation does not).
func exploreResult(res *machine.Result) jobResult {
	return jobResult{value: jobValue{explored: res}, keep: res.Stop.Kind != machine.StopCancelled}
}

// cursorAddr is the cursor's instruction in the --edit syntax: the CPU's
// name and the instruction's number from 1.
func (s *scenarioModel) cursorAddr() (string, int) {
	return s.sess.mach().Prog.Threads[s.edit.cpu].Name, s.edit.at + 1
}

// clampCursor keeps the cursor on an instruction of the program.
func (s *scenarioModel) clampCursor() {
	threads := s.sess.mach().Prog.Threads
	s.edit.cpu = clampInt(s.edit.cpu, 0, len(threads)-1)
	s.edit.at = clampInt(s.edit.at, 0, len(threads[s.edit.cpu].Code)-1)
}

// moveCursor moves the edit cursor by dcpu columns and dat instructions,
// and scrolls its column into view.
func (s *scenarioModel) moveCursor(dcpu, dat int) {
	s.edit.cpu += dcpu
	s.edit.at += dat
	s.clampCursor()
	if k := s.frame.CPUsShown(); s.edit.cpu < s.cpuOff {
		s.cpuOff = s.edit.cpu
	} else if s.edit.cpu >= s.cpuOff+k {
		s.cpuOff = s.edit.cpu - k + 1
	}
	s.notice = s.cursorHint()
}

// cursorHint says what the instruction under the cursor is and what o
// and b would make of it: "P1:1 READ_ONCE(*flag) · o: smp_load_acquire
// · b: smp_mb() after it".
func (s *scenarioModel) cursorHint() string {
	if !s.edit.editable() {
		return "this scenario has no litmus source to edit"
	}
	cpu, at := s.cursorAddr()
	sp := s.edit.spec()
	code := s.sess.mach().Prog.Threads[s.edit.cpu].Code
	if s.edit.at >= len(code) {
		return cpu + " has no instructions (--edit " + cpu + ":0+mb inserts a barrier)"
	}
	text := strings.TrimSpace(code[s.edit.at].Text)
	hint := fmt.Sprintf("%s:%d %s", cpu, at, text)
	if forms, cur, err := sp.Orderings(cpu, at); err == nil && len(forms) > 1 {
		hint += " · o: " + forms[(cur+1)%len(forms)].Prim
	}
	if word, _, err := sp.BarrierAfter(cpu, at); err == nil {
		switch next := scenarios.NextBarrier(word); {
		case next == "":
			hint += " · b: no smp_" + word + "() after it"
		default:
			hint += " · b: smp_" + next + "() after it"
		}
	}
	return hint
}

// editAction handles o, b and x: the first press shows the cursor (it
// moves the focus to the CPUs), the others edit the instruction under it.
func (s scenarioModel) editAction(key string, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	if !s.edit.editable() {
		s.notice = "this scenario has no litmus source to edit"
		return s, nil, nil
	}
	if s.focus != views.PaneCPUs {
		s.setFocus(views.PaneCPUs)
		s.clampCursor()
		s.notice = "edit cursor: ↑/↓ and h/l move it; " + s.cursorHint()
		return s, nil, nil
	}
	s.clampCursor()
	cpu, at := s.cursorAddr()
	w := &s.edit
	cur := w.spec()
	here := editKey{key, cpu, at}
	revise := key != "x" && w.last == here && w.n > 0 && w.n == len(w.edits)
	from := cur
	if revise {
		from = w.specs[w.n-1]
	}
	var e scenarios.Edit
	changes := true
	var err error
	switch key {
	case "o":
		var forms []scenarios.Ordering
		var i int
		if forms, i, err = cur.Orderings(cpu, at); err == nil {
			e, changes, err = from.OrderingEdit(cpu, at, forms[(i+1)%len(forms)].Word)
		}
	case "b":
		var word string
		if word, _, err = cur.BarrierAfter(cpu, at); err == nil {
			e, changes, err = from.BarrierEdit(cpu, at, scenarios.NextBarrier(word))
		}
	default:
		e = scenarios.Edit{CPU: cpu, At: at, Op: scenarios.RemoveBarrier}
		if forms, i, err := cur.Orderings(cpu, at); err == nil {
			e.To = forms[i].Word // "P0:2-wmb" says what goes
		}
	}
	var next *scenarios.Spec
	if err == nil && changes {
		next, err = from.Edited(e)
	}
	if err != nil {
		s.notice = strings.TrimPrefix(err.Error(), "edit "+e.String()+": ")
		return s, nil, nil
	}
	if revise {
		w.pop()
	}
	what := "back to " + cpu + fmt.Sprintf(":%d as it was", at)
	first := -1
	if changes {
		w.push(e, next)
		what = e.String()
		first = w.n - 1
	}
	w.last = here
	return s.retarget(what, first, c)
}

// undoEdit and redoEdit move through the edits like ← and → through the
// steps.
func (s scenarioModel) undoEdit(c common) (scenarioModel, tea.Cmd, tea.Msg) {
	if s.edit.n == 0 {
		s.notice = "no edit to undo"
		return s, nil, nil
	}
	e := s.edit.edits[s.edit.n-1]
	s.edit.n--
	s.edit.last = editKey{}
	var cut *cutHistory
	if s.edit.n < len(s.edit.cuts) {
		cut = s.edit.cuts[s.edit.n]
	}
	// The history that edit cut, if nothing changed it since.
	restore := cut != nil && cut.mode == s.sess.mode && s.sess.cursor == cut.atCut && slices.Equal(s.sess.steps, cut.after)
	s, cmd, up := s.retarget("undid "+e.String(), -1, c)
	if restore && s.sess.restore(cut.steps, cut.cursor) == nil {
		n := len(cut.steps) - len(cut.after)
		s.notice = fmt.Sprintf("undid %s · the %d %s it cut %s back", e, n, plural(n, "step"), map[bool]string{true: "is", false: "are"}[n == 1])
		s.edit.announce = s.notice
	}
	return s, cmd, up
}

func (s scenarioModel) redoEdit(c common) (scenarioModel, tea.Cmd, tea.Msg) {
	if s.edit.n == len(s.edit.edits) {
		s.notice = "no edit to redo"
		return s, nil, nil
	}
	s.edit.n++
	s.edit.last = editKey{}
	return s.retarget("redid "+s.edit.edits[s.edit.n-1].String(), -1, c)
}

// retarget moves the screen to the spec the edits now give: the session
// replays the history there, the explorations start, and the verdict
// before → after is announced when known. first is the first of the
// edits just made (-1 for an undo or redo): what the history lost is
// kept with it, for u to bring back.
func (s scenarioModel) retarget(what string, first int, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	sp := s.edit.spec()
	had, cursor := len(s.sess.steps), s.sess.cursor
	before := slices.Clone(s.sess.steps)
	s.edit.proposal = cursor == 0 && (had == 0 || s.sess.loaded >= 0)
	kept := s.sess.retarget(sp)
	if w := &s.edit; first >= 0 && first < len(w.cuts) {
		w.cuts[first] = nil
		if kept < had {
			w.cuts[first] = &cutHistory{mode: s.sess.mode, steps: before, cursor: cursor, after: slices.Clone(s.sess.steps), atCut: s.sess.cursor}
		}
	}
	s.weakenings = countWeakenings(sp)
	for _, md := range bothModes {
		s.exploreKeys[md] = exploreKey(sp.Program, md)
	}
	s.clampCursor()
	if s.focus != views.PaneHistory {
		s.side = views.PaneOutcomes // where the verdict before → after shows
	}
	switch {
	case kept < cursor:
		what += fmt.Sprintf(" · history cut at step %d (step %d is not possible now)", kept, kept+1)
	case kept < had && !s.edit.proposal:
		what += fmt.Sprintf(" · %d steps ahead dropped", had-kept)
	}
	s.notice = what
	s.edit.announce = what
	s = s.announce(c)
	return s, tea.Batch(s.explore(c), s.compareCmd(c)), startedJobs{}
}

// announce says the verdict before → after once both explorations of the
// current mode are known, and readies the new shortest witness: loaded as
// the steps ahead when no step has been taken yet (→ steps through it),
// else one w away.
func (s scenarioModel) announce(c common) scenarioModel {
	if s.edit.announce == "" {
		return s
	}
	md := s.sess.mode
	after := s.result(c)
	bv, _ := c.jobs.result(exploreKey(s.edit.base.Program, md))
	before := bv.explored
	if after == nil || before == nil {
		return s
	}
	what := s.edit.announce
	s.edit.announce = ""
	sp := s.sess.spec
	if !s.edit.edited() || sp.Final == nil {
		s.notice = what
		return s
	}
	b, a := s.edit.base.Verdict(before), sp.Verdict(after)
	msg := fmt.Sprintf("%s · %s: %s → %s", what, md.Title(), b.Observation, a.Observation)
	steps, ok := sp.ShortestWitness(after)
	proposal := s.edit.proposal && s.sess.cursor == 0 && !s.present.on
	switch {
	case !ok && proposal:
		s.sess.reset() // the old witness ahead is no witness now
		msg += " · no witness"
	case !ok:
		msg += " · no witness"
	case proposal:
		if err := s.sess.load(steps); err == nil {
			for i, o := range s.outcomes(c).Result.Outcomes { // the rows
				if sp.Asked(o.Outcome) && len(o.Witness) == len(steps) {
					s.sess.loaded = i
					break
				}
			}
			msg += fmt.Sprintf(" · → replays the new witness (%d steps)", len(steps))
		}
	default:
		msg += " · w loads the new witness"
	}
	s.notice = msg
	return s
}

// whatIfKinds are what the what-if compares, in the order they are
// explored: the original in the current mode, then, when both modes are
// asked for, the edited program and the original in the other mode.
func (s *scenarioModel) whatIfWanted() []struct {
	p  *machine.Program
	md machine.Mode
} {
	type want = struct {
		p  *machine.Program
		md machine.Mode
	}
	if !s.edit.edited() {
		return nil
	}
	md, other := s.sess.mode, machine.ARM
	if md == machine.ARM {
		other = machine.TSO
	}
	out := []want{{s.edit.base.Program, md}}
	if s.edit.both {
		out = append(out, want{s.sess.spec.Program, other}, want{s.edit.base.Program, other})
	}
	return out
}

// compareCmd explores the first of the what-if's programs not known yet,
// one at a time (the root asks again when one is done).
func (s *scenarioModel) compareCmd(c common) tea.Cmd {
	for _, w := range s.whatIfWanted() {
		key := exploreKey(w.p, w.md)
		if _, ok := c.jobs.result(key); ok || c.jobs.busy(exploreJob, key) != nil {
			continue
		}
		m, err := machine.New(w.p, w.md)
		if err != nil {
			return nil
		}
		opts := *c.opts.Explore
		return c.jobs.start(whatIfJob, key, "", func(ctx context.Context) jobResult {
			opts.Context = ctx
			return exploreResult(machine.Explore(m, opts))
		})
	}
	return nil
}

// afterJob follows a finished job: the next what-if exploration, and the
// announcement of the verdict.
func (s scenarioModel) afterJob(c common) (scenarioModel, tea.Cmd) {
	s = s.announce(c)
	return s, s.compareCmd(c)
}

// whatIfInput is what the views show of the what-if (nil unedited).
func (s *scenarioModel) whatIfInput(c common) *views.WhatIfInput {
	if !s.edit.edited() {
		return nil
	}
	sp := s.sess.spec
	wi := &views.WhatIfInput{Base: s.edit.base, Edits: sp.Edits, Changed: sp.ChangedInstrs(), Spinner: c.spin}
	if s.page == views.PageDiff {
		wi.Diff = sp.SourceDiff()
	}
	for _, md := range bothModes {
		bk, ak := exploreKey(s.edit.base.Program, md), exploreKey(sp.Program, md)
		if v, ok := c.jobs.result(bk); ok {
			wi.Before[md] = v.explored
		}
		if v, ok := c.jobs.result(ak); ok {
			wi.After[md] = v.explored
		}
		wi.BeforeRunning[md] = c.jobs.busy(exploreJob, bk) != nil || c.jobs.busy(whatIfJob, bk) != nil
		wi.AfterRunning[md] = c.jobs.busy(exploreJob, ak) != nil || c.jobs.busy(whatIfJob, ak) != nil
	}
	return wi
}

// savedMsg reports the edited test saved (S).
type savedMsg struct {
	path string
	err  error
}

// saveCmd saves the edited scenario as a new .litmus file in the trace
// directory (never overwriting).
func (s *scenarioModel) saveCmd(c common) tea.Cmd {
	sp, dir := s.sess.spec, c.opts.TraceDir
	return func() tea.Msg {
		path, err := scenarios.WriteNewEdited(dir, sp)
		if err == nil && dir == "" {
			path = "./" + path
		}
		return savedMsg{path: path, err: err}
	}
}

// startedJobs tells the root that background work started (the spinner
// turns while it runs).
type startedJobs struct{}

// countWeakenings is how many annotations the necessity panel weakens
// (its spinner says how many programs it explores).
func countWeakenings(sp *scenarios.Spec) int {
	ws, _ := sp.Weakenings()
	return len(ws)
}

// applyEdits takes edits from a panel as a what-if (a fix, an
// annotation weakened), each one edit u undoes, and, when steps are
// given, loads them ahead of the initial state in mode (switching to it):
// the witness the necessity panel shows, which → then steps through.
func (s scenarioModel) applyEdits(edits []scenarios.Edit, steps []machine.Step, mode machine.Mode, what string, c common) (scenarioModel, tea.Cmd, tea.Msg) {
	if !s.edit.editable() || len(edits) == 0 {
		s.notice = "nothing to apply"
		return s, nil, nil
	}
	w := &s.edit
	cur := w.spec()
	for _, e := range edits {
		next, err := cur.Edited(e)
		if err != nil {
			s.notice = "cannot apply " + e.String() + ": " + err.Error()
			return s, nil, nil
		}
		w.push(e, next)
		cur = next
	}
	w.last = editKey{}
	if len(steps) > 0 && s.sess.mode != mode {
		s.sess.switchMode()
	}
	s, cmd, up := s.retarget(what+" · "+scenarios.EditFlags(edits), w.n-len(edits), c)
	if len(steps) > 0 {
		if err := s.sess.load(steps); err == nil {
			s.edit.proposal = false // this witness, not the next one found
			s.edit.announce = ""
			s.notice = fmt.Sprintf("%s · %s · → replays its witness (%d steps in %s mode)", what, scenarios.EditFlags(edits), len(steps), mode.Title())
		}
	}
	return s, cmd, up
}
