package machine

import "math/bits"

// Step-level persistent sets (issue 24: partial CPUs). persistentSet takes
// all the moves of a set P of CPUs, and a CPU joins P as soon as anything
// it may still do interferes with a move of P. In a ring of RCU readers
// (each loads x_i and stores x_(i+1)) or in a read-read cycle closed by
// one CPU storing every location, every CPU's future touches both its
// neighbours' lines, so the closure always ends with every CPU, though
// each move interferes with only one or two moves of other CPUs. Here a
// CPU may instead join with only some of its moves: those that perform
// given instructions of it.
//
// Identities. Every move of the search (a macro: optionally a postponed
// rcu_read_lock, a postponed store, lazily applied invalidations of the
// line it reads, then its step) performs one or two instructions of its
// CPU as its own: the step's (an in-order exec, an instruction issued
// early, or, for a commit, the store whose entry commits) and the
// postponed store's (moveIDs). A postponed rcu_read_lock is not an
// identity: it reads and writes nothing, and which move of its CPU takes
// it first makes no difference to the state after both (below). The set
// is given by an instruction set I_c per CPU c: all of c's instructions
// for a CPU joining whole, a few for a partial CPU. T, the set taken, is
// the moves at s that perform an instruction of I (an I-move); a path is
// I-free when none of its moves does.
//
// The argument is persistentSet's, with identities in place of moves.
// Suppose that along every I-free path from s, at every state v and for
// every I-free move b at v: (backward) for every I-move a at v·b there
// is an I-move a' at v performing the same instructions, and a move b'
// at v·a', with v·a'·b' = v·b·a (equal search keys); (forward) for every
// I-move a at v, there is an I-move a' at v·b performing the same
// instructions with v·a·b' = v·b·a' for a move b' at v·a. Take a path w
// from s to an end. If it has an I-move, the first one is pulled to the
// front by backward commutation one move at a time, so the end is reached
// through an I-move at s: a move of T. If it has none: every instruction
// of I is still unperformed at its end u (a move performing one is an
// I-move), and every one of them that T performs at s is still enabled
// there (forward commutation), so u is neither final (the CPU has an
// instruction, or a pending entry, left) nor stuck; it is a fault, and
// forward commutation along w gives s·a·w', ending in a fault too (the
// faulting CPU's registers are not touched by a). By induction on the
// longest path from s, the reduced search reaches every end of every kind.
//
// What gives the two commutations. Between the moves of different CPUs:
// the resource view of persistentset.go, with each partial CPU's I-free
// future (what it may do along I-free paths: partFutOf) in place of its
// whole future; a CPU whose I-free future conflicts with a move of T
// joins with the instructions of it that conflict, when each of them is
// performed by a move at s (else it could become enabled along an I-free
// path: it joins whole). Between the moves of one partial CPU c, T's and
// its I-free ones, the class of c (partEligible): from its pc on, its
// program holds only READ_ONCE (plain, at a constant address, not feeding
// an address), WRITE_ONCE (at a constant address), rcu_read_lock,
// rcu_read_unlock and synchronize_rcu; its buffer only plain entries; it
// is not waiting in a grace period nor after an acquire; and the lines
// its I-moves access and those its I-free future may access are disjoint.
// Then an I-move and an I-free move of c are: an in-order load, a load or
// store issued early, a commit, each with the variant that first applies
// the queued invalidation of its own line; by the early rules a load or
// store issued early passes no access to its own location, depends on no
// value the passed loads return and writes no register they read or
// write; so each reads and writes only its own line's LOC, c's own entry
// and queue entry of that line, and registers the other does not touch,
// and either order ends in the same state (the pc passes instructions
// issued early, and a postponed rcu_read_lock is taken by whichever comes
// first). Each stays enabled when the other is taken: an in-order plain
// load never waits, a plain store issued early stays issuable when fewer
// instructions before it are left, and a commit of a plain entry waits
// only for older entries of its line (none is added: a store to it cannot
// pass it) and, in TSO, for the older entries, which c's I-free moves only
// commit. That last would break backward commutation for a postponed
// store, whose move with its own commit appears only once the older
// entries have committed: in TSO a CPU with stores buffered and a
// postponed store among its moves joins whole (partInfoOf). A CPU's instructions that the same macro may perform (a
// postponed store k and a later load or store j taken with it) are kept
// together: I_c holds both or neither (coupled).
//
// Grace periods. A partial CPU is pinned when I_c holds its in-order
// instruction: it then performs nothing in order along I-free paths, so a
// pinned CPU inside a read-side section stays inside (an rcu_read_unlock
// cannot be passed or issued early when the program waits for grace
// periods) and one before its synchronize_rcu stays before it; with a
// pending entry in I_c it keeps its store buffer non-empty, which keeps a
// CPU with read-side sections from reporting (one without any reports at
// once, stores buffered or not, and so never owes a report the search
// sees: qsDrains). Such CPUs are stuck (they cannot report along I-free
// paths) and keep a grace period
// possible, as a CPU of P does in persistentset.go; other partial CPUs
// are neither. A CPU that is not stuck may become quiescent along an
// I-free path (committing its other entries, outside any section), after
// which a move of T appending a store or taking rcu_read_lock makes it
// non-quiescent again: such a move counts as delaying it whatever its
// state at s (unless no grace period waits for the CPU to drain:
// buffersUnseen). A partial CPU starts no grace period along I-free paths
// when it is pinned; when it is not, the early rules keep every
// instruction of I_c after its pc, so a synchronize_rcu it could reach
// in order lies past one of them: its own grace periods do not meet the
// moves of T either (the others' are the conflicts'). The I-free future
// of a partial CPU observes its queue only where it may start a grace
// period: its loads and stores observe only the entries of their own
// lines (the lazy variants of those moves), which its line conflicts
// cover.
//
// SRCU (srcu.go; persistentset.go's "SRCU" for what its state adds). A
// partial CPU's class also holds srcu_read_lock (its index feeding no
// address, as for a load), srcu_read_unlock and synchronize_srcu, but a
// partial CPU performs no SRCU operation along I-free paths. SRCU
// operations are performed in order only (early issue passes none, and
// nothing is issued early past one at the pc), and the pc passes no
// instruction of I_c not yet performed, so a CPU joins whole when it
// could reach one in order before such an instruction (srcuLeft: in
// straight-line code, one between its pc and the first of them; with a
// branch or jump, any reachable). So along I-free paths a partial CPU
// opens and closes no section and re-adds no CPU; its loads, stores and
// commits touch SRCU's state only through the sections values carry (in
// LOC of their lines, which the line conflicts cover) and through its
// buffer and queue (its quiescence: delays and arrivals, as for RCU). An
// SRCU operation in T is its CPU's in-order instruction (pinned), with
// the footprint persistentset.go gives it (srcuFoot, changedOnly); a
// grace period's start stays unknown. Pinned at an SRCU operation, the
// CPU's I-free moves are commits of its other entries only (nothing is
// issued early past it): they touch no SRCU state but its quiescence,
// and only ever let it report sooner, so they enable and never disable
// an srcu_read_lock's late-section wait, and either order ends in the
// same state; an I-move that opens or closes a section counts as
// delaying its CPU, as a store does. A CPU of T waiting in an SRCU grace
// period keeps it unended along I-free paths as srcuHold says, with the
// partial CPUs counted as moving (their commits may drain them) but
// unlocking nothing; a closer of an open section it waits for joins
// pinned when it can (its in-order instruction then stays unperformed,
// so it unlocks nothing either), else whole. With srcuStays, a CPU of T
// inside a section of every synchronised domain is stuck (srcuInside):
// partial ones too, as they unlock nothing along I-free paths.
//
// Forward commutation takes, of an I-move with lazy variants, the one
// that applies its line's queued invalidation: an I-free move of its CPU
// that applies the whole queue first (a report after applying it) leaves
// only that variant, and either order ends in the same state.
//
// What a partial CPU may do along I-free paths (partFutOf): pinned, the
// loads and stores it may issue early (those after its pc before the first
// other instruction) and the commits of its entries, outside I_c; not
// pinned, everything from its pc on outside I_c, with any grace period
// it may start.

