package machine

import (
	"slices"
	"unsafe"
)

// Sleep sets (issue 24), on top of the persistent sets. A persistent set
// P(s) keeps the others' moves for later, but inside it every order of
// two moves that commute is still explored: s·a·b and s·b·a are the same
// state, reached twice, and what P(s·b) holds besides a can pull in
// states no other path needs. A sleep set Z(s), stored with each state,
// holds moves of s the search need not take from s because a path
// already taken covers them: from s it takes T(s) = P(s) ∖ Z(s), in the
// order macros returns them, t1 … tk, and gives the successor s·ti the
// sleep set
//
//	Zi = { b ∈ Z(s) ∪ {t1 … ti-1} : b commutes with ti at s }
//
// where "b commutes with a at s" (commute) is checked literally: b and a
// are moves of different CPUs, b is a move at s·a, a is a move at s·b, and
// s·a·b and s·b·a have equal search keys (each move as the search takes
// it, perform with its eager steps). It is the commutation the
// persistent sets' argument names (persistentset.go), asked of the state
// itself rather than derived from footprints, so the two cannot
// disagree.
//
// The argument. Moves, paths and ends (final, stuck and faulted states)
// are those of the unreduced move graph (every CPU's cpuMacros), which
// has no cycles, and an end "of e's kind" is a final state with e's
// outcome, a deadlock when e is one, a fault when e is one. What every
// choice of moves at a state (privateStep, persistentCPU, persistentSet,
// partialSet, or all the moves) guarantees is:
//
//	(P) for every end e reachable from s, some move a of P(s) has an end
//	of e's kind reachable from s·a.
//
// Claim, for every state s the search expands with sleep set Z: for every
// end e reachable from s, the search reaches an end of e's kind from s,
// or some b in Z has an end of e's kind reachable from s·b. By induction
// on the longest path from s. If s is an end, the search reports it. Else
// (P) gives a in P(s); if a is in Z the claim holds with b = a. Else a =
// ti, and by induction for s·ti (its sleep set is a subset of Zi, and a
// smaller sleep set only strengthens the claim) either the search reaches
// an end of e's kind from s·ti, or some b in Zi has one reachable from
// s·ti·b = s·b·ti — so from s·b. If that b is in Z the claim holds; else
// b = tj with j < i, and the same reasoning applies to tj with a smaller
// index, which ends. At the initial state Z is empty: every end's kind is
// reached.
//
// Deadlocks are ends like the others. Two places would lose them if done
// wrongly, and are not: a state whose moves are all asleep has an empty T
// but is no deadlock (the search decides stuck on P(s), before the sleep
// set is taken away); and (P) holds for stuck ends because every choice
// of P(s) is argued for deadlocks too (persistentset.go: a move of P
// stays enabled along a path that leaves P out, so such a path ends in
// no stuck state).
//
// What the search stores and when a sleep set is final. The search is
// breadth first by cost and stores each state once, so a state can be
// reached again, by another parent and another sleep set, before or after
// it is expanded. Its stored sleep set is the intersection of all it was
// reached with (a state reached with Z1 and Z2 is expanded with Z1 ∩ Z2,
// which the claim for both needs: the claim is monotone, a smaller set
// exploring more). Reached before its expansion, the intersection is
// simply stored; reached after it with a sleep set that is not a superset
// of the stored one (the Godefroid–Wolper case), the intersection is
// stored and the state is expanded again (redo): all of T(s) with the new
// set, each successor's stored set intersected with its new Zi, which
// re-expands those that shrink in turn. Sets only shrink, so this ends;
// when the search ends, every state's last expansion used its final set,
// and every successor's stored set is a subset of the Zi of that
// expansion, which is all the claim uses. A redo is no new state: it is
// not counted, reports no end again, and its new successors go into the
// current bucket (their cost from the redone state may be lower: only the
// shortness of witnesses, not their validity, depends on the order).
//
// Chains: the search does not store a state v = s·ti whose one move is a
// private step p (chain, P(v) = {p}). It counts as expanded with the
// sleep set Zi ∖ {p}, so that p is taken, and v·p gets the moves of Zi
// that commute with p at v (chainSleep; p itself does not, being of its
// own CPU), and so on along the chain: the claim above holds for v as
// for any state expanded.
// A successor stored renamed by an automorphism (symmetry.go) gets the
// empty set, always sound (it only strengthens the claim): its moves
// would have to be renamed too.
//
// Memory: a state stores the number of its sleep set (sleepSets interns
// the sets, which are few), four bytes.
//
// Where: only in programs with synchronize_rcu() (explorer.sleepy),
// issue 24's class, as with the step-level persistent sets: elsewhere
// the state counts and witnesses people see stay as they were, and no
// sleep set is stored. And not while grace-period steps are taken alone
// (redGraceStep): that choice does not satisfy (P). A grace period's
// start taken alone waits only for the readers inside sections then;
// the ends in which another CPU enters a section first are reached, in
// the search without sleep sets, through that CPU's move at an earlier
// state, which is exactly the path a sleep set prunes. A deadlock was
// lost so: P0 spin_lock(l); synchronize_rcu(); ... against P1
// rcu_read_lock(); spin_lock(l); ... — from the state where P0 holds l,
// the start alone finds no reader, while P1's rcu_read_lock, commuting
// with P0's spin_lock at the initial state, slept in the other branch
// (TestReductionRegressions, sleep-lock-under-gp). So with the default
// reductions, which take grace-period starts alone, sleep sets do not
// act; they are tested alone against the reference. Making them act
// needs a persistent-set argument for the start, or starts as ordinary
// moves with a footprint. Trading the grace-period step for sleep sets
// does not pay: with redGraceStep off, every grace-class run that
// finishes both ways is slower than the default search and nearly all
// store more states (ARM-like 8-CPU load→store cycle 351,366 → 511,412;
// TSO read-read G+G+R+R+R+R 3,379 → 141,898).

