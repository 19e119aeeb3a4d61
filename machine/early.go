package machine

import "math/bits"

// Out-of-order issue (ARM-like mode), machine.md "Out-of-order issue": a CPU
// may perform a later plain store or smp_wmb before earlier plain loads and
// register arithmetic, when nothing it needs depends on those loads.
//
// It may also pass an unexecuted plain store that cannot go ahead itself
// (its value comes from a passed load, or a passed access touches its
// location), when the two stores are to different locations and no
// smp_wmb lies between: ARMv8 orders a plain store before neither later
// stores nor later loads of other locations. This goes beyond machine.md's
// rule ("k never overtakes a store") to close a gap herd7's ARMv8 model
// found (litmusgen regression arm-missing-store-past-store-50174: LB
// through a load of y, a store to y, then a store to x). A store that can
// go ahead itself is never passed: it is offered early instead, and the
// stores after it once it has gone, which reaches the same states.
//
// The same walk also offers later plain loads (and conditional RMWs or
// trylocks that fail, which are plain loads): ARMv8 satisfies loads out of
// order, so a later load may return a value that was overwritten before an
// earlier load ran — an intermediate value no cache copy of the in-order
// machine could still hold. The rules mirror the ones for stores: only
// plain loads, relaxed RMWs that cannot fail and register arithmetic are
// overtaken; the load's address does not depend on them; none of them
// reads its location (accesses to one location stay in order); no
// unresolved branch, acquire, barrier, RCU or lock operation is passed;
// and its destination register is neither read nor written by an
// overtaken instruction.

// earlyKind is what an early-issue candidate is.
type earlyKind uint8

const (
	earlyStore earlyKind = iota
	earlyWmb
	earlyLoad // a plain load, or a conditional RMW or trylock that fails
)

// earlyCandidates walks CPU c's program from its pc over unexecuted plain
// loads, register arithmetic and plain stores that cannot go ahead
// themselves, evaluating what it can on a shadow copy of
// the registers, and calls yield for every later instruction that may be
// issued early: a store or smp_wmb (with the location and value it would
// store), or a load (with its location).
//
// For a store, yield also gets the SRCU sections its value carries.
func (m *Machine) earlyCandidates(s *State, c int, yield func(k int, kind earlyKind, l Loc, v Value, secs uint32)) {
	cs := &s.cpus[c]
	code := m.code(c)
	if m.Mode != ARM || int(cs.pc) >= len(code) || cs.fault || (cs.acqWait && len(cs.iq) > 0) {
		return
	}
	var shadow [MaxRegs]Value
	copy(shadow[:], cs.regs)
	var shadowSecs [MaxRegs]uint32
	copy(shadowSecs[:], cs.secs)
	exprSecs := func(e *Expr) uint32 {
		var secs uint32
		for r := e.Regs(); r != 0; r &= r - 1 {
			secs |= shadowSecs[bits.TrailingZeros32(r)]
		}
		return secs
	}
	var tainted uint32     // registers that depend on an overtaken load
	var touched uint32     // registers an overtaken instruction reads or writes
	var skippedLocs uint64 // locations read by overtaken loads
	unknownAddr := false   // an overtaken load's address is not yet known
	skippedLoad := false
	passedRMW := false       // an overtaken relaxed RMW: stores may not pass it
	var skippedStores uint64 // locations written by overtaken stores
	for i := int(cs.pc); i < len(code); {
		if cs.early&(1<<uint(i)) != 0 {
			i++
			continue
		}
		in := &code[i]
		switch in.Op {
		case OpAssign:
			if in.Val.Regs()&tainted != 0 {
				tainted |= 1 << in.Dst
			} else {
				shadow[in.Dst] = in.Val.Eval(shadow[:])
				shadowSecs[in.Dst] = exprSecs(in.Val)
				tainted &^= 1 << in.Dst
			}
			touched |= in.Val.Regs() | 1<<in.Dst
			i++
			continue
		case OpJump:
			i = in.Target
			continue
		case OpBranch:
			if in.Cond.Regs()&tainted != 0 {
				return // nothing is issued past an unresolved branch
			}
			touched |= in.Cond.Regs()
			if in.Cond.Eval(shadow[:]) == 0 {
				i = in.Target
			} else {
				i++
			}
			continue
		case OpLoad, OpRMW, OpTryLock:
			if in.Op == OpLoad && in.Access == Acquire {
				return
			}
			addrKnown := in.Addr.Regs()&tainted == 0
			l, isLoc := in.Addr.Eval(shadow[:]).AsLoc()
			isLoc = isLoc && int(l) < len(m.Prog.Locs)
			if skippedLoad && addrKnown && isLoc && !unknownAddr && (skippedLocs|skippedStores)&(1<<l) == 0 &&
				(!in.HasDst || touched&(1<<in.Dst) == 0) && m.earlyLoadOK(s, c, in, l, shadow[:], tainted) {
				yield(i, earlyLoad, l, 0, 0)
			}
			if in.Op != OpLoad {
				// Whether an RMW or trylock fails is decided when it runs:
				// nothing may overtake one that has not. A relaxed RMW that
				// cannot fail is a load and a store of its own line, which
				// ARMv8 lets later loads (not stores) overtake.
				if in.Op != OpRMW || in.Order != OrderRelaxed || in.isConditional() || !addrKnown || !isLoc {
					return
				}
				passedRMW = true
			}
			if !addrKnown || !isLoc {
				unknownAddr = true
			} else {
				skippedLocs |= 1 << l
			}
			touched |= in.Addr.Regs()
			if in.HasDst {
				tainted |= 1 << in.Dst
				touched |= 1 << in.Dst
			}
			skippedLoad = true
			i++
			continue
		case OpFence:
			if m.fenceKind(in.Fence) == fenceNone {
				i++ // compiler barriers and no-op fences order nothing here
				continue
			}
			if in.Fence == FenceWmb && skippedLoad && !passedRMW && skippedStores == 0 {
				yield(i, earlyWmb, 0, 0, 0)
			}
			return
		case OpStore:
			if !skippedLoad || passedRMW || in.Access.IsRelease() || in.Addr.Regs()&tainted != 0 || unknownAddr {
				return
			}
			l, ok := in.Addr.Eval(shadow[:]).AsLoc()
			if !ok || int(l) >= len(m.Prog.Locs) {
				return
			}
			if in.Val.Regs()&tainted == 0 && (skippedLocs|skippedStores)&(1<<l) == 0 {
				yield(i, earlyStore, l, in.Val.Eval(shadow[:]), exprSecs(in.Val))
				return // stores after it may go ahead once it has
			}
			// It cannot go ahead itself (its value comes from an overtaken
			// load, or an overtaken access touches its location), but
			// ARMv8 orders a plain store before neither later stores nor
			// later loads of other locations: walk past it.
			skippedStores |= 1 << l
			touched |= in.Addr.Regs() | in.Val.Regs()
			i++
			continue
		default:
			return
		}
	}
}

