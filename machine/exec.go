package machine

import (
	"math/bits"
	"slices"
)

// This file holds the semantics proper: what each step does, and what the
// steps other than exec require (wait.go says when exec may run). The
// table in RULES.md is the reference; comments name the
// rule each branch implements.

func (m *Machine) code(c int) []Instr { return m.Prog.Threads[c].Code }

func (m *Machine) finished(s *State, c int) bool {
	return int(s.cpus[c].pc) >= len(m.code(c))
}

// addr evaluates an instruction's address. A value that is not a pointer to
// a known location yields ok=false: the CPU cannot proceed (a fault).
func (m *Machine) addr(in *Instr, regs []Value) (Loc, bool) {
	l, ok := in.Addr.Eval(regs).AsLoc()
	if !ok || int(l) >= len(m.Prog.Locs) {
		return 0, false
	}
	return l, true
}

// Store-buffer queries. (Markers never lead the buffer: see normalizeSB.)
func hasStores(sb []SBEntry) bool { return slices.ContainsFunc(sb, isStore) }
func hasMarker(sb []SBEntry) bool { return slices.ContainsFunc(sb, isMarker) }
func isStore(e SBEntry) bool      { return e.Kind != EntryWmb }
func isMarker(e SBEntry) bool     { return e.Kind == EntryWmb }
func hasRelease(sb []SBEntry) bool {
	return slices.ContainsFunc(sb, func(e SBEntry) bool { return e.Kind.IsRelease() })
}
func hasEntryFor(sb []SBEntry, l Loc) bool {
	return slices.ContainsFunc(sb, func(e SBEntry) bool { return isStore(e) && e.Loc == l })
}

// reservedBy returns a CPU other than c holding a pending exclusive entry
// for l (which reserves the line), or -1.
func (s *State) reservedBy(c int, l Loc) int {
	for d := range s.cpus {
		if d == c {
			continue
		}
		for _, e := range s.cpus[d].sb {
			if e.Kind.IsExclusive() && e.Loc == l {
				return d
			}
		}
	}
	return -1
}

// isConditional reports whether an RMW may fail (cmpxchg, atomic_add_unless).
func (in *Instr) isConditional() bool {
	return in.Op == OpRMW && (in.RMW == RMWCmpXchg || in.RMW == RMWAddUnless)
}

// alwaysAcquire reports whether in is an acquire whether it succeeds or
// fails: smp_load_acquire, an _acquire RMW (a failed cmpxchg_acquire is
// an acquire load) or spin_lock; not spin_trylock, a plain load when it
// fails.
func (in *Instr) alwaysAcquire() bool {
	return in.Op == OpLoad && in.Access == Acquire || in.Op == OpRMW && in.Order == OrderAcquire || in.Op == OpLock
}

func (in *Instr) rmwName() string {
	if in.RMW == RMWAddUnless {
		return "atomic_add_unless"
	}
	if in.Order == OrderAcquire {
		return "cmpxchg_acquire"
	}
	return "cmpxchg"
}

// rmwFails reports whether a conditional RMW that reads old fails.
func rmwFails(in *Instr, old Value, regs []Value) bool {
	switch in.RMW {
	case RMWCmpXchg:
		return old != in.Exp.Eval(regs)
	case RMWAddUnless:
		return old == in.Exp.Eval(regs)
	}
	return false
}

// rmwFailsNow reports whether CPU c's conditional RMW on l fails if
// performed now (ARM-like): whether it fails is decided by the value its
// load returns, with every rule of a load (RULES.md, "a conditional RMW
// cmpxchg").
func (m *Machine) rmwFailsNow(s *State, c int, in *Instr, l Loc) bool {
	return in.isConditional() && rmwFails(in, m.view(s, c, in, l, in.Order == OrderAcquire), s.cpus[c].regs)
}

// trylockFails reports whether CPU c's spin_trylock of l fails if performed
// now. A failed attempt is a load that saw the lock held (the kernel's
// trylocks read the lock word before they try to take it; x86 does not
// lock that read, so in TSO mode too it drains nothing): the CPU's own
// buffered store to the lock word if there is one, else, in TSO mode, the
// latest value; in ARM-like mode, with every rule of a load, possibly a
// stale "held" — or the lock is held, or reserved by another CPU's pending
// exclusive store.
func (m *Machine) trylockFails(s *State, c int, in *Instr, l Loc) bool {
	if v, ok := forwarded(s.cpus[c].sb, l); ok {
		return v != 0
	}
	if m.Mode == TSO {
		return s.Latest(l) != 0
	}
	return m.view(s, c, in, l, false) != 0 || s.Latest(l) != 0 || s.reservedBy(c, l) >= 0
}

type fenceClass uint8

const (
	fenceNone  fenceClass = iota // no effect in this mode
	fenceFull                    // store buffer (and invalidation queue) must be empty
	fenceRead                    // invalidation queue must be empty
	fenceWrite                   // insert a wmb marker
)

