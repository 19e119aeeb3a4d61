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
// this mode, nested rcu_read_lock()s and rcu_read_unlock()s that leave the
// CPU inside its section, plain stores that cannot go ahead themselves (their value
// comes from an overtaken load, or an overtaken access touches their
// location: ARMv8 orders a plain store before neither later stores nor
// later loads of other locations; litmusgen regression
// arm-missing-store-past-store-50174), relaxed RMWs, conditional or not
// (a load and an exclusive store of their own line, which ARMv8 orders
// before nothing later of other lines, whether they succeed or fail),
// _release RMWs by plain loads, relaxed RMWs and plain stores only (the
// release orders what precedes the RMW's write, and its read is an
// ordinary load; litmusgen regressions arm-missing-*-past-release-rmw-*),
// smp_rmb when no overtaken read it orders (every load and RMW but a
// no-return atomic's: herd7's NORETURN, which DMB ISHLD does not order)
// and its condition, an empty invalidation queue, holds now, and a fully
// ordered cmpxchg or atomic_add_unless, on the guess that it fails (a
// failed one is a plain load; exec checks the guess when it runs, and if
// it succeeds the state is no execution, as for a wrong branch guess). A branch
// whose condition depends on an overtaken load only by reads (ARMv8's
// control dependencies order stores, not loads: the reads are a guess of
// the branch's direction, and a wrong guess is no execution; see
// earlyCandidates and jump); nothing that writes is issued past one but a
// plain store, whose entry is guarded: forwarded to the CPU's own later
// loads (PPOCA), committed only once the branch has been performed (a
// store is not made visible past an unresolved branch; past a _release
// RMW, which waits for every buffered store, a store goes only if no
// branch after that RMW guards it, and likewise past a fully ordered
// cmpxchg guessed to fail). Never an acquire, a release store, another
// fully ordered RMW, a lock operation,
// another barrier, an SRCU operation, or an outermost rcu_read_lock() or
// rcu_read_unlock() (while a grace period can run).
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

// earlyCand is one instruction that may be issued early, as
// earlyCandidates finds it.
type earlyCand struct {
	k    int
	kind earlyKind
	loc  Loc
	val  Value  // a store's value
	secs uint32 // the SRCU sections a store's value carries
	// pastRelease: a store issued before an overtaken _release RMW or
	// release store, which then waits for it to commit (so issuing it is
	// a choice, not only a freedom: explore.go, earlyStore).
	pastRelease bool
	// guess is the first instruction k is issued past whose outcome is
	// not known yet (-1 if none): a branch whose condition depends on an
	// overtaken load (k is performed before the CPU knows which way it
	// goes, checked when it resolves: see jump), or a fully ordered
	// conditional RMW guessed to fail (checked when it runs: execRMW).
	// last is the last such branch: past a branch, reads are issued, and
	// plain stores, whose entries wait for it before they commit.
	guess, last int
}

// earlyWalk is the state of earlyCandidates' walk along one path.
type earlyWalk struct {
	shadow     [MaxRegs]Value
	shadowSecs [MaxRegs]uint32
	tainted    uint32 // registers that depend on an overtaken load
	touched    uint32 // registers an overtaken instruction reads or writes
	written    uint32 // registers an overtaken instruction writes
	// skippedLocs: locations read by overtaken loads and RMWs;
	// skippedStores: locations written by overtaken stores and RMWs.
	skippedLocs, skippedStores uint64
	unknownAddr                bool // an overtaken load's address is not yet known
	skipped                    bool // some access was overtaken
	// skippedRMW: an overtaken relaxed RMW, whose write no early smp_wmb
	// may be put before. skippedRead: an overtaken read that smp_rmb
	// orders (every load and RMW but a no-return atomic's).
	skippedRMW, skippedRead bool
	// The overtaken release RMWs: the first that always writes (not a
	// cmpxchg or atomic_add_unless), and the first conditional one, or
	// -1. Only plain loads, relaxed RMWs and plain stores may pass one;
	// and an acquire other than a spin_trylock, when every release RMW
	// it passes is conditional, on the guess that they fail.
	releaseFixed, releaseGuess int
	guess                      int // the first unresolved branch passed, or -1
	last                       int // the last unresolved branch passed, or -1
	// failGuess: the first overtaken fully ordered conditional RMW, or
	// -1. What passes it is performed on the guess that it fails (a
	// failed cmpxchg orders nothing); exec checks the guess when it runs.
	failGuess int
	// depth is the CPU's RCU nesting depth where the walk is: what it
	// would be once the overtaken rcu_read_lock()s and unlocks had run.
	depth int
	// releaseStore: an overtaken release store (smp_store_release,
	// rcu_assign_pointer), which only plain stores may pass.
	releaseStore bool
}

