package machine

import "math/bits"

// The facts of an event that only people and pictures need: Apply derives
// them from the states before and after the step, so that the search,
// which applies steps by the million, never computes them. Every fact is
// a rule's finding (which entries a store waits behind, which
// invalidations a barrier could not have stopped); the words are
// scenarios/words'.

// explain fills ev's derived facts for the step that led from before to
// after. ev must have been recorded with explain set (so that it holds
// what each folded instruction did).
func (m *Machine) explain(before, after *State, ev *Event) {
	c := int(ev.Step.CPU)
	switch ev.Step.Kind {
	case StepExec, StepEarly:
		m.explainExec(before, after, c, ev)
	case StepCommit:
		m.explainCommit(before, after, c, ev)
	case StepReportQS:
		m.explainReport(before, after, c, ev)
	}
}

func (m *Machine) explainExec(before, after *State, c int, ev *Event) {
	if ev.Instr < 0 || ev.Fault != nil {
		return
	}
	in := &m.code(c)[ev.Instr]
	arm := m.Mode == ARM
	if ev.Step.Kind == StepEarly {
		ev.Skipped = m.skippedAccesses(before, c, ev.Instr)
	}
	switch in.Op {
	case OpFence, OpAssign, OpBranch, OpJump, OpRCULock, OpRCUUnlock, OpSRCULock, OpSRCUUnlock:
		f := m.instrFact(before, c, ev.Instr)
		ev.Fact = &f
	case OpLoad:
		m.explainLoad(before, c, ev)
	case OpStore, OpUnlock:
		m.explainStore(before, after, c, ev)
	case OpSyncRCU, OpSyncSRCU:
		gp := &GracePeriod{SRCU: in.Op == OpSyncSRCU}
		if gp.SRCU {
			gp.Domain, _ = m.addr(in, before.cpus[c].regs)
			if ev.GPStart {
				gp.Sections = m.sections(after.cpus[c].gpSecs)
			}
		}
		ev.GP = gp
	case OpLock, OpTryLock:
		l, _ := m.addr(in, before.cpus[c].regs)
		ev.RMW = &RMWFact{ReservedBy: -1}
		if ev.Failed && arm {
			ev.RMW.ReservedBy = before.reservedBy(c, l)
		}
		m.explainLoad(before, c, ev)
		if !ev.Failed && ev.Commit == nil {
			ev.Stored = entryOf(after, c, ev.Instr)
			if arm && ev.Stored != nil {
				ev.Behind = aheadOfMarker(before.cpus[c].sb)
			}
		}
	case OpRMW:
		cs := &before.cpus[c]
		l, _ := m.addr(in, cs.regs)
		ev.RMW = &RMWFact{AsLoad: arm && m.rmwFailsNow(before, c, in, l), ReservedBy: -1}
		if in.isConditional() {
			ev.RMW.Expected = in.Exp.Eval(cs.regs)
		}
		m.explainLoad(before, c, ev)
		switch {
		case ev.Failed:
			if arm && (in.Order == OrderFull || in.Order == OrderRelease) && in.isConditional() {
				ev.RMW.Guessed = maskInstrs(m.guessedPast(c, in, cs.early&^(uint64(1)<<uint(ev.Instr+1)-1)))
			}
		case ev.Commit != nil:
			if arm && in.Order == OrderRelease {
				ev.Marked = markedLocs(after, c)
			}
		default:
			ev.Stored = entryOf(after, c, ev.Instr)
			if arm && ev.Stored != nil {
				// Performed with stores ahead of a wmb marker still
				// pending (exclusiveWait: no other CPU may write l).
				ev.Behind = aheadOfMarker(cs.sb)
			}
		}
	}
	if acs := &after.cpus[c]; arm && afterAcquireWait(acs) {
		for _, e := range acs.iq {
			ev.AcqWait = append(ev.AcqWait, e.Loc)
		}
	}
}