func (m *Machine) fenceKind(f Fence) fenceClass {
	if m.Mode == TSO {
		if f == FenceMb || f == FenceMbAfterSRCUUnlock {
			return fenceFull
		}
		return fenceNone
	}
	switch f {
	case FenceMb, FenceMbBeforeAtomic, FenceMbAfterAtomic, FenceMbAfterSpinlock, FenceMbAfterSRCUUnlock:
		return fenceFull
	case FenceRmb:
		return fenceRead
	case FenceWmb:
		return fenceWrite
	}
	return fenceNone
}

// isLocal reports whether instruction in touches nothing shared in state s
// and may therefore be folded into the CPU's previous step: register
// arithmetic, control flow, fences that are no-ops here or whose condition
// already holds, and RCU markers when no grace period can ever start.
func (m *Machine) isLocal(s *State, c int, in *Instr) bool {
	if !foldableOp(in.Op) {
		return false
	}
	switch in.Op {
	case OpAssign, OpBranch, OpJump:
		return true
	case OpRCUUnlock, OpSRCUUnlock:
		// Leaving a reader only ever lets grace periods end sooner. (An
		// srcu_up_read makes the CPU report again, which it can at once.)
		return true
	case OpRCULock:
		return !m.hasSync
	case OpSRCULock:
		return !m.hasSyncSRCU
	case OpFence:
		// A fence whose condition holds (a marker only changes the CPU's
		// own store buffer): in is the instruction at the CPU's pc.
		return m.cpuWait(s, c).kind == WaitNone
	}
	return false
}

// foldableOp reports whether advance may ever fold an instruction of op
// (isLocal decides when): what mayFoldSRCUUnlock walks through.
func foldableOp(op Op) bool {
	switch op {
	case OpAssign, OpBranch, OpJump, OpRCULock, OpRCUUnlock, OpSRCULock, OpSRCUUnlock, OpFence:
		return true
	}
	return false
}

// mayFoldSRCUUnlock reports whether performing CPU c's next instruction
// from s may fold an srcu_read_unlock or srcu_up_read (advance): along
// the paths after it through instructions it issued early and ones
// advance may fold, every branch taken both ways (jumps go forward only).
func (m *Machine) mayFoldSRCUUnlock(s *State, c int) bool {
	cs := &s.cpus[c]
	code := m.code(c)
	pc := int(cs.pc)
	if pc >= len(code) || m.fut.reach[c][pc]&m.fut.srcuUnlocks[c] == 0 {
		return false
	}
	var at uint64
	add := func(k int) {
		if k < len(code) {
			at |= 1 << k
		}
	}
	add(pc + 1)
	if in := &code[pc]; in.Op == OpBranch || in.Op == OpJump {
		add(in.Target)
	}
	for k := pc + 1; k < len(code); k++ {
		if at&(1<<k) == 0 {
			continue
		}
		in := &code[k]
		switch {
		case cs.early&(1<<k) != 0:
			add(k + 1)
		case in.Op == OpSRCUUnlock:
			return true
		case in.Op == OpJump:
			add(in.Target)
		case in.Op == OpBranch:
			add(k + 1)
			add(in.Target)
		case foldableOp(in.Op):
			add(k + 1)
		}
	}
	return false
}

// advance moves CPU c past instructions that touch nothing shared and past
// instructions it already issued early.
func (m *Machine) advance(s *State, c int, ev *Event) {
	cs := &s.cpus[c]
	code := m.code(c)
	defer unguard(cs)
	for int(cs.pc) < len(code) && cs.misspec == 0 {
		pc := int(cs.pc)
		if cs.early&(1<<uint(pc)) != 0 {
			cs.early &^= 1 << uint(pc)
			cs.pc++
			continue
		}
		in := &code[pc]
		if m.noFold || !m.isLocal(s, c, in) {
			return
		}
		if ev != nil {
			ev.Folded = append(ev.Folded, pc)
			if ev.explain {
				ev.Folds = append(ev.Folds, m.foldFact(s, c, pc))
			}
		}
		cs.executed |= 1 << uint(pc)
		switch in.Op {
		case OpAssign:
			m.assign(s, c, in.Dst, in.Val)
			cs.pc++
		case OpBranch:
			if in.Cond.Eval(cs.regs) == 0 {
				m.jump(s, c, pc, in.Target, ev)
			} else {
				cs.pc++
			}
		case OpJump:
			m.jump(s, c, pc, in.Target, ev)
		case OpRCULock:
			cs.rcuDepth++
			cs.pc++
		case OpRCUUnlock:
			if cs.rcuDepth > 0 {
				cs.rcuDepth--
			}
			cs.pc++
		case OpSRCULock:
			m.srcuLock(s, c, in, pc)
			cs.pc++
		case OpSRCUUnlock:
			m.srcuUnlock(s, c, pc)
			cs.pc++
		case OpFence:
			if m.fenceKind(in.Fence) == fenceWrite {
				m.insertWmb(cs)
			}
			if m.fenceKind(in.Fence) != fenceNone {
				cs.acqWait = false
			}
			cs.pc++
		}
	}
}