func (w *earlyWalk) exprSecs(e *Expr) uint32 {
	var secs uint32
	for r := e.Regs(); r != 0; r &= r - 1 {
		secs |= w.shadowSecs[bits.TrailingZeros32(r)]
	}
	return secs
}

// join merges the walks of an unresolved branch's two bodies, a and b,
// which both started from w: what follows the join is issued early only
// if it may be on either path. A register either body writes depends on
// the branch, so on an overtaken load.
func (w *earlyWalk) join(a, b *earlyWalk) {
	w.tainted = a.tainted | b.tainted | (a.written|b.written)&^w.written
	w.touched = a.touched | b.touched
	w.written = a.written | b.written
	w.skippedLocs = a.skippedLocs | b.skippedLocs
	w.skippedStores = a.skippedStores | b.skippedStores
	w.unknownAddr = a.unknownAddr || b.unknownAddr
	w.skipped = a.skipped || b.skipped
	w.skippedRMW = a.skippedRMW || b.skippedRMW
	w.releaseFixed = firstOf(a.releaseFixed, b.releaseFixed)
	w.releaseGuess = firstOf(a.releaseGuess, b.releaseGuess)
	w.skippedRead = a.skippedRead || b.skippedRead
	w.depth = min(a.depth, b.depth)
	w.failGuess = firstOf(a.failGuess, b.failGuess)
	w.releaseStore = a.releaseStore || b.releaseStore
}

// firstOf returns the smaller of two instruction indexes, -1 meaning none.
func firstOf(a, b int) int {
	if a < 0 || b >= 0 && b < a {
		return b
	}
	return a
}

// firstRelease is the first overtaken release RMW, or -1.
func (w *earlyWalk) firstRelease() int { return firstOf(w.releaseFixed, w.releaseGuess) }

// firstGuess is the first instruction whose outcome a candidate found
// here is performed before: an unresolved branch or a fully ordered
// conditional RMW guessed to fail; -1 if none.
func (w *earlyWalk) firstGuess() int { return firstOf(w.guess, w.failGuess) }

// bodies returns the then-body [i+1, thenEnd) and the else-body
// [thenEnd or elseStart, join) of branch i (ThreadBuilder.If's layout: an
// else-body is preceded by the jump that ends the then-body).
func bodies(code []Instr, i int) (thenEnd, elseStart, join int) {
	t := code[i].Target
	if t-1 > i && code[t-1].Op == OpJump && code[t-1].Target > t {
		return t - 1, t, code[t-1].Target
	}
	return t, t, t
}

// earlyMask returns the bits of mask in [from, to).
func earlyMask(mask uint64, from, to int) uint64 {
	if to <= from {
		return 0
	}
	var r uint64
	if to >= 64 {
		r = ^uint64(0)
	} else {
		r = uint64(1)<<uint(to) - 1
	}
	return mask & r &^ (uint64(1)<<uint(from) - 1)
}

