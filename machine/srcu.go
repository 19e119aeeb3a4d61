package machine

import "fmt"

// SRCU (machine.md, the SRCU rows). Each srcu_struct location is a domain
// of its own. A read-side section is named by the srcu_read_lock (or
// srcu_down_read) instruction that opened it: instructions run at most
// once, so the instruction is the section. The index that instruction
// returns carries the section's name, so srcu_read_unlock(s, idx) closes
// exactly the section idx came from, however idx travelled (a register, or
// memory for srcu_up_read on another CPU) — LKMM matches sections by that
// data flow too. People and outcomes see only the index itself.

// Sections opened late. A grace period of a domain waits only for the
// sections of that domain open when it started (machine.md: "A section of
// s opened after the grace period started is not waited for, but it must
// not then read a value older than the grace period's start"). Such a
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
}

// maxSRCUSecs bounds the section-opening instructions of a program (masks).
const maxSRCUSecs = 32

const (
	srcuBase   int64 = 1 << 56
	srcuStride int64 = 1 << 32 // index values below this are carried exactly
)

// srcuTag is the value srcu_read_lock returns for section k with index idx.
func srcuTag(k int, idx Value) Value { return Value(srcuBase + int64(k)*srcuStride + int64(idx)) }

// asSRCU reports whether v is an index returned by an srcu_read_lock, and
// which section and index.
func (v Value) asSRCU() (k int, idx Value, ok bool) {
	n := int64(v) - srcuBase
	if n < 0 || n >= maxSRCUSecs*srcuStride {
		return 0, 0, false
	}
	return int(n / srcuStride), Value(n % srcuStride), true
}

// Visible returns what people and outcomes see of v: an SRCU index is shown
// as the index, without the section it names.
func (v Value) Visible() Value {
	if _, idx, ok := v.asSRCU(); ok {
		return idx
	}
	return v
}

// initSRCU numbers the section-opening instructions and checks that every
// SRCU instruction names its domain directly.
func (m *Machine) initSRCU() error {
	m.srcuSecOf = make([][]int8, len(m.Prog.Threads))
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
				if len(m.srcuSecs) == maxSRCUSecs {
					return fmt.Errorf("%s instruction %d (%s): at most %d SRCU read-side sections are supported", t.Name, pc, in.Text, maxSRCUSecs)
				}
				m.srcuSecOf[c][pc] = int8(len(m.srcuSecs))
				m.srcuSecs = append(m.srcuSecs, srcuSec{cpu: c, pc: pc, domain: l, cross: in.Cross})
			}
		}
	}
	return nil
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

// srcuLock opens the section of instruction pc; its index is the value of
// the srcu_struct location (0 unless the test writes it).
func (m *Machine) srcuLock(s *State, c int, in *Instr, pc int) {
	k := int(m.srcuSecOf[c][pc])
	s.srcuOpen |= 1 << k
	if !in.HasDst {
		return
	}
	idx := s.Latest(m.srcuSecs[k].domain).Visible()
	v := idx
	if idx >= 0 && int64(idx) < srcuStride {
		v = srcuTag(k, idx)
	}
	s.cpus[c].regs[in.Dst] = v
	m.inheritMarks(&s.cpus[c], in.Dst, 0)
}

// srcuUnlock closes the section whose index the instruction passes. An
// index that names no open section of the domain faults: LKMM has no
// execution for an unmatched srcu_read_unlock either.
func (m *Machine) srcuUnlock(s *State, c int, in *Instr) bool {
	cs := &s.cpus[c]
	d, _ := in.Addr.Val.AsLoc()
	k, _, ok := in.Val.Eval(cs.regs).asSRCU()
	if !ok || s.srcuOpen&(1<<k) == 0 || m.srcuSecs[k].domain != d || (!in.Cross && m.srcuSecs[k].cpu != c) {
		cs.fault = true
		return false
	}
	s.srcuOpen &^= 1 << k
	if m.srcuSecs[k].cross {
		// The grace periods waiting for this section also wait for the
		// CPU that closed it, and the one that opened it, to report once
		// more: what they did inside the section must be visible before
		// they end.
		for o := range s.cpus {
			if os := &s.cpus[o]; os.syncWait && os.gpSecs&(1<<k) != 0 {
				os.gpWait |= 1<<uint(c) | 1<<uint(m.srcuSecs[k].cpu)
			}
		}
	}
	return true
}

// inSections reports whether one of the open sections in mask was opened
// by CPU c. (A section srcu_down_read opened holds back its opener until it
// is closed, wherever that happens; erring this way can only make a grace
// period wait longer.)
func (m *Machine) inSections(s *State, c int, mask uint32) bool {
	open := s.srcuOpen & mask
	for k, sec := range m.srcuSecs {
		if open&(1<<k) != 0 && sec.cpu == c {
			return true
		}
	}
	return false
}