// explainLoad records why a load returned what it did: the CPU's own
// earlier stores still buffered (store->load reordering), and a barrier
// that passed before a stale read's invalidation arrived.
func (m *Machine) explainLoad(before *State, c int, ev *Event) {
	ld := ev.Load
	if ld == nil {
		return
	}
	if ld.Class != Forwarded {
		for _, e := range before.cpus[c].sb {
			// Only stores before the load in program order: an issued-
			// early store after it is no store->load reordering.
			if isStore(e) && e.Loc != ld.Loc && int(e.Instr) < ev.Instr {
				ld.OwnBuffered = append(ld.OwnBuffered, e)
			}
		}
	}
	if ld.Class == Stale && m.Mode == ARM {
		if i, b := before.iqIndex(c, ld.Loc), m.lastQueueBarrier(before, c, ev.Instr); i >= 0 && b >= 0 {
			ld.ArrivedAfterBarrier = &LateInvalidation{Barrier: b, Arrived: int(before.cpus[c].iq[i].Arrived)}
		}
	}
}

// explainStore records the entry a store put in its store buffer and, in
// ARM-like mode, the entries it may not commit before.
func (m *Machine) explainStore(before, after *State, c int, ev *Event) {
	ev.Stored = entryOf(after, c, ev.Instr)
	if ev.Stored == nil || m.Mode != ARM {
		return
	}
	sb := before.cpus[c].sb
	if ev.Stored.Kind.IsRelease() {
		for _, b := range sb {
			if isStore(b) {
				ev.Behind = append(ev.Behind, b)
			}
		}
		return
	}
	ev.Behind = aheadOfMarker(sb)
}

// aheadOfMarker returns the stores ahead of the last wmb marker of sb:
// those a store or RMW write appended now may not commit before.
func aheadOfMarker(sb []SBEntry) []SBEntry {
	ahead := beforeMarkerMask(sb)
	var out []SBEntry
	for _, b := range sb {
		if isStore(b) && ahead&(1<<b.Instr) != 0 {
			out = append(out, b)
		}
	}
	return out
}

func (m *Machine) explainCommit(before, after *State, c int, ev *Event) {
	if ev.Commit == nil {
		return
	}
	sb := before.cpus[c].sb
	for _, e := range sb {
		if isStore(e) && int(e.Instr) == ev.Instr {
			break
		}
		if isStore(e) {
			ev.Commit.Overtook = append(ev.Commit.Overtook, e)
		}
	}
	if ev.Commit.Kind.IsRelease() {
		ev.Marked = markedLocs(after, c)
	}
	if m.Mode == ARM && markers(after.cpus[c].sb) < markers(sb) {
		for i, a := range after.cpus[c].sb {
			if isStore(a) && m.canCommit(after, c, i) && !m.committable(before, c, int(a.Instr)) {
				ev.Freed = append(ev.Freed, a)
			}
		}
	}
}

func (m *Machine) explainReport(before, after *State, c int, ev *Event) {
	for d := range before.cpus {
		if !m.canReportTo(before, c, d) {
			continue
		}
		g, a := &before.cpus[d], &after.cpus[d]
		r := QSReport{GP: d, Instr: int(g.pc), SRCU: g.gpDomain != 0, Sections: a.gpSecs&after.srcuOpen != 0}
		if r.SRCU {
			r.Domain = Loc(g.gpDomain - 1)
		}
		if !m.drained(before, c) {
			r.Undrained = true
			for _, e := range before.cpus[c].sb {
				if e.Kind != EntryWmb {
					r.Buffered++
				}
			}
			if m.Mode == ARM {
				r.Queued = len(before.cpus[c].iq)
			}
		}
		for e := range after.cpus {
			if a.gpWait&(1<<uint(e)) != 0 {
				r.Owe = append(r.Owe, e)
			}
		}
		ev.Reports = append(ev.Reports, r)
	}
}

// markedLocs lists the invalidations queued at CPU c that a release
// marked.
func markedLocs(s *State, c int) []Loc {
	var out []Loc
	for _, e := range s.cpus[c].iq {
		if e.Marked {
			out = append(out, e.Loc)
		}
	}
	return out
}

