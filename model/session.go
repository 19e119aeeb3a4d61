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
	s.steps = append([]machine.Step(nil), steps...)
	s.states = states
	s.events = events
	s.cursor = 0
	s.refresh()
	return nil
}

// switchMode moves to the other mode, replaying the history there when
// every step up to the cursor is valid in it (the future is kept as far
// as it stays valid). It reports whether the history survived.
func (s *session) switchMode() (kept bool, failedAt int) {
	other := machine.ARM
	if s.mode == machine.ARM {
		other = machine.TSO
	}
	states, events, _ := s.machs[other].Replay(s.steps)
	valid := len(states) - 1 // steps replayed successfully
	s.mode = other
	s.loaded = -1
	if valid < s.cursor {
		s.reset()
		return false, valid
	}
	s.steps = append([]machine.Step(nil), s.steps[:valid]...)
	s.states = states
	s.events = events
	s.refresh()
	return true, valid
}

// randomStep takes one random enabled step; it reports false when none is
// enabled.
func (s *session) randomStep() bool {
	st, ok := s.rng.Step(s.mach(), s.state())
	return ok && s.take(st) == nil
}

// run takes random steps until the machine reaches a final state (or no
// step is enabled: a deadlock), drawing them as scenarios.RandomExecution
// does; it returns how many it took.
func (s *session) run() int {
	steps := s.rng.Run(s.mach(), s.state())
	for _, st := range steps {
		if s.take(st) != nil {
			break
		}
	}
	return len(steps)
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