// sleepSets interns sleep sets: sorted packed moves (packMacro), the
// empty set numbered 0. It is written only between chunks (add, in the
// merge); the workers read it.
type sleepSets struct {
	sets [][]uint32
	ids  map[string]uint32
}

func (z *sleepSets) reset() {
	z.sets = append(z.sets[:0], nil)
	clear(z.ids)
}

func (z *sleepSets) intern(set []uint32) uint32 {
	if len(set) == 0 {
		return 0
	}
	if z.ids == nil {
		z.ids = make(map[string]uint32)
	}
	k := unsafe.String((*byte)(unsafe.Pointer(&set[0])), len(set)*4)
	if id, ok := z.ids[k]; ok {
		return id
	}
	id := uint32(len(z.sets))
	z.sets = append(z.sets, slices.Clone(set))
	z.ids[string([]byte(k))] = id
	return id
}

func (z *sleepSets) bytes() int64 {
	n := int64(len(z.sets)) * 24
	for _, s := range z.sets {
		n += int64(len(s))*4 + 48
	}
	return n
}

// subset reports whether sorted a ⊆ sorted b.
func subset(a, b []uint32) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

// intersect returns sorted a ∩ b in out.
func intersect(out, a, b []uint32) []uint32 {
	out = out[:0]
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			out = append(out, x)
		}
	}
	return out
}

// redoBit marks a chunk's work item as a redo (see above), and a state's
// sleep number as one waiting for its redo.
const redoBit = 1 << 31

// sleepOf returns the stored sleep set of state idx.
func (e *explorer) sleepOf(idx int) []uint32 {
	if !e.sleepy {
		return nil // no sleep sets: none stored (four bytes a state saved)
	}
	return e.sleeps.sets[e.nodes.sleep.at(idx)&^redoBit]
}

// sleepMove is a move of the state being expanded, the state it leads to
// (perform, no chain) computed when first needed.
type sleepMove struct {
	mv    macro
	key   uint32 // packMacro(mv)
	state scratch
	done  bool
	// moves[d] are CPU d's moves at the state after it, computed when
	// first needed (known).
	moves [MaxCPUs][]macro
	known uint32
}

// after returns s·x.mv, computing it once.
func (e *explorer) after(s *State, x *sleepMove) *State {
	if !x.done {
		t := x.state.load(s)
		e.perform(t, x.mv, nil, func(Step) {})
		x.done = true
	}
	return &x.state.st
}

