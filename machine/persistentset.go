package machine

import (
	"math/bits"
	"slices"
)

// CPU-set persistent sets (issue 24). persistentCPU takes the moves of one
// CPU alone when nothing any other CPU may still do interferes with them;
// in a cycle every CPU's first move interferes with its neighbour's future,
// so no one CPU ever qualifies. persistentSet looks for a set P of CPUs
// instead: all the moves of the CPUs in P (T, the union of their
// cpuMacros), taken alone, the other CPUs left for later. P is grown from
// one CPU by a closure: a CPU whose possible future interferes with a move
// of P joins P.
//
// The argument. Write s·a for the state the explorer's move a (a macro,
// with what perform takes eagerly after it) leads to from s, and call a
// path of moves of CPUs outside P a P-free path. Suppose that, at every
// state v of every P-free path from s:
//
//	(stability) every CPU c in P has exactly the moves at v it has at s;
//	(commutation) for every move a of P and every move b of a CPU d
//	outside P at v, b is still a move of d at v·a, and v·a·b = v·b·a
//	(equal search keys).
//
// Then every final, stuck or faulted state reachable from s is matched by
// one of the same kind (the same outcome, a deadlock, a fault) reachable
// through a move of T first. Take a path w from s to such a state. If w
// has a move of a CPU in P, let a be the first one: the moves before it
// form a P-free path, so a is a move at s (stability), and it can be
// swapped to the front one move at a time (commutation at the states of
// that P-free path), reaching the same state by the same moves otherwise.
// If w has none, it is P-free; a move a of T stays a move along it
// (stability) and commutes with each of its moves, so a·w is a path too
// and ends in (end of w)·a. The end of w is not stuck (a is still enabled
// there). If it is a fault, so is (end of w)·a: a touches nothing of the
// faulted CPU. If it is final (every CPU finished, every store buffer
// drained), a can only be a queued invalidation applied or a report (a
// step of its own when those reductions are off), which change no
// register and no latest value: (end of w)·a is final with the same
// outcome. By
// induction on the longest path from s (the graph has no cycles), the
// reduced search reaches a state of every kind the full one does. The
// proof needs nothing of how the other states' moves were chosen, so it
// composes with the other reductions, each argued the same way (a move
// first, then a path to an equivalent end).
//
// Guesses (reads and plain stores issued past a branch whose condition
// is not known yet, and accesses past a fully ordered cmpxchg guessed to
// fail, early.go) are moves like the others here: unlike
// persistentCPU's, this argument does not need every execution to perform
// every instruction of c, only stability and commutation. A wrong guess
// ends in a state that is no execution (Misspeculated), which no end
// needs matched, and a path to a real end passes through none (the flag
// is in the key, so a reordered path meets one only where the original
// did). Stability covers a CPU whose in-order step waits for another CPU
// while it may guess: what would enable that step (a lock's line, a
// reservation, a grace period's reports, its queue) is in its
// footprint.
//
// Both conditions follow from a resource view of the state, each move
// reading or writing:
//
//   - LOC(l), per location: the latest value, memory, every cache's copy
//     of the line and its MESI state, and pending reservations. Loads read
//     it (a miss that makes an owner write back still commutes with another
//     CPU's load of l: both orders leave every copy in the same state);
//     commits, RMWs, locks and applied invalidations write it. A move
//     that takes the last pending or future write, or the last reread, of
//     l from its CPU's future writes it too: perform may then apply at once
//     other CPUs' invalidations of l, dropping their copies.
//   - the invalidation queue of each CPU (ARM-like mode): a commit that
//     queues an invalidation at x that stays (x may still load the line,
//     or another CPU may load it twice more and it is written again; else
//     perform applies it at once and only LOC(l) changed) *arrives* at x;
//     applying entries *removes* from x; and x's moves *observe* it (a
//     barrier, an acquire, an RMW or lock, a load whose value feeds an
//     address, a release commit, which marks the queue, a fence folded
//     into the step, a report, any variant applying entries first, and any
//     move of a CPU whose queue is not empty). Arrivals commute with
//     arrivals (the key lists the queue by location), removals with
//     removals; an arrival or removal at x does not commute with x's
//     observing moves, nor arrivals with removals (emptiness decides the
//     acquire wait and reports).
//   - grace periods. Reports are eager (perform), so a CPU owes a grace
//     period a report exactly while it is not quiescent (inside a reader,
//     its store buffer or, ARM-like, its queue not empty). A move that
//     makes a quiescent CPU non-quiescent (a store into an empty buffer,
//     rcu_read_lock, an arrival that stays) *delays* it: it does not
//     commute with another CPU starting a grace period (whether the new
//     grace period waits for that CPU depends on the order). Every other
//     move commutes with a grace period's start (a move that makes a CPU
//     quiescent lets it report at once, before or after the start) and
//     with its end (a CPU still owing the grace period a report keeps the
//     end disabled; one that has reported is not touched by it). A CPU
//     no grace period waits for to drain (buffersUnseen: no read-side
//     section of a kind some CPU synchronises on) is quiescent whatever
//     its buffer and queue hold, so nothing delays it: its stores and
//     the arrivals at it commute with a start.
//
// A CPU's moves touch, besides its own private state, the resources their
// footprint (setFoot, computed by performing each move on a copy of s)
// names; what a CPU d outside P may touch along any P-free path is
// over-approximated from its program (the locations it may still load or
// write, futures.go), its store buffer and queue, and whether it may still
// start a grace period (futFoot). A CPU d joins P when its possible future
// conflicts with a move of P in the resource view (conflicts), which gives
// commutation; stability needs also that what decides a CPU's moves in P is
// not written by a P-free path:
//
//   - LOC(l) for the lines of its locks, RMWs and trylocks (whether they
//     wait or fail, and whether a failing one may go early: futureCond) and
//     of its store-buffer entries (reservations), read by the footprint;
//   - its queue (the lazy-invalidation variants): observing;
//   - whether a grace period starts: a CPU with an empty store buffer
//     outside any reader would owe a new one a report its variants offer
//     after applying its queue (startSens), so it conflicts with a CPU that
//     may start one;
//   - whether a grace period may still run (the postponed stores and
//     locks depend on it, gpPossible): it stays so along P-free paths when
//     P holds a CPU inside or before a grace period; one joins P otherwise;
//   - the end of a grace period a CPU of P waits for: it needs a report
//     from a CPU that cannot report without moving (inside a reader or with
//     stores buffered) in P; when P has none, one such CPU joins, or every
//     CPU the grace period still waits for when none is such.
//
// Which instructions a CPU may issue early depends on its queue too
// (smp_rmb is passed only while it is empty): a CPU of P with an empty
// queue whose early moves would change if an entry arrived counts as
// observing it (earlyQueueSensitive).
//
// A CPU d outside P that waits in a grace period for a CPU of P that
// cannot report without moving is frozen: no P-free path moves it, so it
// conflicts with nothing (frozen; only with lazy invalidations and eager
// reports, without which its queue and its report are moves of its own).
//
// SRCU (srcu.go). The state SRCU adds is the set of open sections
// (srcuOpen), each SRCU grace period's domain, the sections it waits for
// (gpSecs) and its owed reports (gpWait), and the sections each value
// carries (registers, store-buffer entries, cache lines and memory: the
// last two are in LOC(l), which changedOnly patches whole, memSecs
// included). A move of a CPU c of P is now one of the moves above or an
// SRCU lock or unlock (alone, or folded into another move); a grace
// period's start or end stays unknown. Each SRCU grace period of a
// domain D is a grace period like RCU's above, with these differences,
// each handled as said:
//
//   - Who owes it a report: every CPU not quiescent for it — inside a
//     section of gpSecs it opened (owesOutside), or with stores buffered
//     or queued invalidations when it must drain (qsDrains: its own CPU,
//     and CPUs with SRCU sections). A move other than an SRCU lock or
//     unlock leaves every section as it is, so it makes c non-quiescent
//     for some SRCU grace period only by filling its empty buffer
//     (drains), and for one starting only when c has no section of some
//     synchronised domain open (srcuQuietSomewhere): delays. A CPU
//     inside an RCU reader is quiescent for SRCU, so for arrivals only
//     stores buffered keep a CPU of P non-quiescent (conflicts: still),
//     and startSens no longer asks for being outside a reader.
//   - Starts. A start reads srcuOpen (its gpSecs) and every CPU's
//     quiescence. An srcu_read_lock with a section opens it, so a grace
//     period of its domain started after it waits for it and one started
//     before does not: it delays. An unlock closes sections: it delays
//     too, unless it closes only sections of its own CPU that no other
//     CPU can close (Machine.ownUnlock): a grace period started before
//     it records the section and waits for the CPU, which cannot report
//     inside it (its re-add adds nothing), until it is outside and
//     drained; one started after it waits for the same, and the two
//     states differ only in a closed section in gpSecs, which no rule
//     reads (persistent.go, "Closing one's own section"). futFoot's
//     gpStart covers synchronize_srcu.
//   - Re-adds. An unlock of section k by CPU d makes every grace period
//     waiting for k wait again for reports from d and k's opener
//     (srcuUnlock): for those two, a grace period starting. So a CPU d
//     outside P that may still unlock a section (srcuClosers) conflicts
//     with a move of P that fills the buffer of d or of that section's
//     opener, is start-sensitive there, or arrives at them (futFoot
//     reAdds).
//   - Which unlock closes. Another CPU's unlock of k closes it only when
//     no unlock of k is left to run anywhere (laterUnlock reads every
//     CPU's pc and faults): a move of c that performs or passes (jumps
//     over, or faults before) an unlock of a section puts every CPU that
//     may still unlock that section, and its opener, into P
//     (srcuUnlockReach, setFoot srcuCPUs). A lock's section is carried
//     by no value before the lock runs, so no unlock elsewhere matches it
//     before. Two unlocks of one section in either order close it at
//     the later one and make the same CPUs owe again.
//   - The index: srcu_read_lock reads its srcu_struct's latest value, as
//     a load of that line (LOC(l) read, in futFoot too: srcuLockLocs); a
//     commit to a srcu_struct is no partial seed (the lock does not read
//     its own buffer).
//   - Late sections (ARM-like): a lock waits for an empty queue while a
//     grace period of its domain waits for its CPU's report
//     (lateSection): it observes the queue while one does; one can start
//     or re-add along a P-free path, so it is start-sensitive. A CPU of
//     P whose lock waits so can report only after its queue is applied,
//     by its own move or a removal, which conflicts: its moves are stable.
//   - The end: enabled when nobody owes a report and no section of gpSecs
//     is open. A CPU of P waiting in it (WaitQuiescent or WaitSections)
//     keeps its moves only while the end stays disabled along P-free
//     paths, which srcuHold ensures: a CPU of P owes a report and must
//     drain stores to give it, or a section it waits for has an unlock
//     left on a CPU of P (then no other unlock closes it) or none left at
//     all; otherwise a CPU towards that joins P (a closer of an open
//     section, else a stuck ower, else every ower, as for RCU). A
//     P-free unlock only adds owers, which keeps the end disabled.
//   - frozen stays for RCU grace periods only (an SRCU one may end
//     without a move of P: a section closed elsewhere).
//
//   - Inside a section (srcuStays: every grace period is an SRCU one and
//     every section bracketed, so a section is closed by its opener
//     only). A CPU inside an open section of every synchronised domain
//     owes every grace period that starts a report until it unlocks,
//     whatever its buffer and queue: a start changes none of its moves
//     (not start-sensitive; its own srcu_read_lock is, srcuFoot), and
//     in P, where it does not move, arrivals at it delay nothing (it
//     counts as stuck: srcuInside).
//
// The step-level sets (persistentpart.go, with SRCU operations there
// performed only by CPUs that join whole or pinned at one) apply to
// SRCU programs too. The postponed stores and locks, and symmetry, still
// leave programs with SRCU to the full search of the moves they cover.
//
// A move whose footprint is unknown — a grace period's start or end, a
// report taken as a move, an instruction the footprint does not know, a
// step kind added later — keeps its CPU's set from being taken. As a
// guard against
// rules added later, each move performed on a copy of s is checked to
// change nothing outside its CPU's own state but the lines of its
// footprint and the queue entries it arrives with (changedOnly, by
// State.Equal, which compares every field a rule reads); a move that does
// is treated as unknown.
//
// What needs the full search and what does not. Outcomes (registers and
// latest values), deadlocks and faults are ends, kept as argued above;
// their witnesses are still sequences of ordinary steps (perform), which
// replay with Enabled and Apply, shortest within the explored graph. The
// closest attempt (scenarios) needs only the outcomes, their witnesses
// and the first deadlock, the necessity and what-if analyses only
// verdicts; the counts of states (OutcomeResult.States among them) were
// never the full graph's. The filter's pruning (Options.Prune) drops
// only states from which no end matters, wherever the reordered path
// meets them.
//
// Faults: a faulting move ends the execution and touches nothing else; its
// own state is the end (a fault, like any other), and a fault at the end
// of a P-free path is handled above.

