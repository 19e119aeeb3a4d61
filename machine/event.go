package machine

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// LoadSource is where a load's value came from.
type LoadSource uint8

// Load sources.
const (
	FromStoreBuffer LoadSource = iota // the CPU's own store buffer
	FromCache                         // the CPU's cache line (a hit)
	FromMiss                          // a miss: the latest committed value was fetched
)

func (s LoadSource) String() string {
	return [...]string{"store buffer", "cache", "miss"}[s]
}

// ReadClass is the classification of a load that the UI shows.
type ReadClass uint8

// Read classifications (machine.md, "Reads a person should notice").
const (
	Forwarded    ReadClass = iota // from the CPU's own store buffer; no other CPU can see it yet
	UpToDate                      // equals the latest committed value
	Stale                         // an older value from a line whose invalidation is still queued
	NewerPending                  // up to date, but another CPU's store buffer holds a newer store
)

func (r ReadClass) String() string {
	return [...]string{"forwarded", "up to date", "stale", "newer value pending"}[r]
}

// LoadEvent describes the load a step performed.
type LoadEvent struct {
	Loc    Loc
	Val    Value
	Source LoadSource
	Class  ReadClass
	// Co is the position of the value read in the location's coherence
	// order (0 is the initial value), or -1 for a forwarded value that is
	// not yet committed.
	Co int
	// For Stale: the newest committed value and the CPU and step that
	// committed it. For NewerPending: the CPU whose store buffer holds the
	// newer value, and the value.
	NewerVal  Value
	NewerCPU  int
	NewerStep int
	// OwnBuffered lists the CPU's own earlier stores to other locations
	// that were still in its store buffer when this load read the memory
	// system (not set for a forwarded load): to other CPUs the load
	// happens before them. This is the store->load reordering of SB.
	OwnBuffered []SBEntry
	// ArrivedAfterBarrier is set for a stale read whose invalidation
	// arrived after a barrier of the same CPU had passed (ARM-like).
	ArrivedAfterBarrier *LateInvalidation
}

// LateInvalidation says why a barrier did not prevent a stale read: the
// barrier passed with an empty invalidation queue, and the invalidation of
// the line read arrived only afterwards.
type LateInvalidation struct {
	// Barrier is the CPU's latest barrier before the load that waited
	// for an empty invalidation queue (an index into its code).
	Barrier int
	// Arrived is the step at which the invalidation arrived. The step at
	// which the barrier ran is not in the state; InstrStep finds it in a
	// history.
	Arrived int
}

// CommitEvent describes a store that became visible.
type CommitEvent struct {
	Loc       Loc
	Val       Value
	WroteBack int   // CPU whose modified line was written back first, or -1
	Dropped   []int // CPUs whose copies dropped to I at once
	Queued    []int // CPUs that got an invalidation queued (ARM-like)
}

// Event records what one step did.
type Event struct {
	Step    Step
	Instr   int  // the instruction performed or whose store committed; -1 if none
	Early   bool // the instruction was issued early
	Failed  bool // a cmpxchg or trylock that failed
	GPStart bool // synchronize_rcu started a grace period
	GPEnd   bool // synchronize_rcu saw its grace period end
	Fault   bool // the instruction faulted and ended the execution
	Load    *LoadEvent
	Commit  *CommitEvent
	// WroteBack is the CPU whose modified line a load miss wrote back, or
	// -1.
	WroteBack int
	// Applied lists the queued invalidations this step applied (its own
	// invalidation step, an acquire's marked entries, an address
	// dependency, or a commit taking the line).
	Applied []Loc
	// Folded lists the instructions that touch nothing shared and were
	// performed as part of this step.
	Folded []int
	// Folds says what each folded instruction did, in the order of Folded.
	Folds []InstrFact
	// Fence says what the step's own instruction did when it is a fence
	// (or barrier()): whether it passed, had no effect or placed a
	// marker.
	Fence *InstrFact
	// Behind lists, for a store put in the store buffer (ARM-like), the
	// entries it may not commit before: all earlier entries for a release
	// store, else those ahead of a wmb marker.
	Behind []SBEntry
	// Marked lists the invalidations queued at the CPU that a release
	// write of this step marked: a later acquire of the CPU applies them
	// before it reads (ARM-like).
	Marked []Loc
	// AcqWait lists the invalidations still queued after an acquire of
	// this step: the CPU may not execute its next instruction until they
	// are applied (ARM-like).
	AcqWait []Loc
	// Freed lists, for a commit, the stores that were held behind a wmb
	// marker this commit removed and may commit now.
	Freed []SBEntry
	// Skipped lists, for an early issue, the unexecuted loads the
	// instruction overtook.
	Skipped []int
	// Text explains the step for people: one statement per fact, each
	// fact stated once, in plain sentences.
	Text string
	// explain asks exec to record Folds. Only describeEvent sets it: the
	// explorer folds with an Event too, and must not pay for sentences.
	explain bool
}

// FactKind is the kind of an instruction described by an InstrFact.
type FactKind uint8

// Instruction facts.
const (
	FactAssign     FactKind = iota // register arithmetic; Val is the value written
	FactBranch                     // an if; Taken says which way it went
	FactElse                       // the jump over an else branch: the if was taken
	FactRCULock                    // rcu_read_lock
	FactRCUUnlock                  // rcu_read_unlock
	FactSRCULock                   // srcu_read_lock or srcu_down_read; Val is the index
	FactSRCUUnlock                 // srcu_read_unlock or srcu_up_read
	FactNoEffect                   // a fence with no effect in this mode, or barrier()
	FactPassed                     // a fence whose condition holds: it passes
	FactWmb                        // smp_wmb; Stores lists the stores ahead of its marker
	FactFault                      // the instruction cannot be performed: the execution ends
)

// InstrFact says what one instruction that touches nothing shared, or a
// fence, did.
type InstrFact struct {
	Instr int
	Kind  FactKind
	Taken bool  // FactBranch: the if was taken
	Val   Value // FactAssign: the value written; FactSRCULock: the index
	// Stores lists, for FactWmb, the stores in the store buffer ahead of
	// the marker: no later store of the CPU may commit before them. Empty
	// when every earlier store had committed (the marker orders nothing).
	Stores []SBEntry
	// Text is the sentence, starting with the instruction; empty for
	// compiler-internal moves (temporaries, the jumps of ?: and &&).
	Text string
	// what is Text without the instruction in front, for when the
	// instruction's source statement was already named in the step.
	what string
}