// unguard clears the guards of CPU c's store-buffer entries whose branch
// the pc has passed (SBEntry.Guard): they are ordinary entries now, and
// states that differ only in a spent guard are one state.
func unguard(cs *cpuState) {
	for i := range cs.sb {
		if g := cs.sb[i].Guard; g != 0 && int(cs.pc) >= int(g) {
			cs.sb[i].Guard = 0
		}
	}
}

// assign performs register arithmetic. In ARM-like mode the destination
// inherits the address-dependency marks of the registers it is computed
// from.
func (m *Machine) assign(s *State, c int, dst Reg, e *Expr) {
	cs := &s.cpus[c]
	cs.regs[dst] = e.Eval(cs.regs)
	cs.wrote |= 1 << dst
	cs.setSecs(dst, cs.exprSecs(e))
	m.inheritMarks(cs, dst, e.Regs())
}

func (m *Machine) inheritMarks(cs *cpuState, dst Reg, from uint32) {
	bit := uint32(1) << dst
	for i := range cs.iq {
		if cs.iq[i].Before&from != 0 {
			cs.iq[i].Before |= bit
		} else {
			cs.iq[i].Before &^= bit
		}
	}
}

// loaded records that register dst now holds a value loaded from memory:
// every invalidation queued now arrived before that load.
func (m *Machine) loaded(cs *cpuState, dst Reg) {
	bit := uint32(1) << dst
	for i := range cs.iq {
		cs.iq[i].Before |= bit
	}
}

func (m *Machine) insertWmb(cs *cpuState) {
	if n := len(cs.sb); n > 0 && cs.sb[n-1].Kind != EntryWmb {
		cs.sb = append(cs.sb, SBEntry{Kind: EntryWmb})
	}
}

// normalizeSB drops wmb markers with no store before them: they order
// nothing.
func normalizeSB(cs *cpuState) {
	out := cs.sb[:0]
	for _, e := range cs.sb {
		if e.Kind == EntryWmb && (len(out) == 0 || out[len(out)-1].Kind == EntryWmb) {
			continue
		}
		out = append(out, e)
	}
	cs.sb = out
}

// applyInval applies entry i of CPU c's invalidation queue: the line drops
// to I.
func (m *Machine) applyInval(s *State, c, i int) {
	cs := &s.cpus[c]
	l := cs.iq[i].Loc
	cs.cache[l].State = Invalid
	copy(cs.iq[i:], cs.iq[i+1:]) // in place: a state owns its queues
	cs.iq = cs.iq[:len(cs.iq)-1]
	if len(cs.iq) == 0 {
		cs.acqWait = false
	}
}

func (m *Machine) applyInvalFor(s *State, c int, l Loc, ev *Event) {
	if i := s.iqIndex(c, l); i >= 0 {
		m.applyInvalBecause(s, c, i, ApplyOwn, ev)
	}
}

// applyInvalBecause is applyInval, recording in ev why.
func (m *Machine) applyInvalBecause(s *State, c, i int, why ApplyCause, ev *Event) {
	if ev.explains() {
		line := s.cpus[c].cache[s.cpus[c].iq[i].Loc]
		ev.Applied = append(ev.Applied, Applied{Loc: s.cpus[c].iq[i].Loc, Cause: why, Stale: line.Val, Readable: line.State != Invalid})
	}
	m.applyInval(s, c, i)
}

// writeBack copies an owner's line for l to memory.
func (s *State) writeBack(l Loc, line *Line) {
	s.mem[l] = line.Val
	if s.memSecs != nil {
		s.memSecs[l] = line.Secs
	}
	if s.memCo != nil {
		s.memCo[l] = line.Co
	}
}

// load performs a load of l by CPU c ("Loads" in RULES.md): store
// forwarding, else the cache line if not I (possibly stale), else a miss
// that fetches the latest committed value.
func (m *Machine) load(s *State, c int, l Loc, ev *Event) Value {
	cs := &s.cpus[c]
	for i := len(cs.sb) - 1; i >= 0; i-- {
		if e := cs.sb[i]; e.Kind != EntryWmb && e.Loc == l {
			if ev.explains() {
				ev.Load = &LoadEvent{Loc: l, Val: e.Val, Source: FromStoreBuffer, Class: Forwarded, Co: -1,
					From: StoreID{CPU: c, Instr: int(e.Instr)}, Newer: initialStore, WroteBack: -1}
			}
			return e.Val
		}
	}
	line := &cs.cache[l]
	src := FromCache
	wroteBack := -1
	if line.State == Invalid {
		src = FromMiss
		if o := s.owner(l); o >= 0 {
			ol := &s.cpus[o].cache[l]
			s.writeBack(l, ol)
			ol.State = Shared
			wroteBack = o
		}
		st := Exclusive
		for d := range s.cpus {
			if d != c && s.cpus[d].cache[l].State != Invalid {
				st = Shared
			}
		}
		*line = Line{State: st, Val: s.mem[l]}
		if s.memSecs != nil {
			line.Secs = s.memSecs[l]
		}
		if s.memCo != nil {
			line.Co = s.memCo[l]
		}
	}
	if ev.explains() {
		ev.Load = m.classify(s, c, l, line.Val, line.Co, src)
		ev.Load.WroteBack = wroteBack
	}
	return line.Val
}

