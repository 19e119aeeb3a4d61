package machine

import (
	"fmt"
	"math/bits"
)

// SRCU (RULES.md, the SRCU rows). Each srcu_struct location is a domain of
// its own. A read-side section is named by the srcu_read_lock (or
// srcu_down_read) instruction that opened it: instructions run at most
// once, so the instruction is the section.
//
// The index. srcu_read_lock returns the value of the srcu_struct location
// (0 unless the test initialises it), a small integer exactly as herd7
// has it: arithmetic, comparisons, stores, conditions and filters see that
// integer and nothing else. (herd7 also makes srcu_read_unlock(s, i) a
// store of i to s; the machine does not, which changes an index only when
// an unlock passes a value other than the one its lock returned, and herd7
// flags exactly those tests: srcu-bad-value-match, unmatched-srcu-unlock.)
//
// Which section an unlock closes. LKMM pairs an srcu_read_unlock with the
// srcu_read_locks of the same domain whose index reaches the unlock's
// index argument by data flow: through register arithmetic, and through
// memory from a store to a load that reads from it (carry-srcu-data in
// linux-kernel.bell), wherever it travelled, to another CPU too. The
// machine follows that flow in its state, beside the values: every
// register (cpuState.secs), store-buffer entry, cache line and memory
// value (SBEntry.Secs, Line.Secs, State.memSecs) carries the set of
// sections whose index flowed into it; srcu_read_lock sets its
// destination's set to its own section, arithmetic takes the union of its
// operands', a store its value's, a load the set of the value it read (its
// own buffered store, its cache line, stale or not, or memory), an RMW's
// write its operands' and the old value's. srcu_read_unlock closes the open
// sections of its domain in its index argument's set, whichever CPU opened
// them. An unlock whose index carries no open section of its domain closes
// none (LKMM: an unmatched srcu_read_unlock, which herd7 flags and counts).
//
// Which instructions are sections at all is decided before the program
// runs, by the same flow computed statically (initSRCU): a lock whose
// index can reach no unlock of its domain opens no section (LKMM pairs it
// with nothing, so no grace period waits for it). When a lock's index may
// reach several unlocks (herd7 flags multiple-srcu-matches), LKMM pairs it
// with each that it does reach, and a grace period must wait for all of
// them; so an unlock closes a section only when no other unlock its index
// may reach can still run, and leaves it open otherwise. Either way every
// CPU that closes or would close it must report once more to the grace
// periods waiting for it. A section left open because a later unlock
// could close it but in an execution does not (a branch skips that
// unlock, or its load reads another store), and a lock whose index could
// reach an unlock but in an execution does not, stay open to the end: a
// grace period that started while they were open waits for ever, a
// deadlock where LKMM has an execution. That only ever removes outcomes.

// Sections opened late. A grace period of a domain waits only for the
// sections of that domain open when it started (RULES.md, the
// synchronize_srcu row: "A section opened after it started is not waited
// for, and reads nothing older than its start"). Such a
// section's CPU still owes the grace period a quiescent state, and may
// report it from inside the section; LKMM then orders the grace period's
// start before everything the section does (Tree SRCU's __srcu_read_lock
// has an smp_mb() for this). The machine keeps that promise where it
// lives, at the section's entry: in ARM-like mode, an srcu_read_lock (or
// srcu_down_read) performed while a grace period of its domain still
// waits for its CPU's report is blocked until the CPU's invalidation queue
// is empty. From then on no copy it holds is older than the grace
// period's start, and nothing after the lock can be issued ahead of it
// (early issue never passes an SRCU operation), so no load in the section
// can return a value overwritten before the grace period started; TSO
// mode keeps no stale copies, so there is nothing to wait for. A CPU that
// has already reported needs no wait: its queue was empty when it
// reported, after the start.
//
// This is all of the barrier that the guarantee needs, and no more:
// srcu_read_lock and srcu_read_unlock are not full barriers here, as they
// are not in LKMM (nor in herd7's ARMv8 and x86 models), so a store
// before a section and a load inside it may still be reordered (SB
// through srcu_read_lock is allowed by all three). Making the entry a full
// barrier always would lose those outcomes; waiting only while a grace
// period of the domain is owed the CPU's report loses none LKMM allows, as
// a section entered before the grace period started is waited for
// instead.