// InstrStep returns the 1-based step of events that performed instruction
// instr of CPU cpu (as its own instruction or folded), or 0. With
// LateInvalidation.Barrier it gives the step at which the barrier ran.
func InstrStep(events []Event, cpu, instr int) int {
	for i, ev := range events {
		if int(ev.Step.CPU) != cpu || (ev.Step.Kind != StepExec && ev.Step.Kind != StepEarly) {
			continue
		}
		if ev.Instr == instr || slices.Contains(ev.Folded, instr) {
			return i + 1
		}
	}
	return 0
}

func (m *Machine) cpuName(c int) string { return m.Prog.Threads[c].Name }

// instrText is instruction i of CPU c as written, without the final
// semicolon, for use inside sentences.
func (m *Machine) instrText(c, i int) string {
	code := m.code(c)
	if i < 0 || i >= len(code) {
		return "?"
	}
	if t := strings.TrimSuffix(strings.TrimSpace(code[i].Text), ";"); t != "" {
		return t
	}
	return fmt.Sprintf("instruction %d", i)
}

// Describe returns a one-line description of an enabled step, for the list
// of steps a person chooses from.
func (m *Machine) Describe(s *State, st Step) string {
	c := int(st.CPU)
	cpu := m.cpuName(c)
	switch st.Kind {
	case StepExec:
		pc := s.PC(c)
		in := &m.code(c)[pc]
		if in.Op == OpSyncRCU {
			if s.cpus[c].syncWait {
				return fmt.Sprintf("%s: finish %s (grace period over)", cpu, m.instrText(c, pc))
			}
			return fmt.Sprintf("%s: start %s (begin a grace period)", cpu, m.instrText(c, pc))
		}
		return fmt.Sprintf("%s: execute %s", cpu, m.instrText(c, pc))
	case StepEarly:
		return fmt.Sprintf("%s: issue %s early, before the loads ahead of it", cpu, m.instrText(c, int(st.Arg)))
	case StepCommit:
		for _, e := range s.cpus[c].sb {
			if e.Instr == st.Arg && e.Kind != EntryWmb {
				kind := ""
				switch e.Kind {
				case EntryRelease:
					kind = "release "
				case EntryExclusive:
					kind = "exclusive "
				}
				return fmt.Sprintf("%s: commit %sstore %s=%s from its store buffer", cpu, kind, m.Prog.LocName(e.Loc), m.Prog.FormatValue(e.Val))
			}
		}
	case StepInvalidate:
		l := Loc(st.Arg)
		return fmt.Sprintf("%s: apply the queued invalidation of %s (drop its stale copy %s=%s)", cpu, m.Prog.LocName(l), m.Prog.LocName(l), m.Prog.FormatValue(s.cpus[c].cache[l].Val))
	case StepReportQS:
		return fmt.Sprintf("%s: report a quiescent state to the grace period", cpu)
	}
	return m.ID(st)
}

// CPUStatus is what a CPU is doing, for display.
type CPUStatus struct {
	Finished bool
	Blocked  bool
	Reason   string // why it is blocked, in words, naming what it waits for
	// Brief is Reason without the entries and invalidations named, for
	// panes too narrow for Reason.
	Brief string
}

// Status returns CPU c's status in s.
func (m *Machine) Status(s *State, c int) CPUStatus {
	w := m.Wait(s, c)
	switch {
	case w.Kind == WaitFinished:
		return CPUStatus{Finished: true, Reason: "finished", Brief: "finished"}
	case w.Blocked():
		return CPUStatus{Blocked: true, Reason: m.WaitText(s, &w, false), Brief: m.WaitText(s, &w, true)}
	}
	return CPUStatus{}
}

// describeEvent explains a step that led from before. It also fills the
// event's derived facts (Behind, Marked, AcqWait, the load's OwnBuffered and
// ArrivedAfterBarrier, ...), which only people and views need.
//
// after is the state the step led to, and ev must have been recorded with
// explain set (so that it holds what each folded instruction did).
func (m *Machine) describeEvent(before, after *State, ev *Event) string {
	var out []string
	switch ev.Step.Kind {
	case StepExec, StepEarly:
		out = m.describeExec(before, after, ev)
	case StepCommit:
		out = m.describeCommitStep(before, after, ev)
	case StepInvalidate:
		out = m.describeInvalidate(before, ev)
	case StepReportQS:
		out = m.describeReport(before, after, ev)
	}
	return strings.Join(out, " ")
}