func (m *Machine) classify(s *State, c int, l Loc, v Value, co int32, src LoadSource) *LoadEvent {
	le := &LoadEvent{Loc: l, Val: v, Source: src, Class: UpToDate, Co: int(co), From: initialStore, Newer: initialStore}
	if s.coh == nil {
		return le // a search state: no history to classify against
	}
	head := s.coh[l]
	for n := head; n != nil; n = n.prev {
		if n.n == co {
			le.From = n.store()
		}
	}
	if co < head.n {
		le.Class = Stale
		le.NewerVal, le.Newer, le.NewerStep = head.val, head.store(), int(head.step)
		return le
	}
	for d := range s.cpus {
		if d == c {
			continue
		}
		sb := s.cpus[d].sb
		for i := len(sb) - 1; i >= 0; i-- {
			if sb[i].Kind != EntryWmb && sb[i].Loc == l {
				le.Class = NewerPending
				le.NewerVal, le.Newer = sb[i].Val, StoreID{CPU: d, Instr: int(sb[i].Instr)}
				return le
			}
		}
	}
	return le
}

// readSecs returns the SRCU sections carried by the value a load of l by
// CPU c just returned: the newest store-buffer entry for l if there is
// one, else its cache line (which a load leaves readable).
func (s *State) readSecs(c int, l Loc) uint32 {
	cs := &s.cpus[c]
	for i := len(cs.sb) - 1; i >= 0; i-- {
		if e := cs.sb[i]; e.Kind != EntryWmb && e.Loc == l {
			return e.Secs
		}
	}
	return cs.cache[l].Secs
}

// readLatest gives CPU c the latest committed value of l for an RMW or a
// lock: its own queued invalidation for the line is applied first, so a CPU
// never works on a stale copy.
func (m *Machine) readLatest(s *State, c int, l Loc, ev *Event) Value {
	m.applyInvalFor(s, c, l, ev)
	return m.load(s, c, l, ev)
}

// commitStore writes v to l from CPU c's instruction instr: the CPU takes
// the line in M. Other M/E holders write back and drop to I; S holders
// drop to I (TSO) or get a queued invalidation and keep their stale copy
// (ARM-like).
func (m *Machine) commitStore(s *State, c int, l Loc, v Value, secs uint32, instr int, ev *Event) {
	m.applyInvalFor(s, c, l, ev)
	var co int32
	if s.coh != nil { // explorer states carry no history
		head := s.coh[l]
		s.coh[l] = &cohNode{val: v, cpu: int8(c), instr: int8(instr), step: s.steps, prev: head, n: head.n + 1}
		co = head.n + 1
	}
	var ce *CommitEvent
	if ev.explains() {
		ce = &CommitEvent{Store: StoreID{CPU: c, Instr: instr}, Loc: l, Val: v, AtOnce: true, Co: int(co), WroteBack: -1}
		ev.Commit = ce
	}
	for d := range s.cpus {
		if d == c {
			continue
		}
		dl := &s.cpus[d].cache[l]
		switch dl.State {
		case Modified, Exclusive:
			s.writeBack(l, dl)
			dl.State = Invalid
			if ce != nil {
				ce.WroteBack = d
				ce.Dropped = append(ce.Dropped, d)
			}
		case Shared:
			if m.Mode == TSO {
				dl.State = Invalid
				if ce != nil {
					ce.Dropped = append(ce.Dropped, d)
				}
				continue
			}
			if s.iqIndex(d, l) < 0 {
				s.cpus[d].iq = append(s.cpus[d].iq, IQEntry{Loc: l, Arrived: s.steps})
			}
			if ce != nil {
				ce.Queued = append(ce.Queued, d)
			}
		}
	}
	s.cpus[c].cache[l] = Line{State: Modified, Val: v, Co: co, Secs: secs}
}

// canCommit reports whether store-buffer entry i of CPU c may commit now.
func (m *Machine) canCommit(s *State, c, i int) bool {
	sb := s.cpus[c].sb
	e := sb[i]
	if e.Kind == EntryWmb {
		return false
	}
	if m.Mode == TSO {
		return i == 0
	}
	if e.Kind.IsRelease() && i != 0 {
		return false
	}
	if e.Guard != 0 && int(s.cpus[c].pc) < int(e.Guard) {
		return false // issued past a branch not yet performed: not visible before it
	}
	for j := 0; j < i; j++ {
		if sb[j].Kind == EntryWmb || sb[j].Loc == e.Loc {
			return false // markers never lead the buffer, so one before i has stores before it
		}
	}
	return s.reservedBy(c, e.Loc) < 0
}