// lateSection returns the CPU whose grace period of in's domain started
// before CPU c performs the srcu_read_lock in and still waits for c's
// quiescent state, or -1.
func (m *Machine) lateSection(s *State, c int, in *Instr) int {
	dom := 1 + uint8(m.srcuDomain(in))
	for d := range s.cpus {
		if g := &s.cpus[d]; g.syncWait && g.gpDomain == dom && g.gpWait&(1<<uint(c)) != 0 {
			return d
		}
	}
	return -1
}

// drainsFirst reports whether CPU c, in ARM-like mode, loads nothing
// before its invalidation queue is next empty because its next
// instruction is an srcu_read_lock (or srcu_down_read) that a running
// grace period makes late: that lock waits for an empty queue
// (Machine.cpuWait), nothing after it is issued early (early issue never
// passes an SRCU operation), and the grace period waits for c's report,
// which needs an empty queue too. So, as before a full barrier
// (drainReads), no invalidation queued at c can be read stale.
func (m *Machine) drainsFirst(s *State, c int) bool {
	if m.Mode != ARM || !m.hasSyncSRCU || m.finished(s, c) {
		return false
	}
	cs := &s.cpus[c]
	in := &m.code(c)[cs.pc]
	return in.Op == OpSRCULock && cs.early == 0 && m.lateSection(s, c, in) >= 0
}

// drainReadsIn is drainReadsOf for CPU c in s, and nothing where c's next
// instruction drains its queue first (drainsFirst).
func (m *Machine) drainReadsIn(s *State, c int) uint64 {
	if m.drainsFirst(s, c) {
		return 0
	}
	return m.drainReadsOf(&s.cpus[c], c)
}

// waitsAsLong reports whether a grace period of domain d already running
// waits for the report of CPU x and recorded, when it started, every
// section in open (the open sections of d) that x opened: it then waits
// for x until x has closed them and is drained after, as a grace period
// starting at s would (srcuStartsWithLocks).
func (m *Machine) waitsAsLong(s *State, x int, d Loc, open uint32) bool {
	var mine uint32
	if len(m.srcuCPUSecs) > x {
		mine = open & m.srcuCPUSecs[x]
	}
	for g := range s.cpus {
		if gs := &s.cpus[g]; gs.syncWait && gs.gpDomain == 1+uint8(d) && gs.gpWait&(1<<uint(x)) != 0 && mine&^gs.gpSecs == 0 {
			return true
		}
	}
	return false
}

// srcuDomain returns the domain an SRCU instruction names (initSRCU
// checked that it names one directly).
func (m *Machine) srcuDomain(in *Instr) Loc {
	l, _ := in.Addr.Val.AsLoc()
	return l
}

// srcuSec is one section-opening instruction.
type srcuSec struct {
	cpu, pc int
	domain  Loc
	cross   bool // srcu_down_read: another CPU may close it
	// unlocks holds, per CPU, the srcu_read_unlock instructions the
	// section's index may reach (the static flow of initSRCU).
	unlocks []uint64
}

// maxSRCUSecs bounds the section-opening instructions of a program (masks).
const maxSRCUSecs = 32

