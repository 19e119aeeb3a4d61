package machine

// When a CPU may perform its next instruction, and when not, what it waits
// for: the one statement of RULES.md's blocking rules (its waits). The enabled steps
// (enabledExec) and every explanation of a blocked CPU ([Machine.Wait])
// come from cpuWait, so the rule and its words cannot drift apart.

// WaitKind is what keeps a CPU from performing its next instruction.
type WaitKind uint8

// Wait kinds. The order of checks is cpuWait's.
const (
	WaitNone     WaitKind = iota // nothing: the CPU may perform its next instruction
	WaitFinished                 // it has performed its whole program
	WaitFault                    // it stopped at a fault: the execution has ended
	// WaitMisspec: it guessed a branch wrong (reads performed early
	// inside the side not taken): the state is no execution.
	WaitMisspec
	// WaitAfterAcquire: an acquire ran (ARM-like); the CPU may not
	// execute its next instruction until the invalidations then queued
	// (Invals) are applied.
	WaitAfterAcquire
	// WaitDrain: a barrier waits for its store buffer (Entries) and, in
	// ARM-like mode, its invalidation queue (Invals) to empty: a fence,
	// either end of a grace period, a locked (TSO), fully ordered or
	// release RMW (which waits for the store buffer only).
	WaitDrain
	// WaitRelease: an acquire (load, RMW, lock) waits for its own
	// earlier release stores (Entries) to commit (ARM-like).
	WaitRelease
	// WaitQuiescent: a grace period waits for quiescent states from CPUs
	// (CPUs; Holds says what keeps each from reporting).
	WaitQuiescent
	// WaitSections: an SRCU grace period waits for the read-side
	// sections open when it started (Sections) to end.
	WaitSections
	WaitLockHeld // spin_lock: the lock (Loc) is held
	// WaitReserved: the line (Loc) is reserved by another CPU's (Holder)
	// pending exclusive store (ARM-like).
	WaitReserved
	// WaitOwnStore: an exclusive RMW waits for its own pending stores to
	// its line (Loc, Entries) to commit (ARM-like).
	WaitOwnStore
	// WaitMarker: an exclusive RMW of Loc waits for the stores ahead of
	// its smp_wmb marker (Entries) to commit, while another CPU may still
	// write Loc (ARM-like; othersMayWrite).
	WaitMarker
	numWaitKinds
)

var waitKindNames = [...]string{
	WaitNone: "none", WaitFinished: "finished", WaitFault: "fault", WaitMisspec: "misspeculated", WaitAfterAcquire: "after-acquire",
	WaitDrain: "drain", WaitRelease: "release", WaitQuiescent: "quiescent", WaitSections: "sections",
	WaitLockHeld: "lock-held", WaitReserved: "reserved", WaitOwnStore: "own-store", WaitMarker: "marker",
}

func (k WaitKind) String() string { return waitKindNames[k] }

// WaitRule is the rule of the waiting instruction that the wait comes
// from: one instruction may wait under several (a spin_lock waits as a
// lock, then as an exclusive RMW).
type WaitRule uint8

// Wait rules.
const (
	// RuleOwn: the instruction's own rule (a fence, an acquire load, a
	// grace period; and every WaitAfterAcquire).
	RuleOwn        WaitRule = iota
	RuleLocked              // TSO: every RMW, spin_lock and spin_trylock is a locked instruction, which drains the store buffer
	RuleFullRMW             // ARM-like: a fully ordered RMW is a full barrier
	RuleReleaseRMW          // ARM-like: a release RMW writes at once, after every earlier store
	RuleExclusive           // ARM-like: an exclusive RMW (relaxed or acquire RMW, spin_lock, spin_trylock)
	RuleFailedRMW           // ARM-like: a conditional RMW that fails now is a load (an acquire load for _acquire)
	RuleLock                // spin_lock: the lock must be free and its line not reserved
	// RuleLateSection: ARM-like: an srcu_read_lock (srcu_down_read)
	// performed while a grace period of its domain (Domain, started by
	// Holder) still waits for its CPU's quiescent state first empties its
	// invalidation queue (srcu.go, "Sections opened late").
	RuleLateSection
	numWaitRules
)

// QSHold is what keeps a CPU from reporting a quiescent state to a grace
// period that waits for it.
type QSHold uint8

// Quiescent-state holds, in order of checks.
const (
	HoldNone        QSHold = iota // it may report now
	HoldReader                    // it is inside a read-side section the grace period waits for
	HoldStoreBuffer               // its store buffer is not empty
	HoldQueue                     // its invalidation queue is not empty (ARM-like)
)

