package machine

import "math/bits"

// The explorer's analyses of a program (issue 23, item 2): what each CPU
// may still load, write or start from each pc, computed once per machine
// from the code alone. The rules of the machine (exec.go, early.go,
// srcu.go) never read them; the search (explore.go, persistent.go) and
// its encoding and key (encode.go, key.go) do, to take steps alone, to
// apply invalidations at once and to leave dead lines out of the key.

// futures is the analyses of one program.
type futures struct {
	// addrRegs[c] holds the registers of CPU c whose value can flow into
	// an address: only their dependency marks can matter.
	addrRegs []uint32
	// computed[c]: CPU c's loads, stores, RMWs and locks at a computed
	// address (their instrReads and instrWrites are every location);
	// dsts[c][k]: the register instruction k writes, as a mask.
	computed []uint64
	dsts     [][]uint32
	// futureReads[c][pc] holds the locations CPU c may still load from
	// when its pc is at pc: a stale copy of any other line can never be
	// read, so its queued invalidation cannot change any outcome.
	futureReads [][]uint64
	// futureRereads[c][pc]: the locations it may still load from at least
	// twice (on one path).
	futureRereads [][]uint64
	// drainReads[c][pc] holds the locations CPU c may load from before
	// its invalidation queue is next drained (by a full barrier, smp_rmb,
	// a grace period, a fully ordered RMW, or the wait after an acquire):
	// a queued invalidation of any other line is applied before c could
	// read the stale copy it keeps.
	drainReads [][]uint64
	// drainCuts[c] holds the instructions of CPU c that cut drainReads
	// off (those that drain, or whose acquire wait does). One issued
	// early may have run with an empty queue and drains nothing that
	// arrives after it: drainReadsOf.
	drainCuts []uint64
	// futureAccess[c][pc] holds the locations CPU c may still load, store
	// or lock from pc on (issued-early stores are in its store buffer).
	futureAccess [][]uint64
	// futureWrites[c][pc]: the locations it may still write.
	futureWrites [][]uint64
	// futureCond[c][pc]: the locations of the conditional RMWs and
	// spin_trylocks it may still perform (whether one fails, and so
	// whether it may be issued early, depends on their values).
	futureCond [][]uint64
	// futureSync[c][pc]: whether it may still start a grace period.
	futureSync [][]bool
	// futureReader[c][pc]: whether it may still enter a read-side
	// section (RCU or SRCU).
	futureReader [][]bool
	// reach[c][pc]: the instructions a path from pc may perform (pc
	// included); instrReads[c][k] and instrWrites[c][k]: the locations
	// instruction k may load from and write (every location when its
	// address is computed). With them, readsLeft and writesLeft leave
	// out what instructions issued early have already done.
	reach                   [][]uint64
	instrReads, instrWrites [][]uint64
	// fences[c]: CPU c's fence instructions (privateStep needs to look
	// at what a step folds only when one of them is reachable);
	// markers[c]: its fences and read-side markers (postponableStore's
	// the same way).
	fences, markers []uint64
	// srcuUnlocks[c]: its srcu_read_unlock and srcu_up_read instructions
	// (persistentCPU performs a move to see what it folds only when one
	// of them is reachable).
	srcuUnlocks []uint64
	// readerCanHang: some CPU may stay inside an RCU read-side section
	// for ever (it blocks on a lock or a grace period inside one, or ends
	// its program inside one), or the program uses SRCU. Only then can a
	// stuck state have a grace period still waiting for a CPU.
	readerCanHang bool
}