// partInfo is what the step-level closure knows of a CPU's moves at s.
type partInfo struct {
	eligible bool
	ids      []uint64  // per move (w.cpuMvs[c]): the instructions it performs as its own
	enabled  uint64    // the instructions some move performs
	exec     uint64    // the instructions its in-order moves perform
	coupled  []uint64  // per instruction: those a macro may perform with it
	foots    []setFoot // per move: its footprint (curFoot of the move alone)
	delay    []bool    // per move: it appends a store or takes rcu_read_lock
	known    []bool    // per move: foots holds its footprint (computed on first use)
	queued   uint64    // the lines other CPUs hold queued invalidations of
}

// or adds g's resources to f (a footprint of several moves is the union
// of theirs: curFoot and movesFoot only ever add). srcu stays: it is
// about one move (changedOnly), never a union.
func (f *setFoot) or(g *setFoot) {
	f.locR |= g.locR
	f.locW |= g.locW
	f.arrive |= g.arrive
	f.remove |= g.remove
	f.observe = f.observe || g.observe
	f.delays = f.delays || g.delays
	f.drains = f.drains || g.drains
	f.startSens = f.startSens || g.startSens
	f.waitsGP = f.waitsGP || g.waitsGP
	f.gpDep = f.gpDep || g.gpDep
	f.global = f.global || g.global
	f.srcuCPUs |= g.srcuCPUs
}