// SRCUSection names an open SRCU read-side section by the instruction that
// opened it.
type SRCUSection struct{ CPU, Instr int }

// Wait is what a CPU waits for, as data: the kind, the rule, and exactly
// which entries, invalidations, CPUs, sections or line.
type Wait struct {
	Kind WaitKind
	Rule WaitRule
	// CPU is the waiting CPU and Instr its next instruction (-1 when it
	// has finished).
	CPU, Instr int
	Loc        Loc       // WaitLockHeld, WaitReserved, WaitOwnStore: the line; RuleLateSection: the SRCU domain
	Holder     int       // WaitReserved: the CPU whose pending exclusive store reserves Loc; RuleLateSection: the CPU whose grace period waits
	Entries    []SBEntry // the CPU's own store-buffer entries it waits to commit, oldest first
	Invals     []Loc     // the CPU's own queued invalidations it waits to apply, in arrival order
	CPUs       []int     // WaitQuiescent: the CPUs that still owe a quiescent state
	Holds      []QSHold  // WaitQuiescent: for each of CPUs, what keeps it from reporting
	// Domain is the SRCU domain (the srcu_struct's location) a grace
	// period of the waiting CPU waits for; SRCU says whether there is
	// one (else an RCU grace period, or none).
	Domain   Loc
	SRCU     bool
	Sections []SRCUSection // WaitSections: the open sections it waits for
	Fault    *Fault        // WaitFault: the instruction it stopped at
	Misspec  *Misspec      // WaitMisspec: the branch and the reads guessed wrong
}

// Blocked reports whether the CPU is blocked: not finished, and unable to
// perform its next instruction now.
func (w *Wait) Blocked() bool { return w.Kind != WaitNone && w.Kind != WaitFinished }

// cpuWait is the compact form of a Wait that the rule computes: bit masks,
// no allocation, so the search can ask it for every CPU of every state.
type cpuWait struct {
	kind    WaitKind
	rule    WaitRule
	loc     Loc
	holder  int8
	entries uint64 // the instruction indices of the store-buffer entries waited for
	invals  uint64 // the locations of the queued invalidations waited for
	cpus    uint32 // WaitQuiescent
	secs    uint32 // WaitSections
}

func storeMask(sb []SBEntry) uint64 {
	var m uint64
	for _, e := range sb {
		if isStore(e) {
			m |= 1 << e.Instr
		}
	}
	return m
}

func releaseMask(sb []SBEntry) uint64 {
	var m uint64
	for _, e := range sb {
		if e.Kind.IsRelease() {
			m |= 1 << e.Instr
		}
	}
	return m
}

func locMask(sb []SBEntry, l Loc) uint64 {
	var m uint64
	for _, e := range sb {
		if isStore(e) && e.Loc == l {
			m |= 1 << e.Instr
		}
	}
	return m
}

// beforeMarkerMask is the stores ahead of the last wmb marker.
func beforeMarkerMask(sb []SBEntry) uint64 {
	var m, pending uint64
	for _, e := range sb {
		if isMarker(e) {
			m |= pending
			pending = 0
		} else {
			pending |= 1 << e.Instr
		}
	}
	return m
}

func iqMask(iq []IQEntry) uint64 {
	var m uint64
	for _, e := range iq {
		m |= 1 << e.Loc
	}
	return m
}

// drainWait is the condition of smp_mb: the store buffer empty and, in
// ARM-like mode, the invalidation queue empty.
func (m *Machine) drainWait(cs *cpuState, rule WaitRule) cpuWait {
	w := cpuWait{kind: WaitDrain, rule: rule, entries: storeMask(cs.sb)}
	if m.Mode == ARM {
		w.invals = iqMask(cs.iq)
	}
	if w.entries|w.invals == 0 {
		return cpuWait{}
	}
	return w
}

// afterAcquireWait: after an acquire in ARM-like mode, the CPU may not
// execute its next instruction until its invalidation queue is empty.
func afterAcquireWait(cs *cpuState) bool { return cs.acqWait && len(cs.iq) > 0 }