// initSRCU checks that every SRCU instruction names its domain directly,
// follows statically where each srcu_read_lock's index may flow, and
// numbers the locks whose index may reach an unlock of their domain: those
// are the sections (see above).
func (m *Machine) initSRCU() error {
	type lockAt struct {
		cpu, pc int
		domain  Loc
	}
	var locks []lockAt
	m.srcuSecOf = make([][]int8, len(m.Prog.Threads))
	m.srcuCPUSecs = make([]uint32, len(m.Prog.Threads))
	for c, t := range m.Prog.Threads {
		m.srcuSecOf[c] = make([]int8, len(t.Code))
		for pc := range t.Code {
			in := &t.Code[pc]
			m.srcuSecOf[c][pc] = -1
			switch in.Op {
			case OpSRCULock, OpSRCUUnlock, OpSyncSRCU:
			default:
				continue
			}
			l, ok := in.Addr.Val.AsLoc()
			if in.Addr.Op != EConst || !ok {
				return fmt.Errorf("%s instruction %d (%s): the srcu_struct must be a named location", t.Name, pc, in.Text)
			}
			switch in.Op {
			case OpSRCUUnlock:
				m.hasSRCUUnlock = true
			case OpSyncSRCU:
				m.hasSyncSRCU = true
			case OpSRCULock:
				if len(locks) == maxSRCUSecs {
					return fmt.Errorf("%s instruction %d (%s): at most %d srcu_read_lock calls are supported", t.Name, pc, in.Text, maxSRCUSecs)
				}
				locks = append(locks, lockAt{c, pc, l})
			}
		}
	}
	if len(locks) == 0 {
		return nil
	}
	m.srcuLockLocs = make([][]uint64, len(m.Prog.Threads))
	for c, t := range m.Prog.Threads {
		m.srcuLockLocs[c] = futureLocs(t.Code, nil, func(in *Instr) bool { return in.Op == OpSRCULock })
	}
	// The static flow: per location, the locks whose index a store may
	// write there; per CPU and instruction, the locks whose index each
	// register may hold. Memory links the CPUs, so iterate to a fixpoint.
	lockNo := map[[2]int]int{}
	for j, l := range locks {
		lockNo[[2]int{l.cpu, l.pc}] = j
	}
	nl := len(m.Prog.Locs)
	locFlow := make([]uint32, nl)
	consumers := make([][][2]int, len(locks)) // per lock: the unlocks (cpu, pc) its index may reach
	locsOf := func(in *Instr) (lo, hi int) {
		if l, ok := in.Addr.Val.AsLoc(); in.Addr.Op == EConst && ok {
			return int(l), int(l) + 1
		}
		return 0, nl // a computed address: any location
	}
	for changed := true; changed; {
		changed = false
		for j := range consumers {
			consumers[j] = consumers[j][:0]
		}
		for c, t := range m.Prog.Threads {
			flow := make([][MaxRegs]uint32, len(t.Code)+1)
			into := func(pc int, regs *[MaxRegs]uint32) {
				for r := range regs {
					flow[pc][r] |= regs[r]
				}
			}
			for pc := range t.Code {
				in := &t.Code[pc]
				cur := flow[pc]
				of := func(e *Expr) uint32 {
					var f uint32
					for r := e.Regs(); r != 0; r &= r - 1 {
						f |= cur[bits.TrailingZeros32(r)]
					}
					return f
				}
				write := func(v uint32) {
					lo, hi := locsOf(in)
					for l := lo; l < hi; l++ {
						if locFlow[l]|v != locFlow[l] {
							locFlow[l] |= v
							changed = true
						}
					}
				}
				read := func() uint32 {
					var f uint32
					lo, hi := locsOf(in)
					for l := lo; l < hi; l++ {
						f |= locFlow[l]
					}
					return f
				}
				out := cur
				switch in.Op {
				case OpSRCULock:
					if in.HasDst {
						out[in.Dst] = 1 << lockNo[[2]int{c, pc}]
					}
				case OpAssign:
					out[in.Dst] = of(in.Val)
				case OpLoad:
					if in.HasDst {
						out[in.Dst] = read()
					}
				case OpStore:
					write(of(in.Val))
				case OpRMW:
					old := read()
					write(old | of(in.Val) | of(in.Exp))
					if in.HasDst {
						out[in.Dst] = old
					}
				case OpLock, OpTryLock:
					if in.HasDst {
						out[in.Dst] = 0
					}
				case OpSRCUUnlock:
					d := m.srcuDomain(in)
					for f := of(in.Val); f != 0; f &= f - 1 {
						if j := bits.TrailingZeros32(f); locks[j].domain == d {
							consumers[j] = append(consumers[j], [2]int{c, pc})
						}
					}
				}
				switch in.Op {
				case OpJump:
					into(in.Target, &out)
				case OpBranch:
					into(pc+1, &out)
					into(in.Target, &out)
				default:
					into(pc+1, &out)
				}
			}
		}
	}
	for j, l := range locks {
		if len(consumers[j]) == 0 {
			continue // pairs with no unlock: no section
		}
		sec := srcuSec{cpu: l.cpu, pc: l.pc, domain: l.domain, cross: m.Prog.Threads[l.cpu].Code[l.pc].Cross,
			unlocks: make([]uint64, len(m.Prog.Threads))}
		for _, u := range consumers[j] {
			sec.unlocks[u[0]] |= 1 << u[1]
		}
		m.srcuSecOf[l.cpu][l.pc] = int8(len(m.srcuSecs))
		m.srcuCPUSecs[l.cpu] |= 1 << len(m.srcuSecs)
		m.srcuSecs = append(m.srcuSecs, sec)
	}
	m.srcuReach = make([][]uint64, len(m.Prog.Threads))
	for c := range m.Prog.Threads {
		m.srcuReach[c] = reachable(m.code(c))
	}
	m.initSRCUOwnUnlocks()
	return nil
}

