package scenarios

import (
	"fmt"
	"math/rand/v2"

	"smpscope/machine"
	"smpscope/scenarios/words"
)

// Execution is one run of a scenario in a mode: the steps taken from the
// initial state, every state along the way and the events that explain
// the steps. Every front-end shows and saves executions made here: the
// shortest witness, a seeded random run, a replayed trace file or a
// history taken by hand; all of them are replayed by machine.Replay.
type Execution struct {
	Spec   *Spec
	Mach   *machine.Machine
	Steps  []machine.Step
	States []*machine.State // len(Steps)+1; States[0] is the initial state
	Events []machine.Event  // Events[i] explains Steps[i]
	// Origin says where the steps come from, in words ("Shortest witness
	// of exists (…)", "Random execution, seed 7", "Replayed from f.trace").
	Origin string
	// Attempt is set when the execution is the closest attempt at an
	// outcome that is unreachable (see WitnessOrAttempt).
	Attempt *Attempt
}

// NewExecution replays steps on spec's program in mode.
func NewExecution(spec *Spec, mode machine.Mode, steps []machine.Step, origin string) (*Execution, error) {
	m, err := spec.Machine(mode)
	if err != nil {
		return nil, err
	}
	return executionOn(spec, m, steps, origin)
}

func executionOn(spec *Spec, m *machine.Machine, steps []machine.Step, origin string) (*Execution, error) {
	states, events, err := m.Replay(steps)
	if err != nil {
		return nil, err
	}
	return &Execution{Spec: spec, Mach: m, Steps: append([]machine.Step(nil), steps...), States: states, Events: events, Origin: origin}, nil
}

// Last returns the state the execution ends in.
func (e *Execution) Last() *machine.State { return e.States[len(e.States)-1] }

// NoWitnessError says that a search found no execution reaching the
// outcome the final clause asks about: it is unreachable (Result
// complete) or the search stopped at a limit first.
type NoWitnessError struct {
	Spec   *Spec
	Mode   machine.Mode
	Result *machine.Result
}

func (e *NoWitnessError) Error() string {
	if !e.Result.Complete {
		return fmt.Sprintf("%s: no witness found in %s mode before the search %s, so whether %s is reachable is unknown", e.Spec.Name, e.Mode.Title(), words.Summary(e.Result), e.Spec.AskedWords())
	}
	return fmt.Sprintf("%s: %s is unreachable in %s mode (explored %d states)", e.Spec.Name, e.Spec.AskedWords(), e.Mode.Title(), e.Result.States)
}

// Unreachable reports whether the search was complete: the outcome is
// then known to be unreachable, not merely not found.
func (e *NoWitnessError) Unreachable() bool { return e.Result.Complete }

// WitnessExecution explores spec in mode and returns the shortest
// witness of the outcome its final clause asks about. Without one it
// returns a *NoWitnessError.
func WitnessExecution(spec *Spec, mode machine.Mode, opts machine.Options) (*Execution, error) {
	m, err := spec.Machine(mode)
	if err != nil {
		return nil, err
	}
	res := machine.Explore(m, opts)
	steps, ok := spec.ShortestWitness(res)
	if !ok {
		return nil, &NoWitnessError{Spec: spec, Mode: mode, Result: res}
	}
	return executionOn(spec, m, steps, "Shortest witness of "+spec.Condition())
}

// RandomExecution takes random enabled steps, drawn from NewRandom(seed),
// from the initial state to a final state (or a deadlock). The UI's g
// after --seed seed draws the same steps.
func RandomExecution(spec *Spec, mode machine.Mode, seed uint64) (*Execution, error) {
	m, err := spec.Machine(mode)
	if err != nil {
		return nil, err
	}
	r := NewRandom(seed)
	return executionOn(spec, m, r.Run(m, m.Initial()), fmt.Sprintf("Random execution, seed %d", seed))
}

// Random is the one stream of seeded random step choices: trace --random,
// record --random and the UI's space and g all draw from it, so a seed
// gives the same execution everywhere. It is a value: a copy continues
// independently from where the original was.
type Random struct{ pcg rand.PCG }

// randomStream tells this stream apart from other uses of PCG.
const randomStream = 0x736d7073636f7065 // "smpscope"

// NewRandom returns the stream for seed.
func NewRandom(seed uint64) Random {
	var r Random
	r.pcg.Seed(seed, randomStream)
	return r
}

// Step draws one of the steps enabled in s; false when none is.
func (r *Random) Step(m *machine.Machine, s *machine.State) (machine.Step, bool) {
	en := m.Enabled(s)
	if len(en) == 0 {
		return machine.Step{}, false
	}
	return en[rand.New(&r.pcg).IntN(len(en))], true
}

// MaxRandomSteps bounds a random run; programs are loop-free, so real
// runs end far sooner.
const MaxRandomSteps = 100000

// Run draws steps from s until the state is final or no step is enabled
// (a deadlock), and returns them.
func (r *Random) Run(m *machine.Machine, s *machine.State) []machine.Step {
	var steps []machine.Step
	for len(steps) < MaxRandomSteps && !m.Final(s) {
		st, ok := r.Step(m, s)
		if !ok {
			break
		}
		next, _, err := m.Apply(s, st)
		if err != nil {
			panic(err) // Enabled returned it
		}
		steps = append(steps, st)
		s = next
	}
	return steps
}

// DefaultMode is the mode every single-mode front-end starts in unless
// told otherwise: the UI, trace and record. ARM-like mode is where the
// library's stories happen (store buffers that commit out of order,
// invalidation queues), and it allows every outcome TSO mode allows, so
// the outcome a scenario is about is reachable in it whenever the machine
// can reach it at all; m switches to TSO to show what x86 forbids.
const DefaultMode = machine.ARM