// moveIDs returns the instructions move mv of CPU c performs as its own,
// and false for a move that performs none (a report, an invalidation) or
// applies every queued invalidation first.
func (e *explorer) moveIDs(s *State, c int, mv macro, w *worker) (ids uint64, inOrder bool, ok bool) {
	m := e.m
	if mv.pre == preAll {
		return 0, false, false
	}
	if !mv.lock && mv.store != 1 {
		// No in-order prefix: the instructions are the macro's own.
		if mv.store > 1 {
			ids |= 1 << (mv.store - 2)
		}
		switch mv.step.Kind {
		case StepExec:
			if m.finished(s, c) || mv.store > 1 {
				break // after an early store the pc may have moved: below
			}
			return ids | 1<<s.cpus[c].pc, true, true
		case StepEarly, StepCommit:
			return ids | 1<<mv.step.Arg, false, true
		default:
			return 0, false, false
		}
		ids = 0
	}
	t := w.load(&w.ppSc, s)
	exec := func() { m.apply(t, Step{Kind: StepExec, CPU: uint8(c)}, nil) }
	if mv.lock {
		if m.finished(t, c) || m.code(c)[t.cpus[c].pc].Op != OpRCULock {
			return 0, false, false
		}
		exec()
	}
	switch {
	case mv.store == 1:
		if m.finished(t, c) {
			return 0, false, false
		}
		ids |= 1 << t.cpus[c].pc
		inOrder = true
		exec()
	case mv.store > 1:
		ids |= 1 << (mv.store - 2)
		m.apply(t, Step{Kind: StepEarly, CPU: uint8(c), Arg: mv.store - 2}, nil)
	}
	switch mv.step.Kind {
	case StepExec:
		if m.finished(t, c) {
			return 0, false, false
		}
		ids |= 1 << t.cpus[c].pc
		inOrder = true
	case StepEarly, StepCommit:
		ids |= 1 << mv.step.Arg
	default:
		return 0, false, false
	}
	return ids, inOrder, true
}

// partClass reports whether instruction in of CPU c is of the class a
// partial CPU may hold (see above).
func (e *explorer) partClass(c int, in *Instr) bool {
	m := e.m
	switch in.Op {
	case OpLoad:
		if in.Access != Once && in.Access != Plain || in.Addr == nil || in.Addr.Op != EConst {
			return false
		}
		return m.Mode != ARM || !in.HasDst || m.fut.addrRegs[c]&(1<<in.Dst) == 0
	case OpStore:
		return (in.Access == Once || in.Access == Plain) && in.Addr != nil && in.Addr.Op == EConst
	case OpRCULock, OpRCUUnlock, OpSyncRCU:
		return true
	case OpSRCULock:
		// Its index register feeds no address (as for a load, above).
		return m.Mode != ARM || !in.HasDst || m.fut.addrRegs[c]&(1<<in.Dst) == 0
	case OpSRCUUnlock, OpSyncSRCU:
		return true
	}
	return false
}