func (m *Machine) describeExec(before, after *State, ev *Event) []string {
	c := int(ev.Step.CPU)
	if ev.Instr < 0 {
		return nil
	}
	cpu := m.cpuName(c)
	in := &m.code(c)[ev.Instr]
	text := m.instrText(c, ev.Instr)
	if !ev.Fault && !before.cpus[c].fault && after.cpus[c].fault && int(after.cpus[c].pc) == ev.Instr {
		ev.Fault = true // an unmatched srcu_read_unlock: exec stops without saying so
	}
	if ev.Fault {
		return []string{fmt.Sprintf("%s cannot perform %s, and the execution ends here: %s.", cpu, text, m.faultText(before, c))}
	}
	lead := fmt.Sprintf("%s executes %s", cpu, text)
	if ev.Step.Kind == StepEarly {
		ev.Skipped = m.skippedLoads(before, c, ev.Instr)
		lead = fmt.Sprintf("%s issues %s early", cpu, text)
		if len(ev.Skipped) > 0 {
			var names []string
			for _, i := range ev.Skipped {
				names = append(names, m.instrText(c, i))
			}
			lead += ", ahead of " + joinAnd(names) + ", which it does not depend on"
		}
	}
	var out []string
	switch in.Op {
	case OpFence, OpAssign, OpBranch, OpJump, OpRCULock, OpRCUUnlock, OpSRCULock, OpSRCUUnlock:
		f := m.instrFact(before, c, ev.Instr, lead)
		if in.Op == OpFence {
			ev.Fence = &f
		}
		if f.Text == "" {
			f.Text = lead + "."
		}
		out = append(out, f.Text)
	case OpLoad:
		out = append(out, lead+".")
		if in.Access == Acquire && m.Mode == TSO {
			out = append(out, "In TSO mode an acquire is an ordinary load: no load is reordered with later loads or stores.")
		}
		out = append(out, m.appliedText(before, c, in, ev.Applied, true)...)
		out = append(out, m.loadText(before, c, ev)...)
	case OpStore, OpUnlock:
		out = append(out, lead+".")
		out = append(out, m.storeText(before, after, c, ev)...)
	case OpSyncRCU, OpSyncSRCU:
		out = append(out, m.syncText(before, after, c, in, ev)...)
	case OpLock, OpTryLock:
		out = append(out, lead+".")
		out = append(out, m.lockText(before, after, c, in, ev)...)
	case OpRMW:
		out = append(out, lead+".")
		out = append(out, m.rmwText(before, after, c, in, ev)...)
	}
	if acs := &after.cpus[c]; m.Mode == ARM && acs.acqWait && len(acs.iq) > 0 {
		for _, e := range acs.iq {
			ev.AcqWait = append(ev.AcqWait, e.Loc)
		}
		out = append(out, fmt.Sprintf("Its invalidation queue still holds %s: as after every acquire, %s may not execute its next instruction until it has applied %s.", m.locList(ev.AcqWait), cpu, pronoun(len(ev.AcqWait))))
	}
	// Folded instructions: a compiler-internal part of a statement already
	// named says only what it did, without naming the statement again.
	named := &m.code(c)[ev.Instr] // the last instruction a sentence named
	for _, f := range ev.Folds {
		fin := &m.code(c)[f.Instr]
		switch {
		case f.Text == "":
		case fin.Text == named.Text && fin.Line == named.Line && f.what != "":
			out = append(out, f.what+".")
		default:
			out = append(out, f.Text)
			named = fin
		}
	}
	return out
}

// foldFact describes instruction pc of CPU c, about to be folded into a
// step in state s.
func (m *Machine) foldFact(s *State, c, pc int) InstrFact { return m.instrFact(s, c, pc, "") }

// instrFact describes instruction pc of CPU c performed in state s (before
// it runs). lead is the start of the sentence for a step's own
// instruction; empty for a folded one, which starts with the instruction.
func (m *Machine) instrFact(s *State, c, pc int, lead string) InstrFact {
	folded := lead == ""
	text := m.instrText(c, pc)
	subj := "it"
	if folded {
		lead, subj = text, m.cpuName(c)
	}
	cs := &s.cpus[c]
	in := &m.code(c)[pc]
	p := m.Prog
	f := InstrFact{Instr: pc}
	var what string // follows lead
	switch in.Op {
	case OpAssign:
		f.Kind = FactAssign
		f.Val = in.Val.Eval(cs.regs)
		if in.HasDst && !m.internalReg(c, in.Dst) {
			what = fmt.Sprintf(": %s is now %s", m.Prog.Threads[c].Regs[in.Dst], p.FormatValue(f.Val))
		}
	case OpBranch:
		f.Kind = FactBranch
		f.Taken = in.Cond.Eval(cs.regs) != 0
		if strings.HasPrefix(text, "if") {
			what = ": " + m.branchWhat(c, in, text, cs.regs, f.Taken)
		}
	case OpJump:
		f.Kind = FactElse
		if text == "else" {
			what = ": skipped, because the if was taken"
		}
	case OpRCULock:
		f.Kind = FactRCULock
		what = fmt.Sprintf(": %s enters an RCU read-side critical section", subj)
		if cs.rcuDepth > 0 {
			what = fmt.Sprintf(": %s enters a nested RCU read-side critical section (depth %d)", subj, cs.rcuDepth+1)
		}
	case OpRCUUnlock:
		f.Kind = FactRCUUnlock
		switch cs.rcuDepth {
		case 0:
			what = fmt.Sprintf(": it has no effect, as %s is in no RCU read-side critical section", m.cpuName(c))
		case 1:
			what = fmt.Sprintf(": %s leaves its RCU read-side critical section", subj)
		default:
			what = fmt.Sprintf(": %s leaves a nested RCU read-side critical section (depth now %d)", subj, cs.rcuDepth-1)
		}
	case OpSRCULock:
		f.Kind = FactSRCULock
		d, _ := in.Addr.Val.AsLoc()
		f.Val = s.Latest(d).Visible() // the index srcuLock returns
		what = fmt.Sprintf(": %s enters an SRCU read-side section of %s", subj, p.LocName(d))
		if in.Cross {
			what = fmt.Sprintf(": %s opens an SRCU read-side section of %s, which any CPU may close", subj, p.LocName(d))
		}
		if in.HasDst {
			what += fmt.Sprintf("; the index is %s", p.FormatValue(f.Val))
		}
	case OpSRCUUnlock:
		d, _ := in.Addr.Val.AsLoc()
		// The same test as srcuUnlock, which faults when it fails.
		k, _, ok := in.Val.Eval(cs.regs).asSRCU()
		if !ok || s.srcuOpen&(1<<k) == 0 || m.srcuSecs[k].domain != d || (!in.Cross && m.srcuSecs[k].cpu != c) {
			f.Kind = FactFault
			what = " cannot be performed, and the execution ends here: " + m.faultText(s, c)
			break
		}
		f.Kind = FactSRCUUnlock
		what = fmt.Sprintf(": %s leaves its SRCU read-side section of %s", subj, p.LocName(d))
		if o := m.srcuSecs[k].cpu; o != c {
			what = fmt.Sprintf(": %s closes the SRCU read-side section of %s that %s opened", subj, p.LocName(d), m.cpuName(o))
		}
	case OpFence:
		what = m.fenceWhat(cs, c, in, &f, folded)
	}
	if what == "" {
		return f // a compiler-internal move: nothing a person wrote
	}
	f.what = strings.TrimPrefix(strings.TrimPrefix(what, ": "), " ")
	f.Text = lead + what + "."
	return f
}

// internalReg reports whether register r of CPU c is a compiler temporary
// (named with a leading underscore), which people never wrote.
func (m *Machine) internalReg(c int, r Reg) bool {
	return strings.HasPrefix(m.Prog.Threads[c].Regs[r], "_")
}

