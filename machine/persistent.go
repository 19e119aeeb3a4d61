package machine

// CPU-level persistent sets. From a state s the search may take only the
// moves of one CPU c, leaving every other CPU's steps for later, when no
// step any other CPU can take from s on — in any future, before c's moves —
// interferes with c's moves. Then every execution from s that starts with
// other CPUs' steps can be reordered so that c's move comes first, reaching
// the same state or one that simulates it (see below), so no outcome,
// deadlock or fault is lost. (The state graph has no cycles, so the usual
// proviso against ignoring a CPU forever is not needed.)
//
// What another CPU d may still do is summarised statically from its
// program (the locations it may still load or write from its pc on, and
// whether it may still start a grace period) and from its store buffer.
// c's moves interfere with d's future when:
//  1. c loads a location d may write (the value read depends on the order);
//  2. c writes (commits, reserves with an exclusive RMW, or writes at once)
//     a location d may load or write (values read, coherence order,
//     reservations);
//  3. c writes a line d holds in S and the invalidation queued at d stays
//     (d may still load the line, or another CPU may): d's barriers, acquires
//     and reports wait for it — unless d has finished and no grace period can
//     want its report;
//  4. a move of c depends on its own invalidation queue (a barrier, an
//     acquire, an RMW, a lock operation, a load whose value feeds an
//     address, or a variant that applies queued entries first) and d may
//     write a line c holds in S (d's commit would queue an entry at c);
//  5. a move of c applies queued invalidations (drops copies to I) of
//     lines d may load: whether d's miss then gets E or S depends on the
//     order;
//  6. a move of c starts or ends a grace period, or opens an SRCU section,
//     or closes one that another CPU opened or may close (these reach
//     every CPU; see "Closing one's own section" below);
//  7. a move of c appends to its store buffer or enters a read-side section
//     while a grace period is running or may still start: that delays c's
//     quiescent state, and a grace period starting before it would not
//     wait for it — unless no grace period ever waits for c to drain
//     (buffersUnseen), when c reports whatever it buffers;
//  8. d may write a line that decides which moves c has (waitFoot): the
//     line of one of c's store-buffer entries (d's reservation holds the
//     commit back), of c's next lock, RMW or trylock (whether it waits or
//     fails), of a conditional RMW whose failure lets later accesses go
//     early (futureCond), or the line c waits for. Nor may c wait for the
//     end of a grace period, which the other CPUs' reports enable.
//
// Rule 8 is what the reordering needs of c itself: the first move of c
// on a path whose other moves are d's must be one of c's moves at s. A
// step of c that only a move of d enables is none, and it need not
// commute with c's moves at s. TestReferenceRandom found the case: P1's
// store waited for P0's xchg_release to commit, so P1's fully ordered
// atomic_add_unless could only run as a failing read of its stale copy
// of y (succeeding, it would wait for the store buffer to drain), and
// that read was P1's only move. After P0's commit, P1's store commits
// and the RMW reads the new y and succeeds: an outcome no path starting
// with the failing read reaches.
//
// Where no rule applies, c's move and d's steps commute: they read and
// write disjoint things, and their effects on caches are either the same in
// both orders or differ only in ways the lazy-invalidation argument already
// covers (an invalidation queued earlier or later at a CPU that does not
// look at its queue in between).

// Closing one's own section. An srcu_read_unlock that can close only
// sections its own CPU c opened, which no other CPU's unlock can close
// (Machine.ownUnlock), is no rule-6 move. What it changes outside c is
// the open sections and, for each grace period whose gpSecs holds a
// section it matches, c's bit in gpWait (srcuUnlock: opener and closer
// are c). Another CPU's step can observe that only as a grace period's
// start or end or another unlock of the section, and:
//   - an end of a grace period waiting for the section is not enabled
//     before the unlock (the section is open), along any path of other
//     CPUs' steps; one not waiting for it is not touched by the unlock;
//   - a start before the unlock records the section in gpSecs and makes
//     c owe a report, which c, inside it, cannot give until the unlock
//     (re-adding c, already owing, adds nothing); a start after it does
//     not record it and makes c owe a report too, which c can give at
//     once when drained (or when it need not drain). Either way c owes
//     the grace period exactly until it is outside its sections and
//     drained after the unlock, and the two states differ only in a
//     closed section in gpSecs, which no rule reads (a section is an
//     instruction: it never reopens; the key leaves it out with
//     deadSections);
//   - no other CPU's unlock can close the section (the condition), and
//     which sections c's unlock matches depends on c's registers and pc
//     only (laterUnlock then asks about c's own unlocks).
// So the unlock commutes with every step of the other CPUs up to closed
// sections in gpSecs, and executions reordered around it reach the same
// outcomes, deadlocks (an open section is what makes them) and faults.
// Measured on litmusgen's GraceFamilies (smpscope check --mode arm): the
// SRCU read-read G+G+R+R+R+R closed by a writer fell from 584,945 states
// to 457,528 with this rule, and to 408,049 with its step-level
// counterpart too (persistentset.go, "SRCU", Starts); the SRCU
// load→store G+G+R+R+R+R+R+R from 95,486 to 22,683 with both.