// cpuWait says whether CPU c can perform its next instruction in s, and if
// not, what it waits for (RULES.md's primitive table, rule by rule).
func (m *Machine) cpuWait(s *State, c int) cpuWait {
	if s.cpus[c].misspec != 0 {
		return cpuWait{kind: WaitMisspec}
	}
	if m.finished(s, c) {
		return cpuWait{kind: WaitFinished}
	}
	cs := &s.cpus[c]
	if cs.fault {
		return cpuWait{kind: WaitFault}
	}
	in := &m.code(c)[cs.pc]
	if afterAcquireWait(cs) {
		return cpuWait{kind: WaitAfterAcquire, invals: iqMask(cs.iq)}
	}
	if in.Addr != nil {
		if _, ok := m.addr(in, cs.regs); !ok {
			return cpuWait{} // performing it faults and ends the execution
		}
	}
	arm := m.Mode == ARM
	switch in.Op {
	case OpLoad:
		if arm && in.Access == Acquire {
			if r := releaseMask(cs.sb); r != 0 {
				return cpuWait{kind: WaitRelease, entries: r}
			}
		}
		return cpuWait{}
	case OpStore, OpUnlock, OpRCULock, OpRCUUnlock, OpAssign, OpBranch, OpJump, OpSRCUUnlock:
		return cpuWait{}
	case OpSRCULock:
		if arm && len(cs.iq) > 0 {
			if d := m.lateSection(s, c, in); d >= 0 {
				return cpuWait{kind: WaitDrain, rule: RuleLateSection, holder: int8(d), loc: m.srcuDomain(in), invals: iqMask(cs.iq)}
			}
		}
		return cpuWait{}
	case OpFence:
		switch m.fenceKind(in.Fence) {
		case fenceFull:
			return m.drainWait(cs, RuleOwn)
		case fenceRead:
			if len(cs.iq) > 0 {
				return cpuWait{kind: WaitDrain, invals: iqMask(cs.iq)}
			}
		}
		return cpuWait{}
	case OpSyncRCU, OpSyncSRCU:
		if cs.syncWait {
			if cs.gpWait != 0 {
				return cpuWait{kind: WaitQuiescent, cpus: cs.gpWait}
			}
			if open := cs.gpSecs & s.srcuOpen; open != 0 {
				return cpuWait{kind: WaitSections, secs: open}
			}
		}
		return m.drainWait(cs, RuleOwn)
	}
	// Read-modify-writes and locks.
	l, _ := m.addr(in, cs.regs)
	if !arm {
		if in.Op == OpTryLock && m.trylockFails(s, c, in, l) {
			return cpuWait{} // a plain load that saw the lock held
		}
		// x86: every locked instruction drains the store buffer first.
		if st := storeMask(cs.sb); st != 0 {
			return cpuWait{kind: WaitDrain, rule: RuleLocked, entries: st}
		}
		if in.Op == OpLock && s.Latest(l) != 0 {
			return cpuWait{kind: WaitLockHeld, rule: RuleLock, loc: l}
		}
		return cpuWait{}
	}
	switch in.Op {
	case OpLock:
		if s.Latest(l) != 0 {
			return cpuWait{kind: WaitLockHeld, rule: RuleLock, loc: l}
		}
		if d := s.reservedBy(c, l); d >= 0 {
			return cpuWait{kind: WaitReserved, rule: RuleLock, loc: l, holder: int8(d)}
		}
		return m.exclusiveWait(s, c, l, true)
	case OpTryLock:
		if m.trylockFails(s, c, in, l) {
			return cpuWait{} // a plain load that saw the lock held
		}
		return m.exclusiveWait(s, c, l, true)
	}
	// OpRMW.
	if m.rmwFailsNow(s, c, in, l) {
		// A failed conditional RMW is a plain load (an acquire load for
		// _acquire), with no barrier.
		if in.Order == OrderAcquire {
			if r := releaseMask(cs.sb); r != 0 {
				return cpuWait{kind: WaitRelease, rule: RuleFailedRMW, entries: r}
			}
		}
		return cpuWait{}
	}
	switch in.Order {
	case OrderFull:
		if w := m.drainWait(cs, RuleFullRMW); w.kind != WaitNone {
			return w
		}
		return reservedWait(s, c, l, RuleFullRMW)
	case OrderRelease:
		if st := storeMask(cs.sb); st != 0 {
			return cpuWait{kind: WaitDrain, rule: RuleReleaseRMW, entries: st}
		}
		return reservedWait(s, c, l, RuleReleaseRMW)
	}
	return m.exclusiveWait(s, c, l, in.Order == OrderAcquire)
}

func reservedWait(s *State, c int, l Loc, rule WaitRule) cpuWait {
	if d := s.reservedBy(c, l); d >= 0 {
		return cpuWait{kind: WaitReserved, rule: rule, loc: l, holder: int8(d)}
	}
	return cpuWait{}
}