// srcuOp reports whether in is an SRCU lock, unlock or grace period:
// early issue passes none of them (srcu.go).
func srcuOp(in *Instr) bool {
	return in.Op == OpSRCULock || in.Op == OpSRCUUnlock || in.Op == OpSyncSRCU
}

// partInfoOf computes CPU c's partInfo at s into pi.
func (e *explorer) partInfoOf(s *State, c int, pi *partInfo, live uint64, rereads []uint64, w *worker) {
	m := e.m
	cs := &s.cpus[c]
	pi.eligible = false
	pi.ids = pi.ids[:0]
	pi.enabled, pi.exec = 0, 0
	mvs := w.cpuMvs[c]
	if len(mvs) == 0 || cs.fault || cs.syncWait || cs.acqWait || cs.misspec != 0 {
		return
	}
	for _, en := range cs.sb {
		if en.Kind != EntryPlain {
			return
		}
	}
	if m.Mode != ARM && len(cs.sb) > 0 {
		// TSO commits in order: a postponed store taken with its own
		// commit is a move only once the older entries have committed,
		// and those commits may be I-free, so an I-move would appear
		// along an I-free path that performs instructions no move at s
		// performs (backward commutation fails: a postponed store k
		// and its CPU's next load j are coupled, and the move taking k
		// with its commit is not there to stand for the one taking k
		// alone). Such a CPU joins whole.
		for _, mv := range mvs {
			if mv.store != 0 {
				return
			}
		}
	}
	code := m.code(c)
	left := uint64(0)
	if int(cs.pc) < len(code) {
		left = m.fut.reach[c][cs.pc] &^ cs.early
	}
	for l := left; l != 0; l &= l - 1 {
		k := bits.TrailingZeros64(l)
		if k >= len(code) || !e.partClass(c, &code[k]) {
			return
		}
	}
	pi.foots, pi.delay, pi.known = pi.foots[:0], pi.delay[:0], pi.known[:0]
	for _, mv := range mvs {
		ids, inOrder, ok := e.moveIDs(s, c, mv, w)
		if !ok {
			return
		}
		pi.ids = append(pi.ids, ids)
		pi.enabled |= ids
		if inOrder {
			pi.exec |= ids
		}
		pi.foots = append(pi.foots, setFoot{})
		pi.known = append(pi.known, false) // computed as partStepOf needs it
		d := mv.lock || mv.store != 0
		for l := ids; l != 0; l &= l - 1 {
			if k := bits.TrailingZeros64(l); k < len(code) && (code[k].Op == OpStore || code[k].Op == OpRCULock || srcuOp(&code[k])) && mv.step.Kind != StepCommit {
				d = true
			}
		}
		pi.delay = append(pi.delay, d)
	}
	pi.queued = queuedElsewhere(s, c)
	// Coupling: a postponed store k may be taken with any later
	// instruction of its CPU (its next one, one issued early after it).
	pi.coupled = grow(pi.coupled, len(code))
	for k := range code {
		pi.coupled[k] = 1 << k
	}
	var later uint64 // the instructions left after k
	for k := len(code) - 1; k >= 0; k-- {
		if left&(1<<k) == 0 {
			continue
		}
		if code[k].Op == OpStore {
			pi.coupled[k] |= later
			for l := later; l != 0; l &= l - 1 {
				pi.coupled[bits.TrailingZeros64(l)] |= 1 << k
			}
		}
		later |= 1 << k
	}
	pi.eligible = true
}