// footprint summarises what a CPU's moves from a state touch.
type footprint struct {
	reads, writes uint64 // locations loaded; locations written or reserved
	drops         uint64 // lines whose queued invalidations a move applies
	queue         bool   // some move depends on the CPU's own invalidation queue
	delays        bool   // some move appends to the store buffer or enters a reader
	global        bool   // some move starts or ends a grace period or touches SRCU
}

// persistentCPU looks for a CPU whose moves (w.cpuMvs) form a persistent
// set.
func (e *explorer) persistentCPU(s *State, w *worker) (int, bool) {
	gpPossible := e.gpPossible(s)
	w.reads = w.reads[:0]
	for d := range s.cpus {
		w.reads = append(w.reads, e.m.fut.futureReads[d][s.cpus[d].pc])
	}
	for c := range s.cpus {
		mvs := w.cpuMvs[c]
		if len(mvs) == 0 {
			continue
		}
		fp, ok := e.footprintOf(s, c, mvs, w)
		if !ok || fp.global || (fp.delays && gpPossible && !e.m.buffersUnseen(c)) {
			continue
		}
		// Rule 8: what decides c's moves must stay as it is.
		var decides setFoot
		e.waitFoot(s, c, &decides)
		if decides.waitsGP {
			continue
		}
		if e.interferes(s, c, fp, decides.locR, gpPossible, w.reads) {
			continue
		}
		return c, true
	}
	return 0, false
}

// gpPossible reports whether a grace period is running or may still start.
func (e *explorer) gpPossible(s *State) bool {
	m := e.m
	if !m.hasSync && !m.hasSyncSRCU {
		return false
	}
	for c := range s.cpus {
		if s.cpus[c].syncWait || m.fut.futureSync[c][s.cpus[c].pc] {
			return true
		}
	}
	return false
}

// footprintOf summarises CPU c's moves mvs from s. It returns false when a
// move is one it does not know how to summarise.
func (e *explorer) footprintOf(s *State, c int, mvs []macro, w *worker) (fp footprint, ok bool) {
	m := e.m
	cs := &s.cpus[c]
	arm := m.Mode == ARM
	// A move that guesses (a read or store issued past an unresolved
	// branch, or an access past a fully ordered cmpxchg guessed to fail,
	// early.go) performs an instruction that executions going the other
	// way (or in which the cmpxchg succeeds) never perform, unlike every other
	// move of c, whose instruction every execution performs at some
	// point. Executions whose first step of c is one of c's moves are
	// covered by reordering; with guesses, those that go the other way
	// start with c's in-order step, so that step must be among the
	// moves: when it is not enabled now (it waits for another CPU, which
	// may enable it), the guesses alone are no persistent set.
	guess, exec := false, false
	defer func() {
		if guess && !exec {
			ok = false
		}
	}()
	for _, mv := range mvs {
		if mv.store != 0 || mv.lock {
			return fp, false // only while a grace period may wait for it: rule 7
		}
		switch mv.pre {
		case preOne:
			fp.drops |= 1 << mv.preLoc
			fp.queue = true
		case preAll:
			for _, q := range cs.iq {
				fp.drops |= 1 << q.Loc
			}
			fp.queue = true
		}
		switch mv.step.Kind {
		case StepCommit:
			for _, en := range cs.sb {
				if en.Instr == mv.step.Arg && en.Kind != EntryWmb {
					fp.writes |= 1 << en.Loc
				}
			}
		case StepEarly:
			cand, _ := m.earlyCand(s, c, int(mv.step.Arg))
			l, kind := cand.loc, cand.kind
			guess = guess || cand.guess >= 0
			in := &m.code(c)[mv.step.Arg]
			switch {
			case kind == earlyLoad:
				fp.reads |= 1 << l
				if arm && in.HasDst && m.fut.addrRegs[c]&(1<<in.Dst) != 0 {
					fp.queue = true
				}
			case kind == earlyRMW || kind == earlyAcquire:
				// As execFootprint: an acquire depends on the queue, an
				// RMW or lock also writes (reserves) its line.
				fp.reads |= 1 << l
				fp.queue = true
				if in.Op != OpLoad {
					fp.writes |= 1 << l
					fp.delays = true
				}
			case in.Op == OpStore:
				fp.delays = true
			}
		case StepInvalidate:
			// A step of its own only without lazy invalidations.
			fp.drops |= 1 << mv.step.Arg
			fp.queue = true
		case StepReportQS:
			fp.global = true // only with applied invalidations: reports are otherwise eager
		case StepExec:
			exec = true
			if !e.execFootprint(s, c, &fp) {
				return fp, false
			}
			if !m.hasSRCUUnlock || !m.mayFoldSRCUUnlock(s, c) {
				continue
			}
			// Instructions folded after it: an unlock that may close
			// another CPU's section, or one another CPU may close,
			// reaches beyond the grace periods (rule 6).
			t := w.load(&w.sc, s)
			w.ev.Folded = w.ev.Folded[:0]
			e.perform(t, mv, &w.ev, func(Step) {})
			for _, i := range w.ev.Folded {
				if m.code(c)[i].Op == OpSRCUUnlock && !m.ownUnlock(c, i) {
					fp.global = true
				}
			}
			w.ev.Load, w.ev.Commit, w.ev.Applied = nil, nil, nil
		}
	}
	return fp, true
}