func (m *Machine) commitEntry(s *State, c, i int, ev *Event) {
	cs := &s.cpus[c]
	e := cs.sb[i]
	if ev != nil {
		ev.Instr = int(e.Instr)
	}
	copy(cs.sb[i:], cs.sb[i+1:]) // in place: a state owns its buffers
	cs.sb = cs.sb[:len(cs.sb)-1]
	m.commitStore(s, c, e.Loc, e.Val, e.Secs, int(e.Instr), ev)
	if ev.explains() {
		ev.Commit.AtOnce, ev.Commit.Kind = false, e.Kind
	}
	normalizeSB(&s.cpus[c])
	if e.Kind.IsRelease() {
		markQueued(&s.cpus[c])
	}
}

func (m *Machine) canReportQS(s *State, c int) bool {
	for d := range s.cpus {
		if m.canReportTo(s, c, d) {
			return true
		}
	}
	return false
}

// canReportTo reports whether CPU c owes CPU d's grace period a quiescent
// state and may report it now (qsHold says what keeps it from reporting).
func (m *Machine) canReportTo(s *State, c, d int) bool {
	return m.owesOutside(s, c, d) && (m.drained(s, c) || !m.qsDrains(s, c, d))
}

// owesOutside reports whether CPU c owes CPU d's grace period a quiescent
// state and is outside every read-side section that grace period waits
// for: an RCU reader, or (SRCU) a section of the domain that was open when
// it started.
func (m *Machine) owesOutside(s *State, c, d int) bool {
	g := &s.cpus[d]
	if g.gpWait&(1<<uint(c)) == 0 {
		return false
	}
	if g.gpDomain == 0 {
		return s.cpus[c].rcuDepth == 0
	}
	return !m.inSections(s, c, g.gpSecs)
}

// buffersUnseen reports whether no grace period ever waits for CPU c to
// drain its store buffer or (ARM-like) queue: qsDrains holds for c only
// when some CPU may wait for an RCU grace period and c has RCU read-side
// markers, or some CPU may wait for an SRCU one and c has SRCU sections.
// Such a CPU is never inside a section a grace period waits for either
// (owesOutside), so it may report whenever it owes a report, whatever
// its state: what it buffers, queues or applies is observed by no grace
// period, and its stores and arrivals at it delay none (privateStep,
// persistentCPU, the persistent sets' delays and arrivals).
func (m *Machine) buffersUnseen(c int) bool {
	return m.unseen&(1<<uint(c)) != 0
}

// initUnseen computes m.unseen (buffersUnseen).
func (m *Machine) initUnseen() {
	for c := range m.Prog.Threads {
		bit := uint32(1) << uint(c)
		if (!m.hasSync || m.readers&bit == 0) && (!m.hasSyncSRCU || m.srcuReaders&bit == 0) {
			m.unseen |= bit
		}
	}
}

// drained reports whether CPU c's store buffer and (ARM-like) invalidation
// queue are empty.
func (m *Machine) drained(s *State, c int) bool {
	cs := &s.cpus[c]
	return len(cs.sb) == 0 && !(m.Mode == ARM && len(cs.iq) > 0)
}

// qsDrains reports whether CPU c's quiescent state for CPU d's grace
// period waits for an empty store buffer and queue, as the kernel's
// quiescent-state path (a full barrier) does. It does for a CPU whose
// program has read-side sections of the grace period's kind: LKMM orders
// what such a CPU did before a section's end before the grace period's
// end when the section began before it (and its reads after a section's
// start after the grace period's start), and the drain is how the machine
// keeps that for the sections it no longer waits for. A CPU with no such
// section is bound by no RCU rule in LKMM (only the grace period's own CPU
// is, through its full barriers), so it reports with stores still
// buffered: store buffering with synchronize_rcu on one side and nothing
// on the other is reachable, as LKMM and ARMv8 allow.
func (m *Machine) qsDrains(s *State, c, d int) bool {
	if c == d {
		return true // its own grace period: its full barrier drained it already
	}
	if s.cpus[d].gpDomain == 0 {
		return m.readers&(1<<uint(c)) != 0
	}
	return m.srcuReaders&(1<<uint(c)) != 0
}

// setDst writes v, which carries the SRCU sections secs, to the
// instruction's destination register.
func (m *Machine) setDst(s *State, c int, in *Instr, v Value, secs uint32, fromMemory bool) {
	if !in.HasDst {
		return
	}
	cs := &s.cpus[c]
	cs.regs[in.Dst] = v
	cs.wrote |= 1 << in.Dst
	cs.setSecs(in.Dst, secs)
	if fromMemory {
		m.loaded(cs, in.Dst)
	} else {
		m.inheritMarks(cs, in.Dst, 0)
	}
}