// partFutOf is what partial CPU d, holding instructions ids in T, may do
// along I-free paths (see above), and the lines it may access there;
// srcuLeft when it may perform an SRCU lock, unlock or grace period there
// (then it joins whole: see "SRCU" above).
func (e *explorer) partFutOf(s *State, d int, ids uint64, pi *partInfo, queued uint64) (f futFoot, access uint64, pinned, srcuLeft bool) {
	m := e.m
	ds := &s.cpus[d]
	code := m.code(d)
	pinned = pi.exec != 0 && pi.exec&^ids == 0 || m.finished(s, d)
	var instrs uint64
	switch {
	case m.finished(s, d):
	case pinned:
		// The in-order instruction (after a postponed lock) is in ids:
		// what it may issue early lies before the next synchronize_rcu
		// or SRCU operation, which nothing passes (nothing passes an
		// SRCU operation at the pc either).
		first := bits.TrailingZeros64(pi.exec)
		if !srcuOp(&code[first]) {
			for k := first + 1; k < len(code) && code[k].Op != OpSyncRCU && !srcuOp(&code[k]); k++ {
				instrs |= 1 << k
			}
		}
	default:
		instrs = m.fut.reach[d][ds.pc]
		if m.hasSRCU() {
			srcuLeft = e.srcuInOrder(s, d, ids)
		}
	}
	instrs &^= ds.early | ids
	sync := false
	for l := instrs; l != 0; l &= l - 1 {
		k := bits.TrailingZeros64(l)
		f.locR |= m.fut.instrReads[d][k]
		f.writes |= m.fut.instrWrites[d][k]
		if code[k].Op == OpSyncRCU {
			sync = true
		}
	}
	f.gpStart = sync
	for _, en := range ds.sb {
		if ids&(1<<en.Instr) == 0 {
			f.writes |= 1 << en.Loc
		}
	}
	access = f.locR | f.writes
	f.locW = f.writes
	if m.Mode == ARM {
		f.rel = (m.fut.futureRereads[d][ds.pc] | f.writes) & queued
		f.locW |= iqMask(ds.iq) | f.rel
		// Its loads and stores observe only the queue entries of their
		// own lines (their lazy variants); a grace period drains it.
		f.observe = sync
	}
	return f, access, pinned, srcuLeft
}

// srcuInOrder reports whether CPU d may perform an SRCU operation along
// a path that performs none of the instructions ids: SRCU operations are
// performed in order only, and the pc passes no instruction of ids not
// yet performed (that would perform it), so in straight-line code only
// those from the pc to the first such instruction count. With a branch
// or jump there, every one reachable does.
func (e *explorer) srcuInOrder(s *State, d int, ids uint64) bool {
	m := e.m
	ds := &s.cpus[d]
	code := m.code(d)
	if m.finished(s, d) {
		return false
	}
	reach := m.fut.reach[d][ds.pc]
	straight := true
	for l := reach; l != 0; l &= l - 1 {
		if k := bits.TrailingZeros64(l); k < len(code) && (code[k].Op == OpBranch || code[k].Op == OpJump) {
			straight = false
			break
		}
	}
	for k := int(ds.pc); k < len(code); k++ {
		if straight && ids&(1<<k) != 0 && ds.early&(1<<k) == 0 {
			return false
		}
		if reach&(1<<k) != 0 && srcuOp(&code[k]) {
			return true
		}
	}
	return false
}

// idAccess returns the lines CPU c's instructions ids access (and their
// entries in its buffer).
func (e *explorer) idAccess(s *State, c int, ids uint64) uint64 {
	m := e.m
	var out uint64
	for l := ids; l != 0; l &= l - 1 {
		k := bits.TrailingZeros64(l)
		if k < len(m.fut.instrReads[c]) {
			out |= m.fut.instrReads[c][k] | m.fut.instrWrites[c][k]
		}
	}
	for _, en := range s.cpus[c].sb {
		if ids&(1<<en.Instr) != 0 {
			out |= 1 << en.Loc
		}
	}
	return out
}