// earlyQueueSensitive reports whether, for a move of mvs that issues an
// instruction early (after the postponed rcu_read_lock or store it takes
// first, if any), CPU c's early candidates there change when its queue,
// empty, gains an entry. (A non-empty queue only ever removes candidates:
// smp_rmb is passed only while it is empty, nothing after an acquire
// while it is not.)
func (e *explorer) earlyQueueSensitive(s *State, c int, mvs []macro, w *worker) bool {
	m := e.m
	for _, mv := range mvs {
		early := mv.step.Kind == StepEarly || mv.store > 1
		if !early {
			continue
		}
		t := w.load(&w.fpSc, s)
		if mv.lock {
			m.apply(t, Step{Kind: StepExec, CPU: uint8(c)}, nil)
		}
		if mv.store > 1 && e.queueChangesEarly(t, c, w) {
			return true
		}
		switch {
		case mv.store == 1:
			m.apply(t, Step{Kind: StepExec, CPU: uint8(c)}, nil)
		case mv.store > 1:
			m.apply(t, Step{Kind: StepEarly, CPU: uint8(c), Arg: mv.store - 2}, nil)
		}
		if mv.step.Kind == StepEarly && e.queueChangesEarly(t, c, w) {
			return true
		}
	}
	return false
}

// queueChangesEarly reports whether CPU c's early candidates in t change
// when its queue gains an entry (or its queue is not empty: then an
// arrival is observed anyway). It leaves t as it found it.
func (e *explorer) queueChangesEarly(t *State, c int, w *worker) bool {
	m := e.m
	cs := &t.cpus[c]
	if len(cs.iq) > 0 {
		return true
	}
	w.steps = m.appendEarly(w.steps[:0], t, c)
	iq := cs.iq
	cs.iq = append(cs.iq, IQEntry{})
	w.steps2 = m.appendEarly(w.steps2[:0], t, c)
	cs.iq = iq
	return !slices.Equal(w.steps, w.steps2)
}