// earlyCandidates walks CPU c's program from its pc over unexecuted plain
// loads, register arithmetic and plain stores that cannot go ahead
// themselves, evaluating what it can on a shadow copy of the registers,
// and calls yield for every later instruction that may be issued early: a
// store or smp_wmb (with the location and value it would store), or a
// load (with its location).
//
// A branch whose condition depends on an overtaken load is walked both
// ways (ARMv8 does not order a load after a conditional branch): a read
// inside either body may be performed before the condition is known,
// which is a guess that the CPU then goes that way (jump checks it, and
// a wrong guess is not an execution). Once the CPU has guessed (it
// performed something inside one body), only that body is walked. After
// the join, reads may go ahead when they may on both paths. Nothing that
// writes is issued past an unresolved branch but a plain store, whose
// entry is guarded (SBEntry.Guard: it commits only once the branch has
// been performed, RULES.md "knowingly differs"): no smp_wmb, RMW that
// writes or lock.
func (m *Machine) earlyCandidates(s *State, c int, yield func(earlyCand)) {
	cs := &s.cpus[c]
	code := m.code(c)
	if m.Mode != ARM || int(cs.pc) >= len(code) || cs.fault || cs.misspec != 0 || (cs.acqWait && len(cs.iq) > 0) {
		return
	}
	w := earlyWalk{guess: -1, last: -1, releaseFixed: -1, releaseGuess: -1, failGuess: -1, depth: int(cs.rcuDepth)}
	copy(w.shadow[:], cs.regs)
	copy(w.shadowSecs[:], cs.secs)
	m.earlyWalk(s, c, int(cs.pc), len(code), &w, yield)
}