// earlyLoadOK reports whether instruction in, reading l, is a load that may
// be satisfied early: a plain load, or a conditional RMW or trylock whose
// operands are known and which fails if performed now (a failed one is a
// plain load with no ordering; one that succeeds writes, and RMWs are
// never performed early).
func (m *Machine) earlyLoadOK(s *State, c int, in *Instr, l Loc, shadow []Value, tainted uint32) bool {
	switch in.Op {
	case OpLoad:
		return true
	case OpTryLock:
		return m.trylockFails(s, c, in, l)
	case OpRMW:
		if !in.isConditional() || in.Order == OrderAcquire || (in.Val.Regs()|in.Exp.Regs())&tainted != 0 {
			return false
		}
		return rmwFails(in, m.view(s, c, in, l, false), shadow)
	}
	return false
}

func (m *Machine) appendEarly(out []Step, s *State, c int) []Step {
	m.earlyCandidates(s, c, func(k int, _ earlyKind, _ Loc, _ Value, _ uint32) {
		out = append(out, Step{Kind: StepEarly, CPU: uint8(c), Arg: uint8(k)})
	})
	return out
}

// earlyLoc returns the location early candidate k of CPU c reads or writes,
// and whether k is a candidate that loads.
func (m *Machine) earlyLoc(s *State, c, k int) (Loc, bool) {
	var loc Loc
	isLoad := false
	m.earlyCandidates(s, c, func(i int, kind earlyKind, l Loc, _ Value, _ uint32) {
		if i == k {
			loc, isLoad = l, kind == earlyLoad
		}
	})
	return loc, isLoad
}

func (m *Machine) execEarly(s *State, c, k int, ev *Event) {
	cs := &s.cpus[c]
	found := false
	var kind earlyKind
	var loc Loc
	var val Value
	var secs uint32
	m.earlyCandidates(s, c, func(i int, kd earlyKind, l Loc, v Value, vs uint32) {
		if i == k {
			found, kind, loc, val, secs = true, kd, l, v, vs
		}
	})
	if !found {
		return
	}
	if ev != nil {
		ev.Instr = k
		ev.Early = true
	}
	cs.acqWait = false
	in := &m.code(c)[k]
	switch kind {
	case earlyWmb:
		m.insertWmb(cs)
	case earlyStore:
		cs.sb = append(cs.sb, SBEntry{Loc: loc, Kind: EntryPlain, Val: val, Secs: secs, Instr: uint8(k)})
	case earlyLoad:
		switch in.Op {
		case OpLoad:
			m.preLoad(s, c, in, false, ev)
			v := m.load(s, c, loc, ev)
			m.setDst(s, c, in, v, s.readSecs(c, loc), true)
		case OpTryLock:
			m.failTrylock(s, c, in, loc, ev)
		case OpRMW:
			m.failRMW(s, c, in, loc, ev)
		}
	}
	cs.early |= 1 << uint(k)
	cs.executed |= 1 << uint(k)
}