// setFoot is what the moves of a CPU touch from a state (see above).
type setFoot struct {
	locR, locW uint64 // LOC(l) read and written
	arrive     uint32 // CPUs at which a move queues an invalidation that stays
	remove     uint32 // other CPUs whose queued invalidations a move may apply
	observe    bool   // the moves or the move set depend on the CPU's own queue
	delays     bool   // a move may make a quiescent CPU non-quiescent
	drains     bool   // a move fills its CPU's empty buffer (SRCU: re-adds)
	startSens  bool   // the move set changes when a grace period starts
	waitsGP    bool   // its grace period still waits for reports
	gpDep      bool   // a move postpones a store or rcu_read_lock (gpPossible)
	global     bool   // a move the footprint does not know
	srcu       bool   // a move performs an SRCU lock or unlock (changedOnly)
	srcuCPUs   uint32 // CPUs that may unlock a section a move unlocks or passes, and its opener
}

// futFoot over-approximates what a CPU may touch along any path of moves
// of CPUs outside P.
type futFoot struct {
	locR, locW uint64
	writes     uint64 // the lines it may still commit (arrivals)
	rel        uint64 // the lines its moves may release (removals elsewhere)
	observe    bool   // it may observe its own queue
	gpStart    bool   // it may start a grace period
	reAdds     uint32 // CPUs its SRCU unlocks may make owe a report again
}

// persistentSet returns a set of CPUs whose moves (w.cpuMvs) form a
// persistent set of s smaller than all the moves, if it finds one: of the
// closures of every CPU with moves, and of every single commit seed
// (partialSeed), the one with the fewest moves. When part is not -1, the
// set holds of CPU part only its move mv (the seed), of the others in p
// all their moves.
func (e *explorer) persistentSet(s *State, w *worker) (p uint32, part int, mv macro, ok bool) {
	m := e.m
	if !e.on(redPersistentSet) {
		return 0, -1, macro{}, false
	}
	movers := 0
	for c := range s.cpus {
		if len(w.cpuMvs[c]) > 0 {
			movers++
		}
	}
	if movers < 2 {
		return 0, -1, macro{}, false // all the moves are one CPU's already
	}
	n := len(s.cpus)
	w.cur = grow(w.cur, n)
	w.fut = grow(w.fut, n)
	w.resetMoveMemos(n)
	w.stuckAll = stuckIn(s, ^uint32(0)) // closure's stuckIn(s, p) is p&stuckAll
	w.srcuIn = 0
	if e.srcuStays {
		w.srcuIn = e.srcuInside(s)
		w.stuckAll |= w.srcuIn
	}
	w.srcuStill = sbCPUs(s) | w.srcuIn
	gpPossible := e.gpPossible(s)
	live := m.liveWrites(s)
	rereads := &w.rereadArr // futureRereads of every CPU but the one named
	for c := range s.cpus {
		var others uint64
		for d := range s.cpus {
			if d != c {
				others |= m.fut.futureRereads[d][s.cpus[d].pc]
			}
		}
		rereads[c] = others
	}
	total := 0
	var gpCPUs uint32 // CPUs inside or before a grace period
	// The footprints of the CPUs' moves are computed as the sets need
	// them (curOf): a set of one move found early spares the others.
	w.curKnown, w.curLive, w.curRereads = 0, live, rereads[:n]
	for c := range s.cpus {
		total += len(w.cpuMvs[c])
		w.fut[c] = e.futFootOf(s, c, gpPossible, queuedElsewhere(s, c))
		if s.cpus[c].syncWait || m.fut.futureSync[c][s.cpus[c].pc] {
			gpCPUs |= 1 << c
		}
	}
	needGP := gpPossible && m.hasSync
	best, bestPart, bestMoves := uint32(0), -1, total
	var bestMv macro
	// The set kept is the smallest, the first in CPU order among equals.
	// A seed's set holds at least its own moves, so seeds are tried with
	// the fewest moves first: once none left can match the best, their
	// footprints (each move performed on a copy of s) are never computed.
	bestSeed := n
	order := w.seedArr[:0]
	for c := range s.cpus {
		if len(w.cpuMvs[c]) > 0 {
			order = append(order, int8(c))
		}
	}
	slices.SortStableFunc(order, func(a, b int8) int { return len(w.cpuMvs[a]) - len(w.cpuMvs[b]) })
	for _, sd := range order {
		seed := int(sd)
		own, earlier := len(w.cpuMvs[seed]), seed < bestSeed
		if own > bestMoves || own == bestMoves && !earlier {
			continue
		}
		if e.curOf(s, seed, w).global {
			continue
		}
		bound := bestMoves
		if earlier && best != 0 {
			bound++ // an equal set from an earlier CPU is kept instead
		}
		part := -1
		p, ok := e.closure(s, uint32(1)<<seed, &part, needGP, gpCPUs, live, rereads[:n], bound, w)
		if !ok {
			continue
		}
		if moves := setMoves(w, p, -1); moves < bestMoves || moves == bestMoves && earlier && best != 0 {
			best, bestPart, bestMoves, bestSeed = p, -1, moves, seed
		}
		if bestMoves == 1 {
			// No set is smaller, and the first smallest is kept: the
			// later seeds, the single commits and partialSet (which
			// needs more than two) would change nothing.
			break
		}
	}
	for c := range s.cpus {
		if len(w.cpuMvs[c]) < 2 || bestMoves <= 1 {
			continue
		}
		for i, mv := range w.cpuMvs[c] {
			l, ok := e.partialSeed(s, c, mv)
			if !ok {
				continue
			}
			w.part = setFoot{locR: 1 << l} // whether another CPU reserves the line
			e.movesFoot(s, c, i, i+1, &w.part, live, rereads[:n], w)
			if w.part.global {
				continue
			}
			w.partFut = e.futFootOf(s, c, gpPossible, queuedElsewhere(s, c))
			w.partFut.without(m, s, c, l)
			part := c
			p, ok := e.closure(s, uint32(1)<<c, &part, needGP, gpCPUs, live, rereads[:n], bestMoves, w)
			if !ok {
				continue
			}
			if moves := setMoves(w, p, part); moves < bestMoves {
				best, bestPart, bestMoves, bestMv = p, part, moves, mv
			}
		}
	}
	// Step-level sets only where grace periods are (issue 24's class):
	// elsewhere the CPU-level ones already serve, and the state counts
	// people see stay as they were.
	if e.on(redPartialSet) && (m.hasSync || m.hasSyncSRCU) && bestMoves > 2 && e.partialSet(s, w, bestMoves, needGP, gpCPUs, live, rereads[:n]) {
		return 0, partMoves, macro{}, true
	}
	return best, bestPart, bestMv, best != 0
}

// partMoves is persistentSet's part when the set found is partialSet's
// (its moves in w.partOut).
const partMoves = -2

// Single commits (partial seeds). The moves of a CPU c with stores
// buffered include commits of entries to different lines, and its
// program may still touch every line, so a set that holds all its moves
// holds every CPU that touches a line c may: a CPU storing every location
// pulls in every reader. A set may hold instead one commit a of c, of a
// plain entry of line l whose invalidation c does not hold queued, with
// c's other moves left outside it. The argument above then needs, besides
// the conflicts between the other CPUs of the set and c's remaining
// future (checked as for any CPU outside the set, with futFootOf less
// line l: partFut), that a is stable under c's other moves and commutes
// with them. It is: while a's entry is pending, c's own moves cannot
// commit another entry of l (an older one would have to commit first; a
// younger one waits for it), nor perform an RMW or lock on l (the
// own-store wait), nor release l (its entry keeps the line releasable),
// nor insert a wmb marker before it (a marker goes after the stores);
// its loads of l forward from its buffer, before a or (reading its own
// line in M) after it, the same value without touching another cache; a
// barrier, a grace period or a report waits for the buffer to drain, and
// a release entry for being the oldest. What a's commit changes besides
// c's own buffer and cache is line l and the queues of its other holders,
// which c's other moves do not touch. And while a's entry is pending, c
// cannot become quiescent along a path that leaves the set out: it is
// stuck, as a CPU of the set with stores buffered (stuckIn). Moves of c
// outside the set may move it past its grace periods, so c never serves
// as the CPU that keeps a grace period possible (gpCPUs), and its waits
// for a grace period do not concern a.