// branchWhat says which way an if went and why: the values of the
// registers people wrote that its condition reads.
func (m *Machine) branchWhat(c int, in *Instr, text string, regs []Value, taken bool) string {
	var vals []string
	for r, name := range m.Prog.Threads[c].Regs {
		if in.Cond.Regs()&(1<<uint(r)) != 0 && !strings.HasPrefix(name, "_") {
			vals = append(vals, fmt.Sprintf("%s = %s", name, m.Prog.FormatValue(regs[r])))
		}
	}
	why := "the condition is false"
	if taken {
		why = "the condition is true"
	}
	so := ", so"
	if len(vals) > 0 {
		why = joinAnd(vals)
		// Name the condition's truth when it is more than a register.
		if cond := ifCondition(text); in.Cond.Op != EReg && cond != "" {
			so = fmt.Sprintf(", so %s is %v and", cond, taken)
		}
	}
	if taken {
		return why + so + " the if is taken"
	}
	code := m.code(c)
	if j := in.Target - 1; j >= 0 && j < len(code) && code[j].Op == OpJump && code[j].Text == "else" {
		return why + so + " the if is not taken; the else branch runs"
	}
	return why + so + " the if is not taken"
}

// ifCondition returns the condition of "if (cond)", or "".
func ifCondition(text string) string {
	if strings.HasPrefix(text, "if (") && strings.HasSuffix(text, ")") {
		return text[len("if (") : len(text)-1]
	}
	return ""
}

// fenceWhat says what a fence does now, for instrFact.
func (m *Machine) fenceWhat(cs *cpuState, c int, in *Instr, f *InstrFact, folded bool) string {
	cpu := m.cpuName(c)
	already, atOnce := "", ""
	if folded {
		already, atOnce = "already ", " at once"
	}
	switch m.fenceKind(in.Fence) {
	case fenceNone:
		f.Kind = FactNoEffect
		verb := " has no effect"
		if !folded {
			verb = ", which has no effect"
		}
		if in.Fence == FenceBarrier {
			return verb + " on the hardware: it only stops the compiler from moving accesses across it"
		}
		if m.Mode == ARM {
			// Only smp_mb__after_unlock_lock is a no-op in ARM-like mode.
			return verb + ": an unlock followed by a lock is already ordered (a release, then an acquire)"
		}
		return verb + " in TSO mode: " + tsoNoEffect[in.Fence]
	case fenceWrite:
		f.Kind = FactWmb
		for _, e := range cs.sb {
			if isStore(e) {
				f.Stores = append(f.Stores, e)
			}
		}
		if len(f.Stores) == 0 {
			return fmt.Sprintf(": every earlier store of %s has committed, so it orders nothing yet", cpu)
		}
		them := m.sbList(f.Stores)
		if len(f.Stores) > 1 {
			them = "them"
		}
		return fmt.Sprintf(": wmb marker placed after %s, so no later store of %s can commit before %s", m.sbList(f.Stores), cpu, them)
	case fenceRead:
		f.Kind = FactPassed
		return fmt.Sprintf(": its invalidation queue is %sempty, so it passes%s: later reads cannot be satisfied from copies that were stale when it ran", already, atOnce)
	case fenceFull:
		f.Kind = FactPassed
		if m.Mode == TSO {
			return fmt.Sprintf(": its store buffer is %sempty, so it passes%s: every earlier store has committed before any later load", already, atOnce)
		}
		return fmt.Sprintf(": its store buffer and invalidation queue are %sempty, so it passes%s: every earlier store has committed, and later reads cannot be satisfied from copies that were stale when it ran", already, atOnce)
	}
	return ""
}

// tsoNoEffect says why a fence does nothing on x86-TSO.
var tsoNoEffect = map[Fence]string{
	FenceRmb:               "loads are never reordered with other loads",
	FenceWmb:               "stores already commit in program order",
	FenceMbBeforeAtomic:    "every atomic RMW is already a full barrier",
	FenceMbAfterAtomic:     "every atomic RMW is already a full barrier",
	FenceMbAfterSpinlock:   "spin_lock is already a full barrier",
	FenceMbAfterUnlockLock: "an unlock followed by a lock is already ordered",
}

// skippedLoads lists the unexecuted loads that instruction k of CPU c
// overtakes when issued early from s, following the branches that
// earlyCandidates resolves.
func (m *Machine) skippedLoads(s *State, c, k int) []int {
	cs := &s.cpus[c]
	code := m.code(c)
	regs := append([]Value(nil), cs.regs...)
	var out []int
	for i := int(cs.pc); i < k && i < len(code); {
		in := &code[i]
		switch {
		case cs.early&(1<<uint(i)) != 0:
			i++
		case in.Op == OpJump:
			i = in.Target
		case in.Op == OpBranch:
			// earlyCandidates never passes a branch on a skipped load,
			// so its condition is known here.
			if in.Cond.Eval(regs) == 0 {
				i = in.Target
			} else {
				i++
			}
		case in.Op == OpAssign:
			regs[in.Dst] = in.Val.Eval(regs)
			i++
		case in.Op == OpLoad:
			out = append(out, i)
			i++
		default:
			i++
		}
	}
	return out
}

// appliedText explains the queued invalidations a step applied before its
// instruction read or wrote, by cause. viaLoad: the instruction read like a
// load (a load, a failed RMW or trylock in ARM-like mode), whose address
// dependency and acquire rules apply.
func (m *Machine) appliedText(before *State, c int, in *Instr, applied []Loc, viaLoad bool) []string {
	if len(applied) == 0 {
		return nil
	}
	acquire := in.Op == OpLoad && in.Access == Acquire || in.Op == OpRMW && in.Order == OrderAcquire
	var dep, marked, own []Loc
	for _, l := range applied {
		i := before.iqIndex(c, l)
		switch {
		case i < 0:
			own = append(own, l)
		case viaLoad && acquire && before.cpus[c].iq[i].Marked:
			marked = append(marked, l)
		case viaLoad && before.cpus[c].iq[i].Before&in.Addr.Regs() != 0:
			dep = append(dep, l)
		default:
			own = append(own, l)
		}
	}
	var out []string
	if len(marked) > 0 {
		out = append(out, fmt.Sprintf("As an acquire, it first applies the %s marked by its release (%s): it must not return a value already overwritten when its release became visible.", plural(len(marked), "invalidation", "invalidations"), m.locList(marked)))
	}
	if len(dep) > 0 {
		out = append(out, fmt.Sprintf("Its address comes from an earlier load, so it first applies the queued %s of %s, which arrived before that load.", pluralWord(len(dep), "invalidation", "invalidations"), m.locList(dep)))
	}
	if len(own) > 0 {
		out = append(out, fmt.Sprintf("It first applies its queued invalidation of %s: it works on the latest value, never on a stale copy.", m.locList(own)))
	}
	return out
}