// initSRCUOwnUnlocks finds the srcu_read_unlock instructions that close
// only their own CPU's sections: every section whose index may reach one
// was opened by srcu_read_lock on that CPU and reaches no other CPU's
// unlock. Such an unlock reaches other CPUs only through the grace
// periods that wait for its sections (persistentCPU's rule 6).
func (m *Machine) initSRCUOwnUnlocks() {
	m.srcuOwnUnlocks = make([]uint64, len(m.Prog.Threads))
	for c := range m.Prog.Threads {
		for pc, in := range m.code(c) {
			if in.Op == OpSRCUUnlock && !in.Cross && pc < 64 {
				m.srcuOwnUnlocks[c] |= 1 << pc
			}
		}
	}
	for _, sec := range m.srcuSecs {
		if closedOnlyByOpener(sec) {
			continue
		}
		for d, us := range sec.unlocks {
			m.srcuOwnUnlocks[d] &^= us // every unlock that may close it
		}
	}
}

// closedOnlyByOpener reports whether no CPU but section sec's opener can
// close it: not srcu_down_read, and its index reaches no other CPU's
// unlock.
func closedOnlyByOpener(sec srcuSec) bool {
	if sec.cross {
		return false
	}
	for d, us := range sec.unlocks {
		if d != sec.cpu && us != 0 {
			return false
		}
	}
	return true
}

// reachable returns, for every pc, the instructions a path from pc may
// perform (pc included). Jumps only go forward: one backward pass.
func reachable(code []Instr) []uint64 {
	out := make([]uint64, len(code)+1)
	for pc := len(code) - 1; pc >= 0; pc-- {
		switch in := &code[pc]; in.Op {
		case OpJump:
			out[pc] = 1<<uint(pc) | out[in.Target]
		case OpBranch:
			out[pc] = 1<<uint(pc) | out[pc+1] | out[in.Target]
		default:
			out[pc] = 1<<uint(pc) | out[pc+1]
		}
	}
	return out
}

// ownUnlock reports whether CPU c's srcu_read_unlock at pc closes only
// sections c opened and no other CPU may close (initSRCUOwnUnlocks):
// without sections, it closes none.
func (m *Machine) ownUnlock(c, pc int) bool {
	if len(m.srcuSecs) == 0 {
		return true
	}
	return pc < 64 && m.srcuOwnUnlocks[c]&(1<<uint(pc)) != 0
}

// laterUnlock reports whether an unlock other than CPU c's instruction pc
// that section k's index may reach can still run in s.
func (m *Machine) laterUnlock(s *State, k, c, pc int) bool {
	for d, us := range m.srcuSecs[k].unlocks {
		if us == 0 || s.cpus[d].fault {
			continue
		}
		from := m.srcuReach[d][s.cpus[d].pc]
		if d == c {
			from = m.srcuReach[c][pc] &^ (1 << uint(pc))
		}
		if us&from != 0 {
			return true
		}
	}
	return false
}

// srcuTracked reports whether the program has a section an unlock may
// close: only then do registers and values carry sections.
func (m *Machine) srcuTracked() bool { return len(m.srcuSecs) > 0 }

// exprSecs returns the sections whose index flows into e's value.
func (cs *cpuState) exprSecs(e *Expr) uint32 {
	if cs.secs == nil || e == nil {
		return 0
	}
	var f uint32
	for r := e.Regs(); r != 0; r &= r - 1 {
		f |= cs.secs[bits.TrailingZeros32(r)]
	}
	return f
}

// setSecs records that register r now carries the sections f.
func (cs *cpuState) setSecs(r Reg, f uint32) {
	if cs.secs != nil {
		cs.secs[r] = f
	}
}

