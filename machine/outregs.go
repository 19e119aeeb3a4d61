package machine

import (
	"context"
	"math/bits"
	"slices"
)

// Outcome registers (reduction redOutRegs). Most registers of a litmus
// test are written by a load and then only looked at by the exists
// clause: no instruction reads them, or none after the one that uses a
// loaded pointer or value (a dependency). Keying states by their values
// multiplies the states by every combination of values those registers
// took on the way — 2^6 for perfbook's 6-CPU lock cycles, whose lock
// results nothing reads, and as much for read-read cycles full of
// readers — although none of it can change what happens next.
//
// So the search leaves them out. An outcome register of a CPU at pc
// (outRegs) is one that no instruction the CPU may still run reads: no
// address, value, expected value or condition names it at pc or at an
// instruction reachable from pc. Then
//
//   - the enabled steps of a state and the states they lead to, less the
//     outcome registers, do not depend on the outcome registers' values:
//     the rules read registers only by evaluating an instruction's
//     expressions (Expr.Eval through addr, rmwFails, rmwResult, a
//     branch's condition, a store's value), and the explorer's own
//     choices (persistent and sleep sets, postponing, chains, symmetry's
//     signatures and encodings) read them only through those rules or
//     through the encoding, which leaves them out;
//   - a step writes an outcome register a value that depends only on the
//     rest of the state (a loaded value, an RMW's old value, an
//     expression of other registers), and overwrites it whatever it held;
//     and a register that becomes an outcome register as its CPU's pc
//     moves on (it is dead from then on: outRegs) leaves the state with
//     the value the state held, which the move's successor shows.
//
// A state is then a skeleton (the state less its outcome registers) and
// a valuation (their values), and the machine's graph is the product of
// the skeleton graph with the valuation updates its edges carry. The
// search explores the skeletons (phase one, the ordinary search) and
// records each edge with the writes it made to outcome registers (the
// registers a step writes are marked in cpuState.wrote) and the values
// of those that died on it (writes), and the
// automorphism it was renamed by; then it propagates valuations from the
// initial one along the recorded edges (propagate), breadth first by
// cost, so that each pair of a skeleton and a valuation is reached by a
// shortest path, and reports every pair at a final or stuck skeleton as
// the state it stands for. Where no witness is asked for, propagateSets
// gathers the same pairs as one sorted set of valuations per skeleton,
// in a topological order of the edges, and falls back to propagate
// where it cannot stand in for it (below).
//
// Sound and complete for the outcomes, the deadlocks and the faults,
// relative to the search without it: a skeleton stands for the states
// with every valuation that reaches it, and since the moves the reduced
// search takes from a state depend only on its skeleton (first point),
// the moves taken from the skeleton — from its stored sleep set, the
// intersection over every way it was reached, so never fewer — are
// those it would take from each of those states; each recorded edge,
// applied to a pair, is a move of the machine from the state the pair
// stands for (second point). Symmetry renames a pair's skeleton and
// valuation by the same automorphism, so a pair stands for an orbit as a
// state did. The pairs are the states the search without this reduction
// would store (a few more where sleep sets merged), but a pair costs a
// few bytes and a lookup, a state an expansion.
//
// Witnesses are a pair's path: the moves of the edges from the initial
// pair, replayed from the initial state as before (path).
//
// Not with a filter's pruning (Options.Prune): the filter reads outcome
// registers, so whether a state is pruned is not a property of its
// skeleton.

// outRegs returns, per CPU and per pc (0 to the end of its code), the
// registers no instruction it may still run reads: none at pc or at an
// instruction reachable from pc (falling through, branching, jumping;
// loads issued early and branches guessed are among those). Along any
// execution a CPU's pc only moves to instructions reachable from it, so
// a register once dead stays dead.
func outRegs(p *Program) [][]uint32 {
	out := make([][]uint32, len(p.Threads))
	for c, t := range p.Threads {
		n := len(t.Code)
		// readFrom[pc]: the registers read at pc or after it; a fixed
		// point, since a jump may go back.
		readFrom := make([]uint32, n+1)
		for changed := true; changed; {
			changed = false
			for pc := n - 1; pc >= 0; pc-- {
				in := &t.Code[pc]
				r := in.Addr.Regs() | in.Val.Regs() | in.Exp.Regs() | in.Cond.Regs()
				if in.Op != OpJump {
					r |= readFrom[pc+1]
				}
				if (in.Op == OpJump || in.Op == OpBranch) && in.Target >= 0 && in.Target <= n {
					r |= readFrom[in.Target]
				}
				if r != readFrom[pc] {
					readFrom[pc], changed = r, true
				}
			}
		}
		all := uint32(1)<<uint(len(t.Regs)) - 1
		out[c] = make([]uint32, n+1)
		for pc := range out[c] {
			out[c][pc] = all &^ readFrom[pc]
		}
	}
	return out
}