// loadText explains the load of an exec step, and records the facts that
// say why it returned what it did.
func (m *Machine) loadText(before *State, c int, ev *Event) []string {
	ld := ev.Load
	if ld == nil {
		return nil
	}
	p := m.Prog
	name, val := p.LocName(ld.Loc), p.FormatValue(ld.Val)
	var out []string
	switch ld.Class {
	case Forwarded:
		out = append(out, fmt.Sprintf("It reads %s=%s forwarded from its own store buffer: no other CPU can see that value yet.", name, val))
	case Stale:
		who := "the initial value"
		if ld.NewerCPU >= 0 {
			who = fmt.Sprintf("%s at step %d", m.cpuName(ld.NewerCPU), ld.NewerStep)
		}
		out = append(out, fmt.Sprintf("It reads %s=%s from its cache: STALE. %s=%s was committed by %s; its invalidation is still queued at %s, so the old copy is still readable.", name, val, name, p.FormatValue(ld.NewerVal), who, m.cpuName(c)))
	case NewerPending:
		out = append(out, fmt.Sprintf("It reads %s=%s %s: up to date, but a newer value is pending: %s=%s sits in %s's store buffer, not yet visible.", name, val, sourceText(ld.Source), name, p.FormatValue(ld.NewerVal), m.cpuName(ld.NewerCPU)))
	default:
		out = append(out, fmt.Sprintf("It reads %s=%s %s: up to date.", name, val, sourceText(ld.Source)))
	}
	if ev.WroteBack >= 0 {
		out = append(out, fmt.Sprintf("%s held the line modified: it writes it back first and keeps a shared copy.", m.cpuName(ev.WroteBack)))
	}
	if ld.Class != Forwarded {
		for _, e := range before.cpus[c].sb {
			// Only stores before the load in program order: an issued-
			// early store after it is no store->load reordering.
			if isStore(e) && e.Loc != ld.Loc && int(e.Instr) < ev.Instr {
				ld.OwnBuffered = append(ld.OwnBuffered, e)
			}
		}
		if n := len(ld.OwnBuffered); n > 0 {
			store, that, is := "store", "that store", "is"
			if n > 1 {
				store, that, is = "stores", "those stores", "are"
			}
			out = append(out, fmt.Sprintf("This read happens while its own earlier %s %s %s still in its store buffer, so to other CPUs it comes before %s (store→load reordering).", store, m.sbList(ld.OwnBuffered), is, that))
		}
	}
	if ld.Class == Stale && m.Mode == ARM {
		if i, b := before.iqIndex(c, ld.Loc), m.lastQueueBarrier(before, c, ev.Instr); i >= 0 && b >= 0 {
			ld.ArrivedAfterBarrier = &LateInvalidation{Barrier: b, Arrived: int(before.cpus[c].iq[i].Arrived)}
			out = append(out, fmt.Sprintf("The invalidation of %s arrived at step %d, after %s's %s had passed: a barrier waits only for invalidations already queued, so it could not prevent this stale read.", name, ld.ArrivedAfterBarrier.Arrived, m.cpuName(c), m.instrText(c, b)))
		}
	}
	return out
}

func sourceText(s LoadSource) string {
	if s == FromMiss {
		return "on a cache miss"
	}
	return "from its cache"
}

// lastQueueBarrier returns CPU c's latest instruction before instr, already
// performed, after which its invalidation queue had to be empty before any
// later load ran (ARM-like): a full or read fence, a grace period, an
// acquire, a lock, a fully ordered RMW. Every invalidation queued when a
// later load runs therefore arrived after it. It returns -1 if there is
// none. (Whether a conditional RMW failed, and so was no barrier, is not in
// the state: those are left out.)
func (m *Machine) lastQueueBarrier(s *State, c, instr int) int {
	cs := &s.cpus[c]
	code := m.code(c)
	for i := min(instr, len(code)) - 1; i >= 0; i-- {
		if cs.executed&(1<<uint(i)) == 0 {
			continue
		}
		in := &code[i]
		switch in.Op {
		case OpFence:
			if k := m.fenceKind(in.Fence); k == fenceFull || k == fenceRead {
				return i
			}
		case OpSyncRCU, OpSyncSRCU, OpLock:
			return i
		case OpLoad:
			if in.Access == Acquire {
				return i
			}
		case OpRMW:
			if in.Order == OrderAcquire || in.Order == OrderFull && !in.isConditional() {
				return i
			}
		}
	}
	return -1
}

// storeText explains a store put in the store buffer (exec or early).
func (m *Machine) storeText(before, after *State, c int, ev *Event) []string {
	e, ok := m.entryOf(after, c, ev.Instr)
	if !ok {
		return nil
	}
	st := m.entryText(e)
	out := []string{fmt.Sprintf("%s goes into its store buffer; no other CPU can see it yet.", st)}
	if m.Mode == TSO {
		if in := &m.code(c)[ev.Instr]; in.Op == OpUnlock || in.Access.IsRelease() {
			out = append(out, "In TSO mode the store buffer commits in order, so every store is already a release.")
		}
		return out
	}
	sb := before.cpus[c].sb
	if e.Kind == EntryRelease {
		for _, b := range sb {
			if isStore(b) {
				ev.Behind = append(ev.Behind, b)
			}
		}
		if len(ev.Behind) == 0 {
			return append(out, "It is a release: it may commit only as the oldest entry, which it is.")
		}
		return append(out, fmt.Sprintf("It is a release: it may commit only after every earlier entry (%s).", m.sbList(ev.Behind)))
	}
	last := -1
	for i, b := range sb {
		if isMarker(b) {
			last = i
		}
	}
	for _, b := range sb[:last+1] {
		if isStore(b) {
			ev.Behind = append(ev.Behind, b)
		}
	}
	if len(ev.Behind) > 0 {
		out = append(out, fmt.Sprintf("The wmb marker ahead of it means %s cannot commit before %s.", st, m.sbList(ev.Behind)))
	}
	return out
}