// earlyWalk walks [from, to) of CPU c's program (see earlyCandidates),
// and reports whether it got to the end, which it does not when it meets
// an instruction nothing may be issued past.
func (m *Machine) earlyWalk(s *State, c, from, to int, w *earlyWalk, yield func(earlyCand)) bool {
	cs := &s.cpus[c]
	code := m.code(c)
	for i := from; i < to; {
		if cs.early&(1<<uint(i)) != 0 {
			i++
			continue
		}
		in := &code[i]
		// Nothing that writes passes an unresolved branch, but a plain
		// store whose entry waits for it (a guarded entry, below).
		writeOK := w.guess < 0
		switch in.Op {
		case OpAssign:
			if in.Val.Regs()&w.tainted != 0 {
				w.tainted |= 1 << in.Dst
			} else {
				w.shadow[in.Dst] = in.Val.Eval(w.shadow[:])
				w.shadowSecs[in.Dst] = w.exprSecs(in.Val)
				w.tainted &^= 1 << in.Dst
			}
			w.touched |= in.Val.Regs() | 1<<in.Dst
			w.written |= 1 << in.Dst
			i++
			continue
		case OpJump:
			i = in.Target
			continue
		case OpBranch:
			w.touched |= in.Cond.Regs()
			if in.Cond.Regs()&w.tainted == 0 {
				if in.Cond.Eval(w.shadow[:]) == 0 {
					i = in.Target
				} else {
					i++
				}
				continue
			}
			thenEnd, elseStart, join := bodies(code, i)
			if join > to {
				return false // not ThreadBuilder.If's layout: walk no further
			}
			if !m.earlyWalkBranch(s, c, i, thenEnd, elseStart, join, w, yield) {
				return false
			}
			i = join
			continue
		case OpLoad, OpRMW, OpTryLock, OpLock:
			addrKnown := in.Addr.Regs()&w.tainted == 0
			l, isLoc := in.Addr.Eval(w.shadow[:]).AsLoc()
			isLoc = isLoc && int(l) < len(m.Prog.Locs)
			// free: the access may go ahead of what it overtook: its
			// address is known and touched by nothing overtaken, and its
			// destination is neither read nor written by what it passes.
			free := w.skipped && !w.releaseStore && addrKnown && isLoc && !w.unknownAddr && (w.skippedLocs|w.skippedStores)&(1<<l) == 0 &&
				(!in.HasDst || w.touched&(1<<in.Dst) == 0)
			if free {
				if kind, writes, ok := m.earlyAccess(s, c, in, l, w.shadow[:], w.tainted, w.written); ok && (writeOK || !writes) {
					switch {
					case w.firstRelease() < 0 || kind == earlyLoad || kind == earlyRMW:
						yield(earlyCand{k: i, kind: kind, loc: l, guess: w.firstGuess(), last: w.last})
					case w.releaseFixed < 0 && in.Op != OpTryLock:
						// An acquire past conditional release RMWs
						// only: on the guess that they fail.
						yield(earlyCand{k: i, kind: kind, loc: l, guess: firstOf(w.firstGuess(), w.releaseGuess), last: w.last})
					}
				}
			}
			// What may be walked past: plain loads, and relaxed RMWs (a
			// load and an exclusive store of their own line, which ARMv8
			// orders before neither later loads nor later stores of other
			// lines, whether they succeed or, conditional, fail); and, by
			// plain loads, relaxed RMWs and plain stores only, a release
			// RMW: its release orders what precedes its write, and its
			// read is an ordinary load, which a later access of another
			// line may be performed before (litmusgen regressions
			// arm-missing-load-past-release-rmw-700058,
			// arm-missing-rmw-past-release-rmw-900589 and
			// arm-missing-store-past-release-rmw-1200308).
			// A fully ordered conditional RMW (cmpxchg,
			// atomic_add_unless) is passed on the guess that it fails:
			// then it is a plain load, which orders nothing (litmusgen
			// regression arm-missing-rmw-past-failing-cmpxchg-5000009).
			// So is a conditional release RMW by an acquire: a failed
			// cmpxchg_release makes no release write, which is what
			// orders a later acquire after it (release→acquire;
			// arm-missing-acquire-past-failing-cmpxchg-release-8000309).
			// Whether it fails is known only when it reads, so what
			// passes it is a guess, checked when it runs (execRMW): if
			// it succeeds, the state is no execution. Not an acquire,
			// which orders what follows it, another fully ordered RMW,
			// or a lock operation.
			switch {
			case in.Op == OpLoad && in.Access != Acquire:
			case in.Op == OpRMW && (in.Order == OrderRelaxed || in.Order == OrderRelease) && addrKnown && isLoc:
				w.skippedRMW = true
				w.skippedStores |= 1 << l
				if in.Order == OrderRelease {
					if in.isConditional() {
						w.releaseGuess = firstOf(w.releaseGuess, i)
					} else {
						w.releaseFixed = firstOf(w.releaseFixed, i)
					}
				}
			case in.Op == OpRMW && in.Order == OrderFull && in.isConditional() && addrKnown && isLoc:
				w.skippedRMW = true
				w.skippedStores |= 1 << l
				if w.failGuess < 0 {
					w.failGuess = i
				}
			default:
				return false
			}
			if !addrKnown || !isLoc {
				w.unknownAddr = true
			} else {
				w.skippedLocs |= 1 << l
			}
			w.touched |= in.Addr.Regs() | in.Val.Regs() | in.Exp.Regs()
			if in.HasDst {
				w.tainted |= 1 << in.Dst
				w.touched |= 1 << in.Dst
				w.written |= 1 << in.Dst
			}
			w.skippedRead = w.skippedRead || !in.noReturn()
			w.skipped = true
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
				if !w.skippedRead && len(cs.iq) == 0 {
					i++
					continue
				}
			case fenceWrite:
				if w.skipped && !w.skippedRMW && w.skippedStores == 0 && writeOK {
					yield(earlyCand{k: i, kind: earlyWmb, guess: -1, last: -1})
				}
			}
			return false
		case OpRCULock, OpRCUUnlock:
			// Without a synchronize_rcu nothing observes a read-side
			// section (the markers are folded, as register arithmetic
			// is): they order nothing, in ARMv8 as in LKMM.
			if !m.hasSync {
				i++
				continue
			}
			// Inside a section, a nested marker that leaves the CPU
			// inside it orders nothing either (it is no instruction on
			// ARMv8, and LKMM's sections are the outermost pairs): k is
			// performed inside the same outermost section whichever
			// comes first, and the CPU, at depth 1 or more all along,
			// reports no quiescent state in between (litmusgen
			// regression arm-missing-early-past-nested-rcu-lock). An
			// outermost lock or unlock stays a wall: k would leave its
			// section, and a quiescent state could be reported across it.
			if in.Op == OpRCULock && w.depth >= 1 {
				w.depth++
				i++
				continue
			}
			if in.Op == OpRCUUnlock && w.depth >= 2 {
				w.depth--
				i++
				continue
			}
			return false
		case OpStore, OpUnlock:
			if !w.skipped || in.Addr.Regs()&w.tainted != 0 || w.unknownAddr {
				return false
			}
			l, ok := in.Addr.Eval(w.shadow[:]).AsLoc()
			if !ok || int(l) >= len(m.Prog.Locs) {
				return false
			}
			if in.Op == OpUnlock || in.Access.IsRelease() {
				// A release store (spin_unlock is one, of the lock) orders
				// what precedes it before its write, and nothing after it
				// (STLR): a later plain store of another location may
				// become visible before it and before the loads it waits
				// for (LB with a release store in the middle; litmusgen
				// regressions arm-missing-store-past-release-store and
				// arm-missing-store-past-unlock-16000094). It is never
				// issued early itself, and passing it is left to plain
				// stores: not an acquire (release→acquire is ordered),
				// nor a load or an RMW, which the rules here were not
				// checked for. A store issued past it is older than its
				// entry, which then waits for it to commit (pastRelease).
				if w.guess >= 0 {
					return false
				}
				w.releaseStore = true
				w.skippedStores |= 1 << l
				w.touched |= in.Addr.Regs() | in.Val.Regs()
				i++
				continue
			}
			// A release RMW waits until its CPU's buffered stores have
			// committed, those issued early past it too: a store whose
			// entry waited for a branch after that RMW would never commit
			// (rules_test.go's deadlock). Nothing is lost: the load the
			// branch depends on may itself pass the RMW, and once it has
			// been performed the branch is known and the store goes.
			// So does a fully ordered RMW that would succeed (and so
			// end the execution, the guess past it being wrong): it must
			// not be kept from running.
			release := w.firstRelease()
			stuck := release >= 0 && w.last > release || w.failGuess >= 0 && w.last > w.failGuess
			if in.Val.Regs()&w.tainted == 0 && (w.skippedLocs|w.skippedStores)&(1<<l) == 0 && !stuck {
				// Past an unresolved branch, the entry is guarded: it may
				// be forwarded to later loads of the CPU (PPOCA), but it
				// commits only once the branch has been performed.
				yield(earlyCand{k: i, kind: earlyStore, loc: l, val: in.Val.Eval(w.shadow[:]), secs: w.exprSecs(in.Val), guess: w.firstGuess(), last: w.last, pastRelease: release >= 0 || w.releaseStore})
				return false // stores after it may go ahead once it has
			}
			// It cannot go ahead itself (its value comes from an overtaken
			// load, or an overtaken access touches its location), but ARMv8 orders a plain store
			// before neither later stores nor later loads of other
			// locations: walk past it.
			w.skippedStores |= 1 << l
			w.touched |= in.Addr.Regs() | in.Val.Regs()
			i++
			continue
		default:
			return false
		}
	}
	return true
}