// orWrite is a write to an outcome register: its slot (orState.off) and
// the value written.
type orWrite struct {
	slot uint16
	val  Value
}

// orEdge is a recorded move of the skeleton search: to state dst, of kind
// kinds[kind&^runEnd]. 8 bytes: what the move writes, what it costs and
// how it renames are kept once per distinct combination (orKind), not
// here, because there are many moves and few such combinations. Nor is
// its source: a state's moves are recorded together, as one run (two or
// more only when a sleep set makes the search expand it again), so the
// runs are found from the state (orState.first) and the source need not
// be kept per move, nor an index of the moves by source built for phase
// two: 16 bytes a move and 4 more of that index were a third of the
// read-read grace-period cycles' peak. The move itself (via, for
// witnesses) is kept beside them only when a witness may be asked for.
type orEdge struct {
	dst  int32
	kind uint32
}

// runEnd marks, in orEdge.kind, the last move of a run.
const runEnd = 1 << 31

// edgeBytes is the size of an orEdge, for the accounting.
const edgeBytes = 8

// kindOf returns the number of the edge's kind.
func (ed *orEdge) kindOf() uint32 { return ed.kind &^ runEnd }

// orKind is what a recorded move does besides its step: it costs cost,
// writes the writes that start at labs[lab] (0: none) and renames by
// automorphism perm (-1: none); plain when it does neither.
type orKind struct {
	lab   uint32
	cost  uint16 // (a chain longer than that only orders witnesses)
	perm  int16
	plain bool
}

// writesOf returns the writes of the edge whose writes start at lab:
// labs[lab] holds their number, they follow it. labs[0] is an empty
// list, the one of every move that writes no outcome register.
func (o *orState) writesOf(lab uint32) []orWrite {
	n := uint32(o.labs[lab].val)
	return o.labs[lab+1 : lab+1+n]
}

// orPair is a skeleton (state) with a valuation (val), reached from pair
// parent (-1: the initial pair) by the move via at distance dist, with
// pairDone once it is expanded.
type orPair struct {
	state  int32
	val    uint32
	parent int32
	via    uint32
	dist   uint32
}

const pairDone = 1 << 31

// orState is the explorer's part of the reduction.
type orState struct {
	on   bool
	skip [][]uint32 // per CPU and pc, the outcome registers (outRegs)
	off  []int      // per CPU, the slot of its register 0 in a valuation
	k    int        // slots in a valuation: every register of every CPU
	// Phase one: the edges, their writes, and the final or stuck
	// skeletons (a bit per state).
	edges pages[orEdge]
	// first holds, per state, 1 + the number of its first run's first
	// move (0: it has none yet), with moreRuns set when it has more runs,
	// whose first moves more holds. runFrom and inRun follow the run
	// being recorded.
	first   paged32
	more    map[int32][]int32
	runFrom int32
	inRun   bool
	// vias holds each move packed (packMacro) when keepVia: witnesses,
	// or the first deadlock's, may be asked for.
	vias    paged32
	keepVia bool
	ebuf    []int32 // edgesOf's buffer
	labs    []orWrite
	labIdx  idTable // the writes' numbers: where they start in labs
	kinds   []orKind
	kindIdx idTable // the kinds' numbers
	ends    []uint64
	// From phase two on, the end skeletons' tuples (keepEnds): endWidth
	// words each, in order, and per word of ends the ends before it.
	endWords []uint32
	endRank  []uint32
	endWidth int
	// Phase two: the valuations (k values each, interned: a byte each in
	// vals8 while every value fits, else in vals, wideVals), the pairs and
	// their index by state and valuation, and the queue by distance.
	vals     []Value
	vals8    []int8
	wideVals bool
	valIdx   idTable
	pairs    pages[orPair]
	pairIdx  pairTable // pairs by state and valuation
	memo     memoCache // update's results
	// indeg is propagateSets' in-degrees, and its slots above them;
	// ready its skeletons ready to follow.
	indeg []uint32
	ready []int32
	// setBytes is what propagateSets' pending sets hold.
	setBytes int64
	queue    [][]int32
	tmp      []Value
	tmp2     []Value
}

