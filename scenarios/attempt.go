package scenarios

import (
	"fmt"
	"strings"

	"smpscope/machine"
	"smpscope/scenarios/words"
)

// A scenario whose outcome is forbidden (a Never verdict, the fixed
// variant of a family) has no witness to present, but a teacher still
// wants to show why the fix works: an execution that goes as far toward
// the outcome as the machine allows and shows what stops it. That is the
// closest attempt, chosen by one rule from the exploration's results:
//
//  1. Among the final outcomes the search reached (those the filter
//     keeps), take the ones that have the most parts of the outcome the
//     final clause asks about (Spec.Parts: for exists, its conjuncts; in
//     mp+wmb-rmb, 1:r0=1 but not 1:r1=0). Without any final outcome,
//     take the nearest deadlock.
//  2. Make each one's shortest witness late: every commit, invalidation
//     and quiescent-state report moves as late as it can without
//     changing the outcome, so a CPU that needs one of them waits for it
//     in plain view (smp_rmb waiting for a queued invalidation, smp_mb
//     for its store buffer, synchronize_rcu for a quiescent state).
//  3. Prefer an execution in which some CPU had to wait so (Blocks);
//     then one that has the parts the clause names first (it usually
//     names the premise first, "the reader saw the flag", and then what
//     goes wrong); then the shortest; then the first in the explorer's
//     order.
//
// Why the outcome is unreachable comes from the necessity analysis in the
// same mode: the annotations without which it becomes reachable, or the
// mode's own rules when no annotation is needed.

// Attempt says what makes an execution a closest attempt: how near it
// came and what stood in the way.
type Attempt struct {
	Mode machine.Mode
	// Parts are the parts of the outcome asked about; Held says which of
	// them the execution's end has (all false when it ends in a deadlock).
	Parts []Clause
	Held  []bool
	// Blocks are the points where a CPU had to wait on the way.
	Blocks []Block
	// Because completes "the outcome is unreachable because …"; empty
	// when the analysis could not tell (a limit stopped it: then
	// BecauseStopped).
	Because        string
	BecauseStopped bool
	// States is how many states the search explored.
	States int
}

// Block is a CPU waiting in an execution: in States[At] (after At steps)
// the CPU cannot execute its next instruction: Wait says what it waits
// for, and Reason says it in words (e.g. "smp_rmb waits for 1 queued
// invalidation (x) to be applied").
type Block struct {
	At     int
	CPU    int
	Wait   machine.Wait
	Reason string
}

// WitnessOrAttempt is the execution to show for the outcome spec's final
// clause asks about, in mode: its shortest witness, or, when the search
// was complete and found none, the closest attempt (Execution.Attempt is
// then set). A search stopped at a limit before finding a witness gives
// a *NoWitnessError.
func WitnessOrAttempt(spec *Spec, mode machine.Mode, opts machine.Options) (*Execution, error) {
	m, err := spec.Machine(mode)
	if err != nil {
		return nil, err
	}
	res := machine.Explore(m, opts)
	if steps, ok := spec.ShortestWitness(res); ok {
		return executionOn(spec, m, steps, "Shortest witness of "+spec.Condition())
	}
	if !res.Complete || spec.Final == nil {
		return nil, &NoWitnessError{Spec: spec, Mode: mode, Result: res}
	}
	return closestAttempt(spec, m, res, opts)
}

// maxAttemptCandidates bounds how many outcomes are made late and
// compared; they are all equally close.
const maxAttemptCandidates = 16

func closestAttempt(spec *Spec, m *machine.Machine, res *machine.Result, opts machine.Options) (*Execution, error) {
	parts := spec.Parts
	if len(parts) == 0 {
		parts = []Clause{{Cond: spec.AskedWords(), Holds: spec.Asked}}
	}
	type candidate struct {
		steps []machine.Step
		held  []bool
	}
	var cands []candidate
	most := -1
	for _, o := range res.Outcomes {
		if !spec.Kept(o.Outcome) {
			continue
		}
		held := make([]bool, len(parts))
		n := 0
		for i, p := range parts {
			if held[i] = p.Holds(o.Outcome); held[i] {
				n++
			}
		}
		if n > most {
			most, cands = n, nil
		}
		if n == most && len(cands) < maxAttemptCandidates {
			cands = append(cands, candidate{o.Witness, held})
		}
	}
	if len(cands) == 0 && len(res.Deadlocks) > 0 {
		cands = append(cands, candidate{res.Deadlocks[0].Witness, make([]bool, len(parts))})
	}
	if len(cands) == 0 {
		return nil, &NoWitnessError{Spec: spec, Mode: m.Mode, Result: res}
	}
	var best *Execution
	var bestBlocks []Block
	var bestHeld []bool
	for _, c := range cands {
		ex, err := executionOn(spec, m, lateSteps(m, c.steps), "")
		if err != nil {
			return nil, err
		}
		blocks := ex.blocks()
		better := best == nil
		if !better {
			waits, bestWaits := len(blocks) > 0, len(bestBlocks) > 0
			first := earlierParts(c.held, bestHeld)
			better = waits && !bestWaits ||
				waits == bestWaits && (first < 0 || first == 0 && len(ex.Steps) < len(best.Steps))
		}
		if better {
			best, bestBlocks, bestHeld = ex, blocks, c.held
		}
	}
	best.Origin = fmt.Sprintf("Closest attempt at %s, which is unreachable in %s mode", spec.Condition(), m.Mode.Title())
	because, stopped := unreachableBecause(spec, m.Mode, opts)
	best.Attempt = &Attempt{Mode: m.Mode, Parts: parts, Held: bestHeld, Blocks: bestBlocks, States: res.States,
		Because: because, BecauseStopped: stopped}
	return best, nil
}