// sections names the SRCU sections in mask by their opening instructions.
func (m *Machine) sections(mask uint32) []SRCUSection {
	var out []SRCUSection
	for k, sec := range m.srcuSecs {
		if mask&(1<<uint(k)) != 0 {
			out = append(out, SRCUSection{CPU: sec.cpu, Instr: sec.pc})
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

// entryOf returns the store-buffer entry instruction instr of CPU c put in
// s's store buffer, or nil.
func entryOf(s *State, c, instr int) *SBEntry {
	for _, e := range s.cpus[c].sb {
		if isStore(e) && int(e.Instr) == instr {
			return &e
		}
	}
	return nil
}

// foldFact describes instruction pc of CPU c, about to be folded into a
// step in state s.
func (m *Machine) foldFact(s *State, c, pc int) InstrFact { return m.instrFact(s, c, pc) }

// instrFact says what instruction pc of CPU c, which touches nothing
// shared (or is a fence), does when performed in state s (before it runs).
func (m *Machine) instrFact(s *State, c, pc int) InstrFact {
	cs := &s.cpus[c]
	in := &m.code(c)[pc]
	f := InstrFact{Instr: pc}
	switch in.Op {
	case OpAssign:
		f.Kind = FactAssign
		f.Val = in.Val.Eval(cs.regs)
	case OpBranch:
		f.Kind = FactBranch
		f.Taken = in.Cond.Eval(cs.regs) != 0
		for r := range cs.regs {
			if in.Cond.Regs()&(1<<uint(r)) != 0 {
				f.Regs = append(f.Regs, RegValue{Reg: Reg(r), Val: cs.regs[r]})
			}
		}
	case OpJump:
		f.Kind = FactElse
	case OpRCULock:
		f.Kind, f.Depth = FactRCULock, int(cs.rcuDepth)
	case OpRCUUnlock:
		f.Kind, f.Depth = FactRCUUnlock, int(cs.rcuDepth)
	case OpSRCULock:
		f.Kind = FactSRCULock
		f.Val = s.Latest(m.srcuDomain(in)) // the index srcuLock returns
		f.NoSection = m.srcuSecOf[c][pc] < 0
	case OpSRCUUnlock:
		f.Kind = FactSRCUUnlock
		matched, closed := m.srcuUnlocks(s, c, pc)
		f.NoSection = matched == 0
		f.StillOpen = matched != 0 && closed == 0
		if !f.NoSection {
			f.Opener = m.srcuSecs[bits.TrailingZeros32(matched)].cpu
		}
	case OpFence:
		switch m.fenceKind(in.Fence) {
		case fenceNone:
			f.Kind = FactNoEffect
		case fenceWrite:
			f.Kind = FactWmb
			for _, e := range cs.sb {
				if isStore(e) {
					f.Stores = append(f.Stores, e)
				}
			}
		default:
			f.Kind = FactPassed
		}
	}
	return f
}

// skippedAccesses lists the unexecuted accesses that instruction k of CPU
// c overtakes when issued early from s, following the branches that
// earlyCandidates resolves: the loads, and the stores and relaxed RMWs it
// walks past. A branch whose condition depends on an overtaken load is
// followed into the body that holds k; when k is after its join, both
// bodies are listed (k passes what is on either path).
func (m *Machine) skippedAccesses(s *State, c, k int) []int {
	cs := &s.cpus[c]
	code := m.code(c)
	regs := append([]Value(nil), cs.regs...)
	var tainted uint32 // registers an overtaken load writes, or computed from one
	var out []int
	var walk func(i, end int)
	walk = func(i, end int) {
		for i < end && i < k && i < len(code) {
			in := &code[i]
			switch {
			case cs.early&(1<<uint(i)) != 0:
				i++
			case in.Op == OpJump:
				i = in.Target
			case in.Op == OpBranch && in.Cond.Regs()&tainted == 0:
				if in.Cond.Eval(regs) == 0 {
					i = in.Target
				} else {
					i++
				}
			case in.Op == OpBranch:
				thenEnd, elseStart, join := bodies(code, i)
				switch {
				case k < thenEnd:
					i++
				case k >= elseStart && k < join:
					i = elseStart
				default:
					walk(i+1, thenEnd)
					walk(elseStart, join)
					i = join
				}
			case in.Op == OpAssign:
				if in.Val.Regs()&tainted != 0 {
					tainted |= 1 << in.Dst
				} else {
					regs[in.Dst] = in.Val.Eval(regs)
					tainted &^= 1 << in.Dst
				}
				i++
			case in.Op == OpLoad, in.Op == OpStore, in.Op == OpRMW, in.Op == OpUnlock:
				out = append(out, i)
				if in.HasDst {
					tainted |= 1 << in.Dst
				}
				i++
			default:
				i++
			}
		}
	}
	walk(int(cs.pc), len(code))
	return out
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
		case OpSyncRCU, OpSyncSRCU:
			return i
		case OpLock:
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