// reset readies the reduction for a search of m, on or not; keepVia
// keeps each move for the witnesses.
func (o *orState) reset(m *Machine, on, keepVia bool) {
	o.on = false
	o.edges.reset(9) // pages of 512 moves (4 KiB)
	o.first.reset()
	o.vias.reset()
	clear(o.more)
	o.inRun, o.keepVia = false, keepVia
	o.pairs.reset(10) // and of 1,024 pairs (20 KiB): a small search touches one each
	o.labs, o.ends = append(o.labs[:0], orWrite{}), o.ends[:0]
	o.vals, o.vals8, o.wideVals = o.vals[:0], o.vals8[:0], false
	clear(o.queue)
	o.queue = o.queue[:0]
	o.valIdx.reset()
	o.pairIdx.reset()
	o.memo.reset()
	o.labIdx.reset()
	o.kinds = o.kinds[:0]
	o.kindIdx.reset()
	if !on {
		return
	}
	any := false
	for _, byPC := range m.outRegs {
		for _, s := range byPC {
			any = any || s != 0
		}
	}
	if !any {
		return
	}
	o.on = true
	o.skip = m.outRegs
	o.off = o.off[:0]
	o.k = 0
	for _, t := range m.Prog.Threads {
		o.off = append(o.off, o.k)
		o.k += len(t.Regs)
	}
	o.tmp, o.tmp2 = grow(o.tmp, o.k), grow(o.tmp2, o.k)
}

// skip returns the registers of CPU c at pc the search's encoding leaves
// out.
func (e *explorer) skip(c int, pc uint8) uint32 {
	if !e.or.on {
		return 0
	}
	return e.or.skip[c][pc]
}

// skipRegs returns, per CPU and pc, the registers the encoding leaves out
// (nil: none).
func (e *explorer) skipRegs() [][]uint32 {
	if !e.or.on {
		return nil
	}
	return e.or.skip
}

// fillSkipped copies into d the outcome registers of s.
func (e *explorer) fillSkipped(d, s *State) {
	if !e.or.on {
		return
	}
	for c := range d.cpus {
		for r := range d.cpus[c].regs {
			if e.or.skip[c][s.cpus[c].pc]&(1<<r) != 0 {
				d.cpus[c].regs[r] = s.cpus[c].regs[r]
			}
		}
	}
}

// writes appends to out what the valuation of t gets from the moves from
// s (the state decoded) to t: the outcome registers of t written since s,
// and those that were not outcome registers in s, with their values in t.
func (e *explorer) writes(out []orWrite, s, t *State) []orWrite {
	for c := range t.cpus {
		cs := &t.cpus[c]
		dead := e.or.skip[c][cs.pc]
		for w := (cs.wrote | ^e.or.skip[c][s.cpus[c].pc]) & dead; w != 0; w &= w - 1 {
			r := bitIndex(w)
			out = append(out, orWrite{slot: uint16(e.or.off[c] + r), val: cs.regs[r]})
		}
	}
	return out
}

// bitIndex returns the index of w's lowest set bit.
func bitIndex(w uint32) int {
	n := 0
	for w&1 == 0 {
		w >>= 1
		n++
	}
	return n
}

// recordEdge records the move sc from state src to state dst.
// Equal writes are stored once, so that update can keep its results by
// where they start.
func (e *explorer) recordEdge(src, dst int32, sc *successor) {
	o := &e.or
	lab := uint32(0)
	if len(sc.writes) > 0 {
		h := uint64(len(sc.writes))
		for _, w := range sc.writes {
			h = hashMix(hashMix(h, uint64(w.slot)), uint64(w.val))
		}
		ws := sc.writes
		var ok bool
		if lab, ok = o.labIdx.get(h, func(at uint32) bool {
			// Each list starts with its length, so a start names one.
			return slices.Equal(o.writesOf(at), ws)
		}); !ok {
			lab = uint32(len(o.labs))
			o.labIdx.put(h, lab)
			o.labs = append(o.labs, orWrite{val: Value(len(ws))})
			o.labs = append(o.labs, sc.writes...)
		}
	}
	k := orKind{lab: lab, cost: uint16(min(sc.cost, 1<<16-1)), perm: sc.perm, plain: lab == 0 && sc.perm < 0}
	h := hashMix(hashMix(hashMix(0, uint64(k.lab)), uint64(k.cost)), uint64(k.perm))
	kind, ok := o.kindIdx.get(h, func(id uint32) bool { return o.kinds[id] == k })
	if !ok {
		kind = uint32(len(o.kinds))
		o.kindIdx.put(h, kind)
		o.kinds = append(o.kinds, k)
	}
	i := o.edges.add(orEdge{dst: dst, kind: kind})
	if o.keepVia {
		o.vias.append(packMacro(sc.via))
	}
	if !o.inRun || o.runFrom != src {
		o.endRun()
		o.startRun(src, i)
	}
}

