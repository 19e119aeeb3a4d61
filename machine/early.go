package machine

import "math/bits"

// Out-of-order issue (ARM-like mode), RULES.md "Out-of-order issue": a CPU
// may perform a later instruction k before earlier ones it has not
// performed yet, when ARMv8 does not order k after them and nothing k
// needs depends on them. Every rule here was found missing by herd7's
// ARMv8 model and is checked against it by random programs
// (scenarios/litmusgen) and against the reference explorer.
//
// What k may overtake (the walk of earlyCandidates): plain loads, register
// arithmetic, branches whose condition it knows, fences that do nothing in
// this mode, plain stores that cannot go ahead themselves (their value
// comes from an overtaken load, or an overtaken access touches their
// location: ARMv8 orders a plain store before neither later stores nor
// later loads of other locations; litmusgen regression
// arm-missing-store-past-store-50174), relaxed RMWs, conditional or not
// (a load and an exclusive store of their own line, which ARMv8 orders
// before nothing later of other lines, whether they succeed or fail), and
// smp_rmb when no overtaken read it orders (every load and RMW but a
// no-return atomic's: herd7's NORETURN, which DMB ISHLD does not order)
// and its condition, an empty invalidation queue, holds now. Never an
// unresolved branch (a store is not made visible past one; loads could
// be, but see RULES.md's gaps), an acquire, a release, a fully ordered or
// release RMW, a lock operation, another barrier, or an RCU or SRCU
// operation.
//
// What k may be: a plain store (with the location and value it stores;
// once one has gone, the stores after it may follow), smp_wmb (when no
// store or RMW write was overtaken, which its marker would otherwise
// order after later stores), or an access whose address is known and
// touched by nothing overtaken, whose destination nothing overtaken reads
// or writes, and whose operands nothing overtaken writes:
//   - a plain load, or a conditional RMW or trylock that fails if
//     performed now (a plain load): it may return a value overwritten
//     before an earlier load ran (load->load reordering);
//   - a relaxed RMW that succeeds (an exclusive RMW: LB through relaxed
//     RMWs, litmusgen gap rmw-read-early);
//   - an acquire: smp_load_acquire, an _acquire RMW (an acquire load if it
//     fails), spin_lock, a spin_trylock that succeeds, each under the
//     conditions it has in order (no pending release of its own, the lock
//     free, the line not reserved). ARMv8 orders an acquire before what
//     follows it, not after what precedes it. The wait after an acquire
//     then holds up the overtaken instructions too, until the queue is
//     empty: that costs the outcomes in which an overtaken load reads a
//     copy that went stale after the acquire, never a forbidden one.
// The overtaken instructions run later as usual; the UI marks k "issued
// early" until they have.

// earlyKind is what an early-issue candidate is.
type earlyKind uint8