// rmwSecs returns the sections an RMW's write carries: its operands' and
// the value it read's.
func rmwSecs(cs *cpuState, in *Instr, old uint32) uint32 {
	return old | cs.exprSecs(in.Val) | cs.exprSecs(in.Exp)
}

// latestSecs returns the sections the latest committed value of l carries.
func (s *State) latestSecs(l Loc) uint32 {
	if s.memSecs == nil {
		return 0
	}
	if o := s.owner(l); o >= 0 {
		return s.cpus[o].cache[l].Secs
	}
	return s.memSecs[l]
}

// srcuDomainSecs returns the sections of domain d.
func (m *Machine) srcuDomainSecs(d Loc) uint32 {
	var mask uint32
	for k, sec := range m.srcuSecs {
		if sec.domain == d {
			mask |= 1 << k
		}
	}
	return mask
}

// srcuLock performs the srcu_read_lock at pc: it returns the index, the
// value of the srcu_struct location, and opens the instruction's section
// if it has one; the destination then carries that section.
func (m *Machine) srcuLock(s *State, c int, in *Instr, pc int) {
	cs := &s.cpus[c]
	k := m.srcuSecOf[c][pc]
	if k >= 0 {
		s.srcuOpen |= 1 << k
	}
	if !in.HasDst {
		return
	}
	cs.regs[in.Dst] = s.Latest(m.srcuDomain(in))
	cs.wrote |= 1 << in.Dst
	cs.setSecs(in.Dst, 0)
	if k >= 0 {
		cs.setSecs(in.Dst, 1<<k)
	}
	m.inheritMarks(cs, in.Dst, 0)
}

// srcuUnlocks returns what CPU c's srcu_read_unlock at pc does if
// performed in s: the open sections of its domain its index carries
// (matched), and of those the ones it closes (no other unlock that their
// index may reach can still run).
func (m *Machine) srcuUnlocks(s *State, c, pc int) (matched, closed uint32) {
	in := &m.code(c)[pc]
	matched = s.cpus[c].exprSecs(in.Val) & s.srcuOpen & m.srcuDomainSecs(m.srcuDomain(in))
	for f := matched; f != 0; f &= f - 1 {
		if k := bits.TrailingZeros32(f); !m.laterUnlock(s, k, c, pc) {
			closed |= 1 << k
		}
	}
	return matched, closed
}

// srcuUnlock performs CPU c's srcu_read_unlock at pc (see srcuUnlocks).
func (m *Machine) srcuUnlock(s *State, c, pc int) {
	matched, closed := m.srcuUnlocks(s, c, pc)
	s.srcuOpen &^= closed
	for ; matched != 0; matched &= matched - 1 {
		k := bits.TrailingZeros32(matched)
		// The grace periods waiting for this section also wait for the
		// CPU that performed this unlock, and the one that opened it, to
		// report once more: what they did inside the section must be
		// visible before they end. (When the two are one CPU, it has not
		// reported yet: it could not while inside the section.)
		for o := range s.cpus {
			if os := &s.cpus[o]; os.syncWait && os.gpSecs&(1<<k) != 0 {
				os.gpWait |= 1<<uint(c) | 1<<uint(m.srcuSecs[k].cpu)
			}
		}
	}
}

// inSections reports whether one of the open sections in mask was opened
// by CPU c. (A section srcu_down_read opened holds back its opener until it
// is closed, wherever that happens; erring this way can only make a grace
// period wait longer.)
func (m *Machine) inSections(s *State, c int, mask uint32) bool {
	return len(m.srcuCPUSecs) > c && s.srcuOpen&mask&m.srcuCPUSecs[c] != 0
}

// The explorer's view of SRCU (persistentset.go, "SRCU").

// srcuUnlockReach returns the unlocks of sections (instructions, as bits)
// CPU c may still perform in s: none once it has faulted. Another CPU's
// unlock closes a section only when no such unlock of it is left
// (laterUnlock), so a move that changes this set of its CPU changes what
// other CPUs' unlocks do.
func (m *Machine) srcuUnlockReach(s *State, c int) uint64 {
	if len(m.srcuSecs) == 0 || s.cpus[c].fault {
		return 0
	}
	var us uint64
	for k := range m.srcuSecs {
		us |= m.srcuSecs[k].unlocks[c]
	}
	return us & m.srcuReach[c][s.cpus[c].pc]
}