// moreRuns marks, in orState.first, a state with more than one run.
const moreRuns = 1 << 31

// startRun records that the moves from src recorded next start at move i.
func (o *orState) startRun(src, i int32) {
	for o.first.n <= int(src) {
		o.first.append(0)
	}
	o.runFrom, o.inRun = src, true
	f := o.first.at(int(src))
	if f == 0 {
		o.first.set(int(src), uint32(i)+1)
		return
	}
	// Expanded again (a redo, sleep.go): rare, so kept aside.
	if o.more == nil {
		o.more = make(map[int32][]int32)
	}
	o.more[src] = append(o.more[src], i)
	o.first.set(int(src), f|moreRuns)
}

// endRun closes the run being recorded, if any: the explorer calls it
// after each state's moves.
func (o *orState) endRun() {
	if o.inRun {
		o.edge(o.edges.n - 1).kind |= runEnd
		o.inRun = false
	}
}

// edgesOf appends to buf the moves recorded from src, in the order
// recorded, and returns it.
func (o *orState) edgesOf(src int32, buf []int32) []int32 {
	if int(src) >= o.first.n {
		return buf
	}
	f := o.first.at(int(src))
	if f == 0 {
		return buf
	}
	buf = o.appendRun(buf, int32(f&^moreRuns)-1)
	if f&moreRuns != 0 {
		for _, i := range o.more[src] {
			buf = o.appendRun(buf, i)
		}
	}
	return buf
}

// appendRun appends the moves of the run that starts at move i.
func (o *orState) appendRun(buf []int32, i int32) []int32 {
	for ; ; i++ {
		buf = append(buf, i)
		if o.edge(i).kind&runEnd != 0 {
			return buf
		}
	}
}

// via returns move i packed, or 0 when moves are not kept (keepVia).
func (o *orState) via(i int32) uint32 {
	if !o.keepVia {
		return 0
	}
	return o.vias.at(int(i))
}

// markEnd records that state idx is final or stuck.
func (e *explorer) markEnd(idx int32) {
	o := &e.or
	for int(idx)/64 >= len(o.ends) {
		o.ends = append(o.ends, 0)
	}
	o.ends[idx/64] |= 1 << (idx % 64)
}

// keepEnds copies the tuples of the end skeletons out of ts, the only
// ones phase two decodes, so that the search's tuples can go before it:
// they were a fifth to a third of what phase two held at its peak.
func (o *orState) keepEnds(ts *tupleSet) {
	o.endWidth = ts.width
	ends := 0
	for _, word := range o.ends {
		ends += bits.OnesCount64(word)
	}
	o.endRank = fit(o.endRank, len(o.ends))
	o.endWords = fit(o.endWords, ends*ts.width)[:0]
	r := uint32(0)
	for i, word := range o.ends {
		o.endRank[i] = r
		for ; word != 0; word &= word - 1 {
			base := (i*64 + bits.TrailingZeros64(word)) * ts.width
			for j := range ts.width {
				o.endWords = append(o.endWords, ts.words.at(base+j))
			}
			r++
		}
	}
}

// fit returns b resized to n, reallocated when it is too small or when
// a larger search left it more than twice too large (what is held is
// what the accounting counts).
func fit[T any](b []T, n int) []T {
	if cap(b) < n || cap(b) > 2*n+1024 {
		return make([]T, n)
	}
	return b[:n]
}

// endTuple copies the tuple of end skeleton idx (keepEnds) into t.
func (o *orState) endTuple(idx int, t []uint32) {
	word := o.ends[idx/64] & (1<<(idx%64) - 1)
	base := int(o.endRank[idx/64]+uint32(bits.OnesCount64(word))) * o.endWidth
	copy(t, o.endWords[base:base+o.endWidth])
}

func (o *orState) isEnd(idx int32) bool {
	return int(idx)/64 < len(o.ends) && o.ends[idx/64]&(1<<(idx%64)) != 0
}