// partialSeed reports whether mv, a move of CPU c, may be a set's only
// move of c (see above), and the line it commits.
func (e *explorer) partialSeed(s *State, c int, mv macro) (Loc, bool) {
	m := e.m
	if mv.store != 0 || mv.lock || mv.pre != preNone || mv.step.Kind != StepCommit || s.cpus[c].fault {
		return 0, false
	}
	for _, en := range s.cpus[c].sb {
		if en.Instr == mv.step.Arg && en.Kind != EntryWmb {
			// (An srcu_read_lock reads its srcu_struct's latest value,
			// not its own buffer: a commit to one is no seed.)
			return en.Loc, en.Kind == EntryPlain && s.iqIndex(c, en.Loc) < 0 && m.srcuLockReads(s, c)&(1<<en.Loc) == 0
		}
	}
	return 0, false
}

// without takes out of f, the future of CPU c, what it does with line l
// only through the pending commit of its entry of l, when that entry is
// its only one of l and its program writes l no more: it neither reads
// nor writes nor releases the line while the entry is pending.
func (f *futFoot) without(m *Machine, s *State, c int, l Loc) {
	bit := uint64(1) << l
	n := 0
	for _, en := range s.cpus[c].sb {
		if en.Kind != EntryWmb && en.Loc == l {
			n++
		}
	}
	if n == 1 && m.writesLeft(s, c)&bit == 0 {
		f.writes &^= bit
	}
	// Its loads of l forward from the entry, and the entry keeps the line
	// releasable, while it is pending.
	f.locR &^= bit
	f.rel &^= bit
	f.locW = f.writes | iqMask(s.cpus[c].iq) | f.rel
}

// foot returns the footprint of CPU c's moves in the set: of the seed
// alone when c is the set's partial CPU.
func (e *explorer) foot(s *State, w *worker, c, part int) *setFoot {
	if c == part {
		return &w.part
	}
	return e.curOf(s, c, w)
}

// curOf returns w.cur[c], the footprint of all of CPU c's moves from s
// (curFoot), computing it the first time persistentSet's expansion of s
// asks.
func (e *explorer) curOf(s *State, c int, w *worker) *setFoot {
	if w.curKnown&(1<<c) == 0 {
		w.curKnown |= 1 << c
		w.cur[c] = e.curFoot(s, c, 0, len(w.cpuMvs[c]), w.curLive, w.curRereads, w)
	}
	return &w.cur[c]
}

// allCur computes every CPU's w.cur (partialSet reads them directly); it
// returns true.
func (e *explorer) allCur(s *State, w *worker) bool {
	for c := range s.cpus {
		e.curOf(s, c, w)
	}
	return true
}

// closure grows p until no CPU outside it conflicts with it (see above),
// and reports false when a CPU in it has a move the footprint does not
// know, or when it holds bound moves or more (its caller keeps only a set
// smaller than the best found so far: the moves only grow, as p does and
// as *part turns -1, so such a set cannot end smaller). *part is the CPU
// of p of which the set holds only its seed, or -1; when the others'
// moves conflict with its remaining future, all its moves join (*part
// becomes -1).
func (e *explorer) closure(s *State, p uint32, part *int, needGP bool, gpCPUs uint32, live uint64, rereads []uint64, bound int, w *worker) (uint32, bool) {
	// calm[c] holds the CPUs d found not to conflict with c's moves. They
	// cannot later: conflictsStuck only turns false as the set's stuck
	// CPUs grow, which is all p's growth does to it; c's footprint is the
	// same while *part is (calm is forgotten when it changes).
	var calm [32]uint32
	for changed := true; changed; {
		changed = false
		if setMoves(w, p, *part) >= bound {
			return 0, false
		}
		for c := range s.cpus {
			if p&(1<<c) == 0 {
				continue
			}
			cf := e.foot(s, w, c, *part)
			if cf.global {
				return 0, false
			}
			for d := range s.cpus {
				if p&(1<<d) != 0 || calm[c]&(1<<d) != 0 {
					continue
				}
				if e.conflictsStuck(s, p&w.stuckAll, c, d, cf, &w.fut[d], live, rereads, w.srcuStill) {
					p |= 1 << d
					changed = true
				} else {
					calm[c] |= 1 << d
				}
			}
			if x := *part; x >= 0 && c != x && e.conflictsStuck(s, p&w.stuckAll, c, x, cf, &w.partFut, live, rereads, w.srcuStill) {
				*part = -1
				changed = true
				calm = [32]uint32{}
			}
		}
		dep := false
		for c := range s.cpus {
			dep = dep || p&(1<<c) != 0 && e.foot(s, w, c, *part).gpDep
		}
		whole := p
		if *part >= 0 {
			whole &^= 1 << *part
		}
		if needGP && dep && whole&gpCPUs == 0 {
			// Keep a grace period possible along every path P leaves to
			// the others: a CPU inside or before one joins (all of its
			// moves).
			x := gpCPUs & -gpCPUs
			if x&(1<<max(*part, 0)) != 0 && *part >= 0 {
				*part = -1
				calm = [32]uint32{}
			}
			p |= x
			changed = true
		}
		for c := range s.cpus {
			if p&(1<<c) == 0 || !e.foot(s, w, c, *part).waitsGP {
				continue
			}
			if s.cpus[c].gpDomain != 0 {
				if x, _, ok := e.srcuHold(s, p, p, c); !ok {
					p |= x
					changed = true
				}
				continue
			}
			owe := s.cpus[c].gpWait
			stuck := func(x int) bool { return s.cpus[x].rcuDepth > 0 || len(s.cpus[x].sb) > 0 }
			var stuckOwers uint32
			for x := range s.cpus {
				if owe&(1<<x) != 0 && stuck(x) {
					stuckOwers |= 1 << x
				}
			}
			switch {
			case stuckOwers&p != 0:
			case stuckOwers != 0:
				p |= stuckOwers & -stuckOwers
				changed = true
			case owe&^p != 0:
				p |= owe
				changed = true
			}
		}
	}
	return p, true
}

// setMoves counts the moves of the set of CPUs p (w.cpuMvs): one for
// CPU part (its seed; -1 for none), every move of the others.
func setMoves(w *worker, p uint32, part int) int {
	moves := 0
	for c, mvs := range w.cpuMvs {
		switch {
		case c == part:
			moves++
		case p&(1<<c) != 0:
			moves += len(mvs)
		}
	}
	return moves
}