// partialSet looks for a step-level persistent set with fewer moves than
// limit, from every seed instruction of every eligible CPU; it returns
// its moves in w.partOut.
func (e *explorer) partialSet(s *State, w *worker, limit int, needGP bool, gpCPUs uint32, live uint64, rereads []uint64) bool {
	n := len(s.cpus)
	w.pinfo = grow(w.pinfo, n)
	any := false
	for c := range s.cpus {
		e.partInfoOf(s, c, &w.pinfo[c], live, rereads, w)
		any = any || w.pinfo[c].eligible
	}
	if !any {
		return false
	}
	w.pids = grow(w.pids, n)
	for len(w.psteps) < n {
		w.psteps = append(w.psteps, nil)
	}
	for c := 0; c < n; c++ {
		w.psteps[c] = w.psteps[c][:0]
	}
	w.pfoot = grow(w.pfoot, n)
	w.pfut = grow(w.pfut, n)
	w.bestIDs = grow(w.bestIDs, n)
	best := limit
	var bestWhole uint32
	found := false
	for seed := range s.cpus {
		pi := &w.pinfo[seed]
		if !pi.eligible {
			continue
		}
		for l := pi.enabled; l != 0; l &= l - 1 {
			k := bits.TrailingZeros64(l)
			whole, moves, ok := e.partClosure(s, w, seed, uint64(1)<<k, needGP, gpCPUs, live, rereads, best)
			if ok && moves < best {
				best, bestWhole, found = moves, whole, true
				copy(w.bestIDs, w.pids)
			}
		}
	}
	if !found {
		return false
	}
	w.partOut = w.partOut[:0]
	for c := range s.cpus {
		switch {
		case bestWhole&(1<<c) != 0:
			w.partOut = append(w.partOut, w.cpuMvs[c]...)
		case w.bestIDs[c] != 0:
			for i, mv := range w.cpuMvs[c] {
				if w.pinfo[c].ids[i]&w.bestIDs[c] != 0 {
					w.partOut = append(w.partOut, mv)
				}
			}
		}
	}
	return true
}