// entryOf returns the store-buffer entry instruction instr of CPU c put in
// s's store buffer.
func (m *Machine) entryOf(s *State, c, instr int) (SBEntry, bool) {
	for _, e := range s.cpus[c].sb {
		if isStore(e) && int(e.Instr) == instr {
			return e, true
		}
	}
	return SBEntry{}, false
}

// exclusiveText explains an exclusive entry an RMW or lock appended.
func (m *Machine) exclusiveText(after *State, c int, ev *Event) string {
	e, ok := m.entryOf(after, c, ev.Instr)
	if !ok {
		return ""
	}
	name := m.Prog.LocName(e.Loc)
	return fmt.Sprintf("%s goes into its store buffer as an exclusive entry: until it commits, %s is reserved, and no other CPU may store to %s or perform an RMW on it.", m.entryText(e), name, name)
}

func (m *Machine) lockText(before, after *State, c int, in *Instr, ev *Event) []string {
	cs := &before.cpus[c]
	l, _ := m.addr(in, cs.regs)
	name := m.Prog.LocName(l)
	arm := m.Mode == ARM
	var out []string
	if ev.Failed {
		out = append(out, m.appliedText(before, c, in, ev.Applied, true)...)
		out = append(out, m.loadText(before, c, ev)...)
		fail := fmt.Sprintf("It fails: %s is held, so it returns 0.", name)
		if d := before.reservedBy(c, l); arm && d >= 0 && (ev.Load == nil || ev.Load.Val == 0) {
			fail = fmt.Sprintf("It fails: %s is taking %s (its exclusive store to it is pending), so it returns 0.", m.cpuName(d), name)
		}
		if arm {
			fail += " A failed spin_trylock is a plain load: it orders nothing."
		}
		return append(out, fail)
	}
	if !arm {
		out = append(out, fmt.Sprintf("Its store buffer is empty and %s is free, so this locked instruction takes the lock; it is a full barrier.", name))
	} else {
		out = append(out, fmt.Sprintf("The lock %s is free, so it takes it with an acquire, exclusive RMW.", name))
	}
	out = append(out, m.appliedText(before, c, in, ev.Applied, false)...)
	out = append(out, m.loadText(before, c, ev)...)
	if ce := ev.Commit; ce != nil {
		out = append(out, m.describeCommit(ce, true))
	} else if t := m.exclusiveText(after, c, ev); t != "" {
		out = append(out, t)
	}
	return out
}