// internVal returns the number of valuation v.
func (o *orState) internVal(v []Value) uint32 {
	h := uint64(0)
	for _, x := range v {
		h = hashMix(h, uint64(x))
	}
	if id, ok := o.valIdx.get(h, func(id uint32) bool { return o.valEqual(id, v) }); ok {
		return id
	}
	id := uint32(o.valCount())
	o.valIdx.put(h, id)
	if !o.wideVals {
		if fitsByte(v) {
			for _, x := range v {
				o.vals8 = append(o.vals8, int8(x))
			}
			return id
		}
		// The first value that needs more: every valuation goes wide.
		o.vals = slices.Grow(o.vals[:0], len(o.vals8)+len(v))
		for _, x := range o.vals8 {
			o.vals = append(o.vals, Value(x))
		}
		o.vals8, o.wideVals = o.vals8[:0], true
	}
	o.vals = append(o.vals, v...)
	return id
}

// fitsByte reports whether every value of v fits in a byte.
func fitsByte(v []Value) bool {
	for _, x := range v {
		if x != Value(int8(x)) {
			return false
		}
	}
	return true
}

// valCount is the number of valuations interned.
func (o *orState) valCount() int {
	if o.wideVals {
		return len(o.vals) / max(o.k, 1)
	}
	return len(o.vals8) / max(o.k, 1)
}

// valEqual reports whether valuation id is v.
func (o *orState) valEqual(id uint32, v []Value) bool {
	if o.wideVals {
		return slices.Equal(o.vals[int(id)*o.k:int(id+1)*o.k], v)
	}
	for i, x := range o.vals8[int(id)*o.k : int(id+1)*o.k] {
		if Value(x) != v[i] {
			return false
		}
	}
	return true
}

// hashMix adds x to hash h.
func hashMix(h, x uint64) uint64 {
	return bits.RotateLeft64(h^x, 27) * 0xbf58476d1ce4e5b9
}

// valInto copies valuation id into dst (o.k values).
func (o *orState) valInto(id uint32, dst []Value) {
	if o.wideVals {
		copy(dst, o.vals[int(id)*o.k:int(id+1)*o.k])
		return
	}
	for i, x := range o.vals8[int(id)*o.k : int(id+1)*o.k] {
		dst[i] = Value(x)
	}
}

// propagate is phase two: it spreads the valuations from the initial
// pair along the recorded edges, breadth first by cost, and reports the
// pairs at final or stuck skeletons (terminal). It stops early, with
// stopped set, when ctx ends.
func (e *explorer) propagate(ctx context.Context, init *State, stopped *Stop) {
	o := &e.or
	o.memo.limit(e.states.n)
	if e.opts.NoWitnesses && e.propagateSets(ctx, init, stopped) {
		return
	}
	defer func() { e.res.Pairs = int(o.pairs.n) }()
	v0id := o.initialVal(init)
	push := func(p int32, d int32) {
		for int(d) >= len(o.queue) {
			o.queue = append(o.queue, nil)
		}
		o.queue[d] = append(o.queue[d], p)
	}
	o.pairIdx.put(o, o.pairs.add(orPair{state: 0, val: v0id, parent: -1}))
	push(0, 0)
	w := e.workers[0]
	popped := 0
	for d := 0; d < len(o.queue); d++ {
		// First in, first out, and the edges in the order the search
		// recorded them: a pair's parent is the first found, so that a
		// search cut short by a limit gives the witnesses it reached as
		// the whole search does.
		for i := 0; i < len(o.queue[d]); i++ {
			p := o.queue[d][i]
			pr := *o.pair(p)
			if pr.dist != uint32(d) { // expanded, or queued again nearer
				continue
			}
			o.pair(p).dist |= pairDone
			if popped++; popped%4096 == 0 {
				// The same limits as the search's (time, cancellation,
				// the memory budget), checked as often.
				if st := e.stopAfterChunk(ctx); st.Kind != StopNone {
					if stopped.Kind == StopNone {
						*stopped = st
					}
					return
				}
			}
			if o.isEnd(pr.state) {
				s := e.decode(int(pr.state), w)
				o.fillVal(s, pr.val)
				e.terminal(p, s)
			}
			o.ebuf = o.edgesOf(pr.state, o.ebuf[:0])
			for _, ei := range o.ebuf {
				ed := o.edge(ei)
				kind := ed.kindOf()
				kd := &o.kinds[kind]
				id := pr.val // most moves write no outcome register
				if !kd.plain {
					id = e.update(pr.val, kind)
				}
				nd := uint32(d) + uint32(kd.cost)
				if q := o.pairIdx.get(o, ed.dst, id); q >= 0 {
					// A pair expanded already keeps its path.
					if pq := o.pair(q); pq.dist&pairDone == 0 && pq.dist > nd {
						pq.parent, pq.via, pq.dist = p, o.via(ei), nd
						push(q, int32(nd))
					}
					continue
				}
				q := o.pairs.add(orPair{state: ed.dst, val: id, parent: p, via: o.via(ei), dist: nd})
				o.pairIdx.put(o, q)
				push(q, int32(nd))
			}
		}
	}
}