// partClosure grows the set from instruction seed of CPU c0 until no
// CPU's possible future (its I-free future, for a partial one) conflicts
// with a move of it (see above). It leaves the partial CPUs' instructions
// in w.pids and returns the CPUs that joined whole and the number of
// moves. It gives up (false) once the CPUs that joined whole have bound
// moves or more: they never leave, so the set cannot end with fewer, and
// partialSet keeps only a set smaller than bound.
func (e *explorer) partClosure(s *State, w *worker, c0 int, seed uint64, needGP bool, gpCPUs uint32, live uint64, rereads []uint64, bound int) (uint32, int, bool) {
	n := len(s.cpus)
	ids := w.pids
	for c := range ids {
		ids[c] = 0
	}
	ids[c0] = seed
	var whole uint32
	stuckW := func(x int) bool { return s.cpus[x].rcuDepth > 0 || len(s.cpus[x].sb) > 0 }
	var pinnedM uint32
	for changed := true; changed; {
		changed = false
		if setMoves(w, whole, -1) >= bound {
			return 0, 0, false
		}
		// Partial CPUs: close their instructions under the moves and the
		// coupling, and compute their footprints and I-free futures.
		pinnedM = 0
		var stuck uint32
		for c := 0; c < n; c++ {
			if whole&(1<<c) != 0 {
				if stuckW(c) {
					stuck |= 1 << c
				}
				continue
			}
			if ids[c] == 0 {
				continue
			}
			pi := &w.pinfo[c]
			if !pi.eligible {
				whole |= 1 << c
				changed = true
				continue
			}
			ps := w.partStepOf(e, s, c, ids[c], live, rereads)
			ids[c] = ps.out
			if ps.setFoot {
				w.pfoot[c] = ps.foot
			}
			switch ps.kind {
			case partJoins:
				whole |= 1 << c
				changed = true
				continue
			case partGlobal:
				return 0, 0, false
			}
			w.pfut[c] = ps.fut
			if ps.pinned {
				pinnedM |= 1 << c
			}
			if ps.stuck {
				stuck |= 1 << c
			}
		}
		if changed {
			continue
		}
		inT := func(c int) bool { return whole&(1<<c) != 0 || ids[c] != 0 }
		for c := 0; c < n; c++ {
			if inT(c) {
				stuck |= w.srcuIn & (1 << c) // (srcuInside: none unlocks along I-free paths)
			}
		}
		// Conflicts between the moves of T and the others' futures.
		for c := 0; c < n && !changed; c++ {
			if !inT(c) {
				continue
			}
			cf := &w.pfoot[c]
			if whole&(1<<c) != 0 {
				cf = e.curOf(s, c, w)
			}
			if cf.global {
				return 0, 0, false
			}
			for d := 0; d < n && !changed; d++ {
				if d == c || whole&(1<<d) != 0 {
					continue
				}
				df := &w.fut[d]
				if ids[d] != 0 {
					df = &w.pfut[d]
				}
				if !e.conflictsStuck(s, stuck, c, d, cf, df, live, rereads, w.srcuStill) {
					continue
				}
				changed = true
				// Join with instructions that make the conflict go: those
				// accessing a line the move touches first, then its in-order
				// one (pinning it), each performed by a move at s; else whole.
				pi := &w.pinfo[d]
				if !pi.eligible {
					whole |= 1 << d
					continue
				}
				cand := ids[d]
				for {
					left := pi.enabled &^ cand
					next := uint64(0)
					lines := cf.locR | cf.locW
					for l := left; l != 0; l &= l - 1 {
						k := bits.TrailingZeros64(l)
						if e.idAccess(s, d, 1<<k)&lines != 0 {
							next = 1 << k
							break
						}
					}
					if next == 0 {
						next = left & pi.exec
					}
					if next == 0 {
						cand = 0
						break
					}
					cand |= next
					f, _, _, _ := e.partFutOf(s, d, cand, pi, pi.queued)
					if !e.conflictsStuck(s, stuck, c, d, cf, &f, live, rereads, w.srcuStill) {
						break
					}
				}
				if cand == 0 {
					whole |= 1 << d
				} else {
					ids[d] = cand
				}
			}
		}
		if changed {
			continue
		}
		// Grace periods, as in closure: keep one possible when a move of
		// T depends on it; the end of one a CPU of T waits for.
		dep := false
		for c := 0; c < n; c++ {
			switch {
			case whole&(1<<c) != 0:
				dep = dep || e.curOf(s, c, w).gpDep
			case ids[c] != 0:
				dep = dep || w.pfoot[c].gpDep
			}
		}
		keeps := whole | pinnedM
		if needGP && dep && keeps&gpCPUs == 0 {
			x := bits.TrailingZeros32(gpCPUs)
			whole |= 1 << x
			changed = true
			continue
		}
		for c := 0; c < n && !changed; c++ {
			if whole&(1<<c) == 0 || !e.curOf(s, c, w).waitsGP {
				continue
			}
			if s.cpus[c].gpDomain != 0 {
				// An SRCU grace period: srcuHold, with the partial CPUs
				// counted as moving (they may commit along I-free paths)
				// but unlocking nothing (none performs an SRCU operation
				// there: srcuLeft).
				var partial uint32
				for x := 0; x < n; x++ {
					if ids[x] != 0 {
						partial |= 1 << x
					}
				}
				if x, closer, ok := e.srcuHold(s, whole, whole|partial, c); !ok {
					// A closer of an open section joins pinned, when it
					// can: then it unlocks nothing along I-free paths.
					if pi := &w.pinfo[bits.TrailingZeros32(x)]; bits.OnesCount32(x) == 1 && pi.eligible && pi.exec != 0 && closer {
						ids[bits.TrailingZeros32(x)] = pi.exec
					} else {
						whole |= x
					}
					changed = true
				}
				continue
			}
			owe := s.cpus[c].gpWait
			if owe&stuck != 0 {
				continue
			}
			var stuckOwers uint32
			for x := 0; x < n; x++ {
				if owe&(1<<x) != 0 && stuckW(x) {
					stuckOwers |= 1 << x
				}
			}
			switch {
			case stuckOwers != 0:
				whole |= stuckOwers & -stuckOwers
				changed = true
			case owe&^whole != 0:
				whole |= owe
				changed = true
			}
		}
	}
	moves := 0
	for c := 0; c < n; c++ {
		switch {
		case whole&(1<<c) != 0:
			moves += len(w.cpuMvs[c])
			ids[c] = 0
		case ids[c] != 0:
			for i := range w.cpuMvs[c] {
				if w.pinfo[c].ids[i]&ids[c] != 0 {
					moves++
				}
			}
		}
	}
	return whole, moves, true
}