// analyse computes the analyses of p. hasSyncSRCU: p waits for an SRCU
// grace period somewhere.
func analyse(p *Program, hasSyncSRCU bool) *futures {
	n := len(p.Threads)
	// Each analysis is one slice per CPU: made at their final length, not
	// grown by append (issue 24: a small test's machine is set up per
	// exploration, and this was a tenth of its allocations).
	f := &futures{addrRegs: make([]uint32, n), computed: make([]uint64, n), dsts: make([][]uint32, n), drainCuts: make([]uint64, n), fences: make([]uint64, n), markers: make([]uint64, n), srcuUnlocks: make([]uint64, n)}
	for _, s := range []*[][]uint64{&f.futureReads, &f.futureRereads, &f.drainReads, &f.futureAccess, &f.futureWrites, &f.futureCond, &f.reach, &f.instrReads, &f.instrWrites} {
		*s = make([][]uint64, 0, n)
	}
	f.futureSync, f.futureReader = make([][]bool, 0, n), make([][]bool, 0, n)
	targets := addrTargets(p)
	for c, t := range p.Threads {
		var regs uint32
		for _, in := range t.Code {
			if in.Addr != nil {
				regs |= in.Addr.Regs()
			}
		}
		for changed := true; changed; {
			changed = false
			for _, in := range t.Code {
				if in.Op == OpAssign && regs&(1<<in.Dst) != 0 && regs|in.Val.Regs() != regs {
					regs |= in.Val.Regs()
					changed = true
				}
			}
		}
		f.addrRegs[c] = regs
		tg := targets[c]
		f.futureReads = append(f.futureReads, futureLocs(t.Code, tg, readsLine))
		f.futureRereads = append(f.futureRereads, futureRereads(t.Code, tg))
		reads, cuts := readsBeforeDrain(t.Code, tg)
		f.drainReads = append(f.drainReads, reads)
		f.drainCuts[c] = cuts
		f.futureAccess = append(f.futureAccess, futureLocs(t.Code, tg, anyAccess))
		f.futureWrites = append(f.futureWrites, futureLocs(t.Code, tg, writesLoc))
		f.futureCond = append(f.futureCond, futureLocs(t.Code, tg, func(in *Instr) bool { return in.Op == OpTryLock || in.isConditional() }))
		f.reach = append(f.reach, reachable(t.Code))
		reads, writes := make([]uint64, len(t.Code)), make([]uint64, len(t.Code))
		f.dsts[c] = make([]uint32, len(t.Code))
		for k := range t.Code {
			if in := &t.Code[k]; in.HasDst || in.Op == OpSRCULock {
				f.dsts[c][k] = 1 << in.Dst
			}
			if in := &t.Code[k]; in.Addr != nil && in.Addr.Op != EConst {
				f.computed[c] |= 1 << uint(k)
			}
			switch t.Code[k].Op {
			case OpFence:
				f.fences[c] |= 1 << uint(k)
				f.markers[c] |= 1 << uint(k)
			case OpRCULock, OpRCUUnlock, OpSRCULock:
				f.markers[c] |= 1 << uint(k)
			case OpSRCUUnlock:
				f.markers[c] |= 1 << uint(k)
				f.srcuUnlocks[c] |= 1 << uint(k)
			}
			reads[k], writes[k] = instrLocs(&t.Code[k], tg[k], readsLine), instrLocs(&t.Code[k], tg[k], writesLoc)
		}
		f.instrReads = append(f.instrReads, reads)
		f.instrWrites = append(f.instrWrites, writes)
		f.futureSync = append(f.futureSync, futureOp(t.Code, func(op Op) bool { return op == OpSyncRCU || op == OpSyncSRCU }))
		f.futureReader = append(f.futureReader, futureOp(t.Code, func(op Op) bool { return op == OpRCULock || op == OpSRCULock }))
	}
	// (Computed after the SRCU analysis: before it, hasSyncSRCU was not
	// yet known and an SRCU program's readers were taken as never hanging.)
	f.readerCanHang = hasSyncSRCU
	for _, t := range p.Threads {
		f.readerCanHang = f.readerCanHang || readerMayHang(t.Code)
	}
	return f
}

// Future computes, for every pc of code and the end, the union of own
// over the instructions at or after pc on some path: a jump takes its
// target's, a branch both its successors', any other instruction adds
// its own. Jumps only go forward, so one backward pass suffices. The
// explorer's analyses of what a CPU may still access are made with it,
// and so is filter pruning's of what registers it may still write
// (package scenarios).
func Future[T ~uint32 | ~uint64](code []Instr, own func(*Instr) T) []T {
	out := make([]T, len(code)+1)
	for pc := len(code) - 1; pc >= 0; pc-- {
		in := &code[pc]
		switch in.Op {
		case OpJump:
			out[pc] = out[in.Target]
		case OpBranch:
			out[pc] = out[pc+1] | out[in.Target]
		default:
			out[pc] = own(in) | out[pc+1]
		}
	}
	return out
}

// futureLocs computes, for every pc, the locations that an instruction at
// or after pc satisfying pick may access.
func futureLocs(code []Instr, targets []uint64, pick func(*Instr) bool) []uint64 {
	out := make([]uint64, len(code)+1)
	for pc := len(code) - 1; pc >= 0; pc-- {
		switch in := &code[pc]; in.Op {
		case OpJump:
			out[pc] = out[in.Target]
		case OpBranch:
			out[pc] = out[pc+1] | out[in.Target]
		default:
			out[pc] = instrLocs(in, targetAt(targets, pc), pick) | out[pc+1]
		}
	}
	return out
}