// exclusiveWait is the condition of an exclusive RMW (ARM-like): for an
// acquire RMW no own pending release, no own entry for the line or wmb
// marker in the store buffer, and the line not reserved by another CPU.
func (m *Machine) exclusiveWait(s *State, c int, l Loc, acquire bool) cpuWait {
	cs := &s.cpus[c]
	if acquire {
		if r := releaseMask(cs.sb); r != 0 {
			return cpuWait{kind: WaitRelease, rule: RuleExclusive, entries: r}
		}
	}
	if own := locMask(cs.sb, l); own != 0 {
		return cpuWait{kind: WaitOwnStore, rule: RuleExclusive, loc: l, entries: own}
	}
	if ahead := beforeMarkerMask(cs.sb); ahead != 0 && m.othersMayWrite(s, c, l) {
		return cpuWait{kind: WaitMarker, rule: RuleExclusive, loc: l, entries: ahead}
	}
	return reservedWait(s, c, l, RuleExclusive)
}

// othersMayWrite reports whether a CPU other than c may still write line
// l: by an instruction it has left (writesLeft) or an entry in its store
// buffer.
//
// An exclusive RMW behind a wmb marker waits for the stores ahead of it
// only while this holds. smp_wmb orders the RMW's write after them, not
// its read (ARMv8's DMB ISHST orders stores only), so the read may come
// first, with the write waiting behind them in the buffer. But its entry
// reserves the line until it commits, and a CPU whose commit or RMW of l
// waited for that reservation could be the one whose reservation holds
// up the stores ahead of the marker: two such CPUs would wait for each
// other, where the hardware's store-exclusive would fail and retry. When
// no other CPU may write l any more, nobody ever waits for the
// reservation, and the store-exclusive could not have failed either.
// (Other CPUs' futures only shrink, so once this is false it stays so.)
func (m *Machine) othersMayWrite(s *State, c int, l Loc) bool {
	bit := uint64(1) << l
	for d := range s.cpus {
		if d != c && (m.writesLeft(s, d)|sbLocs(s.cpus[d].sb))&bit != 0 {
			return true
		}
	}
	return false
}

// enabledExec reports whether CPU c can perform its next instruction.
func (m *Machine) enabledExec(s *State, c int) bool { return m.cpuWait(s, c).kind == WaitNone }

// Wait returns what CPU c waits for in s (Kind WaitNone when it may
// perform its next instruction), with the entries, invalidations, CPUs and
// sections named.
func (m *Machine) Wait(s *State, c int) Wait {
	cw := m.cpuWait(s, c)
	cs := &s.cpus[c]
	w := Wait{Kind: cw.kind, Rule: cw.rule, CPU: c, Instr: int(cs.pc), Loc: cw.loc, Holder: int(cw.holder)}
	switch cw.kind {
	case WaitFinished:
		w.Instr = -1
	case WaitFault:
		f := m.faultAt(s, c)
		w.Fault = &f
	case WaitMisspec:
		ms, _ := m.misspecAt(s, c)
		w.Misspec = &ms
		if m.finished(s, c) {
			w.Instr = -1
		}
	}
	for _, e := range cs.sb {
		if isStore(e) && cw.entries&(1<<e.Instr) != 0 {
			w.Entries = append(w.Entries, e)
		}
	}
	for _, e := range cs.iq {
		if cw.invals&(1<<e.Loc) != 0 {
			w.Invals = append(w.Invals, e.Loc)
		}
	}
	for d := range s.cpus {
		if cw.cpus&(1<<uint(d)) != 0 {
			w.CPUs = append(w.CPUs, d)
			w.Holds = append(w.Holds, m.qsHold(s, d, c))
		}
	}
	for k, sec := range m.srcuSecs {
		if cw.secs&(1<<uint(k)) != 0 {
			w.Sections = append(w.Sections, SRCUSection{CPU: sec.cpu, Instr: sec.pc})
		}
	}
	if cs.syncWait && cs.gpDomain != 0 {
		w.Domain, w.SRCU = Loc(cs.gpDomain-1), true
	}
	return w
}

// qsHold says what keeps CPU d, which owes CPU g's grace period a
// quiescent state, from reporting it now (HoldNone if nothing does): the
// report rule of RULES.md, in canReportQS's conditions.
func (m *Machine) qsHold(s *State, d, g int) QSHold {
	ds := &s.cpus[d]
	switch {
	case !m.owesOutside(s, d, g):
		return HoldReader
	case !m.qsDrains(s, d, g):
		return HoldNone
	case len(ds.sb) > 0: // markers never lead the buffer: it holds a store
		return HoldStoreBuffer
	case m.Mode == ARM && len(ds.iq) > 0:
		return HoldQueue
	}
	return HoldNone
}