// conflictsStuck reports whether what CPU d (outside P, or the remaining
// future of P's partial CPU) may still do, df, conflicts with the moves
// of CPU c (in P), cf, given the CPUs of the set that cannot report
// without moving (stuckIn, or partClosure's count of them), and the CPUs
// that stay non-quiescent for an SRCU grace period: with stores buffered,
// or inside a section of every synchronised domain (srcuInside, when
// srcuStays), computed once per state (worker.srcuStill).
func (e *explorer) conflictsStuck(s *State, stuck uint32, c, d int, cf *setFoot, df *futFoot, live uint64, rereads []uint64, srcuStill uint32) bool {
	m := e.m
	if e.frozen(s, stuck, d) {
		return false // it cannot move along any path that leaves P out
	}
	if cf.locW&(df.locR|df.locW) != 0 || cf.locR&df.locW != 0 || cf.srcuCPUs&(1<<d) != 0 {
		return true
	}
	// An arrival that stays delays its CPU unless that CPU stays
	// non-quiescent anyway: inside a reader or with stores buffered, in P.
	still := stuck
	if m.hasSyncSRCU {
		// A CPU inside an RCU reader still reports to an SRCU grace
		// period: only stores buffered keep it from it, or (srcuStays)
		// being inside a section of each synchronised domain.
		still &= srcuStill
	}
	if df.gpStart && (cf.delays || cf.startSens || cf.arrive&^still&^m.unseen != 0) {
		return true
	}
	// An SRCU unlock of d makes grace periods wait for reports from the
	// CPUs in reAdds again: for them, as a grace period starting.
	if df.reAdds&(1<<c) != 0 && (cf.drains || cf.startSens) || df.reAdds&cf.arrive&^still&^m.unseen != 0 {
		return true
	}
	if m.Mode != ARM {
		return false
	}
	if (cf.arrive|cf.remove)&(1<<d) != 0 && df.observe {
		return true
	}
	if !cf.observe {
		return false
	}
	// d's commits would queue invalidations at c that stay, or d's moves
	// may release lines whose entries c holds and would apply at once.
	cs := &s.cpus[c]
	own := m.drainReadsIn(s, c)
	for l := range cs.cache {
		bit := uint64(1) << l
		if cs.cache[l].State != Shared {
			continue
		}
		queued := s.iqIndex(c, Loc(l)) >= 0
		if !queued && df.writes&bit != 0 && (!e.on(redUnreadable) || own&bit != 0 || rereads[c]&live&bit != 0) {
			return true
		}
		if queued && own&bit == 0 && df.rel&bit != 0 {
			return true
		}
	}
	return false
}

// srcuHold reports whether the end of CPU c's SRCU grace period stays
// disabled along every path of moves of CPUs outside p, and if not, the
// CPUs to add to p towards it (see "SRCU" above). It stays disabled while
// a CPU of p that owes it a report has stores buffered and must drain
// them to report (qsDrains): only its own commits drain them; or while a
// section it waits for stays open: one that a CPU of p, or of noUnlock,
// may still unlock (another CPU's unlock leaves it open while one is
// left, laterUnlock, and CPUs of p do not move; those of noUnlock, a
// superset, perform no SRCU operation along those paths), or that nobody
// may unlock any more. closer says the CPU to add may unlock such a
// section.
func (e *explorer) srcuHold(s *State, p, noUnlock uint32, c int) (add uint32, closer, ok bool) {
	m := e.m
	g := &s.cpus[c]
	owe := g.gpWait
	var stuckOwers uint32
	for x := range s.cpus {
		if owe&(1<<x) != 0 && len(s.cpus[x].sb) > 0 && m.qsDrains(s, x, c) {
			stuckOwers |= 1 << x
		}
	}
	if stuckOwers&p != 0 {
		return 0, false, true
	}
	open := g.gpSecs & s.srcuOpen
	for f := open; f != 0; f &= f - 1 {
		cl := m.srcuClosers(s, bits.TrailingZeros32(f))
		if cl == 0 || cl&noUnlock != 0 {
			return 0, false, true
		}
		if add == 0 {
			add = cl & -cl
		}
	}
	switch {
	case add != 0:
		return add, true, false
	case stuckOwers != 0:
		return stuckOwers & -stuckOwers, false, false
	case owe&^p != 0:
		// Every CPU it waits for, in p, cannot report along such paths
		// but by another's move that conflicts with it (a removal from
		// its queue), as for RCU.
		return owe, false, false
	}
	return 0, false, true
}

// srcuQuietSomewhere reports whether CPU c has no section open of some
// domain a grace period may be started for (then a grace period of it
// starting waits for c's report only if c is not quiescent).
func (e *explorer) srcuQuietSomewhere(s *State, c int) bool {
	m := e.m
	for _, secs := range m.srcuSyncSecs {
		if !m.inSections(s, c, secs) {
			return true
		}
	}
	return false
}

// srcuInside returns the CPUs inside an open section of every domain a
// synchronize_srcu names (srcuQuietSomewhere false). When srcuStays, such
// a CPU owes a report to every grace period starting, whatever its queue
// and buffer, until it unlocks: a bracketed section is closed by its
// opener only, so along paths the CPU does not move in (or, a partial
// CPU, performs no SRCU operation in: srcuLeft) it stays inside, and it
// counts among the stuck CPUs of a set (stuckIn).
func (e *explorer) srcuInside(s *State) uint32 {
	var out uint32
	for x := range s.cpus {
		if !e.srcuQuietSomewhere(s, x) {
			out |= 1 << x
		}
	}
	return out
}

// sbCPUs returns the CPUs with stores buffered.
func sbCPUs(s *State) uint32 {
	var out uint32
	for x := range s.cpus {
		if len(s.cpus[x].sb) > 0 {
			out |= 1 << x
		}
	}
	return out
}

// stuckIn returns the CPUs of p that cannot become quiescent without
// moving themselves: inside a read-side section or with stores buffered.
func stuckIn(s *State, p uint32) uint32 {
	var out uint32
	for x := range s.cpus {
		if p&(1<<x) != 0 && (s.cpus[x].rcuDepth > 0 || len(s.cpus[x].sb) > 0) {
			out |= 1 << x
		}
	}
	return out
}

// frozen reports whether CPU d cannot move along any path of moves of
// CPUs outside the set: it waits in a grace period for a CPU of the set
// that cannot report without moving (stuck: stuckIn of the set).
// (Waiting there, it has nothing in its store buffer, nothing it may
// issue early and has reported itself.)
func (e *explorer) frozen(s *State, stuck uint32, d int) bool {
	ds := &s.cpus[d]
	if !ds.syncWait || ds.gpDomain != 0 || ds.gpWait&stuck == 0 || len(ds.sb) > 0 {
		return false
	}
	// Without lazy invalidations its queued entries are steps of its
	// own, and without eager reports so may its report be.
	if !e.on(redLazy) && len(ds.iq) > 0 || !e.on(redEagerQS) {
		return false
	}
	return e.m.cpuWait(s, d).kind == WaitQuiescent
}

// futFootOf over-approximates what CPU d may still touch.
func (e *explorer) futFootOf(s *State, d int, gpPossible bool, queued uint64) futFoot {
	m := e.m
	ds := &s.cpus[d]
	pc := ds.pc
	sb := sbLocs(ds.sb)
	reads, writes := m.accessLeft(s, d)
	f := futFoot{
		locR:   reads,
		writes: writes | sb,
	}
	f.locW = f.writes
	if m.Mode == ARM {
		// Releasing a line applies the invalidations of it other CPUs
		// hold queued now (one arriving later comes from a commit, which
		// writes the line anyway).
		f.rel = (m.fut.futureRereads[d][pc] | f.writes) & queued
		f.locW |= iqMask(ds.iq) | f.rel
		// A finished CPU still commits, and a release commit marks its
		// queue.
		f.observe = !m.finished(s, d) || gpPossible || len(ds.sb) > 0
	}
	if m.hasSync || m.hasSyncSRCU {
		next := pc
		if ds.syncWait {
			next++ // the grace period it waits in has started
		}
		f.gpStart = int(next) <= len(m.code(d)) && m.fut.futureSync[d][next]
	}
	if m.hasSyncSRCU && m.srcuUnlockReach(s, d) != 0 {
		// An unlock makes the grace periods waiting for its section wait
		// for reports from it and the section's opener again.
		for k := range m.srcuSecs {
			if m.srcuClosers(s, k)&(1<<d) != 0 {
				f.reAdds |= 1<<d | 1<<m.srcuSecs[k].cpu
			}
		}
	}
	// An srcu_read_lock reads its srcu_struct's latest value.
	f.locR |= m.srcuLockReads(s, d)
	return f
}