// earlierParts compares which parts two outcomes hold, in the order the
// clause names them: -1 when a holds the first part where they differ
// (a clause usually names what the reader sees first, the flag, then
// what goes wrong), +1 when b does, 0 when they hold the same.
func earlierParts(a, b []bool) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// maxLateSteps bounds the executions lateSteps rearranges (each move is
// checked by replaying the rest).
const maxLateSteps = 80

// lateSteps moves every commit, invalidation and quiescent-state report
// of steps after the instructions it can go after while the execution
// still ends where it did (the same outcome, or the same deadlocked
// state). A move can change how a CPU's instructions fall into steps (a
// barrier the machine performed together with the load before it has to
// wait for its own step once an invalidation is still queued), so a
// moved execution is replayed loosely (see looseReplay).
func lateSteps(m *machine.Machine, steps []machine.Step) []machine.Step {
	if len(steps) > maxLateSteps {
		return steps
	}
	final := func(s *machine.State) string {
		if m.Final(s) {
			return "final " + m.Outcome(s).Key()
		}
		return "state " + m.Key(s)
	}
	out, end, ok := looseReplay(m, steps)
	if !ok {
		return steps
	}
	want := final(end)
	// Passes until nothing moves: a deferred step jumps past the run of
	// deferred steps after it and the next instruction step, so it only
	// ever moves past instructions (the others keep their order, and
	// nothing can move back); the budget bounds the replays whatever
	// happens.
	budget := 4 * len(out) * len(out)
	for moved := true; moved && budget > 0; {
		moved = false
		for i := len(out) - 2; i >= 0 && budget > 0; i-- {
			if !deferred(out[i].Kind) {
				continue
			}
			k := i + 1
			for k < len(out) && deferred(out[k].Kind) {
				k++
			}
			if k == len(out) {
				continue
			}
			try := append(append(append(append([]machine.Step(nil), out[:i]...), out[i+1:k+1]...), out[i]), out[k+1:]...)
			budget--
			if got, end, ok := looseReplay(m, try); ok && final(end) == want {
				out, moved = got, true
				i = min(k+1, len(out)-1) // the moved step may go on moving
			}
		}
	}
	return out
}

// looseReplay replays steps as a schedule of which CPU runs when: an
// instruction step of a CPU that has already finished is left out, and
// CPUs that have not finished at the end run on, in order, to a final
// state. It returns the steps taken, the state reached and whether the
// steps (the memory system's among them) replayed.
func looseReplay(m *machine.Machine, steps []machine.Step) ([]machine.Step, *machine.State, bool) {
	s := m.Initial()
	var out []machine.Step
	apply := func(st machine.Step) bool {
		next, _, err := m.Apply(s, st)
		if err != nil {
			return false
		}
		s = next
		out = append(out, st)
		return true
	}
	for _, st := range steps {
		switch {
		case m.IsEnabled(s, st):
			if !apply(st) {
				return nil, nil, false
			}
		case st.Kind == machine.StepExec && m.Finished(s, int(st.CPU)):
		default:
			return nil, nil, false
		}
	}
	for guard := 0; !m.Final(s) && guard < 4*len(steps)+16; guard++ {
		ran := false
		for c := 0; c < s.NumCPUs() && !ran; c++ {
			st := machine.Step{Kind: machine.StepExec, CPU: uint8(c)}
			if !m.Finished(s, c) && m.IsEnabled(s, st) {
				ran = apply(st)
			}
		}
		if !ran {
			break // a deadlock, or stores left in a buffer: the caller compares
		}
	}
	return out, s, true
}

// deferred reports the steps lateSteps makes late: what the memory
// system does (commits, invalidations) and quiescent-state reports, as
// opposed to the CPUs executing instructions.
func deferred(k machine.StepKind) bool {
	return k == machine.StepCommit || k == machine.StepInvalidate || k == machine.StepReportQS
}