// initialVal returns the number of the initial state's valuation.
func (o *orState) initialVal(init *State) uint32 {
	v0 := make([]Value, o.k)
	for c := range init.cpus {
		copy(v0[o.off[c]:], init.cpus[c].regs)
		for r := range init.cpus[c].regs {
			if o.skip[c][init.cpus[c].pc]&(1<<r) == 0 {
				v0[o.off[c]+r] = 0 // only outcome registers make a valuation
			}
		}
	}
	return o.internVal(v0)
}

// fillVal writes valuation val into the outcome registers of s, a
// skeleton decoded.
func (o *orState) fillVal(s *State, val uint32) {
	v := o.tmp // (update, its other user, is not running)
	o.valInto(val, v)
	for c := range s.cpus {
		for r := range s.cpus[c].regs {
			if o.skip[c][s.cpus[c].pc]&(1<<r) != 0 {
				s.cpus[c].regs[r] = v[o.off[c]+r]
			}
		}
	}
}

// propagateSets is phase two where no witness is asked for: it gives
// each skeleton the set of valuations that reach it, gathered from its
// predecessors' sets in a topological order of the recorded edges, and
// reports each valuation of a final skeleton. It reaches the pairs
// propagate reaches — a pair is reachable from the initial one along
// the edges, whatever the order they are followed in — without their
// paths, distances or index: a skeleton's set is a sorted list, built
// when its last predecessor is done and dropped when its successors
// have theirs, so that the lookups of a hash table of pairs (two cache
// misses each, most of propagate's time on the read-read cycles) become
// appends and a sort.
//
// It declines (false, nothing reported) where it cannot stand in for
// propagate: when the edges make a cycle (a spin loop: no topological
// order), and when a skeleton the search ended at is not final (a
// deadlock, a fault or a wrong guess), whose reports want the nearest
// pair first and a path for the first.
func (e *explorer) propagateSets(ctx context.Context, init *State, stopped *Stop) bool {
	o := &e.or
	n := e.states.n
	w := e.workers[0]
	for i, word := range o.ends {
		for ; word != 0; word &= word - 1 {
			idx := i*64 + bits.TrailingZeros64(word)
			if idx >= n {
				continue
			}
			s := e.decode(idx, w)
			if _, ok := e.m.Misspeculated(s); ok {
				return false
			}
			if _, ok := e.m.Fault(s); ok || !e.m.Final(s) {
				return false
			}
		}
	}
	// Kahn's order: a skeleton comes after every predecessor. The
	// skeletons ready to follow are taken last in, first out, so that
	// the order goes deep: a skeleton's successors follow it soon, and
	// fewer sets wait at once than breadth first (the read-read cycles'
	// pending sets held 40 to 60% less). The order is followed twice and
	// never kept: once to see that there is one, and again to propagate.
	// Each pass holds the skeletons ready (ready) and a word per
	// skeleton, its in-degree, where the second keeps its pending set's
	// slot in the high bits (above shift) while the count fits below:
	// an array of n where the order and the slots took two.
	indeg := o.inDegrees(n)
	ready := o.ready[:0]
	if n > 0 && indeg[0] == 0 {
		ready = append(ready, 0)
	}
	seen := 0
	for len(ready) > 0 {
		st := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		seen++
		o.ebuf = o.edgesOf(st, o.ebuf[:0])
		for _, ei := range o.ebuf {
			d := o.edge(ei).dst
			if indeg[d]--; indeg[d] == 0 {
				ready = append(ready, d)
			}
		}
	}
	if seen < n {
		// A cycle, or skeletons no edge reaches (none: every stored
		// state was reached by a recorded move or is the initial one).
		o.ready = ready
		return false
	}
	indeg = o.inDegrees(n)
	// A skeleton's pending set is a buffer of pool, named by its slot
	// (the buffer's number plus one; 0: none yet), and the number goes
	// back to free once the skeleton is done: where a slice header took
	// 24 bytes a skeleton, and as many headers as sets pending at once.
	// Fewer than n slots are ever in use, so the slot fits above the
	// in-degree unless n's bits and the largest in-degree's make more
	// than 32; then the slots get an array of their own (keep 0).
	var maxIn uint32
	for _, d := range indeg {
		maxIn = max(maxIn, d)
	}
	shift := uint(bits.Len32(maxIn))
	apart := shift+uint(bits.Len(uint(n))) > slotWordBits
	// low: the in-degree's bits of a word; keep: what setting a slot keeps.
	slots, low, keep := indeg, uint32(1)<<shift-1, uint32(1)<<shift-1
	if apart {
		slots, shift, low, keep = make([]uint32, n), 0, ^uint32(0), 0
	}
	var pool [][]uint32
	var free []uint32
	bufBytes := int64(0) // the buffers' capacity
	held := func() int64 {
		n := int64(cap(indeg))
		if apart {
			n += int64(cap(slots))
		}
		return n*4 + int64(cap(ready))*4 + int64(cap(pool))*24 + int64(cap(free))*4 + bufBytes
	}
	bufOf := func(st int32) uint32 {
		k := slots[st] >> shift
		if k == 0 {
			if f := len(free); f > 0 {
				k = free[f-1] + 1
				free = free[:f-1]
			} else {
				pool = append(pool, nil)
				k = uint32(len(pool))
			}
			slots[st] = slots[st]&keep | k<<shift
		}
		return k - 1
	}
	k0 := bufOf(0)
	pool[k0] = append(pool[k0], o.initialVal(init))
	bufBytes += int64(cap(pool[k0])) * 4
	defer func() { o.setBytes = 0 }()
	pairs, next := 0, 4096
	ready = append(ready[:0], 0) // the initial skeleton: it has no predecessor
	for len(ready) > 0 {
		st := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		k := slots[st]>>shift - 1
		slots[st] &= keep
		set := pool[k]
		slices.Sort(set)
		set = slices.Compact(set)
		if pairs += len(set); pairs >= next {
			next = pairs + 4096
			o.setBytes = held()
			if sp := e.stopAfterChunk(ctx); sp.Kind != StopNone {
				if stopped.Kind == StopNone {
					*stopped = sp
				}
				e.res.Pairs = pairs
				o.ready = ready
				return true
			}
		}
		if o.isEnd(st) {
			s := e.decode(int(st), w)
			for _, v := range set {
				o.fillVal(s, v)
				e.terminal(-1, s)
			}
		}
		o.ebuf = o.edgesOf(st, o.ebuf[:0])
		for _, ei := range o.ebuf {
			ed := o.edge(ei)
			j := bufOf(ed.dst)
			d := pool[j]
			bufBytes -= int64(cap(d)) * 4
			if len(d)+len(set) > cap(d) && len(d) > 0 {
				// Before the buffer grows, its duplicates go: a
				// skeleton's predecessors share most of their
				// valuations (the read-read cycles' pending entries
				// were 2.2 times the distinct ones).
				slices.Sort(d)
				d = slices.Compact(d)
			}
			if len(d)+len(set) > cap(d) {
				// To the size it needs and no more: append's doubling
				// left a fifth of the pending sets' bytes unused.
				d = append(make([]uint32, 0, len(d)+len(set)), d...)
			}
			if kind := ed.kindOf(); o.kinds[kind].plain {
				d = append(d, set...) // most moves write no outcome register
			} else {
				for _, v := range set {
					d = append(d, e.update(v, kind))
				}
			}
			bufBytes += int64(cap(d)) * 4
			pool[j] = d
			if indeg[ed.dst]--; indeg[ed.dst]&low == 0 {
				ready = append(ready, ed.dst)
			}
		}
		// The set's buffer goes (kept for reuse, the buffers of the sets
		// done held more than the pending sets did); its number is reused.
		bufBytes -= int64(cap(set)) * 4
		pool[k] = nil
		free = append(free, k)
	}
	o.ready = ready
	e.res.Pairs = pairs
	return true
}