func rmwResult(in *Instr, old Value, regs []Value) (Value, bool) {
	v := in.Val.Eval(regs)
	switch in.RMW {
	case RMWXchg:
		return v, true
	case RMWCmpXchg:
		if old != in.Exp.Eval(regs) {
			return old, false
		}
		return v, true
	case RMWAdd:
		return old + v, true
	case RMWSub:
		return old - v, true
	case RMWAnd:
		return old & v, true
	case RMWOr:
		return old | v, true
	case RMWXor:
		return old ^ v, true
	case RMWAndNot:
		return old &^ v, true
	case RMWAddUnless:
		if old == in.Exp.Eval(regs) {
			return old, false
		}
		return old + v, true
	}
	return old, false
}

// exec performs CPU c's next instruction (cpuWait must say WaitNone) and then folds
// the local instructions after it.
func (m *Machine) exec(s *State, c int, ev *Event) {
	cs := &s.cpus[c]
	pc := int(cs.pc)
	in := &m.code(c)[pc]
	if ev != nil {
		ev.Instr = pc
	}
	if in.Addr != nil {
		if _, ok := m.addr(in, cs.regs); !ok {
			cs.fault = true
			if ev != nil {
				ev.Fault = &Fault{CPU: c, Instr: pc, Kind: FaultAddress, Addr: in.Addr.Eval(cs.regs)}
			}
			return
		}
	}
	arm := m.Mode == ARM
	cs.acqWait = false
	cs.executed |= 1 << uint(pc)
	next := pc + 1
	switch in.Op {
	case OpLoad, OpLock, OpTryLock, OpRMW:
		m.access(s, c, in, pc, ev)
	case OpStore, OpUnlock:
		l, _ := m.addr(in, cs.regs)
		kind := EntryPlain
		if arm && (in.Op == OpUnlock || in.Access.IsRelease()) {
			kind = EntryRelease
		}
		var v Value
		var secs uint32
		if in.Op == OpStore {
			v, secs = in.Val.Eval(cs.regs), cs.exprSecs(in.Val)
		}
		cs.sb = append(cs.sb, SBEntry{Loc: l, Kind: kind, Val: v, Secs: secs, Instr: uint8(pc)})
	case OpFence:
		if m.fenceKind(in.Fence) == fenceWrite {
			m.insertWmb(cs)
		}
	case OpRCULock:
		cs.rcuDepth++
	case OpRCUUnlock:
		if cs.rcuDepth > 0 {
			cs.rcuDepth--
		}
	case OpSRCULock:
		m.srcuLock(s, c, in, pc)
	case OpSRCUUnlock:
		m.srcuUnlock(s, c, pc)
	case OpSyncRCU, OpSyncSRCU:
		if !cs.syncWait {
			// Start a grace period: every CPU, this one included, must
			// report a quiescent state; an SRCU grace period also waits
			// for the sections of its domain open now.
			cs.syncWait = true
			cs.gpWait = uint32(1)<<uint(len(s.cpus)) - 1
			cs.gpDomain, cs.gpSecs = 0, 0
			if in.Op == OpSyncSRCU {
				d, _ := m.addr(in, cs.regs)
				cs.gpDomain = 1 + uint8(d)
				cs.gpSecs = s.srcuOpen & m.srcuDomainSecs(d)
			}
			next = pc
			if ev != nil {
				ev.GPStart = true
			}
		} else {
			cs.syncWait = false
			cs.gpDomain, cs.gpSecs = 0, 0
			if ev != nil {
				ev.GPEnd = true
			}
		}
	// Steps of their own only in an unfolded machine (Machine.noFold):
	// otherwise advance folds them.
	case OpAssign:
		m.assign(s, c, in.Dst, in.Val)
	case OpBranch:
		if in.Cond.Eval(cs.regs) == 0 {
			m.jump(s, c, pc, in.Target, ev)
			m.advance(s, c, ev)
			return
		}
	case OpJump:
		m.jump(s, c, pc, in.Target, ev)
		m.advance(s, c, ev)
		return
	}
	cs.pc = uint8(next)
	m.advance(s, c, ev)
}

// jump moves CPU c from its branch or jump at pc forward to instruction
// to. The instructions jumped over will never run; if the CPU performed
// one of them early, it guessed this branch's direction wrong
// (earlyCandidates issues reads past a branch before its condition is
// known): on ARMv8 the core squashes those reads and re-executes on the
// right path, which the executions without the guess already cover, so
// this state is no execution at all (Misspeculated), not an outcome, a
// deadlock or a fault.
func (m *Machine) jump(s *State, c, pc, to int, ev *Event) {
	cs := &s.cpus[c]
	cs.pc = uint8(to)
	wrong := earlyMask(cs.early, pc+1, to)
	if wrong == 0 {
		return
	}
	br := branchOf(m.code(c), pc)
	cs.misspec = uint8(br) + 1
	if ev != nil {
		ev.Misspec = &Misspec{CPU: c, Guessed: br, Taken: m.code(c)[pc].Op == OpJump, Instrs: maskInstrs(wrong)}
	}
}