// blocks lists where a CPU has to wait along the execution: each time one
// becomes blocked, or its reason changes.
func (e *Execution) blocks() []Block {
	var out []Block
	prev := map[int]string{}
	for i, s := range e.States {
		for c := 0; c < s.NumCPUs(); c++ {
			w := e.Mach.Wait(s, c)
			if !w.Blocked() {
				delete(prev, c)
				continue
			}
			reason := words.Wait(e.Mach.Prog, &w, words.Full)
			if prev[c] != reason {
				out = append(out, Block{At: i, CPU: c, Wait: w, Reason: reason})
			}
			prev[c] = reason
		}
	}
	return out
}

// unreachableBecause says why the outcome spec asks about is unreachable
// in mode, after "the outcome is unreachable because": the annotations
// the necessity analysis finds needed, or the mode's own rules when none
// is; "" when the analysis could not tell, with true when that is
// because a limit stopped one of its searches.
func unreachableBecause(spec *Spec, mode machine.Mode, opts machine.Options) (string, bool) {
	rep, err := Necessity(spec, []machine.Mode{mode}, opts)
	if err != nil || !rep.Open(0) || rep.Unknown() {
		return "", err == nil && rep.Open(0) && rep.Unknown()
	}
	return becauseWords(spec, rep, mode), false
}

// becauseWords is unreachableBecause's sentence for a report that knows.
func becauseWords(spec *Spec, rep NecessityReport, mode machine.Mode) string {
	var needed []string
	for i, a := range rep.Annotations {
		if rep.Need(i, 0) == Needed {
			needed = append(needed, a.Weakening.String())
		}
	}
	in := mode.Title() + " mode reaches it"
	switch {
	case len(needed) == 1:
		return "of " + needed[0] + ": without it, " + in
	case len(needed) == 2:
		return "of " + joinAnd(needed) + ": without either of them, " + in
	case len(needed) > 2:
		return "of " + joinAnd(needed) + ": without any one of them, " + in
	case rep.Together(0) == TogetherNeeded:
		var all []string
		for _, a := range rep.Annotations {
			all = append(all, a.Weakening.String())
		}
		return "of " + joinAnd(all) + " together: any one of them could go, but without all of them " + in
	}
	// No barrier, acquire or release is needed: what is left is what the
	// necessity analysis never weakens, or the mode's own order.
	none := "no barrier, acquire or release is needed for that"
	if len(rep.Annotations) > 0 {
		none += " (with all of them weakened it stays unreachable)"
	}
	if rests := synchronization(spec.Program); len(rests) > 0 {
		return "of " + joinAnd(rests) + ": " + none
	}
	if mode == machine.TSO {
		return "TSO mode keeps these accesses in order: store buffers commit in program order, loads run in order and invalidations apply at once; " + none
	}
	return "of ARM-like mode's own rules, such as coherence (every CPU sees a location's stores in one order) and dependencies: " + none
}

// synchronization names what a program synchronizes with besides its
// barriers, acquires and releases: spin locks, RCU grace periods, atomic
// read-modify-writes.
func synchronization(p *machine.Program) []string {
	var lock, gp, rmw bool
	for _, th := range p.Threads {
		for _, in := range th.Code {
			switch in.Op {
			case machine.OpLock, machine.OpTryLock:
				lock = true
			case machine.OpSyncRCU, machine.OpSyncSRCU:
				gp = true
			case machine.OpRMW:
				rmw = true
			}
		}
	}
	var out []string
	if lock {
		out = append(out, "the spin lock")
	}
	if gp {
		out = append(out, "the RCU grace period")
	}
	if rmw {
		out = append(out, "the atomicity of its read-modify-writes")
	}
	return out
}

// joinAnd joins words as a list: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// Reached says which parts of the outcome the attempt reaches: "It
// reaches 1:r0=1 of the outcome asked for, but not 1:r1=0." ("" with a
// single part, which it never reaches).
func (a *Attempt) Reached() string {
	if len(a.Parts) < 2 {
		return ""
	}
	var yes, no []string
	for i, p := range a.Parts {
		if a.Held[i] {
			yes = append(yes, p.Cond)
		} else {
			no = append(no, p.Cond)
		}
	}
	if len(yes) == 0 {
		return "It reaches none of the outcome asked for (" + joinAnd(no) + ")."
	}
	return "It reaches " + joinAnd(yes) + " of the outcome asked for, but not " + joinAnd(no) + "."
}

// Conclusion is the attempt's last word: "This is as far as it gets: the
// outcome is unreachable because …".
func (a *Attempt) Conclusion() string {
	if a.Because == "" {
		return fmt.Sprintf("This is as far as it gets: the outcome is unreachable in %s mode (every one of its %d states was explored).", a.Mode.Title(), a.States)
	}
	return "This is as far as it gets: the outcome is unreachable because " + a.Because + "."
}

// Sentences are what a report says at the end of a closest attempt, in
// order: what it reached and the conclusion. (Where CPUs waited, the
// steps themselves show.)
func (a *Attempt) Sentences() []string {
	var out []string
	if r := a.Reached(); r != "" {
		out = append(out, r)
	}
	return append(out, a.Conclusion())
}