// instrLocs returns the locations instruction in may access when pick
// selects it: its own, or those its computed address may name (target:
// addrTargets).
func instrLocs(in *Instr, target uint64, pick func(*Instr) bool) uint64 {
	if in.Addr == nil || !pick(in) {
		return 0
	}
	if l, ok := in.Addr.Val.AsLoc(); ok && in.Addr.Op == EConst {
		return 1 << l
	}
	if in.Addr.Op != EConst {
		return target
	}
	return ^uint64(0)
}

// futureRereads computes, for every pc, the locations an instruction at or
// after pc loads from, on some path, at least twice.
func futureRereads(code []Instr, targets []uint64) []uint64 {
	once := make([]uint64, len(code)+1)
	twice := make([]uint64, len(code)+1)
	for pc := len(code) - 1; pc >= 0; pc-- {
		in := &code[pc]
		own := instrLocs(in, targetAt(targets, pc), readsLine)
		switch in.Op {
		case OpJump:
			once[pc], twice[pc] = once[in.Target], twice[in.Target]
		case OpBranch:
			once[pc] = once[pc+1] | once[in.Target]
			twice[pc] = twice[pc+1] | twice[in.Target]
		default:
			once[pc] = own | once[pc+1]
			twice[pc] = twice[pc+1] | own&once[pc+1]
		}
	}
	return twice
}

// readsBeforeDrain computes drainReads for one thread (ARM-like rules):
// backwards, a draining instruction cuts off what follows it. It also
// returns those instructions (drainCuts).
func readsBeforeDrain(code []Instr, targets []uint64) (out []uint64, cuts uint64) {
	out = make([]uint64, len(code)+1)
	for pc := len(code) - 1; pc >= 0; pc-- {
		in := &code[pc]
		own := instrLocs(in, targetAt(targets, pc), readsLine)
		switch {
		case in.Op == OpJump:
			out[pc] = out[in.Target]
		case in.Op == OpBranch:
			out[pc] = out[pc+1] | out[in.Target]
		case in.Op == OpFence && (in.Fence == FenceMb || in.Fence == FenceRmb || in.Fence == FenceMbBeforeAtomic ||
			in.Fence == FenceMbAfterAtomic || in.Fence == FenceMbAfterSpinlock || in.Fence == FenceMbAfterSRCUUnlock),
			in.Op == OpSyncRCU, in.Op == OpSyncSRCU,
			in.Op == OpRMW && in.Order == OrderFull && !in.isConditional():
			out[pc] = 0 // drains before it reads anything
			cuts |= 1 << pc
		case in.alwaysAcquire():
			// An acquire reads, then the next instruction waits for the
			// entries queued when it ran to be applied. (A failed
			// spin_trylock is a plain load, so a trylock drains nothing.)
			out[pc] = own
			cuts |= 1 << pc
		default:
			out[pc] = own | out[pc+1]
		}
	}
	return out, cuts
}

// drainReadsOf is drainReads for CPU c in s: the locations it may load
// from before its queue is next drained. When it issued early an
// instruction that cuts drainReads off, that instruction may have run
// with an empty queue, so it drains nothing that arrived after it (and
// its acquire wait, if any, is in the state): every location it may
// still load from counts.
func (m *Machine) drainReadsOf(cs *cpuState, c int) uint64 {
	if cs.early&m.fut.drainCuts[c] != 0 {
		return m.fut.futureReads[c][cs.pc]
	}
	return m.fut.drainReads[c][cs.pc]
}

// readerMayHang reports whether a CPU running code may stay inside an RCU
// or SRCU read-side section for ever: it may block on a spin lock or a
// grace period inside one, or finish inside one. Branches only jump
// forward, so one pass in program order finds the greatest nesting each
// instruction may run at.
func readerMayHang(code []Instr) bool {
	depth := make([]int, len(code)+1)
	for i := range depth {
		depth[i] = -1 // not reached yet
	}
	depth[0] = 0
	at := func(pc, d int) {
		if pc <= len(code) && d > depth[pc] {
			depth[pc] = d
		}
	}
	for pc := range code {
		d := depth[pc]
		if d < 0 {
			continue
		}
		in := &code[pc]
		switch in.Op {
		case OpRCULock, OpSRCULock:
			at(pc+1, d+1)
		case OpRCUUnlock, OpSRCUUnlock:
			at(pc+1, max(d-1, 0))
		case OpJump:
			at(in.Target, d)
		case OpBranch:
			at(pc+1, d)
			at(in.Target, d)
		case OpLock, OpSyncRCU, OpSyncSRCU:
			if d > 0 {
				return true
			}
			at(pc+1, d)
		default:
			at(pc+1, d)
		}
	}
	return depth[len(code)] > 0
}