const (
	earlyStore earlyKind = iota
	earlyWmb
	earlyLoad    // a plain load, or a conditional RMW or trylock that fails
	earlyRMW     // a relaxed RMW that succeeds: an exclusive RMW
	earlyAcquire // smp_load_acquire, an _acquire RMW, spin_lock, a spin_trylock that succeeds
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
	var written uint32     // registers an overtaken instruction writes
	var skippedLocs uint64 // locations read by overtaken loads and RMWs
	unknownAddr := false   // an overtaken load's address is not yet known
	skipped := false       // some access was overtaken
	// skippedRMW: an overtaken relaxed RMW, whose write no early smp_wmb
	// may be put before. skippedRead: an overtaken read that smp_rmb
	// orders (every load and RMW but a no-return atomic's).
	skippedRMW, skippedRead := false, false
	var skippedStores uint64 // locations written by overtaken stores and RMWs
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
			written |= 1 << in.Dst
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
		case OpLoad, OpRMW, OpTryLock, OpLock:
			addrKnown := in.Addr.Regs()&tainted == 0
			l, isLoc := in.Addr.Eval(shadow[:]).AsLoc()
			isLoc = isLoc && int(l) < len(m.Prog.Locs)
			// free: the access may go ahead of what it overtook: its
			// address is known and touched by nothing overtaken, and its
			// destination is neither read nor written by what it passes.
			free := skipped && addrKnown && isLoc && !unknownAddr && (skippedLocs|skippedStores)&(1<<l) == 0 &&
				(!in.HasDst || touched&(1<<in.Dst) == 0)
			if free {
				if kind, ok := m.earlyAccess(s, c, in, l, shadow[:], tainted, written); ok {
					yield(i, kind, l, 0, 0)
				}
			}
			// What may be walked past: plain loads, and relaxed RMWs (a
			// load and an exclusive store of their own line, which ARMv8
			// orders before neither later loads nor later stores of other
			// lines, whether they succeed or, conditional, fail). Not an
			// acquire, which orders what follows it, a fully ordered or
			// release RMW, or a lock operation.
			switch {
			case in.Op == OpLoad && in.Access != Acquire:
			case in.Op == OpRMW && in.Order == OrderRelaxed && addrKnown && isLoc:
				skippedRMW = true
				skippedStores |= 1 << l
			default:
				return
			}
			if !addrKnown || !isLoc {
				unknownAddr = true
			} else {
				skippedLocs |= 1 << l
			}
			touched |= in.Addr.Regs() | in.Val.Regs() | in.Exp.Regs()
			if in.HasDst {
				tainted |= 1 << in.Dst
				touched |= 1 << in.Dst
				written |= 1 << in.Dst
			}
			skippedRead = skippedRead || !in.noReturn()
			skipped = true
			i++
			continue
		case OpFence:
			switch m.fenceKind(in.Fence) {
			case fenceNone:
				i++ // compiler barriers and no-op fences order nothing here
				continue
			case fenceRead:
				// smp_rmb (DMB ISHLD) orders the reads before it, no-return
				// atomics' excepted, with everything after it: it may be
				// passed when no such read was overtaken and its condition
				// (an empty queue) holds now.
				if !skippedRead && len(cs.iq) == 0 {
					i++
					continue
				}
			case fenceWrite:
				if skipped && !skippedRMW && skippedStores == 0 {
					yield(i, earlyWmb, 0, 0, 0)
				}
			}
			return
		case OpStore:
			if !skipped || in.Access.IsRelease() || in.Addr.Regs()&tainted != 0 || unknownAddr {
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

// noReturn reports whether in is a non-returning atomic (atomic_inc,
// atomic_add, ...): herd7 tags its read NORETURN, and ARMv8's DMB ISHLD
// does not order it (as for LSE ST<op>). The rules otherwise read Op and
// its flavour; which C primitive it was matters only here.
func (in *Instr) noReturn() bool {
	return in.Op == OpRMW && in.Prim >= PrimAtomicAdd && in.Prim <= PrimAtomicDec
}

// earlyAccess reports whether instruction in, accessing l, may be
// performed now ahead of the unexecuted instructions before it (which it
// is free of: see earlyCandidates), and as what: a plain load (a load, or
// a conditional RMW or trylock that fails if performed now), an exclusive
// RMW (a relaxed one that succeeds), or an acquire (smp_load_acquire, an
// _acquire RMW whether it succeeds or fails, spin_lock, a spin_trylock
// that succeeds), each under the conditions it has when it runs in order.
// An RMW's or lock's operands and address must not be registers an
// overtaken instruction writes: it runs on the CPU's registers.
func (m *Machine) earlyAccess(s *State, c int, in *Instr, l Loc, shadow []Value, tainted, written uint32) (earlyKind, bool) {
	cs := &s.cpus[c]
	if in.Op == OpLoad {
		if in.Access != Acquire {
			return earlyLoad, true
		}
		return earlyAcquire, in.Addr.Regs()&written == 0 && releaseMask(cs.sb) == 0
	}
	if (in.Addr.Regs()|in.Val.Regs()|in.Exp.Regs())&(tainted|written) != 0 {
		return 0, false
	}
	switch in.Op {
	case OpTryLock:
		if m.trylockFails(s, c, in, l) {
			return earlyLoad, true
		}
		return earlyAcquire, m.exclusiveWait(s, c, l, true).kind == WaitNone
	case OpLock:
		return earlyAcquire, s.Latest(l) == 0 && s.reservedBy(c, l) < 0 && m.exclusiveWait(s, c, l, true).kind == WaitNone
	}
	acquire := in.Order == OrderAcquire
	if in.isConditional() && rmwFails(in, m.view(s, c, in, l, acquire), shadow) {
		// A failed conditional RMW is a plain load (an acquire load for
		// _acquire), with no barrier.
		if acquire {
			return earlyAcquire, releaseMask(cs.sb) == 0
		}
		return earlyLoad, true
	}
	switch in.Order {
	case OrderRelaxed:
		return earlyRMW, m.exclusiveWait(s, c, l, false).kind == WaitNone
	case OrderAcquire:
		return earlyAcquire, m.exclusiveWait(s, c, l, true).kind == WaitNone
	}
	return 0, false // a fully ordered or release RMW waits for what precedes it
}

func (m *Machine) appendEarly(out []Step, s *State, c int) []Step {
	m.earlyCandidates(s, c, func(k int, _ earlyKind, _ Loc, _ Value, _ uint32) {
		out = append(out, Step{Kind: StepEarly, CPU: uint8(c), Arg: uint8(k)})
	})
	return out
}

// earlyLoc returns the location early candidate k of CPU c reads or writes,
// and what kind of candidate it is.
func (m *Machine) earlyLoc(s *State, c, k int) (Loc, earlyKind) {
	var loc Loc
	var kind earlyKind
	m.earlyCandidates(s, c, func(i int, kd earlyKind, l Loc, _ Value, _ uint32) {
		if i == k {
			loc, kind = l, kd
		}
	})
	return loc, kind
}

// reads reports whether candidates of kind k read their location.
func (k earlyKind) reads() bool { return k == earlyLoad || k == earlyRMW || k == earlyAcquire }

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
	case earlyRMW, earlyAcquire:
		// As in order: the address and operands are the CPU's own
		// registers, which nothing overtaken writes.
		m.access(s, c, in, k, ev)
	}
	cs.early |= 1 << uint(k)
	cs.executed |= 1 << uint(k)
}