// curFoot computes the footprint of CPU c's moves w.cpuMvs[c][lo:hi]
// from s.
func (e *explorer) curFoot(s *State, c, lo, hi int, live uint64, rereads []uint64, w *worker) setFoot {
	m := e.m
	cs := &s.cpus[c]
	arm := m.Mode == ARM
	var f setFoot
	quiet := cs.rcuDepth == 0 || m.hasSyncSRCU
	if e.srcuStays {
		quiet = e.srcuQuietSomewhere(s, c)
	}
	f.startSens = !e.on(redEagerQS) || arm && len(cs.sb) == 0 && quiet && !m.buffersUnseen(c)
	e.waitFoot(s, c, &f)
	e.postponedWaitFoot(s, c, &f, w)
	if arm && !f.observe {
		// Which instructions may be issued early depends on the queue
		// (smp_rmb is passed only while it is empty): an arrival that
		// changes them changes the moves.
		for i := lo; i < hi && !f.observe; i++ {
			f.observe = e.moveQueueSensitive(s, c, i, w)
		}
	}
	e.movesFoot(s, c, lo, hi, &f, live, rereads, w)
	return f
}

// waitFoot adds to f what decides, besides CPU c's own state, which of
// its steps are enabled in s: the lines of its store-buffer entries
// (reservations decide its commits), of its next lock, RMW or trylock
// (whether it waits or fails), the lines whose values decide whether a
// failing one may go early, what it waits for, and (ARM-like) its queue.
func (e *explorer) waitFoot(s *State, c int, f *setFoot) {
	m := e.m
	cs := &s.cpus[c]
	arm := m.Mode == ARM
	if arm {
		f.locR |= sbLocs(cs.sb) // reservations decide its commits
		f.observe = f.observe || len(cs.iq) > 0 || cs.acqWait
	}
	if !m.finished(s, c) && !cs.fault {
		in := &m.code(c)[cs.pc]
		switch in.Op {
		case OpRMW, OpLock, OpTryLock:
			if l, ok := m.addr(in, cs.regs); ok {
				f.locR |= 1 << l // whether it waits or fails
			}
		}
		if arm {
			f.locR |= m.fut.futureCond[c][cs.pc] // whether one fails and may go early
		}
		switch cw := m.cpuWait(s, c); cw.kind {
		case WaitQuiescent, WaitSections:
			f.waitsGP = true
		case WaitLockHeld, WaitReserved:
			f.locR |= 1 << cw.loc
		case WaitDrain, WaitAfterAcquire:
			if cw.invals != 0 {
				f.observe = true
			}
			// (A late section's entry waits for its queue while a grace
			// period waits for its report: observing, and its report
			// comes only from its own moves or a removal, which
			// conflicts.)
		}
	}
}

// postponedWaitFoot adds to f what decides CPU c's postponed moves
// (postponedLockMoves, postponedStoreMoves): each is an rcu_read_lock or
// a plain store taken together with a step after it, offered only when
// that step is enabled after it. So the moves of c are decided also by
// what decides the steps of the state after the lock or the store
// (waitFoot there): a store postponed in front of a commit that waits for
// another CPU's reservation of its line, or of a spin_lock whose line
// another CPU holds, is no move of c now, and becomes one when that CPU
// moves. (Found by TestReferenceRandom: without this, a CPU whose only
// postponed move waited for a reservation had no moves and no footprint,
// and a set holding it left out the RMW whose commit enables it.)
func (e *explorer) postponedWaitFoot(s *State, c int, f *setFoot, w *worker) {
	if e.postponableLock(s, c, w) {
		t := w.afterLock(s, c) // read only
		e.waitFoot(t, c, f)
		e.postponedStoreWaitFoot(t, c, f, w)
		return
	}
	e.postponedStoreWaitFoot(s, c, f, w)
}

// postponedStoreWaitFoot adds to f waitFoot of the states after each
// plain store of CPU c postponed in s: its next instruction, and each it
// may issue early.
func (e *explorer) postponedStoreWaitFoot(s *State, c int, f *setFoot, w *worker) {
	m := e.m
	if !e.postponing(s, c) {
		return
	}
	if e.postponableStore(s, c, w) {
		t := w.load(&w.waitStoreSc, s)
		m.apply(t, Step{Kind: StepExec, CPU: uint8(c)}, nil)
		e.waitFoot(t, c, f)
	}
	w.waitSteps = m.appendCPUSteps(w.waitSteps[:0], s, c)
	for _, st := range w.waitSteps {
		if e.issuesStoreEarly(st) {
			t := w.load(&w.waitStoreSc, s)
			m.apply(t, st, nil)
			e.waitFoot(t, c, f)
		}
	}
}

// moveMemo is what persistentSet and partialSet learn of one move of the
// state being expanded, computed on first use: each move is performed
// once for the footprints however many sets it is weighed in (all of its
// CPU's moves, a single-commit seed, a partial CPU's subset).
type moveMemo struct {
	footKnown bool
	foot      setFoot // movesFoot's contribution of the move
	eqsKnown  bool
	eqs       bool // earlyQueueSensitive of the move alone
	// after: moveFoot left the state after the move's own steps
	// (ownSteps) in the worker's afterSc, of afterCost in applyMacro's
	// count, which successors takes instead of performing them again.
	after     bool
	afterCost int32
}

// resetMoveMemos forgets what was learnt of the previous state's moves.
func (w *worker) resetMoveMemos(n int) {
	for len(w.memos) < n {
		w.memos = append(w.memos, nil)
	}
	for len(w.afterSc) < n {
		w.afterSc = append(w.afterSc, nil)
	}
	for c := 0; c < n; c++ {
		w.memos[c] = grow(w.memos[c], len(w.cpuMvs[c]))
		clear(w.memos[c])
		for len(w.afterSc[c]) < len(w.cpuMvs[c]) {
			w.afterSc[c] = append(w.afterSc[c], scratch{})
		}
	}
	w.memoLive = true
}

// takeAfter returns the state moveFoot left after move mv's own steps
// from the state being expanded, and their cost, if it has one; the
// caller owns it (it is given once).
func (w *worker) takeAfter(mv macro) (*State, int32, bool) {
	if !w.memoLive {
		return nil, 0, false
	}
	c := int(mv.step.CPU)
	for i, x := range w.cpuMvs[c] {
		if mm := &w.memos[c][i]; x == mv && mm.after {
			mm.after = false
			return &w.afterSc[c][i].st, mm.afterCost, true
		}
	}
	return nil, 0, false
}

// moveMemo returns the memo of move i of CPU c (w.cpuMvs[c][i]).
func (w *worker) moveMemo(c, i int) *moveMemo { return &w.memos[c][i] }

// moveQueueSensitive is earlyQueueSensitive of move i of CPU c alone
// (that of several moves is whether one of them is), computed once per
// state (moveMemo).
func (e *explorer) moveQueueSensitive(s *State, c, i int, w *worker) bool {
	mm := w.moveMemo(c, i)
	if !mm.eqsKnown {
		mm.eqs, mm.eqsKnown = e.earlyQueueSensitive(s, c, w.cpuMvs[c][i:i+1], w), true
	}
	return mm.eqs
}

// movesFoot adds to f what the moves w.cpuMvs[c][lo:hi] of CPU c touch
// from s, each performed on a copy of s (once per state: moveFoot).
func (e *explorer) movesFoot(s *State, c, lo, hi int, f *setFoot, live uint64, rereads []uint64, w *worker) {
	for i := lo; i < hi && !f.global; i++ {
		f.or(e.moveFoot(s, c, i, live, rereads, w))
	}
}