// execFootprint adds what performing CPU c's next instruction touches.
func (e *explorer) execFootprint(s *State, c int, fp *footprint) bool {
	m := e.m
	cs := &s.cpus[c]
	in := &m.code(c)[cs.pc]
	arm := m.Mode == ARM
	var l Loc
	if in.Addr != nil {
		var ok bool
		if l, ok = m.addr(in, cs.regs); !ok {
			return true // it faults, which ends every execution from here
		}
	}
	switch in.Op {
	case OpLoad:
		fp.reads |= 1 << l
		if arm && (in.Access == Acquire || in.HasDst && m.fut.addrRegs[c]&(1<<in.Dst) != 0) {
			fp.queue = true
		}
	case OpStore, OpUnlock:
		fp.delays = true
	case OpRMW, OpLock, OpTryLock:
		fp.reads |= 1 << l
		fp.writes |= 1 << l
		fp.delays = true
		fp.queue = fp.queue || arm
	case OpFence:
		if arm && m.fenceKind(in.Fence) != fenceNone && m.fenceKind(in.Fence) != fenceWrite {
			fp.queue = true
		}
	case OpRCULock:
		fp.delays = true
	case OpRCUUnlock:
	case OpSyncRCU, OpSyncSRCU, OpSRCULock, OpSRCUUnlock:
		fp.global = true
	default:
		return false
	}
	return true
}

// interferes reports whether some other CPU's possible future interferes
// with moves of CPU c summarised by fp (rules 1–5 above), or writes a
// line of decides, those that decide c's moves (rule 8).
func (e *explorer) interferes(s *State, c int, fp footprint, decides uint64, gpPossible bool, reads []uint64) bool {
	m := e.m
	arm := m.Mode == ARM
	// An invalidation queued at a CPU stays only if that CPU may still
	// load the line, or another CPU may and the line is written again
	// later (else the search applies it at once: perform). Later writes
	// are the instructions still to run and the store-buffer entries
	// beyond one per line (a move commits one).
	var future, pending, twice uint64
	for d := range s.cpus {
		future |= m.fut.futureWrites[d][s.cpus[d].pc]
		for _, en := range s.cpus[d].sb {
			if en.Kind == EntryWmb {
				continue
			}
			twice |= pending & (1 << en.Loc)
			pending |= 1 << en.Loc
		}
	}
	writtenAgain := future | twice
	stays := func(d int, l uint64) bool {
		if !e.on(redUnreadable) {
			return true // nothing is applied at once
		}
		var others uint64
		for x, r := range reads {
			if x != d {
				others |= r
			}
		}
		return m.drainReadsIn(s, d)&l != 0 || others&l != 0 && writtenAgain&l != 0
	}
	var heldC uint64 // lines c holds readable whose invalidations would stay
	for l := range s.cpus[c].cache {
		if bit := uint64(1) << l; s.cpus[c].cache[l].State != Invalid && stays(c, bit) {
			heldC |= bit
		}
	}

	for d := range s.cpus {
		if d == c {
			continue
		}
		ds := &s.cpus[d]
		writes := m.fut.futureWrites[d][ds.pc]
		for _, en := range ds.sb {
			if en.Kind != EntryWmb {
				writes |= 1 << en.Loc
			}
		}
		if fp.reads&writes != 0 || fp.writes&(reads[d]|writes) != 0 {
			return true // rules 1 and 2
		}
		if decides&writes != 0 {
			return true // rule 8
		}
		if !arm {
			continue
		}
		if fp.queue && writes&heldC != 0 {
			return true // rule 4
		}
		if fp.drops&reads[d] != 0 {
			return true // rule 5
		}
		// Rule 3: c's writes queue invalidations at d that stay.
		if fp.writes != 0 && (!m.finished(s, d) || gpPossible) {
			for l := range ds.cache {
				bit := uint64(1) << l
				if fp.writes&bit != 0 && ds.cache[l].State == Shared && stays(d, bit) {
					return true
				}
			}
		}
	}
	return false
}