func (m *Machine) rmwText(before, after *State, c int, in *Instr, ev *Event) []string {
	cs := &before.cpus[c]
	l, _ := m.addr(in, cs.regs)
	p := m.Prog
	name := p.LocName(l)
	arm := m.Mode == ARM
	// In ARM-like mode an RMW that fails on the value it would read is a
	// plain load (an acquire load for _acquire), with no barrier.
	asLoad := arm && m.rmwFailsNow(before, c, in, l)
	var out []string
	switch {
	case !arm:
		out = append(out, "Its store buffer is empty: this locked instruction reads and writes the line at once, a full barrier.")
	case asLoad:
	case in.Order == OrderFull:
		out = append(out, "Its store buffer and invalidation queue are empty, so this fully ordered RMW is a full barrier before and after.")
	case in.Order == OrderRelease:
		out = append(out, "Its store buffer is empty, so this release RMW writes at once, after every earlier access.")
	}
	out = append(out, m.appliedText(before, c, in, ev.Applied, asLoad)...)
	out = append(out, m.loadText(before, c, ev)...)
	switch {
	case ev.Failed:
		var old Value
		if ev.Load != nil {
			old = ev.Load.Val
		}
		exp := p.FormatValue(in.Exp.Eval(cs.regs))
		if in.RMW == RMWAddUnless {
			out = append(out, fmt.Sprintf("It fails: %s=%s is the value it must not add to, so nothing is written.", name, p.FormatValue(old)))
		} else {
			out = append(out, fmt.Sprintf("It fails: %s=%s is not the expected %s, so nothing is written.", name, p.FormatValue(old), exp))
		}
		switch {
		case asLoad && in.Order == OrderAcquire:
			out = append(out, fmt.Sprintf("A failed %s is only an acquire load.", in.rmwName()))
		case asLoad:
			out = append(out, fmt.Sprintf("A failed %s is a plain load: it orders nothing.", in.rmwName()))
		}
	case ev.Commit != nil:
		out = append(out, m.describeCommit(ev.Commit, true))
		if arm && in.Order == OrderRelease {
			out = append(out, m.markedText(after, c, ev)...)
		}
	default:
		if t := m.exclusiveText(after, c, ev); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// markedText records and explains the invalidations a release write marked.
func (m *Machine) markedText(after *State, c int, ev *Event) []string {
	for _, e := range after.cpus[c].iq {
		if e.Marked {
			ev.Marked = append(ev.Marked, e.Loc)
		}
	}
	if len(ev.Marked) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("As a release, it marks the %s queued at %s (%s): a later acquire of %s applies %s before it reads.", pluralWord(len(ev.Marked), "invalidation", "invalidations"), m.cpuName(c), m.locList(ev.Marked), m.cpuName(c), pronoun(len(ev.Marked)))}
}

func (m *Machine) syncText(before, after *State, c int, in *Instr, ev *Event) []string {
	cpu := m.cpuName(c)
	text := m.instrText(c, ev.Instr)
	empty := "Its store buffer is empty"
	if m.Mode == ARM {
		empty = "Its store buffer and invalidation queue are empty"
	}
	if ev.GPEnd {
		what := "every CPU has reported a quiescent state"
		if in.Op == OpSyncSRCU {
			what = "the SRCU read-side sections it waited for have ended, and every CPU has reported a quiescent state"
		}
		return []string{fmt.Sprintf("%s finishes %s: %s.", cpu, text, what), empty + ", so the full barrier at its end passes."}
	}
	out := []string{fmt.Sprintf("%s starts %s.", cpu, text), empty + ", so the full barrier at its start passes."}
	acs := &after.cpus[c]
	if in.Op == OpSyncRCU {
		return append(out, fmt.Sprintf("A grace period begins: every CPU, %s included, must report a quiescent state.", cpu))
	}
	d, _ := m.addr(in, before.cpus[c].regs)
	gp := fmt.Sprintf("A grace period of %s begins: every CPU must report a quiescent state", m.Prog.LocName(d))
	if n := bits.OnesCount32(acs.gpSecs); n > 0 {
		gp += fmt.Sprintf(", and the %s of %s open now (%s) must end", plural(n, "SRCU read-side section", "SRCU read-side sections"), m.Prog.LocName(d), m.openers(acs.gpSecs))
	}
	return append(out, gp+".")
}

// openers names the CPUs that opened the SRCU sections in mask.
func (m *Machine) openers(mask uint32) string {
	var names []string
	for k, sec := range m.srcuSecs {
		if mask&(1<<uint(k)) != 0 {
			names = append(names, "opened by "+m.cpuName(sec.cpu))
		}
	}
	return strings.Join(names, ", ")
}

func (m *Machine) describeCommitStep(before, after *State, ev *Event) []string {
	c := int(ev.Step.CPU)
	ce := ev.Commit
	if ce == nil {
		return nil
	}
	e, _ := m.entryOf(before, c, ev.Instr)
	kind := ""
	switch e.Kind {
	case EntryRelease:
		kind = "the release store "
	case EntryExclusive:
		kind = "the exclusive store "
	}
	out := []string{fmt.Sprintf("%s commits %s%s=%s from its store buffer (%s).", m.cpuName(c), kind, m.Prog.LocName(ce.Loc), m.Prog.FormatValue(ce.Val), m.instrText(c, ev.Instr))}
	if len(ev.Applied) > 0 {
		out = append(out, fmt.Sprintf("It first applies its own queued invalidation of %s: a CPU never writes over a stale copy.", m.locList(ev.Applied)))
	}
	out = append(out, m.describeCommit(ce, false))
	switch e.Kind {
	case EntryRelease:
		out = append(out, m.markedText(after, c, ev)...)
	case EntryExclusive:
		out = append(out, fmt.Sprintf("The exclusive write is done: %s is no longer reserved.", m.Prog.LocName(ce.Loc)))
	}
	if m.Mode == ARM && markers(after.cpus[c].sb) < markers(before.cpus[c].sb) {
		for i, a := range after.cpus[c].sb {
			if isStore(a) && m.canCommit(after, c, i) && !m.committable(before, c, int(a.Instr)) {
				ev.Freed = append(ev.Freed, a)
			}
		}
		if n := len(ev.Freed); n > 0 {
			may := "it may now commit"
			if n > 1 {
				may = "they may now commit"
			}
			out = append(out, fmt.Sprintf("The wmb marker ahead of %s is gone: %s.", m.sbList(ev.Freed), may))
		}
	}
	return out
}

func markers(sb []SBEntry) int {
	n := 0
	for _, e := range sb {
		if isMarker(e) {
			n++
		}
	}
	return n
}

// committable reports whether the store of instruction instr in CPU c's
// store buffer may commit in s.
func (m *Machine) committable(s *State, c, instr int) bool {
	for i, e := range s.cpus[c].sb {
		if isStore(e) && int(e.Instr) == instr {
			return m.canCommit(s, c, i)
		}
	}
	return false
}

func (m *Machine) describeInvalidate(before *State, ev *Event) []string {
	c := int(ev.Step.CPU)
	p := m.Prog
	l := Loc(ev.Step.Arg)
	return []string{fmt.Sprintf("%s applies its queued invalidation of %s: its stale copy %s=%s is dropped; its next read of %s will miss and fetch the latest value.", m.cpuName(c), p.LocName(l), p.LocName(l), p.FormatValue(before.cpus[c].cache[l].Val), p.LocName(l))}
}

func (m *Machine) describeReport(before, after *State, ev *Event) []string {
	c := int(ev.Step.CPU)
	cpu := m.cpuName(c)
	empty := "its store buffer is empty"
	if m.Mode == ARM {
		empty = "its store buffer and invalidation queue are empty"
	}
	var out []string
	for d := range before.cpus {
		if !m.canReportTo(before, c, d) {
			continue
		}
		g := &before.cpus[d]
		sync := m.instrText(d, int(g.pc))
		outside := "it is outside any RCU read-side critical section"
		if g.gpDomain != 0 {
			outside = fmt.Sprintf("it is outside every SRCU read-side section of %s that the grace period waits for", m.Prog.LocName(Loc(g.gpDomain-1)))
		}
		who := m.cpuName(d) + "'s "
		if d == c {
			who = "its own "
		}
		out = append(out, fmt.Sprintf("%s reports a quiescent state to %s%s: %s, and %s.", cpu, who, sync, outside, empty))
		a := &after.cpus[d]
		switch {
		case a.gpWait != 0:
			var owe []int
			for e := range after.cpus {
				if a.gpWait&(1<<uint(e)) != 0 {
					owe = append(owe, e)
				}
			}
			out = append(out, fmt.Sprintf("That grace period still waits for %s.", m.cpuList(owe)))
		case a.gpSecs&after.srcuOpen != 0:
			out = append(out, "That grace period still waits for SRCU read-side sections to end.")
		default:
			out = append(out, fmt.Sprintf("That grace period has every report it needs: %s can finish %s.", m.cpuName(d), sync))
		}
	}
	return out
}

func (m *Machine) locList(ls []Loc) string {
	var names []string
	for _, l := range ls {
		names = append(names, m.Prog.LocName(l))
	}
	return strings.Join(names, ", ")
}

func (m *Machine) cpuList(cs []int) string {
	var names []string
	for _, c := range cs {
		names = append(names, m.cpuName(c))
	}
	return strings.Join(names, ", ")
}

// entryText is a store-buffer entry as people write it: x=1.
func (m *Machine) entryText(e SBEntry) string {
	return m.Prog.LocName(e.Loc) + "=" + m.Prog.FormatValue(e.Val)
}

// sbList names stores: "x=1", "x=1 and y=2", "x=1, y=2 and z=3".
func (m *Machine) sbList(es []SBEntry) string {
	var names []string
	for _, e := range es {
		if isStore(e) {
			names = append(names, m.entryText(e))
		}
	}
	return joinAnd(names)
}

func joinAnd(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func pronoun(n int) string { return pluralWord(n, "it", "them") }

func (m *Machine) describeCommit(ce *CommitEvent, atOnce bool) string {
	var parts []string
	if atOnce {
		parts = append(parts, fmt.Sprintf("%s=%s is written to its cache at once (line in M).", m.Prog.LocName(ce.Loc), m.Prog.FormatValue(ce.Val)))
	} else {
		parts = append(parts, "The line is now M in its cache.")
	}
	var dropped []int
	for _, d := range ce.Dropped {
		if d != ce.WroteBack {
			dropped = append(dropped, d)
		}
	}
	if ce.WroteBack >= 0 {
		parts = append(parts, fmt.Sprintf("%s held the line modified: it writes it back and drops to I.", m.cpuName(ce.WroteBack)))
	}
	if len(dropped) > 0 {
		parts = append(parts, fmt.Sprintf("%s dropped to I.", m.cpuList(dropped)))
	}
	switch len(ce.Queued) {
	case 0:
	case 1:
		parts = append(parts, fmt.Sprintf("Invalidation queued at %s, which can still read the old copy until it applies it.", m.cpuList(ce.Queued)))
	default:
		parts = append(parts, fmt.Sprintf("Invalidation queued at %s, which can still read their old copies until they apply it.", m.cpuList(ce.Queued)))
	}
	return strings.Join(parts, " ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// waitSubject names what waits, for a sentence about w.
func (m *Machine) waitSubject(w *Wait) string {
	in := &m.code(w.CPU)[w.Instr]
	switch w.Rule {
	case RuleLocked:
		return "locked instruction"
	case RuleFullRMW:
		return "fully ordered RMW"
	case RuleReleaseRMW:
		return "release RMW"
	case RuleLock:
		return "spin_lock"
	case RuleFailedRMW:
		return in.rmwName()
	case RuleExclusive:
		if w.Kind == WaitRelease {
			return "acquire RMW"
		}
		return "exclusive RMW"
	}
	switch in.Op {
	case OpFence:
		return in.Fence.String()
	case OpSyncRCU:
		return "synchronize_rcu"
	case OpSyncSRCU:
		return "synchronize_srcu"
	}
	return "smp_load_acquire"
}

// WaitText says what w waits for: brief leaves out which entries,
// invalidations and sections, for panes too narrow for them.
func (m *Machine) WaitText(s *State, w *Wait, brief bool) string {
	switch w.Kind {
	case WaitNone:
		return ""
	case WaitFinished:
		return "finished"
	case WaitFault:
		return "stopped: " + m.faultText(s, w.CPU)
	case WaitAfterAcquire:
		if brief {
			return "after an acquire, waits for " + plural(len(w.Invals), "queued invalidation", "queued invalidations")
		}
		return "after an acquire, waits for " + m.iqWait(w.Invals) + " before its next instruction"
	}
	subj := m.waitSubject(w)
	switch w.Kind {
	case WaitRelease:
		if brief {
			return subj + " waits for its earlier release stores to commit"
		}
		return subj + " waits for its earlier " + pluralWord(len(w.Entries), "release store ", "release stores ") + m.sbList(w.Entries) + " to commit"
	case WaitDrain:
		var parts []string
		if len(w.Entries) > 0 {
			if brief {
				parts = append(parts, plural(len(w.Entries), "store-buffer entry", "store-buffer entries"))
			} else {
				parts = append(parts, m.sbWait(w.Entries))
			}
		}
		if len(w.Invals) > 0 {
			if brief {
				parts = append(parts, plural(len(w.Invals), "queued invalidation", "queued invalidations"))
			} else {
				parts = append(parts, m.iqWait(w.Invals))
			}
		}
		return subj + " waits for " + strings.Join(parts, " and ")
	case WaitQuiescent:
		var owe []string
		for i, d := range w.CPUs {
			name := m.cpuName(d)
			if !brief {
				name += m.holdText(w, w.Holds[i])
			}
			owe = append(owe, name)
		}
		return subj + " waits for a quiescent state from " + strings.Join(owe, ", ")
	case WaitSections:
		t := subj + " waits for " + plural(len(w.Sections), "SRCU read-side section", "SRCU read-side sections") + " to end"
		if !brief {
			var names []string
			for _, sec := range w.Sections {
				names = append(names, "opened by "+m.cpuName(sec.CPU))
			}
			t += " (" + strings.Join(names, ", ") + ")"
		}
		return t
	case WaitLockHeld:
		return "spin_lock waits: " + m.Prog.LocName(w.Loc) + " is held"
	case WaitReserved:
		name, holder := m.Prog.LocName(w.Loc), m.cpuName(w.Holder)
		if w.Rule == RuleFullRMW || w.Rule == RuleReleaseRMW {
			return fmt.Sprintf("RMW waits: %s is reserved by %s", name, holder)
		}
		return fmt.Sprintf("%s waits: %s is reserved by %s's pending exclusive store", subj, name, holder)
	case WaitOwnStore:
		if brief {
			return "exclusive RMW waits for its own pending store to " + m.Prog.LocName(w.Loc)
		}
		return "exclusive RMW waits for its own pending store " + m.sbList(w.Entries) + " to commit"
	case WaitMarker:
		if brief {
			return "exclusive RMW waits for the stores before its smp_wmb to commit"
		}
		return "exclusive RMW waits for the stores before its smp_wmb (" + m.sbList(w.Entries) + ") to commit"
	}
	return ""
}

// holdText says why a CPU has not yet reported a quiescent state to w's
// grace period, or "" when it can report now.
func (m *Machine) holdText(w *Wait, h QSHold) string {
	switch h {
	case HoldReader:
		if w.SRCU {
			return " (inside an SRCU read-side section of " + m.Prog.LocName(w.Domain) + ")"
		}
		return " (inside an RCU read-side critical section)"
	case HoldStoreBuffer:
		return " (its store buffer is not empty)"
	case HoldQueue:
		return " (its invalidation queue is not empty)"
	}
	return ""
}

// sbWait: "2 store-buffer entries (x=1, y=1) to commit".
func (m *Machine) sbWait(st []SBEntry) string {
	return fmt.Sprintf("%s (%s) to commit", plural(len(st), "store-buffer entry", "store-buffer entries"), m.sbList(st))
}

// iqWait: "1 queued invalidation (x) to be applied".
func (m *Machine) iqWait(ls []Loc) string {
	return fmt.Sprintf("%s (%s) to be applied", plural(len(ls), "queued invalidation", "queued invalidations"), m.locList(ls))
}