// failGuessWrong ends the execution when CPU c's conditional RMW at pc,
// fully ordered or release, has just succeeded while instructions after
// it were performed early on the guess that it fails (guessedPast). A
// failed cmpxchg orders nothing; a successful fully ordered one orders
// everything after it, and a successful release one every acquire after
// it (release→acquire). early.go lets those pass it only on that guess.
// Like a wrong branch guess, the state is no execution: the executions
// in which the RMW succeeds are those without the guess.
func (m *Machine) failGuessWrong(s *State, c int, in *Instr, pc int, ev *Event) {
	cs := &s.cpus[c]
	if !in.isConditional() || m.guessedPast(c, in, cs.early) == 0 {
		return
	}
	cs.misspec = uint8(pc) + 1
	if ev != nil {
		ms, _ := m.misspecAt(s, c)
		ev.Misspec = &ms
	}
}

// guessedPast returns the instructions of early, all after CPU c's
// conditional RMW in, that were performed on the guess that in fails:
// every one for a fully ordered RMW (nothing passes an unperformed one
// otherwise); the acquires for a release RMW, which only those need the
// guess to pass (early.go: plain loads, relaxed RMWs and plain stores
// pass it anyway, and a spin_trylock only as a failing plain load).
func (m *Machine) guessedPast(c int, in *Instr, early uint64) uint64 {
	if in.Order != OrderRelease {
		return early
	}
	code := m.code(c)
	var out uint64
	for e := early; e != 0; e &= e - 1 {
		if k := bits.TrailingZeros64(e); code[k].alwaysAcquire() {
			out |= 1 << k
		}
	}
	return out
}

// branchOf returns the if whose jump is at pc: pc itself for a branch, or
// for the jump that ends a then-body (and skips the else-body), its if.
func branchOf(code []Instr, pc int) int {
	if code[pc].Op == OpBranch {
		return pc
	}
	for i := pc - 1; i >= 0; i-- {
		if code[i].Op == OpBranch && code[i].Target == pc+1 {
			return i
		}
	}
	return pc
}

func maskInstrs(mask uint64) []int {
	var out []int
	for ; mask != 0; mask &= mask - 1 {
		out = append(out, bits.TrailingZeros64(mask))
	}
	return out
}

// access performs CPU c's load, lock operation or RMW in, instruction pc
// (in order, or issued early).
func (m *Machine) access(s *State, c int, in *Instr, pc int, ev *Event) {
	cs := &s.cpus[c]
	l, _ := m.addr(in, cs.regs)
	switch in.Op {
	case OpLoad:
		acquire := in.Access == Acquire
		m.preLoad(s, c, in, acquire, ev)
		v := m.load(s, c, l, ev)
		m.setDst(s, c, in, v, s.readSecs(c, l), true)
		m.afterAcquire(cs, acquire)
	case OpLock, OpTryLock:
		if in.Op == OpTryLock && m.trylockFails(s, c, in, l) {
			m.failTrylock(s, c, in, l, ev)
			return
		}
		m.readLatest(s, c, l, ev)
		if m.Mode == ARM {
			cs.sb = append(cs.sb, SBEntry{Loc: l, Kind: EntryExclusive, Val: 1, Instr: uint8(pc)})
			m.afterAcquire(cs, true)
		} else {
			m.commitStore(s, c, l, 1, 0, pc, ev)
		}
		m.setDst(s, c, in, 1, 0, false)
	case OpRMW:
		m.execRMW(s, c, in, pc, ev)
	}
}

// failTrylock performs a spin_trylock of l that fails: a load that saw the
// lock held — in ARM-like mode a plain one, which may return a stale copy
// (or, when its copy says free, the latest value, which says held).
func (m *Machine) failTrylock(s *State, c int, in *Instr, l Loc, ev *Event) {
	m.preLoad(s, c, in, false, ev)
	if m.Mode == TSO || m.peek(s, c, l) != 0 {
		m.load(s, c, l, ev)
	} else {
		m.readLatest(s, c, l, ev)
	}
	m.setDst(s, c, in, 0, 0, false)
	if ev != nil {
		ev.Failed = true
	}
}

// failRMW performs a conditional RMW of l that fails (ARM-like): a plain
// load, or an acquire load for _acquire.
func (m *Machine) failRMW(s *State, c int, in *Instr, l Loc, ev *Event) {
	acquire := in.Order == OrderAcquire
	m.preLoad(s, c, in, acquire, ev)
	old := m.load(s, c, l, ev)
	m.setDst(s, c, in, old, s.readSecs(c, l), true)
	m.afterAcquire(&s.cpus[c], acquire)
	if ev != nil {
		ev.Failed = true
	}
}