// partStep is what partClosure's first phase finds for an eligible CPU c
// holding instructions in: the instructions after closing them under its
// moves and coupling (out), and whether it then joins whole, has a move
// the footprint does not know, or stays partial with footprint foot,
// I-free future fut, pinned or not, stuck or not. It depends on nothing
// else, so partialSet computes it once per CPU and set of instructions
// for all its seeds (partStepOf).
type partStep struct {
	in, out uint64
	kind    uint8 // partStays, partJoins, partGlobal
	setFoot bool  // foot is what the phase leaves in w.pfoot[c]
	foot    setFoot
	fut     futFoot
	pinned  bool
	stuck   bool
}

const (
	partStays uint8 = iota
	partJoins
	partGlobal
)

// partStepOf returns partStep of CPU c for instructions in, from w's
// memo of the state being expanded (reset by partialSet) or computed.
func (w *worker) partStepOf(e *explorer, s *State, c int, in uint64, live uint64, rereads []uint64) *partStep {
	for i := range w.psteps[c] {
		if w.psteps[c][i].in == in {
			return &w.psteps[c][i]
		}
	}
	w.psteps[c] = append(w.psteps[c], e.partStepFor(s, w, c, in, live, rereads))
	return &w.psteps[c][len(w.psteps[c])-1]
}

// partStepFor computes partStep of eligible CPU c for instructions in.
func (e *explorer) partStepFor(s *State, w *worker, c int, in uint64, live uint64, rereads []uint64) partStep {
	m := e.m
	pi := &w.pinfo[c]
	ps := partStep{in: in}
	ids := in
	for grown := true; grown; {
		grown = false
		for _, mid := range pi.ids {
			if mid&ids != 0 && mid&^ids != 0 {
				ids |= mid
				grown = true
			}
		}
		for l := ids; l != 0; l &= l - 1 {
			if k := bits.TrailingZeros64(l); k < len(pi.coupled) && pi.coupled[k]&^ids != 0 {
				ids |= pi.coupled[k]
				grown = true
			}
		}
	}
	ps.out = ids
	if ids&^pi.enabled != 0 {
		// A coupled instruction no move performs now: it may become
		// enabled along an I-free path.
		ps.kind = partJoins
		return ps
	}
	var foot setFoot
	nt, delay := 0, false
	for i := range w.cpuMvs[c] {
		if pi.ids[i]&ids != 0 {
			if !pi.known[i] {
				if len(w.cpuMvs[c]) == 1 {
					pi.foots[i] = *e.curOf(s, c, w) // persistentSet's, of the same move
				} else {
					pi.foots[i] = e.curFoot(s, c, i, i+1, live, rereads, w)
				}
				pi.known[i] = true
			}
			foot.or(&pi.foots[i])
			delay = delay || pi.delay[i]
			nt++
		}
	}
	if nt == len(w.cpuMvs[c]) {
		ps.kind = partJoins
		return ps
	}
	ps.foot, ps.setFoot = foot, true
	if foot.global {
		ps.kind = partGlobal
		return ps
	}
	f, access, pinned, srcuLeft := e.partFutOf(s, c, ids, pi, pi.queued)
	if access&e.idAccess(s, c, ids) != 0 || srcuLeft {
		ps.kind = partJoins
		return ps
	}
	ps.fut = f
	if pinned {
		ps.pinned = true
		cs := &s.cpus[c]
		stuckSB := false
		for _, en := range cs.sb {
			stuckSB = stuckSB || ids&(1<<en.Instr) != 0
		}
		if cs.rcuDepth > 0 && !m.finished(s, c) || stuckSB {
			ps.stuck = true
		}
	}
	if !ps.stuck && delay && !m.buffersUnseen(c) {
		// It may become quiescent along an I-free path, and a
		// store or rcu_read_lock of T then delays it.
		ps.foot.delays = true
	}
	return ps
}