// slotWordBits is how many bits propagateSets may pack a pending set's
// slot and an in-degree into (a variable so that a test can make it keep
// the slots apart).
var slotWordBits uint = 32

// inDegrees returns, per skeleton of the n, how many recorded moves lead
// to it (in o.indeg's buffer).
func (o *orState) inDegrees(n int) []uint32 {
	indeg := o.indeg[:0]
	if cap(indeg) < n {
		indeg = make([]uint32, n) // exactly: it is most of what is held
	}
	indeg = indeg[:n]
	clear(indeg)
	for i := range int(o.edges.n) {
		indeg[o.edge(int32(i)).dst]++
	}
	o.indeg = indeg
	return indeg
}

// update returns the valuation a move of kind kind leads valuation v to:
// its writes, then its automorphism. Many pairs share a valuation and
// many moves their writes, so results are kept by valuation, writes and
// automorphism (moves with equal writes share lab: recordEdge), in a cache
// that forgets (memoCache): kept whole, they took a third of the
// read-read grace-period cycles' memory, and the pairs reach them in
// runs (one skeleton's set along each of its edges), which a small cache
// catches as well.
func (e *explorer) update(v uint32, kind uint32) uint32 {
	o := &e.or
	kd := &o.kinds[kind]
	// Keyed by the writes (where they start) and the renaming, not by
	// kind: kinds differing only in cost share the result.
	writes := uint64(kd.lab)
	key := uint64(v)<<32 | writes<<8 | uint64(kd.perm+1)
	memo := writes < 1<<24 && kd.perm+1 < 256
	var slot *memoSlot
	if memo {
		var hit bool
		if slot, hit = o.memo.get(key); hit {
			return slot.val
		}
	}
	o.valInto(v, o.tmp)
	for _, wr := range o.writesOf(kd.lab) {
		o.tmp[wr.slot] = wr.val
	}
	next := o.tmp
	if kd.perm >= 0 {
		g := &e.m.sym[kd.perm]
		next = o.tmp2
		for c := range o.off {
			k := len(e.m.Prog.Threads[c].Regs)
			copy(next[o.off[g.cpu[c]]:o.off[g.cpu[c]]+k], o.tmp[o.off[c]:o.off[c]+k])
		}
	}
	id := o.internVal(next)
	if memo {
		*slot = memoSlot{key: key + 1, val: id}
	}
	return id
}