// afterAcquire: after an acquire in ARM-like mode, the CPU may not execute
// its next instruction until its invalidation queue is empty.
func (m *Machine) afterAcquire(cs *cpuState, acquire bool) {
	if m.Mode == ARM && acquire && len(cs.iq) > 0 {
		cs.acqWait = true
	}
}

// preLoad applies, in ARM-like mode, the queued invalidations a load by
// instruction in must apply before it reads: those that arrived before the
// load that produced its address (address dependency) and, for an
// acquire, those marked by the CPU's own release commits.
func (m *Machine) preLoad(s *State, c int, in *Instr, acquire bool, ev *Event) {
	if m.Mode != ARM {
		return
	}
	cs := &s.cpus[c]
	deps := in.Addr.Regs()
	for i := 0; i < len(cs.iq); {
		if e := cs.iq[i]; e.Before&deps != 0 || acquire && e.Marked {
			why := ApplyAddrDep
			if acquire && e.Marked {
				why = ApplyAcquire
			}
			m.applyInvalBecause(s, c, i, why, ev)
			continue
		}
		i++
	}
}

// view returns the value a load of l by instruction in of CPU c would
// return if performed now, preLoad included, without changing anything.
func (m *Machine) view(s *State, c int, in *Instr, l Loc, acquire bool) Value {
	cs := &s.cpus[c]
	if v, ok := forwarded(cs.sb, l); ok {
		return v
	}
	if m.Mode == ARM {
		if i := s.iqIndex(c, l); i >= 0 {
			if e := cs.iq[i]; e.Before&in.Addr.Regs() != 0 || acquire && e.Marked {
				return s.Latest(l)
			}
		}
	}
	return m.peek(s, c, l)
}

// forwarded returns the newest store-buffer entry for l, if any.
func forwarded(sb []SBEntry, l Loc) (Value, bool) {
	for i := len(sb) - 1; i >= 0; i-- {
		if e := sb[i]; e.Kind != EntryWmb && e.Loc == l {
			return e.Val, true
		}
	}
	return 0, false
}

// peek returns the value a plain load of l by CPU c would return now
// (forwarding, else the cache line, else the latest committed value).
func (m *Machine) peek(s *State, c int, l Loc) Value {
	cs := &s.cpus[c]
	if v, ok := forwarded(cs.sb, l); ok {
		return v
	}
	if cs.cache[l].State != Invalid {
		return cs.cache[l].Val
	}
	return s.Latest(l)
}

// markQueued marks the entries now in CPU c's invalidation queue: a release
// write became visible, and ARMv8 orders a release before a later acquire,
// which must not return a value already overwritten then.
func markQueued(cs *cpuState) {
	for j := range cs.iq {
		cs.iq[j].Marked = true
	}
}

func (m *Machine) execRMW(s *State, c int, in *Instr, pc int, ev *Event) {
	cs := &s.cpus[c]
	l, _ := m.addr(in, cs.regs)
	if m.Mode == TSO {
		// A locked instruction on the line in M: read and write at once.
		old := m.readLatest(s, c, l, ev)
		oldSecs := s.readSecs(c, l)
		if nv, ok := rmwResult(in, old, cs.regs); ok {
			m.commitStore(s, c, l, nv, rmwSecs(cs, in, oldSecs), pc, ev)
		} else if ev != nil {
			ev.Failed = true
		}
		m.setDst(s, c, in, old, oldSecs, true)
		return
	}
	acquire := in.Order == OrderAcquire
	if m.rmwFailsNow(s, c, in, l) {
		m.failRMW(s, c, in, l, ev)
		return
	}
	old := m.readLatest(s, c, l, ev)
	oldSecs := s.readSecs(c, l)
	nv, ok := rmwResult(in, old, cs.regs)
	if !ok && ev != nil {
		ev.Failed = true // its own copy said it would succeed; the latest value says not
	}
	switch in.Order {
	case OrderFull:
		if ok {
			m.commitStore(s, c, l, nv, rmwSecs(cs, in, oldSecs), pc, ev)
			m.failGuessWrong(s, c, in, pc, ev)
		}
	case OrderRelease:
		// LDXR; STLXR: the write is a release store, exclusive. Its store
		// buffer is empty (the RMW waited for it), so the entry is the
		// oldest: it may commit at once, and later stores may commit
		// before it (a release orders only what comes before it).
		if ok {
			cs.sb = append(cs.sb, SBEntry{Loc: l, Kind: EntryReleaseExclusive, Val: nv, Secs: rmwSecs(cs, in, oldSecs), Instr: uint8(pc)})
			m.failGuessWrong(s, c, in, pc, ev)
		}
	default:
		// Exclusive RMW: read the latest value now, write later through
		// the store buffer; the pending entry reserves the line.
		if ok {
			cs.sb = append(cs.sb, SBEntry{Loc: l, Kind: EntryExclusive, Val: nv, Secs: rmwSecs(cs, in, oldSecs), Instr: uint8(pc)})
		}
		m.afterAcquire(cs, acquire)
	}
	m.setDst(s, c, in, old, oldSecs, true)
}