// moveFoot returns what move i of CPU c (w.cpuMvs[c][i]) touches from s,
// performed on a copy of s, as movesFoot adds it; computed once per
// state (moveMemo).
func (e *explorer) moveFoot(s *State, c, i int, live uint64, rereads []uint64, w *worker) *setFoot {
	mm := w.moveMemo(c, i)
	if mm.footKnown {
		return &mm.foot
	}
	mm.footKnown = true
	mm.foot = setFoot{}
	f := &mm.foot
	mv := w.cpuMvs[c][i]
	m := e.m
	if (mv.store != 0 || mv.lock) && !e.postponeAlways() {
		// Postponed only while a grace period may run (postponeNow):
		// without one the store or lock would be a move of its own.
		f.gpDep = true
	}
	t := w.load(&w.afterSc[c][i], s)
	var fp setFoot
	cost := int32(0)
	ownSteps(t, mv, nil, func(st Step, _ *Event) {
		cost += e.stepCost(st)
		e.stepFoot(t, c, st, &fp, w)
	})
	// stepFoot takes every step it knows (the same way perform does: the
	// event it passes only records); after one it does not, t is not the
	// state after the move.
	mm.after, mm.afterCost = !fp.global, cost
	f.locR |= fp.locR
	f.locW |= fp.locW
	f.observe = fp.observe
	f.global = fp.global
	f.delays = fp.delays
	f.startSens = fp.startSens
	if f.global {
		return f
	}
	for x := range s.cpus {
		if x == c {
			continue
		}
		for _, q := range t.cpus[x].iq {
			if s.iqIndex(x, q.Loc) >= 0 {
				continue
			}
			bit := uint64(1) << q.Loc
			// It stays when x may still load the line, or another CPU
			// may load it twice more and it is written again.
			// (The static count, as perform keeps it; without
			// redUnreadable every entry stays.)
			if !e.on(redUnreadable) || m.fut.futureReads[x][t.cpus[x].pc]&bit != 0 || rereads[x]&live&bit != 0 {
				f.arrive |= 1 << x
			}
		}
	}
	if rel := releasable(m, s, c) &^ releasable(m, t, c) & queuedElsewhere(s, c); rel != 0 {
		f.locW |= rel
		for x := range s.cpus {
			if x == c {
				continue
			}
			// Only entries queued now: an arrival of the line on the
			// way conflicts with this move's write of it.
			if iqMask(s.cpus[x].iq)&rel != 0 {
				f.remove |= 1 << x
			}
		}
	}
	unseen := m.buffersUnseen(c) // nothing of this delays any grace period
	if !unseen && quiescent(m, s, c) && !quiescent(m, t, c) && (m.hasSync || !m.hasSyncSRCU) {
		f.delays = true
	}
	if !unseen && m.hasSyncSRCU && m.drained(s, c) && !m.drained(t, c) {
		// No longer quiescent for an SRCU grace period re-added to
		// (srcuUnlock), nor for one starting, of a domain it has no
		// section of open (a move other than an SRCU lock or unlock
		// leaves the sections as they are; those set delays
		// themselves).
		f.drains = true
		f.delays = f.delays || e.srcuQuietSomewhere(s, c)
	}
	if ch := m.srcuUnlockReach(t, c) ^ m.srcuUnlockReach(s, c); ch != 0 {
		// It performed an unlock, or passed one (a branch jumped over
		// it, or it faulted): every CPU that may unlock one of those
		// sections, and the section's opener, is in the set with it.
		for k := range m.srcuSecs {
			if m.srcuSecs[k].unlocks[c]&ch != 0 {
				f.srcuCPUs |= m.srcuClosers(s, k) | 1<<m.srcuSecs[k].cpu
			}
		}
	}
	// What it changed elsewhere: only lines of its footprint, and
	// queue entries for lines it writes. (Last: it patches t.)
	if !e.changedOnly(s, t, c, fp.locR|fp.locW, fp.locW, fp.srcu, w) {
		f.global = true
	}
	return f
}

// stepFoot adds to fp what the ordinary step st of CPU c touches when
// taken from t, and takes it.
func (e *explorer) stepFoot(t *State, c int, st Step, fp *setFoot, w *worker) {
	m := e.m
	arm := m.Mode == ARM
	cs := &t.cpus[c]
	if int(st.CPU) != c {
		fp.global = true
		return
	}
	switch st.Kind {
	case StepExec:
		in := &m.code(c)[cs.pc]
		var l Loc
		if in.Addr != nil {
			var ok bool
			if l, ok = m.addr(in, cs.regs); !ok {
				m.apply(t, st, nil) // it faults: the execution ends here
				return
			}
		}
		switch in.Op {
		case OpLoad:
			fp.locR |= 1 << l
			if arm && (in.Access == Acquire || in.HasDst && m.fut.addrRegs[c]&(1<<in.Dst) != 0) {
				fp.observe = true
			}
		case OpStore, OpUnlock, OpRCULock, OpRCUUnlock, OpAssign, OpBranch, OpJump:
		case OpSRCULock, OpSRCUUnlock:
			e.srcuFoot(t, c, cs.pc, fp)
		case OpRMW, OpLock, OpTryLock:
			fp.locR |= 1 << l
			fp.locW |= 1 << l
			fp.observe = fp.observe || arm
		case OpFence:
			if k := m.fenceKind(in.Fence); arm && (k == fenceFull || k == fenceRead) {
				fp.observe = true
			}
		default:
			fp.global = true // grace periods, SRCU, and what this does not know
			return
		}
		w.ev.Folded = w.ev.Folded[:0]
		m.apply(t, st, &w.ev)
		w.ev.Load, w.ev.Commit, w.ev.Applied = nil, nil, nil
		for _, i := range w.ev.Folded {
			f := &m.code(c)[i]
			switch f.Op {
			case OpAssign, OpBranch, OpJump, OpRCULock, OpRCUUnlock:
			case OpSRCULock, OpSRCUUnlock:
				e.srcuFoot(t, c, uint8(i), fp) // (t is after it: srcuFoot reads only what it does not change)
			case OpFence:
				if k := m.fenceKind(f.Fence); arm && (k == fenceFull || k == fenceRead) {
					fp.observe = true // folded because the queue is empty
				}
			default:
				fp.global = true
			}
		}
		return
	case StepEarly:
		in := &m.code(c)[st.Arg]
		l, kind := m.earlyLoc(t, c, int(st.Arg))
		switch {
		case kind == earlyLoad:
			fp.locR |= 1 << l
			if arm && in.HasDst && m.fut.addrRegs[c]&(1<<in.Dst) != 0 {
				fp.observe = true
			}
		case kind == earlyRMW || kind == earlyAcquire:
			// As in order: an acquire observes the queue (its marked
			// entries, the wait after it); an RMW or lock also writes
			// (reserves) its line and applies its own entry of it.
			fp.locR |= 1 << l
			fp.observe = true
			if in.Op != OpLoad {
				fp.locW |= 1 << l
			}
		case kind == earlyStore, kind == earlyWmb:
		default:
			fp.global = true
			return
		}
	case StepCommit:
		found := false
		for _, en := range cs.sb {
			if en.Instr == st.Arg && en.Kind != EntryWmb {
				fp.locW |= 1 << en.Loc
				if arm && (en.Kind == EntryRelease || t.iqIndex(c, en.Loc) >= 0) {
					fp.observe = true // marks its queue, or applies its own entry
				}
				found = true
			}
		}
		if !found {
			fp.global = true
			return
		}
	case StepInvalidate:
		fp.locW |= 1 << st.Arg
		fp.observe = true
	case StepReportQS:
		// A report after its queue is applied (the lazy variant): with
		// reports eager it commutes with grace periods starting and
		// ending (it only makes the CPU quiescent sooner). Taken as a
		// move of its own (reports not eager), it reaches every grace
		// period.
		if !e.on(redEagerQS) {
			fp.global = true
			return
		}
		fp.observe = true
	default:
		fp.global = true
		return
	}
	m.apply(t, st, nil)
}