// earlyWalkBranch walks both bodies of the unresolved branch at i (then
// [i+1, thenEnd), else [elseStart, join)) from w, as earlyWalk does, and
// leaves in w what follows the join. It is a function of its own so that
// the two copies of w live on the stack: taken inside earlyWalk's loop,
// their addresses passed down the recursion made the compiler put them on
// the heap (two allocations per branch walked, issue 24).
func (m *Machine) earlyWalkBranch(s *State, c, i, thenEnd, elseStart, join int, w *earlyWalk, yield func(earlyCand)) bool {
	cs := &s.cpus[c]
	a, b := *w, *w
	if a.guess < 0 {
		a.guess, b.guess = i, i
	}
	a.last, b.last = i, i
	inThen := earlyMask(cs.early, i+1, thenEnd) != 0
	inElse := earlyMask(cs.early, elseStart, join) != 0
	switch {
	case inThen && inElse:
		return false // a wrong guess either way
	case inThen:
		if !m.earlyWalk(s, c, i+1, thenEnd, &a, yield) {
			return false
		}
		*w = a
	case inElse:
		if !m.earlyWalk(s, c, elseStart, join, &b, yield) {
			return false
		}
		*w = b
	default:
		okA := m.earlyWalk(s, c, i+1, thenEnd, &a, yield)
		okB := m.earlyWalk(s, c, elseStart, join, &b, yield)
		if !okA || !okB {
			return false
		}
		w.join(&a, &b)
		// A guarded store waits for every unresolved branch it
		// passed, those inside either body too.
		w.guess, w.last = a.guess, max(a.last, b.last)
	}
	return true
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
// that succeeds), each under the conditions it has when it runs in order,
// and whether it writes (which nothing past an unresolved branch does).
// An RMW's or lock's operands and address must not be registers an
// overtaken instruction writes: it runs on the CPU's registers.
func (m *Machine) earlyAccess(s *State, c int, in *Instr, l Loc, shadow []Value, tainted, written uint32) (kind earlyKind, writes, ok bool) {
	cs := &s.cpus[c]
	if in.Op == OpLoad {
		if in.Access != Acquire {
			return earlyLoad, false, true
		}
		return earlyAcquire, false, in.Addr.Regs()&written == 0 && releaseMask(cs.sb) == 0
	}
	if (in.Addr.Regs()|in.Val.Regs()|in.Exp.Regs())&(tainted|written) != 0 {
		return 0, false, false
	}
	switch in.Op {
	case OpTryLock:
		if m.trylockFails(s, c, in, l) {
			return earlyLoad, false, true
		}
		return earlyAcquire, true, m.exclusiveWait(s, c, l, true).kind == WaitNone
	case OpLock:
		return earlyAcquire, true, s.Latest(l) == 0 && s.reservedBy(c, l) < 0 && m.exclusiveWait(s, c, l, true).kind == WaitNone
	}
	acquire := in.Order == OrderAcquire
	if in.isConditional() && rmwFails(in, m.view(s, c, in, l, acquire), shadow) {
		// A failed conditional RMW is a plain load (an acquire load for
		// _acquire), with no barrier.
		if acquire {
			return earlyAcquire, false, releaseMask(cs.sb) == 0
		}
		return earlyLoad, false, true
	}
	switch in.Order {
	case OrderRelaxed:
		return earlyRMW, true, m.exclusiveWait(s, c, l, false).kind == WaitNone
	case OrderAcquire:
		return earlyAcquire, true, m.exclusiveWait(s, c, l, true).kind == WaitNone
	}
	return 0, false, false // a fully ordered or release RMW waits for what precedes it
}

func (m *Machine) appendEarly(out []Step, s *State, c int) []Step {
	m.earlyCandidates(s, c, func(e earlyCand) {
		out = append(out, Step{Kind: StepEarly, CPU: uint8(c), Arg: uint8(e.k)})
	})
	return out
}

// earlyLoc returns the location early candidate k of CPU c reads or writes,
// and what kind of candidate it is.
func (m *Machine) earlyLoc(s *State, c, k int) (Loc, earlyKind) {
	e, _ := m.earlyCand(s, c, k)
	return e.loc, e.kind
}

// earlyCand returns early candidate k of CPU c, if it is one.
func (m *Machine) earlyCand(s *State, c, k int) (earlyCand, bool) {
	var out earlyCand
	found := false
	m.earlyCandidates(s, c, func(e earlyCand) {
		if e.k == k {
			out, found = e, true
		}
	})
	return out, found
}

// Guess returns, for an early step st enabled in s, the first branch it
// would be performed past whose condition is not yet known (a guess of
// that branch's direction: see earlyCandidates), and -1 for any other
// step or an early step that guesses nothing.
func (m *Machine) Guess(s *State, st Step) int {
	if st.Kind != StepEarly || int(st.CPU) >= len(s.cpus) {
		return -1
	}
	if e, ok := m.earlyCand(s, int(st.CPU), int(st.Arg)); ok {
		return e.guess
	}
	return -1
}

// reads reports whether candidates of kind k read their location.
func (k earlyKind) reads() bool { return k == earlyLoad || k == earlyRMW || k == earlyAcquire }

func (m *Machine) execEarly(s *State, c, k int, ev *Event) {
	cs := &s.cpus[c]
	e, found := m.earlyCand(s, c, k)
	if !found {
		return
	}
	kind, loc, val, secs := e.kind, e.loc, e.val, e.secs
	if ev != nil {
		ev.Instr = k
		ev.Early = true
		ev.Guess = e.guess
	}
	cs.acqWait = false
	in := &m.code(c)[k]
	switch kind {
	case earlyWmb:
		m.insertWmb(cs)
	case earlyStore:
		cs.sb = append(cs.sb, SBEntry{Loc: loc, Kind: EntryPlain, Val: val, Secs: secs, Instr: uint8(k), Guard: uint8(e.last + 1)})
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