// pages holds a growing list of Ts in pages of 1<<bits, so that growing
// copies nothing, and keeps its pages from search to search (reset).
type pages[T any] struct {
	pages [][]T
	n     int32
	bits  uint
}

// at returns element i.
func (p *pages[T]) at(i int32) *T {
	return &p.pages[i>>p.bits][i&(1<<p.bits-1)]
}

// add appends v and returns its number.
func (p *pages[T]) add(v T) int32 {
	i := p.n
	if k := int(i >> p.bits); k == len(p.pages) {
		// A page a previous search left, or a new one.
		if k < cap(p.pages) && p.pages[:k+1][k] != nil {
			p.pages = p.pages[:k+1]
		} else {
			p.pages = append(p.pages, make([]T, 1<<p.bits))
		}
	}
	*p.at(i) = v
	p.n++
	return i
}

// reset empties p, keeping its pages; bits is the page size's log.
func (p *pages[T]) reset(bits uint) {
	if bits != p.bits {
		p.pages = nil
	}
	p.pages, p.n, p.bits = p.pages[:0], 0, bits
}

// bytes is what p holds, with elements of size bytes each.
func (p *pages[T]) bytes(size int64) int64 {
	return int64(len(p.pages)) << p.bits * size
}

// edge returns edge i.
func (o *orState) edge(i int32) *orEdge { return o.edges.at(i) }

// pair returns pair p.
func (o *orState) pair(p int32) *orPair { return o.pairs.at(p) }

// bytes is what the reduction holds.
func (o *orState) bytes() int64 {
	more := int64(len(o.more)) * 48 // a map entry and its slice, roughly
	for _, r := range o.more {
		more += int64(cap(r)) * 4
	}
	return o.setBytes + o.edges.bytes(edgeBytes) + o.first.bytes() + o.vias.bytes() + more + int64(cap(o.ebuf))*4 + int64(cap(o.labs))*16 + int64(cap(o.ends))*8 +
		int64(cap(o.endWords))*4 + int64(cap(o.endRank))*4 +
		int64(cap(o.vals))*8 + int64(cap(o.vals8)) + o.valIdx.bytes() +
		o.pairs.bytes(20) + o.pairIdx.bytes() + o.memo.bytes() + o.labIdx.bytes() +
		int64(cap(o.kinds))*12 + o.kindIdx.bytes()
}