// srcuClosers returns the CPUs that may still perform an unlock that
// section k's index may reach (the CPUs whose unlock can close it, or
// keep another's from closing it).
func (m *Machine) srcuClosers(s *State, k int) uint32 {
	var out uint32
	for d, us := range m.srcuSecs[k].unlocks {
		if us != 0 && !s.cpus[d].fault && us&m.srcuReach[d][s.cpus[d].pc] != 0 {
			out |= 1 << d
		}
	}
	return out
}

// srcuLockReads returns the srcu_struct locations CPU c may still read
// the index of by an srcu_read_lock (it reads their latest value).
func (m *Machine) srcuLockReads(s *State, c int) uint64 {
	if m.srcuLockLocs == nil {
		return 0
	}
	return m.srcuLockLocs[c][s.cpus[c].pc]
}

// srcuDomainLocs returns the srcu_struct locations the program names.
func (m *Machine) srcuDomainLocs() uint64 {
	var out uint64
	for c := range m.Prog.Threads {
		for pc := range m.code(c) {
			switch in := &m.code(c)[pc]; in.Op {
			case OpSRCULock, OpSRCUUnlock, OpSyncSRCU:
				out |= 1 << m.srcuDomain(in)
			}
		}
	}
	return out
}

// hasSRCU reports whether any SRCU instruction is in the program.
func (m *Machine) hasSRCU() bool {
	return len(m.srcuSecs) > 0 || m.hasSyncSRCU || m.hasSRCUUnlock || m.srcuLockLocs != nil
}

// initSRCUSync lists the sections of each domain a synchronize_srcu names
// (after initSRCU has numbered the sections; a domain with none has an
// empty mask).
func (m *Machine) initSRCUSync() {
	var synced uint64
	for c := range m.Prog.Threads {
		for pc := range m.code(c) {
			if in := &m.code(c)[pc]; in.Op == OpSyncSRCU && synced&(1<<m.srcuDomain(in)) == 0 {
				synced |= 1 << m.srcuDomain(in)
				m.srcuSyncSecs = append(m.srcuSyncSecs, m.srcuDomainSecs(m.srcuDomain(in)))
			}
		}
	}
}

// initSRCUBracketed finds the domains whose every section is bracketed:
// opened by an srcu_read_lock into a register r that its CPU's one
// srcu_read_unlock of r later in its code closes, the only unlock its
// index may reach (so no other closes it and laterUnlock never keeps it
// open), with nothing between them that can block for ever (spin_lock,
// a grace period), overwrite r, or jump past the unlock. Such a section,
// once open, is closed by the time its CPU is stuck or finished: no
// stuck state has it open. (The grace-period step relies on it,
// explore.go, gracePeriodStep.)
func (m *Machine) initSRCUBracketed() {
	m.srcuBracketed = m.srcuDomainLocs()
	for _, sec := range m.srcuSecs {
		if !m.bracketed(sec) {
			m.srcuBracketed &^= 1 << sec.domain
		}
	}
}

// bracketed reports whether section sec is bracketed (initSRCUBracketed).
func (m *Machine) bracketed(sec srcuSec) bool {
	code := m.code(sec.cpu)
	lock := &code[sec.pc]
	if sec.cross || !lock.HasDst {
		return false
	}
	u := -1
	for d, us := range sec.unlocks {
		switch {
		case us == 0:
		case d != sec.cpu || bits.OnesCount64(us) != 1:
			return false
		default:
			u = bits.TrailingZeros64(us)
		}
	}
	r := lock.Dst
	if u <= sec.pc || code[u].Val == nil || code[u].Val.Regs()&(1<<r) == 0 {
		return false
	}
	for i := sec.pc + 1; i < u; i++ {
		in := &code[i]
		switch {
		case in.Op == OpLock || in.Op == OpSyncRCU || in.Op == OpSyncSRCU:
			return false
		case (in.Op == OpBranch || in.Op == OpJump) && in.Target > u:
			return false
		case in.HasDst && in.Dst == r:
			return false
		}
	}
	return true
}
