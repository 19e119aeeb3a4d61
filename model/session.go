package model

import (
	"fmt"

	"smpscope/machine"
	"smpscope/scenarios"
)

// session is one open scenario: the machines for both modes, the recorded
// history and the cursor into it, and the per-pane view state.
//
// Undo and redo move the cursor: states[i] is the state after steps[:i]
// (states[0] is the initial state) and events[i] explains steps[i].
// machine.Apply is pure, so nothing is ever copied; steps ahead of the
// cursor are the redo future, which is also how a witness is replayed.
type session struct {
	spec  *scenarios.Spec
	machs [2]*machine.Machine
	mode  machine.Mode

	states  []*machine.State
	events  []machine.Event
	steps   []machine.Step
	cursor  int
	enabled []machine.Step // enabled in states[cursor]
	loaded  int            // outcome row whose witness was loaded, or -1
	// moved counts the changes of the cursor or the history, so that the
	// screen can follow them (the history's selection follows the cursor).
	moved int

	rng scenarios.Random // the one seeded stream; a value, so copies of the model do not share it

	// before is the history as it was in the other mode when switching
	// mode cut it short (nil otherwise); switching back restores it as
	// long as the history has not changed since (edits counts changes).
	before *modeHistory
	edits  int
}

// modeHistory is a session's history in one mode, kept by switchMode.
type modeHistory struct {
	mode   machine.Mode
	states []*machine.State
	events []machine.Event
	steps  []machine.Step
	cursor int
	loaded int
	edits  int // the session's edits when it was put aside
}

func newSession(sc *scenarios.Spec, mode machine.Mode, seed uint64) (session, error) {
	if sc == nil || sc.Program == nil {
		return session{}, fmt.Errorf("no program to run")
	}
	var s session
	for _, md := range []machine.Mode{machine.TSO, machine.ARM} {
		m, err := machine.New(sc.Program, md)
		if err != nil {
			return session{}, err
		}
		s.machs[md] = m
	}
	s.spec = sc
	s.mode = mode
	s.loaded = -1
	s.rng = scenarios.NewRandom(seed)
	s.reset()
	return s, nil
}

func (s *session) mach() *machine.Machine { return s.machs[s.mode] }
func (s *session) state() *machine.State  { return s.states[s.cursor] }

// reset returns to the initial state and forgets the history.
func (s *session) reset() {
	s.edits++
	s.states = []*machine.State{s.mach().Initial()}
	s.events = nil
	s.steps = nil
	s.cursor = 0
	s.loaded = -1
	s.refresh()
}

// refresh recomputes what depends on the cursor.
func (s *session) refresh() {
	s.enabled = s.mach().Enabled(s.state())
	s.moved++
}

// take applies an enabled step at the cursor. When it is the step the
// history already holds next, the cursor just moves forward (the future
// is kept); otherwise the future is replaced.
func (s *session) take(st machine.Step) error {
	if s.cursor < len(s.steps) && s.steps[s.cursor] == st {
		s.cursor++
		s.refresh()
		return nil
	}
	next, ev, err := s.mach().Apply(s.state(), st)
	if err != nil {
		return err
	}
	s.edits++
	if s.cursor < len(s.steps) {
		// Diverging from the recorded future: drop it (copying, so that
		// no earlier model value sees its arrays change).
		s.steps = append([]machine.Step(nil), s.steps[:s.cursor]...)
		s.events = append([]machine.Event(nil), s.events[:s.cursor]...)
		s.states = append([]*machine.State(nil), s.states[:s.cursor+1]...)
		s.loaded = -1
	}
	s.steps = append(s.steps, st)
	s.events = append(s.events, ev)
	s.states = append(s.states, next)
	s.cursor++
	s.refresh()
	return nil
}

// back and forward move the cursor (undo, redo).
func (s *session) back() bool {
	if s.cursor == 0 {
		return false
	}
	s.cursor--
	s.refresh()
	return true
}

func (s *session) forward() bool {
	if s.cursor >= len(s.steps) {
		return false
	}
	s.cursor++
	s.refresh()
	return true
}

// travel moves the cursor to history entry i.
func (s *session) travel(i int) {
	s.cursor = clampInt(i, 0, len(s.steps))
	s.refresh()
}

// load replaces the history with steps, which become the redo future from
// the initial state.
func (s *session) load(steps []machine.Step) error {
	states, events, err := s.mach().Replay(steps)
	if err != nil {
		return err
	}
	s.edits++
	s.steps = append([]machine.Step(nil), steps...)
	s.states = states
	s.events = events
	s.cursor = 0
	s.refresh()
	return nil
}

// modeSwitch says what switchMode did.
type modeSwitch struct {
	from, to machine.Mode
	restored bool // the history the other mode had before was brought back
	steps    int  // steps of the history before the switch
	kept     int  // of them, the longest prefix valid in the new mode
	cursor   int  // the step shown before the switch
}