// futureOp computes, for every pc, whether an instruction at or after pc
// (on some path) has an operation op satisfies.
func futureOp(code []Instr, op func(Op) bool) []bool {
	bits := Future(code, func(in *Instr) uint32 {
		if op(in.Op) {
			return 1
		}
		return 0
	})
	out := make([]bool, len(bits))
	for pc, a := range bits {
		out[pc] = a != 0
	}
	return out
}

// readsLine: instructions that may read a (possibly stale) cache line.
func readsLine(in *Instr) bool {
	return in.Op == OpLoad || in.Op == OpTryLock || in.isConditional()
}

// writesLoc: instructions that may write their location.
func writesLoc(in *Instr) bool {
	switch in.Op {
	case OpStore, OpUnlock, OpRMW, OpLock, OpTryLock:
		return true
	}
	return false
}

func anyAccess(*Instr) bool { return true }

// readsLeft returns the locations CPU c may still load from in s: those of
// futureReads less what instructions issued early have loaded.
func (m *Machine) readsLeft(s *State, c int) uint64 {
	cs := &s.cpus[c]
	if cs.early == 0 {
		return m.fut.futureReads[c][cs.pc]
	}
	return m.leftOf(m.fut.instrReads[c], m.fut.reach[c][cs.pc]&^cs.early)
}

// writesLeft returns the locations CPU c may still write by an instruction
// in s: those of futureWrites less what instructions issued early have
// written (their entries, if still pending, are in its store buffer).
func (m *Machine) writesLeft(s *State, c int) uint64 {
	cs := &s.cpus[c]
	if cs.early == 0 {
		return m.fut.futureWrites[c][cs.pc]
	}
	return m.leftOf(m.fut.instrWrites[c], m.fut.reach[c][cs.pc]&^cs.early)
}

// accessLeft returns readsLeft and writesLeft of CPU c in s, where an
// instruction at a computed address counts only the line its address
// names now when no instruction left writes a register of it: each
// instruction runs at most once (jumps go forward only), so its address
// will be the one its registers give now.
func (m *Machine) accessLeft(s *State, c int) (reads, writes uint64) {
	cs := &s.cpus[c]
	if int(cs.pc) >= len(m.code(c)) {
		return m.readsLeft(s, c), m.writesLeft(s, c)
	}
	left := m.fut.reach[c][cs.pc] &^ cs.early
	comp := left & m.fut.computed[c]
	if comp == 0 {
		return m.readsLeft(s, c), m.writesLeft(s, c)
	}
	reads = m.leftOf(m.fut.instrReads[c], left&^comp)
	writes = m.leftOf(m.fut.instrWrites[c], left&^comp)
	final := m.finalRegs(s, c)
	for ; comp != 0; comp &= comp - 1 {
		r, w := m.instrLines(s, c, bits.TrailingZeros64(comp), final)
		reads |= r
		writes |= w
	}
	return reads, writes
}

// finalRegs returns the registers of CPU c no instruction left in s
// writes: their values now are the ones every later instruction reads.
func (m *Machine) finalRegs(s *State, c int) uint32 {
	cs := &s.cpus[c]
	if int(cs.pc) >= len(m.code(c)) {
		return ^uint32(0)
	}
	var dsts uint32
	for l := m.fut.reach[c][cs.pc] &^ cs.early; l != 0; l &= l - 1 {
		dsts |= m.fut.dsts[c][bits.TrailingZeros64(l)]
	}
	return ^dsts
}

// instrLines returns the lines instruction k of CPU c may load from and
// write: instrReads and instrWrites, or, at a computed address whose
// registers are final (finalRegs), the line it names.
func (m *Machine) instrLines(s *State, c, k int, final uint32) (reads, writes uint64) {
	if m.fut.computed[c]&(1<<k) != 0 {
		if in := &m.code(c)[k]; in.Addr.Regs()&^final == 0 {
			if l, ok := m.addr(in, s.cpus[c].regs); ok {
				if readsLine(in) {
					reads = 1 << l
				}
				if writesLoc(in) {
					writes = 1 << l
				}
				return reads, writes
			}
		}
	}
	return m.fut.instrReads[c][k], m.fut.instrWrites[c][k]
}

// targetAt returns addrTargets' entry for instruction k (every location
// without them).
func targetAt(targets []uint64, k int) uint64 {
	if targets == nil {
		return ^uint64(0)
	}
	return targets[k]
}

func (m *Machine) leftOf(per []uint64, instrs uint64) uint64 {
	var out uint64
	for ; instrs != 0; instrs &= instrs - 1 {
		if k := bits.TrailingZeros64(instrs); k < len(per) {
			out |= per[k]
		}
	}
	return out
}