// srcuFoot adds to fp what CPU c's SRCU lock or unlock at pc touches
// besides the sections (movesFoot adds those), as argued under "SRCU"
// above.
func (e *explorer) srcuFoot(t *State, c int, pc uint8, fp *setFoot) {
	m := e.m
	in := &m.code(c)[pc]
	fp.srcu = true
	if in.Op == OpSRCULock {
		fp.locR |= 1 << m.srcuDomain(in) // the index: its latest value
		if m.srcuSecOf[c][pc] < 0 || !m.hasSyncSRCU {
			return
		}
		// A grace period of its domain started after it waits for the
		// section, one started before it does not (and may make it wait
		// for an empty queue, ARM-like: lateSection).
		fp.delays = true
		if m.Mode == ARM {
			fp.startSens = true
			fp.observe = fp.observe || m.lateSection(t, c, in) >= 0
		}
		return
	}
	if m.hasSyncSRCU && !m.ownUnlock(c, int(pc)) {
		// Closing a section changes what a grace period starting
		// waits for; it makes grace periods wait for reports again
		// (for an unlock of the CPU's own sections, from that CPU only,
		// which owed them anyway: "Starts" above).
		fp.delays = true
	}
}

// changedOnly reports whether t, reached from s by moves of CPU c, differs
// from s outside c's own state only in the lines lines (every cache's copy,
// memory), in queue entries for lines in queued that other CPUs gained,
// and in the reports c gave (its bit cleared in a grace period's gpWait;
// for an SRCU lock or unlock, srcu, every CPU's gpWait and the open
// sections). It patches t back to s in exactly those places, compares
// the two with State.Equal, which compares every field a rule reads
// (fields_test.go ties each field to Equal): a field added later that a
// move of c changes elsewhere makes the move unknown, not overlooked.
// Then it puts back what it patched (from w's undo buffers), so that t is
// still the state after the moves (successors takes it: moveFoot).
func (e *explorer) changedOnly(s, t *State, c int, lines, queued uint64, srcu bool, w *worker) bool {
	u := t
	steps, coh, memCo, srcuOpen := u.steps, u.coh, u.memCo, u.srcuOpen
	u.steps, u.coh, u.memCo = s.steps, s.coh, s.memCo
	w.undoGP = w.undoGP[:0]
	if srcu {
		// An SRCU lock or unlock opens or closes sections, and an
		// unlock makes grace periods wait for reports again.
		u.srcuOpen = s.srcuOpen
	}
	grace := e.m.hasSync || e.m.hasSyncSRCU // else every gpWait stays 0
	for x := 0; grace && x < len(u.cpus); x++ {
		// c's own report, taken eagerly after its moves, clears c's
		// bit only: it makes c quiescent sooner, which commutes with
		// grace periods starting and ending (the resource view's
		// "grace periods" above); without this, every move after which
		// its CPU reports counted as unknown and kept its set from
		// being taken.
		w.undoGP = append(w.undoGP, u.cpus[x].gpWait)
		if srcu || u.cpus[x].gpWait == s.cpus[x].gpWait&^(1<<c) {
			u.cpus[x].gpWait = s.cpus[x].gpWait
		}
	}
	own := u.cpus[c]
	u.cpus[c] = s.cpus[c] // shallow: u is only compared, and own is put back
	w.undoVals, w.undoSecs, w.undoLines = w.undoVals[:0], w.undoSecs[:0], w.undoLines[:0]
	memSecs := u.memSecs != nil && s.memSecs != nil
	lines &= 1<<len(u.mem) - 1 // (the locations there are)
	for ls := lines; ls != 0; ls &= ls - 1 {
		l := bits.TrailingZeros64(ls)
		w.undoVals = append(w.undoVals, u.mem[l])
		u.mem[l] = s.mem[l]
		if memSecs {
			w.undoSecs = append(w.undoSecs, u.memSecs[l])
			u.memSecs[l] = s.memSecs[l]
		}
	}
	nq := 0
	for x := range u.cpus {
		nq += len(u.cpus[x].iq)
	}
	w.undoIQ = grow(w.undoIQ, len(u.cpus))
	keep := grow(w.iqKeep, nq)[:0] // never grows below: the kept entries stay where they are
	w.iqKeep = keep
	for x := range u.cpus {
		w.undoIQ[x] = nil
		if x == c {
			continue
		}
		a, b := &s.cpus[x], &u.cpus[x]
		for ls := lines; ls != 0; ls &= ls - 1 {
			l := bits.TrailingZeros64(ls)
			w.undoLines = append(w.undoLines, b.cache[l])
			b.cache[l] = a.cache[l]
		}
		gained := false
		for _, q := range b.iq {
			gained = gained || queued&(1<<q.Loc) != 0 && s.iqIndex(x, q.Loc) < 0
		}
		if !gained {
			continue
		}
		from := len(keep)
		for _, q := range b.iq {
			if queued&(1<<q.Loc) != 0 && s.iqIndex(x, q.Loc) < 0 {
				continue // gained by the move
			}
			keep = append(keep, q)
		}
		w.undoIQ[x] = b.iq
		b.iq = keep[from:len(keep):len(keep)]
	}
	eq := s.Equal(u)
	// Put back what was patched, in the order it was saved.
	u.steps, u.coh, u.memCo, u.srcuOpen = steps, coh, memCo, srcuOpen
	for x := 0; grace && x < len(u.cpus); x++ {
		u.cpus[x].gpWait = w.undoGP[x]
	}
	u.cpus[c] = own
	iv, is := 0, 0
	for ls := lines; ls != 0; ls &= ls - 1 {
		l := bits.TrailingZeros64(ls)
		u.mem[l] = w.undoVals[iv]
		iv++
		if memSecs {
			u.memSecs[l] = w.undoSecs[is]
			is++
		}
	}
	il := 0
	for x := range u.cpus {
		if x == c {
			continue
		}
		b := &u.cpus[x]
		for ls := lines; ls != 0; ls &= ls - 1 {
			b.cache[bits.TrailingZeros64(ls)] = w.undoLines[il]
			il++
		}
		if w.undoIQ[x] != nil {
			b.iq = w.undoIQ[x]
			w.undoIQ[x] = nil
		}
	}
	return eq
}

// releasable returns the lines whose pending or future writes, or future
// rereads, by CPU c can let perform apply other CPUs' queued invalidations
// of them at once when they end.
func releasable(m *Machine, s *State, c int) uint64 {
	cs := &s.cpus[c]
	return m.fut.futureRereads[c][cs.pc] | m.writesLeft(s, c) | sbLocs(cs.sb)
}

// queuedElsewhere returns the lines of which a CPU other than c holds a
// queued invalidation.
func queuedElsewhere(s *State, c int) uint64 {
	var out uint64
	for x := range s.cpus {
		if x != c {
			out |= iqMask(s.cpus[x].iq)
		}
	}
	return out
}

// quiescent reports whether CPU c could report a quiescent state to an
// RCU grace period now.
func quiescent(m *Machine, s *State, c int) bool {
	cs := &s.cpus[c]
	return cs.rcuDepth == 0 && len(cs.sb) == 0 && (m.Mode != ARM || len(cs.iq) == 0)
}

func sbLocs(sb []SBEntry) uint64 {
	var l uint64
	for _, e := range sb {
		if e.Kind != EntryWmb {
			l |= 1 << e.Loc
		}
	}
	return l
}