// switchMode moves to the other mode. The history keeps its longest
// prefix that is valid there, and the cursor stays where it was unless
// that cut it (it then shows the last step kept). When the cut lost
// steps, the history as it was is put aside: switching straight back
// (with no step taken, loaded or reset in between) restores it, cursor
// and all.
func (s *session) switchMode() modeSwitch {
	other := machine.ARM
	if s.mode == machine.ARM {
		other = machine.TSO
	}
	sw := modeSwitch{from: s.mode, to: other, steps: len(s.steps), cursor: s.cursor}
	if b := s.before; b != nil && b.mode == other && b.edits == s.edits {
		s.before = nil
		s.mode = other
		s.states, s.events, s.steps, s.cursor, s.loaded = b.states, b.events, b.steps, b.cursor, b.loaded
		s.refresh()
		sw.restored, sw.kept, sw.steps = true, len(s.steps), len(s.steps)
		return sw
	}
	states, events, _ := s.machs[other].Replay(s.steps)
	sw.kept = len(states) - 1 // steps replayed successfully
	s.before = nil
	if sw.kept < len(s.steps) {
		s.before = &modeHistory{mode: s.mode, states: s.states, events: s.events, steps: s.steps, cursor: s.cursor, loaded: s.loaded, edits: s.edits}
	}
	s.mode = other
	s.loaded = -1
	s.steps = append([]machine.Step(nil), s.steps[:sw.kept]...)
	s.states = states
	s.events = events
	s.cursor = min(s.cursor, sw.kept)
	s.refresh()
	return sw
}

// notice says what a mode switch did to the history, in a line.
func (sw modeSwitch) notice() string {
	to := sw.to.Title() + " mode: "
	switch {
	case sw.restored:
		return fmt.Sprintf("%sits whole history is back (%d %s)", to, sw.steps, plural(sw.steps, "step"))
	case sw.steps == 0:
		return to + "the initial state"
	case sw.kept == sw.steps:
		return fmt.Sprintf("%shistory replayed (%d %s)", to, sw.steps, plural(sw.steps, "step"))
	case sw.kept >= sw.cursor:
		return fmt.Sprintf("%shistory replayed (%d %s); steps ahead from %d are not possible here (m restores)", to, sw.cursor, plural(sw.cursor, "step"), sw.kept+1)
	}
	return fmt.Sprintf("%skept %d of %d steps; m again restores them", to, sw.kept, sw.cursor)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// randomStep takes one random enabled step; it reports false when none is
// enabled.
func (s *session) randomStep() bool {
	st, ok := s.rng.Step(s.mach(), s.state())
	return ok && s.take(st) == nil
}

// run goes to the end: first to the end of the steps ahead of the
// cursor (a loaded witness or trace, or steps undone), which a user who
// loaded a witness means to see, then by random steps until the machine
// reaches a final state (or no step is enabled: a deadlock), drawn as
// scenarios.RandomExecution draws them; it returns how many steps it
// replayed and how many random ones it took.
func (s *session) run() (replayed, random int) {
	if ahead := len(s.steps) - s.cursor; ahead > 0 {
		s.travel(len(s.steps))
		replayed = ahead
	}
	steps := s.rng.Run(s.mach(), s.state())
	for _, st := range steps {
		if s.take(st) != nil {
			break
		}
	}
	return replayed, len(steps)
}

func clampInt(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}

// retarget moves the session to another program of the same scenario (a
// what-if edit, its undo or redo): the history follows (a step naming an
// instruction names it where it moved, scenarios.RemapSteps) and replays
// as far as the new program allows, steps ahead included; the cursor
// stays, or ends where the replay stopped. It returns how many steps
// replayed.
func (s *session) retarget(sp *scenarios.Spec) int {
	var machs [2]*machine.Machine
	for _, md := range []machine.Mode{machine.TSO, machine.ARM} {
		m, err := machine.New(sp.Program, md)
		if err != nil {
			return len(s.steps) // not expected: the spec compiled and validated
		}
		machs[md] = m
	}
	steps := scenarios.RemapSteps(s.spec.Program, sp.Program, s.steps)
	states, events, _ := machs[s.mode].Replay(steps)
	valid := len(states) - 1
	s.spec, s.machs = sp, machs
	s.steps = append([]machine.Step(nil), steps[:valid]...)
	s.states, s.events = states, events
	s.cursor = min(s.cursor, valid)
	s.loaded = -1
	s.refresh()
	return valid
}

// restore puts back a history of the current program (one an edit cut
// and its undo brought back), with its cursor.
func (s *session) restore(steps []machine.Step, cursor int) error {
	states, events, err := s.mach().Replay(steps)
	if err != nil {
		return err
	}
	s.steps = append([]machine.Step(nil), steps...)
	s.states, s.events = states, events
	s.cursor = clampInt(cursor, 0, len(steps))
	s.loaded = -1
	s.refresh()
	return nil
}