// hasMove reports whether mv is one of its CPU's moves at the state after
// x.
func (e *explorer) hasMove(s *State, x *sleepMove, mv macro, w *worker) bool {
	t := e.after(s, x)
	if e.m.ended(t) {
		return false
	}
	d := int(mv.step.CPU)
	if x.known&(1<<d) == 0 {
		x.moves[d] = e.cpuMacros(x.moves[d][:0], t, d, w)
		x.known |= 1 << d
	}
	return slices.Contains(x.moves[d], mv)
}

// commute reports whether moves a and b of s (each with its state after
// it) commute at s: of different CPUs, each still a move after the other,
// and both orders reaching states with equal keys.
func (e *explorer) commute(s *State, a, b *sleepMove, w *worker) bool {
	if a.mv.step.CPU == b.mv.step.CPU {
		return false
	}
	if !e.hasMove(s, a, b.mv, w) || !e.hasMove(s, b, a.mv, w) {
		return false
	}
	sa, sb := e.after(s, a), e.after(s, b)
	t := w.slpAB.load(sa)
	e.perform(t, b.mv, nil, func(Step) {})
	w.slpKey = append(w.slpKey[:0], e.encode(t, w)...)
	t = w.slpAB.load(sb)
	e.perform(t, a.mv, nil, func(Step) {})
	return string(e.encode(t, w)) == string(w.slpKey)
}

// sleepMoves returns the moves of mvs (P(s)) not asleep in z, in their
// order, and keeps in w.slp those moves and then z's, for childSleep.
func (e *explorer) sleepMoves(s *State, mvs []macro, z []uint32, w *worker) []macro {
	n := 0
	use := func(mv macro, key uint32) {
		if n == len(w.slp) {
			w.slp = append(w.slp, &sleepMove{})
		}
		w.slp[n].reset(mv, key)
		n++
	}
	taken := mvs[:0]
	for _, mv := range mvs {
		if k := packMacro(mv); !slices.Contains(z, k) {
			taken = append(taken, mv)
			use(mv, k)
		}
	}
	w.slpTaken = n
	for _, k := range z {
		use(unpackMacro(k), k)
	}
	w.slpN = n
	return taken
}

// childSleep returns the sleep set of the successor by the i-th move taken
// (sleep.go): the moves asleep and those taken before it that commute with
// it, sorted.
func (e *explorer) childSleep(s *State, i int, w *worker) []uint32 {
	a := w.slp[i]
	out := w.slpOut[:0]
	for j := 0; j < w.slpN; j++ {
		if j == i || j > i && j < w.slpTaken {
			continue
		}
		if b := w.slp[j]; e.commute(s, a, b, w) {
			out = append(out, b.key)
		}
	}
	slices.Sort(out)
	w.slpOut = out
	return out
}

// chainSleep is chain (the same steps, in the same order, so that path
// replays it) carrying the sleep set z along: at each state v of the
// chain, whose one move is the private step p, the moves of z that do not
// commute with p at v are dropped (sleep.go).
func (e *explorer) chainSleep(t *State, w *worker, z []uint32) (int32, []uint32) {
	if len(z) == 0 || !e.on(redChain) {
		return e.chain(t, w, func(Step) {}), z
	}
	cost := int32(0)
	for !e.m.ended(t) {
		mvs, ok := e.privateStep(t, w)
		if !ok || len(mvs) != 1 {
			break
		}
		if len(z) > 0 {
			v := w.slpV.load(t)
			p := &w.slpP
			p.reset(mvs[0], packMacro(mvs[0]))
			kept := z[:0]
			for _, k := range z {
				u := &w.slpU
				u.reset(unpackMacro(k), k)
				if e.commute(v, p, u, w) {
					kept = append(kept, k)
				}
			}
			z = kept
		}
		e.perform(t, mvs[0], nil, func(st Step) { cost += e.stepCost(st) })
	}
	return cost, z
}

// reset makes x the move mv (packed: key) of a new state.
func (x *sleepMove) reset(mv macro, key uint32) {
	x.mv, x.key, x.done, x.known = mv, key, false, 0
}
